// writers/answer_template.h: the blank answer file (YAML) a student fills in.
//
//   std::string yaml = render_answer_template(rubric, v);  // every asked cell is ~
#pragma once

#include <string>

#include "lesson/rubric.h"
#include "lesson/variant.h"

namespace attnmark {

// The blank answer file: the header that names rubric, student, seed and
// variant, then every asked cell as ~. REQUIRES: variant was made from rubric.
std::string render_answer_template(const Rubric& rubric, const Variant& variant);

}  // namespace attnmark
