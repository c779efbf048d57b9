// writers/sheet_document.h: a worksheet or key as a document (headings, paragraphs,
// tables of cells), the one model that the Markdown, HTML, LaTeX and notebook
// writers lay out, so they can never say different things.
//
//   SheetDocument doc = sheet_document(rubric, variant, Sheet::key);
//   for (const QuestionSection& q : doc.questions) ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {

// Which document to write: the student's worksheet, or the teacher's key
// (every worked step: products, e^score, total, weights, weight × value, sum).
enum class Sheet { worksheet, key };

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
  // For a blank that is marked (the one-token most-attended answer): its
  // answer cell, row 0, column 0 of the part.
  bool answer = false;
  std::string answer_name;  // the answer cell's spoken name (lesson/cell_names.h), for an answer blank
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
  // For a write_in or answer cell that is marked: the answer cells it holds,
  // as (row, column) of its part's answers (0-based, as PartAnswer::rows); an
  // output vector written in one cell holds several. Empty for working
  // (products, e^score) that is not marked.
  struct Address {
    std::size_t row = 0, column = 0;
    std::string name;  // spoken_cell_name (lesson/cell_names.h): "weight, query bus, key late"
  };
  std::vector<Address> answers;
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
  // The roster's name for the student, as the roster has it (any script);
  // may be empty, and then the worksheet leaves a line to write it on. Each
  // writer prints it in the sheet's head, beside the student id, escaped
  // for its format.
  std::string name;
  std::string variant;   // 16 hex digits
  // Absent on a served class's worksheet: with the rubric, the seed makes
  // every classmate's key, and that class checks on its page instead.
  std::optional<std::uint64_t> seed;
  double max_score = 0;
  std::vector<QuestionSection> questions;
  // A served class (attnmark serve): the page where the student checks their
  // answers, and their access code; both empty otherwise. The writers print
  // them on a worksheet's head.
  std::string check_url, access_code;
};

// The content of one student's worksheet or key; `name` is the roster's
// name for them (SheetDocument::name), or empty.
// REQUIRES: variant was made from rubric.
SheetDocument sheet_document(const Rubric& rubric, const Variant& variant, Sheet sheet, std::string_view name = {});

}  // namespace attnmark
