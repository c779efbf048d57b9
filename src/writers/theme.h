// writers/theme.h: the colours and text sizes of every HTML page attnmark writes,
// and the WCAG contrast arithmetic that proves each theme readable.
//
//   HtmlStyle style = html_style("cream", "large");   // throws Error on a bad value
//   const Palette& p = palette(style.theme);
//   contrast_ratio(p.text, p.page);                   // 14.24
//
// Every foreground a page draws text in is drawn only on the backgrounds
// listed in text_pairs(); the tests check each pair meets WCAG AA (4.5:1).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnmark {

// An sRGB colour, 8 bits a channel.
struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  std::string hex() const;  // "#1a2b3c"
  bool operator==(const Rgb&) const = default;
};

// WCAG 2.x relative luminance, 0 (black) to 1 (white).
double relative_luminance(Rgb colour);
// WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05), 1 to 21, either order.
double contrast_ratio(Rgb a, Rgb b);

// The colour schemes the lesson offers: "cream paper, a tint, more contrast".
enum class Theme { standard, cream, tint, high_contrast };
// Body text size: normal, large, x-large.
enum class TextSize { normal, large, x_large };

// The colours of one theme. Backgrounds: page, panel (boxes, cells with
// nothing to write), write_in (cells to fill in by hand), header (table
// headings, which use header_text). Text colours are used on page, panel
// and write_in only. bar and rule are graphics (WCAG 1.4.11: 3:1).
struct Palette {
  Rgb page, panel, write_in, header;
  Rgb text, muted, heading, link, answer, good, bad, warn, header_text;
  Rgb bar, rule;
};

// What one HTML page looks like.
struct HtmlStyle {
  Theme theme = Theme::standard;
  TextSize text_size = TextSize::normal;
};

// Parses --theme and --text-size. Throws Error
// ("--theme: expected default, cream, tint or high-contrast; got 'x'").
Theme parse_theme(std::string_view text);
TextSize parse_text_size(std::string_view text);
HtmlStyle html_style(std::string_view theme, std::string_view text_size);

const char* theme_name(Theme theme);          // "default", "cream", ...
const char* text_size_name(TextSize size);    // "normal", "large", "x-large"
const Palette& palette(Theme theme);
double text_points(TextSize size);            // body text in points: 12, 15, 18

// One foreground/background pair a theme uses, named for test messages.
struct ColourPair {
  std::string name;  // "text on page"
  Rgb foreground, background;
  double minimum;    // 4.5 for text, 3 for graphics
};
// Every pair the pages draw: text colours on each text background, header
// text on the header, and the graphics (bars, rules) on the page.
std::vector<ColourPair> colour_pairs(Theme theme);

// The style sheet shared by worksheets, keys and reports: colours, sizes,
// tables that never outgrow the printed page, and print rules that fit both
// A4 and US Letter.
std::string base_css(const HtmlStyle& style);

}  // namespace attnmark
