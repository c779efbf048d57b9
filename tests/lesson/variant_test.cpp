// The generator: reproducible, different per student, and fair by construction.
#include "support/test_support.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <set>

#include "attnmark/lesson/attention.h"
#include "attnmark/base/error.h"
#include "attnmark/lesson/numbers.h"
#include "readers/rubric_loader.h"
#include "attnmark/lesson/variant.h"
#include "base/crypto.h"
#include "writers/answer_template.h"
#include "writers/key_json.h"
#include "writers/markdown_writer.h"

using namespace attnmark;

namespace {
const char* const all_rubrics[] = {"lesson", "one-token", "all-tokens", "scaled-causal", "projections"};
}  // namespace

TEST_CASE("variant ids are stable for ever and differ per student") {
  CHECK(variant_id(2026, "s001") == 0xa9fc1491e1b448efULL);
  CHECK(variant_id(2026, "") == 0xb26d02fdeda863caULL);
  CHECK(variant_id(2026, "s002") != variant_id(2026, "s001"));
  CHECK(variant_id(2027, "s001") != variant_id(2026, "s001"));
  CHECK(parse_variant_id("a9fc1491e1b448ef") == 0xa9fc1491e1b448efULL);
  CHECK_FALSE(parse_variant_id("A9FC1491E1B448EF"));
  CHECK_FALSE(parse_variant_id("a9fc1491e1b448e"));
  CHECK_FALSE(parse_variant_id("a9fc1491e1b448ez"));
}

namespace {

// The ids of attnmark-gen/1, splitmix64(seed ^ splitmix64(fnv1a64(student))),
// and their inversion: what a student could do with one.
std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
std::uint64_t inverse_of_odd(std::uint64_t a) {  // a⁻¹ mod 2⁶⁴, by Newton's iteration
  std::uint64_t x = a;
  for (int i = 0; i < 6; ++i) x *= 2 - a * x;
  return x;
}
std::uint64_t unsplitmix64(std::uint64_t z) {
  z ^= (z >> 31) ^ (z >> 62);
  z *= inverse_of_odd(0x94d049bb133111ebULL);
  z ^= (z >> 27) ^ (z >> 54);
  z *= inverse_of_odd(0xbf58476d1ce4e5b9ULL);
  z ^= (z >> 30) ^ (z >> 60);
  return z - 0x9e3779b97f4a7c15ULL;
}
std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}
std::uint64_t old_variant_id(std::uint64_t seed, std::string_view student) {
  return splitmix64(seed ^ splitmix64(fnv1a64(student)));
}
std::uint64_t seed_from_old_id(std::uint64_t id, std::string_view student) {
  return unsplitmix64(id) ^ splitmix64(fnv1a64(student));
}

}  // namespace

TEST_CASE("a variant id is a keyed MAC: the seed does not follow from it, nor any classmate's id") {
  for (const std::uint64_t seed : {std::uint64_t{2026}, std::uint64_t{987654321012}}) {
    INFO(seed);
    // The old id gave the seed back at once; the id now does not.
    REQUIRE(seed_from_old_id(old_variant_id(seed, "s001"), "s001") == seed);
    const std::uint64_t id = variant_id(seed, "s001");
    CHECK(id != old_variant_id(seed, "s001"));
    CHECK(seed_from_old_id(id, "s001") != seed);
    // It is what docs/commands.md says: HMAC-SHA256 under the seed's PBKDF2 key, its first 8 bytes.
    const Digest key = pbkdf2_hmac_sha256(std::to_string(seed), "attnmark variant key", 100000);
    const Digest mac = hmac_sha256(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()),
                                   std::string_view("attnmark variant\0s001", 21));
    std::uint64_t expected = 0;
    for (int i = 0; i < 8; ++i) expected = expected << 8 | mac[static_cast<std::size_t>(i)];
    CHECK(id == expected);
  }
  CHECK(variant_key_iterations == 100000);
  // The numbers follow from the id alone: s001's id, given any student's
  // name, makes s001's numbers, never s002's, and s002's id differs from
  // s001's in a way that does not repeat from seed to seed.
  const Rubric rubric = shipped("class-demo");
  const Variant own = make_variant(rubric, 2026, "s001");
  const Variant other = make_variant(rubric, 2026, "s002");
  const Variant posing = make_variant_with_id(rubric, 2026, own.id, "s002");
  CHECK(render_json(posing, Sheet::key).find(format_exact(own.questions[1].output[0][0])) != std::string::npos);
  CHECK(posing.questions[1].scores == own.questions[1].scores);
  CHECK(posing.questions[1].scores != other.questions[1].scores);
  CHECK((variant_id(2026, "s001") ^ variant_id(2026, "s002")) != (variant_id(2027, "s001") ^ variant_id(2027, "s002")));
  CHECK(variant_id(2026, "s002") - variant_id(2026, "s001") != variant_id(2027, "s002") - variant_id(2027, "s001"));
}

TEST_CASE("the lesson rubric reproduces the lesson for every student") {
  const Rubric rubric = shipped("lesson");
  for (const char* student : {"s001", "s002", ""}) {
    const Variant v = make_variant(rubric, 2026, student);
    REQUIRE(v.questions.size() == 3);
    const QuestionVariant& q1 = v.questions[0];
    CHECK(q1.tokens == std::vector<std::string>{"bus", "is", "late"});
    CHECK(q1.query_token == 2u);
    CHECK(q1.scores == Matrix{{2, 0, 1}});
    CHECK(format_fixed(q1.weights[0][0], 3) == "0.665");
    CHECK(format_fixed(q1.weights[0][1], 3) == "0.090");
    CHECK(format_fixed(q1.weights[0][2], 3) == "0.245");
    CHECK(format_fixed(q1.output[0][0], 3) == "7.876");
    CHECK(format_fixed(q1.output[0][1], 3) == "2.124");
    CHECK(v.questions[1].scores == Matrix{{1, 2, 1}, {3, 2, 2}, {2, 0, 1}});
    CHECK(v.questions[2].tokens[v.questions[2].most_attended[0]] == "is");
  }
}

TEST_CASE("the same rubric, seed and student give the same variant, and other students get other numbers") {
  for (const char* name : {"one-token", "all-tokens", "scaled-causal", "projections"}) {
    const Rubric rubric = shipped(name);
    const Variant a = make_variant(rubric, 5, "alice");
    const Variant b = make_variant(rubric, 5, "alice");
    CHECK(render_json(a, Sheet::key) == render_json(b, Sheet::key));
    std::set<std::string> distinct;
    for (int i = 0; i < 20; ++i) {
      const Variant v = make_variant(rubric, 5, "student-" + std::to_string(i));
      std::string numbers;
      for (const QuestionVariant& q : v.questions) numbers += format_exact(q.output[0][0]) + ";" + format_exact(q.scores[0][0]);
      distinct.insert(numbers);
    }
    INFO(name);
    CHECK(distinct.size() >= 15);
  }
}

TEST_CASE("properties hold over many seeds for every shipped rubric") {
  for (const char* name : all_rubrics) {
    const Rubric rubric = shipped(name);
    for (std::uint64_t seed = 0; seed < 150; ++seed) {
      const Variant v = make_variant(rubric, seed, "s" + std::to_string(seed % 7));
      for (const QuestionVariant& q : v.questions) {
        const QuestionSpec& spec = *q.spec;
        INFO(name << " seed " << seed << " " << spec.id);
        const std::vector<std::size_t> rows = q.query_rows();
        // Tokens distinct.
        CHECK(std::set<std::string>(q.tokens.begin(), q.tokens.end()).size() == q.tokens.size());
        for (std::size_t r = 0; r < q.weights.size(); ++r) {
          double total = 0;
          for (std::size_t j = 0; j < q.weights[r].size(); ++j) {
            const double w = q.weights[r][j];
            REQUIRE(w >= 0.0);
            REQUIRE(w <= 1.0);
            total += w;
            // Masked weights are exactly 0; unmasked ones are positive.
            if (spec.mask == Mask::causal && j > rows[r]) {
              REQUIRE(q.scores[r][j] == masked_score);
              REQUIRE(w == 0.0);
            } else {
              REQUIRE(std::isfinite(q.scores[r][j]));
              if (spec.constraints.max_abs_score) REQUIRE(std::fabs(q.scores[r][j]) <= *spec.constraints.max_abs_score);
            }
          }
          REQUIRE(total == Approx(1.0).epsilon(0).margin(1e-12));
          // The output lies inside the range of the values it mixes, per column.
          for (std::size_t c = 0; c < q.output[r].size(); ++c) {
            double lo = INFINITY, hi = -INFINITY;
            for (std::size_t j = 0; j < q.values.size(); ++j)
              if (q.weights[r][j] > 0) {
                lo = std::min(lo, q.values[j][c]);
                hi = std::max(hi, q.values[j][c]);
              }
            REQUIRE(q.output[r][c] >= lo - 1e-9);
            REQUIRE(q.output[r][c] <= hi + 1e-9);
          }
          const int d = spec.decimals(Part::weights);
          if (spec.constraints.distinct_weights) {
            std::set<std::string> seen;
            for (std::size_t j = 0; j < q.weights[r].size(); ++j)
              if (q.scores[r][j] != masked_score) REQUIRE(seen.insert(format_fixed(q.weights[r][j], d)).second);
          }
          if (std::find(spec.ask.begin(), spec.ask.end(), Part::most_attended) != spec.ask.end()) {
            const std::string top = format_fixed(q.weights[r][q.most_attended[r]], d);
            for (std::size_t j = 0; j < q.weights[r].size(); ++j)
              if (j != q.most_attended[r]) REQUIRE(format_fixed(q.weights[r][j], d) != top);
          }
        }
      }
    }
  }
}

TEST_CASE("a constraint that cannot be met is a clear error, not a hang") {
  const std::string text =
      "questions:\n"
      "  - task: one-token\n"
      "    tokens: [a, b, c]\n"
      "    query_token: 1\n"
      "    d_k: 1\n"
      "    d_v: 1\n"
      "    inputs:\n"
      "      query: {min: 0, max: 0}\n"
      "      keys: {min: 0, max: 1}\n"
      "      values: {min: 0, max: 3}\n"
      "    ask: [weights]\n"
      "    constraints: {distinct_weights: true, max_draws: 50}\n";
  const Rubric rubric = load_rubric(text, "impossible.yaml");
  try {
    make_variant(rubric, 1, "s");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.line() == 2);
    CHECK(e.column() == 5);
    CHECK(e.message() ==
          "q1: no fair variant in 50 draws (variant " + fmt::format("{:016x}", variant_id(1, "s")) +
              "); the last failed because two weights of the query of 'a' are both 0.333 at 3 decimals; "
              "widen the grids or relax the constraints");
  }
}

TEST_CASE("fixed inputs that break a constraint are reported once") {
  const std::string text =
      "questions:\n"
      "  - task: one-token\n"
      "    tokens: [bus, is, late]\n"
      "    query_token: late\n"
      "    inputs: {query: [0, 1], keys: [[2, 1], [0, 2], [1, 1]], values: [[10, 0], [0, 10], [5, 5]]}\n"
      "    ask: [weights]\n"
      "    constraints: {distinct_weights: true}\n";
  const Rubric rubric = load_rubric(text, "fixed.yaml");
  try {
    make_variant(rubric, 1, "s");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.message() == "q1: the given inputs break a constraint: two weights of the query of 'late' are both 0.212 at 3 decimals");
  }
}

TEST_CASE("grid values are the doubles nearest their decimal spelling") {
  const std::string text =
      "questions:\n"
      "  - task: one-token\n"
      "    tokens: [a, b]\n"
      "    query_token: random\n"
      "    d_k: 1\n"
      "    d_v: 1\n"
      "    inputs: {query: {min: -1, max: 1, step: 0.1}, keys: [[1], [2]], values: [[1], [2]]}\n"
      "    ask: [scores]\n";
  const Rubric rubric = load_rubric(text, "g.yaml");
  for (int i = 0; i < 50; ++i) {
    const Variant v = make_variant(rubric, static_cast<std::uint64_t>(i), "x");
    const double x = v.questions[0].queries[0][0];
    CHECK(format_exact(x).size() <= 4);  // "-0.7", never "-0.7000000000000001"
  }
}
