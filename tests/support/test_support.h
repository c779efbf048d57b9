// support/test_support.h: the helpers the tests share, each defined once.
// Every test file includes it; a helper only one file uses stays in that file.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

#include "base/files.h"
#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/self_test.h"
#include "attnmark/lesson/variant.h"
#include "readers/csv.h"
#include "readers/rubric_loader.h"

// ---- Scratch folders and the attnmark binary ----

// A scratch folder of this process's own: CTest runs test cases in parallel.
inline std::filesystem::path scratch() {
  // Fresh for this process: process ids come round again, and a folder an
  // earlier test process of the same id left (an --out holding a gradebook,
  // say) would change what a test sees.
  static const std::filesystem::path dir = [] {
    const std::filesystem::path d = std::filesystem::temp_directory_path() / ("attnmark-test-" + std::to_string(getpid()));
    std::filesystem::remove_all(d);
    // The tests' classes, codes and keys are this user's alone, as a
    // teacher's are (serve warns of a database folder others can reach).
    std::filesystem::create_directories(d);
    std::filesystem::permissions(d, std::filesystem::perms::owner_all);
    return d;
  }();
  std::filesystem::create_directories(dir);
  return dir;
}

// What a run of the attnmark binary did.
struct Run {
  int status;
  std::string out;
  std::string err;
};

// Runs the attnmark binary from the repository root with shell-quoted
// arguments: the one built beside the tests, or $ATTNMARK_TEST_BINARY
// (scripts/test --stage tsan runs the tests tagged [threads] against a
// ThreadSanitizer build this way).
inline Run run_cli(const std::string& args) {
  const std::filesystem::path dir = scratch();
  const std::string out = (dir / "stdout").string(), err = (dir / "stderr").string();
  const char* other = std::getenv("ATTNMARK_TEST_BINARY");
  const std::string binary = other && *other ? other : ATTNMARK_BINARY;
  const std::string command = std::string("cd '") + ATTNMARK_SOURCE_DIR + "' && '" + binary + "' " + args +
                              " >'" + out + "' 2>'" + err + "' </dev/null";
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, attnmark::read_file(out, 1 << 26), attnmark::read_file(err, 1 << 24)};
}

// Every path under `dir` (relative), with its size, as a sorted listing.
inline std::vector<std::string> listing(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const auto& p = it->path();
    std::string entry = fs::relative(p, dir).string();
    if (it->is_symlink(ec)) entry += " -> symlink";
    else if (it->is_regular_file(ec)) entry += " " + std::to_string(fs::file_size(p, ec));
    out.push_back(entry);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ---- Expected outputs ----

// Compares generated output with tests/golden/NAME; ATTNMARK_UPDATE_GOLDEN=1
// rewrites the file instead (read the diff before committing it).
inline void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(ATTNMARK_SOURCE_DIR) + "/tests/golden/" + name;
  if (std::getenv("ATTNMARK_UPDATE_GOLDEN")) {
    attnmark::write_file(path, actual);
    WARN("updated " << path);
    return;
  }
  INFO("golden file " << path << " (ATTNMARK_UPDATE_GOLDEN=1 rewrites it)");
  CHECK(attnmark::read_file(path, 1 << 24) == actual);
}

// Every file of a report folder against tests/golden/<name>/, each as
// `steady` makes it (to replace what differs from run to run by design), and
// the list of its files against tests/golden/<name>.files.
inline void check_folder_golden(const std::string& name, const std::filesystem::path& dir,
                                const std::function<std::string(std::string)>& steady = nullptr) {
  std::string files;
  for (const std::string& entry : listing(dir)) {
    const std::string path = entry.substr(0, entry.rfind(' '));
    if (!std::filesystem::is_regular_file(dir / path)) continue;
    files += path + "\n";
    std::string text = attnmark::read_file((dir / path).string(), 1 << 24);
    check_golden(name + "/" + path, steady ? steady(std::move(text)) : text);
  }
  check_golden(name + ".files", files);
}

// How many times `what` occurs in `text`, not overlapping.
inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// ---- CSV ----

// The records of a CSV text (RFC 4180: quoted fields, "" escapes, CRLF or
// LF), read independently of attnmark's own CsvReader so that tests of what
// attnmark writes do not trust attnmark to read it back.
inline std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      row.push_back(field), field.clear(), any = true;
    } else if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      row.push_back(field), field.clear();
      rows.push_back(row), row.clear();
      any = false;
    } else {
      field += c, any = true;
    }
  }
  if (any || !field.empty()) row.push_back(field), rows.push_back(row);
  return rows;
}

// The fields of one CSV record.
using Fields = std::vector<std::string>;

// All records of text, as (line, fields), read by attnmark's CsvReader.
inline std::vector<attnmark::CsvRecord> read_all(std::string_view text) {
  attnmark::CsvReader reader(text, "answers.csv");
  std::vector<attnmark::CsvRecord> records;
  attnmark::CsvRecord record;
  while (reader.next(record)) records.push_back(record);
  return records;
}

// ---- Rubrics, answers and marking ----

// A rubric of rubrics/ by name ("lesson" is rubrics/lesson.yaml).
inline attnmark::Rubric shipped(const std::string& name) {
  return attnmark::load_rubric_file(std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/" + name + ".yaml");
}

// The numbers of a row as a student writes them: exactly, or to `decimals`
// places; "masked" for a masked score.
inline std::vector<std::string> texts(const attnmark::Vector& v, int decimals = -1) {
  std::vector<std::string> out;
  for (double x : v)
    out.push_back(x == attnmark::masked_score ? "masked"
                  : decimals < 0             ? attnmark::format_exact(x)
                                             : attnmark::format_fixed(x, decimals));
  return out;
}

// Writes a part's numbers into a submission, rounded as the rubric asks.
inline void put(attnmark::Submission& s, const attnmark::QuestionVariant& q, attnmark::Part p,
                const attnmark::Matrix& m) {
  attnmark::PartAnswer& a = s.answers[q.spec->id][attnmark::part_name(p)];
  a.rows.clear();
  for (const attnmark::Vector& row : m) a.rows.push_back(texts(row, q.spec->decimals(p)));
}

inline void put_words(attnmark::Submission& s, const attnmark::QuestionVariant& q,
                      const std::vector<std::size_t>& tokens) {
  attnmark::PartAnswer& a = s.answers[q.spec->id]["most_attended"];
  a.rows = {{}};
  for (std::size_t t : tokens) a.rows[0].push_back(q.tokens[t]);
}

inline const attnmark::PartResult& part_of(const attnmark::Marked& m, std::size_t question, attnmark::Part p) {
  for (const attnmark::PartResult& r : m.questions.at(question).parts)
    if (r.part == p) return r;
  throw std::runtime_error("part not marked");
}

// The whole key, rounded as asked: what a careful student writes (lesson/self_test.h).
inline attnmark::Submission from_key(const attnmark::Variant& v) { return attnmark::key_answers(v); }

// The cells a reader read for q.part, or a single "<missing>" row when there
// is no such part (answer files and notebooks alike).
inline std::vector<std::vector<std::string>> cells(const attnmark::Submission& s, const std::string& q,
                                                   const std::string& part) {
  const auto question = s.answers.find(q);
  if (question == s.answers.end()) return {{"<missing>"}};
  const auto found = question->second.find(part);
  if (found == question->second.end()) return {{"<missing>"}};
  return found->second.rows;
}

inline std::vector<std::string> all_diagnoses(const attnmark::Marked& m) {
  std::vector<std::string> out;
  for (const attnmark::QuestionResult& q : m.questions)
    for (const attnmark::PartResult& p : q.parts)
      for (const std::string& d : p.diagnoses) out.push_back(d);
  return out;
}

// A few submissions to the lesson, marked by the grader, as write_reports sees them.
inline std::vector<attnmark::GradedSubmission> lesson_class(const attnmark::Rubric& rubric) {
  using namespace attnmark;
  std::vector<GradedSubmission> rows;
  const auto add = [&](const std::string& student, const std::string& stem,
                       std::map<std::string, std::map<std::string, PartAnswer>> answers) {
    const Variant v = make_variant(rubric, 2026, student);
    Submission s;
    s.student = student;
    s.source = "answers/" + stem + ".yaml";
    s.answers = std::move(answers);
    GradedSubmission g;
    g.source = s.source;
    g.student = student;
    g.variant = v.id_text();
    g.status = SubmissionStatus::graded;
    g.marked = grade(v, s);
    g.file_stem = stem;
    rows.push_back(g);
  };
  add("ada", "ada", {{"q1", {{"scores", {{{"2", "0", "1"}}}}, {"weights", {{{"0.665", "0.090", "0.245"}}}},
                             {"output", {{{"7.88", "2.12"}}}}}}});
  add("<script>alert(1)</script>", "_script_alert_1___script_",
      {{"q1", {{"scores", {{{"2", "0", "1"}}}}, {"weights", {{{"1.000", "0.000", "0.000"}}}}, {"output", {{{"<b>10</b>", "0"}}}}}}});
  GradedSubmission broken;
  broken.source = "answers/broken.yaml";
  broken.status = SubmissionStatus::unreadable;
  broken.reason = "answers/broken.yaml:3:1: could not read <this>";
  broken.file_stem = "broken.yaml";
  rows.push_back(broken);
  return rows;
}

// A lesson answer file for s001 with the given q1 lines filled in.
inline std::string lesson_answers(const std::string& scores, const std::string& weights, const std::string& output) {
  const Run t = run_cli("template rubrics/lesson.yaml --student s001");
  std::string text = t.out;
  auto fill = [&](const std::string& blank, const std::string& with) {
    const std::size_t at = text.find(blank);
    REQUIRE(at != std::string::npos);
    text.replace(at, blank.size(), with);
  };
  fill("scores: [~, ~, ~]", "scores: " + scores);
  fill("weights: [~, ~, ~]", "weights: " + weights);
  fill("output: [~, ~]", "output: " + output);
  return text;
}
