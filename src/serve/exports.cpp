#include "serve/exports.h"

#include "marking/report_set.h"
#include "marking/summary.h"
#include "writers/gradebook.h"
#include "writers/lms_export.h"

namespace attnmark {

std::string exported_gradebook(const Classroom& room, const std::vector<GradedSubmission>& rows) {
  std::string csv = gradebook_header(room.rubric());
  for (const GradedSubmission& g : rows) append_gradebook_row(csv, room.rubric(), g);
  return csv;
}

std::string exported_lms(const Classroom& room, const std::vector<GradedSubmission>& rows, Lms lms) {
  std::vector<LmsRow> lms_rows;
  lms_rows.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) lms_rows.push_back(lms_row(room.rubric(), rows[i], &room.roster()[i]));
  const std::string& title = display_title(room.rubric());
  return lms == Lms::canvas ? canvas_csv(lms_rows, title, "", max_score(room.rubric())) : moodle_csv(lms_rows, title);
}

std::string exported_summary(const Classroom& room, const std::vector<GradedSubmission>& rows, const HtmlStyle& style) {
  ClassSummary summary(room.rubric());
  for (const GradedSubmission& g : rows) summary.add(g);
  return summary_html(room.rubric(), summary, style);
}

}  // namespace attnmark
