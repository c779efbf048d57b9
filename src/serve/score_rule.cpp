#include "serve/score_rule.h"

#include <fmt/format.h>

#include "attnmark/base/error.h"
#include "base/text.h"

namespace attnmark {

ScoreRule parse_score_rule(const std::string& text) {
  if (text == "best") return ScoreRule::best;
  if (text == "last") return ScoreRule::last;
  throw Error(fmt::format("--score: expected best or last; got {}", quoted_printable(text)));
}

bool counts_over(const AttemptRecord& later, const AttemptRecord& earlier, ScoreRule rule) {
  return rule == ScoreRule::last || later.score > earlier.score;
}

}  // namespace attnmark
