// The class roster mark marks against (marking/class_roster.h): who a
// sheet's id, email or login names, and which roster id a near-miss meant.
#include "support/test_support.h"

#include "marking/class_roster.h"

using attnmark::ClassRoster;

namespace {

ClassRoster moodle_roster() {
  return ClassRoster(attnmark::read_roster("First name,Last name,ID number,Email address,Username\n"
                                           "Ada,Lovelace,20260001,Ada@X.org,alovelace\n"
                                           "Alan,Turing,20260002,alan@x.org,aturing\n"
                                           "Grace,Hopper,20260003,shared@x.org,ghopper\n"
                                           "Edsger,Dijkstra,20260004,shared@x.org,ed\n",
                                           "participants.csv"));
}

}  // namespace

TEST_CASE("identify: a roster id, else the one student whose email (any case) or login it is") {
  const ClassRoster roster = moodle_roster();
  CHECK(roster.identify("20260002") == 1);
  CHECK(roster.identify(" 20260002 ") == 1);
  CHECK(roster.identify("ada@x.org") == 0);  // an email in any case
  CHECK(roster.identify("ADA@X.ORG") == 0);
  CHECK(roster.identify("alovelace") == 0);  // a login as written
  CHECK(roster.identify("ALovelace") == ClassRoster::npos);
  CHECK(roster.identify("shared@x.org") == ClassRoster::npos);  // two students: it names neither
  CHECK(roster.identify("nobody@x.org") == ClassRoster::npos);
  CHECK(roster.identify("") == ClassRoster::npos);
  CHECK(roster.identify("Ada Lovelace") == ClassRoster::npos);  // a name is not an identity
  CHECK(attnmark::identity_key(" Ada@Example.ORG ") == "ada@example.org");
  CHECK(attnmark::identity_key(" S002 ") == "S002");
}

TEST_CASE("identify never matches an id by its case alone: S002 is a near-miss of s002, for --near-ids") {
  const ClassRoster roster(attnmark::read_roster("student,name\ns001,Ada\ns002,Alan\n", "class.csv"));
  CHECK(roster.identify("s002") == 1);
  CHECK(roster.identify("S002") == ClassRoster::npos);
  CHECK(roster.near("S002") == "s002");
  CHECK(roster.near("s2") == "s002");
  CHECK(roster.near("s9") == "");
}

TEST_CASE("identify: a Canvas export's ID is Canvas's own number, never a student's identity") {
  const ClassRoster roster(attnmark::read_roster("Student,ID,SIS User ID,SIS Login ID,Section\n"
                                                 "\"Lovelace, Ada\",1001,s001,ada,ML 101\n"
                                                 "\"Turing, Alan\",1002,1001,alan,ML 101\n",
                                                 "canvas.csv"));
  CHECK(roster.identify("1001") == 1);  // Alan's SIS User ID, not Ada's Canvas ID
  CHECK(roster.identify("1002") == ClassRoster::npos);
  CHECK(roster.identify("ada") == 0);  // the SIS Login ID
}
