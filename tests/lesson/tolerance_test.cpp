// Tolerances (lesson/tolerance.h): the window around a true value in which
// an answer counts as right, PrairieLearn's way.
#include "support/test_support.h"

#include "attnmark/lesson/tolerance.h"

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

TEST_CASE("every tolerance example in docs/marking.md is true, at its edges too") {
  const std::string docs = read_file(std::string(ATTNMARK_SOURCE_DIR) + "/docs/marking.md", 1 << 20);
  struct Example {
    std::string text;  // as docs/marking.md writes it
    Tolerance tolerance;
    double truth;
    std::vector<double> accepted, rejected;
  };
  const std::vector<Example> examples = {
      {"`{absolute: 0.01}`: 7.876 accepts 7.867 and 7.885, not 7.865 or 7.887",
       {Tolerance::Mode::absolute, 0.01, 0, 0}, 7.876, {7.867, 7.885}, {7.865, 7.887}},
      {"`{relative: 0.01}`: 100 accepts 99 and 101, not 98.9 or 101.1; 0 accepts only 0",
       {Tolerance::Mode::relative, 0, 0.01, 0}, 100, {99, 101}, {98.9, 101.1}},
      {"`{decimals: 2}`: 1.0 accepts 0.995 and 1.005, not 0.9949 or 1.0051",
       {Tolerance::Mode::decimals, 0, 0, 2}, 1.0, {0.995, 1.005}, {0.9949, 1.0051}},
      {"`{sigfigs: 3}`: 123.4 accepts 122.9 and 123.9, not 122.8 or 124; −0.001234 accepts −0.00123",
       {Tolerance::Mode::sigfigs, 0, 0, 3}, 123.4, {122.9, 123.9}, {122.8, 124}},
  };
  for (const Example& e : examples) {
    INFO(e.text);
    CHECK(docs.find(e.text) != std::string::npos);
    for (double x : e.accepted) CHECK(within(e.tolerance, x, e.truth));
    for (double x : e.rejected) CHECK_FALSE(within(e.tolerance, x, e.truth));
  }
  // The second halves of two examples.
  const Tolerance rel{Tolerance::Mode::relative, 0, 0.01, 0};
  CHECK(within(rel, 0, 0));
  CHECK_FALSE(within(rel, 1e-12, 0));
  CHECK(within(Tolerance{Tolerance::Mode::sigfigs, 0, 0, 3}, -0.00123, -0.001234));
}
