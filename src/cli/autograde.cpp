// attnmark autograde PLATFORM RUBRIC: one submission marked as the autograder
// of Gradescope or PrairieLearn.
#include <ostream>

#include "base/error.h"
#include "cli/commands.h"

namespace attnmark {

int run_autograde(const Options& options, std::ostream&, std::ostream&) {
  throw Error("autograde " + options.platform + ": not available yet");
}

}  // namespace attnmark
