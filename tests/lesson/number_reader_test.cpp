// Tests for read_number: every accepted spelling, every rejection message.
#include "support/test_support.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "attnmark/lesson/number_reader.h"
#include "attnmark/lesson/pcg32.h"

using attnmark::CellReading;
using attnmark::Pcg32;
using attnmark::read_number;
using Kind = CellReading::Kind;

namespace {

// UTF-8 spellings used below, as bytes.
const std::string minus = "\xE2\x88\x92";    // U+2212
const std::string en_dash = "\xE2\x80\x93";  // U+2013
const std::string em_dash = "\xE2\x80\x94";  // U+2014
const std::string nbsp = "\xC2\xA0";         // U+00A0
const std::string nnbsp = "\xE2\x80\xAF";    // U+202F
const std::string infinity = "\xE2\x88\x9E";  // U+221E
const std::string ellipsis = "\xE2\x80\xA6";  // U+2026
const std::string replacement = "\xEF\xBF\xBD";  // U+FFFD

// Checks that text reads as exactly `value` with `decimals`.
void check_value(const std::string& text, double value, int decimals,
                 bool masked_allowed = false) {
  INFO("text: '" << text << "'");
  CellReading r = read_number(text, masked_allowed);
  REQUIRE(r.kind == Kind::value);
  CHECK(r.value == value);
  CHECK(r.decimals == decimals);
  CHECK(r.problem.empty());
}

// Checks that text is unreadable with exactly `problem`.
void check_problem(const std::string& text, const std::string& problem,
                   bool masked_allowed = false) {
  INFO("text: '" << text << "'");
  CellReading r = read_number(text, masked_allowed);
  REQUIRE(r.kind == Kind::unreadable);
  CHECK(r.problem == problem);
  CHECK(r.decimals == -1);
}

void check_kind(const std::string& text, Kind kind, bool masked_allowed) {
  INFO("text: '" << text << "', masked_allowed " << masked_allowed);
  CellReading r = read_number(text, masked_allowed);
  CHECK(r.kind == kind);
  CHECK(r.problem.empty());
  CHECK(r.decimals == -1);
}

void check_unreadable(const std::string& text) {
  check_problem(text, "could not read '" + text + "' as a number");
}

}  // namespace

TEST_CASE("plain decimals read exactly, with their decimal places") {
  check_value("0.665", 0.665, 3);
  check_value(".665", 0.665, 3);
  check_value("665.", 665, 0);
  check_value("2", 2, 0);
  check_value("+2", 2, 0);
  check_value("-0.5", -0.5, 1);
  check_value("0.50", 0.5, 2);  // trailing zeros are places the student wrote
  check_value("007", 7, 0);
  check_value("0", 0, 0);
}

TEST_CASE("Unicode minus and en dash are minus signs") {
  check_value(minus + "0.5", -0.5, 1);
  check_value(en_dash + "0.5", -0.5, 1);
  check_value(minus + "1/4", -0.25, -1);
}

TEST_CASE("spaces are allowed only right after a sign, before '%' and around '/'") {
  check_value("- 2", -2, 0);
  check_value("+  2", 2, 0);
  check_value(minus + nbsp + "2", -2, 0);
  check_value("66.5 %", 0.665, 3);
  check_value("2 / 3", 2.0 / 3.0, -1);
  check_unreadable("1 000");
  check_unreadable("0. 5");
  check_unreadable("1 e3");
  check_unreadable("1e 3");
  check_unreadable("-2 5");
}

TEST_CASE("surrounding ASCII whitespace and no-break spaces are trimmed") {
  check_value("  0.5\t", 0.5, 1);
  check_value("\r\n0.5\n", 0.5, 1);
  check_value(nbsp + "0.5" + nnbsp, 0.5, 1);
  check_value(nnbsp + nbsp + " 0.5 " + nbsp, 0.5, 1);
  // Trimming happens before the length cap.
  check_value(std::string(100, ' ') + "0.5" + std::string(100, ' '), 0.5, 1);
}

TEST_CASE("exponents, in either case, shift the decimal places") {
  check_value("1e-3", 1e-3, 3);
  check_value("1E3", 1000, 0);
  check_value("1e+3", 1000, 0);
  check_value("1.5e-2", 0.015, 3);
  check_value("1.25e1", 12.5, 1);
  check_value("1e" + minus + "3", 1e-3, 3);
  check_value("-2.5E-1", -0.25, 2);
  check_value("1e0000000000000000000003", 1000, 0);  // exponent digits saturate safely
}

TEST_CASE("percent divides by 100 and adds two decimal places") {
  check_value("66.5%", 0.665, 3);
  check_value("50%", 0.5, 2);
  check_value("100 %", 1, 2);
  check_value("-12.5%", -0.125, 3);
  check_value("66,5" + nnbsp + "%", 0.665, 3);  // French style
  check_value("0.1%", 0.001, 3);  // correctly rounded: not 0.1 / 100
  check_value("1e1%", 0.1, 1);
}

TEST_CASE("a lone comma is a decimal comma") {
  check_value("0,665", 0.665, 3);
  check_value("1,5", 1.5, 1);
  check_value(",5", 0.5, 1);
  check_value("1,000", 1.0, 3);  // ambiguous: read as a decimal comma, never 1000
  check_value("1,5e2", 150, 0);
  check_unreadable("1,000.5");
  check_unreadable("1.000,5");
  check_unreadable("1,000,000");
}

TEST_CASE("fractions of plain decimals") {
  check_value("2/3", 2.0 / 3.0, -1);
  check_value("-1/4", -0.25, -1);
  check_value("1.5/3", 0.5, -1);
  check_value("1,5/3", 0.5, -1);
  check_value("0/7", 0, -1);
  check_value(".5/.25", 2, -1);
  check_unreadable("1/-4");
  check_unreadable("1/+4");
  check_unreadable("1/2/3");
  check_unreadable("2/3%");
  check_unreadable("1e1/2");
  check_unreadable("1/2e1");
  check_unreadable("/2");
  check_unreadable("2/");
  check_unreadable("1//2");
}

TEST_CASE("division by zero is refused") {
  check_problem("1/0", "cannot divide by zero in '1/0'");
  check_problem("0/0", "cannot divide by zero in '0/0'");
  check_problem("-1/0.00", "cannot divide by zero in '-1/0.00'");
  check_problem("1 / ,0", "cannot divide by zero in '1 / ,0'");
}

TEST_CASE("negative zero reads as positive zero") {
  CellReading r = read_number("-0");
  REQUIRE(r.kind == Kind::value);
  CHECK(r.value == 0);
  CHECK_FALSE(std::signbit(r.value));
  CHECK_FALSE(std::signbit(read_number("-0.0e5").value));
  CHECK_FALSE(std::signbit(read_number("-0/3").value));
}

TEST_CASE("unanswered spellings") {
  for (std::string text : {std::string(), std::string("   "), std::string("\t\r\n"), nbsp,
                           std::string("~"), std::string("-"), std::string("?"),
                           std::string("null"), std::string("NULL"), std::string("Null"),
                           std::string(" - "), en_dash, em_dash, minus}) {
    check_kind(text, Kind::unanswered, false);
  }
  // In a masked cell only a blank changes meaning; the dashes stay unanswered.
  for (std::string text : {std::string("~"), std::string("-"), std::string("?"),
                           std::string("null"), en_dash, em_dash, minus}) {
    check_kind(text, Kind::unanswered, true);
  }
}

TEST_CASE("masked spellings in a masked cell") {
  for (std::string text :
       {std::string(), std::string("  "), nbsp, std::string("-inf"), minus + "inf",
        en_dash + "inf", std::string("-" + infinity), minus + infinity,
        std::string("-Infinity"), std::string("-INF"), std::string("- inf"),
        std::string("masked"), std::string("MASKED"), std::string("Masked"),
        std::string("mask"), std::string("x"), std::string("X"), std::string(" x ")}) {
    check_kind(text, Kind::masked, true);
  }
  // Numbers are still numbers in a masked cell.
  check_value("0.5", 0.5, 1, true);
  check_value("-1e9", -1e9, 0, true);
}

TEST_CASE("masked spellings outside a masked cell are unreadable") {
  const std::string only_masked = " is not a number: only a masked score can be -" + infinity;
  check_problem("-inf", "'-inf'" + only_masked);
  check_problem(minus + "inf", "'" + minus + "inf'" + only_masked);
  check_problem("-" + infinity, "'-" + infinity + "'" + only_masked);
  check_problem(minus + infinity, "'" + minus + infinity + "'" + only_masked);
  check_problem("-Infinity", "'-Infinity'" + only_masked);
  check_problem("x", "'x' is not a number: this cell is not masked");
  check_problem("X", "'X' is not a number: this cell is not masked");
  check_problem("masked", "'masked' is not a number: this cell is not masked");
  check_problem("mask", "'mask' is not a number: this cell is not masked");
}

TEST_CASE("NaN and positive infinity are never answers") {
  for (bool masked : {false, true}) {
    check_problem("NaN", "'NaN' is not a number", masked);
    check_problem("nan", "'nan' is not a number", masked);
    check_problem("-nan", "'-nan' is not a number", masked);
    check_problem("inf", "'inf' is not a finite number", masked);
    check_problem("+inf", "'+inf' is not a finite number", masked);
    check_problem("Infinity", "'Infinity' is not a finite number", masked);
    check_problem(infinity, "'" + infinity + "' is not a finite number", masked);
  }
}

TEST_CASE("values outside double's range") {
  check_problem("1e309", "'1e309' is too large");
  check_problem("-1e309", "'-1e309' is too large");
  check_problem("1e99999999999", "'1e99999999999' is too large");
  check_problem("0.001e312", "'0.001e312' is too large");
  check_problem("1e-400", "'1e-400' is too small");
  check_problem("100000e-330", "'100000e-330' is too small");
  check_value("1e308", 1e308, 0);
  check_value("1e-310", 1e-310, 310);  // subnormal, still a number
  check_value("0e400", 0, 0);
  check_value("0e-99999", 0, 9999);  // exponents saturate at 9999
}

TEST_CASE("malformed numbers quote the text") {
  for (const char* text :
       {"--5", "+-5", "-+5", "- -5", "0x10", "1.2.3", "6.6.5", "abc", "1a", "a1", "+", ".", ",",
        "e5", "1e", "1e+", "1e-", "1e1.5", "%", "5%%", "% 5", "5 %%", "1.5.", "..5", "(1)",
        "1_000", "0b1", "1d", "1f", "i", "5-", "5+", "1/2 x", "null null"}) {
    check_unreadable(text);
  }
}

TEST_CASE("significant digits are capped at 40 per decimal") {
  check_value(std::string(40, '9'), 1e40 - 1, 0);
  check_problem(std::string(41, '1'),
                "'" + std::string(39, '1') + ellipsis + "' has more than 40 significant digits");
  check_problem("0." + std::string(41, '3'),
                "'0." + std::string(37, '3') + ellipsis + "' has more than 40 significant digits");
  check_problem("1/" + std::string(41, '7'),
                "'1/" + std::string(37, '7') + ellipsis + "' has more than 40 significant digits");
  // Leading zeros are not significant.
  check_value("0." + std::string(20, '0') + "1", 1e-21, 21);
  check_value("0000000000" + std::string(40, '1') + "%",
              1.111111111111111111111111111111111111111e37, 2);
}

TEST_CASE("answers longer than 64 bytes are refused") {
  check_value("0." + std::string(62, '0'), 0, 62);  // exactly 64 bytes
  check_problem("0." + std::string(63, '0'), "answer is too long (65 characters)");
  check_problem(std::string(1000, 'a'), "answer is too long (1000 characters)");
  std::string alpha = "\xCE\xB1";  // U+03B1, two bytes
  std::string forty_alphas;
  for (int i = 0; i < 40; ++i) forty_alphas += alpha;
  check_problem(forty_alphas, "answer is too long (40 characters)");
}

TEST_CASE("NUL bytes and invalid UTF-8 are refused without quoting") {
  check_problem(std::string("1\0" "2", 3), "answer contains a NUL byte");
  check_problem(std::string(1, '\0'), "answer contains a NUL byte");
  for (const char* text : {"\xFF", "0.5\xC3", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                           "\xE2\x88", "\x80", "\xF8\x88\x80\x80\x80"}) {
    check_problem(text, "answer is not valid UTF-8 text");
  }
  check_unreadable("\xF0\x9F\x98\x80");  // valid UTF-8 (an emoji) is quoted as is
}

TEST_CASE("quoted text is cut to 40 characters and control characters are hidden") {
  std::string forty(40, 'q');
  check_unreadable(forty);  // exactly 40: quoted whole
  check_problem(forty + "r",
                "could not read '" + std::string(39, 'q') + ellipsis + "' as a number");
  // Characters, not bytes: 30 two-byte letters (60 bytes) are quoted whole,
  // and a cut never splits a character.
  std::string alpha = "\xCE\xB1";  // U+03B1
  std::string letters;
  for (int i = 0; i < 30; ++i) letters += alpha;
  check_problem(letters, "could not read '" + letters + "' as a number");
  check_problem(std::string(38, 'q') + alpha + alpha + alpha,
                "could not read '" + std::string(38, 'q') + alpha + ellipsis + "' as a number");
  check_problem("1\x01" "2", "could not read '1" + replacement + "2' as a number");
  check_problem("1\x1B[2J", "could not read '1" + replacement + "[2J' as a number");
  check_problem("1\x7F", "could not read '1" + replacement + "' as a number");
  check_problem("1\xC2\x9B", "could not read '1" + replacement + "' as a number");  // C1 CSI
  // Bidirectional controls reorder a line; fuzz_number found U+202B.
  check_problem("n\xE2\x80\xAB" "f", "could not read 'n" + replacement + "f' as a number");
  check_problem("2\xE2\x81\xA6" "1", "could not read '2" + replacement + "1' as a number");
}

TEST_CASE("decimals mean places of the resulting value") {
  struct Case { const char* text; int decimals; };
  for (Case c : {Case{"0.665", 3}, Case{"2", 0}, Case{"66.5%", 3}, Case{"1.5e-2", 3},
                 Case{"1e3", 0}, Case{"0,665", 3}, Case{"12.345e1", 2}, Case{"12.345e5", 0},
                 Case{"5%", 2}, Case{"5e2%", 0}, Case{"0.5e-0", 1}, Case{"3.", 0}}) {
    INFO(c.text);
    CHECK(read_number(c.text).decimals == c.decimals);
  }
  CHECK(read_number("2/3").decimals == -1);
  CHECK(read_number("").decimals == -1);
  CHECK(read_number("abc").decimals == -1);
}

TEST_CASE("any bytes are read without throwing") {
  // Deterministic pseudo-random strings over bytes that matter to the reader.
  const std::string alphabet[] = {"0", "1", "9", ".", ",", "e", "E", "+", "-", "/",
                                  "%", " ", "x", "n", "a", "i", "f", "\xFF", "\xC2", "\xA0",
                                  "\x80", "\r", std::string(1, '\0'), minus, en_dash, nbsp,
                                  nnbsp, infinity};
  const std::size_t alphabet_size = sizeof alphabet / sizeof alphabet[0];
  std::uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>(state >> 33);
  };
  // An exception escaping read_number fails the test case by itself.
  int bad = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    for (std::size_t length = next() % 24; length > 0; --length)
      text += alphabet[next() % alphabet_size];
    for (bool masked : {false, true}) {
      CellReading r = read_number(text, masked);
      bool ok = r.kind == Kind::value ? std::isfinite(r.value) && r.problem.empty()
              : r.kind == Kind::unreadable ? !r.problem.empty() && r.decimals == -1
              : r.problem.empty() && r.decimals == -1;
      if (!ok && ++bad <= 5) FAIL_CHECK("bad reading of '" << text << "'");
    }
  }
  CHECK(bad == 0);
}

// Plain decimals take a fast path (up to 15 digits, one division); strtod
// (exact in glibc) is the reference for it and for the longer ones.
TEST_CASE("plain decimals read exactly as strtod reads them, short and long") {
  Pcg32 rng(15, 17);
  for (int i = 0; i < 100000; ++i) {
    std::string text = rng.below(4) == 0 ? "-" : "";
    const std::uint32_t whole_digits = 1 + rng.below(9), decimals = rng.below(10);
    for (std::uint32_t k = 0; k < whole_digits; ++k) text += static_cast<char>('0' + rng.below(10));
    if (decimals) text += '.';
    for (std::uint32_t k = 0; k < decimals; ++k) text += static_cast<char>('0' + rng.below(10));
    const CellReading r = read_number(text);
    INFO(text);
    REQUIRE(r.kind == CellReading::Kind::value);
    const double want = std::strtod(text.c_str(), nullptr);
    REQUIRE(r.value == (want == 0 ? 0.0 : want));
    if (want == 0) REQUIRE_FALSE(std::signbit(r.value));  // "-0.00" reads as +0
    REQUIRE(r.decimals == static_cast<int>(decimals));
  }
}

TEST_CASE("decimal commas and percentages read exactly as strtod reads the same number with up to 20 digits") {
  Pcg32 rng(16, 18);
  for (int i = 0; i < 100000; ++i) {
    std::string text = rng.below(4) == 0 ? "-" : "";
    const std::uint32_t whole_digits = 1 + rng.below(10), decimals = rng.below(11);
    for (std::uint32_t k = 0; k < whole_digits; ++k) text += static_cast<char>('0' + rng.below(10));
    std::string c_text = text;  // the same number as strtod reads it
    if (decimals) {
      const bool comma = rng.below(2) == 0;
      text += comma ? ',' : '.';
      c_text += '.';
    }
    for (std::uint32_t k = 0; k < decimals; ++k) {
      const char digit = static_cast<char>('0' + rng.below(10));
      text += digit;
      c_text += digit;
    }
    const bool percent = rng.below(2) == 0;
    if (percent) {
      text += '%';
      c_text += "e-2";
    }
    const CellReading r = read_number(text);
    INFO(text);
    REQUIRE(r.kind == CellReading::Kind::value);
    const double want = std::strtod(c_text.c_str(), nullptr);
    REQUIRE(r.value == (want == 0 ? 0.0 : want));
    if (want == 0) REQUIRE_FALSE(std::signbit(r.value));
    REQUIRE(r.decimals == static_cast<int>(decimals) + (percent ? 2 : 0));
  }
}
