// marking/autograde.h: one submission marked as an autograder marks it:
// the answer file found in the folder the platform hands over, the
// student's id taken from the platform or the file, and the file judged as
// `mark` judges it (same judge, same variant from rubric, seed and id).
//
//   AutogradeSubmission in{"/autograder/submission", "s001", "Gradescope", ""};
//   Autograded a = autograde(rubric, seed, in);
//   a.graded.marked->score;   // as mark's gradebook has it
//   a.notes;                  // "Marked answers.yaml; not marked: notes.pdf"
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"

namespace attnmark {

struct AutogradeSubmission {
  std::string folder;            // what the student handed in: DIR/submission/ or DIR/student/
  std::string platform_student;  // the id the platform says submitted, or ""
  std::string platform;          // the platform's name for notes: "Gradescope"
  std::string fallback_student;  // --student: when neither the platform nor the file gives an id
};

struct Autograded {
  GradedSubmission graded;
  std::vector<std::string> notes;  // for the student: which file was marked, whose id; one line each
  std::string file;                // the file marked, below the folder ("answers.yaml"), or ""
};

// Which file is the answer file: the one file handed in; else the one
// .yaml, .yml, .json or .ipynb among them; else the one of those that reads as
// answers for this rubric. Hidden files (a name starting with '.'),
// __MACOSX/, links, pipes and devices are never candidates. No file, none
// that is an answer file, or several, is an unreadable submission with the
// reason, for the student to read.
//
// The student id: the platform's, when it gives one; the file's `student:`
// when it differs only in case and the file records that id's variant (the
// worksheet was made for it); else the file's; else fallback_student. A
// file whose `student:` disagrees with the platform is marked as the
// platform's student (so a classmate's file is a wrong-variant) and noted.
//
// Never throws for anything in the folder: a file that cannot be read, and a
// variant that cannot be made, are unreadable submissions.
Autograded autograde(const Rubric& rubric, std::optional<std::uint64_t> seed, const AutogradeSubmission& in);

}  // namespace attnmark
