// writers/markdown_writer.h: a worksheet or key in Markdown, laid out like the
// lesson's tables. The worksheet has blank cells; the key fills them with
// every worked step (products, e^score, total, weights, weight × value, sum).
//
//   Variant v = make_variant(rubric, 2026, "s001");
//   std::string md  = render_markdown(rubric, v, Sheet::worksheet);
//   std::string key = render_markdown(rubric, v, Sheet::key);
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/variant.h"
#include "writers/sheet_document.h"

namespace attnmark {

// Text from a student or a file, made safe in Markdown: line breaks become
// spaces, other control characters and bytes that are not UTF-8 are escaped
// as printable (base/text.h) shows them, and nothing can become markup
// (\ ` * _ [ ] < > | ~ & # are escaped).
//   markdown_text("a*b|c") == "a\\*b\\|c"
std::string markdown_text(std::string_view text);

// Paragraphs and tables in Markdown, each followed by a blank line.
std::string markdown_blocks(const std::vector<SheetBlock>& blocks);

// The sheet's head line, with its blank line: "Name: Ada Lovelace ·
// Student: s001 · Variant: … · Seed: 2026 · Rubric: lesson · attnmark-gen/2";
// no Name without a roster's name. The name and id are markdown_text.
std::string markdown_who(const SheetDocument& doc);

// The document in Markdown.
std::string render_markdown(const SheetDocument& doc);

// render_markdown(sheet_document(rubric, variant, sheet)).
// REQUIRES: variant was made from rubric.
std::string render_markdown(const Rubric& rubric, const Variant& variant, Sheet sheet);

}  // namespace attnmark
