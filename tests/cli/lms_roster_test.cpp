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

namespace {

// A sheet's cell columns and one student's right answers in them, from the
// key of the worksheet generate made for `student`.
const attnmark::Rubric& lesson() {
  static const attnmark::Rubric rubric = shipped("lesson");
  return rubric;
}

std::string variant_of(const std::string& student) { return attnmark::make_variant(lesson(), 5, student).id_text(); }

std::pair<std::string, std::string> key_cells(const std::string& student) {
  const attnmark::Variant v = attnmark::make_variant(lesson(), 5, student);
  const attnmark::Submission key = from_key(v);
  std::string header, row;
  for (const auto& [question, parts] : key.answers)
    for (const auto& [part, answer] : parts)
      for (std::size_t r = 0; r < answer.rows.size(); ++r)
        for (std::size_t c = 0; c < answer.rows[r].size(); ++c) {
          header += "," + question + "." + part + "." +
                    (answer.rows.size() == 1 ? "" : std::to_string(r + 1) + ".") + std::to_string(c + 1);
          row += "," + answer.rows[r][c];
        }
  return {header, row};
}

// Moodle's participants export: the worksheets are made from the ID number.
const std::string moodle_participants =
    "First name,Last name,ID number,Email address,Roles,Groups,Last access to course\n"
    "Ada,Lovelace,20260001,ada@x.org,Student,,Now\n"
    "Alan,Turing,20260002,Alan@X.org,Student,,Now\n"
    "Grace,Hopper,20260003,grace@x.org,Student,,Now\n";

}  // namespace

TEST_CASE("a form that asks for the email is marked against the worksheet made from the roster's ID number") {
  const fs::path dir = scratch() / "email-form";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string roster = (dir / "participants.csv").string();
  write_file(roster, moodle_participants);
  const Run g = run_cli("generate rubrics/lesson.yaml --seed 5 --roster '" + roster + "' -o '" + (dir / "class").string() + "'");
  REQUIRE(g.status == 0);
  REQUIRE(fs::exists(dir / "class" / "20260001.md"));

  // Google Forms: the email Google collects, no id question. Alan's address
  // in another case, as people type it.
  const std::string cells = key_cells("20260001").first;
  std::string form = "Timestamp,Email address" + cells + "\n";
  form += "2026/12/01 10:00:00 AM GMT,ada@x.org" + key_cells("20260001").second + "\n";
  form += "2026/12/01 10:01:00 AM GMT,ALAN@x.org" + key_cells("20260002").second + "\n";
  form += "2026/12/01 10:02:00 AM GMT,eve@y.org" + key_cells("eve@y.org").second + "\n";
  write_file((dir / "form.csv").string(), form);
  for (const std::string id_column : {"", " --id-column 'Email address'"}) {
    const fs::path out = dir / (id_column.empty() ? "out" : "out-chosen");
    const Run m = run_cli("mark rubrics/lesson.yaml --seed 5 '" + (dir / "form.csv").string() + "' --roster '" + roster +
                          "'" + id_column + " --out '" + out.string() + "'");
    CHECK(m.status == 1);  // Grace handed nothing in; eve is not on the roster
    auto rows = parse_csv(read_file((out / "gradebook.csv").string(), 1 << 20));
    for (auto& r : rows) r.resize(5);
    using Rows = std::vector<std::vector<std::string>>;
    CHECK(rows == Rows{{"student", "name", "variant", "status", "score"},
                       {"20260001", "Ada Lovelace", variant_of("20260001"),
                        "graded", "16"},
                       {"20260002", "Alan Turing", variant_of("20260002"),
                        "graded", "16"},
                       {"20260003", "Grace Hopper", "", "missing", ""},
                       // A right answer to a variant nobody was given is no mark.
                       {"eve@y.org", "", variant_of("eve@y.org"),
                        "not-on-roster", ""}});
  }
}

TEST_CASE("a form row with a blank Student ID is the student whose roster email it gives, and says so") {
  const fs::path dir = scratch() / "blank-id-form";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string roster = (dir / "participants.csv").string();
  write_file(roster, moodle_participants);
  // Microsoft Forms: ID is the response's number; Student ID a question.
  const std::string cells = key_cells("20260001").first;
  std::string form = "ID,Start time,Completion time,Email,Name,Student ID" + cells + "\n";
  form += "1,12/1/26 10:00:00,12/1/26 10:04:00,ada@x.org,Ada Lovelace," + key_cells("20260001").second + "\n";
  form += "2,12/1/26 10:00:00,12/1/26 10:05:00,alan@x.org,Alan Turing,2026002" + key_cells("20260002").second + "\n";
  form += "3,12/1/26 10:00:00,12/1/26 10:06:00,grace@x.org,Grace Hopper,20260003" + key_cells("20260003").second + "\n";
  write_file((dir / "form.csv").string(), form);
  const Run m = run_cli("mark rubrics/lesson.yaml --seed 5 '" + (dir / "form.csv").string() + "' --roster '" + roster +
                        "' --out '" + (dir / "out").string() + "'");
  CHECK(m.status == 0);
  auto rows = parse_csv(read_file((dir / "out/gradebook.csv").string(), 1 << 20));
  for (auto& r : rows) r = {r[0], r[3], r[4]};
  using Rows = std::vector<std::vector<std::string>>;
  CHECK(rows == Rows{{"student", "status", "score"},
                     {"20260001", "graded", "16"},
                     {"20260002", "graded", "16"},  // a typo'd id beside a roster email: the email's student
                     {"20260003", "graded", "16"}});
  const std::string ada = read_file((dir / "out/feedback/20260001.md").string(), 1 << 20);
  CHECK(ada.find("no student id; 'ada@x.org' is the roster's '20260001'") != std::string::npos);
  const std::string alan = read_file((dir / "out/feedback/20260002.md").string(), 1 << 20);
  CHECK(alan.find("student '2026002' is not on the roster; 'alan@x.org' is the roster's '20260002'") != std::string::npos);
}

TEST_CASE("Moodle's grader export (Export grades: plain text file) is a roster as downloaded") {
  const fs::path dir = scratch() / "moodle-grades-roster";
  fs::remove_all(dir);
  fs::create_directories(dir / "subs");
  const std::string roster = (dir / "grades.csv").string();
  // Moodle's default export fields, an assignment column, the course total
  // and the time of the download; the ID number is filled in.
  write_file(roster,
             "First name,Last name,ID number,Institution,Department,Email address,"
             "Assignment: Attention worksheet (Real),Course total (Real),Last downloaded from this course\n"
             "Ada,Lovelace,20260001,Uni,CS,ada@x.org,-,-,1764583200\n"
             "Alan,Turing,20260002,Uni,CS,alan@x.org,12.00,12.00,1764583200\n");
  const Run g = run_cli("generate rubrics/lesson.yaml --seed 5 --roster '" + roster + "' -o '" + (dir / "class").string() + "'");
  CHECK(g.status == 0);
  CHECK(fs::exists(dir / "class" / "20260001.md"));  // the ID number, as the export gives it
  CHECK(fs::exists(dir / "class" / "20260002.md"));
  CHECK(listing(dir / "class").size() == 4);
  fs::copy_file(dir / "class" / "20260001.answers.yaml", dir / "subs" / "ada.yaml");
  const Run m = run_cli("mark rubrics/lesson.yaml --seed 5 '" + (dir / "subs").string() + "' --roster '" + roster +
                        "' --out '" + (dir / "out").string() + "'");
  CHECK(m.status == 1);  // Alan handed nothing in
  auto rows = parse_csv(read_file((dir / "out/gradebook.csv").string(), 1 << 20));
  for (auto& r : rows) r = {r[0], r[1], r[3]};
  CHECK(rows == std::vector<std::vector<std::string>>{{"student", "name", "status"},
                                                      {"20260001", "Ada Lovelace", "unanswered"},
                                                      {"20260002", "Alan Turing", "missing"}});
}

TEST_CASE("an answer file that gives the student's email, in a folder named by it, is that roster student, unflagged") {
  const fs::path dir = scratch() / "email-folder";
  fs::remove_all(dir);
  fs::create_directories(dir / "subs" / "ada@x.org");
  const std::string roster = (dir / "participants.csv").string();
  write_file(roster, moodle_participants);
  const Run t = run_cli("template rubrics/lesson.yaml --seed 5 --student 20260001");
  REQUIRE(t.status == 0);
  std::string file = t.out;
  const std::string written = "student: \"20260001\"";
  const std::size_t at = file.find(written);
  REQUIRE(at != std::string::npos);
  file.replace(at, written.size(), "student: ada@x.org");
  write_file((dir / "subs" / "ada@x.org" / "answers.yaml").string(), file);
  const Run m = run_cli("mark rubrics/lesson.yaml --seed 5 '" + (dir / "subs").string() + "' --roster '" + roster +
                        "' --out '" + (dir / "out").string() + "'");
  CHECK(m.status == 1);  // Alan and Grace handed nothing in
  CHECK(m.err.find("check who handed it in") == std::string::npos);
  auto rows = parse_csv(read_file((dir / "out/gradebook.csv").string(), 1 << 20));
  REQUIRE(rows.size() == 4);
  CHECK(std::vector<std::string>{rows[1][0], rows[1][2], rows[1][3], rows[1].back()} ==
        std::vector<std::string>{"20260001", variant_of("20260001"), "unanswered", ""});
}
