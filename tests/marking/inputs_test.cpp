// marking/inputs: which of a student's submissions counts, on real files in
// the scratch folder: the latest by the time a file or row records, else by
// the file's modification time; equal times and times that cannot be read
// in input order; each superseded one saying why, both times named. And an
// input path that is not there.
#include "support/test_support.h"

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "marking/inputs.h"
#include "readers/submitted_time.h"

using attnmark::Inputs;

namespace {

namespace fs = std::filesystem;

// A fresh folder for one case.
fs::path folder(const std::string& name) {
  const fs::path dir = scratch() / "inputs" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// An answer file of `student`, recording `submitted` when it is not "".
std::string answer_file(const std::string& student, const std::string& submitted = "") {
  return "student: \"" + student + "\"\n" + (submitted.empty() ? "" : "submitted: " + submitted + "\n") +
         "answers:\n  q1:\n    weights: [0.5, 0.5, 0]\n";
}

// Sets a file's modification time to a UTC time ("2026-12-01T09:00:00Z").
void set_modified(const fs::path& file, const std::string& utc) {
  const auto seconds = attnmark::parse_submitted_time(utc);
  REQUIRE(seconds);
  const std::chrono::sys_seconds t{std::chrono::seconds{*seconds}};
  fs::last_write_time(file, std::chrono::file_clock::from_sys(t));
}

Inputs read(const std::vector<std::string>& paths) { return attnmark::read_inputs(attnmark::input_files(paths, ""), 2); }

// Each submission's source, "counts" or the source of the one that counts, and the reason.
std::vector<std::string> decisions(const Inputs& in) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < in.submissions.size(); ++i)
    out.push_back(in.source(i) + " | " + (in.superseding[i] == Inputs::counts ? "counts" : in.source(in.superseding[i])) +
                  " | " + in.superseded_reason(i));
  return out;
}

}  // namespace

TEST_CASE("a renamed resubmission counts by the time it records, though its name sorts first") {
  const fs::path dir = folder("submitted");
  // '-' sorts before '.': 20261421-resubmit.yaml is read first.
  attnmark::write_file((dir / "20261421-resubmit.yaml").string(), answer_file("20261421", "2026-12-01T10:02Z"));
  attnmark::write_file((dir / "20261421.yaml").string(), answer_file("20261421", "2026-12-01T09:00Z"));
  // The modification times say the opposite: the recorded times win.
  set_modified(dir / "20261421-resubmit.yaml", "2026-11-01T00:00:00Z");
  set_modified(dir / "20261421.yaml", "2026-12-03T00:00:00Z");
  const std::string d = dir.string();
  CHECK(decisions(read({d})) ==
        std::vector<std::string>{
            d + "/20261421-resubmit.yaml | counts | ",
            d + "/20261421.yaml | " + d + "/20261421-resubmit.yaml | superseded by " + d +
                "/20261421-resubmit.yaml (submitted 2026-12-01T10:02Z, later than this file's 2026-12-01T09:00Z)",
        });
}

TEST_CASE("without a recorded time, the later modification time counts, and of equal ones the later in input order") {
  const fs::path dir = folder("modified");
  const std::string resubmit = (dir / "20261421-resubmit.yaml").string(), first = (dir / "20261421.yaml").string();
  attnmark::write_file(resubmit, answer_file("20261421"));
  attnmark::write_file(first, answer_file("20261421"));

  SECTION("the resubmission modified later counts") {
    set_modified(resubmit, "2026-12-01T10:02:00Z");
    set_modified(first, "2026-12-01T09:00:00Z");
    CHECK(decisions(read({dir.string()})) ==
          std::vector<std::string>{
              resubmit + " | counts | ",
              first + " | " + resubmit + " | superseded by " + resubmit +
                  " (modified 2026-12-01T10:02:00Z, later than this file's 2026-12-01T09:00:00Z)",
          });
  }
  SECTION("the first file modified later counts, though it is read last") {
    set_modified(resubmit, "2026-12-01T09:00:00Z");
    set_modified(first, "2026-12-01T10:02:00Z");
    CHECK(decisions(read({dir.string()})) ==
          std::vector<std::string>{
              resubmit + " | " + first + " | superseded by " + first +
                  " (modified 2026-12-01T10:02:00Z, later than this file's 2026-12-01T09:00:00Z)",
              first + " | counts | ",
          });
  }
  SECTION("equal to the second: the later in input order (by name, in a folder)") {
    set_modified(resubmit, "2026-12-01T09:00:00Z");
    set_modified(first, "2026-12-01T09:00:00Z");
    CHECK(decisions(read({dir.string()})) ==
          std::vector<std::string>{
              resubmit + " | " + first + " | superseded by " + first +
                  " (both modified 2026-12-01T09:00:00Z; of equal times, the later in input order counts)",
              first + " | counts | ",
          });
  }
  SECTION("a recorded time against a modification time: each as it is, both named") {
    attnmark::write_file(first, answer_file("20261421", "2026-12-01T11:00:00+01:00"));  // 10:00 UTC
    set_modified(resubmit, "2026-12-01T10:00:01Z");
    CHECK(decisions(read({dir.string()})) ==
          std::vector<std::string>{
              resubmit + " | counts | ",
              first + " | " + resubmit + " | superseded by " + resubmit +
                  " (modified 2026-12-01T10:00:01Z, later than this file's submitted 2026-12-01T11:00:00+01:00)",
          });
  }
  SECTION("a recorded time that is not a time: input order, and the reason says why") {
    attnmark::write_file(resubmit, answer_file("20261421", "last Tuesday"));
    set_modified(resubmit, "2026-12-01T10:02:00Z");
    set_modified(first, "2026-12-01T09:00:00Z");
    CHECK(decisions(read({dir.string()})) ==
          std::vector<std::string>{
              resubmit + " | " + first + " | superseded by the later submission " + first + " in input order: the time " +
                  resubmit + " records, 'last Tuesday', is not one attnmark reads, so times are not compared",
              first + " | counts | ",
          });
  }
}

TEST_CASE("a form's rows count by their Timestamp or Completion time, not their order in the sheet") {
  const fs::path dir = folder("sheets");

  SECTION("Google Forms: Timestamp with its zone, a resubmission above the first") {
    const std::string form = (dir / "form.csv").string();
    attnmark::write_file(form,
                         "Timestamp,Email address,Student,q1.weights.1\n"
                         "2026/12/01 10:02:03 AM GMT+1,a@x,s01,0.5\n"
                         "2026/12/01 9:00:00 AM GMT+1,a@x,s01,0.6\n"
                         "2026/12/01 9:30:00 AM GMT+1,b@x,s02,0.6\n");
    CHECK(decisions(read({form})) ==
          std::vector<std::string>{
              form + ":2 | counts | ",
              form + ":3 | " + form + ":2 | superseded by " + form +
                  ":2 (Timestamp 2026/12/01 10:02:03 AM GMT+1, later than this row's 2026/12/01 9:00:00 AM GMT+1)",
              form + ":4 | counts | ",
          });
  }
  SECTION("Microsoft Forms: Completion time, day first because one date reads only that way") {
    const std::string form = (dir / "ms.csv").string();
    // 1 December is later than 2 November; read month first, 12 January would be earlier than 11 February.
    attnmark::write_file(form,
                         "ID,Start time,Completion time,Email,Name,Student ID,q1.weights.1\n"
                         "1,1/12/26 10:00:00,1/12/26 10:02:03,a@x,Ann,s01,0.5\n"
                         "2,2/11/26 08:59:00,2/11/26 09:00:00,a@x,Ann,s01,0.6\n"
                         "3,13/11/26 08:59:00,13/11/26 09:00:00,b@x,Bo,s02,0.6\n");
    CHECK(decisions(read({form})) ==
          std::vector<std::string>{
              form + ":2 | counts | ",
              form + ":3 | " + form + ":2 | superseded by " + form +
                  ":2 (Completion time 1/12/26 10:02:03, later than this row's 2/11/26 09:00:00)",
              form + ":4 | counts | ",
          });
  }
  SECTION("a time that cannot be read, or a blank one: row order, said in the reason") {
    const std::string form = (dir / "bad.csv").string();
    attnmark::write_file(form,
                         "Timestamp,Student,q1.weights.1\n"
                         "2026/12/01 10:02:03 AM GMT+1,s01,0.5\n"
                         "yesterday,s01,0.6\n"
                         "2026/12/01 10:02:03 AM GMT+1,s02,0.5\n"
                         ",s02,0.6\n");
    CHECK(decisions(read({form})) ==
          std::vector<std::string>{
              form + ":2 | " + form + ":3 | superseded by the later submission " + form + ":3 in input order: the time " +
                  form + ":3 records, 'yesterday', is not one attnmark reads, so times are not compared",
              form + ":3 | counts | ",
              form + ":4 | " + form + ":5 | superseded by the later submission " + form + ":5 in input order: the Timestamp of " +
                  form + ":5 is blank, so times are not compared",
              form + ":5 | counts | ",
          });
  }
  SECTION("equal Timestamps: the later row") {
    const std::string form = (dir / "same.csv").string();
    attnmark::write_file(form,
                         "Timestamp,Student,q1.weights.1\n"
                         "12/1/2026 10:02:03,s01,0.5\n"
                         "12/1/2026 10:02:03,s01,0.6\n");
    CHECK(decisions(read({form})) ==
          std::vector<std::string>{
              form + ":2 | " + form + ":3 | superseded by " + form +
                  ":3 (both Timestamp 12/1/2026 10:02:03; of equal times, the later in input order counts)",
              form + ":3 | counts | ",
          });
  }
  SECTION("a sheet without a time column: the later row, whatever the sheet's modification time") {
    const std::string form = (dir / "plain.csv").string();
    attnmark::write_file(form, "Student,q1.weights.1\ns01,0.5\ns01,0.6\n");
    CHECK(decisions(read({form})) ==
          std::vector<std::string>{
              form + ":2 | " + form + ":3 | superseded by the later row " + form +
                  ":3 (the sheet records no time of its rows)",
              form + ":3 | counts | ",
          });
  }
  SECTION("a sheet's row against an answer file: the row's Timestamp against the file's submitted:") {
    const std::string form = (dir / "late.csv").string(), file = (dir / "s01.yaml").string();
    attnmark::write_file(form, "Timestamp,Student,q1.weights.1\n2026-12-02 08:00,s01,0.5\n");
    attnmark::write_file(file, answer_file("s01", "2026-12-01T10:02Z"));
    CHECK(decisions(read({file, form})) ==
          std::vector<std::string>{
              file + " | " + form + ":2 | superseded by " + form +
                  ":2 (Timestamp 2026-12-02 08:00, later than this file's submitted 2026-12-01T10:02Z)",
              form + ":2 | counts | ",
          });
  }
}

TEST_CASE("a file in another student's folder never replaces theirs, however late it is") {
  const fs::path dir = folder("flagged");
  fs::create_directories(dir / "s02");
  fs::create_directories(dir / "s04");
  attnmark::write_file((dir / "s02/answers.yaml").string(), answer_file("s02", "2026-12-01T09:00Z"));
  attnmark::write_file((dir / "s04/answers.yaml").string(), answer_file("s02", "2026-12-01T10:00Z"));
  const std::string d = dir.string();
  CHECK(decisions(read({d})) ==
        std::vector<std::string>{
            d + "/s02/answers.yaml | counts | ",
            d + "/s04/answers.yaml | " + d + "/s02/answers.yaml | not counted: the file says student 's02' but sits in "
                "'s04/'; s02's submission " + d + "/s02/answers.yaml counts",
        });
}

TEST_CASE("an input path that is not there stops before anything is read") {
  const fs::path dir = folder("missing");
  attnmark::write_file((dir / "form.csv").string(), "Student,q1.weights.1\ns01,0.5\n");
  const std::string typo = (dir / "form.cvs").string();
  CHECK_THROWS_WITH(attnmark::input_files({(dir / "form.csv").string(), typo}, ""), typo + ": no such file or folder");
  CHECK_THROWS_WITH(attnmark::input_files({(dir / "nothing/here").string()}, ""),
                    (dir / "nothing/here").string() + ": no such file or folder");
}
