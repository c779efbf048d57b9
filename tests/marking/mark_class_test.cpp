// The demo class (fixtures/class/, see its README.md), marked end to end as a
// teacher runs it: `attnmark mark rubrics/class-demo.yaml` on the folder of
// uploads and on the form's CSV export. The expectations are what a fair
// human marker gives each student, worked out by hand from their variant.
// Then a run of mark_class (marking/mark_class.h) killed part way: its
// reports appear whole or not at all.
#include "support/test_support.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "base/files.h"

using attnmark::read_file;
using attnmark::write_file;

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string slurp(const fs::path& p) { return attnmark::read_file(p.string(), 1 << 24); }

// One gradebook row as the test reads it.
struct Row {
  std::string student, name, status, score, source;
};

std::vector<Row> gradebook(const fs::path& out) {
  const auto records = parse_csv(slurp(out / "gradebook.csv"));
  REQUIRE(!records.empty());
  REQUIRE(records[0] == std::vector<std::string>{"student", "name", "variant", "status", "score", "max_score", "q1",
                                                 "q2", "source", "reason", "flags"});
  std::vector<Row> rows;
  for (std::size_t i = 1; i < records.size(); ++i) {
    REQUIRE(records[i].size() == 11);
    rows.push_back({records[i][0], records[i][1], records[i][3], records[i][4], records[i][8]});
  }
  return rows;
}

// What a fair marker gives: student, status, score ("" when not marked).
struct Expected {
  std::string student, status, score;
};

// Students s01-s22 as they appear in both the folder and the sheet.
const std::vector<Expected> common = {
    {"s01", "graded", "15"},     // right, every digit of the calculator
    {"s02", "graded", "15"},     // right, rounded as asked (JSON; -inf for the masked score)
    {"s03", "graded", "15"},     // right, the lesson's way (e^score to 2 decimals, products to 2)
    {"s04", "graded", "13.67"},  // q1 no-exp, weights the scores over their total (-1, 2); output follows
    {"s05", "graded", "7"},      // half done
    {"s06", "graded", "13.67"},  // q1 hard-attention
    {"s07", "graded", "15"},     // right, in every spelling: −1, 66.5%, .245, 7,12, blank masked score
    {"s08", "graded", "13.67"},  // q1 no-normalise
    {"s09", "graded", "13.67"},  // q1 wrong-exp-base (base 10; JSON)
    {"s10", "graded", "13.67"},  // q1 missing-scale
    {"s11", "graded", "13.67"},  // q1 extra-scale
    {"s12", "graded", "14.33"},  // q1 mask-ignored
    {"s13", "graded", "13"},     // q1 mixed-keys
    {"s14", "graded", "13.67"},  // q1 rounded-early (e^score to a whole number)
    {"s15", "graded", "13.67"},  // q1 mask-after-softmax
    {"s16", "graded", "13.67"},  // q2 transposed-scores
    {"s17", "graded", "12"},     // q2 softmax-columns (JSON)
    {"s18", "graded", "14.33"},  // q2 wrong-query
    {"s19", "graded", "14.78"},  // q2 one score slipped by 1, then the right method (follow-through)
    {"s20", "graded", "13.67"},  // q1 weights to 2 decimals (precision hint)
    {"s21", "graded", "14"},     // q1 output 1 written "6.6.5"
    {"s22", "unanswered", "0"},  // the template, untouched / the form sent blank
};

std::vector<Expected> folder_expected() {
  std::vector<Expected> e = common;
  e.insert(e.end(), {
                        {"", "unreadable", ""},             // s23.yaml: YAML syntax error
                        {"", "unreadable", ""},             // s24.docx: binary, NUL bytes
                        {"", "unreadable", ""},             // s25.yaml: UTF-16
                        // (s26-2026-03-02.yaml, replaced by the later upload, is in the summary, not a row)
                        {"s26", "graded", "15"},            // s26-2026-03-05.yaml
                        {"s27", "wrong-variant", "6.22"},   // s01's file with the id changed
                        {"s28", "wrong-rubric", ""},        // the lesson's answer file
                        {"", "unknown-student", "15"},      // unnamed.yaml: s29's right answers, id deleted
                    });
  return e;
}

std::vector<Expected> sheet_expected() {
  std::vector<Expected> e = common;
  e.insert(e.end(), {
                        {"s26", "graded", "15"},  // the later of s26's two rows
                        {"", "unknown-student", ""},  // no student id, and a sheet has no variant
                    });
  return e;
}

const std::string rubric = "rubrics/class-demo.yaml";
const fs::path root = ATTNMARK_SOURCE_DIR;

// Marks an input into a fresh folder under scratch(); returns the folder.
fs::path mark(const std::string& input, const std::string& name, Run* run = nullptr) {
  const fs::path out = scratch() / name;
  fs::remove_all(out);
  const Run r = run_cli("mark " + rubric + " " + input + " --out '" + out.string() + "' --force");
  INFO(r.err);
  REQUIRE(r.status == 1);  // the class has uploads that could not be marked
  if (run) *run = r;
  return out;
}

void check_gradebook(const std::vector<Row>& rows, const std::vector<Expected>& expected) {
  REQUIRE(rows.size() == expected.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO("row " << i + 1 << ": " << rows[i].source);
    CHECK(rows[i].student == expected[i].student);
    CHECK(rows[i].status == expected[i].status);
    CHECK(rows[i].score == expected[i].score);
  }
}

// ---- feedback/<id>.json ----

struct PartExpected {
  double score;
  bool follow_through;
  std::vector<std::string> diagnoses;
};

// Per student, the parts that are not full marks without follow-through or
// diagnoses; every other part must be exactly that.
const std::map<std::string, std::map<std::string, PartExpected>> parts_expected = {
    {"s01", {}},
    {"s02", {}},
    {"s03", {}},
    {"s04", {{"q1.weights", {2.0 / 3, false, {"no-exp"}}}, {"q1.output", {2, true, {}}}}},
    {"s05",
     {{"q1.output", {0, false, {}}}, {"q2.weights", {0, false, {}}}, {"q2.output", {0, false, {}}}}},
    // One-hot weights are also e^score rounded to whole numbers in this variant.
    {"s06", {{"q1.weights", {2.0 / 3, false, {"hard-attention", "rounded-early"}}}, {"q1.output", {2, true, {}}}}},
    {"s07", {}},
    {"s08", {{"q1.weights", {2.0 / 3, false, {"no-normalise"}}}, {"q1.output", {2, true, {}}}}},
    // Base 10 happens to give output 2 = 1, as every weighting of values (x, 1) does.
    {"s09", {{"q1.weights", {2.0 / 3, false, {"wrong-exp-base"}}}, {"q1.output", {2, true, {}}}}},
    {"s10",
     {{"q1.scores", {2.0 / 3, false, {"missing-scale"}}}, {"q1.weights", {2, true, {}}}, {"q1.output", {2, true, {}}}}},
    {"s11",
     {{"q1.scores", {2.0 / 3, false, {"extra-scale"}}}, {"q1.weights", {2, true, {}}}, {"q1.output", {2, true, {}}}}},
    {"s12",
     {{"q1.scores", {4.0 / 3, false, {"mask-ignored"}}}, {"q1.weights", {2, true, {}}}, {"q1.output", {2, true, {}}}}},
    {"s13", {{"q1.output", {0, false, {"mixed-keys"}}}}},
    {"s14", {{"q1.weights", {2.0 / 3, false, {"rounded-early"}}}, {"q1.output", {2, true, {}}}}},
    {"s15", {{"q1.weights", {2.0 / 3, false, {"mask-after-softmax"}}}, {"q1.output", {2, true, {}}}}},
    {"s16",
     {{"q2.scores", {2.0 / 3, false, {"transposed-scores"}}},
      {"q2.weights", {3, true, {}}},
      {"q2.output", {3, true, {}}},
      {"q2.most_attended", {1, true, {}}}}},
    {"s17",
     {{"q2.weights", {0, false, {"softmax-columns"}}}, {"q2.output", {3, true, {}}}, {"q2.most_attended", {1, true, {}}}}},
    {"s18",
     {{"q2.scores", {12.0 / 9, false, {"wrong-query"}}},
      {"q2.weights", {3, true, {}}},
      {"q2.output", {3, true, {}}},
      {"q2.most_attended", {1, true, {}}}}},
    {"s19", {{"q2.scores", {16.0 / 9, false, {}}}, {"q2.weights", {3, true, {}}}, {"q2.output", {3, true, {}}}}},
    // Right to 2 decimals: a precision hint, not a mistake of method.
    {"s20", {{"q1.weights", {2.0 / 3, false, {}}}}},
    {"s21", {{"q1.output", {1, false, {}}}}},
    {"s22",
     {{"q1.scores", {0, false, {}}},
      {"q1.weights", {0, false, {}}},
      {"q1.output", {0, false, {}}},
      {"q2.scores", {0, false, {}}},
      {"q2.weights", {0, false, {}}},
      {"q2.output", {0, false, {}}},
      {"q2.most_attended", {0, false, {}}}}},
    {"s26", {}},  // the later of s26's two: feedback/s26.* is always the counted one
    // s01's answers against s27's numbers: the masked score and the cells
    // that happen to be s27's, and the weights worked from the rows of scores
    // they sit in, earn marks.
    {"s27",
     {{"q1.scores", {4.0 / 3, false, {}}},
      {"q1.weights", {2, true, {}}},
      {"q1.output", {0, false, {}}},
      {"q2.scores", {8.0 / 9, false, {}}},
      {"q2.weights", {2, true, {}}},
      {"q2.output", {0, false, {}}},
      {"q2.most_attended", {0, false, {}}}}},
};

const std::map<std::string, double> max_marks = {{"q1.scores", 2}, {"q1.weights", 2}, {"q1.output", 2},
                                                 {"q2.scores", 2}, {"q2.weights", 3}, {"q2.output", 3},
                                                 {"q2.most_attended", 1}};

Json feedback(const fs::path& out, const std::string& stem) {
  const fs::path p = out / "feedback" / (stem + ".json");
  REQUIRE(fs::exists(p));
  return Json::parse(slurp(p));
}

const Json& part(const Json& fb, const std::string& question, const std::string& name) {
  for (const Json& q : fb.at("questions"))
    if (q.at("id") == question) return q.at("parts").at(name);
  FAIL("no question " << question);
  throw std::logic_error("unreachable");
}

const Json& cell(const Json& p, const std::string& label) {
  for (const Json& c : p.at("cells"))
    if (c.at("cell") == label) return c;
  FAIL("no cell " << label);
  throw std::logic_error("unreachable");
}

void check_parts(const fs::path& out, bool sheet) {
  for (const auto& [stem, special] : parts_expected) {
    if (sheet && stem == "s27") continue;  // only the folder has the copied file
    const Json fb = feedback(out, stem);
    for (const auto& [name, max] : max_marks) {
      INFO(stem << " " << name);
      const std::string q = name.substr(0, 2), p = name.substr(3);
      const Json& got = part(fb, q, p);
      const auto it = special.find(name);
      const PartExpected want = it != special.end() ? it->second : PartExpected{max, false, {}};
      CHECK(got.at("max_score").get<double>() == max);
      CHECK(got.at("score").get<double>() == Approx(want.score).margin(1e-9));
      CHECK(got.at("follow_through").get<bool>() == want.follow_through);
      CHECK(got.at("diagnoses").get<std::vector<std::string>>() == want.diagnoses);
    }
  }
}

void check_cells(const fs::path& out) {
  {
    INFO("s21: a cell that is not a number");
    const Json fb = feedback(out, "s21");
    const Json& c = cell(part(fb, "q1", "output"), "1");
    CHECK(c.at("given") == "6.6.5");
    CHECK(c.at("verdict") == "unreadable");
    CHECK(c.at("note") == "could not read '6.6.5' as a number");
    CHECK(c.at("value").is_null());
  }
  {
    INFO("s20: weights to 2 decimals, 3 asked");
    const Json fb = feedback(out, "s20");
    const Json& p = part(fb, "q1", "weights");
    CHECK(cell(p, "1").at("verdict") == "imprecise");
    CHECK(cell(p, "1").at("note") == "'0.02' is right to 2 decimal places; give 3");
    CHECK(cell(p, "2").at("verdict") == "imprecise");
    CHECK(cell(p, "2").at("note") == "'0.98' is right to 2 decimal places; give 3");
    CHECK(cell(p, "3").at("verdict") == "correct");
    const auto hints = p.at("hints").get<std::vector<std::string>>();
    CHECK(std::find(hints.begin(), hints.end(), "weights · sun: '0.02' is right to 2 decimal places; give 3") != hints.end());
  }
  {
    INFO("s07: every spelling reads as the number meant");
    const Json fb = feedback(out, "s07");
    const Json& scores = part(fb, "q1", "scores");
    CHECK(cell(scores, "1").at("given") == "\xE2\x88\x92" "1.0");
    CHECK(cell(scores, "1").at("value").get<double>() == -1.0);
    CHECK(cell(scores, "3").at("given") == "");
    CHECK(cell(scores, "3").at("value") == "masked");
    CHECK(cell(scores, "3").at("verdict") == "correct");
    CHECK(cell(part(fb, "q1", "weights"), "1").at("given") == "4.7%");
    CHECK(cell(part(fb, "q1", "weights"), "1").at("value").get<double>() == Approx(0.047).margin(1e-12));
    CHECK(cell(part(fb, "q1", "output"), "2").at("given") == "1,09");
    CHECK(cell(part(fb, "q1", "output"), "2").at("value").get<double>() == Approx(1.09).margin(1e-12));
    const Json& weights = part(fb, "q2", "weights");
    CHECK(cell(weights, "2.1").at("given") == ".245");
    CHECK(cell(weights, "2.2").at("given") == "66.5%");
    CHECK(cell(weights, "2.2").at("value").get<double>() == Approx(0.665).margin(1e-12));
    CHECK(cell(part(fb, "q2", "most_attended"), "1").at("given") == "MAT");
    CHECK(cell(part(fb, "q2", "most_attended"), "1").at("verdict") == "correct");
  }
  {
    INFO("s04: the scores over their total (1.5 - 3.0 = -1.5, so whole numbers here)");
    const Json fb = feedback(out, "s04");
    const Json& p = part(fb, "q1", "weights");
    CHECK(cell(p, "2").at("given") == "2");
    CHECK(cell(p, "2").at("value").get<double>() == 2.0);
    CHECK(cell(p, "2").at("verdict") == "wrong");
  }
  {
    INFO("s02 and s03: -inf and x for the masked score");
    CHECK(cell(part(feedback(out, "s02"), "q1", "scores"), "3").at("value") == "masked");
    CHECK(cell(part(feedback(out, "s03"), "q1", "scores"), "3").at("value") == "masked");
  }
  {
    INFO("s12: the masked score computed");
    const Json fb = feedback(out, "s12");
    const Json& c = cell(part(fb, "q1", "scores"), "3");
    CHECK(c.at("verdict") == "wrong");
    CHECK(c.at("note") == "this key comes after the query's token, so its score is masked");
  }
  {
    INFO("s19: the slip is wrong, what follows from it is carried");
    const Json fb = feedback(out, "s19");
    CHECK(cell(part(fb, "q2", "scores"), "2.3").at("verdict") == "wrong");
    CHECK(cell(part(fb, "q2", "weights"), "2.3").at("verdict") == "carried");
    CHECK(cell(part(fb, "q2", "weights"), "1.1").at("verdict") == "correct");
    const auto hints = part(fb, "q2", "weights").at("hints").get<std::vector<std::string>>();
    CHECK(std::find(hints.begin(), hints.end(), "correct method, carried from your scores") != hints.end());
  }
  {
    INFO("s22: an untouched template answers nothing, the masked score included");
    const Json fb = feedback(out, "s22");
    CHECK(fb.at("status") == "unanswered");
    CHECK(cell(part(fb, "q1", "scores"), "3").at("verdict") == "unanswered");
  }
}

// Counts of students per mistake in summary.md, graded students only.
void check_summary(const fs::path& out) {
  const std::string summary = slurp(out / "summary.md");
  for (const char* code : {"hard-attention", "mask-ignored", "missing-scale", "extra-scale", "wrong-query",
                           "transposed-scores", "no-exp", "no-normalise", "wrong-exp-base", "softmax-columns",
                           "mixed-keys", "mask-after-softmax"}) {
    INFO(code);
    CHECK(summary.find(std::string("| `") + code + "` | 1 | ") != std::string::npos);
  }
  // s14's, and s06's one-hot weights, which e^score rounded to whole numbers gives too.
  CHECK(summary.find("| `rounded-early` | 2 | ") != std::string::npos);
  // The blank submission is listed with the problems, not counted as marked work.
  // (The sheet has names: the summary gives them beside the id.)
  CHECK((summary.find(" | s22 | unanswered | no answers given |") != std::string::npos ||
         summary.find(" | s22 (Novak, Leo) | unanswered | no answers given |") != std::string::npos));
}

}  // namespace

TEST_CASE("the demo class's folder of uploads is marked as a fair marker would", "[threads]") {
  Run run;
  const fs::path out = mark("fixtures/class/answers", "folder", &run);
  const std::vector<Row> rows = gradebook(out);

  SECTION("gradebook: every row's student, status and score") { check_gradebook(rows, folder_expected()); }

  SECTION("every uploaded file is a row exactly once, in sorted order, but the superseded upload") {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(root / "fixtures/class/answers"))
      if (e.path().filename() != "s26-2026-03-02.yaml") files.push_back("fixtures/class/answers/" + e.path().filename().string());
    std::sort(files.begin(), files.end());
    std::vector<std::string> sources;
    for (const Row& r : rows) sources.push_back(r.source);
    CHECK(sources == files);
  }

  SECTION("unreadable uploads say why") {
    const auto records = parse_csv(slurp(out / "gradebook.csv"));
    std::map<std::string, std::string> reason;
    for (const auto& r : records) reason[r[8]] = r[9];
    std::map<std::string, std::string> flags;
    for (const auto& r : records) flags[r[8]] = r[10];
    // s27 handed in s01's file with the id changed: flagged, and the variant's owner named.
    CHECK(flags["fixtures/class/answers/s27.yaml"] == "fits-variant-of:s01");
    CHECK(reason["fixtures/class/answers/s27.yaml"].ends_with("; 6082cd4028cea849 is s01's variant"));
    CHECK(std::count_if(flags.begin(), flags.end(), [](const auto& f) { return !f.second.empty(); }) == 2);  // s27, and the header's own
    CHECK(reason["fixtures/class/answers/s23.yaml"].find("YAML syntax") != std::string::npos);
    CHECK(reason["fixtures/class/answers/s24.docx"] == "binary file (contains NUL bytes)");
    CHECK(reason["fixtures/class/answers/s25.yaml"] == "UTF-16 text; save the file as UTF-8");
    CHECK(reason.count("fixtures/class/answers/s26-2026-03-02.yaml") == 0);  // superseded: in the summary
    // The later by the time each file records (submitted:), whatever the checkout's modification times.
    CHECK(slurp(out / "summary.md").find("| fixtures/class/answers/s26-2026-03-02.yaml | s26 | duplicate | superseded by "
                                         "fixtures/class/answers/s26-2026-03-05.yaml (submitted 2026-03-05T09:12:00Z, "
                                         "later than this file's 2026-03-02T15:31:00Z) |") != std::string::npos);
    CHECK(reason["fixtures/class/answers/s28.yaml"] == "answers are for rubric 'lesson', not 'class-demo'");
    CHECK(reason["fixtures/class/answers/s27.yaml"].find("the file is for variant 6082cd4028cea849") == 0);
    CHECK(reason["fixtures/class/answers/unnamed.yaml"] ==
          "no student id; marked against the variant recorded in the file");
  }

  SECTION("feedback: parts' scores, follow-through and diagnoses") { check_parts(out, false); }

  SECTION("feedback: cells") { check_cells(out); }

  SECTION("feedback of the uploads nobody could mark") {
    // Feedback named after a student is that student's counted submission; the others have folders of their own.
    const Json unnamed = feedback(out, "no-student/unnamed.yaml");
    CHECK(unnamed.at("status") == "unknown-student");
    CHECK(unnamed.at("variant") == "5de245283e3b8768");  // s29's
    CHECK(unnamed.at("score").get<double>() == 15);
    const Json dup = feedback(out, "superseded/s26");
    CHECK(dup.at("status") == "duplicate");
    CHECK(dup.at("score").is_null());
    CHECK(feedback(out, "no-student/s24.docx").at("status") == "unreadable");
    CHECK(feedback(out, "s26").at("status") == "graded");
  }

  SECTION("summary: how many students made each mistake") { check_summary(out); }

  SECTION("a second run without --force refuses to replace the reports") {
    const Run again = run_cli("mark " + rubric + " fixtures/class/answers --out '" + out.string() + "'");
    CHECK(again.status == 2);
    CHECK(again.err.find("already holds 'gradebook.csv' from an earlier run; pass --force to replace it") !=
          std::string::npos);
  }
}

TEST_CASE("the demo class's form export is marked the same way", "[threads]") {
  Run run;
  const fs::path out = mark("fixtures/class/sheet.csv", "sheet", &run);
  const std::vector<Row> rows = gradebook(out);

  SECTION("gradebook: every row's student, status and score") { check_gradebook(rows, sheet_expected()); }

  SECTION("every answered row of the sheet is a row exactly once") {
    // Data rows are the lines after the header that are not all blank.
    const auto records = parse_csv(slurp(root / "fixtures/class/sheet.csv"));
    std::vector<std::string> lines;
    for (std::size_t i = 1; i < records.size(); ++i) {
      const bool blank = std::all_of(records[i].begin(), records[i].end(), [](const std::string& f) { return f.empty(); });
      if (!blank) lines.push_back("fixtures/class/sheet.csv:" + std::to_string(i + 1));
    }
    CHECK(lines.size() == 25);
    // The first of s26's two rows is superseded: in the summary, not the gradebook.
    const std::string superseded = "fixtures/class/sheet.csv:24";
    CHECK(slurp(out / "summary.md").find("| " + superseded + " | s26 (Jensen, Mia) | duplicate | superseded by "
                                         "fixtures/class/sheet.csv:25 (Timestamp 02/03/2026 15:48:00, later than this "
                                         "row's 02/03/2026 15:31:00) |") != std::string::npos);
    lines.erase(std::find(lines.begin(), lines.end(), superseded));
    std::vector<std::string> sources;
    for (const Row& r : rows) sources.push_back(r.source);
    CHECK(sources == lines);
  }

  SECTION("names travel from the sheet's Name column to the gradebook") {
    REQUIRE(!rows.empty());
    CHECK(rows[0].student == "s01");
    CHECK(!rows[0].name.empty());
    CHECK(std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.student.empty() || !r.name.empty(); }));
  }

  SECTION("the misspelt column is reported, not dropped silently") {
    CHECK(run.err.find("2 columns are not cells of any question and were not marked: 'q1.weigths.1', 'Comments'; "
                       "title them as attnmark template RUBRIC --format form lists, or map them with --columns "
                       "MAP.csv\n") != std::string::npos);
  }

  SECTION("feedback: parts' scores, follow-through and diagnoses") { check_parts(out, true); }

  SECTION("feedback: cells") { check_cells(out); }

  SECTION("summary: how many students made each mistake") { check_summary(out); }

  SECTION("a second run without --force refuses to replace the reports") {
    const Run again = run_cli("mark " + rubric + " fixtures/class/sheet.csv --out '" + out.string() + "'");
    CHECK(again.status == 2);
    CHECK(again.err.find("already holds 'gradebook.csv' from an earlier run; pass --force to replace it") !=
          std::string::npos);
  }
}

TEST_CASE("a mark run killed part way leaves no half-written gradebook") {
  // The reports are written under temporary names and renamed at the end,
  // so a run stopped at any moment leaves a whole gradebook or none.
  const fs::path dir = scratch() / "interrupted";
  fs::create_directories(dir);
  std::string sheet = "student,q1.scores.1,q1.scores.2,q1.scores.3\n";
  for (int i = 0; i < 20000; ++i) sheet += "s" + std::to_string(i) + ",2,0,1\n";
  write_file((dir / "big.csv").string(), sheet);
  for (const char* delay : {"0.05", "0.2", "0.6"}) {
    const fs::path out = dir / (std::string("out-") + delay);
    const std::string command = "'" + std::string(ATTNMARK_BINARY) + "' mark '" + (root / "rubrics/lesson.yaml").string() +
                                "' '" + (dir / "big.csv").string() + "' --out '" + out.string() +
                                "' >/dev/null 2>&1 </dev/null & pid=$!; sleep " + delay +
                                "; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; true";
    REQUIRE(std::system(command.c_str()) == 0);
    INFO("killed after " << delay << " s");
    if (!fs::exists(out / "gradebook.csv")) continue;  // stopped before the end: no gradebook at all
    const auto records = parse_csv(read_file((out / "gradebook.csv").string(), 1 << 26));
    CHECK(records.size() == 20001);  // the header and every row
  }
}

namespace {

// Runs a shell command line; its exit status.
int shell(const std::string& command) {
  const int raw = std::system(command.c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

// A folder of right answer files for q1 of the lesson, one per id, each in a folder named after it.
void write_answers(const fs::path& dir, const std::vector<std::string>& ids) {
  fs::remove_all(dir);
  // s001's file, its student changed and its variant left out (the lesson has the same numbers for all).
  static const std::string answers = [] {
    std::string text = lesson_answers("[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.88, 2.12]");
    text.erase(text.find("variant: "), text.find('\n', text.find("variant: ")) + 1 - text.find("variant: "));
    return text;
  }();
  for (const std::string& id : ids) {
    std::string text = answers;
    text.replace(text.find("student: \"s001\""), 15, "student: \"" + id + "\"");
    write_file((dir / id / "answers.yaml").string(), text);
  }
}

// A folder of `n` right answer files, one per student s0, s1, ...
void write_class(const fs::path& dir, int n) {
  std::vector<std::string> ids;
  for (int i = 0; i < n; ++i) ids.push_back("s" + std::to_string(i));
  write_answers(dir, ids);
}

std::size_t gradebook_rows(const fs::path& out) { return parse_csv(slurp(out / "gradebook.csv")).size() - 1; }

}  // namespace

TEST_CASE("a --force run killed part way leaves the earlier run's reports whole, or its own, never a mix") {
  const fs::path dir = scratch() / "force-killed";
  fs::create_directories(dir);
  std::string sheet = "student,q1.scores.1,q1.scores.2,q1.scores.3\n";
  for (int i = 0; i < 20000; ++i) sheet += "s" + std::to_string(i) + ",2,0,1\n";
  write_file((dir / "big.csv").string(), sheet);
  write_class(dir / "small", 3);
  for (const char* delay : {"0.05", "0.2", "0.6", "3"}) {
    const fs::path out = dir / (std::string("out-") + delay);
    fs::remove_all(out);
    REQUIRE(run_cli("mark rubrics/lesson.yaml '" + (dir / "small").string() + "' --out '" + out.string() + "'").status == 0);
    const std::string command = "'" + std::string(ATTNMARK_BINARY) + "' mark '" + (root / "rubrics/lesson.yaml").string() +
                                "' '" + (dir / "big.csv").string() + "' --force --out '" + out.string() +
                                "' >/dev/null 2>&1 </dev/null & pid=$!; sleep " + delay +
                                "; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; true";
    REQUIRE(shell(command) == 0);
    INFO("killed after " << delay << " s");
    // The folder as a whole is one run's: the gradebook, the summary and the feedback agree.
    const std::size_t rows = gradebook_rows(out);
    CHECK((rows == 3 || rows == 20000));
    CHECK(slurp(out / "summary.md").find(std::to_string(rows) + " submissions: ") != std::string::npos);
    std::size_t feedback = 0;
    for (const auto& e : fs::directory_iterator(out / "feedback")) feedback += e.path().extension() == ".json";
    CHECK(feedback == rows);
    // Whatever the killed run left beside --out goes at the next run, which
    // succeeds. Only a ".new" one may stay (for a minute): a run killed
    // between making its folder and locking it leaves one that, for that
    // minute, cannot be told from a live run's; it is empty.
    REQUIRE(run_cli("mark rubrics/lesson.yaml '" + (dir / "small").string() + "' --force --out '" + out.string() + "'")
                .status == 0);
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      INFO("left beside --out: " << name);
      if (!name.starts_with(".attnmark-")) continue;
      CHECK(name.ends_with(".new"));
      CHECK(fs::is_empty(e.path()));
    }
  }
}

TEST_CASE("two runs into one new --out at once: one writes it whole, the other fails and says so") {
  const fs::path dir = scratch() / "concurrent";
  write_class(dir / "a", 3);
  write_class(dir / "b", 5);
  for (int attempt = 0; attempt < 5; ++attempt) {
    const fs::path out = dir / ("out-" + std::to_string(attempt));
    fs::remove_all(out);
    const std::string bin = "'" + std::string(ATTNMARK_BINARY) + "' mark '" + (root / "rubrics/lesson.yaml").string() + "' '";
    const std::string command = "cd '" + dir.string() + "' && { (" + bin + (dir / "a").string() + "' --out '" +
                                out.string() + "' 2>a.err; echo $? >a.status) & (" + bin + (dir / "b").string() +
                                "' --out '" + out.string() + "' 2>b.err; echo $? >b.status) & wait; }";
    REQUIRE(shell(command) == 0);
    const std::string a = slurp(dir / "a.status"), b = slurp(dir / "b.status");
    INFO(slurp(dir / "a.err") << slurp(dir / "b.err"));
    CHECK(((a == "0\n" && b == "2\n") || (a == "2\n" && b == "0\n")));
    const std::string loser = slurp(dir / (a == "2\n" ? "a.err" : "b.err"));
    CHECK((loser.find("already holds 'gradebook.csv' from an earlier run") != std::string::npos ||
           loser.find("cannot rename into place (another run made it meanwhile?)") != std::string::npos));
    const std::size_t rows = gradebook_rows(out);
    CHECK(rows == (a == "0\n" ? 3u : 5u));
    CHECK(slurp(out / "summary.md").find(std::to_string(rows) + " submissions: ") != std::string::npos);
  }
}

TEST_CASE("mark: --out inside the input folder is never marked, and an input inside --out is refused") {
  const fs::path dir = scratch() / "out-inside";
  write_class(dir / "subs", 3);
  const std::string mark = "mark rubrics/lesson.yaml '" + (dir / "subs").string() + "' --out '" + (dir / "subs/out").string() + "'";
  const Run first = run_cli(mark);
  CHECK(first.status == 0);
  CHECK(gradebook_rows(dir / "subs/out") == 3);
  const Run again = run_cli(mark + " --force");
  CHECK(again.status == 0);
  CHECK(again.err.starts_with("attnmark: " + (dir / "subs/out").string() + ": the reports' folder (--out); not marked\n"));
  CHECK(gradebook_rows(dir / "subs/out") == 3);  // its own gradebook was not read as a sheet
  const Run sheet = run_cli("mark rubrics/lesson.yaml '" + (dir / "subs/out/gradebook.csv").string() + "' --force --out '" +
                            (dir / "subs/out").string() + "'");
  CHECK(sheet.status == 2);
  CHECK(sheet.err == "attnmark: " + (dir / "subs/out/gradebook.csv").string() + ": is inside --out '" +
                         (dir / "subs/out").string() + "'; reports are never marked: choose another --out\n");
  const Run same = run_cli("mark rubrics/lesson.yaml '" + (dir / "subs").string() + "' --out '" + (dir / "subs").string() + "/'");
  CHECK(same.status == 2);
  CHECK(same.err == "attnmark: " + (dir / "subs").string() + ": is inside --out '" + (dir / "subs").string() +
                        "'; reports are never marked: choose another --out\n");
}

TEST_CASE("mark: --out that holds other files is refused before anything is marked, and its files are untouched") {
  const fs::path dir = scratch() / "out-foreign";
  write_class(dir / "subs", 1);
  write_file((dir / "out/notes.txt").string(), "mine\n");
  const Run r = run_cli("mark rubrics/lesson.yaml '" + (dir / "subs").string() + "' --force --out '" + (dir / "out").string() + "'");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + (dir / "out").string() +
                     ": holds files that are not attnmark's reports ('notes.txt'); the reports are replaced as a folder, "
                     "so choose a new or empty --out\n");
  CHECK(listing(dir / "out") == std::vector<std::string>{"notes.txt 5"});
}

TEST_CASE("a folder the walk cannot read is named, and mark exits 1, never a silent loss") {
  const fs::path dir = scratch() / "walk-too-long";
  write_class(dir / "subs", 2);
  // A chain of folders whose path passes PATH_MAX (as a zip can hold): made
  // one level at a time, relative to the last.
  int fd = ::open((dir / "subs").c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(fd >= 0);
  const std::string name(200, 'd');
  for (int level = 0; level < 25; ++level) {
    REQUIRE(::mkdirat(fd, name.c_str(), 0755) == 0);
    const int next = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY);
    ::close(fd);
    fd = next;
    REQUIRE(fd >= 0);
  }
  ::close(fd);
  const Run r = run_cli("mark rubrics/lesson.yaml '" + (dir / "subs").string() + "' --out '" + (dir / "out").string() + "'");
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(r.err.find(": cannot read folder: File name too long; nothing in it was marked\n") != std::string::npos);
  CHECK(r.err.ends_with("attnmark: not complete: 1 problem with the inputs (files not marked, folders not read, files "
                        "flagged, sheets' columns not marked); see summary.md (exit status 1)\n"));
  CHECK(gradebook_rows(dir / "out") == 2);
  CHECK(slurp(dir / "out/summary.md").find("## Notes on the inputs\n\n- " + (dir / "subs").string() + "/" + name) !=
        std::string::npos);
  // (Removed the same way, one level at a time: its path is too long for remove_all.)
  std::vector<int> levels{::open((dir / "subs").c_str(), O_RDONLY | O_DIRECTORY)};
  for (int level = 0; level < 25; ++level) levels.push_back(::openat(levels.back(), name.c_str(), O_RDONLY | O_DIRECTORY));
  for (int level = 25; level-- > 0;) {
    ::close(levels[static_cast<std::size_t>(level) + 1]);
    CHECK(::unlinkat(levels[static_cast<std::size_t>(level)], name.c_str(), AT_REMOVEDIR) == 0);
  }
  ::close(levels[0]);
}

TEST_CASE("a sheet of 20,000 rows of one student id: one counted row named after the id, the rest superseded") {
  const fs::path dir = scratch() / "same-id";
  fs::create_directories(dir);
  std::string sheet = "student,q1.scores.1\n";
  for (int i = 0; i < 20000; ++i) sheet += "alice,2\n";
  write_file((dir / "class.csv").string(), sheet);
  const Run r = run_cli("mark rubrics/lesson.yaml '" + (dir / "class.csv").string() + "' --out '" + (dir / "out").string() + "'");
  CHECK(r.status == 0);
  CHECK(fs::exists(dir / "out/feedback/alice.json"));
  CHECK(slurp(dir / "out/feedback/alice.json").find("\"source\":\"" + (dir / "class.csv").string() + ":20001\"") !=
        std::string::npos);
  CHECK(fs::exists(dir / "out/feedback/superseded/alice-19999.json"));
  CHECK_FALSE(fs::exists(dir / "out/feedback/superseded/alice-20000.json"));
}

TEST_CASE("a sheet column past a part's cells (q1.scores.4 of three keys) is a column not marked, exit 1") {
  const fs::path dir = scratch() / "past-cells";
  fs::create_directories(dir);
  write_file((dir / "class.csv").string(), "student,q1.scores.1,q1.scores.4\ns1,2,5\n");
  const Run r = run_cli("mark rubrics/lesson.yaml '" + (dir / "class.csv").string() + "' --out '" + (dir / "out").string() + "'");
  CHECK(r.status == 1);
  CHECK(r.err.substr(0, r.err.find('\n') + 1) ==
        "attnmark: " + (dir / "class.csv").string() +
            ": column 'q1.scores.4' is not a cell of any question and was not marked; title it as attnmark template "
            "RUBRIC --format form lists, or map it with --columns MAP.csv\n");
}

TEST_CASE("a sheet whose header is thousands of junk columns makes one line of notes, not reports of junk") {
  const fs::path dir = scratch() / "junk-columns";
  fs::create_directories(dir);
  std::string header = "student,q1.scores.1";
  std::string junk;
  for (int i = 0; i < 9999; ++i) {
    header += ",q1.weigths." + std::to_string(i + 1);
    junk += ",1";
  }
  std::string sheet = header + "\n";
  for (int i = 0; i < 250; ++i) sheet += "s" + std::to_string(i) + ",2" + junk + "\n";
  write_file((dir / "class.csv").string(), sheet);
  const Run r = run_cli("mark rubrics/lesson.yaml '" + (dir / "class.csv").string() + "' --out '" + (dir / "out").string() + "'");
  CHECK(r.status == 1);
  const std::string first_line = r.err.substr(0, r.err.find('\n') + 1);
  CHECK(first_line == "attnmark: " + (dir / "class.csv").string() +
                          ": 9999 columns are not cells of any question and were not marked: 'q1.weigths.1', "
                          "'q1.weigths.2', 'q1.weigths.3', 'q1.weigths.4', 'q1.weigths.5', 'q1.weigths.6', "
                          "'q1.weigths.7', 'q1.weigths.8', 'q1.weigths.9', 'q1.weigths.10' and 9989 more; title them "
                          "as attnmark template RUBRIC --format form lists, or map them with --columns MAP.csv\n");
  std::uintmax_t bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir / "out"))
    if (e.is_regular_file()) bytes += e.file_size();
  CHECK(bytes < 250 * 40000);  // some kilobytes a student, as for any sheet, however many junk columns

  // Columns of 9,999 questions the rubric lacks: cells of no question here,
  // so not marked, and said once, ten named, then counted.
  header = "student,q1.scores.1";
  for (int i = 0; i < 9999; ++i) header += ",q" + std::to_string(1000 + i) + ".scores.1";
  sheet = header + "\n";
  for (int i = 0; i < 250; ++i) sheet += "s" + std::to_string(i) + ",2" + junk + "\n";
  write_file((dir / "questions.csv").string(), sheet);
  const Run q = run_cli("mark rubrics/lesson.yaml '" + (dir / "questions.csv").string() + "' --out '" + (dir / "out-q").string() + "'");
  CHECK(q.status == 1);
  CHECK(q.err.substr(0, q.err.find('\n') + 1) ==
        "attnmark: " + (dir / "questions.csv").string() +
            ": 9999 columns are not cells of any question and were not marked: 'q1000.scores.1', 'q1001.scores.1', "
            "'q1002.scores.1', 'q1003.scores.1', 'q1004.scores.1', 'q1005.scores.1', 'q1006.scores.1', "
            "'q1007.scores.1', 'q1008.scores.1', 'q1009.scores.1' and 9989 more; title them as attnmark template "
            "RUBRIC --format form lists, or map them with --columns MAP.csv\n");
  const auto rows = parse_csv(slurp(dir / "out-q/gradebook.csv"));
  REQUIRE(rows.size() == 251);
  CHECK(rows[1][rows[1].size() - 2].find("q1000") == std::string::npos);
  bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir / "out-q"))
    if (e.is_regular_file()) bytes += e.file_size();
  CHECK(bytes < 250 * 40000);
}

TEST_CASE("a folder nested 1,100 deep is walked to the bottom under a limit of 256 open files: every file is marked") {
  const fs::path dir = scratch() / "walk-deep";
  write_class(dir / "subs", 26);
  // The 27th student's file at the bottom of 1,100 folders.
  int fd = ::open((dir / "subs").c_str(), O_RDONLY | O_DIRECTORY);
  for (int level = 0; level < 1100; ++level) {
    REQUIRE(::mkdirat(fd, "d", 0755) == 0);
    const int next = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
    ::close(fd);
    fd = next;
    REQUIRE(fd >= 0);
  }
  const std::string text = slurp(dir / "subs/s0/answers.yaml");
  std::string bottom = text;
  bottom.replace(bottom.find("student: \"s0\""), 13, "student: \"d\"");
  const int file = ::openat(fd, "answers.yaml", O_WRONLY | O_CREAT, 0644);
  REQUIRE(::write(file, bottom.data(), bottom.size()) == static_cast<ssize_t>(bottom.size()));
  ::close(file);
  ::close(fd);
  const int status = shell("ulimit -n 256 && cd '" + root.string() + "' && '" + ATTNMARK_BINARY +
                           "' mark rubrics/lesson.yaml '" + (dir / "subs").string() + "' --out '" + (dir / "out").string() +
                           "' 2>'" + (dir / "err").string() + "'");
  INFO(slurp(dir / "err"));
  CHECK(status == 0);
  CHECK(gradebook_rows(dir / "out") == 27);
  CHECK(slurp(dir / "err") == "attnmark: marked 27 submissions (27 graded); reports in " + (dir / "out").string() +
                                  "/: gradebook.csv, summary.md, summary.html, feedback/\n");
}

TEST_CASE("mark: --out given as a link to a folder replaces the folder it names, and the link stays") {
  const fs::path dir = scratch() / "out-link";
  write_class(dir / "subs", 2);
  fs::create_directories(dir / "share/results");
  fs::create_directory_symlink(dir / "share/results", dir / "results");
  const std::string mark = "mark rubrics/lesson.yaml '" + (dir / "subs").string() + "' --out '" + (dir / "results").string() + "'";
  CHECK(run_cli(mark).status == 0);
  CHECK(run_cli(mark + " --force").status == 0);
  CHECK(fs::is_symlink(dir / "results"));
  CHECK(gradebook_rows(dir / "share/results") == 2);
}

TEST_CASE("mark --roster: a row per roster student in its order, missing ones, ids not on the roster, and the LMS exports") {
  const fs::path dir = scratch() / "roster";
  write_answers(dir / "subs", {"s0", "s1", "S2", "s9"});
  write_file((dir / "roster.csv").string(),
             "Student ID,Full Name,Email\ns0,Ada Lovelace,ada@x.org\ns1,\"Turing, Alan\",alan@x.org\n"
             "s2,Grace Hopper,grace@x.org\ns3,Edsger Dijkstra,ed@x.org\n");
  const std::string subs = (dir / "subs").string();
  const std::string mark = "mark rubrics/lesson.yaml '" + subs + "' --roster '" + (dir / "roster.csv").string() + "'";
  const Run r = run_cli(mark + " --export canvas,moodle --assignment 'Attention worksheet' --assignment-id 123456 --out '" +
                        (dir / "out").string() + "'");
  CHECK(r.status == 1);
  CHECK(r.err == "attnmark: marked 4 submissions (2 graded, 2 not-on-roster); roster: 4 students, 2 missing; reports in " +
                     (dir / "out").string() + "/: gradebook.csv, summary.md, summary.html, feedback/, canvas.csv, moodle.csv\n"
                     "attnmark: canvas.csv and moodle.csv hold no row for 2 students (2 handed nothing in; see "
                     "summary.md): the LMS keeps the grade each has; --missing zero writes 0 for those who handed "
                     "nothing in\n"
                     "attnmark: not complete: 2 roster students handed nothing in; 2 submissions' ids are not on the roster; "
                     "see summary.md (exit status 1)\n");
  // The gradebook, but for the variant column.
  auto rows = parse_csv(slurp(dir / "out/gradebook.csv"));
  for (auto& row : rows) row.erase(row.begin() + 2);
  using Rows = std::vector<std::vector<std::string>>;
  CHECK(rows == Rows{{"student", "name", "status", "score", "max_score", "q1", "q2", "q3", "source", "reason", "flags"},
                     {"s0", "Ada Lovelace", "graded", "5", "16", "5", "0", "0", subs + "/s0/answers.yaml", "", ""},
                     {"s1", "Turing, Alan", "graded", "5", "16", "5", "0", "0", subs + "/s1/answers.yaml", "", ""},
                     {"s2", "Grace Hopper", "missing", "", "16", "", "", "", "", "no submission", ""},
                     {"s3", "Edsger Dijkstra", "missing", "", "16", "", "", "", "", "no submission", ""},
                     // Not on the roster: no score against a variant nobody was given.
                     {"S2", "", "not-on-roster", "", "16", "", "", "", subs + "/S2/answers.yaml",
                      "not on the roster, so not marked; did you mean 's2'? (--near-ids match marks it as 's2')", ""},
                     {"s9", "", "not-on-roster", "", "16", "", "", "", subs + "/s9/answers.yaml",
                      "not on the roster, so not marked", ""}});
  CHECK(slurp(dir / "out/canvas.csv") ==
        "Student,ID,SIS User ID,SIS Login ID,Section,Attention worksheet (123456)\r\n"
        "Points Possible,,,,,16\r\n"
        "Ada Lovelace,,s0,,,5\r\n"
        "\"Turing, Alan\",,s1,,,5\r\n");  // s2 and s3 handed nothing in: no row, so Canvas keeps their grades
  const std::string feedback = "5 / 16. q2 scores 0/2; q2 weights 0/3; q2 output 0/3; q3 scores 0/1; q3 weights 0/1; "
                               "q3 most attended 0/1.";
  CHECK(slurp(dir / "out/moodle.csv") ==
        "Email address,Full name,Assignment: Attention worksheet (Real),Assignment: Attention worksheet (Feedback)\r\n"
        "ada@x.org,Ada Lovelace,5," + feedback + "\r\n"
        "alan@x.org,\"Turing, Alan\",5," + feedback + "\r\n");
  const std::string summary = slurp(dir / "out/summary.md");
  CHECK(summary.find("4 submissions: 2 graded, 2 not-on-roster.\n\nRoster: 4 students, 2 handed in, 2 missing; 2 "
                     "submissions not on the roster. An id near a roster id (S002, s2 or s002. for s002) is not marked as "
                     "that student, only named (--near-ids flag; --near-ids match marks it as the roster student).\n") !=
        std::string::npos);

  // --near-ids match: S2 is marked as the roster's s2, and says so.
  const Run matched = run_cli(mark + " --near-ids match --out '" + (dir / "matched").string() + "'");
  CHECK(matched.status == 1);  // s3 handed nothing in, and s9 is not on the roster
  rows = parse_csv(slurp(dir / "matched/gradebook.csv"));
  REQUIRE(rows.size() == 6);
  CHECK(rows[3][0] == "s2");
  CHECK(rows[3][1] == "Grace Hopper");
  CHECK(rows[3][3] == "graded");
  CHECK(rows[3][10] == "the file says student 'S2'; marked as the roster's 's2' (--near-ids match)");

  // Every roster student handed in, under their own ids: exit 0.
  write_answers(dir / "all", {"s0", "s1", "s2", "s3"});
  CHECK(run_cli("mark rubrics/lesson.yaml '" + (dir / "all").string() + "' --roster '" + (dir / "roster.csv").string() +
                "' --out '" + (dir / "all-out").string() + "'")
            .status == 0);
}

TEST_CASE("mark: a sheet without a student id column stops with exit 2 and names --id-column, and --id-column reads it") {
  const fs::path dir = scratch() / "no-id-column";
  fs::create_directories(dir);
  write_file((dir / "class.csv").string(), "Name,Matrikel,q1.scores.1\nAda,12345,2\n");
  const Run r = run_cli("mark rubrics/lesson.yaml '" + (dir / "class.csv").string() + "' --out '" + (dir / "out").string() + "'");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + (dir / "class.csv").string() +
                     ":1: expected a student id column in the header (student, student id, id, id number, sis user id, "
                     "sis login id, username, login, email, email address), or name it with --id-column; got 'Name', "
                     "'Matrikel', 'q1.scores.1'\n");
  CHECK_FALSE(fs::exists(dir / "out"));
  const Run chosen = run_cli("mark rubrics/lesson.yaml '" + (dir / "class.csv").string() + "' --id-column matrikel --out '" +
                             (dir / "out").string() + "'");
  CHECK(chosen.status == 0);
  const auto rows = parse_csv(slurp(dir / "out/gradebook.csv"));
  REQUIRE(rows.size() == 2);
  CHECK(rows[1][0] == "12345");
  CHECK(rows[1][1] == "Ada");
}

TEST_CASE("mark: answers copied from a student whose own file is not marked are still flagged") {
  // s01's upload is for another rubric, so it is not marked, but s01's
  // variant is still one a classmate can copy: s27 handed in s01's answers
  // with the id changed.
  const fs::path dir = scratch() / "copied-from-unmarked";
  fs::remove_all(dir);
  std::string own = slurp(root / "fixtures/class/answers/s01.yaml");
  own.replace(own.find("rubric: \"class-demo\""), 20, "rubric: \"lesson\"");
  write_file((dir / "subs/s01.yaml").string(), own);
  write_file((dir / "subs/s27.yaml").string(), slurp(root / "fixtures/class/answers/s27.yaml"));
  const Run r = run_cli("mark " + rubric + " '" + (dir / "subs").string() + "' --out '" + (dir / "out").string() + "'");
  CHECK(r.status == 1);  // s01's file needs the teacher
  const auto records = parse_csv(slurp(dir / "out/gradebook.csv"));
  REQUIRE(records.size() == 3);
  CHECK(records[1][3] == "wrong-rubric");
  CHECK(records[2][0] == "s27");
  CHECK(records[2][10] == "fits-variant-of:s01");
  CHECK(slurp(dir / "out/summary.md").find("- s27 (" + (dir / "subs/s27.yaml").string() + "): fits-variant-of:s01\n") !=
        std::string::npos);
}
