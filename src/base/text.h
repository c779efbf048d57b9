// base/text.h: the one home of attnmark's text helpers: trimming and case,
// UTF-8 decoding, untrusted bytes made safe to show, and the encoding check
// that every reader of untrusted files runs before any parser sees the bytes.
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

// Text safe to show on one line of a terminal or report: line breaks, tabs
// and other control bytes (C0 and DEL) escaped as \n, \r, \t, \xHH; cut to
// at most max_bytes of output (never inside a UTF-8 character), with "..."
// after a cut. REQUIRES: nothing (any bytes); invalid UTF-8 is copied as is,
// so check encoding_problem first where that matters.
inline std::string printable(std::string_view text, std::size_t max_bytes) {
  std::string out;
  std::size_t i = 0;
  for (; i < text.size() && out.size() < max_bytes; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7F) {
      constexpr char hex[] = "0123456789ABCDEF";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (i == text.size()) return out;
  // Do not end inside a multi-byte character: drop its first bytes.
  while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80 && i > 0 &&
         !out.empty()) {
    out.pop_back();
    --i;
  }
  return out + "...";
}

// printable(), in single quotes, cut at 60 bytes: how a message quotes what
// a user wrote.
inline std::string quoted_printable(std::string_view text) {
  std::string out = "'";  // (appended, not "'" + ...: GCC 12 -O3 warns wrongly on that)
  out += printable(text, 60);
  out += '\'';
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
// A UTF-8 byte-order mark is fine (callers skip it).
inline std::string encoding_problem(std::string_view text) {
  using namespace std::literals;
  if (text.starts_with("\xFF\xFE\x00\x00"sv) || text.starts_with("\x00\x00\xFE\xFF"sv))
    return "UTF-32 text; save the file as UTF-8";
  if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF"))
    return "UTF-16 text; save the file as UTF-8";  // before NUL: UTF-16 is full of them
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
    if (even || odd) return "UTF-16 text; save the file as UTF-8";
    return "binary file (contains NUL bytes)";
  }
  const std::size_t bad = first_invalid_utf8(text);
  if (bad == std::string_view::npos) return {};
  constexpr char hex[] = "0123456789ABCDEF";
  const unsigned char c = static_cast<unsigned char>(text[bad]);
  return std::string("not UTF-8 text (byte 0x") + hex[c >> 4] + hex[c & 15] + " at line " +
         std::to_string(line_of(text, bad)) + "); save the file as UTF-8";
}

}  // namespace attnmark
