#include "readers/submitted_time.h"

#include <fmt/format.h>

#include "base/text.h"

namespace attnmark {
namespace {

// Days since 1970-01-01 of a date of the proleptic Gregorian calendar
// (H. Hinnant's days_from_civil): exact for every year, no time zone.
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool is_leap(std::int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned days_in_month(std::int64_t y, unsigned m) {
  static constexpr unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A left-to-right reader of one time's text.
struct Cursor {
  std::string_view s;
  std::size_t at = 0;

  bool done() const { return at == s.size(); }
  char peek() const { return done() ? '\0' : s[at]; }
  bool take(char c) {
    if (peek() != c) return false;
    ++at;
    return true;
  }
  // A word, without regard to case ("GMT", "am").
  bool take_word(std::string_view word) {
    if (s.size() - at < word.size() || lower(s.substr(at, word.size())) != word) return false;
    at += word.size();
    return true;
  }
  std::size_t skip_spaces() {
    const std::size_t from = at;
    while (peek() == ' ' || peek() == '\t') ++at;
    return at - from;
  }
  // 1 to `most` digits as a number; `digits` gets how many there were.
  std::optional<unsigned> number(std::size_t most, std::size_t* digits = nullptr) {
    const std::size_t from = at;
    unsigned value = 0;
    while (!done() && is_digit(s[at]) && at - from < most) value = value * 10 + static_cast<unsigned>(s[at++] - '0');
    if (at == from || (!done() && is_digit(s[at]))) return std::nullopt;
    if (digits) *digits = at - from;
    return value;
  }
};

struct Civil {
  std::int64_t year = 0;
  unsigned month = 0, day = 0, hour = 0, minute = 0, second = 0;
  std::int64_t offset = 0;  // seconds east of UTC
};

bool read_date(Cursor& c, DateOrder order, Civil& t) {
  std::size_t first_digits = 0, last_digits = 0;
  const std::optional<unsigned> a = c.number(4, &first_digits);
  if (!a) return false;
  const char separator = c.peek();
  if (separator != '-' && separator != '/' && separator != '.') return false;
  ++c.at;
  const std::optional<unsigned> b = c.number(2);
  if (!b || !c.take(separator)) return false;
  const std::optional<unsigned> z = c.number(4, &last_digits);
  if (!z) return false;
  if (first_digits == 4) {  // year first: always year, month, day
    if (separator == '.' || last_digits > 2) return false;
    t.year = *a;
    t.month = *b;
    t.day = *z;
  } else {
    if (first_digits > 2 || (last_digits != 4 && last_digits != 2)) return false;
    t.year = last_digits == 2 ? 2000 + *z : *z;
    const bool day_first = separator == '.' || order == DateOrder::day_first;
    t.day = day_first ? *a : *b;
    t.month = day_first ? *b : *a;
  }
  return t.month >= 1 && t.month <= 12 && t.day >= 1 && t.day <= days_in_month(t.year, t.month);
}

bool read_clock(Cursor& c, Civil& t) {
  const std::optional<unsigned> h = c.number(2);
  if (!h || !c.take(':')) return false;
  std::size_t digits = 0;
  const std::optional<unsigned> m = c.number(2, &digits);
  if (!m || digits != 2) return false;
  t.hour = *h;
  t.minute = *m;
  if (c.take(':')) {
    const std::optional<unsigned> sec = c.number(2, &digits);
    if (!sec || digits != 2) return false;
    t.second = *sec;
    if (c.peek() == '.' || c.peek() == ',') {  // a fraction of a second: compared to the second, so dropped
      ++c.at;
      if (!is_digit(c.peek())) return false;
      while (is_digit(c.peek())) ++c.at;
    }
  }
  if (t.minute > 59 || t.second > 59) return false;
  const std::size_t before = c.at;
  c.skip_spaces();
  const bool am = c.take_word("am"), pm = !am && c.take_word("pm");
  if (am || pm) {
    if (t.hour < 1 || t.hour > 12) return false;
    t.hour = t.hour % 12 + (pm ? 12 : 0);
  } else {
    c.at = before;
  }
  return t.hour <= 23;
}

// An offset after its sign: hh, hh:mm or hhmm (and h, h:mm after GMT or UTC).
bool read_offset(Cursor& c, bool after_name, Civil& t) {
  const int sign = c.take('+') ? 1 : c.take('-') ? -1 : 0;
  if (!sign) return false;
  std::size_t digits = 0;
  const std::optional<unsigned> n = c.number(4, &digits);
  if (!n) return false;
  unsigned hours = 0, minutes = 0;
  if (digits == 4) {
    hours = *n / 100;
    minutes = *n % 100;
  } else if (digits == 2 || (digits == 1 && after_name)) {
    hours = *n;
    if (c.take(':')) {
      const std::optional<unsigned> m = c.number(2, &digits);
      if (!m || digits != 2) return false;
      minutes = *m;
    }
  } else {
    return false;
  }
  if (hours > 14 || minutes > 59) return false;
  t.offset = sign * static_cast<std::int64_t>(hours * 3600 + minutes * 60);
  return true;
}

bool read_zone(Cursor& c, Civil& t) {
  if (c.take('Z') || c.take('z')) return true;
  if (c.take_word("utc") || c.take_word("gmt")) {
    if (c.peek() == '+' || c.peek() == '-') return read_offset(c, true, t);
    return true;
  }
  return read_offset(c, false, t);
}

}  // namespace

DateOrder date_order_of(const std::vector<std::string>& texts) {
  bool day_first = false;
  for (const std::string& text : texts) {
    const std::string_view t = trim(text);
    if (parse_submitted_time(t, DateOrder::month_first)) {
      if (!parse_submitted_time(t, DateOrder::day_first)) return DateOrder::month_first;  // 1/13/2026
    } else if (parse_submitted_time(t, DateOrder::day_first)) {
      day_first = true;  // 13/1/2026
    }
  }
  return day_first ? DateOrder::day_first : DateOrder::month_first;
}

std::optional<std::int64_t> parse_submitted_time(std::string_view text, DateOrder order) {
  Cursor c{trim(text)};
  Civil t;
  if (!read_date(c, order, t)) return std::nullopt;
  if (!c.done()) {
    if (c.take('T') || c.take('t')) {
      if (!read_clock(c, t)) return std::nullopt;
    } else {
      const bool comma = c.take(',');
      if (!c.skip_spaces() && !comma) return std::nullopt;
      if (!read_clock(c, t)) return std::nullopt;
    }
    c.skip_spaces();
    if (!c.done() && !read_zone(c, t)) return std::nullopt;
    c.skip_spaces();
    if (!c.done()) return std::nullopt;
  }
  return days_from_civil(t.year, t.month, t.day) * 86400 + t.hour * 3600 + t.minute * 60 + t.second - t.offset;
}

std::string utc_text(std::int64_t seconds) {
  // H. Hinnant's civil_from_days.
  const std::int64_t days = (seconds >= 0 ? seconds : seconds - 86399) / 86400;
  const std::int64_t in_day = seconds - days * 86400;
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", y, m, d, in_day / 3600, in_day / 60 % 60, in_day % 60);
}

}  // namespace attnmark
