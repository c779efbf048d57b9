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
  teacher.rows.push_back({evil, evil, "%3C", 2, 1.5});
  teacher.rows.push_back({"s002", "", "s002", 0, std::nullopt});
  const std::string page = attnmark::teacher_page_html(teacher);
  CHECK(page.find("<script>") == std::string::npos);
  CHECK(page.find("<tr><td><a href=\"/teacher/student?id=%3C\">" + escaped + "</a></td><td>" + escaped +
                  "</td><td>2</td><td>1.5</td></tr>") != std::string::npos);
  CHECK(page.find("<td>0</td><td>–</td>") != std::string::npos);
  CHECK(page.find("(best attempt of each student)") != std::string::npos);

  CHECK(attnmark::served_notice_page("Not answered", "a & b", {}).find("<main>\n<p class=\"notice\">a &amp; b</p>\n</main>") !=
        std::string::npos);
  CHECK(attnmark::served_message_page(attnmark::ServedMessage::no_such_attempt, {})
            .find("<title>Not found</title>") != std::string::npos);
}
