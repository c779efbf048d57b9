// safe_text.h: untrusted bytes made safe to show, and the encoding check that
// every reader of untrusted files runs before any parser sees the bytes.
//
//   if (std::string why = encoding_problem(bytes); !why.empty()) refuse(why);
//   note("unknown key " + quoted_printable(key));  // "unknown key 'a\nb'" on one line
//
// Header-only: small, and shared by the YAML, answer and sheet readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace attnmark {

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
    const unsigned char c = static_cast<unsigned char>(t[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t more = 0;                   // continuation bytes
    unsigned char low = 0x80, high = 0xBF;  // range of the first continuation byte
    if (c >= 0xC2 && c <= 0xDF) more = 1;
    else if (c == 0xE0) more = 2, low = 0xA0;
    else if (c == 0xED) more = 2, high = 0x9F;
    else if (c >= 0xE1 && c <= 0xEF) more = 2;
    else if (c == 0xF0) more = 3, low = 0x90;
    else if (c == 0xF4) more = 3, high = 0x8F;
    else if (c >= 0xF1 && c <= 0xF3) more = 3;
    else return i;
    if (t.size() - i <= more) return i;
    for (std::size_t k = 1; k <= more; ++k) {
      const unsigned char d = static_cast<unsigned char>(t[i + k]);
      if (d < (k == 1 ? low : 0x80) || d > (k == 1 ? high : 0xBF)) return i;
    }
    i += more + 1;
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
