// writers/class_report.h: the class at a glance as plain data, and its two
// layouts, summary.md and summary.html, so the two never say different
// things. The marking layer gathers a ClassReport (marking/summary.h); this
// file only lays it out.
//
//   ClassReport report = class_report(rubric, summary);   // marking/summary.h
//   write_file("out/summary.md", summary_markdown(report));
//   write_file("out/summary.html", summary_html(report, style));
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "writers/theme.h"

namespace attnmark {

// One submission as the class report lists it.
struct ReportRow {
  std::string source, student, name;
  SubmissionStatus status = SubmissionStatus::graded;
  std::string reason;     // at most max_reason_cell_bytes (bounded_reason)
  std::string file_stem;  // its feedback files' name under feedback/, or empty when it has none
  std::optional<double> score;
};

// Everything summary.md and summary.html say, in the order they say it.
struct ClassReport {
  std::string title;                                         // the rubric's display title
  std::size_t submissions = 0;                               // rows, less the roster's missing students
  std::vector<std::pair<SubmissionStatus, int>> tally;       // each status but missing that some row has, in status order
  std::string roster_note;                                   // "Roster: 30 students, ..."; empty without a roster
  double max_score = 0;

  // The figures of the marked scores (duplicates left out); absent when
  // nothing was marked, and then so are the distribution, parts and mistakes.
  struct Figures {
    std::size_t marked = 0;
    double mean = 0, median = 0, lowest = 0, highest = 0;
  };
  std::optional<Figures> figures;
  std::array<int, 10> bins{};  // marked scores in each tenth of max_score (score_bin)

  // How the class did on one part, in rubric order.
  struct PartLine {
    std::string question, part;  // "q1", "weights" (part_label)
    int marked = 0, full = 0;    // submissions marked on it; with full marks
    double mean = 0, marks = 0;  // the mean score of those marked; the part's marks
  };
  std::vector<PartLine> parts;

  // A named mistake some student made, in catalogue order.
  struct MistakeLine {
    std::string code, explanation;
    int students = 0;
    std::string who;  // "Ada Lovelace, s002 and 3 more", printable
  };
  std::vector<MistakeLine> mistakes;

  std::vector<std::string> notices;  // notes on the inputs, printable lines
  std::size_t notices_left_off = 0;
  std::vector<std::string> flagged;  // "s27 (fixtures/...): fits-variant-of:s01"

  // Every submission's row, in the gradebook's order; summary.html's rows
  // of rows[0, rows_html_count) are rows_html, rendered while judging.
  std::span<const ReportRow> rows;
  std::string_view rows_html;
  std::size_t rows_html_count = 0;
};

// summary.md: figures, distribution, parts, mistakes, notes, flags and the
// submissions that need the teacher.
std::string summary_markdown(const ClassReport& report);

// summary.html: the same as a page that prints, with a histogram of scores
// and a row per submission (linked to its feedback page when it has one).
// The rows not yet rendered are written on up to `jobs` threads; the page is
// the same whatever their number.
std::string summary_html(const ClassReport& report, const HtmlStyle& style, unsigned jobs = 1);

// summary.html's row of one submission, appended to out.
void append_report_row_html(std::string& out, const ReportRow& row, double max_score);

}  // namespace attnmark
