// The names of a form's answer cells (lesson/rubric.h), made and parsed in one place.
#include "support/test_support.h"

using attnmark::AnswerField;
using attnmark::answer_field_name;
using attnmark::parse_answer_field;

TEST_CASE("an answer cell's field name is question.part.row.column, 1-based, and parses back") {
  CHECK(answer_field_name("q2", "weights", 0, 2) == "q2.weights.1.3");
  CHECK(answer_field_name("attn-2", "most_attended", 1, 0) == "attn-2.most_attended.2.1");
  for (const std::string question : {"q1", "attn-2", "Q_3", ""})
    for (const std::string part : {"scores", "most_attended", "most-attended", "nonsense", ""})
      for (std::size_t row = 0; row < attnmark::max_answer_field_index; row += 33)
        for (std::size_t column = 0; column < attnmark::max_answer_field_index; column += 49) {
          const std::string name = answer_field_name(question, part, row, column);
          INFO(name);
          const std::optional<AnswerField> field = parse_answer_field(name);
          REQUIRE(field);
          CHECK(*field == AnswerField{question, part, row, column});
        }
  CHECK(*parse_answer_field("q1.scores.100.100") == AnswerField{"q1", "scores", 99, 99});
  CHECK(*parse_answer_field("q1.scores.007.01") == AnswerField{"q1", "scores", 6, 0});  // leading zeros
}

TEST_CASE("a field name that is not an answer cell does not parse") {
  for (const std::string name : {"", "csrf", "q1", "q1.scores", "q1.scores.1", "q1.scores.1.2.3", "q1.scores.0.1",
                                 "q1.scores.1.0", "q1.scores.101.1", "q1.scores.1.101", "q1.scores.+1.1",
                                 "q1.scores.-1.1", "q1.scores. 1.1", "q1.scores.1.1 ", "q1.scores.1.x", "q1.scores..1",
                                 "q1.scores.1.", "q1.scores.99999999999999999999999.1", "q1.scores.1.0x1"}) {
    INFO(name);
    CHECK_FALSE(parse_answer_field(name));
  }
}
