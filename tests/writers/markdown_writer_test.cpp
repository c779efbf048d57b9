// Worksheets and keys in Markdown (writers/markdown_writer.h): text from a
// roster or a student never becomes markup.
#include "support/test_support.h"

#include <string>

#include "writers/markdown_writer.h"

using namespace attnmark;

TEST_CASE("markdown_text escapes markup, control characters and bytes that are not UTF-8") {
  CHECK(markdown_text("a*b|c") == "a\\*b\\|c");
  CHECK(markdown_text("<img src=x onerror=alert(1)>") == "\\<img src=x onerror=alert(1)\\>");
  CHECK(markdown_text("# h\n## i") == "\\# h \\#\\# i");
  CHECK(markdown_text("`x` _y_ [z](u) ~w~ &amp;") == "\\`x\\` \\_y\\_ \\[z\\](u) \\~w\\~ \\&amp;");
  CHECK(markdown_text("a\x1B[31m\xE2\x80\xAE\xE9") == "a\\\\x1B\\[31m\\\\u202E\\\\xE9");
  CHECK(markdown_text("Jos\xC3\xA9") == "Jos\xC3\xA9");
}

TEST_CASE("a worksheet and key in Markdown show a roster's id escaped") {
  const Rubric rubric = shipped("lesson");
  for (const Sheet sheet : {Sheet::worksheet, Sheet::key}) {
    const std::string md = render_markdown(rubric, make_variant(rubric, 2026, "<img src=x onerror=alert(1)>*_|`"), sheet);
    CHECK(count(md, "<img") == count(md, "\\<img"));
    CHECK(count(md, "Student: \\<img src=x onerror=alert(1)\\>\\*\\_\\|\\` · Variant: ") == 1);
  }
}

TEST_CASE("a worksheet and key in Markdown print the roster's name beside the id, escaped, in any script") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  const std::string variant = v.id_text();
  for (const Sheet sheet : {Sheet::worksheet, Sheet::key}) {
    const std::string md = render_markdown(sheet_document(rubric, v, sheet, "Nguyễn Thị Ánh"));
    CHECK(count(md, "\nName: Nguyễn Thị Ánh · Student: s001 · Variant: " + variant + " · Seed: 2026 · ") == 1);
    CHECK(count(render_markdown(sheet_document(rubric, v, sheet, "Фёдор Σωκράτης")), "\nName: Фёдор Σωκράτης · Student: s001 · ") == 1);
    // A name is text, never markup.
    const std::string hostile = render_markdown(sheet_document(rubric, v, sheet, "<b>*Ada*</b> | _x_ [y](z)\n# h"));
    CHECK(count(hostile, "\nName: \\<b\\>\\*Ada\\*\\</b\\> \\| \\_x\\_ \\[y\\](z) \\# h · Student: s001 · ") == 1);
    CHECK(count(hostile, "<b>") == 0);
    // No roster name: the line starts with the student id.
    const std::string nameless = render_markdown(rubric, v, sheet);
    CHECK(count(nameless, "Name:") == 0);
    CHECK(count(nameless, "\nStudent: s001 · Variant: " + variant) == 1);
  }
}
