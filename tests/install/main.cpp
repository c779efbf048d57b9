// The lesson's worked example through the installed API: the query of "late"
// [1, 0] against the keys of "bus", "is", "late" gives scores 2, 0, 1,
// weights 0.665, 0.090, 0.245 and the output 7.88, 2.12. Prints them; exits
// 0 only when every number is right (as printed to the lesson's decimals).
#include <cstdio>
#include <string>

#include "attnmark/base/error.h"
#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/numbers.h"

int main() {
  using attnmark::Matrix;
  const Matrix keys = {{2, 1}, {0, 2}, {1, 1}};
  const Matrix values = {{10, 0}, {0, 10}, {5, 5}};
  int wrong = 0;
  auto show = [&](const char* what, const attnmark::Vector& row, int decimals, const char* expected) {
    std::string got;
    for (double x : row) got += (got.empty() ? "" : " ") + attnmark::format_fixed(x, decimals);
    const bool right = got == expected;
    wrong += !right;
    std::printf("%-8s %s%s%s\n", what, got.c_str(), right ? "" : "  WRONG, expected ", right ? "" : expected);
  };
  try {
    const Matrix s = attnmark::attention_scores({{1, 0}}, keys, 1.0, attnmark::Mask::none, {2});
    const Matrix w = attnmark::softmax_rows(s);
    const Matrix o = attnmark::mix_values(w, values);
    show("scores", s[0], 0, "2 0 1");
    show("weights", w[0], 3, "0.665 0.090 0.245");
    show("output", o[0], 2, "7.88 2.12");
  } catch (const attnmark::Error& e) {
    std::fprintf(stderr, "attnmark error: %s\n", e.what());
    return 1;
  }
  return wrong == 0 ? 0 : 1;
}
