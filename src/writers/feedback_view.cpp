#include "writers/feedback_view.h"

#include <algorithm>

#include "attnmark/lesson/cell_names.h"
#include "attnmark/lesson/diagnosis.h"
#include "base/text.h"

namespace attnmark {

std::string score_out_of(double score, double max_score) {
  return score_text(score) + " / " + score_text(max_score);
}

GridSize grid_size(const PartResult& p) {
  if (p.cells.empty() || p.part == Part::most_attended) return {};
  // grade() writes a matrix's cells row by row, from 1.1 to rows.columns.
  const CellPosition first = cell_position(p.cells.front().label), last = cell_position(p.cells.back().label);
  if (first.row != 1 || first.column != 1 || last.row * last.column != p.cells.size()) return {};  // a one-row part
  return {last.row, last.column};
}

namespace {

std::optional<CellGrid> grid_of(const QuestionResult& q, const PartResult& p) {
  const GridSize size = grid_size(p);
  if (size.rows == 0) return std::nullopt;
  CellGrid grid;
  grid.corner = table_corner(p.part);
  for (std::size_t r = 1; r <= size.rows; ++r) grid.rows.push_back(row_name(q.tokens, q.query_rows, p.part, r));
  for (std::size_t c = 1; c <= size.columns; ++c) grid.columns.push_back(column_name(q.tokens, p.part, c));
  return grid;
}

PartView part_view(const QuestionResult& q, const PartResult& p, bool reveal) {
  PartView view;
  view.part = p.part;
  view.label = part_label(p.part);
  view.score = score_out_of(p.score, p.max_score);
  view.follow_through = p.follow_through;
  view.grid = grid_of(q, p);
  view.cells.reserve(p.cells.size());
  for (const CellResult& c : p.cells)
    view.cells.push_back({c.label, cell_name(q.tokens, q.query_rows, p.part, c.label), cell_quote(c.given),
                          reveal ? c.expected : std::string(), c.verdict, verdict_look(c.verdict), c.note});
  for (const std::string& d : p.diagnoses) {
    const std::string_view why = explain(d);
    view.diagnoses.push_back({d, std::string(why.empty() ? d : why)});
  }
  for (const std::string& h : p.hints) {
    bool repeats = false;
    for (const std::string& d : p.diagnoses) repeats = repeats || h == explain(d);
    for (const CellResult& c : p.cells) repeats = repeats || (!c.note.empty() && h.ends_with(c.note));
    view.hints.push_back({h, repeats});
  }
  return view;
}

}  // namespace

FeedbackView feedback_view(const Rubric& rubric, const GradedSubmission& g, bool reveal) {
  FeedbackView view;
  view.title = display_title(rubric);
  view.rubric = rubric.name;
  view.student = g.student;
  view.variant = g.variant;
  view.status = g.status;
  if (!g.reason.empty()) view.reason = bounded_reason(g.reason, max_reason_bytes);
  view.reveal = reveal;
  view.marked = g.marked.has_value();
  if (!g.marked) return view;
  view.score = score_out_of(g.marked->score, g.marked->max_score);
  view.questions.reserve(g.marked->questions.size());
  for (const QuestionResult& q : g.marked->questions) {
    QuestionView& question = view.questions.emplace_back();
    question.parts.reserve(q.parts.size());
    question.id = q.id;
    for (std::size_t i = 0; i < rubric.questions.size(); ++i)
      if (rubric.questions[i].id == q.id && !rubric.questions[i].title.empty()) {
        question.number = i + 1;
        question.title = rubric.questions[i].title;
      }
    question.score = score_out_of(q.score, q.max_score);
    for (const PartResult& p : q.parts) question.parts.push_back(part_view(q, p, reveal));
  }
  view.notes = shown_notes(g.marked->notes);
  return view;
}

}  // namespace attnmark
