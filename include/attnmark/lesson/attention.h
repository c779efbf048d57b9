// attnmark/lesson/attention.h: the lesson's arithmetic, the same on every platform.
//
// Every function uses only IEEE-754 +, −, ×, ÷ and sqrt in a fixed order
// (the build sets -ffp-contract=off), so results are bit-identical across
// compilers and standard libraries. That is why exp is our own.
//
//   Matrix s = attention_scores({{1, 0}}, keys, 1.0, Mask::none, {2});
//   Matrix w = softmax_rows(s);            // {{0.665.., 0.090.., 0.244..}}
//   Matrix o = mix_values(w, values);      // {{7.876.., 2.123..}}
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "attnmark/lesson/matrix.h"
#include "attnmark/lesson/rubric.h"

namespace attnmark {

// The score of a masked key: e^−∞ is exactly 0, so its weight is exactly 0.
inline constexpr double masked_score = -std::numeric_limits<double>::infinity();

// e^x, within 1 ulp, identical everywhere (fdlibm's method). exp(−∞) = 0.
double portable_exp(double x);

// A·B. REQUIRES: every row of a has b.size() entries.
Matrix multiply(const Matrix& a, const Matrix& b);

// Scores of each query against every key: (q·k) / scale.
// query_tokens[r] is the token index of query row r; with a causal mask the
// keys after it get masked_score.
// REQUIRES: queries.size() == query_tokens.size(); rows of equal length d_k.
Matrix attention_scores(const Matrix& queries, const Matrix& keys, double scale,
                        Mask mask, const std::vector<std::size_t>& query_tokens);

// Softmax of each row, stable: the row's maximum is subtracted before exp.
// Masked scores give weight 0. REQUIRES: each row has a finite score.
Matrix softmax_rows(const Matrix& scores);

// What the lesson's worked softmax subtracts from every score of a row
// before taking e^score: 0 when the row's largest score is from −4 to 20,
// where e^score to 2 decimals is a number a student writes by hand; else
// the largest score itself (the stable softmax: the weights are the same,
// and e^800 never has to be written). Masked scores are skipped.
//   softmax_shift(Vector{2, 0, 1}) == 0;  softmax_shift(Vector{710, 709, 0}) == 710
double softmax_shift(std::span<const double> scores);

// True when a row of weights, rounded to `decimals`, makes the next step
// trivial: over the keys whose score is not masked (at least two), all equal
// (the output is the mean of the values) or one 1 and the rest 0 (one
// token's value). Follow-through is not carried from such a row.
//   trivial_weights(Vector{0.333, 0.333, 0.333}, Vector{0, 0, 0}, 3) == true
bool trivial_weights(const Vector& weights, const Vector& scores, int decimals);

// Weighted mix: row r is Σ_j weights[r][j] · values[j].
Matrix mix_values(const Matrix& weights, const Matrix& values);

// Index of the largest entry of each row (the first one on a tie).
std::vector<std::size_t> most_attended(const Matrix& weights);

// The same four, written into `out`, whose storage is reused: for loops
// that compute many small tables (a variant's draws, a grader's checks).
//   Matrix s;
//   attention_scores_into(queries, keys, 1.0, Mask::none, {0, 1, 2}, s);
// REQUIRES: out is not one of the inputs.
void multiply_into(const Matrix& a, const Matrix& b, Matrix& out);
void attention_scores_into(const Matrix& queries, const Matrix& keys, double scale, Mask mask,
                           const std::vector<std::size_t>& query_tokens, Matrix& out);
void softmax_rows_into(const Matrix& scores, Matrix& out);
// Softmax of one row of scores, as softmax_rows does each row.
void softmax_into(const Vector& scores, Vector& out);
void most_attended_into(const Matrix& weights, std::vector<std::size_t>& out);

// Gives `m` rows × cols entries, reusing its storage (values left as they were).
void reshape(Matrix& m, std::size_t rows, std::size_t cols);

}  // namespace attnmark
