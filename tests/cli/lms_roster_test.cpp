// generate and mark with an LMS's roster exactly as it is downloaded: a raw
// Canvas gradebook export (readers/roster.h reads it).
#include "support/test_support.h"

namespace fs = std::filesystem;
using attnmark::read_file;
using attnmark::write_file;

namespace {

// Canvas's gradebook export of a course with one assignment posted by hand,
// its totals read-only, and the course's Test Student.
const std::string canvas_export =
    "Student,ID,SIS User ID,SIS Login ID,Section,Attention worksheet (123456),Current Score,Unposted Current Score,"
    "Final Score,Unposted Final Score\n"
    ",,,,,Manual Posting,,,,\n"
    "    Points Possible,,,,,16.00,(read only),(read only),(read only),(read only)\n"
    "\"Lovelace, Ada\",1001,s001,ada,ML 101,,0.00,0.00,0.00,0.00\n"
    "\"Turing, Alan\",1002,s002,alan,ML 101,,0.00,0.00,0.00,0.00\n"
    "\"Student, Test\",1099,,,ML 101,,,,,\n";

const std::string left_out_note =
    ": left out 1 row that is not a student: 'Student, Test' (line 6: no SIS id, as Canvas's Test Student; "
    "--id-column ID takes Canvas's ids)\n";

}  // namespace

TEST_CASE("generate and mark take a raw Canvas gradebook export as the roster, the Test Student left out and said") {
  const fs::path dir = scratch() / "canvas-roster";
  fs::remove_all(dir);
  fs::create_directories(dir / "subs");
  const std::string roster = (dir / "canvas.csv").string();
  write_file(roster, canvas_export);

  const Run g = run_cli("generate rubrics/lesson.yaml --seed 5 --roster '" + roster + "' -o '" + (dir / "class").string() + "'");
  CHECK(g.status == 0);
  CHECK(g.err.starts_with("attnmark: " + roster + left_out_note));
  CHECK(fs::exists(dir / "class" / "s001.md"));
  CHECK(fs::exists(dir / "class" / "s002.md"));
  CHECK(listing(dir / "class").size() == 4);  // each a sheet and an answer file, the Test Student none

  const Run t = run_cli("template rubrics/lesson.yaml --seed 5 --student s001");
  REQUIRE(t.status == 0);
  write_file((dir / "subs" / "s001.yaml").string(), t.out);
  const Run m = run_cli("mark rubrics/lesson.yaml --seed 5 '" + (dir / "subs").string() + "' --roster '" + roster +
                        "' --out '" + (dir / "out").string() + "'");
  CHECK(m.status == 1);  // s002 handed nothing in
  CHECK(m.err.starts_with("attnmark: " + roster + left_out_note));
  const std::string gradebook = read_file((dir / "out" / "gradebook.csv").string(), 1 << 20);
  CHECK(gradebook.find("\ns001,\"Lovelace, Ada\",") != std::string::npos);
  CHECK(gradebook.find("\ns002,\"Turing, Alan\",") != std::string::npos);
  CHECK(gradebook.find("Test") == std::string::npos);
}
