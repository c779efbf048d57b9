// reports.h: what `mark` and `check` write: gradebook, feedback, summary, terminal table.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attnmark/grader.h"
#include "attnmark/rubric.h"

namespace attnmark {

// One submission and what became of it: one gradebook row.
struct GradedSubmission {
  std::string source;   // file, or "sheet.csv:12"
  std::string student;
  std::string variant;  // 16 hex digits, or empty when unknown
  std::string status;   // graded, unanswered, unreadable, duplicate, wrong-variant, wrong-rubric, unknown-student
  std::string reason;   // why, for anything but graded
  std::optional<Marked> marked;  // when it was marked
  std::string file_stem;         // safe, unique name for its feedback files
};

// gradebook.csv: a row per submission, every input exactly once.
std::string gradebook_csv(const Rubric& rubric, const std::vector<GradedSubmission>& rows);

// feedback/<student>.json: the marks of every cell.
std::string feedback_json(const GradedSubmission& graded);

// feedback/<student>.md: the same for the student to read. Reference
// answers are shown only when `reveal` is true.
std::string feedback_markdown(const Rubric& rubric, const GradedSubmission& graded, bool reveal);

// summary.md: class statistics, per-part success, mistakes, problem submissions.
std::string summary_markdown(const Rubric& rubric, const std::vector<GradedSubmission>& rows);

// The self-check table for a terminal. Reference answers only with `reveal`.
std::string check_table(const Rubric& rubric, const GradedSubmission& graded, bool reveal);

// A score for people: at most 2 decimals, no trailing zeros ("4.33", "5").
std::string score_text(double score);

}  // namespace attnmark
