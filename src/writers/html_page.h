// writers/html_page.h: safe text in HTML and CSS, and the self-contained page every
// HTML output is wrapped in (inline CSS, no script, nothing fetched).
//
//   std::string body = "<p>" + html_escape(student_name) + "</p>";
//   std::string page = html_page("Worksheet", style, extra_css, body);
#pragma once

#include <string>
#include <string_view>

#include "writers/theme.h"

namespace attnmark {

// Text for an HTML element or a quoted attribute: & < > " ' become entities,
// so nothing a student or roster wrote can become markup. Invalid UTF-8 and
// control characters (except tab and line breaks) become U+FFFD.
std::string html_escape(std::string_view text);

// A double-quoted CSS string literal holding `text` (for `content:`).
// Everything but letters, digits, spaces and UTF-8 text is a hex escape, so
// the literal can neither end early nor close the <style> element.
std::string css_string(std::string_view text);

// A complete HTML5 document: UTF-8, the theme's base_css() then `css`, and
// `body` (already HTML). `title` is escaped here.
std::string html_page(std::string_view title, const HtmlStyle& style, std::string_view css, std::string_view body);

}  // namespace attnmark
