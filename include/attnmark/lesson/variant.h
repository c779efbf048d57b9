// attnmark/lesson/variant.h: one student's variant of a rubric, with exact answers.
//
// A variant is fixed by one 64-bit id, a keyed MAC of the student id under a
// key derived from the seed (variant_id). Every number is drawn with PCG32 and computed with
// attention.h, so the same rubric, seed and student give the same bytes on
// every platform.
//
//   Variant v = make_variant(rubric, 2026, "s001");
//   v.questions[0].weights[0][0];  // unrounded reference weight
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/lesson/matrix.h"
#include "attnmark/lesson/rubric.h"

namespace attnmark {

// Stamped on every output. Bump it when any generated number could change.
inline constexpr const char* generator_version = "attnmark-gen/2";

// One question as the student sees it, with its unrounded answers.
struct QuestionVariant {
  const QuestionSpec* spec = nullptr;  // not owned: the rubric outlives the variant
  std::vector<std::string> tokens;
  std::optional<std::size_t> query_token;  // 0-based; one-token tasks only
  double scale = 1;                        // the divisor applied to every score

  // Given to the student. Without projections: queries (one row for a
  // one-token task), keys, values. With projections: embeddings and tables.
  Matrix embeddings, w_q, w_k, w_v;
  Matrix queries, keys, values;  // computed (and asked) with projections

  // The answers, unrounded. A row per query; masked scores are masked_score.
  Matrix scores, weights, output;
  std::vector<std::size_t> most_attended;  // token index per query row

  // The token index each query row belongs to.
  std::vector<std::size_t> query_rows() const;
};

// A rubric made concrete for one student.
struct Variant {
  std::string rubric;   // the rubric's name
  std::string student;  // may be empty
  std::uint64_t seed = 0;
  std::uint64_t id = 0;
  std::vector<QuestionVariant> questions;

  std::string id_text() const;  // 16 lower-case hex digits
};

// The rounds of PBKDF2-HMAC-SHA256 that derive a seed's class key. Chosen so
// that deriving one costs some 20-40 ms (once per seed and process) while
// trying every twelve-digit seed against a known id costs 10^12 times that
// (docs/commands.md#seeds-students-and-variants).
inline constexpr unsigned variant_key_iterations = 100000;

// The variant id of a student: the first 8 bytes (big-endian) of
// HMAC-SHA256(class key, "attnmark variant\0" + student), where the class key
// is PBKDF2-HMAC-SHA256(the seed in decimal, salt "attnmark variant key",
// variant_key_iterations rounds, 32 bytes). An id gives away neither the seed
// nor any other student's id: finding the seed means trying seeds one by one
// at the cost of a derivation each. The class key is derived once per seed
// and kept for the process (thread-safe; a few hundred seeds at most).
// Stable for ever: changing it changes every student's numbers.
std::uint64_t variant_id(std::uint64_t seed, std::string_view student);

// Parses 16 hex digits (as id_text() writes) into a variant id.
std::optional<std::uint64_t> parse_variant_id(std::string_view text);

// Draws and solves every question. Throws Error when a question's constraints
// cannot be met within its max_draws.
// REQUIRES: rubric is valid (as the loader returns it) and outlives the result.
Variant make_variant(const Rubric& rubric, std::uint64_t seed, std::string_view student);

// The same from a known variant id (as recorded in an answer file).
Variant make_variant_with_id(const Rubric& rubric, std::uint64_t seed,
                             std::uint64_t id, std::string_view student);

// The same into `out`, reusing its storage: for making one variant after
// another (a marker's thread), without allocating each time.
//   Variant v;
//   for (const std::string& s : students) { make_variant_into(rubric, seed, variant_id(seed, s), s, v); use(v); }
void make_variant_into(const Rubric& rubric, std::uint64_t seed, std::uint64_t id, std::string_view student,
                       Variant& out);

// A variant points into its rubric, so a temporary rubric is refused.
Variant make_variant(const Rubric&& rubric, std::uint64_t seed, std::string_view student) = delete;
Variant make_variant_with_id(const Rubric&& rubric, std::uint64_t seed, std::uint64_t id,
                             std::string_view student) = delete;
void make_variant_into(const Rubric&& rubric, std::uint64_t seed, std::uint64_t id, std::string_view student,
                       Variant& out) = delete;

}  // namespace attnmark
