// serve/score_rule.h: which of a student's attempts counts (--score), the
// one rule the gradebook, the reports of mark --db and the teacher's page
// follow.
//
//   const AttemptRecord* chosen = nullptr;
//   for (const AttemptRecord& a : attempts)   // oldest first
//     if (!chosen || counts_over(a, *chosen, rule)) chosen = &a;
#pragma once

#include <string>

#include "serve/store.h"

namespace attnmark {

// Which attempt of a student the gradebook takes (--score).
enum class ScoreRule { best, last };
ScoreRule parse_score_rule(const std::string& text);  // throws Error ("--score: expected best or last; got 'x'")

// Whether `later` counts instead of `earlier`, an attempt of the same student
// stored before it: by `last`, always; by `best`, when its score is higher
// (of equal scores the earliest counts).
bool counts_over(const AttemptRecord& later, const AttemptRecord& earlier, ScoreRule rule);

}  // namespace attnmark
