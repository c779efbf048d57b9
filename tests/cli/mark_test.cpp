// attnmark mark (cli/mark.cpp), run as a teacher runs it on one answer file:
// what it says, the gradebook, and no overwriting without --force. A whole
// class: marking/mark_class_test.cpp; large ones: marking/scale_test.cpp.
#include "support/test_support.h"

#include <filesystem>
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
        "s001,,2a1549ca301b20b2,graded,5,16,5,0,0," + (in / "s001.yaml").string() + ",,\r\n");
  const Run again = run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + dir.string() + "'");
  CHECK(again.status == 2);
  CHECK(again.err == "attnmark: " + dir.string() +
                         ": already holds 'gradebook.csv' from an earlier run; pass --force to replace it, or choose another --out\n");
  CHECK(run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + dir.string() + "' --force").status == 0);
}
