#include "attnmark/numbers.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <fmt/format.h>

namespace attnmark {

namespace {

// x in fixed notation into buf (exactly rounded, as printf would); returns
// the end. No "-0": a result that shows as zero loses its sign.
char* fixed(char* buf, char* end, double x, int decimals) {
  char* stop = std::to_chars(buf, end, x, std::chars_format::fixed, decimals).ptr;
  if (buf[0] == '-' && std::string_view(buf + 1, static_cast<std::size_t>(stop - buf - 1)).find_first_not_of("0.") ==
                           std::string_view::npos) {
    std::copy(buf + 1, stop, buf);
    --stop;
  }
  return stop;
}

}  // namespace

std::string format_fixed(double x, int decimals) {
  char buf[400];  // the largest double in fixed notation, with 15 decimals, fits
  return std::string(buf, fixed(buf, buf + sizeof buf, x, decimals));
}

double round_to(double x, int decimals) {
  char buf[400];
  char* stop = fixed(buf, buf + sizeof buf, x, decimals);
  double out = 0;
  std::from_chars(buf, stop, out);
  return out;
}

std::string format_exact(double x) { return fmt::format("{}", x); }

}  // namespace attnmark
