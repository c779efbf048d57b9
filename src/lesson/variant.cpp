#include "attnmark/lesson/variant.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <string>

#include "attnmark/base/error.h"
#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/pcg32.h"
#include "base/crypto.h"

namespace attnmark {
namespace {

// The class key of a seed (variant_id), derived once per seed and process.
// The lock is held while deriving, so threads asking for the same new seed
// derive it once. At most `kept` seeds are kept: more are only a test's loop,
// which then derives again.
Digest class_key(std::uint64_t seed) {
  static std::mutex lock;
  static std::map<std::uint64_t, Digest> keys;
  constexpr std::size_t kept = 256;
  const std::lock_guard<std::mutex> held(lock);
  if (const auto found = keys.find(seed); found != keys.end()) return found->second;
  if (keys.size() >= kept) keys.erase(keys.begin());
  const Digest key = pbkdf2_hmac_sha256(std::to_string(seed), "attnmark variant key", variant_key_iterations);
  keys.emplace(seed, key);
  return key;
}

// Fills `out` with a rows × cols table from the input: its fixed values, or
// one draw per cell in row-major order.
void draw(const InputSpec& input, std::size_t rows, std::size_t cols, Pcg32& rng, Matrix& out) {
  if (!input.random) {
    out = input.fixed;
    return;
  }
  reshape(out, rows, cols);
  for (Vector& row : out)
    for (double& cell : row) {
      const std::uint32_t index = rng.below(static_cast<std::uint32_t>(input.grid.count()));
      cell = input.grid.value(index);
    }
}

// Why a drawn question is unfair, or empty when it is fine. Looks at the
// scores, weights and most attended tokens only (the output is not needed).
// With `explain` false, a failure is "x" rather than a sentence: most draws
// fail a constraint, and only the last failure is ever reported.
std::string broken_constraint(const QuestionSpec& spec, const QuestionVariant& q, bool explain) {
  const Constraints& c = spec.constraints;
  if (c.max_abs_score) {
    for (const Vector& row : q.scores)
      for (double s : row)
        if (s != masked_score && std::fabs(s) > *c.max_abs_score)
          return explain ? fmt::format("a score of {} is beyond max_abs_score {}", format_exact(s),
                                       format_exact(*c.max_abs_score))
                         : "x";
  }
  const int decimals = spec.decimals(Part::weights);
  const bool unique_top =
      c.unique_top_weight ||
      std::find(spec.ask.begin(), spec.ask.end(), Part::most_attended) != spec.ask.end();
  if (!unique_top && !c.distinct_weights) return {};
  // Each weight as the student writes it: two show alike when these are equal.
  std::array<double, max_tokens> shown;
  for (std::size_t r = 0; r < q.weights.size(); ++r) {
    const Vector& row = q.weights[r];
    const std::size_t token = q.query_token ? *q.query_token : r;
    for (std::size_t j = 0; j < row.size(); ++j) shown[j] = round_to(row[j], decimals);
    if (unique_top) {
      const double top = shown[q.most_attended[r]];
      for (std::size_t j = 0; j < row.size(); ++j)
        if (j != q.most_attended[r] && shown[j] == top)
          return explain ? fmt::format("the query of '{}' has no single largest weight at {} decimals",
                                       q.tokens[token], decimals)
                         : "x";
    }
    if (c.distinct_weights) {
      for (std::size_t i = 0; i < row.size(); ++i)
        for (std::size_t j = i + 1; j < row.size(); ++j)
          if (q.scores[r][i] != masked_score && q.scores[r][j] != masked_score && shown[i] == shown[j])
            return explain ? fmt::format("two weights of the query of '{}' are both {} at {} decimals",
                                         q.tokens[token], format_fixed(row[i], decimals), decimals)
                           : "x";
    }
  }
  return {};
}

// One draw of a question into q: tokens, asking token, inputs and scores
// (weights, most attended tokens and output are left to the caller, for
// draws that may pass the constraints). q's storage is reused from draw to draw,
// and so is the scratch's.
struct DrawScratch {
  std::vector<std::uint32_t> bank;  // the word bank's indices, shuffled
  std::vector<std::size_t> rows;    // the token of each query row
};
void draw_question(const QuestionSpec& spec, Pcg32& rng, QuestionVariant& q, DrawScratch& scratch) {
  q.spec = &spec;
  if (spec.tokens.from_bank) {
    // Partial Fisher–Yates over the bank's indices: `count` distinct words in drawn order.
    std::vector<std::uint32_t>& bank = scratch.bank;
    const auto words = static_cast<std::uint32_t>(spec.tokens.words.size());
    bank.resize(words);
    for (std::uint32_t i = 0; i < words; ++i) bank[i] = i;
    for (int i = 0; i < spec.tokens.count; ++i) {
      const std::uint32_t left = words - static_cast<std::uint32_t>(i);
      const std::size_t j = static_cast<std::size_t>(i) + rng.below(left);
      std::swap(bank[static_cast<std::size_t>(i)], bank[j]);
    }
    q.tokens.resize(static_cast<std::size_t>(spec.tokens.count));
    for (std::size_t i = 0; i < q.tokens.size(); ++i) q.tokens[i] = spec.tokens.words[bank[i]];
  } else {
    q.tokens = spec.tokens.words;
  }
  const std::size_t n = q.tokens.size();
  q.query_token.reset();
  if (spec.task == Task::one_token) {
    switch (spec.query_token.kind) {
      case QueryTokenSpec::Kind::random:
        q.query_token = rng.below(static_cast<std::uint32_t>(n));
        break;
      case QueryTokenSpec::Kind::position:
        q.query_token = static_cast<std::size_t>(spec.query_token.position - 1);
        break;
      case QueryTokenSpec::Kind::word:
        for (std::size_t i = 0; i < n; ++i)
          if (q.tokens[i] == spec.query_token.word) q.query_token = i;
        break;
    }
  }
  switch (spec.scale.kind) {
    case ScaleSpec::Kind::none: q.scale = 1; break;
    case ScaleSpec::Kind::sqrt_dk: q.scale = std::sqrt(static_cast<double>(spec.d_k)); break;
    case ScaleSpec::Kind::number: q.scale = spec.scale.number; break;
  }
  const auto dk = static_cast<std::size_t>(spec.d_k);
  const auto dv = static_cast<std::size_t>(spec.d_v);
  if (spec.projections) {
    const auto dm = static_cast<std::size_t>(spec.d_model);
    draw(spec.embeddings, n, dm, rng, q.embeddings);
    draw(spec.w_q, dm, dk, rng, q.w_q);
    draw(spec.w_k, dm, dk, rng, q.w_k);
    draw(spec.w_v, dm, dv, rng, q.w_v);
    multiply_into(q.embeddings, q.w_k, q.keys);
    multiply_into(q.embeddings, q.w_v, q.values);
    if (spec.task == Task::one_token) q.queries = Matrix{multiply(q.embeddings, q.w_q)[*q.query_token]};
    else multiply_into(q.embeddings, q.w_q, q.queries);
  } else {
    for (Matrix* unused : {&q.embeddings, &q.w_q, &q.w_k, &q.w_v}) unused->clear();  // (q may be reused)
    if (spec.task == Task::one_token) draw(spec.query, 1, dk, rng, q.queries);
    else draw(spec.queries, n, dk, rng, q.queries);
    draw(spec.keys, n, dk, rng, q.keys);
    draw(spec.values, n, dv, rng, q.values);
  }
  std::vector<std::size_t>& rows = scratch.rows;
  rows.resize(q.queries.size());
  for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = q.query_token ? *q.query_token : r;
  attention_scores_into(q.queries, q.keys, q.scale, spec.mask, rows, q.scores);
}

// True when the scores alone break a constraint: one is beyond
// max_abs_score, or two in a row are equal where the weights must differ
// (distinct weights), or tie for the top (a single most attended token).
// Equal scores give equal weights, so broken_constraint would fail the draw
// too; this only spares computing its weights.
bool scores_break_constraint(const QuestionSpec& spec, const QuestionVariant& q) {
  const Constraints& c = spec.constraints;
  const bool unique_top =
      c.unique_top_weight || std::find(spec.ask.begin(), spec.ask.end(), Part::most_attended) != spec.ask.end();
  for (const Vector& row : q.scores) {
    double top = masked_score;
    for (double s : row) {
      if (s != masked_score && c.max_abs_score && std::fabs(s) > *c.max_abs_score) return true;
      top = std::max(top, s);
    }
    for (std::size_t i = 0; i < row.size(); ++i)
      for (std::size_t j = i + 1; j < row.size(); ++j)
        if (row[i] != masked_score && row[i] == row[j] && (c.distinct_weights || (unique_top && row[i] == top)))
          return true;
  }
  return false;
}

}  // namespace

std::vector<std::size_t> QuestionVariant::query_rows() const {
  if (query_token) return {*query_token};
  std::vector<std::size_t> rows(tokens.size());
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
  return rows;
}

std::string Variant::id_text() const { return fmt::format("{:016x}", id); }

std::uint64_t variant_id(std::uint64_t seed, std::string_view student) {
  std::string message = "attnmark variant";
  message += '\0';
  message += student;
  // The last seed this thread asked for, so a class's marking takes no lock.
  thread_local std::uint64_t last_seed = 0;
  thread_local std::optional<Digest> last_key;
  if (!last_key || last_seed != seed) {
    last_key = class_key(seed);
    last_seed = seed;
  }
  const Digest& key = *last_key;
  const Digest mac = hmac_sha256(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()), message);
  std::uint64_t id = 0;
  for (int i = 0; i < 8; ++i) id = id << 8 | mac[static_cast<std::size_t>(i)];
  return id;
}

std::optional<std::uint64_t> parse_variant_id(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t id = 0;
  for (char c : text) {
    int digit;
    if (c >= '0' && c <= '9') digit = c - '0';
    else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    else return std::nullopt;
    id = id << 4 | static_cast<std::uint64_t>(digit);
  }
  return id;
}

Variant make_variant(const Rubric& rubric, std::uint64_t seed, std::string_view student) {
  return make_variant_with_id(rubric, seed, variant_id(seed, student), student);
}

Variant make_variant_with_id(const Rubric& rubric, std::uint64_t seed, std::uint64_t id,
                             std::string_view student) {
  Variant v;
  make_variant_into(rubric, seed, id, student, v);
  return v;
}

void make_variant_into(const Rubric& rubric, std::uint64_t seed, std::uint64_t id, std::string_view student,
                       Variant& v) {
  v.rubric = rubric.name;
  v.student = student;
  v.seed = seed;
  v.id = id;
  v.questions.resize(rubric.questions.size());
  DrawScratch scratch;
  for (std::size_t i = 0; i < rubric.questions.size(); ++i) {
    const QuestionSpec& spec = rubric.questions[i];
    // Each question has its own stream, so adding a question leaves the
    // numbers of the others as they were.
    Pcg32 rng(id, i);
    const int draws = spec.fixed() ? 1 : spec.constraints.max_draws;
    std::string why;
    QuestionVariant& q = v.questions[i];
    for (int attempt = 0; attempt < draws; ++attempt) {
      draw_question(spec, rng, q, scratch);
      const bool last = attempt + 1 == draws;
      if (!last && scores_break_constraint(spec, q)) continue;
      softmax_rows_into(q.scores, q.weights);
      most_attended_into(q.weights, q.most_attended);
      why = broken_constraint(spec, q, last);
      if (why.empty()) {
        multiply_into(q.weights, q.values, q.output);
        break;
      }
    }
    if (!why.empty()) {
      const std::string message =
          spec.fixed()
              ? fmt::format("{}: the given inputs break a constraint: {}", spec.id, why)
              : fmt::format("{}: no fair variant in {} draws (variant {:016x}); the last failed "
                            "because {}; widen the grids or relax the constraints",
                            spec.id, draws, id, why);
      throw Error(spec.place.file, spec.place.line, spec.place.column, message);
    }
  }
}

}  // namespace attnmark
