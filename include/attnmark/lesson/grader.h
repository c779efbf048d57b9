// attnmark/lesson/grader.h: marks one submission against its variant, like a human marker.
//
// Each cell is judged within the part's tolerance (tolerance.h). A row that
// is wrong is checked again, as a whole, against the right method applied to
// the student's own earlier row (follow-through: weights against softmax of
// their scores, output against their weights times the values), when that
// earlier row is an honest attempt; a part still wrong is checked against
// the typical mistakes of the lesson (diagnosis.h). The rules in words are
// docs/marking.md's.
//
//   Variant v = make_variant(rubric, seed, "s001");
//   Marked m = grade(v, submission);
//   m.score;                                  // e.g. 7.5 of m.max_score
//   m.questions[0].parts[1].diagnoses;        // {"no-exp"}
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/lesson/cell_names.h"
#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/submission.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {

// What became of one cell.
enum class Verdict {
  correct,     // within tolerance of the reference
  carried,     // right for the student's own earlier answers (follow-through)
  imprecise,   // right at the precision written, but coarser than asked
  wrong,
  unanswered,
  unreadable,  // the text is not a number (or word) we can read
};
const char* verdict_name(Verdict verdict);

// One cell's judgement. label is 1-based: "2" in a vector, "1.3" in a matrix.
struct CellResult {
  std::string label;
  std::string given;            // the text as written
  std::optional<double> value;  // what it read as (numbers only)
  bool masked = false;          // the student wrote a masked spelling
  Verdict verdict = Verdict::unanswered;
  std::string note;             // why unreadable, or a precision hint
  std::string expected;         // the reference, rounded as asked ("0.665", "masked", "bus")
};

// Where the student's working first left the right path: the first wrong
// cell of the question, in the order of the steps (the parts as asked, row
// by row), for a part that lost marks to it.
struct WentOff {
  Part part = Part::scores;
  std::string label;  // the cell's label, as CellResult::label
  std::string given;  // what the student wrote there
};

// One part of a question, marked.
struct PartResult {
  Part part = Part::scores;
  double score = 0;
  double max_score = 0;
  bool follow_through = false;          // marks came from the student's own earlier answers
  std::vector<std::string> diagnoses;   // mistake codes (diagnosis.h), best explanation first
  std::vector<CellResult> cells;
  std::vector<std::string> hints;       // short sentences for the student; went_off's first
  std::size_t answered = 0;             // cells with something written
  std::optional<WentOff> went_off;      // set when the part has a wrong or carried cell
};

// One question, marked.
struct QuestionResult {
  std::string id;
  double score = 0;
  double max_score = 0;
  std::vector<PartResult> parts;
  std::vector<std::string> tokens;      // the question's tokens, to name cells by (cell_name)
  std::vector<std::size_t> query_rows;  // the token of each query row
};

// A whole submission, marked.
struct Marked {
  double score = 0;
  double max_score = 0;
  std::size_t answered = 0;            // cells with something written, over all parts
  std::vector<QuestionResult> questions;
  std::vector<std::string> notes;      // answers to questions or parts the rubric does not have
};

// Marks `submission` against `variant`. Never throws for anything a student wrote.
// REQUIRES: variant made from a valid rubric, which outlives it.
Marked grade(const Variant& variant, const Submission& submission);

}  // namespace attnmark
