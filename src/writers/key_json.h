// writers/key_json.h: a worksheet or key as JSON, for tools (see docs/reports.md,
// "Shapes other tools rely on").
//
//   std::string json = render_json(v, Sheet::key);       // unrounded answers
//   render_json_line(v, Sheet::key);  // {"rubric":"lesson","student":"s001",...}\n
#pragma once

#include <string>

#include "attnmark/lesson/variant.h"
#include "writers/sheet_document.h"

namespace attnmark {

// One JSON object, indented, with a newline at the end. The key adds
// `answers`, unrounded; a masked score is null.
std::string render_json(const Variant& variant, Sheet sheet);

// The same object on one line, without spacing (a line of JSON lines).
std::string render_json_line(const Variant& variant, Sheet sheet);

}  // namespace attnmark
