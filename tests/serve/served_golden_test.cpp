// Golden files pin the served class's pages as served (the sign-in page, two
// students' pages, one after a check and one before any, a check's JSON and
// the teacher's page) and the report folder `mark --db` writes. What differs
// between runs by design is replaced before comparing: CSRF tokens, the
// teacher's token, and the times of attempts.
// To accept a deliberate change: ATTNMARK_UPDATE_GOLDEN=1 ctest -R golden,
// then read the diff of tests/golden/ before committing it.
#include <nlohmann/json.hpp>

#include <regex>

#include "support/serve_support.h"

namespace fs = std::filesystem;

namespace {

// A page with what changes from run to run replaced by fixed words.
std::string steady(std::string page, const std::string& teacher_token) {
  page = std::regex_replace(page, std::regex("name=\"csrf\" value=\"[0-9a-f]{64}\""), "name=\"csrf\" value=\"CSRF\"");
  page = std::regex_replace(page, std::regex("\\d{4}-\\d\\d-\\d\\d[ T]\\d\\d:\\d\\d(:\\d\\d)?(Z| UTC)?"), "TIME");
  if (!teacher_token.empty())
    for (std::size_t at = page.find(teacher_token); at != std::string::npos; at = page.find(teacher_token, at))
      page.replace(at, teacher_token.size(), "TOKEN");
  return page;
}

struct Student {
  httplib::Client client;
  std::string cookie;
  explicit Student(const ServeProcess& server) : client(server.client()) {}
  httplib::Headers headers() const { return cookie.empty() ? httplib::Headers{} : httplib::Headers{{"Cookie", cookie}}; }
  void keep(const httplib::Result& r) {
    const std::string set = r ? r->get_header_value("Set-Cookie") : std::string();
    if (set.starts_with("attnmark_session=")) cookie = set.substr(0, set.find(';'));
  }
  std::string get(const std::string& path) {
    auto r = client.Get(path.c_str(), headers());
    REQUIRE(r);
    keep(r);
    return r->body;
  }
  void sign_in(const std::string& student, const std::string& code) {
    const std::string page = get("/");
    const std::string marker = "name=\"csrf\" value=\"";
    const std::string csrf = page.substr(page.find(marker) + marker.size(), 64);
    auto r = client.Post("/signin", headers(), httplib::Params{{"csrf", csrf}, {"student", student}, {"code", code}});
    REQUIRE(r);
    REQUIRE(r->status == 303);
    keep(r);
  }
};

}  // namespace

TEST_CASE("the served class's pages and mark --db's reports match the golden files", "[golden][serve]") {
  const fs::path dir = scratch() / "golden-served";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "class.sqlite").string();
  const std::string args = "rubrics/class-demo.yaml --seed 987654321 --roster '" + write_roster(dir, 3) +
                           "' --db '" + db + "'";
  {
    ServeProcess server(args, dir);
    REQUIRE(server.running());
    Student anonymous(server);
    check_golden("served/signin.html", steady(anonymous.get("/"), server.token()));

    // s001 checks once with the lesson's mistake in q1's weights and a slip in q2.
    const std::string answers =
        R"({"q1":{"scores":["-3.0","1.5","masked"],"weights":["1","0","0"],"output":["2","3"]},)"
        R"("q2":{"scores":[[1,2,3],[4,5,6],[7,8,9]],"most_attended":["is","cat","the"]}})";
    const std::string body = "{\"student\":\"s001\",\"code\":" + nlohmann::json(code_of(db, "s001")).dump() +
                             ",\"answers\":" + answers + "}";
    auto api = server.client().Post("/api/check", body, "application/json");
    REQUIRE(api);
    CHECK(api->status == 200);
    check_golden("served/api-check-s001.json", steady(api->body, server.token()));

    Student s001(server);
    s001.sign_in("s001", code_of(db, "s001"));
    check_golden("served/page-s001.html", steady(s001.get("/"), server.token()));
    check_golden("served/attempt-s001-1.html", steady(s001.get("/attempt?n=1"), server.token()));
    Student s002(server);
    s002.sign_in("s002", code_of(db, "s002"));
    check_golden("served/page-s002.html", steady(s002.get("/"), server.token()));

    auto teacher = server.client().Get(("/teacher?token=" + server.token()).c_str());
    REQUIRE(teacher);
    check_golden("served/teacher.html", steady(teacher->body, server.token()));
  }
  const fs::path out = dir / "reports";
  const Run r = run_cli("mark --db '" + db + "' --out '" + out.string() + "'");
  INFO(r.err);
  check_golden("served/mark-db.stdout", r.out);
  check_golden("served/mark-db.status", std::to_string(r.status) + "\n");
  check_folder_golden("served/mark-db", out, [](std::string text) { return steady(std::move(text), ""); });
}
