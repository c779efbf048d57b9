// lesson/fingerprint.h: a variant's answers, and a student's, as one number,
// to find answers copied from a classmate: right cell for cell, at the
// precision asked, for another student's variant and wrong for one's own.
//
//   std::uint64_t key = key_fingerprint(make_variant(rubric, seed, "s01"));
//   std::optional<std::uint64_t> given = answer_fingerprint(own_variant, grade(own_variant, submission));
//   if (given && *given == key) flag("fits-variant-of:s01");
//
// A fingerprint hashes the asked parts' cells, each written as the key
// writes it: a number rounded to the decimals asked ("0.665"), "masked", or
// a token's name. Equal fingerprints mean equal answers (FNV-1a, 64 bits:
// a chance collision in a class of 100,000 is about one in 10^9).
#pragma once

#include <cstdint>
#include <optional>

#include "lesson/grader.h"
#include "lesson/variant.h"

namespace attnmark {

// The fingerprint of `variant`'s key.
std::uint64_t key_fingerprint(const Variant& variant);

// The fingerprint of what a student wrote, read as `marked` (graded against
// `variant`, which gives the decimals asked); none when a cell is blank or
// unreadable, or the cells are not the key's shape.
std::optional<std::uint64_t> answer_fingerprint(const Variant& variant, const Marked& marked);

}  // namespace attnmark
