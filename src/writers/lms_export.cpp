#include "writers/lms_export.h"

#include <fmt/format.h>

#include "base/text.h"
#include "writers/csv_writer.h"
#include "writers/report_words.h"

namespace attnmark {
namespace {

std::string field_of(const LmsRow& row, const char* key) {
  const auto it = row.fields.find(key);
  return it == row.fields.end() ? std::string() : it->second;
}

std::string email_of(const LmsRow& row) {
  const std::string email = field_of(row, "email");
  return email.empty() ? field_of(row, "email address") : email;
}

// Text for a cell: one printable line, formulas neutralised.
std::string text(const std::string& value) { return csv_text_field(printable(value, 4000)); }

}  // namespace

std::string canvas_csv(const std::vector<LmsRow>& rows, const std::string& assignment, const std::string& assignment_id,
                       double points_possible) {
  const std::string column = assignment_id.empty() ? assignment : assignment + " (" + assignment_id + ")";
  std::string out = "Student,ID,SIS User ID,SIS Login ID,Section," + text(column) + "\r\n";
  out += "Points Possible,,,,," + score_text(points_possible) + "\r\n";
  for (const LmsRow& row : rows) {
    if (!row.score) continue;
    out += text(row.name) + ',' + text(field_of(row, "id")) + ',' + text(row.student) + ',' +
           text(field_of(row, "sis login id")) + ',' + text(field_of(row, "section")) + ',' + score_text(*row.score) +
           "\r\n";
  }
  return out;
}

std::string moodle_csv(const std::vector<LmsRow>& rows, const std::string& assignment) {
  // Moodle finds each row's user by the one column mapped to a user field;
  // its form maps a column by itself when the header is that field's name.
  // Email when every row has one (every Moodle user has one), else the id as
  // the user's ID number. One such column only: with two, the form would
  // pick ID number first whatever the emails.
  bool emails = false;
  for (const LmsRow& row : rows)
    if (row.score) {
      emails = !email_of(row).empty();
      if (!emails) break;
    }
  // The form maps "<item> (Real)" to the grade item <item> and "<item>
  // (Feedback)" to its feedback (as Moodle's own export heads them).
  const std::string item = "Assignment: " + assignment;
  std::string out = emails ? "Email address" : "ID number";
  out += ",Full name," + text(item + " (Real)") + ',' + text(item + " (Feedback)") + "\r\n";
  for (const LmsRow& row : rows) {
    if (!row.score) continue;
    out += text(emails ? email_of(row) : row.student) + ',' + text(row.name) + ',' + score_text(*row.score) + ',' +
           text(row.feedback) + "\r\n";
  }
  return out;
}

std::string lms_feedback(const Rubric& rubric, const GradedSubmission& g) {
  if (!g.marked) return fmt::format("{}: {}", status_name(g.status), g.reason);
  std::string out = fmt::format("{} / {}.", score_text(g.marked->score), score_text(g.marked->max_score));
  std::string lost;
  for (std::size_t qi = 0; qi < g.marked->questions.size() && qi < rubric.questions.size(); ++qi) {
    const QuestionResult& q = g.marked->questions[qi];
    for (const PartResult& p : q.parts) {
      if (p.score >= p.max_score - 1e-9) continue;
      lost += fmt::format("{}{} {} {}/{}", lost.empty() ? " " : "; ", rubric.questions[qi].id, part_label(p.part),
                          score_text(p.score), score_text(p.max_score));
      for (std::size_t d = 0; d < p.diagnoses.size(); ++d) lost += (d ? ", " : ": ") + p.diagnoses[d];
    }
  }
  return lost.empty() ? out + " Full marks." : out + lost + ".";
}

}  // namespace attnmark
