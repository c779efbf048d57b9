// attnmark mark --export (cli/mark.cpp, marking/report_set.h): marking again
// into the same --out with --force replaces the LMS exports an earlier run
// wrote, as it does the rest of its reports. What the exports hold is
// checked against the importers in writers/lms_import_model_test.cpp.
#include "support/test_support.h"

#include <filesystem>
#include <string>

#include "base/files.h"

namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) { return attnmark::read_file(p.string(), 1 << 24); }
}  // namespace

TEST_CASE("mark --export canvas,moodle then again with --force into the same --out replaces the exports") {
  const fs::path dir = scratch() / "mark-exports-force";
  fs::remove_all(dir);
  const std::string right = lesson_answers("[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.88, 2.12]");
  attnmark::write_file((dir / "subs/s001.yaml").string(), right);
  attnmark::write_file((dir / "roster.csv").string(), "student,name,email\ns001,Ada Lovelace,ada@x.org\n");
  const std::string out = (dir / "out").string();
  const std::string mark = "mark rubrics/lesson.yaml '" + (dir / "subs").string() + "' --roster '" +
                           (dir / "roster.csv").string() + "' --export canvas,moodle --out '" + out + "'";
  const Run first = run_cli(mark);
  REQUIRE(first.status == 0);
  CHECK(slurp(dir / "out/canvas.csv").find("Ada Lovelace,,s001,,,5\r\n") != std::string::npos);

  // Without --force: the earlier run's reports are named, the exports among them.
  const Run again = run_cli(mark);
  CHECK(again.status == 2);
  CHECK(again.err == "attnmark: " + out +
                         ": already holds 'gradebook.csv' from an earlier run; pass --force to replace it, or choose "
                         "another --out\n");

  // The student's answers change: --force replaces both exports with the new score.
  attnmark::write_file((dir / "subs/s001.yaml").string(),
                       lesson_answers("[2, 0, 1]", "[0.665, 0.090, 0.245]", "[0, 0]"));
  const Run forced = run_cli(mark + " --force");
  CHECK(forced.err.find("holds files that are not attnmark's reports") == std::string::npos);
  REQUIRE(forced.status == 0);
  const std::string canvas = slurp(dir / "out/canvas.csv");
  const std::string moodle = slurp(dir / "out/moodle.csv");
  CHECK(canvas.find("Ada Lovelace,,s001,,,5\r\n") == std::string::npos);
  CHECK(canvas.find("Ada Lovelace,,s001,,,") != std::string::npos);
  CHECK(moodle.find("ada@x.org,Ada Lovelace,") != std::string::npos);
  CHECK(moodle.find("ada@x.org,Ada Lovelace,5,") == std::string::npos);

  // A run without --export replaces the folder whole: no stale export is left to import.
  CHECK(run_cli("mark rubrics/lesson.yaml '" + (dir / "subs").string() + "' --out '" + out + "' --force").status == 0);
  CHECK_FALSE(fs::exists(dir / "out/canvas.csv"));
  CHECK_FALSE(fs::exists(dir / "out/moodle.csv"));

  // Only moodle.csv in --out (a folder an earlier run left with --export moodle alone) is attnmark's too.
  fs::remove_all(dir / "out");
  fs::create_directories(dir / "out");
  attnmark::write_file((dir / "out/moodle.csv").string(), "Email address\r\n");
  CHECK(run_cli(mark).status == 2);
  CHECK(run_cli(mark + " --force").status == 0);
}
