#include "attnmark/lesson/attention.h"

#include "attnmark/lesson/numbers.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>

namespace attnmark {

double portable_exp(double x) {
  // fdlibm e_exp.c: x = k·ln2 + r with |r| ≤ ln2/2, e^r from a rational
  // approximation, then scaled by 2^k (ldexp is exact).
  constexpr double ln2_hi = 6.93147180369123816490e-01;  // trailing zeros: k·ln2_hi is exact
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  constexpr double inv_ln2 = 1.44269504088896338700e+00;
  constexpr double p1 = 1.66666666666666019037e-01;
  constexpr double p2 = -2.77777777770155933842e-03;
  constexpr double p3 = 6.61375632143793436117e-05;
  constexpr double p4 = -1.65339022054652515390e-06;
  constexpr double p5 = 4.13813679705723846039e-08;
  if (std::isnan(x)) return x;
  if (x > 709.782712893383973096) return std::numeric_limits<double>::infinity();
  if (x < -745.13321910194110842) return 0.0;
  if (x == 0.0) return 1.0;
  const double k = std::floor(x * inv_ln2 + 0.5);
  const double hi = x - k * ln2_hi;
  const double lo = k * ln2_lo;
  const double r = hi - lo;
  const double t = r * r;
  const double c = r - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))));
  if (k == 0) return 1.0 - ((r * c) / (c - 2.0) - r);
  const double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  // y·2^k: a multiplication by an exact power of two is exact while the
  // result stays normal, as it does for every |k| < 1000 (y is near 1).
  if (k > -1000 && k < 1000) return y * std::bit_cast<double>(static_cast<std::uint64_t>(1023 + static_cast<int>(k)) << 52);
  return std::ldexp(y, static_cast<int>(k));
}

void reshape(Matrix& m, std::size_t rows, std::size_t cols) {
  m.resize(rows);
  for (Vector& row : m) row.resize(cols);
}

void multiply_into(const Matrix& a, const Matrix& b, Matrix& out) {
  const std::size_t cols = b.empty() ? 0 : b[0].size();
  reshape(out, a.size(), cols);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      double sum = 0;
      for (std::size_t k = 0; k < b.size(); ++k) sum += a[i][k] * b[k][j];
      out[i][j] = sum;
    }
}

Matrix multiply(const Matrix& a, const Matrix& b) {
  Matrix out;
  multiply_into(a, b, out);
  return out;
}

void attention_scores_into(const Matrix& queries, const Matrix& keys, double scale, Mask mask,
                           const std::vector<std::size_t>& query_tokens, Matrix& out) {
  reshape(out, queries.size(), keys.size());
  for (std::size_t r = 0; r < queries.size(); ++r)
    for (std::size_t j = 0; j < keys.size(); ++j) {
      if (mask == Mask::causal && j > query_tokens[r]) {
        out[r][j] = masked_score;
        continue;
      }
      double dot = 0;
      for (std::size_t k = 0; k < keys[j].size(); ++k) dot += queries[r][k] * keys[j][k];
      out[r][j] = scale == 1.0 ? dot : dot / scale;
    }
}

Matrix attention_scores(const Matrix& queries, const Matrix& keys, double scale,
                        Mask mask, const std::vector<std::size_t>& query_tokens) {
  Matrix out;
  attention_scores_into(queries, keys, scale, mask, query_tokens, out);
  return out;
}

void softmax_into(const Vector& scores, Vector& out) {
  double top = masked_score;
  for (double s : scores) top = std::max(top, s);
  out.resize(scores.size());
  double total = 0;
  for (std::size_t j = 0; j < out.size(); ++j) {
    out[j] = scores[j] == masked_score ? 0.0 : portable_exp(scores[j] - top);
    total += out[j];
  }
  for (double& p : out) p /= total;
}

double softmax_shift(std::span<const double> scores) {
  double top = masked_score;
  for (double s : scores) top = std::max(top, s);
  if (top == masked_score) return 0;
  return top >= -4 && top <= 20 ? 0 : top;
}

bool trivial_weights(const Vector& weights, const Vector& scores, int decimals) {
  std::size_t open = 0, ones = 0, zeros = 0;
  double first = 0;
  bool equal = true;
  for (std::size_t j = 0; j < weights.size(); ++j) {
    if (scores[j] == masked_score) continue;
    const double w = round_to(weights[j], decimals);
    if (open++ == 0) first = w;
    equal = equal && w == first;
    ones += w == 1;
    zeros += w == 0;
  }
  return open > 1 && (equal || (ones == 1 && zeros + 1 == open));
}

void softmax_rows_into(const Matrix& scores, Matrix& out) {
  out.resize(scores.size());
  for (std::size_t r = 0; r < scores.size(); ++r) softmax_into(scores[r], out[r]);
}

Matrix softmax_rows(const Matrix& scores) {
  Matrix out;
  softmax_rows_into(scores, out);
  return out;
}

Matrix mix_values(const Matrix& weights, const Matrix& values) {
  return multiply(weights, values);
}

void most_attended_into(const Matrix& weights, std::vector<std::size_t>& out) {
  out.clear();
  for (const Vector& row : weights) {
    std::size_t best = 0;
    for (std::size_t j = 1; j < row.size(); ++j)
      if (row[j] > row[best]) best = j;
    out.push_back(best);
  }
}

std::vector<std::size_t> most_attended(const Matrix& weights) {
  std::vector<std::size_t> out;
  most_attended_into(weights, out);
  return out;
}

}  // namespace attnmark
