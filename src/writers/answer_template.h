// writers/answer_template.h: the blank answer file (YAML) a student fills in.
//
//   std::string yaml = render_answer_template(rubric, v);  // every asked cell is ~
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {

// The cells a part is answered in, as the answer file lays them out: `rows`
// rows of `cols` cells; `vector` when they are written as one flat list (a
// one-token question's row).
struct AnswerShape {
  std::size_t rows = 0;
  std::size_t cols = 0;
  bool vector = false;
};
// The same of every variant of a question: a variant has the question's
// token count, and a query token exactly when the task is one-token.
AnswerShape answer_shape(const QuestionSpec& question, Part part);
AnswerShape answer_shape(const QuestionVariant& question, Part part);

// A double-quoted string that reads back as exactly `text` both in YAML and
// in Python: never a number, boolean, comment, list or map, never folded.
// Quotes and backslashes are escaped, and so is every character that a
// double-quoted scalar may not hold as it is or would fold (controls, line
// and paragraph separators, bidirectional controls, U+FEFF, U+FFFE,
// U+FFFF), as \uHHHH. A byte that is not UTF-8 becomes \xHH (U+00HH): only
// a teacher's own rubric can hold one, as student ids are checked.
//   double_quoted("a\"b") == "\"a\\\"b\""
std::string double_quoted(std::string_view text);

// The blank answer file: the header that names rubric, student, seed and
// variant, then every asked cell as ~. Without `record_seed` (a served
// class's: with the rubric, the seed makes every classmate's key) the seed
// line is left out, and the variant alone says which numbers are the
// student's. REQUIRES: variant was made from rubric.
std::string render_answer_template(const Rubric& rubric, const Variant& variant, bool record_seed = true);

}  // namespace attnmark
