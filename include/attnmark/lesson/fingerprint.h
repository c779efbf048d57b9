// attnmark/lesson/fingerprint.h: a variant's answers, and a student's, as one number,
// to find answers copied from a classmate: right cell for cell, at the
// precision asked, for another student's variant and wrong for one's own.
//
//   std::uint64_t key = key_fingerprint(make_variant(rubric, seed, "s01"));
//   std::optional<std::uint64_t> given = answer_fingerprint(rubric, grade(own_variant, submission));
//   if (given && *given == key) flag("fits-variant-of:s01");
//
// A fingerprint hashes the asked parts' cells, each as the key has it at the
// precision asked: a number in units of the last decimal asked (0.665 at 3
// decimals is 665), a masked score, or a token's name. Equal fingerprints
// mean equal answers (FNV-1a, 64 bits: a chance collision in a class of
// 100,000 is about one in 10^9).
#pragma once

#include <cstdint>
#include <optional>

#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {

// The fingerprint of `variant`'s key.
std::uint64_t key_fingerprint(const Variant& variant);

// The fingerprint of what a student wrote, read as `marked` (graded against
// a variant of `rubric`, which gives the decimals asked); none when a cell
// is blank or unreadable, or the parts are not the rubric's.
std::optional<std::uint64_t> answer_fingerprint(const Rubric& rubric, const Marked& marked);

// True when every student's variant of `rubric` has the same numbers (its
// inputs are given, as the lesson's are): no one can copy another's key.
bool same_for_everyone(const Rubric& rubric);

}  // namespace attnmark
