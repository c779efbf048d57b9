// writers/html_writer.h: worksheets, keys and class packs as printable HTML.
//
//   SheetDocument doc = sheet_document(rubric, variant, Sheet::worksheet);
//   std::string one  = sheet_html(doc, "Ada Lovelace", style);          // one student
//   std::string pack = class_html({class_page_sheet(doc, "Ada", 1, style)}, "Class pack", style);
//
// Pages are self-contained (inline CSS, no script, nothing fetched) and
// print on A4 or US Letter: tables take the printable width and wrap, cells
// to write in are big enough for handwriting, parts never split across a
// page, and every printed page carries a footer with the student, variant
// and seed. In a class pack each student starts on a new page.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "writers/sheet_document.h"
#include "writers/theme.h"

namespace attnmark {

// One student's sheet and the name the roster gives them (may be empty:
// the worksheet then leaves a line to write it on).
struct NamedSheet {
  SheetDocument doc;
  std::string name;
};

// One student's worksheet or key as a complete HTML page.
std::string sheet_html(const SheetDocument& doc, std::string_view name, const HtmlStyle& style);

// One sheet's share of a class page: its page CSS (for its position) and
// its article. Rendered on any thread, so a class of 10,000 is not held as
// documents until the page is put together.
struct ClassPageSheet {
  std::string css, article;
};
// The sheet at 1-based `position` of a class page.
ClassPageSheet class_page_sheet(const SheetDocument& doc, std::string_view name, std::size_t position,
                                const HtmlStyle& style);

// Many students' sheets in one page, each starting on a new printed page,
// in the order given (a class pack of worksheets, or the class key). Takes
// the sheets, letting each go once it is in the page.
std::string class_html(std::vector<ClassPageSheet> sheets, std::string_view title, const HtmlStyle& style);

// The <article> of one sheet, without page or style: the same bytes in a
// single sheet and in a class pack, so a pack can be built from sheets
// rendered in parallel.
std::string sheet_article(const SheetDocument& doc, std::string_view name);

// The page CSS of the `position`-th (1-based) sheet in a page: its running
// footer, which names the sheet's student, variant and seed.
std::string sheet_page_css(const SheetDocument& doc, std::size_t position, const HtmlStyle& style);

// The CSS of every sheet page (after base_css()).
std::string sheet_css();

// A worksheet to fill in on a page (attnmark serve): its answer cells as
// inputs, named answer_field_name(...) (lesson/rubric.h), holding `values`
// (as last sent), each with its mark after it. A box's accessible name is
// the lesson's ("Question 2, weight, query bus, key late"), its verdict's
// word after it when marked ("…, key late, right").
struct CellMark {
  std::string word;      // the verdict in words: "right", "too few decimals"
  bool invalid = false;  // the answer is not right as written (aria-invalid)
  std::string symbol;    // shown beside the box (text): "✓"
  std::string css;       // the symbol's class: good, warn, bad, muted
  std::string revealed;  // the right answer (text), shown after the symbol and read as the box's description; or ""
};
struct SheetForm {
  std::map<std::string, std::string> values;  // by field name
  std::map<std::string, CellMark> marks;      // by field name
};
// The questions of the worksheet `doc` with inputs, for a <form> the caller
// writes around them (with its CSRF token and button); sheet_css() and
// sheet_form_css() style it.
std::string sheet_form_questions(const SheetDocument& doc, const SheetForm& form);
// The CSS of the inputs of sheet_form_questions (after sheet_css()).
std::string sheet_form_css();

}  // namespace attnmark
