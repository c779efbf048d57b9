// The teacher's live pages over loopback HTTP: attnmark serve runs as its own
// process (support/serve_support.h), students check through POST /api/check,
// and GET /teacher, /teacher/radar and /teacher/radar.csv are read back as
// the teacher's browser gets them, byte for byte where the page is the live
// view's (writers/teacher_pages.h lays them out, serve/live_view.h fills them).
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/self_test.h"
#include "attnmark/lesson/variant.h"
#include "serve/served_class.h"
#include "support/serve_support.h"
#include "writers/report_words.h"

namespace fs = std::filesystem;

namespace {

// q1 of `student`'s variant answered as its key has it (every part right), as
// POST /api/check's answers: a part of one row as a list of cells, else a list of rows.
std::string right_q1(const std::string& student) {
  const attnmark::Rubric rubric = shipped("lesson");
  const attnmark::Submission key = attnmark::key_answers(attnmark::make_variant(rubric, std::stoull(seed), student));
  nlohmann::json q1 = nlohmann::json::object();
  for (const auto& [part, answer] : key.answers.at("q1"))
    q1[part] = answer.rows.size() == 1 ? nlohmann::json(answer.rows[0]) : nlohmann::json(answer.rows);
  return nlohmann::json{{"q1", q1}}.dump();
}

// The time stored with each attempt (UTC text, as the live table shows it), by attempt id order.
std::vector<std::string> attempt_times(const std::string& db) {
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(handle, "SELECT at FROM attempts ORDER BY id", -1, &stmt, nullptr) == SQLITE_OK);
  std::vector<std::string> out;
  while (sqlite3_step(stmt) == SQLITE_ROW) out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
  sqlite3_finalize(stmt);
  sqlite3_close(handle);
  return out;
}

// `score` of `of` as the live pages write it: "5 / 16".
std::string out_of(double score, double of) { return attnmark::score_text(score) + " / " + attnmark::score_text(of); }

// The marks of every part of question `q` of the rubric.
double question_max(const attnmark::QuestionSpec& q) {
  double sum = 0;
  for (const auto& [part, marking] : q.marking) sum += marking.marks;
  return sum;
}

// The text of `body` from the first `from` to the end of the first `to` after it ("" when either is missing).
std::string between(const std::string& body, const std::string& from, const std::string& to) {
  const std::size_t start = body.find(from);
  if (start == std::string::npos) return {};
  const std::size_t end = body.find(to, start);
  return end == std::string::npos ? std::string() : body.substr(start, end + to.size() - start);
}

const std::string refresh = "<meta charset=\"utf-8\">\n<meta http-equiv=\"refresh\" content=\"5\">\n";
const std::string any_refresh = "http-equiv=\"refresh\"";

// The lesson's words for hard-attention (lesson/diagnosis.cpp), as HTML and as a CSV field.
const std::string words = "Attention takes a share of every token's value, not only the best match: softmax gives "
                          "every token a weight, and the weights add up to 1.";
const std::string words_html = "Attention takes a share of every token&#39;s value, not only the best match: softmax "
                               "gives every token a weight, and the weights add up to 1.";
const std::string words_csv = "\"" + words + "\"";

const std::string csv_header = "mistake,words,question,made_it,still_make_it,students\r\n";

// The live table's section of GET /teacher with `rows` (each a whole <tr> line).
std::string live_section(bool paused, const std::string& rows) {
  return std::string("<section aria-labelledby=\"live\">\n<h2 id=\"live\">The class now</h2>\n") +
         (paused ? "<p role=\"status\">Paused: this page does not update. <a href=\"/teacher\">Resume</a> "
                   "(updates every 5 s)</p>\n"
                 : "<p role=\"status\">Updates every 5 s. <a href=\"/teacher?pause=1\">Pause</a></p>\n") +
         "<p>Score: of each student's best attempt, as the gradebook counts it. Mistakes: named in their latest "
         "attempt. <a href=\"/teacher/radar\">Misconception radar</a></p>\n"
         "<table><thead><tr><th scope=\"col\">Student</th><th scope=\"col\">Name</th><th scope=\"col\">Score</th>"
         "<th scope=\"col\">q1</th><th scope=\"col\">q2</th><th scope=\"col\">q3</th><th scope=\"col\">Last check</th>"
         "<th scope=\"col\">Attempts</th><th scope=\"col\">Mistakes</th></tr></thead>\n<tbody>\n" +
         rows + "</tbody></table>\n</section>\n";
}

// One student's row of the live table: their score, q1..q3 marks, last check, attempts and mistakes cell.
std::string live_row(const std::string& student, const std::string& score, const std::vector<std::string>& marks,
                     const std::string& last_check, int attempts, const std::string& mistakes) {
  std::string row = "<tr><td><a href=\"/teacher/student?id=" + student + "\">" + student + "</a></td><td>Student " +
                    std::string(1, student.back()) + "</td><td>" + score + "</td>";
  for (const std::string& m : marks) row += "<td>" + m + "</td>";
  return row + "<td>" + last_check + "</td><td>" + std::to_string(attempts) + "</td><td>" + mistakes + "</td></tr>\n";
}

// A count cell of the radar: `count` of `of` students, as a meter of `percent` ("50.0") and in text.
std::string count_cell(std::size_t count, std::size_t of, const std::string& percent) {
  return "<td class=\"count\"><div class=\"meter\"><div class=\"track\" aria-hidden=\"true\"><div class=\"fill\" "
         "style=\"width:" + percent + "%\"></div></div><span class=\"pct\">" + std::to_string(count) + " of " +
         std::to_string(of) + "</span></div></td>";
}

}  // namespace

TEST_CASE("live server: /teacher, /teacher/radar and radar.csv show the class's checks, need the token, and pause",
          "[serve]") {
  const fs::path dir = class_dir("live");
  const std::string db = (dir / "class.sqlite").string();
  // At most 2 checks a minute: s001's two checks hold them at the limit, so
  // the teacher's page carries a clear form (and its CSRF token) for them.
  ServeProcess server(serve_args(dir, write_roster(dir, 3), "--checks-per-minute 2"), dir);
  REQUIRE(server.running());
  auto client = server.client();
  const httplib::Headers bearer{{"Authorization", "Bearer " + server.token()}};

  // The marks the pages should show, from the rubric served.
  const attnmark::Rubric rubric = shipped("lesson");
  REQUIRE(rubric.questions.size() == 3);
  const double total = attnmark::max_score(rubric);
  const double q1 = question_max(rubric.questions[0]), q2 = question_max(rubric.questions[1]),
               q3 = question_max(rubric.questions[2]);
  REQUIRE(total == q1 + q2 + q3);
  // The hard-attention check: q1's scores right (their marks), its weights wrong, its output missing.
  const double hard_score = rubric.questions[0].marking.at(attnmark::Part::scores).marks;
  const std::vector<std::string> marks_hard = {out_of(hard_score, q1), out_of(0, q2), out_of(0, q3)};
  const std::vector<std::string> marks_right = {out_of(q1, q1), out_of(0, q2), out_of(0, q3)};
  const std::string no_attempt_row = live_row("s003", "–", {"–", "–", "–"}, "–", 0, "–");

  const auto check = [&](const std::string& student, const std::string& answers) {
    const auto r = client.Post("/api/check", check_body(student, code_of(db, student), answers), "application/json");
    REQUIRE(r);
    REQUIRE(r->status == 200);
    REQUIRE(r->get_header_value("X-Attnmark-Stored") == "yes");
    return nlohmann::json::parse(r->body);
  };

  // Without the token, or with another, every live page is refused and shows no student.
  for (const char* path : {"/teacher", "/teacher?pause=1", "/teacher/radar", "/teacher/radar?pause=1",
                           "/teacher/radar.csv", "/teacher/radar.csv?names=1&question=q1"}) {
    INFO(path);
    for (const httplib::Headers& h : {httplib::Headers{}, httplib::Headers{{"Authorization", "Bearer " + std::string(48, '0')}},
                                      httplib::Headers{{"Cookie", "attnmark_teacher=" + std::string(48, '0')}}}) {
      const auto r = client.Get(path, h);
      REQUIRE(r);
      CHECK(r->status == 401);
      CHECK(r->get_header_value("Content-Type") == "text/html; charset=utf-8");
      CHECK(r->get_header_value("Content-Disposition").empty());
      CHECK(r->body.find("s00") == std::string::npos);
      CHECK(r->body.find(any_refresh) == std::string::npos);
    }
  }
  CHECK(client.Post("/teacher/clear", "kind=checks&key=s001", "application/x-www-form-urlencoded")->status == 401);

  // The printed address signs the teacher in with a cookie for /teacher.
  const auto signin = client.Get(("/teacher?token=" + server.token()).c_str());
  REQUIRE(signin);
  REQUIRE(signin->status == 303);
  const std::string set_cookie = signin->get_header_value("Set-Cookie");
  const httplib::Headers cookie{{"Cookie", set_cookie.substr(0, set_cookie.find(';'))}};

  // Before any check: every row without an attempt, and the radar empty.
  {
    const auto page = client.Get("/teacher", cookie);
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(between(page->body, "<section aria-labelledby=\"live\">", "</section>\n") ==
          live_section(false, live_row("s001", "–", {"–", "–", "–"}, "–", 0, "–") +
                                  live_row("s002", "–", {"–", "–", "–"}, "–", 0, "–") + no_attempt_row));
    const auto csv = client.Get("/teacher/radar.csv", bearer);
    REQUIRE(csv);
    CHECK(csv->body == csv_header);
    const auto radar = client.Get("/teacher/radar", bearer);
    REQUIRE(radar);
    CHECK(radar->body.find("<p>0 students checked so far. <a href=\"/teacher/radar.csv\">radar.csv</a> · "
                           "<a href=\"/teacher\">The class</a></p>\n<p>No mistake named.</p>\n") != std::string::npos);
  }

  // s001 checks with the lesson's common mistake: all the weight on one token.
  const nlohmann::json hard = check("s001", hard_attention);
  REQUIRE(hard["questions"][0]["parts"]["weights"]["diagnoses"] == nlohmann::json::array({"hard-attention"}));
  REQUIRE(hard["score"] == hard_score);
  {
    const std::vector<std::string> at = attempt_times(db);
    REQUIRE(at.size() == 1);
    const std::string mistake = "<abbr title=\"" + words_html + "\">hard-attention</abbr>";
    const auto page = client.Get("/teacher", cookie);
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->get_header_value("Content-Type") == "text/html; charset=utf-8");
    CHECK(count(page->body, refresh) == 1);
    CHECK(count(page->body, any_refresh) == 1);
    CHECK(between(page->body, "<section aria-labelledby=\"live\">", "</section>\n") ==
          live_section(false, live_row("s001", out_of(hard_score, total), marks_hard, at[0], 1, mistake) +
                                  live_row("s002", "–", {"–", "–", "–"}, "–", 0, "–") + no_attempt_row));
    // With names, the radar says who still makes it.
    const auto csv = client.Get("/teacher/radar.csv?names=1", bearer);
    REQUIRE(csv);
    CHECK(csv->body == csv_header + "hard-attention," + words_csv + ",all,1,1,s001\r\n");
    const auto radar = client.Get("/teacher/radar?names=1", bearer);
    REQUIRE(radar);
    CHECK(between(radar->body, "<table class=\"radar\">", "</table>\n") ==
          "<table class=\"radar\"><thead><tr><th scope=\"col\">Mistake</th><th scope=\"col\">Made it</th>"
          "<th scope=\"col\">Still make it</th><th scope=\"col\">Who still makes it</th></tr></thead>\n<tbody>\n"
          "<tr><td><b>hard-attention</b><br>" + words_html + "</td>" + count_cell(1, 1, "100.0") +
          count_cell(1, 1, "100.0") + "<td>s001</td></tr>\n</tbody></table>\n");
  }

  // s001 fixes it; s002 is right at once.
  const nlohmann::json fixed = check("s001", right_q1("s001"));
  REQUIRE(fixed["score"] == q1);
  REQUIRE(check("s002", right_q1("s002"))["score"] == q1);
  const std::vector<std::string> at = attempt_times(db);
  REQUIRE(at.size() == 3);
  const std::string rows_now = live_row("s001", out_of(q1, total), marks_right, at[1], 2, "–") +
                               live_row("s002", out_of(q1, total), marks_right, at[2], 1, "–") + no_attempt_row;

  SECTION("GET /teacher: the best attempt's score and marks, the latest check's time and mistakes, reloading every 5 s") {
    const auto page = client.Get("/teacher", cookie);
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(count(page->body, refresh) == 1);
    CHECK(count(page->body, any_refresh) == 1);
    CHECK(between(page->body, "<section aria-labelledby=\"live\">", "</section>\n") == live_section(false, rows_now));
    CHECK(page->body.find("<p>3 attempts by 2 of 3 students. ") != std::string::npos);
    // The Bearer token is as good as the cookie.
    const auto by_bearer = client.Get("/teacher", bearer);
    REQUIRE(by_bearer);
    CHECK(by_bearer->status == 200);
    CHECK(between(by_bearer->body, "<section aria-labelledby=\"live\">", "</section>\n") == live_section(false, rows_now));
  }

  SECTION("GET /teacher?pause=1 and POST /teacher/clear: the same table, and no reload") {
    const auto page = client.Get("/teacher?pause=1", cookie);
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(count(page->body, any_refresh) == 0);
    CHECK(between(page->body, "<section aria-labelledby=\"live\">", "</section>\n") == live_section(true, rows_now));
    // pause takes exactly 1; any other value reloads.
    CHECK(count(client.Get("/teacher?pause=yes", cookie)->body, refresh) == 1);

    const std::string csrf_marker = "name=\"csrf\" value=\"";
    const std::size_t at_csrf = page->body.find(csrf_marker);
    REQUIRE(at_csrf != std::string::npos);
    const std::string csrf = page->body.substr(at_csrf + csrf_marker.size(), 64);
    CHECK(client.Post("/teacher/clear", "csrf=" + csrf + "&kind=checks&key=s001", "application/x-www-form-urlencoded")
              ->status == 401);
    const auto cleared =
        client.Post("/teacher/clear", cookie, "csrf=" + csrf + "&kind=checks&key=s001", "application/x-www-form-urlencoded");
    REQUIRE(cleared);
    CHECK(cleared->status == 200);
    CHECK(cleared->body.find("<p class=\"notice\" role=\"status\">s001 may check again at once</p>\n") != std::string::npos);
    CHECK(count(cleared->body, any_refresh) == 0);
    CHECK(between(cleared->body, "<section aria-labelledby=\"live\">", "</section>\n") == live_section(true, rows_now));
  }

  SECTION("GET /teacher/radar: the mistake made by 1 of the 2 students who checked, and still made by none") {
    const auto radar = client.Get("/teacher/radar", bearer);
    REQUIRE(radar);
    CHECK(radar->status == 200);
    CHECK(radar->get_header_value("Content-Type") == "text/html; charset=utf-8");
    CHECK(count(radar->body, refresh) == 1);
    CHECK(radar->body.find("<h1>How attention works in a transformer: misconceptions</h1>\n"
                           "<p role=\"status\">Updates every 5 s. <a href=\"/teacher/radar?pause=1\">Pause</a></p>\n") !=
          std::string::npos);
    CHECK(radar->body.find("<p>2 students checked so far. <a href=\"/teacher/radar.csv\">radar.csv</a> · "
                           "<a href=\"/teacher\">The class</a></p>\n") != std::string::npos);
    CHECK(between(radar->body, "<table class=\"radar\">", "</table>\n") ==
          "<table class=\"radar\"><thead><tr><th scope=\"col\">Mistake</th><th scope=\"col\">Made it</th>"
          "<th scope=\"col\">Still make it</th></tr></thead>\n<tbody>\n"
          "<tr><td><b>hard-attention</b><br>" + words_html + "</td>" + count_cell(1, 2, "50.0") +
          count_cell(0, 2, "0.0") + "</tr>\n</tbody></table>\n");
    // The teacher's cookie is sent for every /teacher path.
    CHECK(client.Get("/teacher/radar", cookie)->status == 200);

    const auto paused = client.Get("/teacher/radar?pause=1", bearer);
    REQUIRE(paused);
    CHECK(count(paused->body, any_refresh) == 0);
    CHECK(paused->body.find("<p role=\"status\">Paused: this page does not update. <a href=\"/teacher/radar\">Resume</a> "
                            "(updates every 5 s)</p>\n") != std::string::npos);
    CHECK(paused->body.find("<input type=\"hidden\" name=\"pause\" value=\"1\">") != std::string::npos);
  }

  SECTION("GET /teacher/radar.csv: its bytes, as an attachment named radar.csv") {
    const auto csv = client.Get("/teacher/radar.csv", bearer);
    REQUIRE(csv);
    CHECK(csv->status == 200);
    CHECK(csv->get_header_value("Content-Type") == "text/csv; charset=utf-8");
    CHECK(csv->get_header_value("Content-Disposition") == "attachment; filename=\"radar.csv\"");
    const std::string all = csv_header + "hard-attention," + words_csv + ",all,1,0,\r\n";
    CHECK(csv->body == all);
    // With names: no one still makes it, so no one is named.
    CHECK(client.Get("/teacher/radar.csv?names=1", bearer)->body == all);
    // The last 10 minutes hold every check of this test.
    CHECK(client.Get("/teacher/radar.csv?window=10", bearer)->body == all);
    // A window the form does not offer, a since that is not a UTC time and an unknown question are ignored.
    for (const char* query : {"?window=5", "?since=yesterday", "?since=2026-12-02T10:00:00", "?question=q9"}) {
      INFO(query);
      CHECK(client.Get(("/teacher/radar.csv" + std::string(query)).c_str(), bearer)->body == all);
    }
  }

  SECTION("the radar's question and since parameters") {
    // q1, where the mistake was made; grouped by question; q2, where it was not.
    const std::string in_q1 = csv_header + "hard-attention," + words_csv + ",q1,1,0,\r\n";
    CHECK(client.Get("/teacher/radar.csv?question=q1", bearer)->body == in_q1);
    CHECK(client.Get("/teacher/radar.csv?question=each", bearer)->body == in_q1);
    CHECK(client.Get("/teacher/radar.csv?question=q2", bearer)->body == csv_header);
    const auto radar = client.Get("/teacher/radar?question=q1", bearer);
    REQUIRE(radar);
    CHECK(radar->body.find("<option selected>q1</option><option>q2</option>") != std::string::npos);
    CHECK(radar->body.find("<a href=\"/teacher/radar.csv?question=q1\">radar.csv</a>") != std::string::npos);
    CHECK(between(radar->body, "<table class=\"radar\">", "</table>\n") ==
          "<table class=\"radar\"><thead><tr><th scope=\"col\">Mistake</th><th scope=\"col\">Question</th>"
          "<th scope=\"col\">Made it</th><th scope=\"col\">Still make it</th></tr></thead>\n<tbody>\n"
          "<tr><td><b>hard-attention</b><br>" + words_html + "</td><td>q1</td>" + count_cell(1, 2, "50.0") +
          count_cell(0, 2, "0.0") + "</tr>\n</tbody></table>\n");

    // Attempts at or after `since`: from long ago, every one; from the future, none.
    CHECK(client.Get("/teacher/radar.csv?since=2000-01-01T00:00:00Z", bearer)->body ==
          csv_header + "hard-attention," + words_csv + ",all,1,0,\r\n");
    CHECK(client.Get("/teacher/radar.csv?since=2999-01-01T00:00:00Z", bearer)->body == csv_header);
    const auto later = client.Get("/teacher/radar?since=2999-01-01T00:00:00Z", bearer);
    REQUIRE(later);
    CHECK(later->body.find("<p>0 students checked since 2999-01-01T00:00:00Z. <a href=\"/teacher/radar.csv?since="
                           "2999-01-01T00:00:00Z\">radar.csv</a> · <a href=\"/teacher\">The class</a></p>\n"
                           "<p>No mistake named.</p>\n") != std::string::npos);
    // From s001's fixing check on (when it came in a later second than the
    // mistake): only right attempts are in the window, so no mistake.
    if (at[1] > at[0])
      CHECK(client.Get(("/teacher/radar.csv?since=" + at[1]).c_str(), bearer)->body == csv_header);
  }
}
