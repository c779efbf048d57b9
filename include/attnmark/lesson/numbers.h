// attnmark/lesson/numbers.h: numbers as people read them.
//
//   format_fixed(0.6652, 3);   // "0.665"
//   format_fixed(-0.0001, 2);  // "0.00", never "-0.00"
//   round_to(0.24473, 3);      // 0.245 (the double nearest "0.245")
#pragma once

#include <string>
#include <string_view>

namespace attnmark {

// x with exactly `decimals` digits after the point, correctly rounded from
// x's exact binary value. A result that shows as zero has no minus sign.
// REQUIRES: x finite, 0 <= decimals <= 15.
std::string format_fixed(double x, int decimals);

// format_fixed(x, decimals) appended to out, without a temporary string.
void append_fixed(std::string& out, double x, int decimals);

// 10^decimals, equal to std::pow(10.0, decimals) (powers of ten up to 10^22
// are exact doubles), from a table for 0 to 15.
//   power_of_ten(3) == 1000.0
double power_of_ten(int decimals);

// x rounded to `decimals` places: the double nearest format_fixed(x, decimals).
double round_to(double x, int decimals);

// x in its shortest round-trip form, for machine-readable output ("0.1").
std::string format_exact(double x);

// format_exact(x) appended to out.
void append_exact(std::string& out, double x);
// The same for an x read from `written` (a student's "0.665"): when the text
// is already x's shortest form it is copied, which is quicker.
// REQUIRES: x is the value of `written` (as read_number reads it).
void append_exact(std::string& out, double x, std::string_view written);

}  // namespace attnmark
