#include "writers/html_page.h"

#include <array>
#include <fmt/format.h>

#include "base/text.h"

namespace attnmark {

std::string html_escape(std::string_view text) {
  // The bytes copied as they are, in runs: printable ASCII but & < > " ', and tab and line breaks.
  static constexpr auto plain = [] {
    std::array<bool, 256> table{};
    for (int c = 0x20; c < 0x7F; ++c) table[c] = c != '&' && c != '<' && c != '>' && c != '"' && c != '\'';
    table['\t'] = table['\n'] = table['\r'] = true;
    return table;
  }();
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t run = i;
    while (i < text.size() && plain[static_cast<unsigned char>(text[i])]) ++i;
    out.append(text.data() + run, i - run);
    if (i == text.size()) break;
    const char c = text[i];
    std::uint32_t code_point;
    const std::size_t n = decode_utf8(text, i, code_point);
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
    std::uint32_t code_point;
    const std::size_t n = decode_utf8(text, i, code_point);
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
