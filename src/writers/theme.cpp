#include "writers/theme.h"

#include <cmath>
#include <fmt/format.h>

#include "attnmark/base/error.h"

namespace attnmark {
namespace {

// sRGB channel (0..255) to linear light, as WCAG 2.x defines it.
double linear(std::uint8_t channel) {
  const double c = channel / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

constexpr Rgb rgb(std::uint32_t hex) {
  return Rgb{static_cast<std::uint8_t>(hex >> 16), static_cast<std::uint8_t>(hex >> 8 & 0xff),
             static_cast<std::uint8_t>(hex & 0xff)};
}

// The colours were chosen so every text pair has at least 6:1 (AA asks 4.5),
// leaving room for printers that wash colours out. The tests pin each ratio.
const Palette standard_palette{
    rgb(0xffffff), rgb(0xf2f5f9), rgb(0xffffff), rgb(0xdde6f0),  // page, panel, write_in, header
    rgb(0x1a1a1a), rgb(0x4f5660), rgb(0x1c3f66), rgb(0x0b57a4),  // text, muted, heading, link
    rgb(0x0c5a3a), rgb(0x1b6b2f), rgb(0xa3241b), rgb(0x8a4b00),  // answer, good, bad, warn
    rgb(0x111a24), rgb(0x2f6ea8), rgb(0x6b7785),                 // header_text, bar, rule
};
const Palette cream_palette{
    rgb(0xfbf6e9), rgb(0xf3ead2), rgb(0xfffdf7), rgb(0xe9dcb8),
    rgb(0x2a241b), rgb(0x5a4f3f), rgb(0x5a3510), rgb(0x1d4f8a),
    rgb(0x2f5a14), rgb(0x2d5d18), rgb(0x9a2a14), rgb(0x7a4500),
    rgb(0x2a241b), rgb(0x8a5a1f), rgb(0x8b7c60),
};
const Palette tint_palette{
    rgb(0xe9f2f8), rgb(0xd9e7f1), rgb(0xfbfdff), rgb(0xc5d9e8),
    rgb(0x14222e), rgb(0x3e5466), rgb(0x123e63), rgb(0x0a4f8f),
    rgb(0x0e5236), rgb(0x16582a), rgb(0x942019), rgb(0x784200),
    rgb(0x14222e), rgb(0x2b6595), rgb(0x5d7a92),
};
// Black on white with white-on-black headings: the most contrast paper allows.
const Palette high_contrast_palette{
    rgb(0xffffff), rgb(0xffffff), rgb(0xffffff), rgb(0x000000),
    rgb(0x000000), rgb(0x000000), rgb(0x000000), rgb(0x00009e),
    rgb(0x003d00), rgb(0x004d00), rgb(0x8b0000), rgb(0x5c3300),
    rgb(0xffffff), rgb(0x000000), rgb(0x000000),
};

}  // namespace

std::string Rgb::hex() const { return fmt::format("#{:02x}{:02x}{:02x}", r, g, b); }

double relative_luminance(Rgb c) {
  return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
}

double contrast_ratio(Rgb a, Rgb b) {
  const double la = relative_luminance(a), lb = relative_luminance(b);
  return la >= lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

Theme parse_theme(std::string_view text) {
  if (text == "default") return Theme::standard;
  if (text == "cream") return Theme::cream;
  if (text == "tint") return Theme::tint;
  if (text == "high-contrast") return Theme::high_contrast;
  throw Error(fmt::format("--theme: expected default, cream, tint or high-contrast; got '{}'", text));
}

TextSize parse_text_size(std::string_view text) {
  if (text == "normal") return TextSize::normal;
  if (text == "large") return TextSize::large;
  if (text == "x-large") return TextSize::x_large;
  throw Error(fmt::format("--text-size: expected normal, large or x-large; got '{}'", text));
}

HtmlStyle html_style(std::string_view theme, std::string_view text_size) {
  return HtmlStyle{parse_theme(theme), parse_text_size(text_size)};
}

const char* theme_name(Theme theme) {
  switch (theme) {
    case Theme::standard: return "default";
    case Theme::cream: return "cream";
    case Theme::tint: return "tint";
    case Theme::high_contrast: return "high-contrast";
  }
  return "default";
}

const char* text_size_name(TextSize size) {
  switch (size) {
    case TextSize::normal: return "normal";
    case TextSize::large: return "large";
    case TextSize::x_large: return "x-large";
  }
  return "normal";
}

const Palette& palette(Theme theme) {
  switch (theme) {
    case Theme::standard: return standard_palette;
    case Theme::cream: return cream_palette;
    case Theme::tint: return tint_palette;
    case Theme::high_contrast: return high_contrast_palette;
  }
  return standard_palette;
}

double text_points(TextSize size) {
  switch (size) {
    case TextSize::normal: return 12;
    case TextSize::large: return 15;
    case TextSize::x_large: return 18;
  }
  return 12;
}

std::vector<ColourPair> colour_pairs(Theme theme) {
  const Palette& p = palette(theme);
  std::vector<ColourPair> pairs;
  const std::pair<const char*, Rgb> texts[] = {
      {"text", p.text},     {"muted", p.muted}, {"heading", p.heading}, {"link", p.link},
      {"answer", p.answer}, {"good", p.good},   {"bad", p.bad},         {"warn", p.warn},
  };
  const std::pair<const char*, Rgb> grounds[] = {{"page", p.page}, {"panel", p.panel}, {"write-in", p.write_in}};
  for (const auto& [fg_name, fg] : texts)
    for (const auto& [bg_name, bg] : grounds) pairs.push_back({fmt::format("{} on {}", fg_name, bg_name), fg, bg, 4.5});
  pairs.push_back({"header text on header", p.header_text, p.header, 4.5});
  pairs.push_back({"bar on page", p.bar, p.page, 3});
  pairs.push_back({"bar on panel", p.bar, p.panel, 3});
  pairs.push_back({"rule on page", p.rule, p.page, 3});
  return pairs;
}

std::string base_css(const HtmlStyle& style) {
  const Palette& p = palette(style.theme);
  const bool strong = style.theme == Theme::high_contrast;
  std::string css = fmt::format(
      ":root{{--page:{};--panel:{};--write-in:{};--header:{};--text:{};--muted:{};--heading:{};--link:{};"
      "--answer:{};--good:{};--bad:{};--warn:{};--header-text:{};--bar:{};--rule:{};--line:{}px}}\n",
      p.page.hex(), p.panel.hex(), p.write_in.hex(), p.header.hex(), p.text.hex(), p.muted.hex(), p.heading.hex(),
      p.link.hex(), p.answer.hex(), p.good.hex(), p.bad.hex(), p.warn.hex(), p.header_text.hex(), p.bar.hex(),
      p.rule.hex(), strong ? 2 : 1);
  // 15 mm at the sides leaves 180 mm of A4 and 186 mm of US Letter; the
  // bottom margin holds the running footer. Widths below are relative, so
  // the same file prints on either paper without clipping.
  // The page's own background, so paper printed with a theme is coloured to
  // its edges, not a coloured box inside white margins.
  css += fmt::format("@page{{size:auto;margin:14mm 15mm 16mm 15mm;background:{}}}\n", p.page.hex());
  css += R"(*{box-sizing:border-box}
html{background:var(--page);-webkit-print-color-adjust:exact;print-color-adjust:exact}
)";
  css += fmt::format(
      "body{{margin:0 auto;max-width:190mm;padding:8mm 6mm;background:var(--page);color:var(--text);"
      "font-family:\"DejaVu Sans\",\"Liberation Sans\",Arial,Helvetica,sans-serif;font-size:{}pt;line-height:1.45;"
      "font-variant-numeric:tabular-nums}}\n",
      text_points(style.text_size));
  css += R"(@media print{body{max-width:none;padding:0}.screen-only{display:none}}
h1{font-size:1.55em;line-height:1.2;color:var(--heading);margin:0 0 .25em}
h2{font-size:1.25em;line-height:1.25;color:var(--heading);margin:1.1em 0 .35em;break-after:avoid}
h3{font-size:1.05em;color:var(--heading);margin:.9em 0 .25em;break-after:avoid}
p{margin:.35em 0}
a{color:var(--link)}
.muted{color:var(--muted)}
table{width:100%;border-collapse:collapse;table-layout:fixed;margin:.35em 0 .7em;break-inside:avoid}
th,td{border:var(--line) solid var(--rule);padding:.3em .45em;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:var(--header);color:var(--header-text)}
td.none{background:var(--panel)}
td.num,th.num{text-align:right}
svg{display:block;max-width:100%;height:auto}
.panel{background:var(--panel);border:var(--line) solid var(--rule);border-radius:4px;padding:.5em .8em}
)";
  if (strong) css += "body{font-weight:500}th{font-weight:700}\n";
  return css;
}

}  // namespace attnmark
