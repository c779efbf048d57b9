#include "writers/csv_writer.h"

namespace attnmark {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// An ASCII sign, digits with at most one '.', an optional exponent: text a
// spreadsheet shows as a number, never runs as a formula.
bool is_plain_number(std::string_view t) {
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  std::size_t digits = 0;
  for (; i < t.size() && is_digit(t[i]); ++i) ++digits;
  if (i < t.size() && t[i] == '.')
    for (++i; i < t.size() && is_digit(t[i]); ++i) ++digits;
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (i >= t.size() || !is_digit(t[i])) return false;
    while (i < t.size() && is_digit(t[i])) ++i;
  }
  return i == t.size();
}

}  // namespace

void append_csv_field(std::string& out, std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += text;
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

std::string csv_field(std::string_view text) {
  std::string out;
  append_csv_field(out, text);
  return out;
}

void append_csv_text_field(std::string& out, std::string_view text) {
  constexpr std::string_view formula_starts = "=+-@\t\r";
  // Full-width = + - @ (U+FF1D, U+FF0B, U+FF0D, U+FF20): some spreadsheets
  // fold them to ASCII when a cell is typed or imported.
  constexpr std::string_view wide_starts[] = {"\xEF\xBC\x9D", "\xEF\xBC\x8B", "\xEF\xBC\x8D",
                                              "\xEF\xBC\xA0"};
  bool runs_as_formula = !text.empty() &&
                         formula_starts.find(text.front()) != std::string_view::npos &&
                         !is_plain_number(text);
  for (std::string_view wide : wide_starts) runs_as_formula = runs_as_formula || text.starts_with(wide);
  if (!runs_as_formula) return append_csv_field(out, text);
  std::string quoted = "'";  // (appended, not "'" + text: GCC 12 -O3 warns wrongly on that)
  quoted += text;
  append_csv_field(out, quoted);
}

std::string csv_text_field(std::string_view text) {
  std::string out;
  append_csv_text_field(out, text);
  return out;
}

}  // namespace attnmark
