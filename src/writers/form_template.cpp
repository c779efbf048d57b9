#include "writers/form_template.h"

#include <fmt/format.h>

#include "writers/answer_template.h"
#include "writers/csv_writer.h"

namespace attnmark {
namespace {

// What a row of the part's table is: a token for keys and values, else a query.
const char* row_word(Part part) { return part == Part::keys || part == Part::values ? "token" : "query"; }

// What a column of the part's table is: a key for scores and weights, else a dimension.
const char* column_word(Part part) { return part == Part::scores || part == Part::weights ? "key" : "dimension"; }

}  // namespace

std::vector<FormQuestion> form_questions(const Rubric& rubric) {
  std::vector<FormQuestion> out = {{"Student ID", "student"}};
  for (std::size_t number = 1; number <= rubric.questions.size(); ++number) {
    const QuestionSpec& spec = rubric.questions[number - 1];
    for (const Part p : spec.ask) {
      const AnswerShape shape = answer_shape(spec, p);
      const std::string head = fmt::format("Question {} {}", number, part_label(p));
      const std::string cell = spec.id + "." + part_name(p);
      if (p == Part::most_attended && shape.vector) {
        out.push_back({head, cell});
      } else if (p == Part::most_attended) {  // a word per query, one list
        for (std::size_t r = 1; r <= shape.rows; ++r)
          out.push_back({fmt::format("{}: query {}", head, r), fmt::format("{}.{}", cell, r)});
      } else if (shape.vector) {
        for (std::size_t c = 1; c <= shape.cols; ++c)
          out.push_back({fmt::format("{}: {} {}", head, column_word(p), c), fmt::format("{}.{}", cell, c)});
      } else {
        for (std::size_t r = 1; r <= shape.rows; ++r)
          for (std::size_t c = 1; c <= shape.cols; ++c)
            out.push_back({fmt::format("{}: {} {} {} {}", head, row_word(p), r, column_word(p), c),
                           fmt::format("{}.{}.{}", cell, r, c)});
      }
    }
  }
  return out;
}

std::string render_form_template(const Rubric& rubric) {
  std::string out = "title,cell\r\n";
  for (const FormQuestion& q : form_questions(rubric)) {
    append_csv_field(out, q.title);
    out += ',';
    append_csv_field(out, q.cell);
    out += "\r\n";
  }
  return out;
}

}  // namespace attnmark
