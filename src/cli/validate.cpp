// attnmark validate RUBRIC...: checks exercise definitions.
#include <fmt/format.h>
#include <ostream>

#include "base/error.h"
#include "cli/commands.h"
#include "lesson/variant.h"
#include "readers/rubric_loader.h"

namespace attnmark {

int run_validate(const Options& options, std::ostream& out, std::ostream& err) {
  if (options.rubrics.empty()) throw Error("validate: expected one or more rubric files");
  int status = 0;
  for (const std::string& path : options.rubrics) {
    try {
      const Rubric rubric = load_rubric_file(path);
      // Draw a few variants so impossible constraints show now, not in class.
      const std::uint64_t seed = rubric.seed.value_or(0);
      for (int i = 0; i < 20; ++i) make_variant(rubric, seed, fmt::format("validate-{}", i));
      out << fmt::format("{}: ok ({} question{})\n", path, rubric.questions.size(),
                         rubric.questions.size() == 1 ? "" : "s");
    } catch (const Error& e) {
      err << e.report() << "\n";
      status = 2;
    }
  }
  return status;
}

}  // namespace attnmark
