// Fingerprints (lesson/fingerprint.h): answers copied from a classmate are
// found cell for cell at the precision asked; one's own answers, or a rubric
// whose numbers are the same for everyone, find no one.
#include "support/test_support.h"

#include "attnmark/lesson/fingerprint.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/self_test.h"
#include "attnmark/lesson/variant.h"

using namespace attnmark;

TEST_CASE("a classmate's key, written by another student, has the classmate's fingerprint and not the student's") {
  const Rubric rubric = shipped("all-tokens");
  const Variant ada = make_variant(rubric, 1, "ada"), bob = make_variant(rubric, 1, "bob");
  REQUIRE(key_fingerprint(ada) != key_fingerprint(bob));
  // Bob hands in Ada's key: marked against his own variant, it fits hers.
  Submission copied = key_answers(ada);
  copied.student = "bob";
  const Marked marked = grade(bob, copied);
  CHECK(marked.score < marked.max_score);
  CHECK(answer_fingerprint(rubric, marked) == key_fingerprint(ada));
  // More decimals than asked are the same answers at the precision asked.
  for (auto& [question, parts] : copied.answers)
    for (auto& [part, answer] : parts)
      for (auto& row : answer.rows)
        for (std::string& cell : row)
          if (cell.find('.') != std::string::npos) cell += "4";
  CHECK(answer_fingerprint(rubric, grade(bob, copied)) == key_fingerprint(ada));
  // His own key is his; a blank cell gives no fingerprint.
  const Marked own = grade(bob, key_answers(bob));
  CHECK(answer_fingerprint(rubric, own) == key_fingerprint(bob));
  Submission blank = key_answers(bob);
  blank.answers.begin()->second.begin()->second.rows[0][0] = "";
  CHECK_FALSE(answer_fingerprint(rubric, grade(bob, blank)));
}

TEST_CASE("the lesson's numbers are the same for every student, and so is every key's fingerprint") {
  const Rubric rubric = shipped("lesson");
  CHECK(key_fingerprint(make_variant(rubric, 2026, "s001")) == key_fingerprint(make_variant(rubric, 2026, "s002")));
  CHECK(same_for_everyone(rubric));
  CHECK_FALSE(same_for_everyone(shipped("all-tokens")));
}
