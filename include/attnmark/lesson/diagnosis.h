// attnmark/lesson/diagnosis.h: the typical mistakes of the lesson, as numbers.
//
// Each mistake has a stable code (class reports count them), a kind
// one-sentence explanation tied to the lesson's step, and a way to compute
// what a student making it would write.
//
//   for (const MistakenAnswer& m : mistaken_answers(q, Part::weights, q.scores, q.weights))
//     if (m.code == "no-exp") ...   // m.numbers = scores divided by their total
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attnmark/lesson/matrix.h"
#include "attnmark/lesson/number_reader.h"
#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {

// One typical mistake.
struct Mistake {
  std::string_view code;         // stable: "hard-attention", "no-exp", ...
  std::string_view explanation;  // one kind sentence for the student
};

// Every mistake attnmark diagnoses, in the order they are preferred on a tie.
const std::vector<Mistake>& mistakes();

// True when mistake `code` works each query's row on its own, so a student
// can make it in one row and not the others: every mistake but
// softmax-columns and transposed-scores, which mix the rows.
//   row_by_row("hard-attention") == true;  row_by_row("softmax-columns") == false
bool row_by_row(std::string_view code);

// The explanation of `code`, or empty when unknown.
std::string_view explain(std::string_view code);

// What a student making one mistake would write for a part.
struct MistakenAnswer {
  std::string code;
  Matrix numbers;  // a row per query row; masked scores are masked_score
};

// The mistaken versions of `part` that differ from the reference, computed
// from `scores` and `weights` (the reference ones, or the student's own for
// mistakes made after a wrong earlier step). Parts: query (with
// projections: another token's embedding projected), scores, weights, output.
// With `upstream`, mistakes of earlier steps are carried into this part too
// (for when the student did not write the earlier step down).
// REQUIRES: scores and weights have the variant's shape.
std::vector<MistakenAnswer> mistaken_answers(const QuestionVariant& q, Part part, const Matrix& scores,
                                             const Matrix& weights, bool upstream);

// The codes that name what the student did in `part`, in catalogue order
// (mistakes()), so that ties read the same in every report. `reproduced`:
// the codes of mistaken_answers whose numbers the student's cells match
// (repeats allowed). When none do, a mistake no single mistaken answer
// shows may still be named: weights-not-normalised, for weights with a row
// of numbers whose total is off 1 by more than the student's own rounding
// explains (0.67 + 0.090 + 0.245 is fine). `written`: the part's cells as
// read, row after row.
// REQUIRES: written has the part's shape (for weights, a cell per token).
//   diagnoses(q, Part::weights, {}, {read_number("0.5"), read_number("0.2"), read_number("0.12")})
//     == {"weights-not-normalised"}
std::vector<std::string> diagnoses(const QuestionVariant& q, Part part, const std::vector<std::string>& reproduced,
                                   const std::vector<CellReading>& written);

}  // namespace attnmark
