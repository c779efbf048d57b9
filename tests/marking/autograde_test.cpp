// marking/autograde: whose variant a submission is marked against, from
// the platform's ids and the class roster (the CLI's tests run the same
// through Gradescope's fake roots).
#include "support/test_support.h"

#include <filesystem>
#include <string>

#include "base/files.h"
#include "marking/autograde.h"
#include "marking/class_roster.h"
#include "readers/roster.h"

namespace fs = std::filesystem;

namespace {

attnmark::ClassRoster roster() {
  return attnmark::ClassRoster(attnmark::read_roster("student,email,gradescope id\n"
                                                     "s04,anh@example.org,4567\n"
                                                     "s05,twins@example.org,\n"
                                                     "s06,twins@example.org,\n",
                                                     "roster.csv"));
}

// A folder holding s04's answer file.
std::string handed_in(const std::string& name) {
  const fs::path dir = scratch() / ("marking-autograde-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  attnmark::write_file((dir / "s04.yaml").string(),
                       attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/fixtures/class/answers/s04.yaml", 1 << 20));
  return dir.string();
}

}  // namespace

TEST_CASE("ClassRoster::ambiguous: a value several students hold, not one none holds") {
  const attnmark::ClassRoster r = roster();
  CHECK(r.ambiguous("Twins@example.org"));
  CHECK(r.identify("twins@example.org") == attnmark::ClassRoster::npos);
  CHECK(!r.ambiguous("nobody@example.org"));
  CHECK(!r.ambiguous("s05"));
  CHECK(!r.ambiguous(""));
}

TEST_CASE("autograde: the roster student Gradescope's sid, email or id names, in that order") {
  const attnmark::Rubric rubric = shipped("class-demo");
  const attnmark::ClassRoster r = roster();
  attnmark::AutogradeSubmission in{handed_in("order"), {}, "Gradescope", ""};
  in.roster = &r;
  const auto marked_as = [&](const std::string& sid, const std::string& email, const std::string& id) {
    in.submitter = attnmark::SubmitterId{};
    in.submitter.sid = sid;
    in.submitter.email = email;
    in.submitter.user_id = id;
    in.submitter.id = !sid.empty() ? sid : email;
    in.submitter.from = !sid.empty() ? "sid" : email.empty() ? "" : "email";
    return attnmark::autograde(rubric, 2026, in).graded.student;
  };
  CHECK(marked_as("s04", "", "") == "s04");
  CHECK(marked_as("", "ANH@example.org", "") == "s04");
  CHECK(marked_as("s05", "anh@example.org", "") == "s05");   // the sid first
  CHECK(marked_as("", "x@example.org", "4567") == "s04");    // the Gradescope id column
  CHECK(marked_as("", "twins@example.org", "") == "s04");    // shared email: the file's student
  in.roster = nullptr;
  CHECK(marked_as("", "twins@example.org", "") == "s04");    // no roster, no sid: the file's student
  CHECK(marked_as("s05", "twins@example.org", "") == "s05"); // no roster: the sid
}
