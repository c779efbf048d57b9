#include "lesson/tolerance.h"

#include <cmath>

#include "lesson/numbers.h"

namespace attnmark {
namespace {

double window(int n) { return 0.51 * std::pow(10.0, -n); }

}  // namespace

double half_width(const Tolerance& t, double truth) {
  switch (t.mode) {
    case Tolerance::Mode::absolute:
    case Tolerance::Mode::relative: return t.atol + t.rtol * std::fabs(truth);
    case Tolerance::Mode::decimals: return window(t.digits);
    case Tolerance::Mode::sigfigs: {
      const int n = truth == 0 ? t.digits - 1
                               : -static_cast<int>(std::floor(std::log10(std::fabs(truth)))) + (t.digits - 1);
      return window(n);
    }
  }
  return 0;
}

bool within(const Tolerance& t, double given, double truth) {
  const double h = half_width(t, truth);
  if (t.mode == Tolerance::Mode::decimals || t.mode == Tolerance::Mode::sigfigs)
    return given > truth - h && given < truth + h;  // strict, as PrairieLearn
  return std::fabs(given - truth) <= h;
}

std::string describe(const Tolerance& t, double truth) {
  const double h = half_width(t, truth);
  if (h == 0) return "exactly";
  // Two significant figures are enough to tell a student how close to be.
  const int decimals = std::max(0, 1 - static_cast<int>(std::floor(std::log10(h))));
  return "within ±" + format_fixed(h, std::min(decimals, 12));
}

}  // namespace attnmark
