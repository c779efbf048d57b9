#include "attnmark/lesson/tolerance.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {
namespace {

constexpr double tiny = rounding_slack;

Tolerance absolute(double atol) { return Tolerance{Tolerance::Mode::absolute, atol, 0, 0}; }

// The weights a student gets working as the lesson does: scores rounded as
// asked, e^score to 2 decimals (after the worksheet's softmax_shift, so
// never inf), divided by their total.
// REQUIRES: scores.size() <= max_tokens.
std::array<double, max_tokens> lesson_weights(const Vector& scores, int score_decimals) {
  std::array<double, max_tokens> powers{}, rounded{};
  for (std::size_t j = 0; j < scores.size(); ++j)
    rounded[j] = scores[j] == masked_score ? masked_score : round_to(scores[j], score_decimals);
  const double shift = softmax_shift(std::span<const double>(rounded.data(), scores.size()));
  double total = 0;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    powers[j] = rounded[j] == masked_score ? 0.0 : round_to(portable_exp(rounded[j] - shift), 2);
    total += powers[j];
  }
  for (std::size_t j = 0; j < scores.size(); ++j) powers[j] = total == 0 ? 0.0 : powers[j] / total;
  return powers;
}

double window(int n) { return 0.51 * std::pow(10.0, -n); }

}  // namespace

double half_width(const Tolerance& t, double truth) {
  switch (t.mode) {
    case Tolerance::Mode::absolute:
    case Tolerance::Mode::relative: return t.atol + t.rtol * std::fabs(truth);
    case Tolerance::Mode::interval: return std::max(t.below, t.above);
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
  if (t.mode == Tolerance::Mode::interval) return given >= truth - t.below && given <= truth + t.above;
  const double h = half_width(t, truth);
  if (t.mode == Tolerance::Mode::decimals || t.mode == Tolerance::Mode::sigfigs)
    return given > truth - h && given < truth + h;  // strict, as PrairieLearn
  return std::fabs(given - truth) <= h;
}

std::string describe(const Tolerance& t, double truth) {
  // Two significant figures are enough to tell a student how close to be.
  const auto shown = [](double h) {
    const int decimals = std::max(0, 1 - static_cast<int>(std::floor(std::log10(h))));
    return format_fixed(h, std::min(decimals, 12));
  };
  const double h = half_width(t, truth);
  if (h == 0) return "exactly";
  if (t.mode == Tolerance::Mode::interval && t.below != t.above)
    return "from " + (t.below == 0 ? std::string("0") : "−" + shown(t.below)) + " to +" +
           (t.above == 0 ? std::string("0") : shown(t.above));
  return "within ±" + shown(h);
}

void weight_tolerances(const QuestionVariant& q, const Vector& scores, const Vector& exact,
                       std::vector<Tolerance>& out) {
  const int dw = q.spec->decimals(Part::weights);
  const std::array<double, max_tokens> lesson = lesson_weights(scores, q.spec->decimals(Part::scores));
  const double unit = decimal_unit(dw);
  out.clear();
  for (std::size_t j = 0; j < scores.size(); ++j) {
    Tolerance t{Tolerance::Mode::interval, 0, 0, 0, 0, 0};
    if (scores[j] != masked_score) {
      // From the exact weight, 0.51 of a unit either way; towards the lesson's
      // weight, as far as it and half a unit beyond (the student rounds it as asked).
      t.below = std::max(0.51 * unit, exact[j] - lesson[j] + 0.5 * unit) + tiny;
      t.above = std::max(0.51 * unit, lesson[j] - exact[j] + 0.5 * unit) + tiny;
    }
    out.push_back(t);
  }
}

void output_tolerances(const QuestionVariant& q, const Vector& weights, const Matrix& values,
                       std::vector<Tolerance>& out) {
  const int dw = q.spec->decimals(Part::weights);
  const int d = q.spec->decimals(Part::output);
  std::array<double, max_tokens> rounded_weights;  // a weight per token
  for (std::size_t j = 0; j < weights.size(); ++j) rounded_weights[j] = round_to(weights[j], dw);
  out.clear();
  for (std::size_t c = 0; c < values[0].size(); ++c) {
    double exact = 0, rounded = 0;
    int inexact_products = 0;
    for (std::size_t j = 0; j < weights.size(); ++j) {
      exact += weights[j] * values[j][c];
      const double product = rounded_weights[j] * values[j][c];
      rounded += product;
      if (std::fabs(round_to(product, d) - product) > tiny) ++inexact_products;
    }
    out.push_back(absolute(std::max(0.51 * decimal_unit(d), std::fabs(rounded - exact) + 0.5 * decimal_unit(d) * (1 + inexact_products)) + tiny));
  }
}

Tolerance plain_tolerance(const QuestionVariant& q, Part part) {
  const QuestionSpec& spec = *q.spec;
  const bool whole = part == Part::scores ? spec.integral_scores() : spec.decimals(part) == 0;
  if (whole) return absolute(tiny);
  return Tolerance{Tolerance::Mode::decimals, 0, 0, spec.decimals(part)};
}

Tolerance cell_tolerance(const QuestionVariant& q, Part part, std::size_t row, std::size_t col) {
  switch (part) {
    case Part::weights: {
      std::vector<Tolerance> out;
      weight_tolerances(q, q.scores[row], q.weights[row], out);
      return out[col];
    }
    case Part::output: {
      std::vector<Tolerance> out;
      output_tolerances(q, q.weights[row], q.values, out);
      return out[col];
    }
    default: return plain_tolerance(q, part);
  }
}

}  // namespace attnmark
