// serve/server.h: attnmark serve's routes over its HTTP server (serve/http_server.h):
// the students' page, the JSON API and the teacher's page, over one Store.
// A route reads the store once and hands what it read to serve/pages.h,
// whose data writers/served_pages.h lays out; what a check sent is read by
// readers/served_answers.h; sessions and sign-in limits are serve/sessions.h
// and serve/limits.h, the teacher's downloads serve/exports.h, and the HTTP
// messages (requests read under fixed limits, cookies, forms) serve/http.h,
// HTTPS serve/tls.h.
//
//   Server server(store, room, settings, teacher_token, std::cerr);
//   int port = server.bind();   // 0 in settings: any free port
//   reach_of(server.address())  // who can open the page
//   server.run();               // until stop(), from another thread or a signal watcher
//
// Routes (docs/serve.md): GET / (sign-in, or the student's worksheet),
// POST /signin, /check, /settings, /signout, GET /attempt?n=ID, POST
// /api/check, GET /teacher (?token= signs in), /teacher/summary.html,
// /teacher/student?id=, /teacher/gradebook.csv, /teacher/canvas.csv,
// /teacher/moodle.csv.
//
// The HTTP server runs routes on a pool of worker threads: the Store and the
// session and rate-limit tables are each behind a lock; the Classroom is
// read-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "serve/classroom.h"
#include "serve/limits.h"
#include "serve/pages.h"
#include "serve/store.h"
#include "writers/theme.h"

namespace attnmark {

class TlsContext;

struct ServeSettings {
  std::string host = "127.0.0.1";
  int port = 8080;                            // 0: any free port (bind() says which)
  std::optional<std::int64_t> attempts;       // --attempts: stored attempts per student
  std::optional<std::int64_t> close_at;       // --close, Unix seconds: later checks are answered, not stored
  std::optional<std::int64_t> reveal_after;   // --reveal-after, Unix seconds (with the rubric's reveal_answers)
  ScoreRule score = ScoreRule::best;          // --score
  HtmlStyle style;                            // the page's theme and text size until a student chooses
  ClassLimits limits;                         // --checks-per-minute, --storage-per-student, --db-max
  std::size_t max_body_bytes = 64 * 1024;     // larger requests are refused with 413, whatever their Content-Type
  // Threads running routes on whole requests (a connection holds none while
  // it sends): enough that checks waiting on one commit share it.
  std::size_t workers = 16;
  std::shared_ptr<TlsContext> tls;            // --tls-cert/--tls-key or --tls-self-signed; null: plain HTTP
};

// Who can open the page at a numeric listening address (Server::address()).
enum class Reach {
  this_machine,   // 127.0.0.0/8, ::1
  every_address,  // 0.0.0.0 or ::: the network, at any address of this machine
  network,        // the network, at this one address of the machine
};
Reach reach_of(const std::string& address);

// What the start and the teacher's page say when the page is plain HTTP on
// an address the network can reach.
inline constexpr const char* clear_text_warning =
    "plain HTTP: access codes, answers and the teacher's token travel in clear text on the network; "
    "start with --tls-self-signed (or --tls-cert FILE --tls-key FILE) to serve HTTPS";

// The class's rules as the start prints them, for the teacher to see what
// this start applies (they are options of each start, not kept in the
// database). `reveals`: the rubric says reveal_answers: true.
// (serve/pages.h's class_rules_text of rules_of(settings)).
std::string class_rules(const ServeSettings& settings, bool reveals);
ClassRules rules_of(const ServeSettings& settings);

class Server {
 public:
  // `teacher_token` is the token that opens /teacher (its hash is in the
  // store). `log` is the teacher's standard error: what went wrong that a
  // student is not told in full (the store failing mid-class), one line each.
  Server(Store& store, const Classroom& room, ServeSettings settings, std::string teacher_token, std::ostream& log);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the address; returns the port. Throws Error when it cannot.
  int bind();
  // The numeric address bound ("127.0.0.1", "0.0.0.0", "::"). REQUIRES: bind() succeeded.
  std::string address() const;
  // Serves until stop(). REQUIRES: bind() succeeded.
  void run();
  // Stops run() (from any thread).
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace attnmark
