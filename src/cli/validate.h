// cli/validate.h: validate RUBRIC... [--self-test [--seeds N]].
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace attnmark {

struct ValidateOptions {
  std::vector<std::string> rubrics;  // RUBRIC...
  bool self_test = false;            // --self-test: mark every known mistake on many variants
  std::optional<std::string> seeds;  // --seeds: how many variants (1 to 1000; default 40)
};

void declare_validate(CLI::App& sub, ValidateOptions& options);
int run_validate(const ValidateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace attnmark
