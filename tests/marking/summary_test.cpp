// The class summary (marking/summary.h): summary.html's histogram, parts,
// mistakes and students, all escaped, and the score bins.
#include "support/test_support.h"

#include <string>
#include <vector>

#include "marking/summary.h"

using namespace attnmark;

TEST_CASE("summary.html: histogram, parts, mistakes and students, all escaped") {
  const Rubric rubric = shipped("lesson");
  const std::vector<GradedSubmission> rows = lesson_class(rubric);
  ClassSummary summary(rubric);
  for (const GradedSubmission& g : rows) summary.add(g);
  const std::string html = summary_html(rubric, summary, {});
  CHECK(count(html, "<script") == 0);
  CHECK(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;") == 2);  // in Students, and in Who made a mistake
  CHECK(count(html, "&lt;this&gt;") == 1);
  CHECK(count(html, "<svg class=\"chart\"") == 1);
  CHECK(count(html, "<title id=\"hist-title\">Histogram of scores</title>") == 1);
  CHECK(count(html, "<rect class=\"bar\"") == 2);  // two marked students in two bins
  CHECK(count(html, "90–100%") == 2);              // axis label and description
  CHECK(count(html, "<a href=\"feedback/ada.html\">ada</a>") == 1);
  CHECK(count(html, "<a href=\"feedback/_script_alert_1___script_.html\">&lt;script&gt;alert(1)&lt;/script&gt;</a>") == 1);
  CHECK(count(html, "<a href=\"feedback/broken.yaml.html\">") == 1);
  CHECK(count(html, "<code>hard-attention</code>") == 1);
  CHECK(count(html, "<div class=\"meter\">") == 9);  // every part of the lesson
  CHECK(count(html, "3 submissions: 2 graded, 1 unreadable.") == 1);
  CHECK(count(html, "http") == 1);  // the SVG namespace, which is not fetched
  CHECK(count(html, "xmlns=\"http://www.w3.org/2000/svg\"") == 1);
  CHECK(score_bin(0, 16) == 0);
  CHECK(score_bin(1.59, 16) == 0);
  CHECK(score_bin(1.6, 16) == 1);
  CHECK(score_bin(15.99, 16) == 9);
  CHECK(score_bin(16, 16) == 9);
}

TEST_CASE("summary.html is the same page whether its rows were rendered while judging or at the end") {
  const Rubric rubric = shipped("lesson");
  const std::vector<GradedSubmission> rows = lesson_class(rubric);
  ClassSummary plain(rubric);
  for (int round = 0; round < 3; ++round)
    for (const GradedSubmission& g : rows) plain.add(g);
  const std::string want = summary_html(rubric, plain, {});

  // Chunks rendered as judging threads render them, then one not rendered
  // (the roster's missing students, added at the end).
  ClassSummary joined(rubric);
  for (int round = 0; round < 2; ++round) {
    ClassSummary chunk(rubric);
    for (const GradedSubmission& g : rows) chunk.add(g);
    chunk.render_rows_html();
    joined.append(std::move(chunk));
  }
  CHECK(joined.rows_html_count() == 2 * rows.size());
  for (const GradedSubmission& g : rows) joined.add(g);
  CHECK(summary_html(rubric, joined, {}) == want);
  CHECK(summary_html(rubric, joined, {}, 2) == want);

  // A rendered chunk after one that was not: its rows are rendered again at the end.
  ClassSummary later(rubric), first(rubric);
  for (const GradedSubmission& g : rows) first.add(g);
  for (int round = 0; round < 2; ++round)
    for (const GradedSubmission& g : rows) later.add(g);
  later.render_rows_html();
  first.append(std::move(later));
  CHECK(first.rows_html_count() == 0);
  CHECK(summary_html(rubric, first, {}) == want);
}
