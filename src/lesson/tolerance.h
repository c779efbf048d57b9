// lesson/tolerance.h: when a student's number counts as right.
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
#pragma once

#include <string>

#include "lesson/rubric.h"

namespace attnmark {

// True when `given` is close enough to `truth`. REQUIRES: both finite.
bool within(const Tolerance& tolerance, double given, double truth);

// The largest distance from `truth` that `within` accepts (the window's half-width).
double half_width(const Tolerance& tolerance, double truth);

// A short description for feedback: "exactly", "within ±0.0275".
std::string describe(const Tolerance& tolerance, double truth);

}  // namespace attnmark
