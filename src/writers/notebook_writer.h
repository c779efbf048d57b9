// writers/notebook_writer.h: a worksheet or key as a Jupyter notebook (nbformat 4.5),
// laid out from the same SheetDocument as the Markdown, HTML and LaTeX sheets.
//
//   Variant v = make_variant(rubric, 2026, "s001");
//   std::string ipynb = render_notebook(rubric, v, Sheet::worksheet);
//
// The cells, in order:
// - the header (Markdown): title, the roster's name (SheetDocument::name,
//   when there is one), student, variant, seed, rubric (markdown_who); its
//   metadata.attnmark records rubric, student, seed, variant and generator,
//   as the answer file's header does (readers/notebook_reader reads them back),
//   and so does the notebook's own metadata.attnmark; the cell is neither
//   deletable nor editable in Jupyter;
// - the lesson's helpers (code): dot, softmax with math.exp, mix;
// - per question: its text and given tables (Markdown), its inputs as NumPy
//   arrays (code: tokens, q or Q, K, V; X, W_Q, W_K, W_V with projections),
//   then per asked part its text and table (Markdown) and one answer cell
//   (code) that assigns one variable (answer_variable: `q1_weights = [None,
//   None, None]`) and shows it on its last line. An answer cell carries
//   metadata.attnmark.part ("q1.weights") and nbgrader's solution-cell
//   metadata (solution true, grade false, locked false, grade_id, schema 3);
// - the self-check (Markdown, then code, the last cell): with ATTNMARK_URL
//   and ATTNMARK_CODE set (or the served class's address and code, see
//   below) it POSTs {"student", "code", "answers"} to
//   $ATTNMARK_URL/api/check and prints the ✓/✗ table of `attnmark check` from
//   the feedback object the server answers with; otherwise it says how to
//   self-check. Standard library only (urllib, json).
//
// A key (Sheet::key) is the same notebook with the key's worked tables and
// every answer cell filled in, rounded as asked.
//
// Every cell has an id unique in the notebook, made from what the cell is
// ("q1-weights"), so the same rubric, seed and student give the same bytes.
#pragma once

#include <string>

#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/variant.h"
#include "writers/sheet_document.h"

namespace attnmark {

// The notebook, as JSON (keys sorted, one-space indent, a final newline).
// REQUIRES: variant was made from rubric.
std::string render_notebook(const Rubric& rubric, const Variant& variant, Sheet sheet);

// The same, laid out from `doc` (sheet_document(rubric, variant, sheet, name),
// perhaps with a served class's page): when doc.check_url and
// doc.access_code are set, the self-check reaches that server as that
// student without any set-up (ATTNMARK_URL and ATTNMARK_CODE, when set,
// still win), and its Markdown cell names the address.
//   doc.check_url = "http://10.0.0.5:8080/"; doc.access_code = "k7mq4-xh2pa";
//   std::string ipynb = render_notebook(v, Sheet::worksheet, doc);
std::string render_notebook(const Variant& variant, Sheet sheet, const SheetDocument& doc);

}  // namespace attnmark
