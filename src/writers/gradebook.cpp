#include "writers/gradebook.h"

#include "base/text.h"
#include "writers/csv_writer.h"
#include "writers/report_words.h"

namespace attnmark {

std::string gradebook_header(const Rubric& rubric) {
  std::string out = "student,name,variant,status,score,max_score";
  for (const QuestionSpec& q : rubric.questions) {
    out += ',';
    out += csv_field(q.id);
  }
  out += ",source,reason,flags\r\n";
  return out;
}

void append_gradebook_cells(std::string& out, const Rubric& rubric, const GradedSubmission& g) {
  out += csv_text_field(g.student);
  out += ',';
  out += csv_text_field(printable(g.name, 200));
  out += ',';
  out += csv_text_field(g.variant);
  out += ',';
  out += status_name(g.status);
  out += ',';
  if (g.marked) out += score_text(g.marked->score);
  out += ',';
  out += score_text(max_score(rubric));
  for (std::size_t i = 0; i < rubric.questions.size(); ++i) {
    out += ',';
    if (g.marked) out += score_text(g.marked->questions[i].score);
  }
  out += ',';
  out += csv_text_field(printable(g.source, std::string::npos));
  out += ',';
  out += csv_text_field(bounded_reason(g.reason, max_reason_cell_bytes));
  out += ',';
}

void append_gradebook_flags(std::string& out, const std::vector<std::string>& flags) {
  std::string joined;
  for (const std::string& flag : flags) joined += (joined.empty() ? "" : " ") + flag;
  out += csv_text_field(printable(joined, 1000));
  out += "\r\n";
}

void append_gradebook_row(std::string& out, const Rubric& rubric, const GradedSubmission& g) {
  append_gradebook_cells(out, rubric, g);
  append_gradebook_flags(out, g.flags);
}
}  // namespace attnmark
