// The answer readers on exact inputs: what a student's file or a sheet row
// becomes, every unreadable reason word for word, and every note.
#include "support/test_support.h"

#include <algorithm>
#include <string>
#include <vector>

#include "readers/answer_reader.h"
#include "attnmark/base/error.h"

using attnmark::Error;
using attnmark::read_answer_file;
using attnmark::read_sheet;
using attnmark::ReadLimits;
using attnmark::SheetInfo;
using attnmark::Submission;

namespace {

using Rows = std::vector<std::vector<std::string>>;
using Notes = std::vector<std::string>;

std::string unreadable(const std::string& text, const ReadLimits& limits = {}) {
  return read_answer_file(text, "s001.yaml", limits).unreadable;
}

// The lesson template for s001 (attnmark template rubrics/lesson.yaml
// --student s001), filled in the ways students write numbers.
const std::string filled_yaml =
    "# attnmark answer file for lesson: replace each ~ with your answer.\n"
    "# Numbers like 0.665, 2/3 or 66.5% are fine; write masked for a masked score.\n"
    "rubric: \"lesson\"\n"
    "student: \"s001\"\n"
    "seed: 2026\n"
    "variant: \"2a1549ca301b20b2\"\n"
    "generator: \"attnmark-gen/2\"\n"
    "answers:\n"
    "  q1:\n"
    "    scores: [1.5, 0.670, \"2/3\"]  # bus, is, late\n"
    "    weights: [66.5%, ~, .09]  # bus, is, late\n"
    "    output: [-0.25, 1e-3]\n"
    "  q2:\n"
    "    scores:\n"
    "      - [1, 2, 3]  # bus\n"
    "      - [masked, -inf, 0]  # is\n"
    "      - [~, ~, ~]  # late\n"
    "    weights:\n"
    "      - [~, ~, ~]  # bus\n"
    "      - [~, ~, ~]  # is\n"
    "      - [~, ~, ~]  # late\n"
    "    output:\n"
    "      - [0.10, '0.20']  # bus\n"
    "      - [~, ~]  # is\n"
    "      - [~, ~]  # late\n"
    "  q3:\n"
    "    scores: [~, ~, ~]  # bus, is, late\n"
    "    weights: [~, ~, ~]  # bus, is, late\n"
    "    most_attended: bus  # a token's word\n";

// The same answers as JSON.
const std::string filled_json = R"({
  "rubric": "lesson",
  "student": "s001",
  "seed": 2026,
  "variant": "2a1549ca301b20b2",
  "generator": "attnmark-gen/2",
  "answers": {
    "q1": {
      "scores": [1.5, 0.670, "2/3"],
      "weights": ["66.5%", null, ".09"],
      "output": [-0.25, 1e-3]
    },
    "q2": {
      "scores": [[1, 2, 3], ["masked", "-inf", 0], [null, null, null]],
      "weights": [[null, null, null], [null, null, null], [null, null, null]],
      "output": [[0.10, "0.20"], [null, null], [null, null]]
    },
    "q3": {
      "scores": [null, null, null],
      "weights": [null, null, null],
      "most_attended": "bus"
    }
  }
})";

void check_filled(const Submission& s) {
  CHECK(s.unreadable == "");
  CHECK(s.notes == Notes{});
  CHECK(s.rubric == "lesson");
  CHECK(s.student == "s001");
  REQUIRE(s.seed);
  CHECK(*s.seed == 2026);
  CHECK(s.variant == "2a1549ca301b20b2");
  CHECK(s.answers.size() == 3);
  CHECK(cells(s, "q1", "scores") == Rows{{"1.5", "0.670", "2/3"}});
  CHECK(cells(s, "q1", "weights") == Rows{{"66.5%", "", ".09"}});
  CHECK(cells(s, "q1", "output") == Rows{{"-0.25", "1e-3"}});
  CHECK(cells(s, "q2", "scores") == Rows{{"1", "2", "3"}, {"masked", "-inf", "0"}, {"", "", ""}});
  CHECK(cells(s, "q2", "weights") == Rows{{"", "", ""}, {"", "", ""}, {"", "", ""}});
  CHECK(cells(s, "q2", "output") == Rows{{"0.10", "0.20"}, {"", ""}, {"", ""}});
  CHECK(cells(s, "q3", "scores") == Rows{{"", "", ""}});
  CHECK(cells(s, "q3", "most_attended") == Rows{{"bus"}});
  CHECK(s.answers.at("q3").size() == 3);
}

// Replaces every "\n" with "\r\n".
std::string crlf(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

}  // namespace

// ---- Answer files ----

TEST_CASE("a filled template reads cell by cell, text as written") {
  const Submission s = read_answer_file(filled_yaml, "answers/s001.yaml");
  CHECK(s.source == "answers/s001.yaml");
  check_filled(s);
}

TEST_CASE("the same answers as JSON read the same, numbers' text kept") {
  const Submission s = read_answer_file(filled_json, "answers/s001.json");
  CHECK(s.source == "answers/s001.json");
  check_filled(s);
}

TEST_CASE("CRLF line endings and a UTF-8 BOM read like plain LF") {
  check_filled(read_answer_file(crlf(filled_yaml), "a.yaml"));
  check_filled(read_answer_file("\xEF\xBB\xBF" + filled_yaml, "a.yaml"));
  check_filled(read_answer_file("\xEF\xBB\xBF" + crlf(filled_yaml), "a.yaml"));
  check_filled(read_answer_file(crlf(filled_json), "a.json"));
  check_filled(read_answer_file("\xEF\xBB\xBF \r\n" + filled_json, "a.json"));
}

TEST_CASE("quoted and plain numbers keep trailing zeros and spelling") {
  const Submission s = read_answer_file(
      "answers:\n  q1:\n    scores: [\"0.670\", '1.50', 0.670, 2.0e0, +3, 00123]\n", "a.yaml");
  CHECK(s.unreadable == "");
  CHECK(cells(s, "q1", "scores") == Rows{{"0.670", "1.50", "0.670", "2.0e0", "+3", "00123"}});

  const Submission j = read_answer_file(
      R"({"answers": {"q1": {"scores": ["0.670", 0.670, 1.0E5, 7, -7, 18446744073709551615, true]}}})",
      "a.json");
  CHECK(j.unreadable == "");
  CHECK(cells(j, "q1", "scores") ==
        Rows{{"0.670", "0.670", "1.0E5", "7", "-7", "18446744073709551615", "true"}});
}

TEST_CASE("nulls, blanks and empty lists become blank cells") {
  const Submission s = read_answer_file(
      "answers:\n"
      "  q1:\n"
      "    scores: [~, null, '', \"\"]\n"
      "    weights:\n"
      "    output: ~\n"
      "    most_attended: []\n",
      "a.yaml");
  CHECK(s.unreadable == "");
  CHECK(cells(s, "q1", "scores") == Rows{{"", "", "", ""}});
  CHECK(cells(s, "q1", "weights") == Rows{{""}});
  CHECK(cells(s, "q1", "output") == Rows{{""}});
  CHECK(cells(s, "q1", "most_attended") == Rows{{}});
}

TEST_CASE("one value, a row, rows, and a lone value among rows") {
  const Submission s = read_answer_file(
      "answers:\n"
      "  q3:\n"
      "    most_attended: bus\n"
      "    weights: [1, 2]\n"
      "    scores:\n"
      "      - [1, 2]\n"
      "      - 3\n"
      "      - []\n",
      "a.yaml");
  CHECK(s.unreadable == "");
  CHECK(s.notes == Notes{});
  CHECK(cells(s, "q3", "most_attended") == Rows{{"bus"}});
  CHECK(cells(s, "q3", "weights") == Rows{{"1", "2"}});
  CHECK(cells(s, "q3", "scores") == Rows{{"1", "2"}, {"3"}, {}});
}

TEST_CASE("a row of pairs of digits, what YAML makes of decimal commas, is also offered joined, with its note") {
  const Submission s = read_answer_file(
      "answers:\n"
      "  q1:\n"
      "    weights: [0,665, 0,090, 0,245]\n"
      "    output: [[ -7 , 88, +2,12]]\n"
      "    scores: [2, 0, 1]\n"
      "    keys: [0.5, 665]\n"
      "    values: [0, -5]\n"
      "    weigths: [0,5, 0,5]\n"
      "  q2:\n"
      "    scores:\n"
      "      - [0,5, 0,5]\n"
      "      - [0,5, 0,5]\n",
      "a.yaml");
  CHECK(s.unreadable == "");
  // The cells stay as YAML read them; the joined pairs are another reading.
  CHECK(cells(s, "q1", "weights") == Rows{{"0", "665", "0", "090", "0", "245"}});
  const auto& weights = s.answers.at("q1").at("weights").other_reading;
  REQUIRE(weights);
  CHECK(weights->row == std::vector<std::string>{"0,665", "0,090", "0,245"});
  CHECK(weights->note ==
        "weights: YAML reads a decimal comma as a list comma, so these 6 numbers were read as 3 with decimal commas "
        "(0,665, 0,090, 0,245); write 0.665, or quote \"0,665\"");
  // One row written as a list of rows; a sign on the whole part, spaces trimmed.
  const auto& output = s.answers.at("q1").at("output").other_reading;
  REQUIRE(output);
  CHECK(output->row == std::vector<std::string>{"-7,88", "+2,12"});
  CHECK(output->note ==
        "output: YAML reads a decimal comma as a list comma, so these 4 numbers were read as 2 with decimal commas "
        "(-7,88, +2,12); write 0.665, or quote \"0,665\"");
  // Not offered: an odd count, a pair that is not of digits, a sign on the
  // decimals, a part no rubric has, rows.
  CHECK_FALSE(s.answers.at("q1").at("scores").other_reading);
  CHECK_FALSE(s.answers.at("q1").at("keys").other_reading);
  CHECK_FALSE(s.answers.at("q1").at("values").other_reading);
  CHECK_FALSE(s.answers.at("q1").at("weigths").other_reading);
  CHECK_FALSE(s.answers.at("q2").at("scores").other_reading);
  // JSON's numbers too: the same answer tree.
  const Submission j = read_answer_file(R"({"answers": {"q1": {"weights": [0,5, 0,25]}}})", "a.json");
  REQUIRE(j.answers.at("q1").at("weights").other_reading);
  CHECK(j.answers.at("q1").at("weights").other_reading->row == std::vector<std::string>{"0,5", "0,25"});
}

TEST_CASE("numbers as student, rubric and variant are kept as text") {
  const Submission s =
      read_answer_file("student: 123\nrubric: 7\nvariant: 0123456789abcdef\nseed: '42'\n", "a.yaml");
  CHECK(s.unreadable == "");
  CHECK(s.notes == Notes{});
  CHECK(s.student == "123");
  CHECK(s.rubric == "7");
  CHECK(s.variant == "0123456789abcdef");
  CHECK(s.seed == std::uint64_t{42});
  const Submission j = read_answer_file(R"({"student": 123, "seed": 18446744073709551615})", "a.json");
  CHECK(j.student == "123");
  CHECK(j.seed == std::uint64_t{18446744073709551615u});
}

TEST_CASE("missing, null or empty answers are no answers, not unreadable") {
  for (const std::string text : {"student: s001\n", "student: s001\nanswers:\n",
                                 "student: s001\nanswers: {}\n", R"({"student": "s001"})"}) {
    const Submission s = read_answer_file(text, "a.yaml");
    CHECK(s.unreadable == "");
    CHECK(s.student == "s001");
    CHECK(s.answers.empty());
  }
}

TEST_CASE("notes: unknown keys, bad seed and variant, other generator") {
  const Submission s = read_answer_file(
      "student: s001\nfoo: 1\nseed: abc\nvariant: 2A1549CA301B20B2\ngenerator: attnmark-gen/0\n"
      "Answers: {}\n",
      "a.yaml");
  CHECK(s.unreadable == "");
  CHECK(s.student == "s001");
  CHECK_FALSE(s.seed);
  CHECK(s.variant == "2A1549CA301B20B2");  // kept as written
  CHECK(s.notes == Notes{
                       "unknown key 'foo' ignored",
                       "seed 'abc' is not a whole number; ignored",
                       "variant '2A1549CA301B20B2' is not 16 lower-case hex digits",
                       "generator 'attnmark-gen/0' differs from this attnmark's 'attnmark-gen/2'",
                       "unknown key 'Answers' ignored (did you mean 'answers'?)",
                   });

  CHECK(read_answer_file("seed: -1\n", "a").notes == Notes{"seed '-1' is not a whole number; ignored"});
  CHECK(read_answer_file("seed: 2026.0\n", "a").notes ==
        Notes{"seed '2026.0' is not a whole number; ignored"});
  CHECK(read_answer_file("seed: ' 1'\n", "a").notes ==
        Notes{"seed ' 1' is not a whole number; ignored"});
  CHECK(read_answer_file("seed: 18446744073709551616\n", "a").notes ==
        Notes{"seed '18446744073709551616' is too large (at most 18446744073709551615); ignored"});
  CHECK(read_answer_file("variant: 2a15\n", "a").notes ==
        Notes{"variant '2a15' is not 16 lower-case hex digits"});
  CHECK(read_answer_file("student: [a]\n", "a").notes ==
        Notes{"student: expected a single value; got a list; ignored"});
}

TEST_CASE("a cell that is a list or map is blank, with a note") {
  const Submission s = read_answer_file(
      "answers:\n"
      "  q1:\n"
      "    weights: [1, {a: 1}]\n"
      "    scores: [[1, [2]], 3]\n"
      "    output: {a: 1}\n"
      "  q2: 5\n"
      "  q3: ~\n",
      "a.yaml");
  CHECK(s.unreadable == "");
  CHECK(cells(s, "q1", "weights") == Rows{{"1", ""}});
  CHECK(cells(s, "q1", "scores") == Rows{{"1", ""}, {"3"}});
  CHECK(cells(s, "q1", "output") == Rows{{""}});
  CHECK(s.answers.count("q2") == 0);
  CHECK(s.answers.at("q3").empty());
  CHECK(s.notes == Notes{
                       "q1.weights row 1 cell 2 is not a value",
                       "q1.scores row 1 cell 2 is not a value",
                       "q1.output is not a value or a list of values",
                       "q2: expected a map of parts (scores:, weights:, ...); got the value '5'; ignored",
                   });
}

TEST_CASE("unknown part names are kept for the grader to report") {
  const Submission s = read_answer_file("answers:\n  q9:\n    wieghts: [1]\n", "a.yaml");
  CHECK(s.notes == Notes{});
  CHECK(cells(s, "q9", "wieghts") == Rows{{"1"}});
}

TEST_CASE("unreadable: encodings") {
  CHECK(unreadable(std::string("student: s\0\n", 12)) == "binary file (contains NUL bytes)");
  CHECK(unreadable("\xFF\xFEs\0t\0") == "UTF-16 text; save the file as UTF-8");
  CHECK(unreadable(std::string("\xFE\xFF\0s\0t", 6)) == "UTF-16 text; save the file as UTF-8");
  CHECK(unreadable("student: s001\r\nname: Jos\xE9\r\n") ==
        "not UTF-8 text (byte 0xE9 at line 2); save the file as UTF-8");
  CHECK(unreadable("a: 1\n\nb: \xC0\xAF\n") ==
        "not UTF-8 text (byte 0xC0 at line 3); save the file as UTF-8");  // overlong '/'
  CHECK(unreadable("a: \xED\xA0\x80\n") ==
        "not UTF-8 text (byte 0xED at line 1); save the file as UTF-8");  // a surrogate
  CHECK(unreadable("a: \x80\n") == "not UTF-8 text (byte 0x80 at line 1); save the file as UTF-8");
  CHECK(unreadable("a: \xE2\x88") == "not UTF-8 text (byte 0xE2 at line 1); save the file as UTF-8");
  CHECK(unreadable("a: \xE2\x88\x92 1/4 \xC2\xA0\n") == "");  // U+2212, U+00A0
}

TEST_CASE("unreadable: YAML errors with line and column") {
  CHECK(unreadable("student: s001\nanswers:\n  q1: [1, 2\n") ==
        "line 4, column 1: YAML syntax: end of sequence flow not found");
  CHECK(unreadable("answers:\n  q1: {}\n  q1: {}\n") ==
        "line 3, column 3: duplicate key 'q1' (first given at line 2)");
  CHECK(unreadable("a: &x 1\nb: *x\n") ==
        "line 1, column 4: anchors (&name) are not allowed; write the value out");
  CHECK(unreadable("a: 1\nb: *x\n") == "line 2, column 4: YAML syntax: the referenced anchor is not defined");
  CHECK(unreadable("student: a\n---\nstudent: b\n") ==
        "line 2, column 1: expected one YAML document, but more follows here");
  CHECK(unreadable("a: " + std::string(65, '[') + std::string(65, ']') + "\n") ==
        "line 1, column 67: nested deeper than 64 levels");
  CHECK(unreadable("a: " + std::string(63, '[') + std::string(63, ']') + "\n") == "");
  CHECK(unreadable("") == "line 1, column 1: the file is empty; expected a YAML document");
  CHECK(unreadable("- 1\n") ==
        "line 1, column 1: expected a map with keys like 'student:' and 'answers:' at the top; got a list");
  CHECK(unreadable("answers: [1]\n") ==
        "line 1, column 10: answers: expected a map of questions (q1:, q2:, ...); got a list");
}

TEST_CASE("unreadable reasons stay on one line") {
  CHECK(unreadable("\"a\\nb\": 1\n\"a\\nb\": 2\n") ==
        "line 2, column 1: duplicate key 'a\\nb' (first given at line 1)");
  const std::string long_string = unreadable("{\"a\": \"" + std::string(5000, 'x'));
  CHECK(long_string.size() == 303);
  CHECK(long_string.starts_with("line 1, column 5008: JSON syntax: invalid string: missing closing quote"));
  CHECK(long_string.ends_with("xxx..."));
}

TEST_CASE("unreadable: JSON errors") {
  CHECK(unreadable(R"({"student": "s", })") ==
        "line 1, column 18: JSON syntax: unexpected '}'; expected string literal");
  CHECK(unreadable("{\n  \"student\": \"s\",\n  \"seed\": 12 x\n}") ==
        "line 3, column 14: JSON syntax: invalid literal; last read: '12 x'; expected '}'");
  CHECK(unreadable("{} {}") == "line 1, column 4: JSON syntax: unexpected '{'; expected end of input");
  CHECK(unreadable(R"({"answers": {"q1": {}, "q1": {}}})") == "duplicate key 'q1'");
  CHECK(unreadable("{\"a\": " + std::string(64, '[') + std::string(64, ']') + "}") ==
        "nested deeper than 64 levels");
  CHECK(unreadable("{\"a\": " + std::string(63, '[') + std::string(63, ']') + "}") == "");
}

TEST_CASE("unreadable: too many cells") {
  std::string text = "answers:\n  q1:\n    scores: [";
  for (int i = 0; i < 10000; ++i) text += "1, ";
  CHECK(unreadable(text + "]\n") == "");
  CHECK(unreadable(text + "1]\n") == "more than 10000 answer cells");

  ReadLimits limits;
  limits.max_cells = 3;
  CHECK(unreadable("answers:\n  q1:\n    a: [1, 2]\n  q2:\n    b: ~\n", limits) == "");
  CHECK(unreadable("answers:\n  q1:\n    a: [1, 2]\n  q2:\n    b: [[~, ~]]\n", limits) ==
        "more than 3 answer cells");
  CHECK(unreadable(R"({"answers": {"q1": {"a": [1, 2, 3, 4]}}})", limits) ==
        "more than 3 answer cells");
}

TEST_CASE("unreadable: size cap") {
  const std::string big = "# " + std::string((1 << 20) - 3, 'x') + "\n";
  CHECK(big.size() == 1 << 20);
  CHECK(unreadable("student: s\n" + big) == "file is 1048587 bytes; the limit is 1048576");
  ReadLimits limits;
  limits.max_file_bytes = 10;
  CHECK(unreadable("student: s\n", limits) == "file is 11 bytes; the limit is 10");
  CHECK(unreadable("{\"a\": 123}", limits) == "");
}

TEST_CASE("an unreadable file keeps only its source") {
  const Submission s = read_answer_file("student: s001\nseed: 1\nanswers: {q1: {a: 1}}\nx: [\n", "a.yaml");
  CHECK(s.source == "a.yaml");
  CHECK(s.unreadable != "");
  CHECK(s.student == "");
  CHECK_FALSE(s.seed);
  CHECK(s.answers.empty());
  CHECK(s.notes.empty());
}

// ---- Sheets ----

namespace {

struct SheetResult {
  SheetInfo info;
  std::vector<Submission> rows;
};

SheetResult sheet(const std::string& text, const ReadLimits& limits = {}) {
  SheetResult result;
  result.info = read_sheet(text, "class.csv", limits,
                           [&](Submission&& s) { result.rows.push_back(std::move(s)); });
  return result;
}

Error sheet_error(const std::string& text, const ReadLimits& limits = {}) {
  int calls = 0;
  try {
    read_sheet(text, "class.csv", limits, [&](Submission&&) { ++calls; });
  } catch (const Error& e) {
    CHECK(calls == 0);  // nothing is handed out from a sheet that fails
    return e;
  }
  FAIL("no error for: " << text);
  return Error("unreachable: FAIL throws");
}

const std::string class_sheet =
    "\xEF\xBB\xBFTimestamp, Student ,Name,SEED,variant,q1.weights.2,q1.weights.1,q2.scores.1.3,"
    "q2.scores.2.1,q3.most_attended,q1.wieghts.1,q1.scores.0,q9.scores.x,Email,q1.scores.1.2.3\r\n"
    "2024-05-01,s001,\"Smith, Jo\",2026,2a1549ca301b20b2, 0.5 ,\"0,25\",1.5,2,bus,zz,zz,zz,jo@x,zz\r\n"
    "2024-05-01,s002,\"Ann\nLee\",,,,,,,,,,,,\r\n"
    ",,,,,,,,,,,,,,\r\n"
    "2024-05-02,s003,Bo\r\n"
    "2024-05-02, s004 ,Cy,abc,XYZ,,,,,,,,,,,extra\r\n";

}  // namespace

TEST_CASE("a sheet: header with extra columns, BOM, CRLF, quoted fields") {
  const SheetResult r = sheet(class_sheet);
  // The Timestamp column is when each row was handed in, as written; the reader judges nothing of it.
  REQUIRE(r.rows.size() == 4);
  CHECK(r.rows[0].submitted == "2024-05-01");
  CHECK(r.rows[2].submitted == "2024-05-02");
  CHECK(r.info.unknown_columns ==
        std::vector<std::string>{"q1.wieghts.1", "q1.scores.0", "q9.scores.x", "q1.scores.1.2.3"});
  CHECK(r.info.rows == 4);
  REQUIRE(r.rows.size() == 4);

  const Submission& a = r.rows[0];
  CHECK(a.source == "class.csv:2");
  CHECK(a.student == "s001");
  CHECK(a.seed == std::uint64_t{2026});
  CHECK(a.variant == "2a1549ca301b20b2");
  CHECK(a.rubric == "");
  CHECK(a.notes == Notes{});
  CHECK(a.unreadable == "");
  CHECK(a.answers.size() == 3);
  CHECK(cells(a, "q1", "weights") == Rows{{"0,25", "0.5"}});
  CHECK(cells(a, "q2", "scores") == Rows{{"", "", "1.5"}, {"2", "", ""}});
  CHECK(cells(a, "q3", "most_attended") == Rows{{"bus"}});
  CHECK(a.answers.at("q1").size() == 1);  // unknown columns give no cells

  const Submission& b = r.rows[1];  // its name holds a line break
  CHECK(b.source == "class.csv:3");
  CHECK(b.student == "s002");
  CHECK_FALSE(b.seed);
  CHECK(b.variant == "");
  CHECK(b.notes == Notes{});
  CHECK(cells(b, "q1", "weights") == Rows{{"", ""}});
  CHECK(cells(b, "q2", "scores") == Rows{{"", "", ""}, {"", "", ""}});

  const Submission& c = r.rows[2];  // the blank row on line 5 is skipped
  CHECK(c.source == "class.csv:6");
  CHECK(c.student == "s003");
  CHECK(c.notes == Notes{"row has 3 fields but the header has 15"});
  CHECK(cells(c, "q3", "most_attended") == Rows{{""}});

  const Submission& d = r.rows[3];
  CHECK(d.source == "class.csv:7");
  CHECK(d.student == "s004");
  CHECK(d.variant == "XYZ");
  CHECK(d.notes == Notes{"row has 16 fields but the header has 15",
                         "seed 'abc' is not a whole number; ignored",
                         "variant 'XYZ' is not 16 lower-case hex digits"});
}

TEST_CASE("sheet cells: vectors, matrices, one value, rubric column, first duplicate wins") {
  const SheetResult r = sheet(
      "student,rubric,q1.output.3,q2.weights.2.2,q3.most_attended,q3.most_attended.1,q1.output.1.3\n"
      "s1,lesson, 3 ,\t22 ,bus,car,dup\n");
  CHECK(r.info.unknown_columns == std::vector<std::string>{"q3.most_attended.1", "q1.output.1.3"});
  REQUIRE(r.rows.size() == 1);
  const Submission& s = r.rows[0];
  CHECK(s.rubric == "lesson");
  CHECK(cells(s, "q1", "output") == Rows{{"", "", "3"}});
  CHECK(cells(s, "q2", "weights") == Rows{{"", ""}, {"", "22"}});
  CHECK(cells(s, "q3", "most_attended") == Rows{{"bus"}});
}

TEST_CASE("sheet: columns give the shape, so pairs of digits are never read as decimal commas") {
  const SheetResult r = sheet("student,q1.weights.1,q1.weights.2,q1.weights.3,q1.weights.4\ns1,0,5,0,25\n");
  REQUIRE(r.rows.size() == 1);
  CHECK(cells(r.rows[0], "q1", "weights") == Rows{{"0", "5", "0", "25"}});
  CHECK_FALSE(r.rows[0].answers.at("q1").at("weights").other_reading);
}

TEST_CASE("sheet: a one-field short row is noted in the singular") {
  const SheetResult r = sheet("student,name\ns1\n");
  REQUIRE(r.rows.size() == 1);
  CHECK(r.rows[0].notes == Notes{"row has 1 field but the header has 2"});
}

TEST_CASE("sheet errors") {
  Error e = sheet_error("name,code, Matrikel\nJo,jo@x,s1\n");
  CHECK(e.message() == "expected a student id column in the header (student, student id, id, id number, sis user id, sis login id, username, login, email, email address), or name it with --id-column; "
                       "got 'name', 'code', ' Matrikel'");
  CHECK(e.line() == 1);
  // Chosen with --id-column (any case), the column is found; a chosen column that is missing is named.
  ReadLimits chosen;
  chosen.sheet_columns.id = "matrikel";
  CHECK(sheet("name,code, Matrikel\nJo,jo@x,s1\n", chosen).rows.at(0).student == "s1");
  CHECK(sheet("name,code, Matrikel\nJo,jo@x,s1\n", chosen).rows.at(0).name == "Jo");
  chosen.sheet_columns.id = "SID";
  CHECK(sheet_error("name,code\nJo,s1\n", chosen).message() ==
        "--id-column 'SID': no such column in the header; got 'name', 'code'");
  // The usual headers are recognised: a form's "Student ID", an LMS's "Email".
  CHECK(sheet("Timestamp,Student ID,q1.scores.1\nt,s7,2\n").rows.at(0).student == "s7");
  CHECK(sheet("Email,First name,Last name,q1.scores.1\na@x,Ada,Lovelace,2\n").rows.at(0).name == "Ada Lovelace");

  CHECK(sheet_error("").message() == "the sheet is empty; expected a header row with a student id column");
  CHECK(sheet_error("\xEF\xBB\xBF\r\n\r\n").message() ==
        "the sheet is empty; expected a header row with a student id column");

  e = sheet_error("student,q1.scores.1\ns1,1\ns2,\"2\n");
  CHECK(e.message() == "unterminated quoted field starting here");
  CHECK(e.line() == 3);

  ReadLimits limits;
  limits.max_sheet_rows = 2;
  CHECK(sheet("student\ns1\ns2\n", limits).rows.size() == 2);
  e = sheet_error("student\ns1\ns2\ns3\n", limits);
  CHECK(e.message() == "more than 2 rows of answers; split the sheet into smaller ones");
  CHECK(e.line() == 4);

  limits = ReadLimits();
  limits.max_cells = 5;
  CHECK(sheet("student,q1.scores.1.2,q2.output.3\ns1,1,2\n", limits).rows.size() == 1);
  CHECK(sheet_error("student,q1.scores.2.3\n", limits).message() ==
        "the header's cell columns make more than 5 answer cells per student");
  CHECK(sheet_error("student,q1.scores.99999999999999999999999\n").message() ==
        "the header's cell columns make more than 10000 answer cells per student");

  CHECK(sheet_error(std::string("student\ns\0\n", 11)).message() == "binary file (contains NUL bytes)");
  CHECK(sheet_error("\xFF\xFEs\0").message() == "UTF-16 text; save the file as UTF-8");
  CHECK(sheet_error("student,name\ns1,Jos\xE9\n").message() ==
        "not UTF-8 text (byte 0xE9 at line 2); save the file as UTF-8");
}

TEST_CASE("errors thrown by the callback pass through") {
  CHECK_THROWS_WITH(read_sheet("student\ns1\n", "c.csv", {},
                               [](Submission&&) { throw Error("stop"); }),
                    "stop");
}

TEST_CASE("flow-style YAML is YAML: a file starting with '{' that is not JSON is read as YAML") {
  const ReadLimits limits;
  const Submission flow = read_answer_file(
      "{student: s01, rubric: lesson, seed: 2026, answers: {q1: {scores: [2, 0, 1], weights: [0.665, 0.090, 0.245]}}}\n",
      "answers/s01.yaml", limits);
  REQUIRE(flow.unreadable.empty());
  CHECK(flow.student == "s01");
  CHECK(flow.seed == 2026u);
  CHECK(flow.answers.at("q1").at("weights").rows == std::vector<std::vector<std::string>>{{"0.665", "0.090", "0.245"}});
  // The same text in a .json file is JSON, and JSON it is not.
  const Submission named_json = read_answer_file("{student: s01}\n", "answers/s01.json", limits);
  CHECK(!named_json.unreadable.empty());
  // JSON stays JSON, and a broken JSON file gets the JSON reader's message.
  const Submission json = read_answer_file("{\"student\": \"s02\", \"answers\": {}}", "answers/s02.yaml", limits);
  CHECK(json.unreadable.empty());
  CHECK(json.student == "s02");
  const Submission broken = read_answer_file("{\"student\": \"s03\",, }", "answers/s03.txt", limits);
  CHECK(!broken.unreadable.empty());
  CHECK(broken.unreadable.find("JSON") != std::string::npos);
}

TEST_CASE("messages a student can act on: a tab in the indentation, and a part indented one level too little") {
  const ReadLimits limits;
  const Submission tab =
      read_answer_file("student: s001\nseed: 2026\nanswers:\n  q1:\n\tscores: [2, 0, 1]\n", "s001.yaml", limits);
  CHECK(tab.unreadable == "line 5, column 1: YAML indents with spaces, not tabs; replace the tab at the start of line 5");
  const Submission shallow =
      read_answer_file("student: s001\nseed: 2026\nanswers:\n  q1:\n  scores: [2, 0, 1]\n", "s001.yaml", limits);
  CHECK(shallow.unreadable.empty());
  CHECK(shallow.notes == std::vector<std::string>{
                             "line 5: 'scores' is a part, not a question; indent it under its question (q1:, q2:, ...); ignored"});
}

TEST_CASE("notes of one kind are ten and a count, however many the file holds") {
  std::string text = "student: s001\n";
  for (int i = 0; i < 5000; ++i) text += "k" + std::to_string(i) + ": 1\n";
  text += "answers:\n  q1:\n    weights: [";
  for (int i = 0; i < 30; ++i) text += i ? ", {a: 1}" : "{a: 1}";
  text += "]\n";
  for (int i = 0; i < 12; ++i) text += "  scores" + std::to_string(i) + ": 1\n";
  const Submission s = read_answer_file(text, "junk.yaml");
  CHECK(s.unreadable == "");
  CHECK(s.student == "s001");
  REQUIRE(s.notes.size() == 33);
  CHECK(s.notes[0] == "unknown key 'k0' ignored");
  CHECK(s.notes[9] == "unknown key 'k9' ignored");
  CHECK(s.notes[10] == "q1.weights row 1 cell 1 is not a value");
  CHECK(s.notes[19] == "q1.weights row 1 cell 10 is not a value");
  CHECK(s.notes[20] == "scores0: expected a map of parts (scores:, weights:, ...); got the value '1'; ignored");
  CHECK(s.notes[30] == "and 4,990 more unknown keys ignored");
  CHECK(s.notes[31] == "and 2 more questions ignored");
  CHECK(s.notes[32] == "and 20 more cells that are not a value");
}

TEST_CASE("C1 and bidirectional controls in an id, rubric, question or part are ignored like C0") {
  const Submission s = read_answer_file(
      "student: \"a\\u202Eb\"\nrubric: \"r\\x85\"\nanswers:\n  \"q\\u2066\": {scores: 1}\n  q1: {\"s\\u200F\": 1}\n",
      "a.yaml");
  CHECK(s.unreadable == "");
  CHECK(s.student == "");
  CHECK(s.rubric == "");
  CHECK(s.answers.count("q1") == 1);
  CHECK(s.answers.at("q1").empty());
  CHECK(s.notes == Notes{
                       "student 'a\\u202Eb' contains control characters; ignored",
                       "rubric 'r\\u0085' contains control characters; ignored",
                       "question 'q\\u2066' has control characters in its name; ignored",
                       "q1: part 's\\u200F' has control characters in its name; ignored",
                   });
  std::vector<Submission> rows;
  read_sheet("student,q1.scores\n\"\xE2\x80\xAE" "x\",1\n", "class.csv", {},
             [&](Submission&& row) { rows.push_back(std::move(row)); });
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].student == "");
  CHECK(rows[0].notes == Notes{"student '\\u202Ex' contains control characters; ignored"});
}

namespace {

// What the check of a sheet finds: each row's line and student, and the
// rows read again; or the error, as "line: message".
// The limits `mark` reads a class sheet with.
ReadLimits class_limits() {
  ReadLimits limits;
  limits.max_sheet_bytes = std::size_t{256} << 20;
  limits.max_sheet_rows = 1'000'000;
  limits.max_sheet_cells = 50'000'000;
  return limits;
}

std::string sheet_check(const std::string& text, unsigned jobs, const ReadLimits& limits = class_limits()) {
  std::string seen;
  try {
    attnmark::SheetReader reader(text, "big.csv", limits,
                                 [&](attnmark::RowIdentity&& who) {
                                   seen += std::to_string(who.line) + " " + who.student +
                                           (who.submitted.empty() ? "" : " " + who.submitted);
                                   for (const std::string& other : who.others) seen += " [" + other + "]";
                                   seen += "\n";
                                 },
                                 jobs);
    for (std::size_t i = 0; i < reader.rows(); i += 997) {
      const Submission s = reader.submission(i);
      seen += s.student + "/" + s.name + "\n";
    }
    seen += std::to_string(reader.rows()) + " rows\n";
  } catch (const Error& e) {
    seen += std::to_string(e.line()) + ": " + e.message();
  }
  return seen;
}

// A sheet of some 3 MiB (large enough to be checked in several pieces): quoted names
// across lines, with commas and doubled quotes, CRLF, empty and blank rows.
// With `email`, each row ends with an Email column ("s7@x.org").
std::string big_sheet(bool email = false) {
  std::string text = email ? "student,name,q1.scores.1,Email\r\n" : "student,name,q1.scores.1\r\n";
  for (int i = 0; text.size() < (std::size_t{3} << 20); ++i) {
    const std::string id = "s" + std::to_string(i);
    const std::string end = email ? "," + id + "@x.org" : "";
    switch (i % 5) {
      case 0: text += id + ",\"Smith, \"\"Jo\"\"\nthe second\",1" + end + "\r\n"; break;
      case 1: text += id + ",Ann,2" + end + "\n\n\r\n"; break;
      case 2: text += (email ? ",,,\n" : ",,\n") + id + ",\"Bo\r\nLee\",3" + end + "\r"; break;
      case 3: text += id + ",\"\"\"\",4" + end + "\n"; break;
      default: text += "\"" + id + "\",Cy,\"5\"" + end + "\n"; break;
    }
  }
  return text;
}

}  // namespace

TEST_CASE("a large sheet checked in pieces on several threads: the same rows, lines and errors as on one") {
  const std::string text = big_sheet();
  const std::string one = sheet_check(text, 1);
  CHECK(one.find("\n1 s0\n") == std::string::npos);  // (the header is line 1)
  CHECK(one.substr(0, 27) == "2 s0\n4 s1\n8 s2\n10 s3\n11 s4\n");
  CHECK(one.find("s0/Smith, \"Jo\"\nthe second\n") != std::string::npos);
  for (unsigned jobs : {2u, 3u, 4u}) CHECK(sheet_check(text, jobs) == one);

  // Errors late in the sheet (in another piece than the first) keep their lines.
  const std::size_t late = text.rfind("\ns", text.size() * 9 / 10) + 1;
  int line = 1;  // of `late`: CRLF, LF and a lone CR each end a line
  for (std::size_t i = 0; i < late; ++i)
    line += text[i] == '\n' || (text[i] == '\r' && text[i + 1] != '\n');
  CHECK(sheet_check(text.substr(0, late) + "x\"y,Ann,1\n" + text.substr(late), 2) ==
        std::to_string(line) + ": a '\"' inside an unquoted field; quote the whole field");
  for (const std::string& bad : {std::string("x\"y,Ann,1\n"), std::string("\"open,Ann,1\n")}) {
    const std::string broken = text.substr(0, late) + bad + text.substr(late);
    const std::string expected = sheet_check(broken, 1);
    CHECK(expected.find(": ") != std::string::npos);
    for (unsigned jobs : {2u, 4u}) CHECK(sheet_check(broken, jobs) == expected);
  }
  // The row limit too, reached in a later piece.
  ReadLimits limits = class_limits();
  limits.max_sheet_rows = std::stoul(one.substr(one.rfind('\n', one.size() - 7) + 1)) * 3 / 4;
  const std::string limited = sheet_check(text, 1, limits);
  CHECK(limited.find("rows of answers; split the sheet into smaller ones") != std::string::npos);
  CHECK(sheet_check(text, 2, limits) == limited);

  // Each row's other identity cells stay with their row across the pieces.
  const std::string with_email = sheet_check(big_sheet(true), 1);
  CHECK(with_email.substr(0, 65) == "2 s0 [s0@x.org]\n4 s1 [s1@x.org]\n8 s2 [s2@x.org]\n10 s3 [s3@x.org]\n");
  for (unsigned jobs : {2u, 3u}) CHECK(sheet_check(big_sheet(true), jobs) == with_email);
}

TEST_CASE("a sheet's other identity columns: a form's email beside its Student ID, never a Microsoft Forms ID") {
  auto others = [](const std::string& text) {
    std::vector<std::vector<std::string>> seen;
    attnmark::SheetReader(text, "form.csv", {}, [&](attnmark::RowIdentity&& who) { seen.push_back(who.others); });
    return seen;
  };
  using Cells = std::vector<std::vector<std::string>>;
  CHECK(others("Timestamp,Email address,Student ID,q1.scores.1\n2026/12/01 10:00:00 AM GMT,ada@x.org,,2\n"
               "2026/12/01 10:05:00 AM GMT, alan@x.org ,s2,1\n") == Cells{{"ada@x.org"}, {"alan@x.org"}});
  CHECK(others("ID,Start time,Completion time,Email,Name,Student ID,q1.scores.1\n"
               "1,12/1/26 10:00:00,12/1/26 10:04:00,ada@x.org,Ada Lovelace,s1,2\n") == Cells{{"ada@x.org"}});
  // Without a Student ID question the Email is the id: nothing else identifies.
  CHECK(others("ID,Start time,Completion time,Email,Name,q1.scores.1\n1,,,ada@x.org,Ada,2\n") == Cells{{}});
  CHECK(others("student,login,email,q1.scores.1\ns1,ada,ada@x.org,2\n") == Cells{{"ada", "ada@x.org"}});
}

namespace {

// Everything a submission holds, as text, to compare two.
std::string everything(const Submission& s) {
  std::string out = s.source + "|" + s.student + "|" + s.name + "|" + s.rubric + "|" +
                    (s.seed ? std::to_string(*s.seed) : "-") + "|" + s.variant + "|" + s.unreadable + "\n";
  for (const std::string& note : s.notes) out += "note " + note + "\n";
  for (const auto& [question, parts] : s.answers)
    for (const auto& [part, answer] : parts) {
      out += question + "." + part + (answer.shaped_by_sheet ? " sheet" : "") + " " + answer.unreadable + ":";
      for (const auto& row : answer.rows) {
        out += " [";
        for (const std::string& cell : row) out += cell + ";";
        out += "]";
      }
      out += "\n";
    }
  return out;
}

}  // namespace

TEST_CASE("a row read into a submission that held another row or sheet is the row read afresh") {
  const std::string a = "student,seed,q1.weights.1,q1.weights.2,q2.scores.1.1\ns1,7,0.5,0.25,1\ns2,,,x,\ns3,8\n";
  const std::string b = "Email,rubric,variant,q1.output.2,q3.keys.1.1\na@x,r,0123456789abcdef,3,4\n";
  const attnmark::SheetReader sheet_a(a, "a.csv", {}), sheet_b(b, "b.csv", {});
  Submission reused;
  reused.notes = {"left over"};
  const auto check = [&](const attnmark::SheetReader& sheet, std::size_t row) {
    sheet.submission(row, reused);
    CHECK(everything(reused) == everything(sheet.submission(row)));
  };
  check(sheet_a, 0);
  check(sheet_a, 1);
  check(sheet_a, 2);
  check(sheet_b, 0);
  check(sheet_a, 1);
  reused.answers["q1"]["weights"].rows[0].push_back("stray");  // a shape that is not the sheet's
  check(sheet_a, 0);
  CHECK(everything(reused).find("q1.weights sheet : [0.5;0.25;]\n") != std::string::npos);
  CHECK(everything(reused).find("q2.scores sheet : [1;]\n") != std::string::npos);
}

TEST_CASE("when a submission was handed in: an answer file's submitted:, a sheet's time column") {
  Submission s = read_answer_file("student: s001\nsubmitted: 2026-12-01T10:02:00Z\nanswers: {}\n", "a.yaml");
  CHECK(s.submitted == "2026-12-01T10:02:00Z");
  CHECK(s.notes.empty());
  s = read_answer_file("{\"student\": \"s001\", \"submitted\": \" 2026/12/01 10:02:03 AM GMT+1 \", \"answers\": {}}", "a.json");
  CHECK(s.submitted == "2026/12/01 10:02:03 AM GMT+1");
  CHECK(s.notes.empty());
  s = read_answer_file("student: s001\nsubmited: 2026-12-01\nanswers: {}\n", "a.yaml");
  CHECK(s.submitted.empty());
  CHECK(s.notes == std::vector<std::string>{"unknown key 'submited' ignored (did you mean 'submitted'?)"});
  // Microsoft Forms: its "Completion time" is when the row was handed in, not its "Start time";
  // "ID" is the response's number, and "Student ID" the student.
  const SheetResult r = sheet("ID,Start time,Completion time,Email,Name,Student ID,q1.weights.1\n"
                              "1,12/1/26 9:58:00,12/1/26 10:02:03,a@x,Ann,s001,0.5\n"
                              "2,12/1/26 10:10:00,,b@x,Bo,s002,0.5\n");
  REQUIRE(r.rows.size() == 2);
  CHECK(r.rows[0].student == "s001");
  CHECK(r.rows[0].submitted == "12/1/26 10:02:03");
  CHECK(r.rows[1].submitted.empty());
  const attnmark::SheetReader reader("Student,Timestamp\ns1,2026-12-01\n", "c.csv", {});
  CHECK(reader.submitted_column() == "Timestamp");
  CHECK(attnmark::SheetReader("Student,q1.weights.1\ns1,1\n", "c.csv", {}).submitted_column().empty());
}

TEST_CASE("a sheet's columns by their titles: a form's questions, whitespace and case aside") {
  ReadLimits limits;
  limits.sheet_columns.titles = {{"Question 1 scores: key 1", "q1.scores.1"},
                                 {"Question 1 weights: key 2", "q1.weights.2"},
                                 {"My school ID", "student"},
                                 {"Student ID", "student"}};
  const SheetResult r = sheet(
      "Timestamp,Email address,  my   SCHOOL id ,  question 1\tscores: KEY 1 ,Question 1 weights: key 2,q1.weights.1,"
      "Any comments?,Points - Question 1 scores: key 1,Feedback - Question 1 scores: key 1,Score\n"
      "2026-12-01,a@x,s1,3,0.25,0.75,none,1,good,1\n",
      limits);
  // What is neither a cell, the id, nor a form's own column is named, as written.
  CHECK(r.info.unknown_columns == std::vector<std::string>{"Any comments?"});
  REQUIRE(r.rows.size() == 1);
  CHECK(r.rows[0].student == "s1");
  CHECK(r.rows[0].notes == Notes{});
  CHECK(cells(r.rows[0], "q1", "scores") == Rows{{"3"}});
  CHECK(cells(r.rows[0], "q1", "weights") == Rows{{"0.75", "0.25"}});
  // A title that already names an id column stays the id column it is.
  const SheetResult id = sheet("Student ID,Question 1 scores: key 1\ns2,4\n", limits);
  CHECK(id.info.unknown_columns.empty());
  REQUIRE(id.rows.size() == 1);
  CHECK(id.rows[0].student == "s2");
  CHECK(cells(id.rows[0], "q1", "scores") == Rows{{"4"}});
  // A title and its cell name both: the second is a column for a cell already given.
  const SheetResult twice = sheet("student,q1.scores.1,Question 1 scores: key 1\ns3,1,2\n", limits);
  CHECK(twice.info.unknown_columns == std::vector<std::string>{"Question 1 scores: key 1"});
  CHECK(cells(twice.rows.at(0), "q1", "scores") == Rows{{"1"}});
}

TEST_CASE("a sheet's unmarked columns: every one but a form's, a quiz's and an LMS's own") {
  const SheetResult ms = sheet(
      "ID,Start time,Completion time,Email,Name,Last modified time,Total points,Quiz feedback,Student ID,q1.weights.1\n"
      "1,12/1/26 9:58:00,12/1/26 10:02:03,a@x,Ann,,1,,s001,0.5\n");
  CHECK(ms.info.unknown_columns.empty());
  const SheetResult canvas = sheet("Student,ID,SIS User ID,SIS Login ID,Section,q1.weights.1\nAnn,17,s001,ann,A,0.5\n");
  CHECK(canvas.info.unknown_columns.empty());
  CHECK(canvas.rows.at(0).student == "s001");
  const SheetResult other = sheet("student,Notes,q1.weights.1,Seat,rubric,seed\ns1,,0.5,12,lesson,1\n");
  CHECK(other.info.unknown_columns == std::vector<std::string>{"Notes", "Seat"});
}

TEST_CASE("column_title_key and is_known_metadata") {
  CHECK(attnmark::column_title_key("  Start \t  Time ") == "start time");
  CHECK(attnmark::column_title_key("") == "");
  CHECK(attnmark::is_known_metadata(" Completion  time"));
  CHECK(attnmark::is_known_metadata("Points - Question 1 scores: key 1"));
  CHECK(attnmark::is_known_metadata("Timestamp"));
  CHECK_FALSE(attnmark::is_known_metadata("Comments"));
  CHECK_FALSE(attnmark::is_known_metadata("Points"));
}

namespace {

const std::vector<std::string> map_cells = {"student", "q1.scores.1", "q1.scores.2", "q1.weights.1", "q2.scores.1.2"};

std::string map_error(const std::string& text) {
  try {
    attnmark::read_column_map(text, "map.csv", map_cells);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a column map: with a header or without, either column first") {
  using attnmark::TitledColumn;
  const std::vector<TitledColumn> want = {{"Your ID", "student"}, {"Score 1", "q1.scores.1"}, {"A, B", "q2.scores.1.2"}};
  CHECK(attnmark::read_column_map("title,cell\r\nYour ID,student\r\nScore 1,q1.scores.1\r\n\"A, B\",q2.scores.1.2\r\n",
                                  "map.csv", map_cells) == want);
  CHECK(attnmark::read_column_map("\xEF\xBB\xBF" "cell,title\nstudent,Your ID\n q1.scores.1 , Score 1 \n,\n"
                                  "q2.scores.1.2,\"A, B\"\n",
                                  "map.csv", map_cells) == want);
  CHECK(attnmark::read_column_map("Student,Your ID\nq1.scores.1,Score 1\nq2.scores.1.2,\"A, B\"\n", "map.csv",
                                  map_cells) == want);
  // A one-row part's cell in either spelling.
  CHECK(attnmark::read_column_map("W,q1.weights.1.1\n", "map.csv", map_cells) ==
        std::vector<TitledColumn>{{"W", "q1.weights.1.1"}});
}

TEST_CASE("a column map's mistakes: file, line and what to do") {
  CHECK(map_error("title,cell\nS,q1.scores.1\nT,q3.scores.1\n") ==
        "map.csv:3: 'q3.scores.1' is not a cell of the rubric; attnmark template RUBRIC --format form lists them");
  CHECK(map_error("title,cell\nS,q1.scores.1\n s ,q1.scores.2\n") ==
        "map.csv:3: the title 's' is given twice (first at line 2)");
  CHECK(map_error("title,cell\nS,q1.scores.1\nT,q1.scores.1\n") ==
        "map.csv:3: 'q1.scores.1' is given two titles (first at line 2)");
  CHECK(map_error("title,cell\nS,q1.scores.1,x\n") ==
        "map.csv:2: expected two fields, a form question's title and its cell (title,cell); got 3");
  CHECK(map_error("S,T\n") ==
        "map.csv:1: cannot tell which column holds the cell names (q1.scores.1, ...); give the header row title,cell");
  CHECK(map_error("title,cell\n,q1.scores.1\n") == "map.csv:2: the title of 'q1.scores.1' is blank");
  CHECK(map_error("title,cell\n") == "map.csv: the column map is empty; expected rows of title,cell");
}
