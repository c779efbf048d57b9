#include "attnmark/lesson/diagnosis.h"

#include <algorithm>
#include <cmath>

#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/tolerance.h"

namespace attnmark {
namespace {

const std::vector<Mistake> catalogue = {
    {"hard-attention",
     "Attention takes a share of every token's value, not only the best match: softmax gives every token a "
     "weight, and the weights add up to 1."},
    {"mask-ignored",
     "With a causal mask a token sees only itself and the tokens before it: later scores are masked and their "
     "weights are exactly 0."},
    {"mask-after-softmax",
     "Mask before softmax: a masked score is −∞, so its e^score is 0 and the other weights are divided by their "
     "own total; setting a weight to 0 after softmax leaves a row that no longer adds up to 1."},
    {"missing-scale", "Divide every score by the scale before softmax, as real models do."},
    {"extra-scale", "Divide the scores by the scale once, and only when the question asks for a scale."},
    {"wrong-query", "Each score uses the query of the token that is asking; these numbers use another token's query."},
    {"transposed-scores",
     "Row i, column j of the scores is query i times key j (Q·Kᵀ); these numbers are key i times query j."},
    {"no-exp",
     "Softmax takes e to the power of each score before dividing by the total; dividing the scores themselves "
     "skips that step."},
    {"no-normalise", "After taking e to the power of each score, divide each one by the total so the weights add up to 1."},
    {"wrong-exp-base", "Softmax uses e (about 2.718, the exp button on a calculator) as the base, not 10 or 2."},
    {"softmax-columns",
     "Softmax runs along each row (one query's scores), so each row of weights adds up to 1, not each column."},
    {"mixed-keys", "The output mixes the value vectors, not the keys: multiply each token's value by its weight."},
    {"rounded-early",
     "Rounding too early (e^score or the weights to too few decimals) changes the answer; keep more decimals until the "
     "last step."},
    {"weights-not-normalised", "The weights of each query must add up to 1; these do not."},
};

// Softmax with another base: base^s / Σ base^s, masked entries 0.
Matrix softmax_base(const Matrix& scores, double base) {
  const double ln_base = std::log(base);
  Matrix scaled = scores;
  for (Vector& row : scaled)
    for (double& s : row)
      if (s != masked_score) s *= ln_base;
  return softmax_rows(scaled);
}

// Scores divided by their row total, as if there were no e^.
Matrix divide_by_total(const Matrix& scores) {
  Matrix out = scores;
  for (Vector& row : out) {
    double total = 0;
    for (double s : row)
      if (s != masked_score) total += s;
    for (double& s : row) s = s == masked_score ? 0.0 : (total == 0 ? NAN : s / total);
  }
  return out;
}

Matrix powers(const Matrix& scores, int round_decimals) {
  Matrix out = scores;
  for (Vector& row : out)
    for (double& s : row) {
      s = s == masked_score ? 0.0 : portable_exp(s);
      if (round_decimals >= 0) s = round_to(s, round_decimals);
    }
  return out;
}

Matrix normalise_rows(Matrix m) {
  for (Vector& row : m) {
    double total = 0;
    for (double x : row) total += x;
    for (double& x : row) x = total == 0 ? NAN : x / total;
  }
  return m;
}

Matrix one_hot(const Matrix& weights) {
  Matrix out = weights;
  const std::vector<std::size_t> top = most_attended(weights);
  for (std::size_t r = 0; r < out.size(); ++r)
    for (std::size_t j = 0; j < out[r].size(); ++j) out[r][j] = j == top[r] ? 1.0 : 0.0;
  return out;
}

Matrix round_all(Matrix m, int decimals) {
  for (Vector& row : m)
    for (double& x : row) x = round_to(x, decimals);
  return m;
}

Matrix divide(Matrix m, double by) {
  for (Vector& row : m)
    for (double& x : row)
      if (x != masked_score) x /= by;
  return m;
}

bool same(const Matrix& a, const Matrix& b) {
  for (std::size_t r = 0; r < a.size(); ++r)
    for (std::size_t j = 0; j < a[r].size(); ++j)
      if (!(a[r][j] == b[r][j]) && std::fabs(a[r][j] - b[r][j]) > 1e-9) return false;
  return true;
}

bool finite(const Matrix& m) {
  for (const Vector& row : m)
    for (double x : row)
      if (std::isnan(x) || x == INFINITY) return false;
  return true;
}

// Score-stage mistakes: each gives the scores a student would write.
std::vector<MistakenAnswer> score_mistakes(const QuestionVariant& q) {
  const QuestionSpec& spec = *q.spec;
  std::vector<MistakenAnswer> out;
  const Matrix dots = attention_scores(q.queries, q.keys, 1.0, spec.mask, q.query_rows());
  if (q.scale != 1) {
    out.push_back({"missing-scale", dots});
    out.push_back({"extra-scale", divide(dots, q.scale * q.scale)});
  } else if (spec.d_k > 1) {
    out.push_back({"extra-scale", divide(dots, std::sqrt(static_cast<double>(spec.d_k)))});
  }
  if (spec.mask == Mask::causal)
    out.push_back({"mask-ignored", attention_scores(q.queries, q.keys, q.scale, Mask::none, q.query_rows())});
  if (spec.task == Task::all_tokens) {
    // K·Qᵀ, with the mask where it belongs.
    Matrix transposed = attention_scores(q.keys, q.queries, q.scale, spec.mask, q.query_rows());
    out.push_back({"transposed-scores", transposed});
    // One row scored with another token's query.
    Matrix query(1), row;
    std::vector<std::size_t> token(1);
    for (std::size_t r = 0; r < q.tokens.size(); ++r)
      for (std::size_t other = 0; other < q.tokens.size(); ++other) {
        if (other == r) continue;
        query[0] = q.queries[other];
        token[0] = r;
        attention_scores_into(query, q.keys, q.scale, spec.mask, token, row);
        out.push_back({"wrong-query", q.scores});
        out.back().numbers[r] = row[0];
      }
  } else if (spec.projections) {
    // The asking token's query taken from another token's embedding.
    const Matrix all_queries = multiply(q.embeddings, q.w_q);
    for (std::size_t other = 0; other < q.tokens.size(); ++other) {
      if (other == *q.query_token) continue;
      out.push_back({"wrong-query", attention_scores({all_queries[other]}, q.keys, q.scale, spec.mask, q.query_rows())});
    }
  }
  return out;
}

// Weight-stage mistakes made on the given scores.
std::vector<MistakenAnswer> weight_mistakes(const QuestionVariant& q, const Matrix& scores) {
  std::vector<MistakenAnswer> out;
  out.reserve(8);
  const Matrix e = powers(scores, -1);
  out.push_back({"hard-attention", one_hot(softmax_rows(scores))});
  out.push_back({"no-exp", divide_by_total(scores)});
  out.push_back({"no-normalise", e});
  out.push_back({"wrong-exp-base", softmax_base(scores, 10)});
  out.push_back({"wrong-exp-base", softmax_base(scores, 2)});
  if (q.spec->task == Task::all_tokens) {
    Matrix columns = e;
    for (std::size_t j = 0; j < e.size(); ++j) {
      double total = 0;
      for (std::size_t r = 0; r < e.size(); ++r) total += e[r][j];
      for (std::size_t r = 0; r < e.size(); ++r) columns[r][j] = e[r][j] / total;
    }
    out.push_back({"softmax-columns", columns});
  }
  if (q.spec->mask == Mask::causal) {
    // Softmax over every score, masked keys scored too, then their weights set to 0.
    const Matrix unmasked = attention_scores(q.queries, q.keys, q.scale, Mask::none, q.query_rows());
    Matrix all = scores;
    for (std::size_t r = 0; r < all.size(); ++r)
      for (std::size_t j = 0; j < all[r].size(); ++j)
        if (all[r][j] == masked_score) all[r][j] = unmasked[r][j];
    Matrix after = softmax_rows(all);
    for (std::size_t r = 0; r < after.size(); ++r)
      for (std::size_t j = 0; j < after[r].size(); ++j)
        if (q.scores[r][j] == masked_score) after[r][j] = 0;
    out.push_back({"mask-after-softmax", std::move(after)});
  }
  out.push_back({"rounded-early", normalise_rows(powers(scores, 1))});
  out.push_back({"rounded-early", normalise_rows(powers(scores, 0))});
  return out;
}

// True when some row of weights, every cell of it a number, has a total off
// 1 by more than the decimals written explain (half a unit of the last
// decimal of each cell).
bool some_row_not_adding_up(const QuestionVariant& q, const std::vector<CellReading>& written) {
  const std::size_t n = q.tokens.size();
  for (std::size_t r = 0; r * n < written.size(); ++r) {
    double total = 0, slack = rounding_slack;
    bool complete = true;
    for (std::size_t c = 0; c < n; ++c) {
      const CellReading& cell = written[r * n + c];
      if (cell.kind != CellReading::Kind::value) {
        complete = false;
        break;
      }
      total += cell.value;
      slack += cell.decimals >= 0 ? 0.5 * decimal_unit(cell.decimals) : 0.0;
    }
    if (complete && std::fabs(total - 1) > slack) return true;
  }
  return false;
}

}  // namespace

const std::vector<Mistake>& mistakes() { return catalogue; }

bool row_by_row(std::string_view code) { return code != "softmax-columns" && code != "transposed-scores"; }

std::string_view explain(std::string_view code) {
  for (const Mistake& m : catalogue)
    if (m.code == code) return m.explanation;
  return {};
}

std::vector<MistakenAnswer> mistaken_answers(const QuestionVariant& q, Part part, const Matrix& scores,
                                             const Matrix& weights, bool upstream) {
  std::vector<MistakenAnswer> out;
  std::vector<MistakenAnswer> from_scores =
      part == Part::scores || upstream ? score_mistakes(q) : std::vector<MistakenAnswer>();
  switch (part) {
    case Part::query:
      // The asking token's query worked from another token's embedding:
      // the multiplication right, the row wrong.
      if (q.spec->projections && q.query_token) {
        const Matrix all_queries = multiply(q.embeddings, q.w_q);
        for (std::size_t other = 0; other < all_queries.size(); ++other)
          if (other != *q.query_token) out.push_back({"wrong-query", {all_queries[other]}});
      }
      break;
    case Part::scores: out = std::move(from_scores); break;
    case Part::weights:
      for (const MistakenAnswer& m : from_scores) out.push_back({m.code, softmax_rows(m.numbers)});
      for (MistakenAnswer& m : weight_mistakes(q, scores)) out.push_back(std::move(m));
      break;
    case Part::output: {
      for (const MistakenAnswer& m : from_scores) out.push_back({m.code, mix_values(softmax_rows(m.numbers), q.values)});
      if (upstream)
        for (const MistakenAnswer& m : weight_mistakes(q, scores))
          if (finite(m.numbers)) out.push_back({m.code, mix_values(m.numbers, q.values)});
      if (q.spec->d_k == q.spec->d_v) out.push_back({"mixed-keys", mix_values(weights, q.keys)});
      for (int d : {1, 2})
        if (d < q.spec->decimals(Part::weights))
          out.push_back({"rounded-early", mix_values(round_all(weights, d), q.values)});
      break;
    }
    default: break;
  }
  // Keep only those that are numbers and differ from the right answer.
  const Matrix& right = part == Part::query    ? q.queries
                        : part == Part::scores  ? q.scores
                        : part == Part::weights ? q.weights
                                                : q.output;
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const MistakenAnswer& m) { return !finite(m.numbers) || same(m.numbers, right); }),
            out.end());
  return out;
}

std::vector<std::string> diagnoses(const QuestionVariant& q, Part part, const std::vector<std::string>& reproduced,
                                   const std::vector<CellReading>& written) {
  std::vector<std::string_view> codes(reproduced.begin(), reproduced.end());
  if (codes.empty() && part == Part::weights && some_row_not_adding_up(q, written)) codes.push_back("weights-not-normalised");
  std::vector<std::string> out;
  for (const Mistake& m : catalogue)
    if (std::find(codes.begin(), codes.end(), m.code) != codes.end()) out.emplace_back(m.code);
  return out;
}

}  // namespace attnmark
