// Golden files pin every byte that marking writes: the demo class's report
// folder (gradebook, summaries, each feedback file, the LMS exports) marked
// from its folder and from its sheet, and `check`'s terminal table. The
// served class's pages and `mark --db`'s folder are pinned in
// serve/served_golden_test.cpp. The feedback JSON is an interface (the
// notebook's self-check and /api/check read it), so its bytes are pinned
// like the worksheets'.
// To accept a deliberate change: ATTNMARK_UPDATE_GOLDEN=1 ctest -R golden,
// then read the diff of tests/golden/ before committing it.
#include "support/test_support.h"

namespace fs = std::filesystem;

TEST_CASE("the demo class marked from its folder matches the golden files, LMS exports included", "[golden]") {
  const fs::path out = scratch() / "golden-class-folder";
  fs::remove_all(out);
  const Run r = run_cli("mark rubrics/class-demo.yaml fixtures/class/answers --export canvas,moodle --out '" +
                        out.string() + "'");
  CHECK(r.status == 1);  // the demo class has uploads that cannot be marked, on purpose
  check_folder_golden("class-demo-folder", out);
  check_golden("class-demo-folder.stdout", r.out);
}

TEST_CASE("the demo class marked from its sheet, with a roster, matches the golden files", "[golden]") {
  const fs::path dir = scratch() / "golden-class-sheet";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // The sheet's students and two who handed nothing in.
  const std::string roster = (dir / "roster.csv").string();
  std::string csv = "student,name\n";
  const auto rows = parse_csv(attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/fixtures/class/sheet.csv", 1 << 20));
  const std::size_t id = std::find(rows.at(0).begin(), rows.at(0).end(), "Student") - rows.at(0).begin();
  for (std::size_t i = 1; i < rows.size(); ++i)
    if (id < rows[i].size() && !rows[i][id].empty() && csv.find("\n" + rows[i][id] + ",") == std::string::npos)
      csv += rows[i][id] + ",\n";
  csv += "zz-missing-1,Absent One\nzz-missing-2,Absent Two\n";
  attnmark::write_file(roster, csv);
  const fs::path out = dir / "out";
  const Run r = run_cli("mark rubrics/class-demo.yaml fixtures/class/sheet.csv --roster '" + roster +
                        "' --export canvas,moodle --out '" + out.string() + "'");
  CHECK(r.status == 1);
  check_golden("class-demo-sheet.roster.csv", csv);
  check_folder_golden("class-demo-sheet", out);
}

TEST_CASE("check's table for the demo class's students matches the golden files", "[golden]") {
  for (const char* file : {"s01.yaml", "s04.yaml", "s06.yaml", "s12.yaml", "s16.yaml", "s20.yaml", "s21.yaml"}) {
    const Run r = run_cli(std::string("check rubrics/class-demo.yaml fixtures/class/answers/") + file);
    INFO(file << ": " << r.err);
    check_golden(std::string("check/class-demo-") + file + ".txt", r.out);
    check_golden(std::string("check/class-demo-") + file + ".status", std::to_string(r.status) + "\n");
  }
}
