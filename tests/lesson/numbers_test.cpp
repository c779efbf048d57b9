// Numbers as people read them (lesson/numbers.h): format_fixed, round_to,
// format_exact and append_exact, against printf, strtod and fmt.
#include "support/test_support.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <fmt/format.h>

#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/pcg32.h"

using namespace attnmark;

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
