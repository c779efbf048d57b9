// cli/check.h: check ANSWERS, check RUBRIC ANSWERS, or check [RUBRIC]
// --answers ANSWERS: a student's self-check.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace attnmark {

struct CheckOptions {
  std::vector<std::string> files;   // FILES: the answer file, or the rubric file and then it
  std::string answers;              // --answers (then FILES holds the rubric at most)
  std::optional<std::string> seed;  // --seed (parse_seed), if the answer file records none
  bool reveal = false;              // --reveal: show the right answers too
};

void declare_check(CLI::App& sub, CheckOptions& options);
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace attnmark
