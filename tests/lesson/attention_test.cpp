// The lesson's arithmetic (lesson/attention.h): its worked examples are ground truth.
#include "support/test_support.h"

#include <cmath>
#include <string>
#include <vector>

#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/numbers.h"

using namespace attnmark;

namespace {
const Matrix lesson_keys = {{2, 1}, {0, 2}, {1, 1}};    // bus, is, late
const Matrix lesson_values = {{10, 0}, {0, 10}, {5, 5}};
}  // namespace

TEST_CASE("the lesson's one-token example: scores 2, 0, 1, weights 0.665, 0.090, 0.245, output 7.88, 2.12") {
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

TEST_CASE("the lesson's exercise: query (0, 1) attends most to 'is'") {
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
