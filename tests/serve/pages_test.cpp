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
  // Each box is named in the lesson's words with its verdict; the revealed
  // right answer describes it.
  CHECK(html.find("name=\"q1.weights.1.1\" aria-label=\"Question 1, weight, query late, key bus, wrong\" "
                  "autocomplete=\"off\" enterkeyhint=\"next\" aria-invalid=\"true\" aria-describedby=\"mark-q1.weights.1.1\" "
                  "value=\"1\"><span class=\"mark\" id=\"mark-q1.weights.1.1\"><span class=\"bad\" title=\"wrong\" "
                  "aria-hidden=\"true\">✗</span> <span class=\"muted\">answer 0.665</span></span>") != std::string::npos);
  // In the summary at the top, which the page opens on.
  const std::size_t summary = html.find("<section class=\"summary notice\" id=\"summary\"");
  REQUIRE(summary != std::string::npos);
  CHECK(html.find("<p>Attempts left: 1.</p>", summary) < html.find("</section>", summary));
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
  REQUIRE(page.live.rows.size() == 2);
  CHECK(page.live.rows[0].attempts == 3);
  CHECK(page.live.rows[0].last_check == "t");
  CHECK(page.live.rows[1].attempts == 0);
  CHECK(page.live.rows[1].score == "–");
}

TEST_CASE("serve: the class's rules line says each cap, and the teacher's limits list who each holds") {
  attnmark::ClassRules rules;
  CHECK(attnmark::class_rules_text(rules, false) ==
        "any number of checks; a check with every box blank or unreadable, or the same as the last, is answered, not stored; the gradebook counts each student's best attempt; right answers never shown; at most 30 "
        "checks a minute per student; up to 2 MiB of attempts stored per student and 1 GiB in all (later checks are "
        "answered, not stored)");
  rules.attempts = 1;
  rules.close_at = 1798131600;      // 2026-12-24T17:00Z
  rules.reveal_after = 1799107200;  // 2027-01-05
  rules.score = attnmark::ScoreRule::last;
  rules.limits = {5, 512 * attnmark::kibibyte, 3 * attnmark::gibibyte};
  CHECK(attnmark::class_rules_text(rules, true) ==
        "1 stored check per student; a check with every box blank or unreadable, or the same as the last, is answered, not stored, and uses no attempt; closes 2026-12-24T17:00:00Z (later checks are answered, not stored); the gradebook "
        "counts each student's last attempt; right answers shown from 2027-01-05T00:00:00Z; at most 5 checks a minute "
        "per student; up to 512 KiB of attempts stored per student and 3 GiB in all (later checks are answered, not "
        "stored)");
  CHECK(attnmark::utc_date_time(0) == "1970-01-01T00:00:00Z");

  attnmark::CheckRate checks(2);
  attnmark::SignInLimits sign_ins(std::string(64, 'a'));
  const std::int64_t t = 9'000'000;
  checks.take("s002", t);
  checks.take("s002", t + 1000);
  checks.take("s001", t);  // one of two: not held
  for (int i = 0; i < 21; ++i) sign_ins.sign_in("g" + std::to_string(i), "10.0.0.7", "", t, [] { return false; });
  const attnmark::TeacherLimits l = attnmark::teacher_limits(
      checks, sign_ins, {{"s003", 2 * attnmark::mebibyte - 100}}, 5 * attnmark::mebibyte / 2,
      attnmark::ClassRules{}, false, t + 20'000, "tok", "done");
  CHECK(l.csrf == "tok");
  CHECK(l.cleared == "done");
  CHECK(l.rules == attnmark::class_rules_text({}, false));
  CHECK(l.database == "2.5 MiB of 1 GiB");
  CHECK_FALSE(l.database_full);
  REQUIRE(l.rows.size() == 3);
  CHECK(l.rows[0].kind == "checks");
  CHECK(l.rows[0].key == "s002");
  CHECK(l.rows[0].who == "s002");
  CHECK(l.rows[0].what == "2 checks in the last minute, as many as allowed; free in 40 seconds");
  CHECK(l.rows[1].kind == "storage");
  CHECK(l.rows[1].key == "s003");
  CHECK(l.rows[1].what == "2.0 MiB of attempts stored (2 MiB allowed); later checks are answered, not kept");
  CHECK(l.rows[2].kind == "address");
  CHECK(l.rows[2].key == "10.0.0.7");
  CHECK(l.rows[2].who == "from 10.0.0.7");
  CHECK(l.rows[2].what == "21 failed sign-ins in 15 minutes; wrong codes answered slowly; free in 15 minutes");
  CHECK(attnmark::teacher_limits(checks, sign_ins, {}, attnmark::gibibyte, {}, false, t, "", "").database_full);
}
