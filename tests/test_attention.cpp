// The lesson's arithmetic: its worked examples are ground truth.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <fmt/format.h>

#include "lesson/attention.h"
#include "lesson/numbers.h"
#include "lesson/pcg32.h"

using namespace attnmark;

namespace {
const Matrix lesson_keys = {{2, 1}, {0, 2}, {1, 1}};    // bus, is, late
const Matrix lesson_values = {{10, 0}, {0, 10}, {5, 5}};
}  // namespace

TEST_CASE("the lesson's one-token example: scores 2, 0, 1; weights 0.665, 0.090, 0.245; output 7.88, 2.12") {
  const Matrix s = attention_scores({{1, 0}}, lesson_keys, 1.0, Mask::none, {2});
  REQUIRE(s == Matrix{{2, 0, 1}});
  const Matrix w = softmax_rows(s);
  CHECK(format_fixed(w[0][0], 3) == "0.665");
  CHECK(format_fixed(w[0][1], 3) == "0.090");
  CHECK(format_fixed(w[0][2], 3) == "0.245");
  CHECK(w[0][0] + w[0][1] + w[0][2] == Approx(1.0).epsilon(0).margin(1e-15));
  const Matrix o = mix_values(w, lesson_values);
  CHECK(format_fixed(o[0][0], 2) == "7.88");
  CHECK(format_fixed(o[0][1], 2) == "2.12");
  CHECK(format_fixed(o[0][0], 3) == "7.876");
  CHECK(format_fixed(o[0][1], 3) == "2.124");
  CHECK(most_attended(w) == std::vector<std::size_t>{0});
}

TEST_CASE("the lesson's all-tokens example gives its matrices") {
  const Matrix q = {{0, 1}, {1, 1}, {1, 0}};
  const Matrix s = attention_scores(q, lesson_keys, 1.0, Mask::none, {0, 1, 2});
  REQUIRE(s == Matrix{{1, 2, 1}, {3, 2, 2}, {2, 0, 1}});
  const Matrix w = softmax_rows(s);
  const Matrix o = mix_values(w, lesson_values);
  // np.round(W, 3) and np.round(W @ V, 2) from the lesson's command.
  const std::vector<std::vector<std::string>> weights = {
      {"0.212", "0.576", "0.212"}, {"0.576", "0.212", "0.212"}, {"0.665", "0.090", "0.245"}};
  const std::vector<std::vector<std::string>> outputs = {{"3.18", "6.82"}, {"6.82", "3.18"}, {"7.88", "2.12"}};
  for (std::size_t r = 0; r < 3; ++r) {
    for (std::size_t j = 0; j < 3; ++j) CHECK(format_fixed(w[r][j], 3) == weights[r][j]);
    for (std::size_t j = 0; j < 2; ++j) CHECK(format_fixed(o[r][j], 2) == outputs[r][j]);
  }
}

TEST_CASE("the lesson's exercise: query [0, 1] attends most to 'is'") {
  const Matrix w = softmax_rows(attention_scores({{0, 1}}, lesson_keys, 1.0, Mask::none, {2}));
  CHECK(most_attended(w) == std::vector<std::size_t>{1});
  CHECK(format_fixed(w[0][1], 3) == "0.576");
}

TEST_CASE("a causal mask gives weights of exactly 0 and no NaN") {
  const Matrix q = {{1, 0}, {0, 1}, {1, 1}};
  const Matrix s = attention_scores(q, lesson_keys, 2.0, Mask::causal, {0, 1, 2});
  CHECK(s[0][1] == masked_score);
  CHECK(s[0][2] == masked_score);
  CHECK(s[1][2] == masked_score);
  CHECK(s[1][0] == 0.5);  // (0·2 + 1·1) / 2
  const Matrix w = softmax_rows(s);
  CHECK(w[0] == Vector{1, 0, 0});
  CHECK(w[1][2] == 0.0);
  for (const Vector& row : w)
    for (double x : row) CHECK_FALSE(std::isnan(x));
}

TEST_CASE("softmax is stable for large scores") {
  const Matrix w = softmax_rows({{1000, 999, -1000}});
  CHECK(format_fixed(w[0][0], 6) == "0.731059");
  CHECK(w[0][2] == 0.0);
  CHECK_FALSE(std::isnan(w[0][1]));
}

TEST_CASE("portable_exp is within 1 ulp of the C library and exact where it must be") {
  CHECK(portable_exp(0) == 1.0);
  CHECK(portable_exp(masked_score) == 0.0);
  CHECK(portable_exp(1) == 2.7182818284590455);  // fdlibm: 1 ulp above e, on every platform
  CHECK(portable_exp(2) == 7.38905609893065);
  CHECK(std::isinf(portable_exp(710)));
  for (int i = -7000; i <= 7000; ++i) {
    const double x = i / 97.0;
    const double want = std::exp(x);
    const double got = portable_exp(x);
    const double ulp = std::nextafter(want, INFINITY) - want;
    INFO("x = " << x);
    REQUIRE(std::fabs(got - want) <= ulp);
  }
}

TEST_CASE("format_fixed rounds the exact binary value and never prints -0") {
  CHECK(format_fixed(0.6652, 3) == "0.665");
  CHECK(format_fixed(-0.0001, 2) == "0.00");
  CHECK(format_fixed(-0.004, 2) == "0.00");
  CHECK(format_fixed(-0.006, 2) == "-0.01");
  CHECK(format_fixed(2, 0) == "2");
  CHECK(format_fixed(1.225, 2) == "1.23");  // 1.225 is 1.2250000000000000888 in binary
  CHECK(round_to(0.24473, 3) == 0.245);
  CHECK(format_exact(0.1 + 0.2) == "0.30000000000000004");
}

// format_fixed and round_to take a fast path for most numbers; printf and
// strtod (exact in glibc) are the independent reference for both paths.
TEST_CASE("format_fixed and round_to agree with printf and strtod, ties and huge numbers included") {
  Pcg32 rng(2026, 11);
  auto reference = [](double x, int d) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", d, x);
    std::string text = buf;
    if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
    return text;
  };
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const int d = static_cast<int>(rng.below(16));
    double x;
    switch (rng.below(4)) {
      case 0:  // a decimal as a student writes it, often a tie one place further
        x = (static_cast<double>(rng.below(2000001)) - 1000000.0) / std::pow(10.0, rng.below(9)) + 
            (rng.below(2) ? 5 / std::pow(10.0, d + 1) : 0.0);
        break;
      case 1: {  // any bit pattern of a finite double
        std::uint64_t bits = (std::uint64_t{rng.next()} << 32) | rng.next();
        std::memcpy(&x, &bits, sizeof x);
        if (!std::isfinite(x)) x = 0.5;
        break;
      }
      case 2:  // near the fast path's limit of 2^40
        x = std::ldexp(1.0 + rng.next() / 4294967296.0, 30 + static_cast<int>(rng.below(20))) / std::pow(10.0, d);
        break;
      default:  // weights and outputs
        x = (rng.next() / 4294967296.0 - 0.5) * 40;
    }
    const std::string want = reference(x, d);
    INFO("x = " << x << " (" << std::hexfloat << x << std::defaultfloat << "), decimals " << d);
    REQUIRE(format_fixed(x, d) == want);
    REQUIRE(round_to(x, d) == std::strtod(want.c_str(), nullptr));
    std::string appended = "x";
    append_fixed(appended, x, d);
    REQUIRE(appended == "x" + want);
    ++checked;
  }
  CHECK(checked == 200000);
  CHECK(format_fixed(0.125, 2) == "0.12");  // an exact tie: to even, as printf
  CHECK(format_fixed(0.375, 2) == "0.38");
  CHECK(format_fixed(-0.0, 3) == "0.000");
  CHECK(format_fixed(1e300, 0) == reference(1e300, 0));
  CHECK(round_to(-0.0004, 3) == 0.0);
  CHECK_FALSE(std::signbit(round_to(-0.0004, 3)));
  for (int i = 0; i < 200000; ++i) {  // append_exact's fast path against fmt's shortest form
    double x;
    if (rng.below(2)) {
      x = (static_cast<double>(rng.next()) - 2147483648.0) / std::pow(10.0, rng.below(16));
    } else {
      std::uint64_t bits = (std::uint64_t{rng.next()} << 32) | rng.next();
      std::memcpy(&x, &bits, sizeof x);
      if (!std::isfinite(x)) x = -0.0;
    }
    std::string got;
    append_exact(got, x);
    INFO("x = " << std::hexfloat << x);
    REQUIRE(got == fmt::format("{}", x));
    REQUIRE(format_exact(x) == got);
  }
  for (int i = 0; i < 100000; ++i) {  // append_exact from the text a value was read from
    std::string text = rng.below(3) == 0 ? "-" : "";
    const std::uint32_t whole = rng.below(12), decimals = rng.below(12);
    for (std::uint32_t k = 0; k < whole; ++k) text += static_cast<char>('0' + rng.below(10));
    if (whole == 0) text += '0';
    if (decimals) text += '.';
    for (std::uint32_t k = 0; k < decimals; ++k) text += static_cast<char>('0' + rng.below(10));
    double x = std::strtod(text.c_str(), nullptr);
    if (x == 0) x = 0;  // as read_number reads "-0"
    std::string got;
    append_exact(got, x, text);
    INFO(text);
    REQUIRE(got == fmt::format("{}", x));
  }
  for (double x : {0.0, -0.0, 1.0, -1.0, 8.0, 1e14, -999999999999999.0, 1e15, 0.5, 2.5e-5}) {
    std::string got;
    append_exact(got, x);
    CHECK(got == fmt::format("{}", x));
  }
  std::string exact;
  append_exact(exact, 100000);
  append_exact(exact, 0.0001);
  CHECK(exact == "1000000.0001");
}
