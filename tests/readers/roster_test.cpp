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
  CHECK_THROWS_WITH(read_roster("id,name\ns1,Ada\n", "r.csv"),
                    "r.csv:1: expected a 'student' column in the header (and optionally 'name'); got 'id', 'name'");
  CHECK_THROWS_WITH(read_roster("student,name\ns1,Ada\n,Alan\n", "r.csv"), "r.csv:3: this row has no student id");
  CHECK_THROWS_WITH(read_roster("student,name\ns1,Ada\ns2,B\ns1,Alan\n", "r.csv"),
                    "r.csv:4: student 's1' is listed twice (first on line 2)");
  CHECK_THROWS_WITH(read_roster("student,name\n", "r.csv"), "r.csv:1: the roster lists no students");
  CHECK_THROWS_WITH(read_roster("", "r.csv"), "r.csv: the roster is empty; expected a header with a 'student' column");
  CHECK_THROWS_WITH(read_roster("student\n\"s1\n", "r.csv"), Catch::Contains("r.csv:2:1: unterminated quoted field"));
}
