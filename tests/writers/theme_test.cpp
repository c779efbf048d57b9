// Themes (writers/theme.h): WCAG contrast worked out as the standard defines
// it, every theme's colour pairs meeting AA, the CSS drawn from the palette
// only, and the --theme and --text-size options checked strictly.
#include "support/test_support.h"

#include <fmt/format.h>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "writers/theme.h"

using namespace attnmark;

TEST_CASE("WCAG contrast is computed from the colours as the standard defines it") {
  CHECK(fmt::format("{:.2f}", contrast_ratio({0, 0, 0}, {255, 255, 255})) == "21.00");
  CHECK(fmt::format("{:.2f}", contrast_ratio({255, 255, 255}, {0, 0, 0})) == "21.00");
  CHECK(fmt::format("{:.2f}", contrast_ratio({0x77, 0x77, 0x77}, {255, 255, 255})) == "4.48");  // the famous near miss
  CHECK(fmt::format("{:.4f}", relative_luminance({0x77, 0x77, 0x77})) == "0.1845");
  CHECK(relative_luminance({255, 255, 255}) == 1.0);
  CHECK(relative_luminance({0, 0, 0}) == 0.0);
  CHECK(Rgb{0x1a, 0x2b, 0x3c}.hex() == "#1a2b3c");
}

TEST_CASE("every theme meets WCAG AA for every pair of colours it draws") {
  // Ratios worked out independently (Python, from the same hex colours), in
  // colour_pairs() order: 8 text colours × (page, panel, write-in), header
  // text on header, bar on page, bar on panel, rule on page.
  const std::map<Theme, std::vector<std::string>> expected = {
      {Theme::standard, {"17.40", "15.92", "17.40", "7.41", "6.78", "7.41", "10.76", "9.84", "10.76", "7.21",
                         "6.59", "7.21", "8.27", "7.56", "8.27", "6.58", "6.02", "6.58", "7.43", "6.80", "7.43",
                         "6.80", "6.22", "6.80", "13.91", "5.36", "4.90", "4.56"}},
      {Theme::cream, {"14.24", "12.81", "15.11", "7.41", "6.67", "7.87", "9.97", "8.97", "10.58", "7.67", "6.90",
                      "8.14", "7.50", "6.75", "7.96", "7.23", "6.51", "7.67", "7.17", "6.45", "7.60", "7.26", "6.54",
                      "7.71", "11.26", "5.46", "4.91", "3.78"}},
      {Theme::tint, {"14.27", "12.83", "15.87", "6.95", "6.25", "7.73", "9.77", "8.79", "10.87", "7.33", "6.59",
                     "8.15", "8.13", "7.31", "9.04", "7.52", "6.76", "8.36", "7.47", "6.71", "8.31", "7.18", "6.46",
                     "7.99", "11.14", "5.45", "4.90", "3.97"}},
      {Theme::high_contrast, {"21.00", "21.00", "21.00", "21.00", "21.00", "21.00", "21.00", "21.00", "21.00",
                              "14.06", "14.06", "14.06", "12.59", "12.59", "12.59", "10.19", "10.19", "10.19",
                              "10.01", "10.01", "10.01", "10.89", "10.89", "10.89", "21.00", "21.00", "21.00", "21.00"}},
  };
  for (const auto& [theme, ratios] : expected) {
    const std::vector<ColourPair> pairs = colour_pairs(theme);
    REQUIRE(pairs.size() == ratios.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      INFO(theme_name(theme) << ": " << pairs[i].name << " " << pairs[i].foreground.hex() << " on "
                             << pairs[i].background.hex());
      const double ratio = contrast_ratio(pairs[i].foreground, pairs[i].background);
      CHECK(fmt::format("{:.2f}", ratio) == ratios[i]);
      CHECK(ratio >= pairs[i].minimum);
      // Text pairs have 6:1 or more, so washed-out printing still passes AA.
      if (pairs[i].minimum == 4.5) CHECK(ratio >= 6.0);
    }
  }
}

TEST_CASE("the CSS uses exactly the theme's colours, and text sizes grow") {
  for (Theme theme : {Theme::standard, Theme::cream, Theme::tint, Theme::high_contrast}) {
    const Palette& p = palette(theme);
    const std::string css = base_css({theme, TextSize::normal});
    INFO(theme_name(theme));
    for (Rgb c : {p.page, p.panel, p.write_in, p.header, p.text, p.muted, p.heading, p.link, p.answer, p.good, p.bad,
                  p.warn, p.header_text, p.bar, p.rule})
      CHECK(count(css, c.hex()) >= 1);
    // No colour is written into the CSS except through the palette.
    std::smatch m;
    std::string rest = css;
    std::set<std::string> used;
    while (std::regex_search(rest, m, std::regex("#[0-9a-f]{6}"))) used.insert(m.str()), rest = m.suffix();
    for (const std::string& hex : used) {
      bool known = false;
      for (Rgb c : {p.page, p.panel, p.write_in, p.header, p.text, p.muted, p.heading, p.link, p.answer, p.good,
                    p.bad, p.warn, p.header_text, p.bar, p.rule})
        known = known || c.hex() == hex;
      CHECK(known);
    }
  }
  CHECK(count(base_css({Theme::standard, TextSize::normal}), "font-size:12pt") == 1);
  CHECK(count(base_css({Theme::standard, TextSize::large}), "font-size:15pt") == 1);
  CHECK(count(base_css({Theme::standard, TextSize::x_large}), "font-size:18pt") == 1);
}

TEST_CASE("the theme and text size options are checked strictly") {
  CHECK(parse_theme("default") == Theme::standard);
  CHECK(parse_theme("cream") == Theme::cream);
  CHECK(parse_theme("tint") == Theme::tint);
  CHECK(parse_theme("high-contrast") == Theme::high_contrast);
  CHECK(parse_text_size("normal") == TextSize::normal);
  CHECK(parse_text_size("large") == TextSize::large);
  CHECK(parse_text_size("x-large") == TextSize::x_large);
  CHECK_THROWS_WITH(parse_theme("x"), "--theme: expected default, cream, tint or high-contrast; got 'x'");
  CHECK_THROWS_WITH(parse_theme("Cream"), "--theme: expected default, cream, tint or high-contrast; got 'Cream'");
  CHECK_THROWS_WITH(parse_text_size("huge"), "--text-size: expected normal, large or x-large; got 'huge'");
  const Run r = run_cli("generate rubrics/lesson.yaml --format html --theme x");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "attnmark: --theme: expected default, cream, tint or high-contrast; got 'x'\n");
  const Run s = run_cli("key rubrics/lesson.yaml --format html --text-size small");
  CHECK(s.status == 2);
  CHECK(s.err == "attnmark: --text-size: expected normal, large or x-large; got 'small'\n");
}
