// report_html.h: the class summary and each student's feedback as HTML pages.
//
//   ClassSummary summary(rubric);
//   for (const GradedSubmission& g : rows) summary.add(g);
//   write_file(dir + "/summary.html", summary_html(rubric, summary, style));
//   write_file(dir + "/feedback/" + g.file_stem + ".html", feedback_html(rubric, g, rubric.reveal_in_feedback, style));
//
// Self-contained like the worksheets (inline CSS and SVG, no script, nothing
// fetched). Everything that came from a submission or a roster (ids, names,
// answer text, reasons, sources) is HTML-escaped.
#pragma once

#include <string>

#include "lesson/rubric.h"
#include "writers/reports.h"
#include "writers/theme.h"

namespace attnmark {

// summary.html: counts by status, mean/median/lowest/highest, a histogram
// of scores (inline SVG, 10 bins of tenths of the maximum, the last holding
// full marks), per-part success as bars, each mistake's count with its
// explanation, and every submission with score and status, linked to
// feedback/<file_stem>.html.
std::string summary_html(const Rubric& rubric, const ClassSummary& summary, const HtmlStyle& style);

// feedback/<file_stem>.html: the student's answers beside the verdict of
// each cell, follow-through, the mistakes found and hints. Reference answers
// only when `reveal`.
std::string feedback_html(const Rubric& rubric, const GradedSubmission& graded, bool reveal, const HtmlStyle& style);

// The histogram's bin (0..9) of a score: tenths of max_score, full marks in
// the last bin. The same bins as summary.md.
int score_bin(double score, double max_score);

}  // namespace attnmark
