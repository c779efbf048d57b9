// A student's feedback page (writers/feedback.h): answers beside verdicts,
// everything escaped, reference answers only when revealed.
#include "support/test_support.h"

#include <string>
#include <vector>

#include "lesson/diagnosis.h"
#include "writers/feedback.h"
#include "writers/html_page.h"

using namespace attnmark;

TEST_CASE("feedback.html: answers beside verdicts, and reference answers only when revealed") {
  const Rubric rubric = shipped("lesson");
  const std::vector<GradedSubmission> rows = lesson_class(rubric);
  const GradedSubmission& eve = rows[1];
  const std::string hidden = feedback_html(rubric, eve, false, {Theme::high_contrast, TextSize::large});
  const std::string shown = feedback_html(rubric, eve, true, {});
  for (const std::string& html : {hidden, shown}) {
    CHECK(count(html, "<script") == 0);
    CHECK(count(html, "<b>10</b>") == 0);
    CHECK(count(html, "&lt;b&gt;10&lt;/b&gt;") == 2);  // the answer and the note on it
    CHECK(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;") == 1);
    CHECK(count(html, "✗ wrong") >= 3);
    CHECK(count(html, html_escape(explain("hard-attention"))) == 1);
  }
  CHECK(count(hidden, "<th scope=\"col\">Answer</th>") == 0);
  // One-row parts have an Answer column; the matrix parts of q2 (scores,
  // weights, output) are grids with the answer in each cell.
  CHECK(count(shown, "<th scope=\"col\">Answer</th>") == 6);
  CHECK(count(shown, "<td>0.665</td>") == 1);                        // q1
  CHECK(count(shown, "<span class=\"muted\">0.665</span>") == 1);   // q2's row for late
  CHECK(count(shown, "<table class=\"grid\">") == 3);
  CHECK(count(shown, "<th scope=\"col\">query ↓ key →</th>") == 2);
  CHECK(count(hidden, "0.665") == 0);
  const std::string broken = feedback_html(rubric, rows[2], true, {});
  CHECK(count(broken, "could not read &lt;this&gt;") == 1);
  CHECK(count(broken, "<table") == 0);
}
