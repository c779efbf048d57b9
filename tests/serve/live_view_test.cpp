// The teacher's live pages' data (serve/live_view.h) from attempts checked
// by a real class: scores and mistake codes read from the stored feedback,
// the attempt that counts by the gradebook's rule, the radar's counts of who
// made a mistake and who still makes it, its window and its order.
#include "serve/live_view.h"

#include <fmt/format.h>
#include <thread>

#include "attnmark/lesson/diagnosis.h"
#include "attnmark/lesson/self_test.h"
#include "readers/served_answers.h"
#include "serve/pages.h"
#include "writers/report_words.h"
#include "support/test_support.h"

using attnmark::AttemptRecord;

namespace {

const attnmark::Classroom& room() {
  static const attnmark::Classroom r = attnmark::Classroom::from_record(
      {std::string(64, 'a'), attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/lesson.yaml", 1 << 20),
       "lesson.yaml", 987654321, "student,name\ns001,Student 1\ns002,Student 2\ns003,Student 3\n", "roster.csv"});
  return r;
}

// An attempt of `student` as the server stores it after checking `fields`.
AttemptRecord checked(std::int64_t id, const std::string& student, const std::string& at,
                      const std::map<std::string, std::string>& fields) {
  std::string problem;
  const std::optional<attnmark::Checked> c =
      room().check(student, attnmark::answers_from_form(student, fields, attnmark::attempt_source), problem);
  REQUIRE(c);
  return {id, student, at, c->answers, c->graded.marked->score, c->graded.marked->max_score, c->feedback};
}

// q1's weights with all the weight on one token: the hard-attention mistake.
const std::map<std::string, std::string> hard = {
    {"q1.weights.1.1", "1"}, {"q1.weights.1.2", "0"}, {"q1.weights.1.3", "0"}};

// Every part of q1 as the key of `student`'s variant has it: right.
std::map<std::string, std::string> right_q1(const std::string& student) {
  std::map<std::string, std::string> fields;
  const attnmark::Submission key = attnmark::key_answers(room().variant_of(student));
  for (const auto& [part, answer] : key.answers.at("q1"))
    for (std::size_t r = 0; r < answer.rows.size(); ++r)
      for (std::size_t c = 0; c < answer.rows[r].size(); ++c)
        fields["q1." + part + "." + std::to_string(r + 1) + "." + std::to_string(c + 1)] = answer.rows[r][c];
  return fields;
}

}  // namespace

TEST_CASE("live view: the facts of an attempt are read from its stored feedback") {
  const AttemptRecord a = checked(1, "s001", "2026-12-02T10:00:00Z", hard);
  const attnmark::AttemptFacts f = attnmark::attempt_facts(a);
  CHECK(f.score == a.score);
  CHECK(f.max_score == a.max_score);
  REQUIRE(f.questions.size() == room().rubric().questions.size());
  CHECK(f.questions[0].id == "q1");
  CHECK(f.questions[0].mistakes == std::vector<std::string>{"hard-attention"});
  CHECK(f.questions[1].mistakes.empty());
  // Feedback that does not read: no scores, no mistakes.
  const attnmark::AttemptFacts none = attnmark::attempt_facts({2, "s001", "", "", 0, 0, "not json"});
  CHECK_FALSE(none.score);
  CHECK(none.questions.empty());

  // The cache reads each attempt once, by id.
  attnmark::LiveCache cache;
  const auto first = cache.facts(a);
  CHECK(cache.facts(a) == first);
  CHECK(cache.size() == 1);
}

TEST_CASE("live view: each roster student's counted score, marks, last check, attempts and latest mistakes") {
  const std::vector<AttemptRecord> attempts = {
      checked(1, "s001", "2026-12-02T10:00:00Z", right_q1("s001")),
      checked(2, "s001", "2026-12-02T10:05:00Z", hard),
      checked(3, "s002", "2026-12-02T10:06:00Z", hard),
      {4, "s999", "2026-12-02T10:07:00Z", "", 1, 2, ""},  // not on the roster
  };
  REQUIRE(attempts[0].score > attempts[1].score);
  attnmark::LiveCache cache;
  const attnmark::LiveView best = attnmark::live_view(room(), attempts, attnmark::ScoreRule::best, false, &cache);
  CHECK(best.counts_best);
  CHECK_FALSE(best.paused);
  CHECK(best.questions == std::vector<std::string>{"q1", "q2", "q3"});
  REQUIRE(best.rows.size() == 3);
  const attnmark::LiveRow& s1 = best.rows[0];
  CHECK(s1.student == "s001");
  CHECK(s1.name == "Student 1");
  CHECK(s1.attempts == 2);
  // The best attempt counts: all of q1 right.
  CHECK(s1.score == attnmark::score_text(attempts[0].score) + " / " + attnmark::score_text(attempts[0].max_score));
  REQUIRE(s1.marks.size() == 3);
  CHECK(s1.marks[0].question == "q1");
  CHECK(s1.marks[0].score == attnmark::score_text(attempts[0].score) + " / " +
                                 attnmark::score_text(*attnmark::attempt_facts(attempts[0]).questions[0].max_score));
  // The latest attempt's time and mistakes, with the lesson's words.
  CHECK(s1.last_check == "2026-12-02T10:05:00Z");
  REQUIRE(s1.mistakes.size() == 1);
  CHECK(s1.mistakes[0].code == "hard-attention");
  CHECK(s1.mistakes[0].words == attnmark::explain("hard-attention"));
  // No attempt: no score, marks or time.
  const attnmark::LiveRow& s3 = best.rows[2];
  CHECK(s3.attempts == 0);
  CHECK(s3.score == "–");
  CHECK(s3.marks.empty());
  CHECK(s3.last_check.empty());
  CHECK(s3.mistakes.empty());
  CHECK(cache.size() == 3);  // the stranger's attempt is not read

  // By the last rule, s001's last attempt counts.
  const attnmark::LiveView last = attnmark::live_view(room(), attempts, attnmark::ScoreRule::last, true, &cache);
  CHECK_FALSE(last.counts_best);
  CHECK(last.paused);
  CHECK(last.rows[0].score == attnmark::score_text(attempts[1].score) + " / " + attnmark::score_text(attempts[1].max_score));
}

TEST_CASE("live view: the radar counts who made a mistake and who still makes it, hard-attention first") {
  const std::vector<AttemptRecord> attempts = {
      checked(1, "s001", "2026-12-02T10:00:00Z", hard),
      checked(2, "s002", "2026-12-02T10:01:00Z", hard),
      checked(3, "s003", "2026-12-02T10:02:00Z", {{"q1.scores.1.1", "1"}, {"q1.scores.1.2", "0"}, {"q1.scores.1.3", "2"}}),
      checked(4, "s001", "2026-12-02T10:20:00Z", right_q1("s001")),  // s001 fixes it
  };
  attnmark::LiveCache cache;
  const attnmark::RadarPage all = attnmark::radar_page(room(), attempts, {}, {}, &cache);
  CHECK(all.students == 3);
  REQUIRE_FALSE(all.rows.empty());
  CHECK(all.rows[0].code == "hard-attention");
  CHECK(all.rows[0].question.empty());
  CHECK(all.rows[0].made == 2);
  CHECK(all.rows[0].still == 1);
  CHECK(all.rows[0].still_students == std::vector<std::string>{"s002"});
  CHECK(all.rows[0].words == attnmark::explain("hard-attention"));
  for (std::size_t i = 2; i < all.rows.size(); ++i) CHECK(all.rows[i - 1].made >= all.rows[i].made);

  // Since 10:10 only s001's fixed attempt is in the window: nothing named.
  attnmark::RadarQuery since;
  since.since = "2026-12-02T10:10:00Z";
  const attnmark::RadarPage later = attnmark::radar_page(room(), attempts, since, {}, &cache);
  CHECK(later.students == 1);
  CHECK(later.rows.empty());

  // Per question: q1's rows only, each with its question.
  attnmark::RadarQuery q2;
  q2.question = "q2";
  CHECK(attnmark::radar_page(room(), attempts, q2, {}, &cache).rows.empty());
  attnmark::RadarQuery each;
  each.question = "each";
  const attnmark::RadarPage grouped = attnmark::radar_page(room(), attempts, each, {}, &cache);
  REQUIRE_FALSE(grouped.rows.empty());
  CHECK(grouped.rows[0].code == "hard-attention");
  CHECK(grouped.rows[0].question == "q1");
}

TEST_CASE("live view: the radar's query from its parameters") {
  const std::int64_t now = 1796212800;  // 2026-12-02T12:00:00Z
  CHECK(attnmark::utc_date_time(now) == "2026-12-02T12:00:00Z");
  const attnmark::RadarQuery ten = attnmark::radar_query_of(room(), {{"window", "10"}, {"names", "1"}}, now);
  CHECK(ten.since == "2026-12-02T11:50:00Z");
  CHECK(ten.window == "10");
  CHECK(ten.names);
  CHECK_FALSE(ten.paused);
  const attnmark::RadarQuery given =
      attnmark::radar_query_of(room(), {{"since", "2026-12-02T10:00:00Z"}, {"question", "q2"}, {"pause", "1"}}, now);
  CHECK(given.since == "2026-12-02T10:00:00Z");
  CHECK(given.window == "since");
  CHECK(given.question == "q2");
  CHECK(given.paused);
  const attnmark::RadarQuery junk =
      attnmark::radar_query_of(room(), {{"since", "yesterday"}, {"question", "q9"}, {"window", "5"}}, now);
  CHECK(junk.since.empty());
  CHECK(junk.window.empty());
  CHECK(junk.question.empty());
  CHECK_FALSE(junk.names);
}

TEST_CASE("live view: the radar page and its CSV from real attempts, names hidden by default") {
  const std::vector<AttemptRecord> attempts = {
      checked(1, "s001", "2026-12-02T10:00:00Z", hard),
      checked(2, "s002", "2026-12-02T10:01:00Z", hard),
      checked(3, "s001", "2026-12-02T10:20:00Z", right_q1("s001")),
  };
  attnmark::RadarPage page = attnmark::radar_page(room(), attempts, {}, {});
  const std::string html = attnmark::radar_page_html(page);
  CHECK(html.find("<meta http-equiv=\"refresh\" content=\"5\">") != std::string::npos);
  CHECK(html.find("<tr><td><b>hard-attention</b><br>") != std::string::npos);
  CHECK(html.find("<span class=\"pct\">2 of 2</span></div></td><td class=\"count\">") != std::string::npos);
  CHECK(html.find("<span class=\"pct\">1 of 2</span></div></td></tr>") != std::string::npos);
  CHECK(html.find("s002") == std::string::npos);
  const std::string csv = attnmark::radar_csv(page);
  CHECK(csv.starts_with("mistake,words,question,made_it,still_make_it,students\r\nhard-attention,"));
  CHECK(csv.find(",all,2,1,\r\n") != std::string::npos);

  attnmark::RadarQuery named;
  named.names = true;
  page = attnmark::radar_page(room(), attempts, named, {});
  CHECK(attnmark::radar_page_html(page).find("<td>s002</td></tr>") != std::string::npos);
  CHECK(attnmark::radar_csv(page).find(",all,2,1,s002\r\n") != std::string::npos);
}

TEST_CASE("live view: a class of 300 with 3000 attempts reads each attempt's feedback once") {
  std::string roster = "student,name\n";
  for (int i = 1; i <= 300; ++i) roster += fmt::format("s{:03},Student {}\n", i, i);
  const attnmark::Classroom big = attnmark::Classroom::from_record(
      {std::string(64, 'a'), attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/lesson.yaml", 1 << 20),
       "lesson.yaml", 987654321, roster, "roster.csv"});
  const AttemptRecord wrong = checked(1, "s001", "2026-12-02T10:00:00Z", hard);
  const AttemptRecord right = checked(2, "s001", "2026-12-02T10:00:00Z", right_q1("s001"));
  std::vector<AttemptRecord> attempts;
  for (int n = 0; n < 3000; ++n) {
    // Each student's 10 attempts are n = i + 300 k (student i, k = 0..9); every
    // other student's last one is right.
    AttemptRecord a = n >= 2700 && n % 2 == 0 ? right : wrong;
    a.id = n + 1;
    a.student = fmt::format("s{:03}", n % 300 + 1);
    a.at = fmt::format("2026-12-02T10:{:02}:00Z", n / 300);
    attempts.push_back(std::move(a));
  }
  attnmark::LiveCache cache;
  for (int reload = 0; reload < 2; ++reload) {
    const attnmark::LiveView v = attnmark::live_view(big, attempts, attnmark::ScoreRule::best, false, &cache);
    REQUIRE(v.rows.size() == 300);
    CHECK(v.rows[0].attempts == 10);
    CHECK(v.rows[0].last_check == "2026-12-02T10:09:00Z");
    CHECK(v.rows[0].mistakes.empty());
    CHECK(v.rows[1].mistakes.size() == 1);
    CHECK(v.rows[0].score == attnmark::score_text(right.score) + " / " + attnmark::score_text(right.max_score));
  }
  // Only the attempts a page shows are read: each student's counted and latest.
  CHECK(cache.size() <= 600);
  const attnmark::RadarPage r = attnmark::radar_page(big, attempts, {}, {}, &cache);
  CHECK(cache.size() == 3000);
  REQUIRE_FALSE(r.rows.empty());
  CHECK(r.rows[0].code == "hard-attention");
  CHECK(r.rows[0].made == 300);
  CHECK(r.rows[0].still == 150);
}

TEST_CASE("live view: the cache is shared by requests on several threads", "[threads]") {
  std::vector<AttemptRecord> attempts;
  const AttemptRecord wrong = checked(1, "s001", "2026-12-02T10:00:00Z", hard);
  for (int n = 1; n <= 200; ++n) {
    AttemptRecord a = wrong;
    a.id = n;
    attempts.push_back(std::move(a));
  }
  attnmark::LiveCache cache;
  std::vector<std::thread> threads;
  std::vector<std::size_t> made(4);
  for (std::size_t t = 0; t < made.size(); ++t)
    threads.emplace_back([&, t] { made[t] = attnmark::radar_page(room(), attempts, {}, {}, &cache).rows.at(0).made; });
  for (std::thread& t : threads) t.join();
  CHECK(made == std::vector<std::size_t>(4, 1));
  CHECK(cache.size() == 200);
}
