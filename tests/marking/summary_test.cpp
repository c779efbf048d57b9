// The class summary (marking/summary.h): summary.html's histogram, parts,
// mistakes and students, all escaped, and the score bins.
#include "support/test_support.h"

#include <string>
#include <vector>

#include "marking/summary.h"
#include "writers/html_page.h"

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

TEST_CASE("summary.md and summary.html of a class with no submission say so in the same words") {
  const Rubric rubric = shipped("lesson");
  ClassSummary summary(rubric);
  GradedSubmission missing;
  missing.student = "s001";
  missing.status = SubmissionStatus::missing;
  missing.reason = "no submission";
  summary.add(missing);
  const std::string md = summary_markdown(rubric, summary), html = summary_html(rubric, summary, {});
  CHECK(count(md, "\n0 submissions.\n") == 1);
  CHECK(count(html, "<p>0 submissions.</p>") == 1);
  CHECK(count(md, "## Mistakes") == 0);  // nothing marked: no figures, parts or mistakes
  CHECK(count(html, "<h2>Mistakes</h2>") == 0);
}

TEST_CASE("summary.md and summary.html say the same figures, parts and mistakes: both are layouts of one report") {
  const Rubric rubric = shipped("lesson");
  ClassSummary summary(rubric);
  for (const GradedSubmission& g : lesson_class(rubric)) summary.add(g);
  const ClassReport report = class_report(rubric, summary);
  REQUIRE(report.figures);
  CHECK(report.figures->marked == 2);
  CHECK(report.submissions == 3);
  CHECK(report.tally == std::vector<std::pair<SubmissionStatus, int>>{{SubmissionStatus::graded, 2}, {SubmissionStatus::unreadable, 1}});
  CHECK(report.parts.size() == 9);
  REQUIRE(report.mistakes.size() == 1);
  CHECK(report.mistakes[0].code == "hard-attention");
  CHECK(summary_markdown(report) == summary_markdown(rubric, summary));
  CHECK(summary_html(report, {}) == summary_html(rubric, summary, {}));
  const std::string md = summary_markdown(report), html = summary_html(report, {});
  CHECK(count(md, "3 submissions: 2 graded, 1 unreadable.") == 1);
  CHECK(count(html, "3 submissions: 2 graded, 1 unreadable.") == 1);
  CHECK(count(md, report.mistakes[0].explanation) == 1);
  CHECK(count(html, html_escape(report.mistakes[0].explanation)) == 1);
}
