// attnmark serve's pages laid out from plain data (writers/served_pages.h):
// every text the server hands over is escaped.
#include "writers/served_pages.h"

#include "support/test_support.h"

TEST_CASE("the served pages escape every text they are given") {
  const std::string evil = "<script>x</script>\"";
  const std::string escaped = "&lt;script&gt;x&lt;/script&gt;&quot;";
  const std::string signin = attnmark::signin_page_html({evil, evil, evil, evil, {}});
  CHECK(signin.find("<script>") == std::string::npos);
  CHECK(signin.find("<h1>" + escaped + "</h1>") != std::string::npos);
  CHECK(signin.find("<p class=\"notice bad\" role=\"alert\">" + escaped + "</p>") != std::string::npos);
  CHECK(signin.find("autocomplete=\"username\" value=\"" + escaped + "\">") != std::string::npos);
  CHECK(attnmark::signin_page_html({"Class", "c", "", "", {}}).find("role=\"alert\"") == std::string::npos);

  attnmark::TeacherPage teacher;
  teacher.title = evil;
  teacher.live.questions = {"q1"};
  teacher.live.rows.push_back({evil, evil, "%3C", 2, "1.5 / 4", {{"q1", "1.5 / 4"}}, "2026-12-02T10:00:00Z", {{evil, evil}}});
  teacher.live.rows.push_back({"s002", "", "s002", 0, "–", {}, "", {}});
  const std::string page = attnmark::teacher_page_html(teacher);
  CHECK(page.find("<script>") == std::string::npos);
  CHECK(page.find("<tr><td><a href=\"/teacher/student?id=%3C\">" + escaped + "</a></td><td>" + escaped +
                  "</td><td>1.5 / 4</td><td>1.5 / 4</td><td>2026-12-02T10:00:00Z</td><td>2</td><td><abbr title=\"" +
                  escaped + "\">" + escaped + "</abbr></td></tr>") != std::string::npos);
  CHECK(page.find("<a href=\"/teacher/student?id=s002\">s002</a></td><td></td><td>–</td><td>–</td><td>–</td><td>0</td>"
                  "<td>–</td></tr>") != std::string::npos);
  CHECK(page.find("(best attempt of each student)") != std::string::npos);

  CHECK(attnmark::served_notice_page("Not answered", "a & b", {}).find("<main>\n<p class=\"notice\">a &amp; b</p>\n</main>") !=
        std::string::npos);
  CHECK(attnmark::served_message_page(attnmark::ServedMessage::no_such_attempt, {})
            .find("<title>Not found</title>") != std::string::npos);
}

TEST_CASE("the teacher's page lays out its limits: a form per row posting kind and key to /teacher/clear") {
  attnmark::TeacherPage teacher;
  teacher.title = "Class";
  CHECK(attnmark::teacher_page_html(teacher).find("Limits") == std::string::npos);  // no section unless given
  attnmark::TeacherLimits limits;
  limits.csrf = "t0k";
  limits.rules = "at most 30 checks a minute per student";
  limits.database = "2.5 MiB of 1 GiB";
  teacher.limits = limits;
  CHECK(attnmark::teacher_page_html(teacher).find(
            "<section aria-labelledby=\"limits\">\n<h2 id=\"limits\">Limits</h2>\n"
            "<p>This start: at most 30 checks a minute per student.</p>\n<p>The database: 2.5 MiB of 1 GiB.</p>\n"
            "<p>No student or address is held by a limit.</p>\n</section>\n</main>") != std::string::npos);
  limits.database_full = true;
  limits.cleared = "s001 may check again at once";
  limits.rows.push_back({"checks", "s<1>", "s<1>", "30 checks in the last minute, as many as allowed; free in 12 seconds"});
  limits.rows.push_back({"address", "10.0.0.7", "from 10.0.0.7", "120 failed sign-ins in 15 minutes; its sign-ins wait their turn, one a second; free in 14 minutes"});
  teacher.limits = limits;
  const std::string page = attnmark::teacher_page_html(teacher);
  CHECK(page.find(
            "<p>The database: 2.5 MiB of 1 GiB (full: checks are answered, not kept).</p>\n"
            "<p class=\"notice\" role=\"status\">s001 may check again at once</p>\n"
            "<table><caption>Held by a limit now</caption><thead><tr><th scope=\"col\">Who</th><th scope=\"col\">Limit</th>"
            "<th scope=\"col\">Clear</th></tr></thead>\n<tbody>\n"
            "<tr><td>s&lt;1&gt;</td><td>30 checks in the last minute, as many as allowed; free in 12 seconds</td><td>"
            "<form class=\"inline\" method=\"post\" action=\"/teacher/clear\"><input type=\"hidden\" name=\"csrf\" "
            "value=\"t0k\"><input type=\"hidden\" name=\"kind\" value=\"checks\"><input type=\"hidden\" name=\"key\" "
            "value=\"s&lt;1&gt;\"><button type=\"submit\" aria-label=\"Clear: s&lt;1&gt;, 30 checks in the last minute, "
            "as many as allowed; free in 12 seconds\">Clear</button></form></td></tr>\n"
            "<tr><td>from 10.0.0.7</td>") != std::string::npos);
  CHECK(page.find("name=\"key\" value=\"10.0.0.7\"><button") != std::string::npos);
  CHECK(page.find("</tbody></table>\n</section>\n</main>") != std::string::npos);
}
