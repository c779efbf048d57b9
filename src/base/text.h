// base/text.h: the one home of attnmark's text helpers: trimming and case,
// UTF-8 decoding, untrusted bytes made safe to show, the encoding check that
// every reader of untrusted files runs before any parser sees the bytes, the
// check of a student id, and repeated notes summed up.
//
//   trim("  s001\r\n") == "s001";   lower("Student ID") == "student id"
//   if (std::string why = encoding_problem(bytes); !why.empty()) refuse(why);
//   note("unknown key " + quoted_printable(key));  // "unknown key 'a\nb'" on one line
//
// Header-only: small, and used by every layer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace attnmark {

// ASCII white space as files and sheets hold it: space, tab, CR and LF.
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// `text` without white space (is_space) at either end.
//   trim(" a b \n") == "a b"
inline std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

// True when `text` is empty or only white space (is_space).
inline bool is_blank(std::string_view text) { return trim(text).empty(); }

// `text` with ASCII capitals made small; other bytes (UTF-8 included) as they are.
//   lower("SIS User ID") == "sis user id"
inline std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The edit distance between two words (insertions, deletions, changes).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// " (did you mean 'weights'?)" for the nearest of `allowed` to a misspelt
// `given` (at most 2 edits away; the first of equals), else "". The one
// home of "did you mean" for rubrics and answer files alike.
//   did_you_mean("weigths", {"scores", "weights"}) == " (did you mean 'weights'?)"
inline std::string did_you_mean(std::string_view given, const std::vector<std::string>& allowed) {
  std::string best;
  std::size_t best_distance = 3;  // only close misspellings
  for (const std::string& word : allowed) {
    const std::size_t d = edit_distance(given, word);
    if (d < best_distance) {
      best_distance = d;
      best = word;
    }
  }
  return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

// Decodes the UTF-8 character that starts at text[i] into `code_point` and
// returns its length in bytes, or 0 when the bytes there are not one
// well-formed character (overlong, a surrogate, above U+10FFFF, a stray
// continuation byte, or cut short). REQUIRES: i < text.size().
//   decode_utf8("\xC3\xA9", 0, cp) == 2 && cp == 0xE9
inline std::size_t decode_utf8(std::string_view text, std::size_t i, std::uint32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  const std::size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || text.size() - i < n) return 0;
  std::uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (byte(i + k) & 0x3F);
  }
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  code_point = cp;
  return n;
}

// Appends code point `cp` to `out` as UTF-8; false (and nothing appended)
// for a surrogate or a value above U+10FFFF, which UTF-8 cannot hold.
//   encode_utf8(0xE9, s) appends "\xC3\xA9"
inline bool encode_utf8(std::uint32_t cp, std::string& out) {
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return true;
}

// True for a code point that changes how the text around it shows rather
// than showing itself: C0 controls, DEL, C1 controls (U+0080 to U+009F), the
// line and paragraph separators (U+2028, U+2029) and the bidirectional
// controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069).
// Never part of a name; unsafe in file names, reports and terminals.
inline bool is_control(std::uint32_t code_point) {
  return code_point < 0x20 || (code_point >= 0x7F && code_point <= 0x9F) || code_point == 0x061C ||
         code_point == 0x200E || code_point == 0x200F || code_point == 0x2028 || code_point == 0x2029 ||
         (code_point >= 0x202A && code_point <= 0x202E) || (code_point >= 0x2066 && code_point <= 0x2069);
}

// The offset of the first control character (is_control) in text, or npos.
// Bytes that are not well-formed UTF-8 are passed over (encoding_problem and
// first_invalid_utf8 are the checks for those).
inline std::size_t find_control(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t code_point = 0;
    const std::size_t n = decode_utf8(text, i, code_point);
    if (n != 0 && is_control(code_point)) return i;
    i += n == 0 ? 1 : n;
  }
  return std::string_view::npos;
}

// True when text holds a control character (is_control).
inline bool has_control(std::string_view text) { return find_control(text) != std::string_view::npos; }

// Text safe to show on one line of a terminal or report, and always
// well-formed UTF-8 whatever the bytes: line feed, carriage return and tab
// as \n, \r, \t; other C0 controls and DEL as \xHH; the other control
// characters of is_control (C1, separators, bidirectional) as \uHHHH; every
// byte that is not part of a well-formed UTF-8 character as \xHH. Cut to at
// most max_bytes of output, never inside a character or an escape, with
// "..." after a cut.
//   printable("a\nb\x1B[1m", 60) == "a\\nb\\x1B[1m"
//   printable("\xE9t\xC3\xA9", 60) == "\\xE9t\xC3\xA9"      (é kept, the Latin-1 byte escaped)
//   printable("x\u202Ey", 60) == "x\\u202Ey"
//   printable("abcdef", 4) == "abcd..."
inline std::string printable(std::string_view text, std::size_t max_bytes) {
  constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  char escape[7];  // the longest unit: "\uHHHH"
  std::size_t i = 0;
  while (i < text.size()) {
    // A run of plain ASCII (space to '~'), nearly all text, is copied whole.
    std::size_t plain = i;
    while (plain < text.size() && static_cast<unsigned char>(text[plain]) - 0x20u < 0x5Fu) ++plain;
    if (plain > i) {
      if (out.size() + (plain - i) > max_bytes) {
        out.append(text.data() + i, max_bytes - out.size());
        return out + "...";
      }
      out.append(text.data() + i, plain - i);
      i = plain;
      if (i == text.size()) break;
    }
    std::uint32_t code_point = 0;
    const std::size_t n = decode_utf8(text, i, code_point);
    std::string_view unit;  // what text[i, i + n) (or the one bad byte) becomes
    if (n == 0) {
      const unsigned char c = static_cast<unsigned char>(text[i]);
      escape[0] = '\\', escape[1] = 'x', escape[2] = hex[c >> 4], escape[3] = hex[c & 15];
      unit = std::string_view(escape, 4);
    } else if (code_point == '\n') {
      unit = "\\n";
    } else if (code_point == '\r') {
      unit = "\\r";
    } else if (code_point == '\t') {
      unit = "\\t";
    } else if (code_point < 0x20 || code_point == 0x7F) {
      escape[0] = '\\', escape[1] = 'x', escape[2] = hex[code_point >> 4], escape[3] = hex[code_point & 15];
      unit = std::string_view(escape, 4);
    } else if (is_control(code_point)) {
      escape[0] = '\\', escape[1] = 'u';
      for (int k = 0; k < 4; ++k) escape[2 + k] = hex[(code_point >> (12 - 4 * k)) & 15];
      unit = std::string_view(escape, 6);
    } else {
      unit = text.substr(i, n);
    }
    if (out.size() + unit.size() > max_bytes) return out + "...";
    out += unit;
    i += n == 0 ? 1 : n;
  }
  return out;
}

// printable(), in single quotes, cut at 60 bytes: how a message quotes what
// a user wrote.
inline std::string quoted_printable(std::string_view text) {
  std::string out = "'";  // (appended, not "'" + ...: GCC 12 -O3 warns wrongly on that)
  out += printable(text, 60);
  out += '\'';
  return out;
}

// The most bytes of a student's answer cell that any report or feedback
// quotes (docs/safety.md): a cell is read whole, but never repeated whole.
inline constexpr std::size_t max_cell_quote_bytes = 60;

// The one home of quoting a student's cell in a report, feedback or hint
// (JSON, Markdown, HTML, check's table, the served page): `text` as it is
// when it is at most max_cell_quote_bytes bytes; else its first characters
// up to a UTF-8 character boundary and then "…", at most
// max_cell_quote_bytes bytes in all. A byte that is not UTF-8 counts as one
// character (each format escapes it its own way, after this cut).
//   cell_quote("0.665") == "0.665"
//   cell_quote(std::string(900000, '9')) == std::string(57, '9') + "…"   (60 bytes)
inline std::string cell_quote(std::string_view text) {
  if (text.size() <= max_cell_quote_bytes) return std::string(text);
  constexpr std::string_view marker = "\u2026";  // …, 3 bytes
  const std::size_t room = max_cell_quote_bytes - marker.size();
  std::size_t end = 0;
  while (end < text.size()) {
    std::uint32_t code_point = 0;
    const std::size_t n = decode_utf8(text, end, code_point);
    const std::size_t unit = n == 0 ? 1 : n;
    if (end + unit > room) break;
    end += unit;
  }
  std::string out(text.substr(0, end));
  out += marker;
  return out;
}

// The offset of the first byte that does not start a well-formed UTF-8
// character (no overlongs, surrogates or code points above U+10FFFF), or npos.
inline std::size_t first_invalid_utf8(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size()) {
    // ASCII, 8 bytes at a time: a class sheet is megabytes of it.
    std::uint64_t eight;
    if (t.size() - i >= 8 && (std::memcpy(&eight, t.data() + i, 8), (eight & 0x8080808080808080ULL) == 0)) {
      i += 8;
      continue;
    }
    std::uint32_t code_point;
    const std::size_t n = decode_utf8(t, i, code_point);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

// The 1-based line of byte `at`, counting CRLF, LF and a lone CR as breaks.
inline int line_of(std::string_view t, std::size_t at) {
  int line = 1;
  for (std::size_t i = 0; i < at && i < t.size(); ++i)
    if (t[i] == '\n' || (t[i] == '\r' && (i + 1 >= t.size() || t[i + 1] != '\n'))) ++line;
  return line;
}

// Why bytes cannot be read as UTF-8 text, or "" when they can. One of:
//   "UTF-16 text; save the file as UTF-8"     a UTF-16 byte-order mark, or
//                                             none but every other byte NUL
//   "UTF-32 text; save the file as UTF-8"     a UTF-32 byte-order mark
//   "binary file (contains NUL bytes)"
//   "not UTF-8 text (byte 0xE9 at line 3); save the file as UTF-8"
// `what` names the file in the advice ("save the roster as UTF-8").
// A UTF-8 byte-order mark is fine (callers skip it).
inline std::string encoding_problem(std::string_view text, std::string_view what = "file") {
  using namespace std::literals;
  if (text.starts_with("\xFF\xFE\x00\x00"sv) || text.starts_with("\x00\x00\xFE\xFF"sv))
    return "UTF-32 text; save the " + std::string(what) + " as UTF-8";
  if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF"))
    return "UTF-16 text; save the " + std::string(what) + " as UTF-8";  // before NUL: UTF-16 is full of them
  const std::size_t nul = text.find('\0');
  if (nul != std::string_view::npos) {
    // UTF-16 without a byte-order mark (as some Windows tools save): ASCII
    // text with a NUL in every even or every odd byte of its start.
    const std::size_t n = std::min<std::size_t>(text.size() & ~std::size_t{1}, 512);
    bool even = n >= 4, odd = n >= 4;
    for (std::size_t i = 0; i + 1 < n; i += 2) {
      even = even && text[i] == '\0' && text[i + 1] != '\0';
      odd = odd && text[i + 1] == '\0' && text[i] != '\0';
    }
    if (even || odd) return "UTF-16 text; save the " + std::string(what) + " as UTF-8";
    return "binary file (contains NUL bytes)";
  }
  const std::size_t bad = first_invalid_utf8(text);
  if (bad == std::string_view::npos) return {};
  constexpr char hex[] = "0123456789ABCDEF";
  const unsigned char c = static_cast<unsigned char>(text[bad]);
  return std::string("not UTF-8 text (byte 0x") + hex[c >> 4] + hex[c & 15] + " at line " +
         std::to_string(line_of(text, bad)) + "); save the " + std::string(what) + " as UTF-8";
}

// Why `text` cannot be read as an input file of at most max_bytes, or ""
// when it can: its encoding_problem first, then its size ("file is 9000001
// bytes; the limit is 8000000", where `limit` names the limit: "the limit
// for a sheet").
inline std::string input_problem(std::string_view text, std::size_t max_bytes, std::string_view limit = "the limit") {
  if (std::string problem = encoding_problem(text); !problem.empty()) return problem;
  if (text.size() > max_bytes)
    return "file is " + std::to_string(text.size()) + " bytes; " + std::string(limit) + " is " + std::to_string(max_bytes);
  return {};
}

// A count as people read it, in groups of three digits: grouped(9990) == "9,990".
inline std::string grouped(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// Why `id` cannot be a student id, or "" when it can: ids are printed on
// sheets and reports and made into file names, so they are UTF-8 without
// control characters (is_control).
//   "is not UTF-8 text (byte 0xE9)"
//   "contains a control character (U+202E)"
inline std::string student_id_problem(std::string_view id) {
  constexpr char hex[] = "0123456789ABCDEF";
  if (const std::size_t bad = first_invalid_utf8(id); bad != std::string_view::npos) {
    const unsigned char c = static_cast<unsigned char>(id[bad]);
    return std::string("is not UTF-8 text (byte 0x") + hex[c >> 4] + hex[c & 15] + ")";
  }
  const std::size_t at = find_control(id);
  if (at == std::string_view::npos) return {};
  std::uint32_t code_point = 0;
  decode_utf8(id, at, code_point);
  std::string u = "U+";
  for (int k = 0; k < 4; ++k) u += hex[(code_point >> (12 - 4 * k)) & 15];
  return "contains a control character (" + u + ")";
}

// Notes of one kind kept proportional to the people who read them, not to
// the input: the first `keep` are written out, the rest only counted and
// summed up in one note at the end. So a file of 100,000 unknown keys gives
// eleven notes, not 100,000.
//   RepeatedNotes unknown("more unknown keys ignored");
//   for (key : keys) if (unknown.keep()) notes.push_back("unknown key '" + key + "' ignored");
//   unknown.finish(notes);   // adds "and 9,990 more unknown keys ignored"
class RepeatedNotes {
 public:
  // `rest` ends the summary note: "and N " + rest.
  explicit RepeatedNotes(std::string rest, std::size_t keep = 10) : rest_(std::move(rest)), keep_(keep) {}

  // True while fewer than `keep` notes of this kind were written (the caller
  // writes this one); false after, counting it as left out.
  bool keep() {
    if (written_ < keep_) {
      ++written_;
      return true;
    }
    ++left_out_;
    return false;
  }
  // Appends "and N <rest>" to notes when any were left out.
  void finish(std::vector<std::string>& notes) const {
    if (left_out_ > 0) notes.push_back("and " + grouped(left_out_) + " " + rest_);
  }
  std::size_t left_out() const { return left_out_; }

 private:
  std::string rest_;
  std::size_t keep_;
  std::size_t written_ = 0;
  std::size_t left_out_ = 0;
};

}  // namespace attnmark
