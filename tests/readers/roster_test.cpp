// Rosters (readers/roster.h): a class list read from CSV, and its errors.
#include "support/test_support.h"

#include <string>
#include <vector>

#include "readers/roster.h"

using namespace attnmark;

TEST_CASE("a roster is read with any header case, BOM, CRLF, quotes and extra columns") {
  const std::string text = "\xEF\xBB\xBF Email ,NAME, Student \r\n"
                           "a@x.org,\"Lovelace, Ada\",s001\r\n"
                           ",,\r\n"
                           "b@x.org,Alan Turing,  s002 \r\n"
                           "\r\n"
                           "c@x.org,,s003";
  const std::vector<RosterEntry> r = read_roster(text, "class.csv");
  REQUIRE(r.size() == 3);
  CHECK(r[0].student == "s001");
  CHECK(r[0].name == "Lovelace, Ada");
  CHECK(r[0].line == 2);
  CHECK(r[1].student == "s002");
  CHECK(r[1].name == "Alan Turing");
  CHECK(r[1].line == 4);
  CHECK(r[2].student == "s003");
  CHECK(r[2].name.empty());
  CHECK(r[2].line == 6);
  // A name column is optional.
  CHECK(read_roster("student\ns1\n", "r.csv").at(0).student == "s1");
}

TEST_CASE("roster errors name the file and line") {
  CHECK_THROWS_WITH(read_roster("code,name\ns1,Ada\n", "r.csv"),
                    "r.csv:1: expected a student id column in the header (student, student id, id, id number, sis user id, sis login id, username, login, email, email address), or name it with --id-column; got 'code', 'name'");
  CHECK_THROWS_WITH(read_roster("student,name\ns1,Ada\n,Alan\n", "r.csv"),
                    "r.csv:3: this row has no student id (column 'student')");
  CHECK_THROWS_WITH(read_roster("student,name\ns1,Ada\ns2,B\ns1,Alan\n", "r.csv"),
                    "r.csv:4: student 's1' is listed twice (first on line 2)");
  CHECK_THROWS_WITH(read_roster("student,name\n", "r.csv"), "r.csv:1: the roster lists no students");
  CHECK_THROWS_WITH(read_roster("", "r.csv"), "r.csv: the roster is empty; expected a header with a student id column");
  CHECK_THROWS_WITH(read_roster("code,name\ns1,Ada\n", "r.csv", {"Matrikel", ""}),
                    "r.csv:1: --id-column 'Matrikel': no such column in the header; got 'code', 'name'");
  CHECK_THROWS_WITH(read_roster("student\n\"s1\n", "r.csv"), Catch::Contains("r.csv:2:1: unterminated quoted field"));
}

TEST_CASE("a roster that is not UTF-8, or an id with a control character, is an error naming the line") {
  CHECK_THROWS_WITH(read_roster("student,name\ns001,Jos\xE9\n", "r.csv"),
                    "r.csv:2: not UTF-8 text (byte 0xE9 at line 2); save the roster as UTF-8");
  CHECK_THROWS_WITH(read_roster("student\ns1\nJos\xE9\n", "r.csv"),
                    "r.csv:3: not UTF-8 text (byte 0xE9 at line 3); save the roster as UTF-8");
  CHECK_THROWS_WITH(read_roster("\xFF\xFEs\0t\0", "r.csv"), "r.csv: UTF-16 text; save the roster as UTF-8");
  CHECK_THROWS_WITH(read_roster(std::string("student\ns\0\n", 11), "r.csv"),
                    "r.csv: binary file (contains NUL bytes)");
  CHECK_THROWS_WITH(read_roster("student\n\x1B[2J\x1B]0;owned\x07\n", "r.csv"),
                    "r.csv:2: student id '\\x1B[2J\\x1B]0;owned\\x07' contains a control character (U+001B); "
                    "remove it from the roster");
  CHECK_THROWS_WITH(read_roster("student\n\"a\nb\"\n", "r.csv"),
                    "r.csv:2: student id 'a\\nb' contains a control character (U+000A); remove it from the roster");
  CHECK_THROWS_WITH(read_roster("student\nx\xC2\x85\n", "r.csv"),
                    "r.csv:2: student id 'x\\u0085' contains a control character (U+0085); remove it from the roster");
  CHECK_THROWS_WITH(read_roster("student\nevil\xE2\x80\xAEtxt\n", "r.csv"),
                    "r.csv:2: student id 'evil\\u202Etxt' contains a control character (U+202E); "
                    "remove it from the roster");
  for (const char* bidi : {"\xD8\x9C", "\xE2\x80\x8E", "\xE2\x80\x8F", "\xE2\x80\xAA", "\xE2\x81\xA6", "\xE2\x81\xA9"})
    CHECK_THROWS_WITH(read_roster(std::string("student\na") + bidi + "\n", "r.csv"),
                      Catch::Contains("contains a control character"));
  // What messages quote is escaped too.
  CHECK_THROWS_WITH(read_roster("id\x1B[31m\ns1\n", "r.csv"),
                    "r.csv:1: expected a student id column in the header (student, student id, id, id number, sis user id, sis login id, username, login, email, email address), or name it with --id-column; got 'id\\x1B[31m'");
  // Letters of any script, and punctuation, are fine: the writers escape them.
  const std::vector<RosterEntry> r = read_roster("student\nJos\xC3\xA9\n<img src=x onerror=alert(1)>\n*a_b*|`c`\n", "r.csv");
  REQUIRE(r.size() == 3);
  CHECK(r[0].student == "Jos\xC3\xA9");
  CHECK(r[1].student == "<img src=x onerror=alert(1)>");
}

TEST_CASE("a wide header without a student column is named by its first twelve columns") {
  std::string header;
  for (int i = 0; i < 1030; ++i) header += (i ? ",c" : "c") + std::to_string(i);
  CHECK_THROWS_WITH(read_roster(header + "\nx\n", "r.csv"),
                    Catch::EndsWith("got 'c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'c10', 'c11', "
                                    "... (1,018 more)"));
}

TEST_CASE("a roster's id and name columns are recognised by their usual headers, or chosen") {
  // The first of student, student id, id, ..., email that the header has.
  auto first = [](const std::string& text, const ColumnChoice& choice = {}) {
    const std::vector<RosterEntry> r = read_roster(text, "r.csv", choice);
    REQUIRE(!r.empty());
    return r[0].student + " | " + r[0].name;
  };
  CHECK(first("Student ID,Full Name\ns001,Ada Lovelace\n") == "s001 | Ada Lovelace");
  CHECK(first("Email,Username,Name\nada@example.org,ada,Ada\n") == "ada | Ada");
  CHECK(first("Email address,First name,Surname\nada@example.org,Ada,Lovelace\n") == "ada@example.org | Ada Lovelace");
  CHECK(first("student,email\ns001,ada@example.org\n", {"email", ""}) == "ada@example.org | ");
  CHECK(first("code,who\ns001,Ada\n", {"CODE", "Who"}) == "s001 | Ada");
  // A Canvas export: Student is the name, SIS User ID the id; its Points Possible row is not a student.
  const std::vector<RosterEntry> canvas = read_roster(
      "Student,ID,SIS User ID,SIS Login ID,Section,Attention (12)\n"
      "    Points Possible,,,,,16\n"
      "\"Lovelace, Ada\",1001,s001,ada,ML 101,\n", "canvas.csv");
  REQUIRE(canvas.size() == 1);
  CHECK(canvas[0].student == "s001");
  CHECK(canvas[0].name == "Lovelace, Ada");
  CHECK(canvas[0].fields.at("id") == "1001");
  CHECK(canvas[0].fields.at("sis login id") == "ada");
  CHECK(canvas[0].fields.at("section") == "ML 101");
}

TEST_CASE("a raw Canvas gradebook export is a roster: Manual Posting, Points Possible and the Test Student are left out") {
  const std::string canvas =
      "Student,ID,SIS User ID,SIS Login ID,Section,Attention worksheet (123),Current Score,Unposted Current Score,"
      "Final Score,Unposted Final Score\n"
      ",,,,,Manual Posting,,,,\n"
      "    Points Possible,,,,,16.00,(read only),(read only),(read only),(read only)\n"
      "\"Lovelace, Ada\",1001,s001,ada,ML 101,,0.00,0.00,0.00,0.00\n"
      "\"Turing, Alan\",1002,s002,alan,ML 101,14.00,87.5,87.5,87.5,87.5\n"
      "\"Student, Test\",1099,,,ML 101,,,,,\n";
  std::vector<std::string> notes;
  const std::vector<RosterEntry> students = read_roster(canvas, "canvas.csv", {}, &notes);
  REQUIRE(students.size() == 2);
  CHECK(students[0].student == "s001");
  CHECK(students[0].name == "Lovelace, Ada");
  CHECK(students[0].line == 4);
  CHECK(students[1].student == "s002");
  CHECK(students[1].fields.at("current score") == "87.5");
  CHECK(notes == std::vector<std::string>{
                     "canvas.csv: left out 1 row that is not a student: 'Student, Test' (line 6: no SIS id, as Canvas's "
                     "Test Student; --id-column ID takes Canvas's ids)"});
  // Asked for by Canvas's own ids, the Test Student is a student too.
  notes.clear();
  const std::vector<RosterEntry> by_canvas_id = read_roster(canvas, "canvas.csv", {"ID", ""}, &notes);
  REQUIRE(by_canvas_id.size() == 3);
  CHECK(by_canvas_id[2].student == "1099");
  CHECK(by_canvas_id[2].name == "Student, Test");
  CHECK(notes.empty());
  // Exported with first and last names, by a teacher who may not see SIS User IDs: the login is the id.
  const std::vector<RosterEntry> names = read_roster(
      "LastName,FirstName,ID,SIS Login ID,Section,Attention worksheet (123)\n"
      "    Points Possible,,,,,16.00\n"
      "Lovelace,Ada,1001,ada,ML 101,\n",
      "canvas.csv");
  REQUIRE(names.size() == 1);
  CHECK(names[0].student == "ada");
  CHECK(names[0].name == "Ada Lovelace");
}

TEST_CASE("a Moodle participants export is a roster: teachers left out, an empty ID number passed over for the email") {
  std::vector<std::string> notes;
  const std::vector<RosterEntry> students = read_roster(
      "First name,Last name,ID number,Email address,Roles,Groups,Last access to course\n"
      "Ada,Lovelace,,ada@example.org,Student,Group A,Now\n"
      "Grace,Hopper,,grace@example.org,\"Teacher, Non-editing teacher\",,Now\n"
      "Alan,Turing,,alan@example.org,Student,,Never\n",
      "participants.csv", {}, &notes);
  REQUIRE(students.size() == 2);
  CHECK(students[0].student == "ada@example.org");
  CHECK(students[0].name == "Ada Lovelace");
  CHECK(students[1].student == "alan@example.org");
  CHECK(notes == std::vector<std::string>{"participants.csv: left out 1 row that is not a student: 'Grace Hopper' (line 3)"});
  // An ID number in some rows is the id column: a row without one is still an error.
  CHECK_THROWS_WITH(read_roster("First name,Surname,ID number,Email address\nAda,Lovelace,s001,ada@example.org\n"
                                "Alan,Turing,,alan@example.org\n",
                                "grades.csv"),
                    "grades.csv:3: this row has no student id (column 'ID number')");
}

TEST_CASE("a Microsoft Forms export's ID is its response number, never a student id, and Google Forms' email is one") {
  const auto id_header = [](const std::vector<std::string>& header) {
    const attnmark::ClassColumns c = attnmark::class_columns(header, {});
    return c.id ? header[*c.id] : std::string("none");
  };
  CHECK(id_header({"ID", "Start time", "Completion time", "Email", "Name", "Scores, bus"}) == "Email");
  CHECK(id_header({"ID", "Start time", "Completion time", "Email", "Name", "Student ID"}) == "Student ID");
  CHECK(id_header({"Timestamp", "Email address", "Scores, bus"}) == "Email address");
  CHECK(id_header({"Timestamp", "Email address", "Student ID"}) == "Student ID");
  // A sheet headed ID alone: the ID is the id.
  CHECK(id_header({"ID", "q1.scores.1"}) == "ID");
}
