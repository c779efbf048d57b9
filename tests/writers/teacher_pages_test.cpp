// The teacher's live pages laid out (writers/teacher_pages.h): the live
// table, the reload every 5 s and its pause, the radar page (names hidden
// unless asked, counts in text beside the bars) and its CSV bytes.
#include "writers/teacher_pages.h"

#include "support/test_support.h"

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

attnmark::RadarPage radar() {
  attnmark::RadarPage p;
  p.title = "How attention works";
  p.students = 4;
  p.questions = {"q1", "q2"};
  p.rows = {{"hard-attention", "Attention takes a share, \"not\" one", "", 3, 1, {"s002"}},
            {"no-exp", "=e first then divide", "", 2, 2, {"s001", "s003"}}};
  return p;
}

}  // namespace

TEST_CASE("teacher pages: a page reloads itself every 5 s unless paused") {
  const std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>T</title>";
  CHECK(attnmark::with_auto_refresh(page, false) ==
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"refresh\" content=\"5\">\n<title>T</title>");
  CHECK(attnmark::with_auto_refresh(page, true) == page);
}

TEST_CASE("teacher pages: the live table shows each student's score, marks, last check, attempts and mistakes") {
  attnmark::LiveView v;
  v.questions = {"q1", "q2"};
  v.rows = {{"s 1", "Ann <A>", "s%201", 2, "9.5 / 16", {{"q1", "4 / 4"}}, "2026-12-02T10:00:00Z",
             {{"hard-attention", "Attention takes a share"}}},
            {"s002", "Bob", "s002", 0, "–", {}, "", {}}};
  const std::string html = attnmark::live_table_html(v);
  CHECK(has(html, "<p role=\"status\">Updates every 5 s. <a href=\"/teacher?pause=1\">Pause</a></p>\n"));
  CHECK(has(html, "<th scope=\"col\">q1</th><th scope=\"col\">q2</th><th scope=\"col\">Last check</th>"));
  CHECK(has(html, "<tr><td><a href=\"/teacher/student?id=s%201\">s 1</a></td><td>Ann &lt;A&gt;</td><td>9.5 / 16</td>"
                  "<td>4 / 4</td><td>–</td><td>2026-12-02T10:00:00Z</td><td>2</td>"
                  "<td><abbr title=\"Attention takes a share\">hard-attention</abbr></td></tr>\n"));
  CHECK(has(html, "<td>s002</td>") == false);
  CHECK(has(html, "<td>Bob</td><td>–</td><td>–</td><td>–</td><td>–</td><td>0</td><td>–</td></tr>\n"));
  CHECK(has(html, "of each student's best attempt"));
  v.paused = true;
  CHECK(has(attnmark::live_table_html(v),
            "<p role=\"status\">Paused: this page does not update. <a href=\"/teacher\">Resume</a> (updates every 5 s)</p>\n"));
}

TEST_CASE("teacher pages: the radar page refreshes, counts in text beside bars, and hides names unless asked") {
  attnmark::RadarPage p = radar();
  const std::string html = attnmark::radar_page_html(p);
  CHECK(has(html, "<meta http-equiv=\"refresh\" content=\"5\">"));
  CHECK(has(html, "Updates every 5 s. <a href=\"/teacher/radar?pause=1\">Pause</a>"));
  CHECK(has(html, "<form class=\"bar\" method=\"get\" action=\"/teacher/radar\">"));
  CHECK(has(html, "<option value=\"10\">last 10 min</option>"));
  CHECK(has(html, "<p>4 students checked so far. <a href=\"/teacher/radar.csv\">radar.csv</a>"));
  CHECK(has(html, "<tr><td><b>hard-attention</b><br>Attention takes a share, &quot;not&quot; one</td>"
                  "<td class=\"count\"><div class=\"meter\"><div class=\"track\" aria-hidden=\"true\">"
                  "<div class=\"fill\" style=\"width:75.0%\"></div></div><span class=\"pct\">3 of 4</span></div></td>"
                  "<td class=\"count\"><div class=\"meter\"><div class=\"track\" aria-hidden=\"true\">"
                  "<div class=\"fill\" style=\"width:25.0%\"></div></div><span class=\"pct\">1 of 4</span></div></td>"
                  "</tr>\n"));
  CHECK(html.find("hard-attention") < html.find("no-exp"));
  CHECK_FALSE(has(html, "s002"));
  CHECK_FALSE(has(html, "Who still makes it"));

  p.names = true;
  p.window = "30";
  p.since = "2026-12-02T11:30:00Z";
  p.question = "each";
  p.rows[0].question = p.rows[1].question = "q1";
  p.paused = true;
  const std::string named = attnmark::radar_page_html(p);
  CHECK_FALSE(has(named, "http-equiv=\"refresh\""));
  CHECK(has(named, "<a href=\"/teacher/radar?window=30&amp;question=each&amp;names=1\">Resume</a>"));
  CHECK(has(named, "<option value=\"30\" selected>last 30 min</option>"));
  CHECK(has(named, "<input type=\"checkbox\" name=\"names\" value=\"1\" checked>"));
  CHECK(has(named, "4 students checked since 2026-12-02T11:30:00Z."));
  CHECK(has(named, "<td>q1</td><td class=\"count\">"));
  CHECK(has(named, "<td>s001, s003</td></tr>\n"));
  p.students = 1;
  CHECK(has(attnmark::radar_page_html(p), "<p>1 student checked since 2026-12-02T11:30:00Z."));
}

TEST_CASE("teacher pages: the radar's CSV, ids only when names are asked") {
  attnmark::RadarPage p = radar();
  CHECK(attnmark::radar_csv(p) ==
        "mistake,words,question,made_it,still_make_it,students\r\n"
        "hard-attention,\"Attention takes a share, \"\"not\"\" one\",all,3,1,\r\n"
        "no-exp,'=e first then divide,all,2,2,\r\n");
  p.names = true;
  p.rows[1].question = "q2";
  CHECK(attnmark::radar_csv(p) ==
        "mistake,words,question,made_it,still_make_it,students\r\n"
        "hard-attention,\"Attention takes a share, \"\"not\"\" one\",all,3,1,s002\r\n"
        "no-exp,'=e first then divide,q2,2,2,s001 s003\r\n");
}
