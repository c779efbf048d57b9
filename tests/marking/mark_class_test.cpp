// The demo class (fixtures/class/, see its README.md), marked end to end as a
// teacher runs it: `attnmark mark rubrics/class-demo.yaml` on the folder of
// uploads and on the form's CSV export. The expectations are what a fair
// human marker gives each student, worked out by hand from their variant.
// Then a run of mark_class (marking/mark_class.h) killed part way: its
// reports appear whole or not at all.
#include "support/test_support.h"

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
  std::string student, status, score, source;
};

std::vector<Row> gradebook(const fs::path& out) {
  const auto records = parse_csv(slurp(out / "gradebook.csv"));
  REQUIRE(!records.empty());
  REQUIRE(records[0] == std::vector<std::string>{"student", "variant", "status", "score", "max_score", "q1", "q2",
                                                 "source", "reason"});
  std::vector<Row> rows;
  for (std::size_t i = 1; i < records.size(); ++i) {
    REQUIRE(records[i].size() == 9);
    rows.push_back({records[i][0], records[i][2], records[i][3], records[i][7]});
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
    {"s04", "graded", "13.67"},  // q1 no-exp, weights as fractions 1/3, 2/3; output follows
    {"s05", "graded", "7"},      // half done
    {"s06", "graded", "13.67"},  // q1 hard-attention
    {"s07", "graded", "15"},     // right, in every spelling: −1, 66.5%, .245, 7,12, blank masked score
    {"s08", "graded", "13.67"},  // q1 no-normalise
    {"s09", "graded", "13.67"},  // q1 wrong-exp-base (base 10; JSON)
    {"s10", "graded", "13.67"},  // q1 missing-scale
    {"s11", "graded", "13.67"},  // q1 extra-scale
    {"s12", "graded", "14.33"},  // q1 mask-ignored
    {"s13", "graded", "13"},     // q1 mixed-keys
    {"s14", "graded", "13.67"},  // q1 rounded-early (e^score to 1 decimal)
    {"s15", "graded", "13.67"},  // q1 weights-not-normalised
    {"s16", "graded", "13.67"},  // q2 transposed-scores
    {"s17", "graded", "12.33"},  // q2 softmax-columns (JSON)
    {"s18", "graded", "14.56"},  // q2 wrong-query
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
                        {"s26", "duplicate", ""},           // s26-2026-03-02.yaml: replaced by the later upload
                        {"s26", "graded", "15"},            // s26-2026-03-05.yaml
                        {"s27", "wrong-variant", "6.5"},    // s01's file with the id changed
                        {"s28", "wrong-rubric", ""},        // the lesson's answer file
                        {"", "unknown-student", "15"},      // unnamed.yaml: s29's right answers, id deleted
                    });
  return e;
}

std::vector<Expected> sheet_expected() {
  std::vector<Expected> e = common;
  e.insert(e.end(), {
                        {"s26", "duplicate", ""},
                        {"s26", "graded", "15"},
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
    {"s06", {{"q1.weights", {2.0 / 3, false, {"hard-attention"}}}, {"q1.output", {2, true, {}}}}},
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
    {"s15", {{"q1.weights", {2.0 / 3, false, {"weights-not-normalised"}}}, {"q1.output", {2, true, {}}}}},
    {"s16",
     {{"q2.scores", {2.0 / 3, false, {"transposed-scores"}}},
      {"q2.weights", {3, true, {}}},
      {"q2.output", {3, true, {}}},
      {"q2.most_attended", {1, true, {}}}}},
    // Column softmax happens to equal row softmax in cell 1.1 of this variant.
    {"s17", {{"q2.weights", {1.0 / 3, false, {"softmax-columns"}}}, {"q2.output", {3, true, {}}}}},
    {"s18",
     {{"q2.scores", {14.0 / 9, false, {"wrong-query"}}},
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
    // s01's answers against s27's numbers: only what follows from s01's own
    // earlier answers (and the masked score, and one coincidence) earns marks.
    {"s27",
     {{"q1.scores", {2.0 / 3, false, {}}},
      {"q1.weights", {2, true, {}}},
      {"q1.output", {0, false, {}}},
      {"q2.scores", {0, false, {}}},
      {"q2.weights", {3, true, {}}},
      {"q2.output", {0.5, true, {}}},
      {"q2.most_attended", {1.0 / 3, true, {}}}}},
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
    CHECK(cell(p, "1").at("note") == "'0.05' is right to 2 decimal places; give 3");
    CHECK(cell(p, "2").at("verdict") == "imprecise");
    CHECK(cell(p, "2").at("note") == "'0.95' is right to 2 decimal places; give 3");
    CHECK(cell(p, "3").at("verdict") == "correct");
    const auto hints = p.at("hints").get<std::vector<std::string>>();
    CHECK(std::find(hints.begin(), hints.end(), "weights · late: '0.05' is right to 2 decimal places; give 3") != hints.end());
  }
  {
    INFO("s07: every spelling reads as the number meant");
    const Json fb = feedback(out, "s07");
    const Json& scores = part(fb, "q1", "scores");
    CHECK(cell(scores, "2").at("given") == "\xE2\x88\x92" "1.0");
    CHECK(cell(scores, "2").at("value").get<double>() == -1.0);
    CHECK(cell(scores, "3").at("given") == "");
    CHECK(cell(scores, "3").at("value") == "masked");
    CHECK(cell(scores, "3").at("verdict") == "correct");
    CHECK(cell(part(fb, "q1", "weights"), "1").at("given") == "88.1%");
    CHECK(cell(part(fb, "q1", "weights"), "1").at("value").get<double>() == Approx(0.881).margin(1e-12));
    CHECK(cell(part(fb, "q1", "output"), "1").at("given") == "7,12");
    CHECK(cell(part(fb, "q1", "output"), "1").at("value").get<double>() == Approx(7.12).margin(1e-12));
    const Json& weights = part(fb, "q2", "weights");
    CHECK(cell(weights, "1.2").at("given") == ".245");
    CHECK(cell(weights, "1.3").at("given") == "66.5%");
    CHECK(cell(weights, "1.3").at("value").get<double>() == Approx(0.665).margin(1e-12));
    CHECK(cell(part(fb, "q2", "most_attended"), "1").at("given") == "IS");
    CHECK(cell(part(fb, "q2", "most_attended"), "1").at("verdict") == "correct");
  }
  {
    INFO("s04: fractions");
    const Json fb = feedback(out, "s04");
    const Json& p = part(fb, "q1", "weights");
    CHECK(cell(p, "2").at("given") == "2/3");
    CHECK(cell(p, "2").at("value").get<double>() == Approx(2.0 / 3).margin(1e-12));
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
                           "mixed-keys", "rounded-early", "weights-not-normalised"}) {
    INFO(code);
    CHECK(summary.find(std::string("| `") + code + "` | 1 | ") != std::string::npos);
  }
  // The blank submission is listed with the problems, not counted as marked work.
  CHECK(summary.find(" | s22 | unanswered | no answers given |") != std::string::npos);
}

}  // namespace

TEST_CASE("the demo class's folder of uploads is marked as a fair marker would", "[threads]") {
  Run run;
  const fs::path out = mark("fixtures/class/answers", "folder", &run);
  const std::vector<Row> rows = gradebook(out);

  SECTION("gradebook: every row's student, status and score") { check_gradebook(rows, folder_expected()); }

  SECTION("every uploaded file is a row exactly once, in sorted order") {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(root / "fixtures/class/answers"))
      files.push_back("fixtures/class/answers/" + e.path().filename().string());
    std::sort(files.begin(), files.end());
    std::vector<std::string> sources;
    for (const Row& r : rows) sources.push_back(r.source);
    CHECK(sources == files);
  }

  SECTION("unreadable uploads say why") {
    const auto records = parse_csv(slurp(out / "gradebook.csv"));
    std::map<std::string, std::string> reason;
    for (const auto& r : records) reason[r[7]] = r[8];
    CHECK(reason["fixtures/class/answers/s23.yaml"].find("YAML syntax") != std::string::npos);
    CHECK(reason["fixtures/class/answers/s24.docx"] == "binary file (contains NUL bytes)");
    CHECK(reason["fixtures/class/answers/s25.yaml"] == "UTF-16 text; save the file as UTF-8");
    CHECK(reason["fixtures/class/answers/s26-2026-03-02.yaml"] ==
          "superseded by the later submission fixtures/class/answers/s26-2026-03-05.yaml");
    CHECK(reason["fixtures/class/answers/s28.yaml"] == "answers are for rubric 'lesson', not 'class-demo'");
    CHECK(reason["fixtures/class/answers/s27.yaml"].find("the file is for variant 0a3dbb1cf6ce0f62") == 0);
    CHECK(reason["fixtures/class/answers/unnamed.yaml"] ==
          "no student id; marked against the variant recorded in the file");
  }

  SECTION("feedback: parts' scores, follow-through and diagnoses") { check_parts(out, false); }

  SECTION("feedback: cells") { check_cells(out); }

  SECTION("feedback of the uploads nobody could mark") {
    // Feedback named after a student is that student's counted submission; the others have folders of their own.
    const Json unnamed = feedback(out, "no-student/unnamed.yaml");
    CHECK(unnamed.at("status") == "unknown-student");
    CHECK(unnamed.at("variant") == "98d6b5b3203b1c07");  // s29's
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
    std::vector<std::string> sources;
    for (const Row& r : rows) sources.push_back(r.source);
    CHECK(sources == lines);
  }

  SECTION("the misspelt column is reported, not dropped silently") {
    CHECK(run.err.find("column 'q1.weigths.1' is not a cell of any question; it was not marked") != std::string::npos);
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
