#include "attnmark/lesson/number_reader.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <string>
#include <system_error>
#include <utility>

#include "base/text.h"

namespace attnmark {

namespace {

// Limits on what a student can write in one cell.
constexpr std::size_t max_answer_bytes = 64;      // after trimming
constexpr std::size_t max_significant_digits = 40;  // per decimal
constexpr std::size_t max_quoted_chars = 40;      // in a message, "…" included
// Exponents are read saturating at this size; anything past it is far outside
// double's range (unless the digits are all zero) and from_chars says so.
constexpr int max_exponent = 9999;

// UTF-8 spellings, as bytes so the source encoding does not matter.
constexpr std::string_view no_break_space = "\xC2\xA0";         // U+00A0
constexpr std::string_view narrow_no_break_space = "\xE2\x80\xAF";  // U+202F
constexpr std::string_view minus_sign = "\xE2\x88\x92";         // U+2212
constexpr std::string_view en_dash = "\xE2\x80\x93";            // U+2013
constexpr std::string_view em_dash = "\xE2\x80\x94";            // U+2014
constexpr std::string_view infinity_sign = "\xE2\x88\x9E";      // U+221E
constexpr std::string_view ellipsis = "\xE2\x80\xA6";           // U+2026
constexpr std::string_view replacement = "\xEF\xBF\xBD";        // U+FFFD

bool starts_with_at(std::string_view s, std::size_t i, std::string_view what) {
  return s.substr(i, what.size()) == what;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

// Bytes taken by a space (ASCII whitespace, U+00A0, U+202F) at s[i], or 0.
std::size_t space_at(std::string_view s, std::size_t i) {
  if (i >= s.size()) return 0;
  switch (s[i]) {
    case ' ': case '\t': case '\n': case '\v': case '\f': case '\r': return 1;
  }
  if (starts_with_at(s, i, no_break_space)) return no_break_space.size();
  if (starts_with_at(s, i, narrow_no_break_space)) return narrow_no_break_space.size();
  return 0;
}

// Bytes taken by a space ending just before s[end], or 0.
std::size_t space_before(std::string_view s, std::size_t end) {
  for (std::size_t n = 1; n <= 3 && n <= end; ++n)
    if (space_at(s, end - n) == n) return n;
  return 0;
}

std::size_t skip_spaces(std::string_view s, std::size_t i) {
  while (std::size_t n = space_at(s, i)) i += n;
  return i;
}

// `s` without the spaces a student types around a number, U+00A0 and U+202F
// included (base/text.h's trim takes ASCII white space only).
std::string_view trim_spaces(std::string_view s) {
  std::size_t begin = skip_spaces(s, 0);
  std::size_t end = s.size();
  while (end > begin) {
    std::size_t n = space_before(s, end);
    if (n == 0) break;
    end -= n;
  }
  return s.substr(begin, end - begin);
}

// Bytes taken by a minus or plus sign at s[i], or 0; sets negative.
std::size_t sign_at(std::string_view s, std::size_t i, bool& negative) {
  if (i >= s.size()) return 0;
  if (s[i] == '+' || s[i] == '-') {
    negative = s[i] == '-';
    return 1;
  }
  for (std::string_view minus : {minus_sign, en_dash})
    if (starts_with_at(s, i, minus)) {
      negative = true;
      return minus.size();
    }
  return 0;
}

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::size_t count_code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += !is_continuation_byte(c);
  return n;
}

// The text in single quotes for a message. REQUIRES: s is valid UTF-8.
// Control characters (is_control: C0, DEL, C1, the line separators and
// bidirectional controls) become U+FFFD so a message cannot drive a
// terminal or reorder a line; past max_quoted_chars the text is cut and ends
// in "…".
std::string quoted(std::string_view s) {
  bool cut = count_code_points(s) > max_quoted_chars;
  std::size_t keep = cut ? max_quoted_chars - 1 : max_quoted_chars;
  std::string out = "'";
  std::size_t i = 0;
  for (std::size_t chars = 0; i < s.size() && chars < keep; ++chars) {
    std::size_t length = 1;
    while (i + length < s.size() && is_continuation_byte(s[i + length])) ++length;
    std::uint32_t code_point = 0;
    if (decode_utf8(s, i, code_point) == 0 || is_control(code_point)) out += replacement;
    else out += s.substr(i, length);
    i += length;
  }
  if (cut) out += ellipsis;
  return out + "'";
}

CellReading unreadable(std::string problem) {
  CellReading reading;
  reading.kind = CellReading::Kind::unreadable;
  reading.problem = std::move(problem);
  return reading;
}

CellReading of_kind(CellReading::Kind kind) {
  CellReading reading;
  reading.kind = kind;
  return reading;
}

// One decimal as written, e.g. "66.5" or "0,665": views into the text.
struct Decimal {
  std::string_view int_digits;
  std::string_view frac_digits;
};

// Reads digits with at most one '.' or ',' from s[i]; false when no digit.
bool read_decimal(std::string_view s, std::size_t& i, Decimal& d) {
  std::size_t start = i;
  while (i < s.size() && is_digit(s[i])) ++i;
  d.int_digits = s.substr(start, i - start);
  d.frac_digits = {};
  if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
    std::size_t frac_start = ++i;
    while (i < s.size() && is_digit(s[i])) ++i;
    d.frac_digits = s.substr(frac_start, i - frac_start);
  }
  return !d.int_digits.empty() || !d.frac_digits.empty();
}

// Digits from the first non-zero one on.
std::size_t significant_digits(const Decimal& d) {
  std::string digits = std::string(d.int_digits) + std::string(d.frac_digits);
  std::size_t first = digits.find_first_not_of('0');
  return first == std::string::npos ? 0 : digits.size() - first;
}

// Reads [+-−]digits from s[i] into exponent, saturating at ±max_exponent.
bool read_exponent(std::string_view s, std::size_t& i, int& exponent) {
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    negative = s[i] == '-';
    ++i;
  } else if (starts_with_at(s, i, minus_sign)) {
    negative = true;
    i += minus_sign.size();
  }
  if (i >= s.size() || !is_digit(s[i])) return false;
  int magnitude = 0;
  for (; i < s.size() && is_digit(s[i]); ++i)
    magnitude = std::min(max_exponent, magnitude * 10 + (s[i] - '0'));
  exponent = negative ? -magnitude : magnitude;
  return true;
}

enum class Range { ok, too_large, too_small };

// The double nearest to d × 10^exponent, read by from_chars from ASCII.
Range to_double(const Decimal& d, int exponent, double& value) {
  std::string ascii = std::string(d.int_digits.empty() ? "0" : d.int_digits) + '.' +
                      std::string(d.frac_digits.empty() ? "0" : d.frac_digits) + 'e' +
                      std::to_string(exponent);
  if (std::from_chars(ascii.data(), ascii.data() + ascii.size(), value).ec == std::errc())
    return Range::ok;
  // Out of range: too large when the leading significant digit sits left of
  // the decimal point once the exponent is applied.
  std::string digits = std::string(d.int_digits) + std::string(d.frac_digits);
  long long lead = static_cast<long long>(digits.find_first_not_of('0'));
  long long place = static_cast<long long>(d.int_digits.size()) - lead + exponent;
  return place > 0 ? Range::too_large : Range::too_small;
}

CellReading range_problem(Range range, std::string_view text) {
  return unreadable(quoted(text) +
                    (range == Range::too_large ? " is too large" : " is too small"));
}

bool is_unanswered_spelling(std::string_view t) {
  using namespace std::literals;
  for (std::string_view s : {"~"sv, "-"sv, "?"sv, en_dash, em_dash, minus_sign})
    if (t == s) return true;
  return equals_ignoring_case(t, "null");
}

bool is_masked_word(std::string_view t) {
  return equals_ignoring_case(t, "masked") || equals_ignoring_case(t, "mask") ||
         equals_ignoring_case(t, "x");
}

bool is_infinity_word(std::string_view t) {
  return equals_ignoring_case(t, "inf") || equals_ignoring_case(t, "infinity") ||
         t == infinity_sign;
}

}  // namespace

namespace {

// The common case, a plain decimal such as "0.245", "-2", "0,245" or
// "24.5%", read without the general path's allocations (a class of 100,000
// has millions of cells), to the same value and decimals as the general path.
// Returns false for anything else, which the general path then reads.
bool read_plain_decimal(std::string_view text, CellReading& out) {
  if (text.empty() || text.size() > 24) return false;
  std::size_t i = text[0] == '-' ? 1 : 0;
  const std::size_t digits_start = i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  if (i == digits_start) return false;
  int decimals = 0;
  if (i < text.size() && (text[i] == '.' || text[i] == ',')) {
    const std::size_t fraction = ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    decimals = static_cast<int>(i - fraction);
    if (decimals == 0) return false;
  }
  const std::size_t digits_end = i;
  const bool percent = i < text.size() && text[i] == '%';
  if (i + percent != text.size()) return false;
  const std::size_t digits = digits_end - digits_start - (decimals > 0 ? 1 : 0);
  if (digits > 15) return false;
  // Up to 15 digits: the digits and 10^(decimals + 2) are exact doubles, so
  // one correctly rounded division gives what from_chars would (Clinger's
  // fast path).
  static constexpr double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                      1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17};
  std::uint64_t whole = 0;
  for (std::size_t k = digits_start; k < digits_end; ++k)
    if (text[k] >= '0' && text[k] <= '9') whole = whole * 10 + static_cast<std::uint64_t>(text[k] - '0');
  if (percent) decimals += 2;
  const double value = static_cast<double>(whole) / powers[decimals];
  out.kind = CellReading::Kind::value;
  out.value = value == 0 ? 0.0 : text[0] == '-' ? -value : value;  // "-0" reads as +0, as on the general path
  out.decimals = decimals;
  return true;
}

}  // namespace

CellReading read_number(std::string_view raw, bool masked_allowed) {
  using Kind = CellReading::Kind;
  if (CellReading fast; read_plain_decimal(raw, fast)) return fast;
  // Checked before anything is quoted, so messages are always valid text.
  if (raw.find('\0') != std::string_view::npos) return unreadable("answer contains a NUL byte");
  if (first_invalid_utf8(raw) != std::string_view::npos) return unreadable("answer is not valid UTF-8 text");

  std::string_view text = trim_spaces(raw);
  if (text.size() > max_answer_bytes)
    return unreadable("answer is too long (" + std::to_string(count_code_points(text)) +
                      " characters)");
  if (text.empty()) return of_kind(masked_allowed ? Kind::masked : Kind::unanswered);
  if (is_unanswered_spelling(text)) return of_kind(Kind::unanswered);
  if (is_masked_word(text)) {
    if (masked_allowed) return of_kind(Kind::masked);
    return unreadable(quoted(text) + " is not a number: this cell is not masked");
  }

  bool negative = false;
  std::size_t sign_length = sign_at(text, 0, negative);
  std::size_t i = skip_spaces(text, sign_length);
  std::string_view body = text.substr(i);

  if (equals_ignoring_case(body, "nan")) return unreadable(quoted(text) + " is not a number");
  if (is_infinity_word(body)) {
    if (!negative) return unreadable(quoted(text) + " is not a finite number");
    if (masked_allowed) return of_kind(Kind::masked);
    return unreadable(quoted(text) + " is not a number: only a masked score can be -" +
                      std::string(infinity_sign));
  }

  const auto could_not_read = [&] { return unreadable("could not read " + quoted(text) + " as a number"); };
  Decimal first;
  if (!read_decimal(text, i, first)) return could_not_read();

  // A fraction: decimal [spaces] '/' [spaces] decimal.
  std::size_t after_spaces = skip_spaces(text, i);
  if (after_spaces < text.size() && text[after_spaces] == '/') {
    i = skip_spaces(text, after_spaces + 1);
    Decimal second;
    if (!read_decimal(text, i, second) || i != text.size()) return could_not_read();
    for (const Decimal* d : {&first, &second})
      if (significant_digits(*d) > max_significant_digits)
        return unreadable(quoted(text) + " has more than 40 significant digits");
    double numerator = 0, denominator = 0;
    to_double(first, 0, numerator);  // cannot fail: under 64 digits, no exponent
    to_double(second, 0, denominator);
    if (denominator == 0) return unreadable("cannot divide by zero in " + quoted(text));
    // Cannot overflow or underflow: each part lies within about 1e±64.
    double value = numerator / denominator;
    CellReading reading = of_kind(Kind::value);
    reading.value = negative ? -value : value;
    if (reading.value == 0) reading.value = 0;  // "-0/2" reads as +0
    return reading;
  }

  // A decimal: decimal [exponent] [spaces] ['%'].
  int exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (!read_exponent(text, i, exponent)) return could_not_read();
  }
  bool percent = false;
  after_spaces = skip_spaces(text, i);
  if (after_spaces < text.size() && text[after_spaces] == '%') {
    percent = true;
    i = after_spaces + 1;
  }
  if (i != text.size()) return could_not_read();
  if (significant_digits(first) > max_significant_digits)
    return unreadable(quoted(text) + " has more than 40 significant digits");

  if (percent) exponent -= 2;
  double value = 0;
  if (Range range = to_double(first, exponent, value); range != Range::ok)
    return range_problem(range, text);
  CellReading reading = of_kind(Kind::value);
  reading.value = negative ? -value : value;
  if (reading.value == 0) reading.value = 0;  // "-0" reads as +0
  reading.decimals = std::max(0, static_cast<int>(first.frac_digits.size()) - exponent);
  return reading;
}

namespace {

constexpr std::size_t max_token_answer_bytes = 120;

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// A byte that can be part of a word: ASCII letters and digits, and every
// byte of a non-ASCII character (tokens may be in any script).
bool is_word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || (c >= '0' && c <= '9') || (ascii_lower(c) >= 'a' && ascii_lower(c) <= 'z');
}

// s without the quotes, brackets and punctuation students put around a word.
std::string_view strip_around(std::string_view s) {
  using namespace std::literals;
  static constexpr std::string_view marks[] = {
      "'"sv, "\""sv, "`"sv, "("sv, ")"sv, "["sv, "]"sv, "."sv, ","sv, ";"sv, ":"sv, "!"sv, "?"sv, "*"sv,
      "\xE2\x80\x98"sv, "\xE2\x80\x99"sv, "\xE2\x80\x9C"sv, "\xE2\x80\x9D"sv, "\xC2\xAB"sv, "\xC2\xBB"sv};
  for (bool changed = true; changed;) {
    changed = false;
    s = trim_spaces(s);
    for (std::string_view m : marks) {
      if (s.size() >= m.size() && s.substr(0, m.size()) == m) s.remove_prefix(m.size()), changed = true;
      if (s.size() >= m.size() && s.substr(s.size() - m.size()) == m) s.remove_suffix(m.size()), changed = true;
    }
  }
  return s;
}

bool has_word_byte(std::string_view s) {
  for (char c : s)
    if (is_word_byte(c)) return true;
  return false;
}

// True when `word` occurs in `text` as a whole word. Both in lower case.
bool has_whole_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !is_word_byte(text[at - 1]) || !is_word_byte(word.front());
    const std::size_t end = at + word.size();
    const bool ends = end == text.size() || !is_word_byte(text[end]) || !is_word_byte(word.back());
    if (starts && ends) return true;
  }
  return false;
}

// "2", "#2", "no. 2", "token 2", "2nd": a position, not a word.
bool looks_like_position(std::string_view s) {
  std::string t = lower_ascii(trim_spaces(s));
  for (std::string_view before : {"token", "position", "number", "no.", "no", "#"})
    if (t.rfind(before, 0) == 0) {
      t.erase(0, before.size());
      t = std::string(trim_spaces(t));
    }
  std::size_t i = 0;
  while (i < t.size() && is_digit(t[i])) ++i;
  if (i == 0) return false;
  const std::string_view after = std::string_view(t).substr(i);
  return after.empty() || after == "st" || after == "nd" || after == "rd" || after == "th";
}

std::string token_list(const std::vector<std::string>& tokens) {
  std::vector<std::string> words;
  for (const std::string& t : tokens) {
    const std::string w(trim_spaces(t));
    bool seen = false;
    for (const std::string& o : words) seen = seen || o == w;
    if (!seen) words.push_back(w);
  }
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return out;
}

// The text in single quotes, cut as quoted() cuts it, its characters as
// written: a most-attended answer is shown back as the student wrote it, and
// every report escapes control characters its own way.
std::string quoted_as_written(std::string_view s) {
  if (count_code_points(s) <= max_quoted_chars) return "'" + std::string(s) + "'";
  std::size_t i = 0;
  for (std::size_t chars = 0; i < s.size() && chars < max_quoted_chars - 1; ++chars) {
    ++i;
    while (i < s.size() && is_continuation_byte(s[i])) ++i;
  }
  return "'" + std::string(s.substr(0, i)) + std::string(ellipsis) + "'";
}

TokenReading token_problem(std::string problem) {
  TokenReading out;
  out.kind = TokenReading::Kind::unreadable;
  out.problem = std::move(problem);
  return out;
}

}  // namespace

TokenReading read_token(std::string_view raw, const std::vector<std::string>& tokens) {
  if (raw.find('\0') != std::string_view::npos) return token_problem("answer contains a NUL byte");
  if (first_invalid_utf8(raw) != std::string_view::npos) return token_problem("answer is not valid UTF-8 text");
  const std::string_view text = trim_spaces(raw);
  if (text.size() > max_token_answer_bytes)
    return token_problem("answer is too long (" + std::to_string(count_code_points(text)) + " characters)");
  if (text.empty() || is_unanswered_spelling(text)) return {};
  const auto found = [&](std::string_view word) {
    TokenReading out;
    out.kind = TokenReading::Kind::token;
    out.word = std::string(word);
    return out;
  };
  std::vector<std::string> words;  // each token's word, lower case
  for (const std::string& t : tokens) words.push_back(lower_ascii(trim_spaces(t)));
  // The word itself, then without what surrounds it.
  const std::string whole = lower_ascii(text);
  for (const std::string& w : words)
    if (w == whole) return found(w);
  const std::string bare = lower_ascii(strip_around(text));
  for (const std::string& w : words)
    if (!w.empty() && w == bare) return found(w);
  // Among other words: exactly one token named.
  std::vector<std::string_view> named;
  for (const std::string& w : words)
    if (!w.empty() && has_word_byte(w) && has_whole_word(whole, w) &&
        std::find(named.begin(), named.end(), std::string_view(w)) == named.end())
      named.push_back(w);
  if (named.size() == 1) return found(named[0]);
  const std::string write = "write the word of one token (" + token_list(tokens) + ")";
  if (named.size() > 1) return token_problem(quoted_as_written(raw) + " names more than one token; " + write);
  if (looks_like_position(bare)) return token_problem(quoted_as_written(raw) + " looks like a position; " + write);
  TokenReading none = token_problem(quoted_as_written(raw) + " is not one of the tokens; " + write);
  none.kind = TokenReading::Kind::not_a_token;
  return none;
}

}  // namespace attnmark
