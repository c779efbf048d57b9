// HTML sheets and class packs (writers/html_writer.h), without a browser:
// self-contained pages that show who they are for, one student per printed
// page. browser/print_test.cpp prints the same pages in Chromium.
#include "support/test_support.h"

#include <fmt/format.h>
#include <string>
#include <vector>

#include "attnmark/lesson/variant.h"
#include "writers/html_writer.h"
#include "writers/sheet_document.h"

using namespace attnmark;

TEST_CASE("an HTML sheet is self-contained and shows who it is for") {
  const Rubric rubric = shipped("lesson");
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
  const Rubric rubric = shipped("one-token");
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

TEST_CASE("an HTML sheet shows a roster's markup-like id as text, wherever the id is shown") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "<img src=x onerror=alert(1)>&\"'");
  for (const Sheet sheet : {Sheet::worksheet, Sheet::key}) {
    const std::string html = sheet_html(sheet_document(rubric, v, sheet), "</span><b>", {});
    CHECK(count(html, "<img") == 0);
    CHECK(count(html, "<b>") == 0);
    CHECK(count(html, "&lt;img src=x onerror=alert(1)&gt;&amp;") == 3);  // the title, the id box, the footer
  }
}
