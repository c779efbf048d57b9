// writers/gradebook.h: gradebook.csv, one row per student, for spreadsheets and
// LMS imports (CRLF line ends; text from students neutralised, see
// csv_writer.h).
//
//   std::string csv = gradebook_header(rubric);
//   append_gradebook_row(csv, rubric, graded);  // student,name,variant,status,score,...
#pragma once

#include <string>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"

namespace attnmark {

// The header line: student, name, variant, status, score, max_score, a
// column per question, source, reason, flags (for the teacher, separated by
// spaces: "fits-variant-of:s01").
std::string gradebook_header(const Rubric& rubric);

// One submission's line (CRLF-terminated), appended to out. The source and
// reason are one printable line each (printable: control characters and
// bytes that are not UTF-8 escaped), and the reason is cut to
// max_reason_cell_bytes ("… (and N more notes)"), well inside a
// spreadsheet's 32,767-character cell.
// REQUIRES: graded was judged against `rubric`.
void append_gradebook_row(std::string& out, const Rubric& rubric, const GradedSubmission& graded);

// The same line in two steps, for a writer that learns the flags later:
// every cell but the flags (ending in the comma before them), then the
// flags cell and the line end. Ignores graded.flags.
//
//   append_gradebook_cells(row, rubric, graded);   // s01,,4c1d…,graded,15,15,…,answers/s01.yaml,,
//   append_gradebook_flags(row, {"fits-variant-of:s02"});
void append_gradebook_cells(std::string& out, const Rubric& rubric, const GradedSubmission& graded);
void append_gradebook_flags(std::string& out, const std::vector<std::string>& flags);

}  // namespace attnmark
