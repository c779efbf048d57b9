// marking/autograde.h: one submission marked as an autograder marks it:
// the answer file found in the folder the platform hands over, the
// student's id taken from the platform or the file, and the file judged as
// `mark` judges it (same judge, same variant from rubric, seed and id).
//
//   AutogradeSubmission in{"/autograder/submission", gradescope_submitter(metadata), "Gradescope", ""};
//   in.roster = &roster;      // optional: the class roster the ids are looked up in
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
#include "marking/class_roster.h"
#include "readers/submission_metadata.h"

namespace attnmark {

struct AutogradeSubmission {
  std::string folder;            // what the student handed in: DIR/submission/ or DIR/student/
  SubmitterId submitter;         // who the platform says submitted (Gradescope's metadata); empty: it does not say
  std::string platform;          // the platform's name for notes: "Gradescope"
  std::string fallback_student;  // --student: when neither the platform nor the file gives an id
  const ClassRoster* roster = nullptr;  // the class roster (--roster), or none
};

// A roster column that holds Gradescope's own user number (users[0].id of
// the metadata): only this column is searched for it, as an id column of
// another system (Canvas's ID) may hold the same digits for someone else.
inline constexpr const char* gradescope_id_column = "gradescope id";

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
// Whose variant, with a roster: the roster student that users[0].sid names,
// else users[0].email, else users[0].id (in the gradescope_id_column), else
// the file's `student:` (each as ClassRoster::identify matches: the roster id,
// or one student's identity column, ignoring case; a value several students
// hold names none); each value not found is noted. The student is marked
// as their roster id. When nothing is on the roster, as without one.
//
// Without a roster, the platform's id: the sid when there is one; with only
// an email, the file's `student:` when the file names one and it is not
// another email address; else the email.
//
// Against the platform's id: the file's `student:` when it differs only in
// case and the file records that id's variant (the worksheet was made for
// it); else the platform's; without one the file's; else fallback_student. A
// file whose `student:` disagrees with the platform is marked as the
// platform's student (so a classmate's file is a wrong-variant) and noted.
//
// Never throws for anything in the folder: a file that cannot be read, and a
// variant that cannot be made, are unreadable submissions.
Autograded autograde(const Rubric& rubric, std::optional<std::uint64_t> seed, const AutogradeSubmission& in);

}  // namespace attnmark
