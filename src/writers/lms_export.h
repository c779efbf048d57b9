// writers/lms_export.h: the gradebook in the import formats of Canvas and
// Moodle, one row per student with a score (CRLF line ends, text neutralised
// as in csv_writer.h). A row without a score is left out, never written
// blank: both importers take a blank score as "no grade" and clear the grade
// the student has (Moodle's load_data.php sets a null grade for ''; Canvas's
// gradebook_importer.rb posts a blank that differs from the current grade).
//
//   std::vector<LmsRow> rows = {{"s001", "Lovelace, Ada", 14, "q1 weights 0/2: no-exp", {}}};
//   write_file("out/canvas.csv", canvas_csv(rows, "Attention worksheet", "123456", 16));
//
// Canvas: its gradebook export/import CSV (canvas-lms gradebook_to_csv):
//   Student,ID,SIS User ID,SIS Login ID,Section,Attention worksheet (123456)
//   Points Possible,,,,,16
//   "Lovelace, Ada",1001,s001,ada,ML 101,14
// Moodle: grade/import/csv, headed so that its mapping form maps every
// column by itself (an English Moodle; the form compares its own strings):
// one identity column headed as a user field the form maps to ("Email
// address" when every row has an email, else "ID number"), and the grade
// and feedback columns headed as Moodle's own export heads them, "<grade
// item> (Real)" and "<grade item> (Feedback)", the item of an Assignment
// activity being "Assignment: NAME":
//   Email address,Full name,Assignment: Attention worksheet (Real),Assignment: Attention worksheet (Feedback)
//   ada@example.org,Ada Lovelace,14,14 / 16. q1 weights 0/2: no-exp.
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
  std::optional<double> score;   // none: no row (missing, or not marked), so the LMS keeps its grade
  std::string feedback;          // Moodle's feedback text
  std::map<std::string, std::string> fields;  // the roster's other columns, by small header ("id", "section", "email")
};

// canvas.csv. `assignment_id` empty: the column is "NAME" alone (Canvas
// matches it by name, or makes a new assignment).
std::string canvas_csv(const std::vector<LmsRow>& rows, const std::string& assignment, const std::string& assignment_id,
                       double points_possible);

// moodle.csv. REQUIRES: every row is a roster student (Moodle's import stops
// at the first row whose identity is no Moodle user, importing nothing).
std::string moodle_csv(const std::vector<LmsRow>& rows, const std::string& assignment);

// The short feedback for Moodle: the score, then each part that lost marks
// with the mistakes named: "14 / 16. q1 weights 0/2: no-exp; q2 output 2/3."
// A submission that was not marked: its status and reason.
std::string lms_feedback(const Rubric& rubric, const GradedSubmission& graded);

}  // namespace attnmark
