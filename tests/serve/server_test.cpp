// attnmark serve over loopback HTTP: the binary runs as its own process
// (support/serve_support.h) and cpp-httplib's client talks to it, as a
// student's browser or notebook would.
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "attnmark/lesson/self_test.h"
#include "base/crypto.h"
#include "serve/server.h"
#include "serve/served_class.h"
#include "writers/served_pages.h"
#include "support/serve_support.h"

namespace fs = std::filesystem;
using attnmark::read_file;

namespace {

// The key's numbers for `student` that a page could only show by giving the
// answer away: every reference cell with a decimal point and 4 or more characters.
std::vector<std::string> reference_numbers(const std::string& student) {
  const attnmark::Rubric rubric = shipped("lesson");
  const attnmark::Variant v = attnmark::make_variant(rubric, std::stoull(seed), student);
  std::vector<std::string> out;
  for (const auto& [q, parts] : attnmark::key_answers(v).answers)
    for (const auto& [p, answer] : parts)
      for (const auto& row : answer.rows)
        for (const std::string& cell : row)
          if (cell.find('.') != std::string::npos && cell.size() >= 4) out.push_back(cell);
  return out;
}

std::string meta_value(const fs::path& db, const std::string& key) {
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(handle, "SELECT value FROM meta WHERE key = ?", -1, &stmt, nullptr);
  sqlite3_bind_text(stmt, 1, key.c_str(), -1, SQLITE_TRANSIENT);
  std::string value;
  if (sqlite3_step(stmt) == SQLITE_ROW) value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
  sqlite3_close(handle);
  return value;
}

// A signed-in browser: its cookie jar is the one session cookie.
struct Browser {
  httplib::Client client;
  std::string cookie;
  explicit Browser(const ServeProcess& server) : client(server.client()) {}

  httplib::Headers headers() const {
    return cookie.empty() ? httplib::Headers{} : httplib::Headers{{"Cookie", cookie}};
  }
  std::string session, known;  // the attnmark_session and attnmark_known cookies ("name=value")
  void keep_cookie(const httplib::Result& r) {
    if (!r) return;
    bool kept = false;
    for (auto [it, end] = r->headers.equal_range("Set-Cookie"); it != end; ++it) {
      const std::string pair = it->second.substr(0, it->second.find(';'));
      if (pair.starts_with("attnmark_session=")) session = pair, kept = true;
      if (pair.starts_with("attnmark_known=")) known = pair, kept = true;
    }
    if (kept) cookie = session + (known.empty() || session.empty() ? "" : "; ") + known;
  }
  httplib::Result get(const std::string& path) {
    auto r = client.Get(path.c_str(), headers());
    keep_cookie(r);
    return r;
  }
  httplib::Result post(const std::string& path, const httplib::Params& params) {
    auto r = client.Post(path.c_str(), headers(), params);
    keep_cookie(r);
    return r;
  }
  // The CSRF token of the last page's forms.
  static std::string csrf(const std::string& page) {
    const std::string marker = "name=\"csrf\" value=\"";
    const std::size_t at = page.find(marker);
    return at == std::string::npos ? std::string() : page.substr(at + marker.size(), 64);
  }
  // Signs in; returns the status of the sign-in.
  int sign_in(const std::string& student, const std::string& code) {
    const auto page = get("/");
    REQUIRE(page);
    const auto r = post("/signin", {{"csrf", csrf(page->body)}, {"student", student}, {"code", code}});
    REQUIRE(r);
    return r->status;
  }
};

}  // namespace

TEST_CASE("serve: POST /api/check answers with the feedback mark writes and stores the attempt", "[serve]") {
  const fs::path dir = class_dir("api");
  const std::string db = (dir / "class.sqlite").string();
  ServeProcess server(serve_args(dir, write_roster(dir, 3)), dir);
  REQUIRE(server.running());
  CHECK(server.out().find("  students: http://127.0.0.1:") != std::string::npos);
  const std::string code = code_of(db, "s001");
  REQUIRE(code.size() == 11);
  auto client = server.client();
  const auto r = client.Post("/api/check", check_body("s001", code, hard_attention), "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type") == "application/json");
  CHECK(r->get_header_value("X-Attnmark-Attempt") == "1");
  const nlohmann::json feedback = nlohmann::json::parse(r->body);
  CHECK(feedback["student"] == "s001");
  CHECK(feedback["questions"][0]["parts"]["weights"]["diagnoses"] == nlohmann::json::array({"hard-attention"}));
  CHECK(feedback["score"] == 1);

  // mark --db writes the same bytes as the student was answered with.
  const Run m = run_cli("mark --db '" + db + "' --out '" + (dir / "out").string() + "'");
  CHECK(m.status == 1);  // two students have no attempt
  CHECK(read_file((dir / "out/feedback/s001.json").string(), 1 << 20) == r->body);
  const auto rows = parse_csv(read_file((dir / "out/gradebook.csv").string(), 1 << 20));
  REQUIRE(rows.size() == 4);
  CHECK(rows[1][0] == "s001");
  CHECK(rows[1][3] == "graded");
  CHECK(rows[1][4] == "1");
  CHECK(rows[2][3] == "missing");

  // mark of the same answers as a file says the same, but for the source.
  attnmark::write_file((dir / "s001.json").string(),
                       "{\"student\":\"s001\",\"answers\":" + std::string(hard_attention) + "}");
  const Run f = run_cli("mark rubrics/lesson.yaml '" + (dir / "s001.json").string() + "' --seed " + seed + " --out '" +
                        (dir / "file-out").string() + "'");
  nlohmann::json from_file = nlohmann::json::parse(read_file((dir / "file-out/feedback/s001.json").string(), 1 << 20));
  from_file["source"] = "attnmark serve";
  CHECK(from_file == feedback);
  CHECK(server.stop(SIGINT) == 0);  // Ctrl-C: a clean stop
  CHECK(server.err() == "attnmark serve: stopped; every attempt checked is in " + db + "\n");
}

TEST_CASE("serve: a wrong code is 401, a malformed body 400 with its message, a body over 64 KiB 413", "[serve]") {
  const fs::path dir = class_dir("refusals");
  const std::string db = (dir / "class.sqlite").string();
  ServeProcess server(serve_args(dir, write_roster(dir, 2)), dir);
  REQUIRE(server.running());
  const std::string code = code_of(db, "s001");
  auto client = server.client();
  const auto post = [&](const std::string& body) { return client.Post("/api/check", body, "application/json"); };
  auto r = post(check_body("s001", "22222-22222", hard_attention));
  REQUIRE(r);
  CHECK(r->status == 401);
  CHECK(r->body == "{\"error\":\"wrong student id or access code\"}\n");
  r = post(check_body("s002", code, hard_attention));  // s001's code is not s002's
  CHECK(r->status == 401);
  r = post(check_body("nobody", code, hard_attention));
  CHECK(r->status == 401);
  // The code as read aloud: capitals and spaces are fine.
  std::string spoken = code;
  for (char& c : spoken) c = c == '-' ? ' ' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(post(check_body("s001", spoken, hard_attention))->status == 200);

  const std::vector<std::pair<std::string, std::string>> malformed = {
      {"not json", "{\"error\":\"expected a JSON object: {\\\"student\\\": ID, \\\"code\\\": CODE, \\\"answers\\\": {...}}\"}\n"},
      {"[1,2]", "{\"error\":\"expected a JSON object: {\\\"student\\\": ID, \\\"code\\\": CODE, \\\"answers\\\": {...}}\"}\n"},
      {"{\"code\":\"x\",\"answers\":{}}", "{\"error\":\"\\\"student\\\": expected your student id as a string\"}\n"},
      {"{\"student\":\"s001\",\"answers\":{}}", "{\"error\":\"\\\"code\\\": expected your access code as a string\"}\n"},
      {check_body("s001", code, "[]"),
       "{\"error\":\"\\\"answers\\\": expected an object of questions, as in your answer file\"}\n"},
      {"{\"student\":\"s\xE9\"}", "{\"error\":\"not UTF-8 text (byte 0xE9 at line 1); save the request body as UTF-8\"}\n"},
  };
  for (const auto& [body, message] : malformed) {
    INFO(body);
    r = post(body);
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(r->body == message);
  }
  std::string big = check_body("s001", code, "{\"q1\":{\"scores\":[\"" + std::string(70 * 1024, '1') + "\"]}}");
  r = post(big);
  REQUIRE(r);
  CHECK(r->status == 413);
  // Nothing refused was stored: only the one right check.
  const Run m = run_cli("mark --db '" + db + "' --out '" + (dir / "out").string() + "'");
  CHECK(m.err.find("attnmark: 1 attempts of 2 students") == 0);
}

TEST_CASE("serve: every body is limited to 64 KiB whatever its Content-Type, form-encoded and chunked included", "[serve]") {
  const fs::path dir = class_dir("bodies");
  const std::string db = (dir / "class.sqlite").string();
  ServeProcess server(serve_args(dir, write_roster(dir, 1)), dir);
  REQUIRE(server.running());
  const std::string code = code_of(db, "s001");
  auto client = server.client();
  // A check padded with JSON's white space to `size` bytes.
  int checks = 0;
  const auto padded = [&](std::size_t size) {
    std::string body = check_body("s001", code, hard_attention_with(++checks));
    REQUIRE(body.size() < size);
    return body + std::string(size - body.size(), ' ');
  };
  const std::string too_large = "{\"error\":\"the request is larger than 64 KiB\"}\n";
  // curl --data-binary sends application/x-www-form-urlencoded.
  for (const char* type : {"application/x-www-form-urlencoded", "application/json"}) {
    INFO(type);
    for (const std::size_t size : {std::size_t{20 * 1024}, std::size_t{64 * 1024}}) {
      INFO(size);
      const auto r = client.Post("/api/check", padded(size), type);
      REQUIRE(r);
      CHECK(r->status == 200);
      CHECK(r->get_header_value("X-Attnmark-Stored") == "yes");
    }
    const auto r = client.Post("/api/check", padded(64 * 1024 + 1), type);
    REQUIRE(r);
    CHECK(r->status == 413);
    CHECK(r->body == too_large);
    // Sent in chunks, with no Content-Length: the same limit.
    for (const std::size_t size : {std::size_t{20 * 1024}, std::size_t{64 * 1024 + 1}}) {
      INFO(size);
      const std::string body = padded(size);
      const auto chunked = client.Post(
          "/api/check",
          [&](std::size_t offset, httplib::DataSink& sink) {
            if (offset < body.size()) sink.write(body.data() + offset, std::min<std::size_t>(4096, body.size() - offset));
            else sink.done();
            return true;
          },
          type);
      REQUIRE(chunked);
      CHECK(chunked->status == (size > 64 * 1024 ? 413 : 200));
    }
  }
  // The student's form (multipart, as browsers send it) and a form-encoded
  // one: 20 KiB is read, over 64 KiB refused.
  Browser browser(server);
  REQUIRE(browser.sign_in("s001", code) == 303);
  const std::string csrf = Browser::csrf(browser.get("/")->body);
  const std::string pad(20 * 1024, 'x');
  auto r = browser.client.Post("/check", browser.headers(),
                               httplib::MultipartFormDataItems{{"csrf", csrf, "", ""}, {"q1.weights.1.1", "1", "", ""},
                                                               {"pad", pad, "", ""}});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body.find("<span class=\"bad\" title=\"wrong\" aria-hidden=\"true\">✗</span>") != std::string::npos);
  r = browser.post("/check", {{"csrf", csrf}, {"q1.weights.1.1", "2"}, {"pad", pad}});
  CHECK(r->status == 200);
  r = browser.client.Post("/check", browser.headers(),
                          httplib::MultipartFormDataItems{{"csrf", csrf, "", ""}, {"pad", std::string(65 * 1024, 'x'), "", ""}});
  CHECK(r->status == 413);
  r = browser.post("/check", {{"csrf", csrf}, {"pad", std::string(65 * 1024, 'x')}});
  CHECK(r->status == 413);
  // A path that takes no body: 404, whatever the body.
  r = client.Post("/nowhere", std::string(20 * 1024, 'x'), "application/x-www-form-urlencoded");
  CHECK(r->status == 404);
  CHECK(r->body == "{\"error\":\"not found\"}\n");
  // Answered and kept: 4 checks of 20 and 64 KiB, 2 chunked, and 2 forms.
  const Run m = run_cli("mark --db '" + db + "' --out '" + (dir / "out").string() + "'");
  CHECK(m.err.find("attnmark: 8 attempts of 1 students") == 0);
}

TEST_CASE("serve: a right code always signs in whatever others failed on its id, and wrong codes are answered slowly",
          "[serve]") {
  const fs::path dir = class_dir("rate");
  const std::string db = (dir / "class.sqlite").string();
  ServeProcess server(serve_args(dir, write_roster(dir, 3)), dir);
  REQUIRE(server.running());
  auto client = server.client();
  // The status of a check, and how long its answer took (ms).
  const auto post = [&](const std::string& student, const std::string& code) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = client.Post("/api/check", check_body(student, code, hard_attention), "application/json");
    REQUIRE(r);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    return std::pair<int, long>{r->status, static_cast<long>(ms)};
  };
  // 5 wrong codes for one id from one address are answered at once; past
  // them each is held, 250 ms and doubling.
  for (int i = 0; i < 5; ++i) CHECK(post("s001", "wrong").first == 401);
  const auto sixth = post("s001", "wrong");
  CHECK(sixth.first == 401);
  CHECK(sixth.second >= 240);
  const auto seventh = post("s001", "wrong");
  CHECK(seventh.first == 401);
  CHECK(seventh.second >= 490);
  // The right code is never refused for them: it signs in (today's 10-failure lock is gone).
  CHECK(post("s001", code_of(db, "s001")).first == 200);
  CHECK(post("s002", code_of(db, "s002")).first == 200);  // another student is not held up
  // The teacher sees the slowed id and address, and clears the id.
  Browser teacher(server);
  teacher.client.set_follow_location(false);
  const auto signed_in = teacher.client.Get(("/teacher?token=" + server.token()).c_str());
  REQUIRE(signed_in);
  const std::string set = signed_in->get_header_value("Set-Cookie");
  teacher.cookie = set.substr(0, set.find(';'));
  const auto page = teacher.get("/teacher");
  REQUIRE(page);
  CHECK(page->body.find("s001") != std::string::npos);
  const std::string csrf = Browser::csrf(page->body);
  REQUIRE(csrf.size() == 64);
  const auto cleared = teacher.post("/teacher/clear", {{"csrf", csrf}, {"kind", "id"}, {"key", "s001"}});
  REQUIRE(cleared);
  CHECK(cleared->status == 200);
  const auto unknown = teacher.post("/teacher/clear", {{"csrf", csrf}, {"kind", "x"}, {"key", "s001"}});
  CHECK(unknown->status == 400);
  const auto forged = teacher.post("/teacher/clear", {{"csrf", std::string(64, '0')}, {"kind", "id"}, {"key", "s001"}});
  CHECK(forged->status == 403);
  // A student's page cannot clear anything.
  CHECK(client.Post("/teacher/clear", "csrf=" + csrf + "&kind=id&key=s001", "application/x-www-form-urlencoded")->status == 401);
}

TEST_CASE("serve: a class behind one address signs in with right codes while a classmate guesses from it", "[serve]") {
  // A school's NAT or a proxy: every student's requests come from one address.
  const fs::path dir = class_dir("one-address");
  const std::string db = (dir / "class.sqlite").string();
  ServeProcess server(serve_args(dir, write_roster(dir, 13)), dir);
  REQUIRE(server.running());
  auto client = server.client();
  const auto post = [&](const std::string& student, const std::string& code) {
    const auto r = client.Post("/api/check", check_body(student, code, hard_attention), "application/json");
    REQUIRE(r);
    return r->status;
  };
  const auto id = [](int i) { return "s0" + std::string(i < 10 ? "0" : "") + std::to_string(i); };
  // A student signed in on this browser before a classmate starts guessing.
  Browser known(server);
  CHECK(known.sign_in("s012", code_of(db, "s012")) == 303);
  // 4 wrong codes each for 5 students: 20 failures from the address.
  for (int i = 1; i <= 5; ++i)
    for (int k = 0; k < 4; ++k) CHECK(post(id(i), "wrong-" + std::to_string(k)) == 401);
  // Others with their right codes: checked, from the API and the form.
  CHECK(post("s011", code_of(db, "s011")) == 200);
  Browser browser(server);
  CHECK(browser.sign_in("s013", code_of(db, "s013")) == 303);
  CHECK(browser.get("/")->body.find("Signed in as <b>s013</b>") != std::string::npos);
  // One of the five, with the right code: checked too.
  CHECK(post("s001", code_of(db, "s001")) == 200);
  // The known browser signs in again (its attnmark_known cookie goes with it).
  CHECK(known.cookie.find("attnmark_known=") != std::string::npos);
  CHECK(known.sign_in("s012", code_of(db, "s012")) == 303);
  // A wrong code from the address is now answered slowly, and still 401.
  const auto start = std::chrono::steady_clock::now();
  CHECK(post("s006", "wrong") == 401);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(240));
}

TEST_CASE("serve: no student response holds a reference answer, the seed, the secret or the teacher's token", "[serve]") {
  const fs::path dir = class_dir("leaks");
  const std::string db = (dir / "class.sqlite").string();
  ServeProcess server(serve_args(dir, write_roster(dir, 2)), dir);
  REQUIRE(server.running());
  const std::string secret = meta_value(db, "secret");
  REQUIRE(secret.size() == 64);
  std::vector<std::string> responses;
  auto client = server.client();
  const std::string code = code_of(db, "s001");
  auto r = client.Post("/api/check", check_body("s001", code, hard_attention), "application/json");
  responses.push_back(r->body);
  Browser browser(server);
  responses.push_back(browser.get("/")->body);
  CHECK(browser.sign_in("s001", code) == 303);
  const auto page = browser.get("/");
  responses.push_back(page->body);
  r = browser.post("/check", {{"csrf", Browser::csrf(page->body)}, {"q1.weights.1.1", "1"}, {"q1.weights.1.2", "0"}});
  CHECK(r->status == 200);
  responses.push_back(r->body);
  responses.push_back(browser.get("/attempt?n=1")->body);
  const std::vector<std::string> key = reference_numbers("s001");
  const std::vector<std::string> other = reference_numbers("s002");
  REQUIRE(key.size() > 10);
  for (const std::string& body : responses) {
    for (const std::string& number : key) {
      INFO(number);
      CHECK(body.find(number) == std::string::npos);
    }
    CHECK(body.find(seed) == std::string::npos);
    CHECK(body.find(secret) == std::string::npos);
    CHECK(body.find(server.token()) == std::string::npos);
    CHECK(body.find("s002") == std::string::npos);
    for (const std::string& number : other) CHECK(body.find(number) == std::string::npos);
  }
}

TEST_CASE("serve: the student page signs in, refuses forms without their CSRF token, and keeps answers", "[serve]") {
  const fs::path dir = class_dir("page");
  const std::string db = (dir / "class.sqlite").string();
  ServeProcess server(serve_args(dir, write_roster(dir, 2)), dir);
  REQUIRE(server.running());
  Browser browser(server);
  const auto first = browser.get("/");
  REQUIRE(first);
  CHECK(first->status == 200);
  CHECK(first->body.find("<form method=\"post\" action=\"/signin\">") != std::string::npos);
  const std::string set_cookie = first->get_header_value("Set-Cookie");
  CHECK(set_cookie.find("; Path=/; HttpOnly; SameSite=Strict") != std::string::npos);
  CHECK(set_cookie.size() == std::string("attnmark_session=").size() + 64 + std::string("; Path=/; HttpOnly; SameSite=Strict").size());

  // Without the CSRF token, or with another, the sign-in is refused.
  auto r = browser.post("/signin", {{"student", "s001"}, {"code", code_of(db, "s001")}});
  CHECK(r->status == 403);
  r = browser.post("/signin", {{"csrf", std::string(64, 'a')}, {"student", "s001"}, {"code", code_of(db, "s001")}});
  CHECK(r->status == 403);
  // A wrong code says so, and keeps the page.
  const auto again = browser.get("/");
  r = browser.post("/signin", {{"csrf", Browser::csrf(again->body)}, {"student", "s001"}, {"code", "nope"}});
  CHECK(r->status == 401);
  CHECK(r->body.find("wrong student id or access code") != std::string::npos);

  const std::string before = browser.cookie;
  CHECK(browser.sign_in("s001", code_of(db, "s001")) == 303);
  CHECK(browser.cookie != before);  // a new session id at sign-in
  auto page = browser.get("/");
  CHECK(page->body.find("Signed in as <b>s001</b> (Student 1)") != std::string::npos);
  // Every form carries the session's CSRF token.
  CHECK(count(page->body, "<form ") == 3);  // sign out, settings and check
  CHECK(count(page->body, "<input type=\"hidden\" name=\"csrf\" value=\"" + Browser::csrf(page->body) + "\">") == 3);
  // One script, the one the Content-Security-Policy allows by its hash.
  CHECK(count(page->body, "<script") == 1);
  CHECK(page->body.find("<script>" + attnmark::served_script() + "</script>") != std::string::npos);
  CHECK(page->get_header_value("Content-Security-Policy").find("script-src 'sha256-" +
                                                                  attnmark::base64(attnmark::sha256(attnmark::served_script())) + "'") !=
        std::string::npos);
  CHECK(count(page->body, "<input type=\"text\" class=\"cell\"") == 39);  // the lesson's answer cells
  CHECK(page->body.find("None yet.") != std::string::npos);

  // Check without the token: refused and not stored.
  r = browser.post("/check", {{"q1.weights.1.1", "1"}});
  CHECK(r->status == 403);
  r = browser.post("/check", {{"csrf", Browser::csrf(page->body)},
                              {"q1.scores.1.1", "2"}, {"q1.scores.1.2", "0"}, {"q1.scores.1.3", "1"},
                              {"q1.weights.1.1", "1"}, {"q1.weights.1.2", "0"}, {"q1.weights.1.3", "0"}});
  REQUIRE(r->status == 200);
  CHECK(r->body.find("<b>Mistake:</b> Attention takes a share of every token") != std::string::npos);
  // The box's spoken name, in the lesson's words, carries its verdict.
  const std::string box = "name=\"q1.weights.1.1\" aria-label=\"Question 1, weight, query ";
  const std::size_t at = r->body.find(box);
  REQUIRE(at != std::string::npos);
  CHECK(r->body.substr(at, r->body.find("</span></span>", at) - at).ends_with(
      ", wrong\" autocomplete=\"off\" enterkeyhint=\"next\" aria-invalid=\"true\" value=\"1\">"
      "<span class=\"mark\" id=\"mark-q1.weights.1.1\"><span class=\"bad\" title=\"wrong\" aria-hidden=\"true\">✗"));
  // The summary comes first, and takes the focus.
  CHECK(r->body.find("<section class=\"summary notice\" id=\"summary\" role=\"status\"") < r->body.find("Signed in as"));
  // The next visit shows the answers and the attempt.
  page = browser.get("/");
  CHECK(page->body.find("aria-invalid=\"true\" value=\"1\"><span class=\"mark\" id=\"mark-q1.weights.1.1\">") !=
        std::string::npos);
  CHECK(page->body.find("<a href=\"/attempt?n=1\">1</a>") != std::string::npos);
  CHECK(browser.get("/attempt?n=1")->status == 200);
  CHECK(browser.get("/attempt?n=99")->status == 404);

  // The theme is chosen and remembered.
  r = browser.post("/settings", {{"csrf", Browser::csrf(page->body)}, {"theme", "cream"}, {"text_size", "large"}});
  CHECK(r->status == 303);
  CHECK(r->get_header_value("Set-Cookie") ==
        "attnmark_style=cream.large; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict");
  CHECK(browser.get("/")->body.find("<body class=\"theme-cream text-large\">") != std::string::npos);
  // A new visit (a new session) in the same browser keeps the choice.
  auto visit = browser.client.Get("/", {{"Cookie", "attnmark_style=cream.large"}});
  CHECK(visit->body.find("<body class=\"theme-cream text-large\">") != std::string::npos);
  visit = browser.client.Get("/", {{"Cookie", "attnmark_style=%3Cx.y"}});
  CHECK(visit->body.find("<body class=\"theme-default text-normal\">") != std::string::npos);
  r = browser.post("/signout", {{"csrf", Browser::csrf(page->body)}});
  CHECK(r->status == 303);
}

TEST_CASE("serve: hostile ids and answers are escaped on every page", "[serve]") {
  const fs::path dir = class_dir("hostile");
  const std::string db = (dir / "class.sqlite").string();
  const std::string evil = "<script>alert(1)</script>";
  ServeProcess server(serve_args(dir, write_roster(dir, 1, "\"" + evil + "\",\"<b>Mallory</b>\"\n")), dir);
  REQUIRE(server.running());
  Browser browser(server);
  CHECK(browser.sign_in(evil, code_of(db, evil)) == 303);
  auto page = browser.get("/");
  CHECK(page->body.find(evil) == std::string::npos);
  CHECK(page->body.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(page->body.find("<b>Mallory</b>") == std::string::npos);
  const std::string cell = "\"><img src=x onerror=alert(2)>";
  auto r = browser.post("/check", {{"csrf", Browser::csrf(page->body)}, {"q1.weights.1.1", cell}, {"q1.weights.1.2", "\xff\xfe"}});
  REQUIRE(r);
  CHECK(r->body.find("<img src=x") == std::string::npos);
  CHECK(r->body.find("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;") != std::string::npos);
  auto client = server.client();
  const httplib::Headers teacher{{"Authorization", "Bearer " + server.token()}};
  for (const char* path : {"/teacher", "/teacher/summary.html", "/teacher/student?id=%3Cscript%3Ealert(1)%3C%2Fscript%3E"}) {
    INFO(path);
    const auto t = client.Get(path, teacher);
    REQUIRE(t);
    CHECK(t->status == 200);
    CHECK(t->body.find(evil) == std::string::npos);
    CHECK(t->body.find("<img src=x") == std::string::npos);
  }
}

TEST_CASE("serve: the start prints the class's rules, and --reveal-after needs a rubric that reveals", "[serve]") {
  attnmark::ServeSettings settings;
  const std::string caps =
      "; at most 30 checks a minute per student; up to 2 MiB of attempts stored per student and 1 GiB in all "
      "(later checks are answered, not stored)";
  CHECK(attnmark::class_rules(settings, true) ==
        "any number of checks; a check with every box blank or unreadable, or the same as the last, is answered, not stored; the gradebook counts each student's best attempt; right answers shown with each check" + caps);
  settings.attempts = 1;
  settings.close_at = 1798131600;      // 2026-12-24T17:00Z
  settings.reveal_after = 1799107200;  // 2027-01-05
  settings.score = attnmark::ScoreRule::last;
  CHECK(attnmark::class_rules(settings, true) ==
        "1 stored check per student; a check with every box blank or unreadable, or the same as the last, is answered, not stored, and uses no attempt; closes 2026-12-24T17:00:00Z (later checks are answered, not stored); the gradebook "
        "counts each student's last attempt; right answers shown from 2027-01-05T00:00:00Z" + caps);
  settings.attempts = 3;
  CHECK(attnmark::class_rules(settings, false).starts_with("3 stored checks per student; "));
  CHECK(attnmark::class_rules(settings, false).ends_with("; right answers never shown" + caps));

  const fs::path dir = class_dir("rules");
  const Run r = run_cli("serve " + serve_args(dir, write_roster(dir, 1), "--port 0 --reveal-after 2027-01-05"));
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: --reveal-after: rubric 'lesson' never shows right answers (it does not say "
                 "reveal_answers: true); leave --reveal-after out\n");
}

TEST_CASE("serve: right answers are shown only when the rubric reveals them and after --reveal-after", "[serve]") {
  const fs::path dir = class_dir("reveal");
  std::string rubric = read_file(std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/lesson.yaml", 1 << 20);
  rubric = "reveal_answers: true\n" + rubric;
  attnmark::write_file((dir / "reveal.yaml").string(), rubric);
  const std::string roster = write_roster(dir, 1);
  const std::vector<std::string> key = reference_numbers("s001");
  for (const auto& [more, shown] : std::vector<std::pair<std::string, bool>>{
           {"--reveal-after 2999-01-01", false}, {"--reveal-after 2000-01-01T08:00Z", true}, {"", true}}) {
    INFO(more);
    fs::remove(dir / "class.sqlite");
    ServeProcess server(serve_args(dir, roster, more, "'" + (dir / "reveal.yaml").string() + "'"), dir);
    REQUIRE(server.running());
    Browser browser(server);
    REQUIRE(browser.sign_in("s001", code_of((dir / "class.sqlite").string(), "s001")) == 303);
    const auto page = browser.get("/");
    const auto r = browser.post("/check", {{"csrf", Browser::csrf(page->body)}, {"q1.weights.1.1", "1"}});
    std::size_t found = 0;
    for (const std::string& number : key) found += r->body.find(number) != std::string::npos;
    CHECK((found > 0) == shown);
  }
}

TEST_CASE("serve: --attempts limits the attempts kept, and after --close checks are answered but not kept", "[serve]") {
  const fs::path dir = class_dir("limits");
  const std::string db = (dir / "class.sqlite").string();
  const std::string roster = write_roster(dir, 1);
  {
    ServeProcess server(serve_args(dir, roster, "--attempts 2"), dir);
    REQUIRE(server.running());
    auto client = server.client();
    const std::string code = code_of(db, "s001");
    const auto post = [&](const std::string& answers) {
      return client.Post("/api/check", check_body("s001", code, answers), "application/json");
    };
    auto r = post(hard_attention_with(1));
    CHECK(r->status == 200);
    CHECK(r->get_header_value("X-Attnmark-Stored") == "yes");
    // Nothing readable, or the same as the last: marked and answered, not
    // stored, and no attempt used.
    for (const char* nothing : {R"({})", R"({"q1":{"scores":["", " ", ""]}})", R"({"q1":{"scores":["two", "?", "x"]}})"}) {
      INFO(nothing);
      r = post(nothing);
      CHECK(r->status == 200);
      CHECK(r->get_header_value("X-Attnmark-Stored") == "no (every box is blank or unreadable)");
      CHECK(r->get_header_value("X-Attnmark-Attempt").empty());
    }
    r = post(hard_attention_with(1));
    CHECK(r->status == 200);
    CHECK(r->get_header_value("X-Attnmark-Stored") == "no (the same answers as your last check)");
    CHECK(nlohmann::json::parse(r->body)["status"] == "graded");
    // The form says so, in the page's notice.
    Browser browser(server);
    REQUIRE(browser.sign_in("s001", code) == 303);
    const std::string csrf = Browser::csrf(browser.get("/")->body);
    r = browser.post("/check", {{"csrf", csrf}, {"q1.scores.1.1", ""}, {"q1.weights.1.1", "?"}});
    CHECK(r->status == 200);
    CHECK(r->body.find("<p>Checked, not kept: every box is blank or unreadable; this check used no attempt.</p>") !=
          std::string::npos);
    r = post(hard_attention_with(2));
    CHECK(r->get_header_value("X-Attnmark-Stored") == "yes");
    r = post(hard_attention_with(3));
    CHECK(r->status == 403);
    CHECK(r->body == "{\"error\":\"you have used all 2 attempts\"}\n");
  }
  {
    // Started again from the database alone, closed in the past.
    ServeProcess server("--db '" + db + "' --close 2001-02-03", dir);
    REQUIRE(server.running());
    auto client = server.client();
    const auto r = client.Post("/api/check", check_body("s001", code_of(db, "s001"), hard_attention), "application/json");
    CHECK(r->status == 200);
    CHECK(r->get_header_value("X-Attnmark-Stored") == "no (the class is closed)");
  }
  const Run m = run_cli("mark --db '" + db + "' --out '" + (dir / "out").string() + "'");
  CHECK(m.status == 0);
  CHECK(m.err.find("attnmark: 2 attempts of 1 students") == 0);
}

TEST_CASE("serve: the teacher's pages need the token, and gradebook.csv takes each student's best or last attempt", "[serve]") {
  const fs::path dir = class_dir("teacher");
  const std::string db = (dir / "class.sqlite").string();
  const std::string roster = write_roster(dir, 2);
  const std::string right_q1 = R"({"q1":{"scores":[2,0,1]}})";
  for (const std::string rule : {"best", "last"}) {
    INFO(rule);
    fs::remove(dir / "class.sqlite");
    ServeProcess server(serve_args(dir, roster, "--score " + rule), dir);
    REQUIRE(server.running());
    auto client = server.client();
    const std::string code = code_of(db, "s001");
    CHECK(client.Post("/api/check", check_body("s001", code, right_q1), "application/json")->status == 200);
    CHECK(client.Post("/api/check", check_body("s001", code, R"({"q1":{"scores":[0,0,0]}})"), "application/json")->status == 200);
    for (const char* path : {"/teacher", "/teacher/gradebook.csv", "/teacher/summary.html", "/teacher/student?id=s001",
                             "/teacher?token=0000"}) {
      INFO(path);
      CHECK(client.Get(path)->status == 401);
      CHECK(client.Get(path, {{"Authorization", "Bearer " + std::string(48, '0')}})->status == 401);
    }
    // The printed address signs the teacher in with a cookie.
    const auto signin = client.Get(("/teacher?token=" + server.token()).c_str());
    CHECK(signin->status == 303);
    const std::string cookie = signin->get_header_value("Set-Cookie");
    CHECK(cookie.find("; Path=/teacher; HttpOnly; SameSite=Strict") != std::string::npos);
    const auto page = client.Get("/teacher", {{"Cookie", cookie.substr(0, cookie.find(';'))}});
    CHECK(page->status == 200);
    CHECK(page->body.find("2 attempts by 1 of 2 students") != std::string::npos);
    const auto csv = client.Get("/teacher/gradebook.csv", {{"Authorization", "Bearer " + server.token()}});
    REQUIRE(csv->status == 200);
    const auto rows = parse_csv(csv->body);
    REQUIRE(rows.size() == 3);
    CHECK(rows[1][0] == "s001");
    CHECK(rows[1][4] == (rule == "best" ? "1" : "0.33"));  // one of the last scores, 0, is right
    CHECK(rows[2][3] == "missing");
    const auto canvas = client.Get("/teacher/canvas.csv", {{"Authorization", "Bearer " + server.token()}});
    REQUIRE(canvas->status == 200);
    // Header, points possible, s001: the student with no attempt has no row,
    // so Canvas keeps the grade they have.
    CHECK(parse_csv(canvas->body).size() == 3);
    CHECK(client.Get("/teacher/moodle.csv", {{"Authorization", "Bearer " + server.token()}})->status == 200);
    CHECK(client.Get("/teacher/moodle.csv")->status == 401);
  }
  // The hash is stored, never the token.
  CHECK(meta_value(db, "teacher_token_sha256").size() == 64);
}

TEST_CASE("serve: a second start keeps the class, and another rubric or seed is refused", "[serve]") {
  const fs::path dir = class_dir("restart");
  const std::string db = (dir / "class.sqlite").string();
  const std::string roster = write_roster(dir, 2);
  std::string code;
  {
    ServeProcess server(serve_args(dir, roster), dir);
    REQUIRE(server.running());
    code = code_of(db, "s001");
  }
  Run r = run_cli("serve rubrics/one-token.yaml --db '" + db + "' --port 0");
  CHECK(r.status == 2);
  CHECK(r.err.find("attnmark: rubrics/one-token.yaml: is not the rubric " + db + " was started with") == 0);
  r = run_cli("serve --seed 1 --db '" + db + "' --port 0");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: --seed: " + db + " was started with seed " + seed + "; leave --seed out, or give another --db\n");
  r = run_cli("serve --db '" + (dir / "new.sqlite").string() + "' --port 0");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + (dir / "new.sqlite").string() + ": holds no class yet; give RUBRIC, --seed and --roster\n");
  r = run_cli("serve rubrics/lesson.yaml --db '" + (dir / "new2.sqlite").string() + "' --port -1 --roster '" + roster + "'");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: --port: expected a whole number from 0 to 65535; got '-1'\n");
  ServeProcess again("--db '" + db + "'", dir);
  REQUIRE(again.running());
  // A second server on the same database is refused while the first runs.
  r = run_cli("serve --db '" + db + "' --port 0");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + db + ": is in use by another attnmark serve; stop it first\n");
  CHECK(code_of(db, "s001") == code);
  CHECK(again.out().find("for 2 students from " + db + " (rubric lesson, seed " + seed + ")") != std::string::npos);
}

TEST_CASE("serve: a class database another program holds a write lock on is refused at start with the documented words", "[serve]") {
  const fs::path dir = class_dir("locked");
  const std::string db = (dir / "class.sqlite").string();
  { ServeProcess server(serve_args(dir, write_roster(dir, 1)), dir); REQUIRE(server.running()); }
  WriteLock other(db, "INSERT INTO attempts (student, at, answers, score, max_score, feedback) "
                      "VALUES ('s001', '2026-12-01T08:00:00Z', '{}', 0, 1, '{}')");
  const Run r = run_cli("serve --db '" + db + "' --port 0");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + db + ": is locked by another program (is another attnmark serve using it?); stop it first\n");
  CHECK(r.out.empty());
}

TEST_CASE("serve: a check the database cannot keep is 503 with words for the student, and why goes to the teacher", "[serve]") {
  const fs::path dir = class_dir("unsaved");
  const std::string db = (dir / "class.sqlite").string();
  ServeProcess server(serve_args(dir, write_roster(dir, 1)), dir);
  REQUIRE(server.running());
  const std::string code = code_of(db, "s001");
  Browser browser(server);
  REQUIRE(browser.sign_in("s001", code) == 303);
  const std::string csrf = Browser::csrf(browser.get("/")->body);
  const std::string sentence = "your check could not be saved just now; try again in a minute";
  const std::string why = db + ": is locked by another program (is another attnmark serve using it?); stop it first";
  {
    // Another program holds the database mid-class.
    WriteLock other(db, "INSERT INTO attempts (student, at, answers, score, max_score, feedback) "
                        "VALUES ('s001', '2026-12-01T08:00:00Z', '{}', 0, 1, '{}')");
    auto client = server.client();
    const auto r = client.Post("/api/check", check_body("s001", code, hard_attention), "application/json");
    REQUIRE(r);
    CHECK(r->status == 503);
    CHECK(r->body == "{\"error\":\"" + sentence + "\"}\n");
    CHECK(r->get_header_value("Retry-After") == "60");
    const auto page = browser.post("/check", {{"csrf", csrf}, {"q1.weights.1.1", "1"}});
    REQUIRE(page);
    CHECK(page->status == 503);
    CHECK(page->get_header_value("Content-Type") == "text/html; charset=utf-8");
    CHECK(page->body.find("<p class=\"notice\" role=\"status\">" + sentence + "</p>") != std::string::npos);
    CHECK(page->body.find("value=\"1\">") != std::string::npos);  // the answers stay in the form, to check again
    for (const std::string& body : {r->body, page->body}) {
      CHECK(body.find("locked") == std::string::npos);
      CHECK(body.find(db) == std::string::npos);
    }
  }
  // The teacher reads why, a line for each check.
  const std::string err = server.err();
  CHECK(count(err, "a check by 's001' was not saved, and its student was asked to try again: " + why + "\n") == 2);
  CHECK(err.starts_with("attnmark serve: 20"));
  // Once the lock is gone, checks are kept again: neither refused one was.
  auto client = server.client();
  const auto r = client.Post("/api/check", check_body("s001", code, hard_attention), "application/json");
  CHECK(r->status == 200);
  CHECK(r->get_header_value("X-Attnmark-Attempt") == "1");
}

TEST_CASE("serve: the start says who can reach the page, this machine only or the network", "[serve]") {
  const fs::path dir = class_dir("reach");
  const std::string db = (dir / "class.sqlite").string();
  const std::string roster = write_roster(dir, 1);
  const std::string first = "attnmark serve: How attention works in a transformer for 1 student from " + db +
                            " (rubric lesson, seed " + seed + ")\n";
  {
    ServeProcess server(serve_args(dir, roster, "--host 127.0.0.1"), dir);
    REQUIRE(server.running());
    const std::string port = std::to_string(server.port());
    CHECK(server.out() == first + "  students: http://127.0.0.1:" + port + "/\n" +
                              "  teacher:  http://127.0.0.1:" + port + "/teacher?token=" + server.token() + "\n" +
                              "  (only this machine can reach it; --host 0.0.0.0 opens it to the network)\n"
                              "  rules: any number of checks; a check with every box blank or unreadable, or the same as the last, is answered, not stored; the gradebook counts each student's best attempt; "
                              "right answers never shown; at most 30 checks a minute per student; up to 2 MiB of "
                              "attempts stored per student and 1 GiB in all (later checks are answered, not stored)\n"
                              "Press Ctrl-C to stop.\n");
  }
  ServeProcess server("--db '" + db + "' --host 0.0.0.0", dir);
  REQUIRE(server.running());
  const std::string port = std::to_string(server.port());
  CHECK(server.out() == first + "  students: http://<this machine's address>:" + port + "/\n" +
                            "  teacher:  http://127.0.0.1:" + port + "/teacher?token=" + server.token() + "\n" +
                            "  (open to the network: students use this machine's address on the class's network, as "
                            "`hostname -I` lists it; the teacher's address works on this machine)\n"
                            "  warning: plain HTTP: access codes, answers and the teacher's token travel in clear text "
                            "on the network; start with --tls-self-signed (or --tls-cert FILE --tls-key FILE) to serve HTTPS\n"
                            "  rules: any number of checks; a check with every box blank or unreadable, or the same as the last, is answered, not stored; the gradebook counts each student's best attempt; "
                            "right answers never shown; at most 30 checks a minute per student; up to 2 MiB of "
                            "attempts stored per student and 1 GiB in all (later checks are answered, not stored)\n"
                            "Press Ctrl-C to stop.\n");
  // The teacher's address works on this machine.
  auto client = server.client();
  CHECK(client.Get(("/teacher?token=" + server.token()).c_str())->status == 303);
}

TEST_CASE("serve: generate --db --url prints each student's access code beside the class page's address", "[serve]") {
  const fs::path dir = class_dir("generate");
  const std::string db = (dir / "class.sqlite").string();
  const std::string roster = write_roster(dir, 2);
  { ServeProcess server(serve_args(dir, roster), dir); REQUIRE(server.running()); }
  const std::string out = (dir / "sheets").string();
  Run r = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --roster '" + roster + "' --db '" + db +
                  "' --url http://class.example/ -o '" + out + "'");
  REQUIRE(r.status == 0);
  for (const std::string student : {"s001", "s002"}) {
    const std::string sheet = read_file(out + "/" + student + ".md", 1 << 20);
    CHECK(sheet.find("Check your answers at http://class.example/ with your access code **" + code_of(db, student) +
                     "**.\n") != std::string::npos);
  }
  r = run_cli("generate rubrics/lesson.yaml --seed 1 --student s001 --db '" + db + "' --url http://class.example/");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: --db: " + db + " serves rubric 'lesson' with seed " + seed +
                     "; these worksheets are rubric 'lesson' with seed 1\n");
  r = run_cli("generate rubrics/lesson.yaml --student s001 --url http://class.example/");
  CHECK(r.err == "attnmark: --url: give --db too, the served class whose access codes the worksheets print\n");

  // Students not on the class's roster: their codes could never sign in, so
  // nothing is written.
  const std::string other = (dir / "other").string();
  r = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --student zz --db '" + db +
              "' --url http://class.example/ -o '" + other + ".md'");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: --db: 'zz' is not on the class roster in " + db + ": its access code could never sign in\n");
  attnmark::write_file((dir / "other.csv").string(), "student\ns001\nx1\ns002\nx2\n");
  r = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --roster '" + (dir / "other.csv").string() +
              "' --db '" + db + "' --url http://class.example/ -o '" + other + "'");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: --db: 'x1' and 'x2' are not on the class roster in " + db +
                     ": their access codes could never sign in\n");
  std::string many = "student\ns001\n";
  for (int i = 1; i <= 8; ++i) many += "x" + std::to_string(i) + "\n";
  attnmark::write_file((dir / "other.csv").string(), many);
  r = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --roster '" + (dir / "other.csv").string() +
              "' --db '" + db + "' --url http://class.example/ -o '" + other + "'");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: --db: 'x1', 'x2', 'x3', 'x4', 'x5' and 3 more are not on the class roster in " + db +
                     ": their access codes could never sign in\n");
  CHECK_FALSE(fs::exists(other));
  CHECK_FALSE(fs::exists(other + ".md"));
  r = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --db '" + db + "' --url http://class.example/");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: --db: give --student ID or --roster CSV, the students of the class whose access codes the "
                 "worksheets print\n");
}
