// readers/notebook_reader.h: a student's answers from a Jupyter notebook (.ipynb)
// that attnmark generated (writers/notebook_writer), without running it.
//
//   Submission s = read_notebook(text, "answers/s001.ipynb");
//   if (!s.unreadable.empty()) report(s.source, s.unreadable);
//
// Nothing in the notebook is ever executed or evaluated. What is read:
// - the header: the first cell whose metadata.attnmark holds a header field
//   (rubric, student, seed, variant, generator), else the notebook's own
//   metadata.attnmark, read as an answer file's header is (read_answer_tree);
//   every other header (cell or notebook metadata) must name the same student;
// - when it was handed in (Submission::submitted): `submitted` in the header,
//   else in the notebook's own metadata.attnmark (where a tool that collects
//   notebooks may record it: Jupyter itself records no time);
// - the answer cells: code cells whose metadata.attnmark.part names a part
//   ("q1.weights"). A cell's value is its literal assignment to the part's
//   variable (answer_variable: `q1_weights = [0.665, "2/3", None]`), when the
//   cell holds nothing else but comments and the variable alone on a line.
//   A literal is a number, a number over a number (read as the fraction
//   "2/3"), a string, None, a list or tuple of literals, or
//   np.array(...)/numpy.array(...) of one (dtype= allowed). Anything else
//   (`q1_weights = softmax(scores)`) is computed, and its value is the cell's
//   stored output: the last execute_result's text/plain, else the text the
//   cell printed (stream stdout), read by the same literal rules, plus what
//   NumPy prints (array(...), lists without commas, nan). A computed part
//   without output is unreadable, every cell of it: "run the notebook before
//   handing it in (q1_weights is computed, and the notebook has no output
//   for it)"; with an error output: "... its cell stopped with an error
//   (NameError); ...".
// Every value then goes through the answer-file rules (read_answer_tree), and
// the grader reads each cell with lesson/number_reader, so a notebook and an
// answer file with the same answers get the same marks.
//
// Unreadable, with its reason, like an answer file (read_answer_file's
// encoding and size reasons; the size counts outputs too), and:
//   JSON errors of parse_json_tree ("line 1, column 2: JSON syntax: ...",
//     "nested deeper than 64 levels", "duplicate key 'cells'")
//   "not a Jupyter notebook: expected a JSON object with nbformat and cells"
//   "nbformat 3 notebook; open it in Jupyter and save it (nbformat 4)"
//   "the notebook has no answer cells (cells whose metadata.attnmark.part names a part); hand in the notebook attnmark generated"
//   "two header cells name different students ('s01' and 's02'); hand in your own notebook"
// Never throws for bad content.
#pragma once

#include <string>
#include <string_view>

#include "attnmark/lesson/submission.h"
#include "readers/answer_reader.h"

namespace attnmark {

Submission read_notebook(std::string_view text, const std::string& source, const ReadLimits& limits = {});

// True when a file of this name is read as a notebook (it ends in ".ipynb",
// in any case).
bool is_notebook_name(std::string_view path);

}  // namespace attnmark
