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
  append_csv_text_field(out, g.student);
  out += ',';
  append_csv_text_field(out, printable(g.name, 200));
  out += ',';
  append_csv_text_field(out, g.variant);
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
  append_csv_text_field(out, printable(g.source, std::string::npos));
  out += ',';
  append_csv_text_field(out, bounded_reason(g.reason, max_reason_cell_bytes));
  out += ',';
}

void append_gradebook_flags(std::string& out, const std::vector<std::string>& flags) {
  std::string joined;
  for (const std::string& flag : flags) joined += (joined.empty() ? "" : " ") + flag;
  append_csv_text_field(out, printable(joined, 1000));
  out += "\r\n";
}

void append_gradebook_row(std::string& out, const Rubric& rubric, const GradedSubmission& g) {
  append_gradebook_cells(out, rubric, g);
  append_gradebook_flags(out, g.flags);
}
}  // namespace attnmark
