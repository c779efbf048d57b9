#include "attnmark/lesson/numbers.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <fmt/compile.h>
#include <fmt/format.h>

namespace attnmark {

double power_of_ten(int decimals) {
  static constexpr double table[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  return decimals >= 0 && decimals < 16 ? table[decimals] : std::pow(10.0, decimals);
}

namespace {

// x in fixed notation into buf (exactly rounded, as printf would); returns
// the end. No "-0": a result that shows as zero loses its sign.
char* slow_fixed(char* buf, char* end, double x, int decimals) {
  char* stop = std::to_chars(buf, end, x, std::chars_format::fixed, decimals).ptr;
  if (buf[0] == '-' && std::string_view(buf + 1, static_cast<std::size_t>(stop - buf - 1)).find_first_not_of("0.") ==
                           std::string_view::npos) {
    std::copy(buf + 1, stop, buf);
    --stop;
  }
  return stop;
}


// The fast path of both functions below, taken for nearly every number a
// marker sees: x·10^d rounded to a whole number n, computed in double. The
// product is within half an ulp (at most 2^-13 below 2^40) of the exact
// x·10^d, so when it is further than 2^-10 from a half-way point the exact
// value rounds to the same n. Otherwise (ties, huge or odd values) false,
// and the callers take the exact, slower path through to_chars.
bool scaled(double x, int decimals, std::int64_t& n) {
  if (decimals < 0 || decimals > 15) return false;
  const double y = x * power_of_ten(decimals);
  if (!(std::fabs(y) < 0x1p40)) return false;  // also false for NaN
  const double below = std::floor(y);
  const double fraction = y - below;  // exact: y and floor(y) are close doubles
  if (std::fabs(fraction - 0.5) <= 0x1p-10) return false;
  n = static_cast<std::int64_t>(below) + (fraction > 0.5 ? 1 : 0);
  return true;
}

// n·10^-decimals in fixed notation, as to_chars would write it; no "-0".
char* write_scaled(char* out, std::int64_t n, int decimals) {
  if (n < 0) *out++ = '-';
  const std::uint64_t m = n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  char digits[40];
  int count = static_cast<int>(std::to_chars(digits, digits + sizeof digits, m).ptr - digits);
  if (count <= decimals) {  // zeros in front, so that one digit comes before the point
    const int pad = decimals + 1 - count;
    std::copy_backward(digits, digits + count, digits + count + pad);
    std::fill(digits, digits + pad, '0');
    count += pad;
  }
  const int whole = count - decimals;  // digits before the point
  out = std::copy(digits, digits + whole, out);
  if (decimals > 0) {
    *out++ = '.';
    out = std::copy(digits + whole, digits + count, out);
  }
  return out;
}

char* fixed(char* buf, char* end, double x, int decimals) {
  std::int64_t n = 0;
  if (scaled(x, decimals, n)) return write_scaled(buf, n, decimals);
  return slow_fixed(buf, end, x, decimals);
}

}  // namespace

std::string format_fixed(double x, int decimals) {
  char buf[400];  // the largest double in fixed notation, with 15 decimals, fits
  return std::string(buf, fixed(buf, buf + sizeof buf, x, decimals));
}

void append_fixed(std::string& out, double x, int decimals) {
  char buf[400];
  out.append(buf, fixed(buf, buf + sizeof buf, x, decimals));
}

double round_to(double x, int decimals) {
  std::int64_t n = 0;
  // n and 10^d are exact doubles, so one correctly rounded division gives
  // the double nearest the decimal n·10^-d, as from_chars would.
  if (scaled(x, decimals, n)) return static_cast<double>(n) / power_of_ten(decimals);
  char buf[400];
  char* stop = slow_fixed(buf, buf + sizeof buf, x, decimals);
  double out = 0;
  std::from_chars(buf, stop, out);
  return out;
}

// fmt's shortest form (not to_chars': that writes 1e+05 for 100000).
std::string format_exact(double x) {
  char buf[40];
  return std::string(buf, fmt::format_to(buf, FMT_COMPILE("{}"), x));
}

void append_exact(std::string& out, double x) {
  char buf[40];
  // fmt writes its shortest form in fixed notation from 1e-4 to 1e16, and
  // to_chars' shortest fixed form has the same digits (each is the shortest
  // that reads back as x, the closest of those to x) without fmt's machinery.
  // (Zero is left to fmt, for its "-0".)
  const double size = std::fabs(x);
  if (x == 0 && !std::signbit(x)) {  // (marks are often whole numbers, 0 among them)
    out += '0';
    return;
  }
  if (size >= 1 && size < 1e15 && x == std::trunc(x)) {
    out.append(buf, std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(x)).ptr);
    return;
  }
  if (size >= 1e-4 && size < 1e15) {
    out.append(buf, std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed).ptr);
    return;
  }
  out.append(buf, fmt::format_to(buf, FMT_COMPILE("{}"), x));
}

void append_exact(std::string& out, double x, std::string_view written) {
  // `written` is x's shortest form when it is a plain decimal in the form fmt
  // writes (no sign on zero, no leading or trailing zeros) of at most 15
  // significant digits: such a decimal is the only one of its length that
  // reads as x (DBL_DIG is 15), and none shorter does.
  const double size = std::fabs(x);
  std::size_t i = !written.empty() && written[0] == '-' ? 1 : 0;
  const std::size_t start = i;
  int significant = 0;
  bool leading = true;
  while (i < written.size() && written[i] >= '0' && written[i] <= '9') {
    if (written[i] != '0') leading = false;
    if (!leading) ++significant;
    ++i;
  }
  const std::size_t whole = i - start;
  bool ok = whole > 0 && (whole == 1 || written[start] != '0') && size >= 1e-4 && size < 1e15;
  if (ok && i < written.size()) {
    ok = written[i] == '.' && i + 1 < written.size() && written.back() != '0';
    for (++i; ok && i < written.size(); ++i) {
      ok = written[i] >= '0' && written[i] <= '9';
      if (written[i] != '0') leading = false;
      if (!leading) ++significant;
    }
  }
  if (ok && significant <= 15) out += written;
  else append_exact(out, x);
}

}  // namespace attnmark
