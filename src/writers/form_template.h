// writers/form_template.h: what a teacher needs to build an online form (Google
// Forms, Microsoft Forms) whose export `mark` reads: a question per answer
// cell, titled as a person would title it, and the sheet's cell name each
// title stands for.
//
//   form_questions(rubric)[1] == FormQuestion{"Question 1 scores: key 1", "q1.scores.1"}
//   std::string csv = render_form_template(rubric);  // "title,cell\r\nStudent ID,student\r\n..."
#pragma once

#include <string>
#include <vector>

#include "attnmark/lesson/rubric.h"

namespace attnmark {

// One question of the form: its title, and the column of a class sheet it
// is (`student`, or a cell name as readers/answer_reader reads a sheet's
// header: `q1.scores.2`, `q2.weights.1.3`, `q1.most_attended`).
struct FormQuestion {
  std::string title;
  std::string cell;
  bool operator==(const FormQuestion&) const = default;
};

// The form's questions in order: first the student's id ("Student ID",
// `student`), then every answer cell the rubric asks, question by question,
// part by part as asked, row by row. A title is "Question N PART: ROW COLUMN"
// with N the question's place in the rubric (1-based) and the row and
// column named as the lesson's table names them, without the tokens (a
// form is one for the whole class, tokens are each student's):
//   "Question 1 weights: key 2"          a one-token question's row
//   "Question 2 scores: query 1 key 3"   a matrix
//   "Question 2 keys: token 3 dimension 1"
//   "Question 2 most attended: query 1"  (one-token: "Question 1 most attended")
// Titles are unique in a rubric and hold no comma, quote or line break.
// Pure: the same rubric, the same questions.
std::vector<FormQuestion> form_questions(const Rubric& rubric);

// form_questions as CSV: the header `title,cell`, then a row per question
// (CRLF line ends, as the gradebook's). This is also the format of
// `mark --columns`.
std::string render_form_template(const Rubric& rubric);

}  // namespace attnmark
