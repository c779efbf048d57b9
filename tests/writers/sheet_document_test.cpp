// The sheet document (writers/sheet_document.h): the worksheet and the key
// of a variant have the same cells, blank on one and answered on the other.
#include "support/test_support.h"

#include "attnmark/lesson/variant.h"
#include "writers/html_writer.h"
#include "writers/sheet_document.h"

using namespace attnmark;

TEST_CASE("the worksheet leaves a box for every cell the key fills in") {
  const Rubric rubric = shipped("projections");
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
