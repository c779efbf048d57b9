// Notebooks (writers/notebook_writer.h): the header cell prints what the
// sheets print. The whole notebook's bytes: golden_test.cpp; run in a real
// kernel: tests/notebook/notebook_test.py.
#include "support/test_support.h"

#include <nlohmann/json.hpp>
#include <string>

#include "writers/notebook_writer.h"

using namespace attnmark;

namespace {

// The header cell's Markdown, its source lines joined.
std::string header_text(const std::string& ipynb) {
  const nlohmann::json notebook = nlohmann::json::parse(ipynb);  // throws on JSON that is not well formed
  const nlohmann::json& header = notebook.at("cells").at(0);
  REQUIRE(header.at("id") == "header");
  std::string text;
  for (const auto& line : header.at("source")) text += line.get<std::string>();
  return text;
}

}  // namespace

TEST_CASE("a notebook's header prints the roster's name beside the id, escaped for Markdown in JSON") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  for (const Sheet sheet : {Sheet::worksheet, Sheet::key}) {
    const std::string ipynb = render_notebook(v, sheet, sheet_document(rubric, v, sheet, "Nguyễn Thị Ánh"));
    // UTF-8 as it is in the JSON, not \u escapes: the file reads as the roster does.
    CHECK(count(ipynb, "\"Name: Nguyễn Thị Ánh · Student: s001 · Variant: " + v.id_text()) == 1);
    CHECK(count(header_text(ipynb), "\nName: Nguyễn Thị Ánh · Student: s001 · Variant: ") == 1);
    CHECK(count(header_text(render_notebook(v, sheet, sheet_document(rubric, v, sheet, "Фёдор Σωκράτης"))),
                "\nName: Фёдор Σωκράτης · Student: s001 · ") == 1);
    // Quotes and backslashes are JSON's to escape, Markdown's specials
    // markdown_text's, and a line break in a roster cell ends no line.
    const std::string hostile = render_notebook(v, sheet, sheet_document(rubric, v, sheet, "O\"Brien \\ *x* <b>\n# h"));
    CHECK(count(header_text(hostile), "\nName: O\"Brien \\\\ \\*x\\* \\<b\\> \\# h · Student: s001 · ") == 1);
    CHECK(count(hostile, "\"Name: O\\\"Brien \\\\\\\\ \\\\*x\\\\* \\\\<b\\\\> \\\\# h · ") == 1);
    // The name is printed, not recorded: the metadata is the answer file's header.
    const nlohmann::json notebook = nlohmann::json::parse(hostile);
    CHECK(!notebook.at("metadata").at("attnmark").contains("name"));
    CHECK(count(header_text(render_notebook(rubric, v, sheet)), "Name:") == 0);
  }
}
