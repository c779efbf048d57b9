// marking/judge.h: one submission judged; a variant the caller made already
// is marked against instead of being made again, only when it is the one
// the submission is for.
#include "support/test_support.h"

#include "marking/judge.h"
#include "writers/feedback.h"

using namespace attnmark;

namespace {

std::string feedback_of(const GradedSubmission& g) {
  std::string out;
  append_feedback_json(out, g);
  return out;
}

}  // namespace

TEST_CASE("judge: a variant made by the caller gives the same marks as one judge makes, and another's is not used") {
  const Rubric rubric = shipped("class-demo");
  const Variant own = make_variant(rubric, 2026, "s01");
  Submission s = from_key(own);
  s.student = "s01";
  s.source = "s01.yaml";
  const GradedSubmission plain = judge(rubric, 2026, s, "");
  REQUIRE(plain.marked);
  CHECK(plain.marked->score == plain.marked->max_score);
  CHECK(feedback_of(judge(rubric, 2026, s, "", nullptr, &own)) == feedback_of(plain));
  // Another student's variant, or one of another seed, is not the one s01's
  // answers are for: judge makes s01's own.
  const Variant other = make_variant(rubric, 2026, "s02");
  CHECK(feedback_of(judge(rubric, 2026, s, "", nullptr, &other)) == feedback_of(plain));
  const Variant other_seed = make_variant(rubric, 7, "s01");
  CHECK(feedback_of(judge(rubric, 2026, s, "", nullptr, &other_seed)) == feedback_of(plain));
}
