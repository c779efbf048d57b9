// writers/lms_export.h: the gradebook in the import formats of Canvas and
// Moodle, one row per student (CRLF line ends, text neutralised as in
// csv_writer.h).
//
//   std::vector<LmsRow> rows = {{"s001", "Lovelace, Ada", 14, "q1 weights 0/2: no-exp", {}}};
//   write_file("out/canvas.csv", canvas_csv(rows, "Attention worksheet", "123456", 16));
//
// Canvas: its gradebook export/import CSV (canvas-lms gradebook_to_csv):
//   Student,ID,SIS User ID,SIS Login ID,Section,Attention worksheet (123456)
//   Points Possible,,,,,16
//   "Lovelace, Ada",1001,s001,ada,ML 101,14
// Moodle: grade/import/csv, one identity column the teacher maps ("ID
// number", or "Email address" when the roster has emails), a grade column
// "Assignment: NAME" and "Feedback: NAME" with a short text per student.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"

namespace attnmark {

// One student as the LMS sees them.
struct LmsRow {
  std::string student;           // the id (SIS User ID in Canvas, ID number in Moodle)
  std::string name;              // may be empty
  std::optional<double> score;   // none: nothing to import (missing, or not marked)
  std::string feedback;          // Moodle's feedback text
  std::map<std::string, std::string> fields;  // the roster's other columns, by small header ("id", "section", "email")
};

// canvas.csv. `assignment_id` empty: the column is "NAME" alone (Canvas
// matches it by name, or makes a new assignment).
std::string canvas_csv(const std::vector<LmsRow>& rows, const std::string& assignment, const std::string& assignment_id,
                       double points_possible);

// moodle.csv.
std::string moodle_csv(const std::vector<LmsRow>& rows, const std::string& assignment);

// The short feedback for Moodle: the score, then each part that lost marks
// with the mistakes named: "14 / 16. q1 weights 0/2: no-exp; q2 output 2/3."
// A submission that was not marked: its status and reason.
std::string lms_feedback(const Rubric& rubric, const GradedSubmission& graded);

}  // namespace attnmark
