// marking/summary.h: the class at a glance, gathered one submission at a time
// (ClassSummary), so a large class never has to be held in memory whole, and
// made into the report that summary.md and summary.html lay out
// (writers/class_report.h).
//
//   ClassSummary summary(rubric);
//   for (const GradedSubmission& g : graded) summary.add(g);
//   write_file("out/summary.md", summary_markdown(class_report(rubric, summary)));
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"
#include "writers/class_report.h"
#include "writers/theme.h"

namespace attnmark {

// Everything the class summary needs, gathered one submission at a time,
// so a large class never has to be held in memory whole.
class ClassSummary {
 public:
  // One submission as the summary lists it.
  using Row = ReportRow;
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
  // To name the feedback files. REQUIRES: rows already rendered
  // (render_rows_html) are not changed.
  std::vector<Row>& rows() { return rows_; }
  // Writes summary.html's row of each submission added since the last call,
  // so that a judging thread, not the end of the run, does it; summary_html
  // takes them as written. append() keeps them when every row before was
  // rendered.
  void render_rows_html();
  const std::string& rows_html() const { return rows_html_; }  // of rows()[0, rows_html_count())
  std::size_t rows_html_count() const { return rows_html_count_; }
  const std::vector<double>& scores() const { return scores_; }  // marked, not duplicates
  const PartStats& part(std::size_t question, std::size_t part) const { return parts_[question][part]; }
  // Number of students with each mistake code.
  const std::map<std::string, int>& mistakes() const { return mistakes_; }
  // Who made each mistake: the first 50 students ("Lovelace, Ada (s001)", or the id alone),
  // in input order; mistakes() has how many in all.
  const std::map<std::string, std::vector<std::string>>& mistake_students() const { return mistake_students_; }
  // A line on the roster for the top of the summaries ("Roster: 30 students,
  // 2 missing. ..."); empty without one.
  void set_roster_note(std::string note) { roster_note_ = std::move(note); }
  // Flags rows()[row] for the teacher (after it was added without them),
  // as add() does a submission that carries flags.
  void flag(std::size_t row, const std::vector<std::string>& flags);
  // Flagged submissions for the teacher, one line each ("s27 (fixtures/...): fits-variant-of:s01"), the first 1,000.
  const std::vector<std::string>& flagged() const { return flagged_; }
  const std::string& roster_note() const { return roster_note_; }
  // Number of submissions with each status.
  const StatusTally& statuses() const { return statuses_; }
  // How many marked scores fall in each tenth of the maximum (score_bin).
  std::array<int, 10> bins() const;
  double max_score() const { return max_score_; }

  // A note on the inputs (a folder that could not be read, a file under
  // another student's name, a sheet's columns that are no cells), one
  // printable line. The first 1,000 are
  // kept and the rest counted, so junk cannot make the summary large.
  void add_notice(std::string text);
  const std::vector<std::string>& notices() const { return notices_; }
  std::size_t notices_left_off() const { return notices_left_off_; }

 private:
  std::vector<Row> rows_;
  std::string rows_html_;            // summary.html's rows of the first rows_html_count_ rows
  std::size_t rows_html_count_ = 0;
  std::vector<double> scores_;
  std::vector<std::vector<PartStats>> parts_;
  std::map<std::string, int> mistakes_;
  std::map<std::string, std::vector<std::string>> mistake_students_;
  std::string roster_note_;
  std::vector<std::string> flagged_;
  StatusTally statuses_{};
  double max_score_ = 0;
  std::vector<std::string> notices_;
  std::size_t notices_left_off_ = 0;
};


// The report of the class as summary.md and summary.html lay it out. It
// refers to summary's rows: REQUIRES summary outlives it, unchanged.
ClassReport class_report(const Rubric& rubric, const ClassSummary& summary);

// summary_markdown and summary_html (writers/class_report.h) of class_report(rubric, summary).
std::string summary_markdown(const Rubric& rubric, const ClassSummary& summary);
std::string summary_html(const Rubric& rubric, const ClassSummary& summary, const HtmlStyle& style, unsigned jobs = 1);

// The tenth of `max_score` that `score` falls in, 0 to 9; full marks are in
// the last. score_bin(1.6, 16) == 1; score_bin(16, 16) == 9.
int score_bin(double score, double max_score);

// Mean and median of the marked scores (0 when none).
double mean(const std::vector<double>& values);
double median(std::vector<double> values);

}  // namespace attnmark
