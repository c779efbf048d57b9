#include "writers/html_page.h"

#include <fmt/format.h>

namespace attnmark {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 when invalid
// (overlong, surrogate, beyond U+10FFFF, or cut short).
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) n = 2, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef) n = 3, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (byte(i + k) & 0x3f);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\uFFFD";
      ++i;
      continue;
    }
    if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    ++i;
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) out += "\uFFFD";
        else out += c;
    }
  }
  return out;
}

std::string css_string(std::string_view text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
    } else if (n == 0) {
      out += "\\fffd ";
      ++i;
    } else {
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ') out += static_cast<char>(c);
      else out += fmt::format("\\{:x} ", c);  // the space ends the escape
      ++i;
    }
  }
  return out + "\"";
}

std::string html_page(std::string_view title, const HtmlStyle& style, std::string_view css, std::string_view body) {
  std::string out;
  out.reserve(css.size() + body.size() + 8192);  // (a class pack is tens of MB: no regrowing)
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<meta name=\"generator\" content=\"attnmark\">\n<title>{}</title>\n", html_escape(title));
  out += "<style>\n" + base_css(style);
  out.append(css);
  out += "</style>\n</head>\n";
  out += fmt::format("<body class=\"theme-{} text-{}\">\n", theme_name(style.theme), text_size_name(style.text_size));
  out.append(body);
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace attnmark
