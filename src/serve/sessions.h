// serve/sessions.h: the browsers' sessions of attnmark serve, in memory: who
// signed in, the CSRF token of their forms, and the page's theme and text size.
//
//   Sessions sessions;
//   Opened o = sessions.open(cookie_id, style, now);   // o.fresh: set the cookie to o.id
//   if (!form_from_session(sent_csrf, o.session)) refuse();
//
// Thread-safe: one table behind a lock. A session is copied out and saved
// back whole (save), so a request never holds the lock while it works.
#pragma once

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
  // A session goes when unused this long.
  static constexpr std::int64_t idle_seconds = 12 * 3600;
  // Past this many sessions, the idle ones go first (unused for an hour),
  // then, if that is not enough, every one not signed in: a flood of visitors
  // cannot grow the table without bound, and a student's page in the middle
  // of a class is kept.
  static constexpr std::size_t most = 200000;

  // The session of `id`, used at `now`, when it is known and not idle; else a
  // new one, not signed in, with a new id and CSRF token and `style`.
  Opened open(const std::string& id, const HtmlStyle& style, std::int64_t now);
  // Keeps `session` under `id` (a new id, after a sign-in).
  void save(const std::string& id, const Session& session);
  void forget(const std::string& id);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, Session> by_id_;
};

// Whether a form's CSRF token is its session's (constant time).
bool form_from_session(std::string_view sent_csrf, const Session& session);

// The theme and text size a browser chose before, from its attnmark_style
// cookie ("cream.large"); `otherwise` when it has none or it names none.
HtmlStyle remembered_style(std::string_view cookie, const HtmlStyle& otherwise);

}  // namespace attnmark
