// Printable worksheets, keys, class packs and HTML reports (issue 4), without
// a browser: themes and their contrast, escaping, the sheet document, rosters
// and their file names, golden HTML and LaTeX, and the command line.
// tests/test_browser.cpp prints the same pages in Chromium.
#include <catch2/catch.hpp>

#include "test_support.h"
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

#include "lesson/diagnosis.h"
#include "base/error.h"
#include "lesson/grader.h"
#include "readers/rubric_loader.h"
#include "lesson/variant.h"
#include "writers/answer_template.h"
#include "writers/key_json.h"
#include "writers/markdown_writer.h"
#include "base/file_names.h"
#include "base/files.h"
#include "writers/html_page.h"
#include "writers/html_writer.h"
#include "writers/latex_writer.h"
#include "marking/summary.h"
#include "writers/feedback.h"
#include "readers/roster.h"
#include "writers/sheet_document.h"
#include "writers/theme.h"

using namespace attnmark;
namespace fs = std::filesystem;

namespace {

const std::string source_dir = ATTNMARK_SOURCE_DIR;

Rubric rubric_named(const std::string& name) { return load_rubric_file(source_dir + "/rubrics/" + name + ".yaml"); }



std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// Every file in a folder, by name, with its bytes.
std::map<std::string, std::string> folder(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) files[entry.path().filename().string()] = read_file(entry.path().string(), 1 << 26);
  return files;
}

}  // namespace

// ---- themes -----------------------------------------------------------------

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

// ---- escaping -----------------------------------------------------------------

TEST_CASE("html_escape leaves no markup and no broken characters") {
  CHECK(html_escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
  CHECK(html_escape("a & b \"c\" 'd'") == "a &amp; b &quot;c&quot; &#39;d&#39;");
  CHECK(html_escape("Zoë · 李") == "Zoë · 李");
  CHECK(html_escape("bad \xff byte") == "bad \uFFFD byte");
  CHECK(html_escape("cut \xe2\x82") == "cut \uFFFD\uFFFD");
  CHECK(html_escape(std::string("nul\0bell\a", 9)) == "nul\uFFFDbell\uFFFD");
  CHECK(html_escape("tab\tline\n") == "tab\tline\n");
}

TEST_CASE("css_string cannot end early or close the style element") {
  CHECK(css_string("s001") == "\"s001\"");
  CHECK(css_string("a\"b</style>") == "\"a\\22 b\\3c \\2f style\\3e \"");
  CHECK(css_string("x\\y\n") == "\"x\\5c y\\a \"");
  CHECK(css_string("Zoë") == "\"Zoë\"");
}

TEST_CASE("latex_escape makes any text safe for pdflatex") {
  CHECK(latex_escape("50% of $5 & #1 {x} a_b ^ ~ \\") ==
        "50\\% of \\$5 \\& \\#1 \\{x\\} a\\_b \\textasciicircum{} \\textasciitilde{} \\textbackslash{}");
  CHECK(latex_escape("1×2 ÷ √4 ≈ Kᵀ · −1") ==
        "1\\ensuremath{\\times}2 \\ensuremath{\\div} \\ensuremath{\\surd}4 \\ensuremath{\\approx} "
        "K\\ensuremath{^{\\mathsf{T}}} \\ensuremath{\\cdot} \\ensuremath{-}1");
  CHECK(latex_escape("Zoë Łukasiewicz 李") == "Zoë Łukasiewicz ?");
  CHECK(latex_escape("--`a'<b>|") == "-{}-{}{`}a{'}\\textless{}b\\textgreater{}\\textbar{}");
  CHECK(latex_escape("\xff") == "?");
}

// ---- the sheet document --------------------------------------------------------

TEST_CASE("the worksheet leaves a box for every cell the key fills in") {
  const Rubric rubric = rubric_named("projections");
  const Variant v = make_variant(rubric, 99, "carol");
  const SheetDocument ws = sheet_document(rubric, v, Sheet::worksheet), key = sheet_document(rubric, v, Sheet::key);
  CHECK(ws.max_score == key.max_score);
  std::size_t write = 0, answer = 0;
  for (const QuestionSection& q : ws.questions)
    for (const PartSection& p : q.parts)
      for (const SheetBlock& b : p.blocks)
        for (const auto& row : b.table.rows)
          for (const SheetCell& c : row) write += c.kind == SheetCell::Kind::write_in;
  for (const QuestionSection& q : key.questions)
    for (const PartSection& p : q.parts)
      for (const SheetBlock& b : p.blocks)
        for (const auto& row : b.table.rows)
          for (const SheetCell& c : row) answer += c.kind == SheetCell::Kind::answer;
  CHECK(write > 0);
  CHECK(answer >= write);  // the key adds the e^score table of all-tokens questions
  const std::string html = sheet_html(ws, "", {});
  CHECK(count(html, "<td class=\"write\"></td>") == write);
  CHECK(count(sheet_html(key, "", {}), "<td class=\"answer\">") == answer);
}

// ---- HTML and LaTeX sheets -------------------------------------------------------

TEST_CASE("HTML and LaTeX worksheets and keys match the golden files") {
  const Rubric lesson = rubric_named("lesson");
  const Variant v = make_variant(lesson, 2026, "s001");
  check_golden("lesson-2026-s001.worksheet.html", sheet_html(sheet_document(lesson, v, Sheet::worksheet), "Ada Lovelace", {}));
  check_golden("lesson-2026-s001.key.html", sheet_html(sheet_document(lesson, v, Sheet::key), "Ada Lovelace", {}));
  check_golden("lesson-2026-s001.worksheet.tex",
               sheet_latex({{sheet_document(lesson, v, Sheet::worksheet), "Ada Lovelace"}}, TextSize::normal));
  const Rubric causal = rubric_named("scaled-causal");
  const Variant c = make_variant(causal, 7, "s001");
  check_golden("scaled-causal-7-s001.key.tex", sheet_latex({{sheet_document(causal, c, Sheet::key), ""}}, TextSize::large));
  const Rubric proj = rubric_named("projections");
  const Variant p = make_variant(proj, 99, "carol");
  check_golden("projections-99-carol.key.html",
               sheet_html(sheet_document(proj, p, Sheet::key), "Carol", {Theme::cream, TextSize::large}));
}

TEST_CASE("an HTML sheet is self-contained and shows who it is for") {
  const Rubric rubric = rubric_named("lesson");
  const Variant v = make_variant(rubric, 2026, "s<1>");
  const std::string html = sheet_html(sheet_document(rubric, v, Sheet::worksheet), "<script>alert(1)</script>", {});
  CHECK(count(html, "<script") == 0);
  CHECK(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;") == 1);
  CHECK(count(html, "s&lt;1&gt;") == 3);  // the title, the student id box and the screen footer
  CHECK(count(html, "http") == 0);        // nothing fetched
  CHECK(count(html, "@import") == 0);
  CHECK(count(html, "url(") == 0);
  CHECK(count(html, "<style>") == 1);
  CHECK(count(html, "Variant " + v.id_text() + " · Seed 2026") == 1);
  // The printed footer names the student, variant and seed on every page.
  CHECK(count(html, "@page sheet-1{@bottom-left{content:\"How attention works in a transformer \\b7  worksheet \\b7  "
                    "student s\\3c 1\\3e  \\b7  variant " + v.id_text() + " \\b7  seed 2026 \\b7  attnmark\\2d gen\\2f 1\"") == 0);
  CHECK(count(html, "@page sheet-1{@bottom-left{content:") == 1);
  CHECK(count(html, "student s\\3c 1\\3e  ") == 1);
  CHECK(count(html, "class=\"working\"") == 3);  // one per question
  CHECK(count(html, "<section class=\"part\">") == 9);
}

TEST_CASE("a class pack starts each student on a new page with their own footer") {
  const Rubric rubric = rubric_named("one-token");
  std::vector<NamedSheet> sheets;
  std::vector<ClassPageSheet> page;
  for (const char* id : {"a", "b", "c"}) {
    sheets.push_back({sheet_document(rubric, make_variant(rubric, 5, id), Sheet::worksheet), id});
    page.push_back(class_page_sheet(sheets.back().doc, id, page.size() + 1, {}));
  }
  const std::string html = class_html(page, "Class pack", {});
  CHECK(count(html, "<article class=\"sheet worksheet\">") == 3);
  CHECK(count(html, ".sheet+.sheet{break-before:page}") == 1);
  for (std::size_t i = 1; i <= 3; ++i) {
    CHECK(count(html, fmt::format(".sheet:nth-of-type({0}){{page:sheet-{0}}}", i)) == 1);
    CHECK(count(html, fmt::format("@page sheet-{}{{@bottom-left{{content:", i)) == 1);
    CHECK(count(html, "variant " + sheets[i - 1].doc.variant) == 2);  // printed footer and screen footer
  }
  // Each article is byte-for-byte the one a single sheet has.
  CHECK(count(html, sheet_article(sheets[1].doc, "b")) == 1);
  CHECK(count(sheet_html(sheets[1].doc, "b", {}), sheet_article(sheets[1].doc, "b")) == 1);
}

// ---- rosters -----------------------------------------------------------------------

TEST_CASE("a roster is read with any header case, BOM, CRLF, quotes and extra columns") {
  const std::string text = "\xEF\xBB\xBF Email ,NAME, Student \r\n"
                           "a@x.org,\"Lovelace, Ada\",s001\r\n"
                           ",,\r\n"
                           "b@x.org,Alan Turing,  s002 \r\n"
                           "\r\n"
                           "c@x.org,,s003";
  const std::vector<RosterEntry> r = read_roster(text, "class.csv");
  REQUIRE(r.size() == 3);
  CHECK(r[0].student == "s001");
  CHECK(r[0].name == "Lovelace, Ada");
  CHECK(r[0].line == 2);
  CHECK(r[1].student == "s002");
  CHECK(r[1].name == "Alan Turing");
  CHECK(r[1].line == 4);
  CHECK(r[2].student == "s003");
  CHECK(r[2].name.empty());
  CHECK(r[2].line == 6);
  // A name column is optional.
  CHECK(read_roster("student\ns1\n", "r.csv").at(0).student == "s1");
}

TEST_CASE("roster errors name the file and line") {
  CHECK_THROWS_WITH(read_roster("id,name\ns1,Ada\n", "r.csv"),
                    "r.csv:1: expected a 'student' column in the header (and optionally 'name'); got 'id', 'name'");
  CHECK_THROWS_WITH(read_roster("student,name\ns1,Ada\n,Alan\n", "r.csv"), "r.csv:3: this row has no student id");
  CHECK_THROWS_WITH(read_roster("student,name\ns1,Ada\ns2,B\ns1,Alan\n", "r.csv"),
                    "r.csv:4: student 's1' is listed twice (first on line 2)");
  CHECK_THROWS_WITH(read_roster("student,name\n", "r.csv"), "r.csv:1: the roster lists no students");
  CHECK_THROWS_WITH(read_roster("", "r.csv"), "r.csv: the roster is empty; expected a header with a 'student' column");
  CHECK_THROWS_WITH(read_roster("student\n\"s1\n", "r.csv"), Catch::Contains("r.csv:2:1: unterminated quoted field"));
}

TEST_CASE("student ids become safe, unique file names inside the folder") {
  const auto stems = [](std::vector<std::string> ids) {
    FileStems names({"class-pack", "class-key"});
    std::vector<std::string> out;
    for (const std::string& id : ids) out.push_back(names.take(id));
    return out;
  };
  CHECK(stems({"../../etc/x"}) == std::vector<std::string>{"_._.._etc_x"});
  CHECK(stems({".hidden", "a b/c\\d", "Zoë"}) == std::vector<std::string>{"_hidden", "a_b_c_d", "Zo__"});
  CHECK(stems({"S1", "s1", "s1-2", "s1"}) == std::vector<std::string>{"S1", "s1-2", "s1-2-2", "s1-3"});
  CHECK(stems({"Class-Pack", "class-key"}) == std::vector<std::string>{"Class-Pack-2", "class-key-2"});
  const std::string long_id(70, 'a');
  const auto long_stems = stems({long_id, long_id + "b", long_id + "c"});
  CHECK(long_stems[0] == std::string(64, 'a'));
  CHECK(long_stems[1] == std::string(62, 'a') + "-2");
  CHECK(long_stems[2] == std::string(62, 'a') + "-3");
  for (const std::string& s : long_stems) CHECK(s.size() <= 64);
}

// ---- the command line ------------------------------------------------------------------

TEST_CASE("generate --format html and tex write one self-contained file") {
  const Run html = run_cli("generate rubrics/lesson.yaml --seed 2026 --student s001 --format html");
  REQUIRE(html.status == 0);
  const Rubric rubric = rubric_named("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  CHECK(html.out == sheet_html(sheet_document(rubric, v, Sheet::worksheet), "", {}));
  const Run key = run_cli("key rubrics/lesson.yaml --seed 2026 --student s001 --format html --theme tint --text-size x-large");
  REQUIRE(key.status == 0);
  CHECK(key.out == sheet_html(sheet_document(rubric, v, Sheet::key), "", {Theme::tint, TextSize::x_large}));
  const Run tex = run_cli("key rubrics/lesson.yaml --seed 2026 --student s001 --format tex");
  REQUIRE(tex.status == 0);
  CHECK(tex.out == sheet_latex({{sheet_document(rubric, v, Sheet::key), ""}}, TextSize::normal));
  const Run bad = run_cli("generate rubrics/lesson.yaml --format jsonl");
  CHECK(bad.status == 2);
  CHECK(bad.err == "attnmark: --format: expected md, json, html or tex; got 'jsonl'\n");
  const Run bad_key = run_cli("key rubrics/lesson.yaml --format pdf");
  CHECK(bad_key.err == "attnmark: --format: expected md, json, jsonl, html or tex; got 'pdf'\n");
}

TEST_CASE("generate --roster writes a class ready to hand out, the same for any --jobs") {
  const fs::path dir = scratch() / "roster";
  fs::create_directories(dir);
  write_file((dir / "roster.csv").string(),
             "\xEF\xBB\xBFStudent,Name,Email\r\ns001,\"Lovelace, Ada\",a@x\r\ns002,<script>alert(1)</script>,b@x\r\n"
             "../../etc/x,Eve,e@x\r\nS001,Grace Hopper,g@x\r\nclass-pack,Sneaky,s@x\r\n");
  const std::string roster = (dir / "roster.csv").string();
  const Run one = run_cli(fmt::format("generate rubrics/one-token.yaml --seed 5 --roster '{}' --format html -o '{}' --jobs 1",
                                      roster, (dir / "one").string()));
  REQUIRE(one.status == 0);
  CHECK(one.err == fmt::format("attnmark: wrote 5 worksheets and answer files, class-pack.html, class-key.html to {}\n",
                               (dir / "one").string()));
  const Run four = run_cli(fmt::format("generate rubrics/one-token.yaml --seed 5 --roster '{}' --format html -o '{}' --jobs 4",
                                       roster, (dir / "four").string()));
  REQUIRE(four.status == 0);
  const auto files = folder(dir / "one");
  CHECK(files == folder(dir / "four"));
  std::vector<std::string> names;
  for (const auto& [name, bytes] : files) names.push_back(name);
  CHECK(names == std::vector<std::string>{"S001-2.answers.yaml", "S001-2.html", "_._.._etc_x.answers.yaml",
                                          "_._.._etc_x.html", "class-key.html", "class-pack-2.answers.yaml",
                                          "class-pack-2.html", "class-pack.html", "s001.answers.yaml", "s001.html",
                                          "s002.answers.yaml", "s002.html"});
  CHECK(!fs::exists(scratch() / "etc"));
  CHECK(!fs::exists(dir / "etc"));

  const Rubric rubric = rubric_named("one-token");
  const Variant ada = make_variant(rubric, 5, "s001");
  CHECK(files.at("s001.html") == sheet_html(sheet_document(rubric, ada, Sheet::worksheet), "Lovelace, Ada", {}));
  CHECK(files.at("s001.answers.yaml") == render_answer_template(rubric, ada));
  CHECK(count(files.at("s002.html"), "&lt;script&gt;alert(1)&lt;/script&gt;") == 1);
  CHECK(count(files.at("s002.html"), "<script") == 0);
  const std::string& pack = files.at("class-pack.html");
  CHECK(count(pack, "<article class=\"sheet worksheet\">") == 5);
  CHECK(count(pack, "<script") == 0);
  CHECK(count(pack, sheet_article(sheet_document(rubric, ada, Sheet::worksheet), "Lovelace, Ada")) == 1);
  const std::string& key = files.at("class-key.html");
  CHECK(count(key, "<article class=\"sheet key\">") == 5);
  CHECK(count(key, sheet_article(sheet_document(rubric, ada, Sheet::key), "Lovelace, Ada")) == 1);
  // Students stay in roster order.
  CHECK(pack.find("Lovelace, Ada") < pack.find("Grace Hopper"));
}

TEST_CASE("key and template with a roster, in every format") {
  const fs::path dir = scratch() / "roster-formats";
  fs::create_directories(dir);
  const std::string roster = (dir / "roster.csv").string();
  write_file(roster, "student,name\na,Ann\nb,Bob\n");
  const Run key = run_cli(fmt::format("key rubrics/lesson.yaml --roster '{}' --format tex -o '{}'", roster, (dir / "k").string()));
  REQUIRE(key.status == 0);
  std::vector<std::string> names;
  for (const auto& [name, bytes] : folder(dir / "k")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"a.key.tex", "b.key.tex", "class-key.html", "class-key.tex"});
  const Run md = run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}' -o '{}'", roster, (dir / "m").string()));
  REQUIRE(md.status == 0);
  const Rubric rubric = rubric_named("lesson");
  CHECK(read_file((dir / "m" / "b.md").string(), 1 << 20) == render_markdown(rubric, make_variant(rubric, 2026, "b"), Sheet::worksheet));
  const Run tpl = run_cli(fmt::format("template rubrics/lesson.yaml --roster '{}' -o '{}'", roster, (dir / "t").string()));
  REQUIRE(tpl.status == 0);
  names.clear();
  for (const auto& [name, bytes] : folder(dir / "t")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"a.answers.yaml", "b.answers.yaml"});
  CHECK(tpl.err == fmt::format("attnmark: wrote 2 answer files to {}\n", (dir / "t").string()));
  const Run no_dir = run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}'", roster));
  CHECK(no_dir.status == 2);
  CHECK(no_dir.err == "attnmark: --roster: give -o DIR, the folder for one file per student (or, for key, --format jsonl)\n");
  write_file((dir / "bad.csv").string(), "student,name\na,Ann\na,Again\n");
  const Run bad = run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}' -o '{}'", (dir / "bad.csv").string(),
                                      (dir / "x").string()));
  CHECK(bad.status == 2);
  CHECK(bad.err == fmt::format("attnmark: {}:3: student 'a' is listed twice (first on line 2)\n", (dir / "bad.csv").string()));
}

TEST_CASE("key --roster --format jsonl: one compact key per line, the same for any --jobs") {
  const fs::path dir = scratch() / "jsonl";
  fs::create_directories(dir);
  const std::string roster = (dir / "roster.csv").string();
  std::string text = "student,name\n";
  for (int i = 0; i < 40; ++i) text += fmt::format("s{:03},Student {}\n", i, i);
  write_file(roster, text);
  const Run one = run_cli(fmt::format("key rubrics/all-tokens.yaml --seed 42 --roster '{}' --format jsonl --jobs 1", roster));
  const Run many = run_cli(fmt::format("key rubrics/all-tokens.yaml --seed 42 --roster '{}' --format jsonl --jobs 7", roster));
  REQUIRE(one.status == 0);
  CHECK(one.out == many.out);
  CHECK(count(one.out, "\n") == 40);
  const Rubric rubric = rubric_named("all-tokens");
  std::size_t start = 0;
  for (int i = 0; i < 40; ++i) {
    const std::size_t end = one.out.find('\n', start);
    const std::string line = one.out.substr(start, end - start);
    start = end + 1;
    const Variant v = make_variant(rubric, 42, fmt::format("s{:03}", i));
    CHECK(nlohmann::json::parse(line) == nlohmann::json::parse(render_json(v, Sheet::key)));
    CHECK(count(line, "\n") == 0);
    CHECK(count(line, ": ") == 0);  // compact
  }
  const Run file = run_cli(fmt::format("key rubrics/all-tokens.yaml --seed 42 --roster '{}' --format jsonl -o '{}'", roster,
                                       (dir / "keys.jsonl").string()));
  REQUIRE(file.status == 0);
  CHECK(read_file((dir / "keys.jsonl").string(), 1 << 24) == one.out);
}

TEST_CASE("the number of jobs (--jobs) is a whole number from 1 to 256") {
  for (const char* bad : {"0", "257", "-1", "+2", "2.5", "abc", ""}) {
    INFO(bad);
    const Run r = run_cli(fmt::format("generate rubrics/lesson.yaml --format html --jobs '{}'", bad));
    CHECK(r.status == 2);
    CHECK(r.err == fmt::format("attnmark: --jobs: expected a whole number from 1 to 256; got '{}'\n", bad));
  }
  CHECK(run_cli("generate rubrics/lesson.yaml --format html --jobs 256").status == 0);
}

// ---- reports ------------------------------------------------------------------------------

namespace {

// A few submissions to the lesson, marked by the grader, as write_reports sees them.
std::vector<GradedSubmission> lesson_class(const Rubric& rubric) {
  std::vector<GradedSubmission> rows;
  const auto add = [&](const std::string& student, const std::string& stem,
                       std::map<std::string, std::map<std::string, PartAnswer>> answers) {
    const Variant v = make_variant(rubric, 2026, student);
    Submission s;
    s.student = student;
    s.source = "answers/" + stem + ".yaml";
    s.answers = std::move(answers);
    GradedSubmission g;
    g.source = s.source;
    g.student = student;
    g.variant = v.id_text();
    g.status = SubmissionStatus::graded;
    g.marked = grade(v, s);
    g.file_stem = stem;
    rows.push_back(g);
  };
  add("ada", "ada", {{"q1", {{"scores", {{{"2", "0", "1"}}}}, {"weights", {{{"0.665", "0.090", "0.245"}}}},
                             {"output", {{{"7.88", "2.12"}}}}}}});
  add("<script>alert(1)</script>", "_script_alert_1___script_",
      {{"q1", {{"scores", {{{"2", "0", "1"}}}}, {"weights", {{{"1.000", "0.000", "0.000"}}}}, {"output", {{{"<b>10</b>", "0"}}}}}}});
  GradedSubmission broken;
  broken.source = "answers/broken.yaml";
  broken.status = SubmissionStatus::unreadable;
  broken.reason = "answers/broken.yaml:3:1: could not read <this>";
  broken.file_stem = "broken.yaml";
  rows.push_back(broken);
  return rows;
}

}  // namespace

TEST_CASE("summary.html: histogram, parts, mistakes and students, all escaped") {
  const Rubric rubric = rubric_named("lesson");
  const std::vector<GradedSubmission> rows = lesson_class(rubric);
  ClassSummary summary(rubric);
  for (const GradedSubmission& g : rows) summary.add(g);
  const std::string html = summary_html(rubric, summary, {});
  CHECK(count(html, "<script") == 0);
  CHECK(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;") == 1);
  CHECK(count(html, "&lt;this&gt;") == 1);
  CHECK(count(html, "<svg class=\"chart\"") == 1);
  CHECK(count(html, "<title id=\"hist-title\">Histogram of scores</title>") == 1);
  CHECK(count(html, "<rect class=\"bar\"") == 2);  // two marked students in two bins
  CHECK(count(html, "90–100%") == 2);              // axis label and description
  CHECK(count(html, "<a href=\"feedback/ada.html\">ada</a>") == 1);
  CHECK(count(html, "<a href=\"feedback/_script_alert_1___script_.html\">&lt;script&gt;alert(1)&lt;/script&gt;</a>") == 1);
  CHECK(count(html, "<a href=\"feedback/broken.yaml.html\">") == 1);
  CHECK(count(html, "<code>hard-attention</code>") == 1);
  CHECK(count(html, "<div class=\"meter\">") == 9);  // every part of the lesson
  CHECK(count(html, "3 submissions: 2 graded, 1 unreadable.") == 1);
  CHECK(count(html, "http") == 1);  // the SVG namespace, which is not fetched
  CHECK(count(html, "xmlns=\"http://www.w3.org/2000/svg\"") == 1);
  CHECK(score_bin(0, 16) == 0);
  CHECK(score_bin(1.59, 16) == 0);
  CHECK(score_bin(1.6, 16) == 1);
  CHECK(score_bin(15.99, 16) == 9);
  CHECK(score_bin(16, 16) == 9);
}

TEST_CASE("feedback.html: answers beside verdicts, and reference answers only when revealed") {
  const Rubric rubric = rubric_named("lesson");
  const std::vector<GradedSubmission> rows = lesson_class(rubric);
  const GradedSubmission& eve = rows[1];
  const std::string hidden = feedback_html(rubric, eve, false, {Theme::high_contrast, TextSize::large});
  const std::string shown = feedback_html(rubric, eve, true, {});
  for (const std::string& html : {hidden, shown}) {
    CHECK(count(html, "<script") == 0);
    CHECK(count(html, "<b>10</b>") == 0);
    CHECK(count(html, "&lt;b&gt;10&lt;/b&gt;") == 2);  // the answer and the note on it
    CHECK(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;") == 1);
    CHECK(count(html, "✗ wrong") >= 3);
    CHECK(count(html, html_escape(explain("hard-attention"))) == 1);
  }
  CHECK(count(hidden, "<th scope=\"col\">Answer</th>") == 0);
  CHECK(count(shown, "<th scope=\"col\">Answer</th>") == 9);
  CHECK(count(shown, "<td>0.665</td>") == 2);  // q1, and q2's row for late
  CHECK(count(hidden, "0.665") == 0);
  const std::string broken = feedback_html(rubric, rows[2], true, {});
  CHECK(count(broken, "could not read &lt;this&gt;") == 1);
  CHECK(count(broken, "<table") == 0);
}
