// attnmark/lesson/self_test.h: a rubric checked the way the grader's own tests check
// the shipped ones, for teachers (`attnmark validate --self-test`): every
// mistake the grader knows, made on many students' variants, must be named
// by exactly its own code with the later steps credited in full, and the
// right answers in every spelling students use must get full marks; the
// mistakes are made in every spelling too.
//
//   SelfTest t = self_test(rubric, 2026, 40);
//   if (!t.fair()) ...   // t.parts[i].wrongly_named, t.unfair_spellings
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/submission.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {

// What became of the mistakes made at one step of one question.
struct SelfTestPart {
  std::string question;  // "q1"
  Part part = Part::scores;
  // Per mistake code: how many times it was made (in each spelling; some
  // codes have several forms, e.g. rounding to 1 or to 0 decimals), and how
  // many of those were named exactly, with the later steps credited in full.
  std::map<std::string, std::pair<int, int>> named;
  // Pairs of codes that give the same numbers (to the decimals asked) on
  // some variants, so no marker can tell them apart there: how many.
  std::map<std::pair<std::string, std::string>, int> alike;
  // "no-exp on s7: named wrong-base", "no-exp on s7: output lost marks".
  std::vector<std::string> wrongly_named;
};

struct SelfTest {
  int variants = 0;
  std::vector<SelfTestPart> parts;
  int spellings = 0;  // spellings of the right answers tried on each variant
  // "s3, decimal commas: q1.weights 1 / 2" for each right answer that lost marks.
  std::vector<std::string> unfair_spellings;
  // The rules of follow-through and most attended, tried on every variant:
  // an honest slip in a row of scores carries to that row's weights and
  // output in full; a row of equal scores, with its weights and output
  // worked from it, carries nothing; the right most attended token written
  // in quotes, with a full stop or with its weight gets full marks.
  int rule_cases = 0;                    // cases tried
  std::vector<std::string> unfair_rules; // "self-test-3, q1: an honest slip in scores row 1 lost marks in weights (1.33 / 2)"
  // True when every mistake was named exactly with the later steps in full,
  // every right spelling got full marks, and every rule case held.
  bool fair() const;
};

// The whole key as a careful student writes it: every asked part rounded as
// asked ("masked" for a masked score), the most attended tokens by name.
//   grade(v, key_answers(v)).score == grade(v, key_answers(v)).max_score
Submission key_answers(const Variant& variant);

// Runs the self-test on `variants` students ("self-test-1", ...) of `seed`.
// Pure: no I/O. Throws Error when the rubric's constraints cannot be met.
// REQUIRES: rubric is valid (as the loader returns it).
SelfTest self_test(const Rubric& rubric, std::uint64_t seed, int variants);

}  // namespace attnmark
