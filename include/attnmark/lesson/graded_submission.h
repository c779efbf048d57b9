// attnmark/lesson/graded_submission.h: what became of one submission: its status, why, and
// its marks. One gradebook row, one feedback file.
//
//   GradedSubmission g = judge(rubric, seed, submission, "");
//   if (g.status == SubmissionStatus::graded) use(g.marked->score);
//   status_name(SubmissionStatus::wrong_variant) == "wrong-variant"
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "attnmark/lesson/grader.h"

namespace attnmark {

// Every status a submission can end with. Listed in the order of their
// names, which is the order in which reports tally them.
enum class SubmissionStatus {
  duplicate,        // the same student handed in again later; the later one counts
  graded,           // marked
  missing,          // on the roster, but handed nothing in
  not_on_roster,    // marked, but its student id is not on the roster
  unanswered,       // read, but no cell was answered
  unknown_student,  // no student id, and none can be taken from the file name
  unreadable,       // not an answer file or sheet row that can be read
  wrong_rubric,     // answers recorded for another rubric
  wrong_variant,    // answers recorded for another variant than the student's
};
inline constexpr std::size_t submission_status_count = 9;

// The status as reports write it: "graded", "wrong-variant".
const char* status_name(SubmissionStatus status);

// How many submissions ended with each status, indexed by the enum.
using StatusTally = std::array<int, submission_status_count>;

// One submission and what became of it: one gradebook row.
struct GradedSubmission {
  std::string source;   // file, or "sheet.csv:12"
  std::string student;
  std::string name;     // the student's name, from the roster or the sheet; may be empty
  std::string variant;  // 16 hex digits, or empty when unknown
  SubmissionStatus status = SubmissionStatus::graded;
  std::string reason;   // why, for anything but graded
  std::optional<Marked> marked;  // when it was marked
  std::string file_stem;         // safe, unique name for its feedback files
  std::vector<std::string> flags;  // for the teacher, never a change of marks: "fits-variant-of:s01"
};

}  // namespace attnmark
