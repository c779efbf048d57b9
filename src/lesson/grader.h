// lesson/grader.h: marks one submission against its variant, like a human marker.
//
// Each cell is judged within the part's tolerance (tolerance.h). A part that
// is wrong is checked again against the student's own earlier answers
// (follow-through: weights against softmax of their scores, output against
// their weights times the values), and against the typical mistakes of the
// lesson (diagnosis.h).
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

#include "lesson/rubric.h"
#include "lesson/submission.h"
#include "lesson/variant.h"

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

// One part of a question, marked.
struct PartResult {
  Part part = Part::scores;
  double score = 0;
  double max_score = 0;
  bool follow_through = false;          // marks came from the student's own earlier answers
  std::vector<std::string> diagnoses;   // mistake codes (diagnosis.h), best explanation first
  std::vector<CellResult> cells;
  std::vector<std::string> hints;       // short sentences for the student
  std::size_t answered = 0;             // cells with something written
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

// Where a cell is, from its label: "2.3" is row 2, column 3 of a matrix;
// "3" is column 3 of a one-row part (row 0); "" is the one word of a
// one-token most attended (0, 0). 1-based otherwise.
struct CellPosition {
  std::size_t row = 0, column = 0;
};
CellPosition cell_position(std::string_view label);

// A cell named for people by its tokens, from its label ("2.3", "3", ""):
// weights and scores by their key, after the query for a row of a matrix
// ("late", "is → bus"); outputs and projections by their dimension, after
// the token for a row of a matrix ("2", "is, 2"); the most attended word by
// its query ("is"), or "" for the one word of a one-token question.
// REQUIRES: label is one the grader gave a cell of `part` in `question`.
//   cell_name(q, Part::scores, "2.1") == "is → bus"   (tokens bus, is, late)
std::string cell_name(const std::vector<std::string>& tokens, const std::vector<std::size_t>& query_rows, Part part,
                      std::string_view label);

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
