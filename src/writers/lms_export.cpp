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

// Text for a cell: one printable line, formulas neutralised.
std::string text(const std::string& value) { return csv_text_field(printable(value, 4000)); }

}  // namespace

std::string canvas_csv(const std::vector<LmsRow>& rows, const std::string& assignment, const std::string& assignment_id,
                       double points_possible) {
  const std::string column = assignment_id.empty() ? assignment : assignment + " (" + assignment_id + ")";
  std::string out = "Student,ID,SIS User ID,SIS Login ID,Section," + text(column) + "\r\n";
  out += "Points Possible,,,,," + score_text(points_possible) + "\r\n";
  for (const LmsRow& row : rows) {
    out += text(row.name) + ',' + text(field_of(row, "id")) + ',' + text(row.student) + ',' +
           text(field_of(row, "sis login id")) + ',' + text(field_of(row, "section")) + ',';
    if (row.score) out += score_text(*row.score);
    out += "\r\n";
  }
  return out;
}

std::string moodle_csv(const std::vector<LmsRow>& rows, const std::string& assignment) {
  // Moodle matches students by one column the teacher maps: email when the
  // roster has it (every Moodle user has one), else the id as "ID number".
  bool emails = !rows.empty();
  for (const LmsRow& row : rows) emails = emails && (!field_of(row, "email").empty() || !field_of(row, "email address").empty());
  std::string out = emails ? "Email address" : "ID number";
  out += ",Full name," + text("Assignment: " + assignment) + ',' + text("Feedback: " + assignment) + "\r\n";
  for (const LmsRow& row : rows) {
    std::string email = field_of(row, "email");
    if (email.empty()) email = field_of(row, "email address");
    out += text(emails ? email : row.student) + ',' + text(row.name) + ',';
    if (row.score) out += score_text(*row.score);
    out += ',' + text(row.feedback) + "\r\n";
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
