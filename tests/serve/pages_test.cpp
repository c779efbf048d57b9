// The served pages' data (serve/pages.h), made of the records one read of
// the store gives: a student's page shows their last attempt from that
// attempt alone (its answers parsed once, into the form and the submission
// judged), and counts the attempts left from the same records.
#include "serve/pages.h"

#include "readers/served_answers.h"
#include "writers/feedback.h"
#include "support/test_support.h"

using attnmark::AttemptRecord;

namespace {

const attnmark::Classroom& room() {
  static const attnmark::Classroom r = attnmark::Classroom::from_record(
      {std::string(64, 'a'), attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/lesson.yaml", 1 << 20),
       "lesson.yaml", 987654321, "student,name\ns001,Student 1\ns002,Student 2\n", "roster.csv"});
  return r;
}

// An attempt of s001 as the server stores it after checking `fields`.
AttemptRecord checked(std::int64_t id, const std::map<std::string, std::string>& fields) {
  std::string problem;
  const std::optional<attnmark::Checked> c =
      room().check("s001", attnmark::answers_from_form("s001", fields, attnmark::attempt_source), problem);
  REQUIRE(c);
  return {id, "s001", "2026-12-0" + std::to_string(id) + "T08:00:00Z", c->answers, c->graded.marked->score,
          c->graded.marked->max_score, c->feedback};
}

}  // namespace

TEST_CASE("serve: a student's page shows their last attempt from the attempts one read gave") {
  const attnmark::Session session{"s001", std::string(64, 'c'), {}, 0};
  const std::vector<AttemptRecord> attempts = {checked(1, {{"q1.scores.1.1", "2"}}),
                                               checked(2, {{"q1.weights.1.1", "1"}, {"q1.weights.1.2", " 0 "}})};
  const attnmark::StudentPage page =
      attnmark::attempt_page(room(), {false, true, 3}, session, attempts, attempts.back(), "");
  CHECK(page.rubric == &room().rubric());
  CHECK(page.variant.id == attnmark::make_variant(room().rubric(), 987654321, "s001").id);
  CHECK(page.student == "s001");
  CHECK(page.name == "Student 1");
  CHECK(page.csrf == session.csrf);
  // The form holds the attempt's answers as stored (trimmed), its gaps empty.
  CHECK(page.values == std::map<std::string, std::string>{{"q1.weights.1.1", "1"}, {"q1.weights.1.2", "0"}});
  // It is judged again to the feedback the student was answered with.
  REQUIRE(page.shown);
  std::string feedback;
  attnmark::append_feedback_json(feedback, *page.shown);
  CHECK(feedback + "\n" == attempts.back().feedback);  // stored as a line, as mark writes it
  CHECK(page.shown->name == "Student 1");
  CHECK(page.reveal);
  CHECK(page.notice.empty());
  CHECK_FALSE(page.closed);
  CHECK(page.attempts_left == 1);  // 3 allowed, 2 stored
  REQUIRE(page.attempts.size() == 2);
  CHECK(page.attempts[1].id == 2);
  CHECK(page.attempts[1].at == "2026-12-02T08:00:00Z");
  CHECK(page.attempts[1].score == attempts[1].score);

  // The page the student opens shows them: the inputs hold the answers, with their marks.
  const std::string html = attnmark::student_page_html(page);
  CHECK(html.find("name=\"q1.weights.1.1\" aria-label=\"q1.weights.1.1\" autocomplete=\"off\" size=\"7\" value=\"1\">"
                  "<span class=\"bad\" title=\"wrong\">✗</span>") != std::string::npos);
  CHECK(html.find("<p class=\"notice\">Attempts left: 1.</p>") != std::string::npos);
  CHECK(html.find("<a href=\"/attempt?n=2\">2</a>") != std::string::npos);

  // Without --attempts no count; before any attempt, nothing shown.
  const attnmark::StudentPage first = attnmark::student_page(room(), {true, false, std::nullopt}, session, {}, {},
                                                             std::nullopt, "a notice");
  CHECK_FALSE(first.attempts_left);
  CHECK_FALSE(first.shown);
  CHECK(first.closed);
  CHECK(first.notice == "a notice");
  CHECK(attnmark::student_page_html(first).find("None yet.") != std::string::npos);
}

TEST_CASE("serve: the teacher's page counts each roster student's attempts and their best score") {
  const std::vector<AttemptRecord> attempts = {
      {1, "s001", "t", "{}", 2, 3, "{}"}, {2, "s001", "t", "{}", 3, 3, "{}"}, {3, "s001", "t", "{}", 1, 3, "{}"}};
  const attnmark::TeacherPage page = attnmark::teacher_page(room(), attempts, false, attnmark::ScoreRule::last, {});
  CHECK(page.attempts == 3);
  CHECK(page.students_with_attempts == 1);
  CHECK(page.roster == 2);
  CHECK_FALSE(page.counts_best);
  REQUIRE(page.rows.size() == 2);
  CHECK(page.rows[0].attempts == 3);
  CHECK(page.rows[0].best == 3);  // the best, whichever attempt the gradebook counts
  CHECK(page.rows[1].attempts == 0);
  CHECK_FALSE(page.rows[1].best);
}
