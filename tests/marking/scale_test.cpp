// Large classes, marked by mark_class (marking/mark_class.h) through `attnmark
// mark`: --feedback jsonl and none, and reports that do not depend on the
// number of threads (--jobs), across chunks and around the ring of chunks in
// flight.
#include "support/test_support.h"

#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "attnmark/lesson/numbers.h"
#include "readers/rubric_loader.h"
#include "attnmark/lesson/variant.h"
#include "base/files.h"

namespace fs = std::filesystem;
using namespace attnmark;

namespace {

std::string slurp(const fs::path& p) { return read_file(p.string(), std::size_t{1} << 28); }

// Every regular file under `dir`, by relative name, with its bytes.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) out[fs::relative(entry.path(), dir).string()] = slurp(entry.path());
  return out;
}

// A form export of `rows` students of rubrics/all-tokens.yaml (seed 7):
// right answers, mistakes (scores divided by their total), blank and
// unreadable cells, and every 50th row a resubmission of an earlier student.
// Returns the number of resubmissions.
int write_class_sheet(const fs::path& path, int rows) {
  const Rubric rubric = load_rubric_file(std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/all-tokens.yaml");
  std::string text = "Timestamp,Student";
  for (const char* part : {"scores", "weights"})
    for (int r = 1; r <= 3; ++r)
      for (int c = 1; c <= 3; ++c) text += fmt::format(",q1.{}.{}.{}", part, r, c);
  for (int r = 1; r <= 3; ++r)
    for (int c = 1; c <= 2; ++c) text += fmt::format(",q1.output.{}.{}", r, c);
  text += "\r\n";
  int resubmissions = 0;
  for (int i = 0; i < rows; ++i) {
    int who = i;
    if (i % 50 == 49) {
      who = i - 30;
      ++resubmissions;
    }
    const std::string student = fmt::format("s{:05}", who);
    const Variant v = make_variant(rubric, 7, student);
    const QuestionVariant& q = v.questions[0];
    // A form's Timestamp, a second a row: a resubmission is later than the row it replaces.
    text += fmt::format("2026-11-30 {:02}:{:02}:{:02},{}", i / 3600, i / 60 % 60, i % 60, student);
    for (const Vector& row : q.scores)
      for (double s : row) text += "," + format_fixed(s, 0);
    for (std::size_t r = 0; r < q.weights.size(); ++r)
      for (std::size_t c = 0; c < q.weights[r].size(); ++c) {
        double total = 0;
        for (double s : q.scores[r]) total += s;
        if (i % 7 == 3) text += "," + format_fixed(q.scores[r][c] / total, 3);  // no exp
        else if (i % 11 == 5) text += ",";                                      // blank
        else if (i % 13 == 6 && c == 1) text += ",6.6.5";                        // unreadable
        else text += "," + format_fixed(q.weights[r][c], 3);
      }
    for (const Vector& row : q.output)
      for (double o : row) text += "," + format_fixed(o, 2);
    text += "\r\n";
  }
  write_file(path.string(), text);
  return resubmissions;
}

}  // namespace

TEST_CASE("mark writes byte-identical reports with --jobs 1, 2 and 7, across chunks and around the writer's ring", "[threads]") {
  const fs::path dir = scratch() / "scale-jobs";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // 9,000 rows: 36 chunks of 256, more than the 32 that may be judged ahead
  // of the writer, so the ring of chunks wraps around; and over a megabyte,
  // so that several threads check the sheet in pieces.
  const int resubmissions = write_class_sheet(dir / "class.csv", 9000);
  std::map<std::string, std::string> first;
  for (const char* jobs : {"1", "2", "7"}) {
    const fs::path out = dir / fmt::format("jsonl-{}", jobs);
    const Run run = run_cli(fmt::format("mark rubrics/all-tokens.yaml --seed 7 '{}' --feedback jsonl --jobs {} --out '{}'",
                                        (dir / "class.csv").string(), jobs, out.string()));
    INFO(run.err);
    REQUIRE(run.status == 0);
    const std::map<std::string, std::string> files = tree(out);
    CHECK(files.size() == 4);  // gradebook.csv, summary.md, summary.html, feedback.jsonl
    if (first.empty()) first = files;
    else CHECK(files == first);
  }
  // What was marked is what the sheet holds: one line per row, the
  // resubmitted rows superseded, the mistakes named.
  const std::string& jsonl = first.at("feedback.jsonl");
  CHECK(std::count(jsonl.begin(), jsonl.end(), '\n') == 9000);
  // The gradebook: a row per student (the resubmitted rows are in the summary, not rows).
  const auto gradebook = parse_csv(first.at("gradebook.csv"));
  REQUIRE(gradebook.size() == static_cast<std::size_t>(9001 - resubmissions));
  std::map<std::string, int> statuses;
  for (std::size_t i = 1; i < gradebook.size(); ++i) ++statuses[gradebook[i][3]];
  CHECK(statuses["duplicate"] == 0);
  CHECK(statuses["graded"] == 9000 - resubmissions);
  CHECK(first.at("summary.md").find(std::to_string(resubmissions) + " duplicate") != std::string::npos);
  CHECK(first.at("summary.md").find("no-exp") != std::string::npos);

  // Feedback files too: 600 rows (three chunks), every file compared.
  write_class_sheet(dir / "small.csv", 600);
  std::map<std::string, std::string> files_first;
  for (const char* jobs : {"1", "2"}) {
    const fs::path out = dir / fmt::format("files-{}", jobs);
    const Run run = run_cli(fmt::format("mark rubrics/all-tokens.yaml --seed 7 '{}' --jobs {} --out '{}'",
                                        (dir / "small.csv").string(), jobs, out.string()));
    REQUIRE(run.status == 0);
    const std::map<std::string, std::string> files = tree(out);
    CHECK(files.size() == 3 + 3 * 600);
    if (files_first.empty()) files_first = files;
    else CHECK(files == files_first);
  }
  fs::remove_all(dir);
}

TEST_CASE("mark --feedback jsonl writes each feedback file's object as a line, and none writes no feedback", "[threads]") {
  const fs::path dir = scratch() / "scale-feedback";
  fs::remove_all(dir);
  const std::string answers = std::string(ATTNMARK_SOURCE_DIR) + "/fixtures/class/answers";
  for (const char* mode : {"files", "jsonl", "none"}) {
    const Run run = run_cli(fmt::format("mark rubrics/class-demo.yaml '{}' --feedback {} --out '{}'", answers, mode,
                                        (dir / mode).string()));
    INFO(mode << ": " << run.err);
    REQUIRE(run.status == 1);  // the class has uploads that could not be marked
  }
  // The same objects, in gradebook order; each file ends in a newline.
  std::multiset<std::string> from_files, from_lines;
  for (const auto& [name, bytes] : tree(dir / "files" / "feedback"))
    if (name.ends_with(".json")) {
      REQUIRE(bytes.ends_with("\n"));
      from_files.insert(bytes.substr(0, bytes.size() - 1));
    }
  const std::string jsonl = slurp(dir / "jsonl" / "feedback.jsonl");
  std::vector<std::string> lines;
  for (std::size_t start = 0, end; start < jsonl.size(); start = end + 1) {
    end = jsonl.find('\n', start);
    REQUIRE(end != std::string::npos);
    lines.push_back(jsonl.substr(start, end - start));
  }
  from_lines.insert(lines.begin(), lines.end());
  CHECK(from_lines == from_files);
  // Every gradebook row has its line, in order; the superseded ones are lines but not rows.
  const auto gradebook = parse_csv(slurp(dir / "jsonl" / "gradebook.csv"));
  std::vector<std::string> counted;
  for (const std::string& line : lines)
    if (line.find("\"status\":\"duplicate\"") == std::string::npos) counted.push_back(line);
  REQUIRE(gradebook.size() == counted.size() + 1);
  REQUIRE(counted.size() + 1 == lines.size());  // the demo class has one resubmission
  for (std::size_t i = 0; i < counted.size(); ++i)
    CHECK(counted[i].find(fmt::format("\"source\":\"{}\"", gradebook[i + 1][gradebook[0].size() - 3])) != std::string::npos);
  // No feedback pages, and so no links to them.
  CHECK_FALSE(fs::exists(dir / "jsonl" / "feedback"));
  CHECK(slurp(dir / "jsonl" / "summary.html").find("href=\"feedback/") == std::string::npos);
  CHECK(slurp(dir / "files" / "summary.html").find("href=\"feedback/") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "none" / "feedback"));
  CHECK_FALSE(fs::exists(dir / "none" / "feedback.jsonl"));
  CHECK(slurp(dir / "none" / "gradebook.csv") == slurp(dir / "jsonl" / "gradebook.csv"));
  fs::remove_all(dir);
}

TEST_CASE("a variant that cannot be made is its submission's unreadable row, never the end of the class, on any thread", "[threads]") {
  const fs::path dir = scratch() / "scale-impossible";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Scores of at least 2 can never be within max_abs_score 1.
  write_file((dir / "impossible.yaml").string(),
             "name: impossible\nquestions:\n  - id: q1\n    task: one-token\n    tokens: [a, b, c]\n"
             "    query_token: 1\n    d_k: 2\n    d_v: 2\n    inputs:\n      query: {min: 1, max: 2, step: 1}\n"
             "      keys: {min: 1, max: 2, step: 1}\n      values: {min: 0, max: 10, step: 1}\n    ask: [scores]\n"
             "    marking:\n      scores: {marks: 1}\n    constraints:\n      max_abs_score: 1\n      max_draws: 10\n");
  std::string sheet = "student,q1.scores.1,q1.scores.2,q1.scores.3\n";
  for (int i = 0; i < 600; ++i) sheet += fmt::format("s{},1,2,3\n", i);
  write_file((dir / "class.csv").string(), sheet);
  std::string first_gradebook;  // the same whatever the number of threads
  for (const char* mode : {"files", "jsonl"})
    for (const char* jobs : {"1", "2", "7"}) {
      const fs::path out = dir / fmt::format("out-{}-{}", mode, jobs);
      const Run run = run_cli(fmt::format("mark '{}' --seed 3 '{}' --feedback {} --jobs {} --out '{}'",
                                          (dir / "impossible.yaml").string(), (dir / "class.csv").string(), mode, jobs,
                                          out.string()));
      INFO(mode << " --jobs " << jobs << ": " << run.err);
      CHECK(run.status == 1);
      CHECK(run.err == fmt::format("attnmark: marked 600 submissions (600 unreadable); reports in {}/: gradebook.csv, "
                                   "summary.md, summary.html{}\n"
                                   "attnmark: not complete: 600 submissions could not be marked; see summary.md (exit status 1)\n",
                                   out.string(), mode == std::string("files") ? ", feedback/" : ", feedback.jsonl"));
      const std::string gradebook = slurp(out / "gradebook.csv");
      const auto rows = parse_csv(gradebook);
      REQUIRE(rows.size() == 601);
      CHECK(rows[1][3] == "unreadable");
      CHECK(rows[1][rows[1].size() - 2].starts_with("cannot make the variant this file is for: q1: no fair variant in 10 draws (variant "));
      CHECK(rows[1][rows[1].size() - 2].ends_with("; widen the grids or relax the constraints"));
      if (first_gradebook.empty()) first_gradebook = gradebook;
      CHECK(gradebook == first_gradebook);
    }
  fs::remove_all(dir);
}
