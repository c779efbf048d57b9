// attnmark/lesson/tolerance.h: when a student's number counts as right: the one home
// of tolerances, their rules and the defaults a rubric need not state.
//
//   Tolerance t{Tolerance::Mode::decimals, 0, 0, 3};
//   within(t, 0.665, 0.66524);   // true: window 0.66524 ± 0.00051, strict
//   within(t, 0.67, 0.66524);    // false
//   describe(t);                 // "within ±0.00051 (3 decimal places)"
//
// Semantics (PrairieLearn's):
//   absolute, relative: |given − true| ≤ atol + rtol·|true|
//   decimals n:  true − 0.51·10⁻ⁿ < given < true + 0.51·10⁻ⁿ
//   sigfigs n:   the same window with 10^(⌊log10|true|⌋ − n + 1); for true = 0, 10^(1 − n)
//   interval:    true − below ≤ given ≤ true + above (a default weight's window,
//                wider only on the side of the lesson's own rounding)
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "attnmark/lesson/matrix.h"

namespace attnmark {

enum class Part;  // lesson/rubric.h
struct QuestionVariant;  // lesson/variant.h

// How close an answer must be. Semantics below.
struct Tolerance {
  enum class Mode {
    absolute,  // |given − true| ≤ atol + rtol·|true| (rtol may be 0)
    relative,  // the same formula, named by its main term
    sigfigs,   // true rounded to `digits` significant figures, window ±0.51 unit
    decimals,  // true rounded to `digits` decimal places, window ±0.51 unit
    interval,  // true − below ≤ given ≤ true + above
  };
  Mode mode = Mode::absolute;
  double atol = 0;
  double rtol = 0;
  int digits = 0;
  double below = 0, above = 0;  // interval only; both ≥ 0
};

// Slack for the binary rounding of decimal answers: 0.1 is not a double.
inline constexpr double rounding_slack = 1e-9;

// 10^-decimals: the unit of the last decimal place. decimal_unit(3) == 0.001.
// From a table, inline: the grader asks for every cell of every student.
inline double decimal_unit(int decimals) {
  static constexpr double powers[] = {1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8,
                                      1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15};
  return decimals >= 0 && decimals <= 15 ? powers[decimals] : std::pow(10.0, -decimals);
}

// True when `given` is close enough to `truth`. REQUIRES: both finite.
bool within(const Tolerance& tolerance, double given, double truth);

// The largest distance from `truth` that `within` accepts (the window's
// half-width; for an interval, its wider side).
double half_width(const Tolerance& tolerance, double truth);

// A short description for feedback: "exactly", "within ±0.0275".
std::string describe(const Tolerance& tolerance, double truth);

// ---- Defaults: a rubric's part without a `tolerance:` is marked with these.

// Default tolerances of a row of weights: the asked window (±0.51 of the
// last decimal asked), widened only towards the weight the lesson's own
// rounding gives (scores rounded as asked, e^score to 2 decimals after
// softmax_shift, divided by their total) and half a unit past it. A mirror
// value on the far side of the exact weight is never accepted. The weight of
// a masked key is exactly 0.
// REQUIRES: exact is softmax of scores (the variant's weights, or carried ones).
void weight_tolerances(const QuestionVariant& q, const Vector& scores, const Vector& exact,
                       std::vector<Tolerance>& out);

// Default tolerances of a row of the output: weights rounded as asked, each
// product rounded as asked, the sum rounded as asked (the lesson's table).
void output_tolerances(const QuestionVariant& q, const Vector& weights, const Matrix& values,
                       std::vector<Tolerance>& out);

// Default tolerance of scores and projections: exact when they must be whole
// numbers, else the asked decimal places.
Tolerance plain_tolerance(const QuestionVariant& q, Part part);

// The tolerance of one cell of the reference answer (row, column) when the
// rubric gives none: integer scores exact; others a window at the asked
// decimals, widened by what rounding the earlier steps as asked can carry
// (docs/marking.md, "Tolerances").
// REQUIRES: part is asked in q; row and col inside its answer.
Tolerance cell_tolerance(const QuestionVariant& q, Part part, std::size_t row, std::size_t col);

}  // namespace attnmark
