// HTML pages (writers/html_page.h): escaping that leaves no markup, no
// broken characters and no way out of a CSS string.
#include "support/test_support.h"

#include <string>

#include "writers/html_page.h"

using namespace attnmark;

TEST_CASE("html_escape leaves no markup and no broken characters") {
  CHECK(html_escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
  CHECK(html_escape("a & b \"c\" 'd'") == "a &amp; b &quot;c&quot; &#39;d&#39;");
  CHECK(html_escape("Zoë · 李") == "Zoë · 李");
  CHECK(html_escape("bad \xff byte") == "bad \uFFFD byte");
  CHECK(html_escape("cut \xe2\x82") == "cut \uFFFD\uFFFD");
  CHECK(html_escape(std::string("nul\0bell\a", 9)) == "nul\uFFFDbell\uFFFD");
  CHECK(html_escape("tab\tline\n") == "tab\tline\n");
  // Every ASCII byte, between letters: copied, an entity, or U+FFFD (controls but tab and line breaks, and DEL).
  for (int c = 0; c < 0x80; ++c) {
    const std::string byte(1, static_cast<char>(c));
    const std::string want = c == '&'    ? "&amp;"
                             : c == '<'  ? "&lt;"
                             : c == '>'  ? "&gt;"
                             : c == '"'  ? "&quot;"
                             : c == '\'' ? "&#39;"
                             : (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F ? "\uFFFD"
                                                                                          : byte;
    INFO("byte " << c);
    CHECK(html_escape("ab" + byte + "cd" + byte) == "ab" + want + "cd" + want);
  }
}

TEST_CASE("css_string cannot end early or close the style element") {
  CHECK(css_string("s001") == "\"s001\"");
  CHECK(css_string("a\"b</style>") == "\"a\\22 b\\3c \\2f style\\3e \"");
  CHECK(css_string("x\\y\n") == "\"x\\5c y\\a \"");
  CHECK(css_string("Zoë") == "\"Zoë\"");
}
