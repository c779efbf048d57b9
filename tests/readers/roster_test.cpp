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
