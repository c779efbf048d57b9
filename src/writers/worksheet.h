// attnmark/worksheet.h: a variant written out for people and for tools.
//
//   Variant v = make_variant(rubric, 2026, "s001");
//   std::string md   = render_markdown(rubric, v, Sheet::worksheet);
//   std::string key  = render_markdown(rubric, v, Sheet::key);     // worked steps
//   std::string json = render_json(v, Sheet::key);         // unrounded answers
//   std::string yaml = render_answer_template(rubric, v);          // blanks to fill in
#pragma once

#include <string>

#include "lesson/rubric.h"
#include "lesson/variant.h"

namespace attnmark {

// Which document to write: the student's worksheet, or the teacher's key.
enum class Sheet { worksheet, key };

// Markdown laid out like the lesson's tables. The worksheet has blank cells;
// the key fills them with every worked step (products, e^score, total,
// weights, weight × value, sum).
std::string render_markdown(const Rubric& rubric, const Variant& variant, Sheet sheet);

// One JSON object (see README, "Shapes"). The key adds `answers`, unrounded;
// a masked score is null.
std::string render_json(const Variant& variant, Sheet sheet);

// The same object on one line, without spacing (a line of JSON lines).
//   render_json_line(v, Sheet::key);  // {"rubric":"lesson","student":"s001",...}\n
std::string render_json_line(const Variant& variant, Sheet sheet);

// The blank answer file (YAML): every asked cell is ~.
std::string render_answer_template(const Rubric& rubric, const Variant& variant);

}  // namespace attnmark
