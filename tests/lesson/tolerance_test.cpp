// Tolerances (lesson/tolerance.h): the window around a true value in which
// an answer counts as right, PrairieLearn's way.
#include "support/test_support.h"

#include "lesson/tolerance.h"

using namespace attnmark;

TEST_CASE("tolerance modes follow PrairieLearn, strict windows included") {
  const Tolerance dec2{Tolerance::Mode::decimals, 0, 0, 2};
  CHECK(within(dec2, 1.0, 1.0));
  CHECK(within(dec2, 1.0050, 1.0));
  CHECK_FALSE(within(dec2, 1.0051, 1.0));   // the window is open at ±0.0051
  CHECK(within(dec2, -1.005, -1.0));
  CHECK(within(dec2, 0.005, 0.0));
  const Tolerance sf3{Tolerance::Mode::sigfigs, 0, 0, 3};
  CHECK(within(sf3, 123.0, 123.4));          // window ±0.51
  CHECK_FALSE(within(sf3, 122.8, 123.4));
  CHECK(within(sf3, -0.00123, -0.001234));   // negatives
  CHECK(half_width(sf3, 0.0) == Approx(0.0051).epsilon(0).margin(1e-15));  // zero: 10^-(n-1)
  CHECK(within(sf3, 0.005, 0.0));
  CHECK_FALSE(within(sf3, 0.0052, 0.0));
  const Tolerance rel{Tolerance::Mode::relative, 0, 0.01, 0};
  CHECK(within(rel, 101.0, 100.0));          // |Δ| ≤ rtol·|true|, inclusive
  CHECK_FALSE(within(rel, 101.01, 100.0));
  CHECK_FALSE(within(rel, 1e-9, 0.0));       // zero needs an atol
  const Tolerance both{Tolerance::Mode::relative, 0.001, 0.01, 0};
  CHECK(within(both, 0.001, 0.0));
  const Tolerance abs0{Tolerance::Mode::absolute, 0, 0, 0};
  CHECK(within(abs0, 2.0, 2.0));
  CHECK_FALSE(within(abs0, 2.0000001, 2.0));
  CHECK(describe(abs0, 2) == "exactly");
  CHECK(describe(dec2, 2) == "within ±0.0051");
}
