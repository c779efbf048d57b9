// serve/sessions.h: the browsers' sessions of attnmark serve, in memory: who
// signed in, the CSRF token of their forms, and the page's theme and text size.
//
//   Sessions sessions;                                  // a new random key for anonymous forms
//   Opened o = sessions.open(cookie_id, style, now);   // o.fresh: set the cookie to o.id
//   if (!form_from_session(sent_csrf, o.session)) refuse();
//   std::string id = sessions.sign_in(o.id, "s001", o.session.style, now);  // the new cookie
//
// Only signed-in sessions are kept. A visitor not signed in has a random id
// in their cookie and nothing in the table: their form's CSRF token is a MAC
// of that id (HMAC-SHA256 under a key made at each start), checked without
// looking anything up, so no number of visitors can push another visitor's
// sign-in form out (a restart makes open forms stale, as it signs everyone
// out). Their theme and text size live in the attnmark_style cookie.
//
// Thread-safe: one table behind a lock. A session is copied out and saved
// back whole (save), so a request never holds the lock while it works.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "writers/theme.h"

namespace attnmark {

struct Session {
  std::string student;  // empty until signed in
  std::string csrf;     // 64 hex digits: every form of the session carries it
  HtmlStyle style;
  std::int64_t used = 0;  // Unix seconds of its last request
};

// A session as a request finds it.
struct Opened {
  std::string id;  // its random id (64 hex digits), the cookie's value
  Session session;
  bool fresh = false;  // new: its cookie is to be set
};

class Sessions {
 public:
  // A signed-in session goes when unused this long.
  static constexpr std::int64_t idle_seconds = 12 * 3600;
  // Signed-in sessions kept per student: a student's next sign-in past it
  // ends their least recently used one (a browser left open in the lab).
  static constexpr std::size_t most_per_student = 20;
  // Signed-in sessions kept in all: past it, the idle go, then the least
  // recently used.
  static constexpr std::size_t most = 200000;

  // `key` makes the anonymous forms' tokens; by default a new random one.
  explicit Sessions(std::string key = {});

  // The signed-in session of `id`, used at `now`, when it is kept and not
  // idle; else the anonymous one of `id` when it is a well-formed id (64 hex
  // digits), its token its MAC, nothing stored; else a new anonymous one
  // (fresh, a new random id). An anonymous session has `style`.
  Opened open(const std::string& id, const HtmlStyle& style, std::int64_t now);
  // Signs in: forgets `old_id`, keeps a new session of `student` (a new id
  // and a new random CSRF token: an id planted before it is worth nothing
  // after), and returns its id for the cookie. Past most_per_student, the
  // student's least recently used session goes.
  std::string sign_in(const std::string& old_id, const std::string& student, const HtmlStyle& style, std::int64_t now);
  // Keeps `session` under `id` when it is signed in (its style changed);
  // an anonymous one is not kept (its style is in its cookie).
  void save(const std::string& id, const Session& session);
  void forget(const std::string& id);
  // Signed-in sessions kept.
  std::size_t size();

 private:
  std::string anonymous_csrf(std::string_view id) const;
  void make_room(const std::string& student, std::int64_t now);  // REQUIRES: mutex_ held

  std::string key_;
  std::mutex mutex_;
  std::unordered_map<std::string, Session> by_id_;
};

// Whether a form's CSRF token is its session's (constant time).
bool form_from_session(std::string_view sent_csrf, const Session& session);

// The theme and text size a browser chose before, from its attnmark_style
// cookie ("cream.large"); `otherwise` when it has none or it names none.
HtmlStyle remembered_style(std::string_view cookie, const HtmlStyle& otherwise);

}  // namespace attnmark
