// attnmark/lesson/number_reader.h: reads one answer cell the way students write numbers.
//
//   read_number("66.5 %")      -> value 0.665, decimals 3
//   read_number("−1/4")        -> value -0.25, decimals -1 (a fraction)
//   read_number("", true)      -> masked (a blank causal-masked score)
//   read_number("6.6.5")       -> unreadable, "could not read '6.6.5' as a number"
//
// What is accepted, after trimming ASCII whitespace, U+00A0 and U+202F:
//   [sign] [spaces] number
//   sign:     '+', '-', U+2212 (minus) or U+2013 (en dash, typed as a minus).
//             At most one, and only at the front: "--5", "+-5", "1/-4" are
//             unreadable. Spaces are allowed only right after it ("- 2").
//   number:   decimal [exponent] [spaces] ['%']   or   decimal [spaces] '/' [spaces] decimal
//   decimal:  digits with at most one separator, '.' or ',' ("0.665", ".665",
//             "665.", "0,665"). A comma is always a decimal comma, so "1,000"
//             is 1.0 (three decimals), never one thousand; "1,000.5" (both
//             separators) is unreadable. No thousands separators, no inner
//             spaces ("1 000" is unreadable).
//   exponent: 'e' or 'E', an optional sign ('+', '-', U+2212), digits.
//   '%':      divides by 100 ("66.5%" is 0.665); not allowed on a fraction.
//   fraction: both parts plain decimals (no sign, exponent or '%'); the
//             denominator must not be zero.
// Any zero, including "-0", reads as +0.
//
// Unanswered: blank, "~", "-", "?", "null" (any case), or a lone dash:
// U+2013 (en), U+2014 (em) or U+2212 (minus).
//
// Masked (only when masked_allowed): blank, "-inf", "-infinity", "-∞" with any
// accepted minus and any case, "masked", "mask", "x" (any case). Elsewhere
// these are unreadable, with a message saying the cell is not masked.
//
// Unreadable, with a message for the student (text quoted and cut to 40
// characters, the last being "…"; control characters shown as U+FFFD):
//   "answer contains a NUL byte", "answer is not valid UTF-8 text",
//   "answer is too long (N characters)"   more than 64 bytes once trimmed;
//                                         N counts characters (code points),
//   "'X' has more than 40 significant digits"  in one decimal, leading zeros
//                                         not counted,
//   "'1e309' is too large", "'1e-400' is too small"  beyond double's range
//                                         (subnormal values are accepted),
//   "cannot divide by zero in '1/0'",
//   "'NaN' is not a number", "'inf' is not a finite number",
//   "'-inf' is not a number: only a masked score can be -∞",
//   "'x' is not a number: this cell is not masked",
//   "could not read 'X' as a number"      anything else.
//
// Parsing is locale independent: the text is normalised to ASCII and read
// with std::from_chars, so the value is the correctly rounded double of what
// was written ("66.5%" gives exactly the double nearest 0.665).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attnmark {

// What one answer cell holds once read.
struct CellReading {
  enum class Kind { value, unanswered, masked, unreadable };
  Kind kind = Kind::unanswered;
  double value = 0;     // valid when kind == value
  std::string problem;  // when unreadable: a kind sentence quoting the text,
                        // e.g. "could not read '6.6.5' as a number"
  // Decimal places of the resulting value as the student wrote it, counting
  // the exponent and '%': "0.665" 3, "2" 0, "66.5%" 3, "1.5e-2" 3, "1e3" 0
  // (never below 0), "0,665" 3. -1 for a fraction and when kind != value.
  // Can be large for silly but valid text such as "0e-9999".
  int decimals = -1;
};

// REQUIRES: nothing; any bytes are allowed (untrusted input). Never throws
// (except std::bad_alloc).
// masked_allowed: the cell is a masked (causal) score, so the masked
// spellings are accepted.
CellReading read_number(std::string_view text, bool masked_allowed = false);

// What a most-attended answer names once read.
struct TokenReading {
  enum class Kind {
    token,
    unanswered,
    not_a_token,  // a word, or words, naming no token: a wrong answer
    unreadable,
  };
  Kind kind = Kind::unanswered;
  std::string word;     // when token: the token as the rubric writes it, trimmed and in lower case
  std::string problem;  // otherwise: a sentence quoting the text that says to write the token's word
};

// The token `text` names, the way students write one: the word in any case
// ("IS"), in quotes or brackets ("'is'", "(is)"), with trailing punctuation
// ("is."), or with other words that name no other token ("is (0.576)",
// "token is"). Unanswered as read_number's unanswered spellings. Unreadable:
// a position number ("2", "#2", "token 2"), text naming two tokens ("bus or
// is"), and what read_number refuses (NUL, invalid UTF-8, over 120 bytes).
// Text naming no token ("cat") is not_a_token. A token is found as a whole
// word: "this" does not name "is".
//   read_token("Is.", {"bus", "is", "late"}).word == "is"
//   read_token("2", {"bus", "is", "late"}).kind == TokenReading::Kind::unreadable
TokenReading read_token(std::string_view text, const std::vector<std::string>& tokens);

}  // namespace attnmark
