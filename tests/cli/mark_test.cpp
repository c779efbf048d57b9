// attnmark mark (cli/mark.cpp), run as a teacher runs it on one answer file:
// what it says, the gradebook, and no overwriting without --force. A whole
// class: marking/mark_class_test.cpp; large ones: marking/scale_test.cpp.
#include "support/test_support.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "base/files.h"

TEST_CASE("mark refuses to overwrite an earlier run without --force") {
  const auto dir = scratch() / "mark-out";
  std::filesystem::remove_all(dir);
  const auto in = scratch() / "mark-in";
  std::filesystem::remove_all(in);
  attnmark::write_file((in / "s001.yaml").string(), lesson_answers("[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.88, 2.12]"));
  const Run first = run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + dir.string() + "'");
  CHECK(first.status == 0);
  CHECK(first.err == "attnmark: marked 1 submission (1 graded); reports in " + dir.string() +
                         "/: gradebook.csv, summary.md, summary.html, feedback/\n");
  CHECK(attnmark::read_file((dir / "gradebook.csv").string(), 1 << 20) ==
        "student,name,variant,status,score,max_score,q1,q2,q3,source,reason,flags\r\n"
        "s001,,a9fc1491e1b448ef,graded,5,16,5,0,0," + (in / "s001.yaml").string() + ",,\r\n");
  const Run again = run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + dir.string() + "'");
  CHECK(again.status == 2);
  CHECK(again.err == "attnmark: " + dir.string() +
                         ": already holds 'gradebook.csv' from an earlier run; pass --force to replace it, or choose another --out\n");
  CHECK(run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + dir.string() + "' --force").status == 0);
}

TEST_CASE("mark quotes a 900,000-character cell at most 60 bytes in every feedback format") {
  const auto in = scratch() / "long-cell-in";
  const auto dir = scratch() / "long-cell-out";
  std::filesystem::remove_all(in);
  std::filesystem::remove_all(dir);
  const std::string long_cell(900000, '9');
  attnmark::write_file((in / "s001.yaml").string(),
                       lesson_answers("[2, 0, 1]", "[" + long_cell + ", 0.090, 0.245]", "[7.88, 2.12]"));
  const Run r = run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + dir.string() + "'");
  CHECK(r.status == 0);
  const std::string quote = std::string(57, '9') + "\u2026";
  for (const char* ext : {".json", ".md", ".html"}) {
    CAPTURE(ext);
    const std::string text = attnmark::read_file((dir / "feedback" / (std::string("s001") + ext)).string(), 1 << 24);
    CHECK(text.size() < 40000);
    CHECK(text.find(std::string(58, '9')) == std::string::npos);
    CHECK(text.find(quote) != std::string::npos);
    CHECK(text.find("answer is too long (900000 characters)") != std::string::npos);
  }
  const auto json = nlohmann::json::parse(attnmark::read_file((dir / "feedback/s001.json").string(), 1 << 24));
  const auto& cell = json["questions"][0]["parts"]["weights"]["cells"][0];
  CHECK(cell["given"] == quote);
  CHECK(cell["verdict"] == "unreadable");
  // One feedback.jsonl line the same.
  const auto lines = scratch() / "long-cell-jsonl";
  std::filesystem::remove_all(lines);
  CHECK(run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + lines.string() + "' --feedback jsonl").status == 0);
  const std::string jsonl = attnmark::read_file((lines / "feedback.jsonl").string(), 1 << 24);
  CHECK(jsonl.find(std::string(58, '9')) == std::string::npos);
  CHECK(jsonl.find(quote) != std::string::npos);
}

TEST_CASE("mark stops at an input path that is not there, exit 2, before anything is written") {
  const auto dir = scratch() / "mark-typo";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto out = dir / "marked";
  const std::string form = (dir / "form.csv").string();
  attnmark::write_file(form, "Student,q1.weights.1\ns001,0.5\n");
  // form.cvs for form.csv, as a teacher types it.
  const Run r = run_cli("mark rubrics/lesson.yaml '" + form + "' '" + (dir / "form.cvs").string() + "' --out '" +
                        out.string() + "'");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + (dir / "form.cvs").string() + ": no such file or folder\n");
  CHECK(r.out.empty());
  CHECK_FALSE(std::filesystem::exists(out));
  CHECK(listing(dir) == std::vector<std::string>{"form.csv 30"});
}

TEST_CASE("mark: a renamed resubmission counts by its time, and the summary says which and why") {
  const auto in = scratch() / "mark-resubmit";
  const auto out = scratch() / "mark-resubmit-out";
  std::filesystem::remove_all(in);
  std::filesystem::remove_all(out);
  const std::string answers = lesson_answers("[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.88, 2.12]");
  auto with_time = [&](const std::string& submitted) {
    std::string text = answers;
    const std::size_t at = text.find("\nanswers:");
    REQUIRE(at != std::string::npos);
    return text.insert(at, "\nsubmitted: " + submitted);
  };
  // The resubmission is all right; the first try got q1's weights wrong. '-' sorts first.
  attnmark::write_file((in / "s001-resubmit.yaml").string(), with_time("2026-12-01T10:02Z"));
  std::string first = with_time("2026-12-01T09:00Z");
  first.replace(first.find("[0.665, 0.090, 0.245]"), 21, "[0.5, 0.25, 0.25]");
  attnmark::write_file((in / "s001.yaml").string(), first);
  const Run r = run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + out.string() + "'");
  CHECK(r.status == 0);
  CHECK(r.err == "attnmark: marked 2 submissions (1 duplicate, 1 graded); reports in " + out.string() +
                     "/: gradebook.csv, summary.md, summary.html, feedback/\n");
  CHECK(attnmark::read_file((out / "gradebook.csv").string(), 1 << 20) ==
        "student,name,variant,status,score,max_score,q1,q2,q3,source,reason,flags\r\n"
        "s001,,a9fc1491e1b448ef,graded,5,16,5,0,0," + (in / "s001-resubmit.yaml").string() + ",,\r\n");
  const std::string summary = attnmark::read_file((out / "summary.md").string(), 1 << 20);
  CHECK(summary.find("| " + (in / "s001.yaml").string() + " | s001 | duplicate | superseded by " +
                     (in / "s001-resubmit.yaml").string() +
                     " (submitted 2026-12-01T10:02Z, later than this file's 2026-12-01T09:00Z) |") != std::string::npos);
}
