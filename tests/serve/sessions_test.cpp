// Sessions: only signed-in ones are kept; an anonymous visitor's form token
// is a MAC of their cookie, so no flood of visitors expires another's form.
#include "serve/sessions.h"

#include "support/test_support.h"

using attnmark::Opened;
using attnmark::Sessions;

namespace {
const std::string key(64, 'k');
}  // namespace

TEST_CASE("sessions: 205,000 cookieless visitors store nothing and expire no one's sign-in form", "[sessions]") {
  Sessions sessions(key);
  const Opened first = sessions.open("", {}, 1000);
  CHECK(first.fresh);
  CHECK(first.id.size() == 64);
  CHECK(first.session.student.empty());
  CHECK(first.session.csrf.size() == 64);
  for (int i = 0; i < 205000; ++i) CHECK(sessions.open("", {}, 1000 + i / 1000).fresh);
  CHECK(sessions.size() == 0);
  // The first visitor posts their form long after: its token is still the session's.
  const Opened again = sessions.open(first.id, {}, 1000 + 11 * 3600);
  CHECK_FALSE(again.fresh);
  CHECK(again.id == first.id);
  CHECK(attnmark::form_from_session(first.session.csrf, again.session));
  // ... and signs in.
  const std::string id = sessions.sign_in(first.id, "s001", {}, 1000 + 11 * 3600);
  CHECK(sessions.size() == 1);
  CHECK(sessions.open(id, {}, 1000 + 11 * 3600).session.student == "s001");
}

TEST_CASE("sessions: an anonymous form's token is its cookie's MAC under this start's key", "[sessions]") {
  Sessions sessions(key);
  const std::string id(64, 'a');
  const Opened o = sessions.open(id, {}, 0);
  CHECK_FALSE(o.fresh);
  CHECK(o.session.csrf == Sessions(key).open(id, {}, 5).session.csrf);  // the same key, the same token
  CHECK(o.session.csrf != Sessions(std::string(64, 'j')).open(id, {}, 0).session.csrf);  // another start
  CHECK(o.session.csrf != sessions.open(std::string(64, 'b'), {}, 0).session.csrf);  // another cookie
  CHECK_FALSE(attnmark::form_from_session(sessions.open(std::string(64, 'b'), {}, 0).session.csrf, o.session));
  CHECK_FALSE(attnmark::form_from_session("", o.session));
  // A cookie that is no id of ours: a new one.
  for (const std::string& bad :
       std::vector<std::string>{"", "x", std::string(64, 'A'), std::string(63, 'a'), std::string(65, 'a')}) {
    const Opened n = sessions.open(bad, {}, 0);
    CHECK(n.fresh);
    CHECK(n.id != bad);
  }
  // The default key is random: two starts' tokens differ.
  CHECK(Sessions().open(id, {}, 0).session.csrf != Sessions().open(id, {}, 0).session.csrf);
  // An anonymous session's style is the one it is opened with (its attnmark_style cookie), never stored.
  const attnmark::HtmlStyle cream = attnmark::html_style("cream", "large");
  Opened styled = sessions.open(id, cream, 0);
  CHECK(styled.session.style.theme == cream.theme);
  sessions.save(styled.id, styled.session);
  CHECK(sessions.size() == 0);
}

TEST_CASE("sessions: sign-in makes a new id and token, and a student keeps at most 20, the least recently used going", "[sessions]") {
  Sessions sessions(key);
  const Opened visitor = sessions.open("", {}, 0);
  const std::string id = sessions.sign_in(visitor.id, "s001", {}, 10);
  CHECK(id != visitor.id);
  const Opened in = sessions.open(id, {}, 11);
  CHECK(in.session.student == "s001");
  CHECK(in.session.csrf != visitor.session.csrf);
  CHECK_FALSE(attnmark::form_from_session(visitor.session.csrf, in.session));
  std::vector<std::string> ids{id};
  for (int i = 1; i < 25; ++i) ids.push_back(sessions.sign_in("", "s001", {}, 100 + i));
  sessions.sign_in("", "s002", {}, 200);
  CHECK(sessions.size() == 21);
  // The first five of s001's went; the twenty latest are signed in.
  for (int i = 0; i < 25; ++i) CHECK(sessions.open(ids[i], {}, 300 + i).session.student == (i < 5 ? "" : "s001"));
  // Used again, a session is the most recent: the next sign-in takes the least recent (ids[6]) instead.
  sessions.open(ids[5], {}, 400);
  sessions.sign_in("", "s001", {}, 401);
  CHECK(sessions.open(ids[5], {}, 402).session.student == "s001");
  CHECK(sessions.open(ids[6], {}, 402).session.student.empty());
  // Idle for 12 hours: gone, and the cookie is an anonymous visitor's.
  const Opened idle = sessions.open(ids[7], {}, 402 + Sessions::idle_seconds);
  CHECK(idle.session.student.empty());
  CHECK_FALSE(idle.fresh);
  sessions.forget(ids[8]);
  CHECK(sessions.open(ids[8], {}, 403).session.student.empty());
}
