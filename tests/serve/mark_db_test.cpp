// mark --db writes its report folder with mark's own writer
// (marking/report_set.h): the same missing row, feedback names and rule for
// the folder it replaces.
#include "support/serve_support.h"

namespace fs = std::filesystem;

TEST_CASE("mark --db: a missing student's row, and the folder it may replace, are mark's", "[serve]") {
  const fs::path dir = scratch() / "mark-db";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "class.sqlite").string();
  {
    ServeProcess server("rubrics/lesson.yaml --seed 987654321 --roster '" + write_roster(dir, 2) + "' --db '" + db + "'", dir);
    REQUIRE(server.running());
  }
  // An empty folder takes the reports, as it does for mark.
  const fs::path empty = dir / "empty";
  fs::create_directories(empty);
  Run r = run_cli("mark --db '" + db + "' --out '" + empty.string() + "'");
  CHECK(r.status == 1);  // nobody has an attempt
  CHECK(r.err == "attnmark: 0 attempts of 2 students; 0 with an attempt (best of each); reports in " + empty.string() +
                     ": gradebook.csv, summary.md, summary.html, feedback/\n");
  const auto rows = parse_csv(attnmark::read_file((empty / "gradebook.csv").string(), 1 << 20));
  REQUIRE(rows.size() == 3);
  CHECK(rows[1] == Fields{"s001", "Student 1", "", "missing", "", "16", "", "", "", "", "no submission", ""});
  // An earlier run's reports are replaced only with --force.
  r = run_cli("mark --db '" + db + "' --out '" + empty.string() + "'");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + empty.string() +
                     ": already holds 'gradebook.csv' from an earlier run; pass --force to replace it, or choose another --out\n");
  CHECK(run_cli("mark --db '" + db + "' --out '" + empty.string() + "' --force").status == 1);
  // A folder holding other files is never replaced.
  const fs::path other = dir / "other";
  fs::create_directories(other);
  attnmark::write_file((other / "notes.txt").string(), "mine");
  r = run_cli("mark --db '" + db + "' --out '" + other.string() + "' --force");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + other.string() +
                     ": holds files that are not attnmark's reports ('notes.txt'); the reports are replaced as a folder, "
                     "so choose a new or empty --out\n");
  CHECK(attnmark::read_file((other / "notes.txt").string(), 100) == "mine");
}
