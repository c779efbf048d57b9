// readers/rubric_loader.h: reads and validates exercise definitions (YAML).
//
// The format is documented in docs/rubric-format.md. Every mistake is an
// Error naming file:line:column, the field, what was wrong and what is
// allowed; unknown and duplicate keys are mistakes too.
//
//   Rubric r = load_rubric("questions:\n  - task: one-token\n ...", "x.yaml");
//   Rubric r = load_rubric_file("rubrics/lesson.yaml");
#pragma once

#include <string>
#include <string_view>

#include "attnmark/lesson/rubric.h"

namespace attnmark {

// Parses and validates one rubric. file_name is used in errors, and its stem
// is the rubric's name unless the rubric gives `name:`.
Rubric load_rubric(std::string_view text, const std::string& file_name);

// Reads the file, then load_rubric. Throws Error when it cannot be read.
Rubric load_rubric_file(const std::string& path);

}  // namespace attnmark
