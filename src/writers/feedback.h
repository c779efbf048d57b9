// writers/feedback.h: one student's marks as they read them: feedback/<student>.json
// (and each line of feedback.jsonl), .md and .html, and the terminal table
// of `check`. Reference answers are shown only when `reveal` is true. The
// Markdown, HTML and terminal table are layouts of one FeedbackView
// (feedback_view.h); given one, each lays it out without building another.
//
//   std::string line;
//   append_feedback_json(line, graded);        // {"student":"s001",...}
//   std::cout << check_table(rubric, graded, false);
#pragma once

#include <string>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"
#include "writers/feedback_view.h"
#include "writers/theme.h"

namespace attnmark {

// The marks of every cell as one line of JSON (no newline at the end),
// appended to out. The shape is in docs/reports.md. Written from graded
// itself, not through a FeedbackView (it runs once per student of a class
// of 100,000, and a view holds strings of its own for every cell), but with
// the view's names: its "grid" is grid_size's table, named by cell_names.h.
void append_feedback_json(std::string& out, const GradedSubmission& graded);

// feedback/<student>.md.
std::string feedback_markdown(const Rubric& rubric, const GradedSubmission& graded, bool reveal);
std::string feedback_markdown(const FeedbackView& view);

// feedback/<student>.html: a page that prints, in the chosen theme.
std::string feedback_html(const Rubric& rubric, const GradedSubmission& graded, bool reveal, const HtmlStyle& style);
std::string feedback_html(const FeedbackView& view, const HtmlStyle& style);

// The body of feedback_html, without <main> or page: for a page that shows
// the feedback among other things (attnmark serve's student page). Styled
// by report_css().
std::string feedback_article(const Rubric& rubric, const GradedSubmission& graded, bool reveal);
std::string feedback_article(const FeedbackView& view);

// The self-check table for a terminal.
std::string check_table(const Rubric& rubric, const GradedSubmission& graded, bool reveal);
std::string check_table(const FeedbackView& view);

}  // namespace attnmark
