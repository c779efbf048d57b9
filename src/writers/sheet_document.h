// sheet_document.h: a worksheet or key as a document (headings, paragraphs,
// tables of cells), so HTML and LaTeX lay out the same content and worked
// steps as render_markdown() without parsing Markdown.
//
//   SheetDocument doc = sheet_document(rubric, variant, Sheet::key);
//   for (const QuestionSection& q : doc.questions) ...
//   sheet_markdown(doc) == render_markdown(rubric, variant, Sheet::key);  // tested
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lesson/rubric.h"
#include "lesson/variant.h"
#include "writers/worksheet.h"

namespace attnmark {

// A run of text in one style.
struct Span {
  enum class Style {
    plain,
    strong,  // a token named in the text, a total
    code,    // a word to type as it is ("masked")
    blank,   // a line to write an answer on; text is empty
  };
  Style style = Style::plain;
  std::string text;
};
using Inline = std::vector<Span>;

// One table cell.
struct SheetCell {
  enum class Kind {
    given,     // printed for the student: a word, an input number, a label
    write_in,  // the student writes here (worksheet); empty text
    answer,    // the key's worked step or answer in a write_in place
    none,      // nothing to write (e.g. the score column of a total row)
  };
  Kind kind = Kind::given;
  Inline text;
};

// A table with a header row; the first column labels the rows.
struct SheetTable {
  std::vector<std::string> header;
  std::vector<std::vector<SheetCell>> rows;
};

// A paragraph or a table, in reading order.
struct SheetBlock {
  bool is_table = false;
  Inline text;       // paragraph
  SheetTable table;  // table
};

// One asked part: "Scores (1 mark; give whole numbers)" and its table.
struct PartSection {
  Part part = Part::scores;
  std::string title;  // "Scores"
  std::string marks;  // "1 mark", "2 marks"
  std::string precision;  // "whole numbers", "3 decimal places"; empty for most attended
  std::vector<SheetBlock> blocks;
};

// One question: its heading, what is given, and its parts.
struct QuestionSection {
  std::size_t number = 0;  // 1-based
  std::string id;          // "q1"
  std::string title;
  std::string prompt;      // may be empty
  std::vector<SheetBlock> givens;
  std::vector<PartSection> parts;
  double marks = 0;        // of every part
};

// The whole sheet for one student.
struct SheetDocument {
  Sheet sheet = Sheet::worksheet;
  std::string title;     // the rubric's title, else its name
  std::string rubric;    // the rubric's name
  std::string student;   // may be empty
  std::string variant;   // 16 hex digits
  std::uint64_t seed = 0;
  double max_score = 0;
  std::vector<QuestionSection> questions;
};

// The content render_markdown() writes, as a document.
// REQUIRES: variant was made from rubric.
SheetDocument sheet_document(const Rubric& rubric, const Variant& variant, Sheet sheet);

// The document as Markdown: byte for byte what render_markdown() writes
// (the tests hold the two together over every golden variant).
std::string sheet_markdown(const SheetDocument& doc);

// The text of an inline run without styling: "Which token ... ? ____________".
std::string plain_text(const Inline& text);

}  // namespace attnmark
