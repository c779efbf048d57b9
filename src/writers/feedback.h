// writers/feedback.h: one student's marks as they read them: feedback/<student>.json
// (and each line of feedback.jsonl), .md and .html, and the terminal table
// of `check`. Reference answers are shown only when `reveal` is true.
//
//   std::string line;
//   append_feedback_json(line, graded);        // {"student":"s001",...}
//   std::cout << check_table(rubric, graded, false);
#pragma once

#include <string>

#include "lesson/graded_submission.h"
#include "lesson/rubric.h"
#include "writers/theme.h"

namespace attnmark {

// The marks of every cell as one line of JSON (no newline at the end),
// appended to out. The shape is in docs/reports.md.
void append_feedback_json(std::string& out, const GradedSubmission& graded);

// feedback/<student>.md.
std::string feedback_markdown(const Rubric& rubric, const GradedSubmission& graded, bool reveal);

// feedback/<student>.html: a page that prints, in the chosen theme.
std::string feedback_html(const Rubric& rubric, const GradedSubmission& graded, bool reveal, const HtmlStyle& style);

// The body of feedback_html, without <main> or page: for a page that shows
// the feedback among other things (attnmark serve's student page). Styled
// by report_css().
std::string feedback_article(const Rubric& rubric, const GradedSubmission& graded, bool reveal);

// The self-check table for a terminal.
std::string check_table(const Rubric& rubric, const GradedSubmission& graded, bool reveal);

}  // namespace attnmark
