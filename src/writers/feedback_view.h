// writers/feedback_view.h: one student's marks as every report shows them, as
// plain data: the questions and parts in order, each cell named by the
// question's tokens, a part with a row per query as the lesson's table, the
// scores as people read them, the mistakes in words. feedback.h lays it out
// as Markdown, HTML and the terminal table of `check`, so they never say
// different things.
//
//   const FeedbackView view = feedback_view(rubric, graded, false);
//   view.questions[1].parts[0].score == "0.67 / 2"
//   view.questions[1].parts[0].grid->corner == std::string("query ↓ key →")
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/rubric.h"
#include "writers/report_words.h"

namespace attnmark {

// "score / max_score" as the reports write them: "0.67 / 2".
std::string score_out_of(double score, double max_score);

// How many rows and columns a part's cells make as the lesson's table; both
// 0 when they make none (a one-row part, most attended). When they do, the
// cells are row by row: row r, column c (0-based) is cells[r * columns + c].
// REQUIRES: part's cells as grade() made them.
struct GridSize {
  std::size_t rows = 0, columns = 0;
};
GridSize grid_size(const PartResult& part);

// A part's cells as the lesson's table, its rows and columns named for
// people (lesson/cell_names.h).
struct CellGrid {
  const char* corner = "";                 // "query ↓ key →"
  std::vector<std::string> rows, columns;  // "is" ...; "bus" ...
};

// One cell as the reports show it.
struct CellView {
  std::string label;     // "2.3", as the grader labelled it
  std::string name;      // "is → bus"; empty for the one word of a one-token most attended
  std::string given;     // what the student wrote, as cell_quote (base/text.h) quotes it
  std::string expected;  // the reference answer; empty unless revealed
  Verdict verdict = Verdict::unanswered;
  VerdictLook look{};    // its symbol, word and CSS class
  std::string note;      // why unreadable, or a precision hint; may be empty
};

// A named mistake: its code (diagnosis.h) and what it means for the student.
struct DiagnosisView {
  std::string code;   // "hard-attention"
  std::string words;  // explain(code), or the code when it has no explanation
};

// A hint, and whether it only repeats a cell's note or a mistake's words
// (a layout that shows those may leave it out).
struct HintView {
  std::string text;
  bool repeats = false;
};

// One part of a question.
struct PartView {
  Part part = Part::scores;
  std::string label;    // "most attended"
  std::string score;    // "0.67 / 2"
  bool follow_through = false;
  std::optional<CellGrid> grid;  // when the cells make the lesson's table
  std::vector<CellView> cells;   // in the grader's order, row by row
  std::vector<DiagnosisView> diagnoses;
  std::vector<HintView> hints;
};

// One question.
struct QuestionView {
  std::string id;
  std::size_t number = 0;  // its place in the rubric, 1-based, when the rubric gives it a title
  std::string title;       // the rubric's title for it; may be empty
  std::string score;       // "4.5 / 6"
  std::vector<PartView> parts;
};

// One submission.
struct FeedbackView {
  std::string title;    // display_title of the rubric
  std::string rubric;   // the rubric's name
  std::string student;  // may be empty
  std::string variant;  // may be empty
  SubmissionStatus status = SubmissionStatus::graded;
  std::string reason;   // bounded_reason, one printable line; empty for none
  bool reveal = false;  // the reference answers are shown
  bool marked = false;  // the rest is empty when not
  std::string score;    // "12.5 / 15"
  std::vector<QuestionView> questions;
  std::vector<std::string> notes;  // shown_notes
};

// REQUIRES: graded was judged against rubric.
FeedbackView feedback_view(const Rubric& rubric, const GradedSubmission& graded, bool reveal);

}  // namespace attnmark
