// reports.h: what `mark` and `check` write: gradebook, feedback, summary, terminal table.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lesson/grader.h"
#include "lesson/rubric.h"

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

// Everything the class summary needs, gathered one submission at a time,
// so a large class never has to be held in memory whole.
class ClassSummary {
 public:
  // One submission as the summary lists it.
  struct Row {
    std::string source, student, status, reason, file_stem;
    std::optional<double> score;
  };
  // How a class did on one part.
  struct PartStats {
    int marked = 0;
    int full = 0;
    double total = 0;
  };

  explicit ClassSummary(const Rubric& rubric);
  // REQUIRES: graded was marked against `rubric`'s questions (when marked).
  void add(const GradedSubmission& graded);
  // Adds the submissions of `later` (a summary of the same rubric) after
  // these. Totals are summed per summary, then summary by summary.
  void append(ClassSummary&& later);

  const std::vector<Row>& rows() const { return rows_; }
  std::vector<Row>& rows() { return rows_; }  // to name the feedback files
  const std::vector<double>& scores() const { return scores_; }  // marked, not duplicates
  const PartStats& part(std::size_t question, std::size_t part) const { return parts_[question][part]; }
  // Number of students with each mistake code.
  const std::map<std::string, int>& mistakes() const { return mistakes_; }
  double max_score() const { return max_score_; }

 private:
  std::vector<Row> rows_;
  std::vector<double> scores_;
  std::vector<std::vector<PartStats>> parts_;
  std::map<std::string, int> mistakes_;
  double max_score_ = 0;
};


// feedback/<student>.json and each line of feedback.jsonl: the marks of
// every cell, as one line of JSON (no newline at the end), appended to out.
void append_feedback_json(std::string& out, const GradedSubmission& graded);

// feedback/<student>.md: the same for the student to read. Reference
// answers are shown only when `reveal` is true.
std::string feedback_markdown(const Rubric& rubric, const GradedSubmission& graded, bool reveal);

// summary.md: class statistics, per-part success, mistakes, problem submissions.
std::string summary_markdown(const Rubric& rubric, const ClassSummary& summary);

// The gradebook's header line, and one submission's line (CRLF-terminated)
// appended to out.
std::string gradebook_header(const Rubric& rubric);
void append_gradebook_row(std::string& out, const Rubric& rubric, const GradedSubmission& graded);

// Mean and median of the marked scores (0 when none).
double mean(const std::vector<double>& values);
double median(std::vector<double> values);

// The self-check table for a terminal. Reference answers only with `reveal`.
std::string check_table(const Rubric& rubric, const GradedSubmission& graded, bool reveal);

// A score for people: at most 2 decimals, no trailing zeros ("4.33", "5").
std::string score_text(double score);

}  // namespace attnmark
