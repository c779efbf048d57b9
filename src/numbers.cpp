#include "attnmark/numbers.h"

#include <charconv>
#include <fmt/format.h>

namespace attnmark {

std::string format_fixed(double x, int decimals) {
  std::string text = fmt::format("{:.{}f}", x, decimals);
  if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos)
    text.erase(0, 1);
  return text;
}

double round_to(double x, int decimals) {
  const std::string text = format_fixed(x, decimals);
  double out = 0;
  std::from_chars(text.data(), text.data() + text.size(), out);
  return out;
}

std::string format_exact(double x) { return fmt::format("{}", x); }

}  // namespace attnmark
