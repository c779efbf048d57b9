#include "serve/server.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <charconv>
#include <ctime>
#include <fmt/format.h>
#include <mutex>
#include <ostream>

#include "attnmark/base/error.h"
#include "base/text.h"
#include "readers/served_answers.h"
#include "serve/codes.h"
#include "serve/exports.h"
#include "serve/http.h"
#include "serve/limits.h"
#include "serve/pages.h"
#include "serve/sessions.h"
#include "writers/served_pages.h"

namespace attnmark {

Reach reach_of(const std::string& address) {
  in_addr v4{};
  if (inet_pton(AF_INET, address.c_str(), &v4) == 1) {
    const std::uint32_t a = ntohl(v4.s_addr);
    return a == 0 ? Reach::every_address : (a >> 24) == 127 ? Reach::this_machine : Reach::network;
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, address.c_str(), &v6) == 1) {
    if (IN6_IS_ADDR_UNSPECIFIED(&v6)) return Reach::every_address;
    if (IN6_IS_ADDR_LOOPBACK(&v6) || (IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127)) return Reach::this_machine;
  }
  return Reach::network;
}

namespace {

// What a student is told when their check could not be stored (the store
// failed: locked by another program, a full disk); the teacher reads why on
// the server's standard error.
constexpr const char* unsaved_check = "your check could not be saved just now; try again in a minute";
// ... and when any other request failed inside the server.
constexpr const char* unanswered = "the class page could not answer just now; try again in a minute";

constexpr const char* html_type = "text/html; charset=utf-8";

std::int64_t now_seconds() { return static_cast<std::int64_t>(std::time(nullptr)); }

std::string utc_text(std::int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

const char* session_cookie = "attnmark_session";
const char* teacher_cookie = "attnmark_teacher";

}  // namespace

std::string class_rules(const ServeSettings& settings, bool reveals) {
  std::string out = settings.attempts ? fmt::format("{} stored check{} per student", *settings.attempts,
                                                    *settings.attempts == 1 ? "" : "s")
                                      : "any number of checks";
  if (settings.close_at) out += fmt::format("; closes {} (later checks are answered, not stored)", utc_text(*settings.close_at));
  out += settings.score == ScoreRule::best ? "; the gradebook counts each student's best attempt"
                                           : "; the gradebook counts each student's last attempt";
  out += !reveals ? "; right answers never shown"
         : settings.reveal_after ? fmt::format("; right answers shown from {}", utc_text(*settings.reveal_after))
                                 : "; right answers shown with each check";
  return out;
}

// The routes: each handler reads what it needs of the store once, and hands
// the page's data to writers/served_pages.
struct Server::Impl {
  Store& store;
  const Classroom& room;
  ServeSettings settings;
  std::string teacher_token;
  std::ostream& log;
  std::mutex log_mutex;
  HttpServer http;
  int port = 0;
  Sessions sessions;
  SignInLimits limits;

  Impl(Store& s, const Classroom& r, ServeSettings st, std::string token, std::ostream& l)
      : store(s),
        room(r),
        settings(std::move(st)),
        teacher_token(std::move(token)),
        log(l),
        limits(settings.failures_per_id, settings.failures_per_address, settings.failure_window_seconds) {}

  // One line to the teacher's standard error, whole however many threads tell.
  void tell_teacher(const std::string& line) {
    std::lock_guard lock(log_mutex);
    log << "attnmark serve: " << utc_text(now_seconds()) << ": " << line << "\n";
    log.flush();
  }

  bool closed() const { return settings.close_at && now_seconds() >= *settings.close_at; }
  RulesNow rules_now() const {
    const bool reveal =
        room.rubric().reveal_in_feedback && (!settings.reveal_after || now_seconds() >= *settings.reveal_after);
    return {closed(), reveal, settings.attempts};
  }

  // ---- Sessions and sign-in ----

  // The request's session, or a new anonymous one (its cookie set on `res`).
  Opened session(const httplib::Request& req, httplib::Response& res) {
    Opened o = sessions.open(cookie(req, session_cookie), remembered_style(cookie(req, "attnmark_style"), settings.style),
                             now_seconds());
    if (o.fresh) res.set_header("Set-Cookie", set_cookie(session_cookie, o.id, "/"));
    return o;
  }

  bool teacher(const httplib::Request& req) {
    const std::string auth = req.get_header_value("Authorization");
    std::string token = auth.starts_with("Bearer ") ? auth.substr(7) : cookie(req, teacher_cookie);
    return !token.empty() && same_secret(sha256_hex(token), store.teacher_token_hash());
  }

  // A student's code checked, rate limited (serve/limits.h). The code is
  // compared even for an id not on the roster, so the time taken says
  // nothing of the roster.
  SignIn sign_in(const std::string& student, const std::string& code, const std::string& address) {
    return limits.sign_in(student, address, now_seconds(),
                          [&] { return codes_match(room.code_of(student), code) && room.find(student); });
  }

  // ---- Checking ----

  struct Outcome {
    std::optional<Checked> checked;
    std::int64_t attempt = 0;  // its id when stored
    bool stored = false;
    std::string refused;       // why not checked (attempts used up)
    bool unsaved = false;      // the store failed: neither checked nor kept (the teacher was told why)
  };
  // The outcome of a check the store failed, its reason told to the teacher.
  Outcome unsaved(const std::string& student, const Error& e) {
    tell_teacher(fmt::format("a check by {} was not saved, and its student was asked to try again: {}",
                             quoted_printable(student), e.report()));
    Outcome o;
    o.unsaved = true;
    return o;
  }
  Outcome check(const std::string& student, SentAnswers sent, std::string& problem) {
    Outcome o;
    const bool is_closed = closed();
    try {
      if (!is_closed && settings.attempts && store.attempt_count_of(student) >= *settings.attempts) {
        o.refused = fmt::format("you have used all {} attempts", *settings.attempts);
        return o;
      }
    } catch (const Error& e) {
      return unsaved(student, e);
    }
    o.checked = room.check(student, std::move(sent), problem);
    if (!o.checked || is_closed) return o;
    AttemptRecord a;
    a.student = student;
    a.at = utc_text(now_seconds());
    a.answers = o.checked->answers;
    a.score = o.checked->graded.marked ? o.checked->graded.marked->score : 0;
    a.max_score = o.checked->graded.marked ? o.checked->graded.marked->max_score : 0;
    a.feedback = o.checked->feedback;
    try {
      o.attempt = store.add_attempt(a, settings.attempts);  // committed before the student hears of it
    } catch (const Error& e) {
      return unsaved(student, e);
    }
    if (o.attempt == 0) {  // another check of theirs took the last attempt meanwhile
      o.checked.reset();
      o.refused = fmt::format("you have used all {} attempts", *settings.attempts);
      return o;
    }
    o.stored = true;
    return o;
  }

  // ---- Routes ----

  void api_check(const httplib::Request& req, httplib::Response& res) {
    std::string error;
    std::optional<CheckRequest> request = read_check_request(req.body, attempt_source, error);
    if (!request) return json_error(res, 400, error);
    if (const SignIn in = sign_in(request->student, request->code, req.remote_addr); !in.ok)
      return json_error(res, in.status, in.message);
    std::string problem;
    const Outcome o = check(request->student, std::move(request->answers), problem);
    if (o.unsaved) {
      res.set_header("Retry-After", "60");
      return json_error(res, 503, unsaved_check);
    }
    if (!o.refused.empty()) return json_error(res, 403, o.refused);
    if (!o.checked) return json_error(res, 400, problem);
    res.set_header("X-Attnmark-Stored", o.stored ? "yes" : "no (the class is closed)");
    if (o.stored) res.set_header("X-Attnmark-Attempt", std::to_string(o.attempt));
    res.set_content(o.checked->feedback, "application/json");
  }

  void signin_page(httplib::Response& res, const Session& s, const std::string& message, const std::string& student) {
    res.set_content(signin_page_html({display_title(room.rubric()), s.csrf, message, student, s.style}), html_type);
  }

  void get_root(const httplib::Request& req, httplib::Response& res) {
    const Opened o = session(req, res);
    const Session& s = o.session;
    if (s.student.empty()) return signin_page(res, s, "", "");
    const std::vector<AttemptRecord> attempts = store.attempts_of(s.student);
    const StudentPage page = attempts.empty()
                                 ? student_page(room, rules_now(), s, attempts, {}, std::nullopt, "")
                                 : attempt_page(room, rules_now(), s, attempts, attempts.back(), "");
    res.set_content(student_page_html(page), html_type);
  }

  void get_attempt(const httplib::Request& req, httplib::Response& res) {
    const Opened o = session(req, res);
    const Session& s = o.session;
    if (s.student.empty()) return res.set_redirect("/", 303);
    const std::string wanted = req.get_param_value("n");
    const std::vector<AttemptRecord> attempts = store.attempts_of(s.student);
    for (const AttemptRecord& a : attempts) {
      if (std::to_string(a.id) != wanted) continue;
      return res.set_content(
          student_page_html(attempt_page(room, rules_now(), s, attempts, a, "Attempt of " + a.at + " (UTC)")), html_type);
    }
    res.status = 404;
    res.set_content(served_message_page(ServedMessage::no_such_attempt, s.style), html_type);
  }

  void post_signin(const httplib::Request& req, httplib::Response& res) {
    const Opened o = session(req, res);
    Session s = o.session;
    if (!form_from_session(field(req, "csrf"), s)) return forbidden(res, s);
    const std::string student = std::string(trim(field(req, "student")));
    if (const SignIn in = sign_in(student, field(req, "code"), req.remote_addr); !in.ok) {
      res.status = in.status;
      return signin_page(res, s, in.message, student);
    }
    // A new session id at sign-in: an id planted before it is worth nothing after.
    sessions.forget(o.id);
    const std::string fresh = random_hex(32);
    s.student = student;
    s.csrf = random_hex(32);
    sessions.save(fresh, s);
    res.set_header("Set-Cookie", set_cookie(session_cookie, fresh, "/"));
    res.set_redirect("/", 303);
  }

  void forbidden(httplib::Response& res, const Session& s) {
    res.status = 403;
    res.set_content(served_message_page(ServedMessage::form_expired, s.style), html_type);
  }

  void post_check(const httplib::Request& req, httplib::Response& res) {
    const Opened opened = session(req, res);
    const Session& s = opened.session;
    if (s.student.empty()) return res.set_redirect("/", 303);
    if (!form_from_session(field(req, "csrf"), s)) return forbidden(res, s);
    std::map<std::string, std::string> fields = answer_fields(req);
    std::string problem;
    Outcome o = check(s.student, answers_from_form(s.student, fields, attempt_source), problem);
    std::optional<GradedSubmission> shown;
    std::string notice;
    if (o.unsaved) {
      res.status = 503;
      res.set_header("Retry-After", "60");
      notice = unsaved_check;
    } else if (!o.checked) {
      res.status = o.refused.empty() ? 400 : 403;
      notice = o.refused.empty() ? problem : o.refused;
    } else {
      shown = std::move(o.checked->graded);
      if (!o.stored) notice = "Checked, not kept: the class is closed.";
    }
    const std::vector<AttemptRecord> attempts = store.attempts_of(s.student);
    res.set_content(
        student_page_html(student_page(room, rules_now(), s, attempts, std::move(fields), std::move(shown), notice)),
        html_type);
  }

  void post_settings(const httplib::Request& req, httplib::Response& res) {
    const Opened o = session(req, res);
    Session s = o.session;
    if (!form_from_session(field(req, "csrf"), s)) return forbidden(res, s);
    try {
      s.style = html_style(field(req, "theme"), field(req, "text_size"));
    } catch (const Error&) {
      res.status = 400;
      return res.set_content(served_message_page(ServedMessage::unknown_style, s.style), html_type);
    }
    sessions.save(o.id, s);
    // Remembered by the browser for a year, across sign-ins.
    res.set_header("Set-Cookie", fmt::format("attnmark_style={}.{}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict",
                                             theme_name(s.style.theme), text_size_name(s.style.text_size)));
    res.set_redirect("/", 303);
  }

  void post_signout(const httplib::Request& req, httplib::Response& res) {
    const Opened o = session(req, res);
    if (!form_from_session(field(req, "csrf"), o.session)) return forbidden(res, o.session);
    sessions.forget(o.id);
    res.set_header("Set-Cookie", fmt::format("{}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0", session_cookie));
    res.set_redirect("/", 303);
  }

  // ---- The teacher's pages ----

  bool teacher_or_refuse(const httplib::Request& req, httplib::Response& res) {
    if (teacher(req)) return true;
    res.status = 401;
    res.set_content(served_message_page(ServedMessage::teacher_token, settings.style), html_type);
    return false;
  }

  void get_teacher(const httplib::Request& req, httplib::Response& res) {
    if (const std::string token = req.get_param_value("token"); !token.empty()) {
      if (!same_secret(sha256_hex(token), store.teacher_token_hash())) return (void)teacher_or_refuse(httplib::Request{}, res);
      // The token moves from the address into a cookie, so it does not stay in the address bar or history.
      res.set_header("Set-Cookie", set_cookie(teacher_cookie, token, "/teacher"));
      return res.set_redirect("/teacher", 303);
    }
    if (!teacher_or_refuse(req, res)) return;
    res.set_content(teacher_page_html(teacher_page(room, store.all_attempts(), closed(), settings.score, settings.style)),
                    html_type);
  }

  void get_teacher_student(const httplib::Request& req, httplib::Response& res) {
    if (!teacher_or_refuse(req, res)) return;
    const std::string student = req.get_param_value("id");
    res.set_content(teacher_student_page_html(teacher_student_page(room, student, store.attempts_of(student), settings.style)),
                    html_type);
  }

  void get_teacher_summary(const httplib::Request& req, httplib::Response& res) {
    if (!teacher_or_refuse(req, res)) return;
    res.set_content(exported_summary(room, room.gradebook(store.all_attempts(), settings.score), settings.style), html_type);
  }

  void get_teacher_gradebook(const httplib::Request& req, httplib::Response& res) {
    if (!teacher_or_refuse(req, res)) return;
    res.set_header("Content-Disposition", "attachment; filename=\"gradebook.csv\"");
    res.set_content(exported_gradebook(room, room.gradebook(store.all_attempts(), settings.score)),
                    "text/csv; charset=utf-8");
  }

  void get_teacher_lms(const httplib::Request& req, httplib::Response& res, Lms lms) {
    if (!teacher_or_refuse(req, res)) return;
    const std::string csv = exported_lms(room, room.gradebook(store.all_attempts(), settings.score), lms);
    res.set_header("Content-Disposition", lms == Lms::canvas ? "attachment; filename=\"canvas.csv\""
                                                             : "attachment; filename=\"moodle.csv\"");
    res.set_content(csv, "text/csv; charset=utf-8");
  }

  // ---- Request bodies ----

  void not_found(const httplib::Request&, httplib::Response& res) { res.status = 404; }

  // A route whose body is read by read_body (serve/http.h), under
  // settings.max_body_bytes, before `handler` runs.
  httplib::Server::HandlerWithContentReader with_body(void (Impl::*handler)(const httplib::Request&, httplib::Response&)) {
    return [this, handler](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
      httplib::Request full = req;
      if (read_body(full, res, reader, settings.max_body_bytes)) (this->*handler)(full, res);
    };
  }

  void routes() {
    http.set_payload_max_length(settings.max_body_bytes);
    // cpp-httplib gives each open connection a worker until it closes: enough
    // workers for a class's browsers and scripts at once, and connections
    // kept open for many requests (a new connection is the costly part: its
    // listen backlog is short).
    const std::size_t workers = settings.workers;
    http.new_task_queue = [workers] { return new httplib::ThreadPool(workers); };
    http.set_keep_alive_max_count(1000);
    // A response is written in pieces (headers, body): without this, Nagle's
    // algorithm holds the body for the client's delayed ACK, 40 ms a check.
    http.set_tcp_nodelay(true);
    http.set_keep_alive_timeout(5);
    http.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                              {"X-Frame-Options", "DENY"},
                              {"Referrer-Policy", "no-referrer"},
                              {"Cache-Control", "no-store"},
                              {"Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; "
                                                          "form-action 'self'; frame-ancestors 'none'"}});
    // A failure inside a handler: the teacher reads why on standard error;
    // the student, a sentence for them (JSON for the API, else a page).
    http.set_exception_handler([this](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
      std::string what = "an unknown exception";
      try {
        std::rethrow_exception(ep);
      } catch (const Error& e) {
        what = e.report();
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      tell_teacher(fmt::format("{} {} failed: {}", printable(req.method, 20), printable(req.path, 200), printable(what, 1000)));
      if (req.path.starts_with("/api/")) return json_error(res, 500, unanswered);
      res.status = 500;
      res.set_content(served_notice_page("Not answered", unanswered, settings.style), html_type);
    });
    http.set_error_handler([this](const httplib::Request&, httplib::Response& res) {
      if (!res.body.empty()) return;
      if (res.status == 413)
        json_error(res, 413, fmt::format("the request is larger than {} KiB", settings.max_body_bytes / 1024));
      else if (res.status == 404)
        res.set_content("{\"error\":\"not found\"}\n", "application/json");
    });
    http.Get("/", [this](const auto& req, auto& res) { get_root(req, res); });
    http.Get("/attempt", [this](const auto& req, auto& res) { get_attempt(req, res); });
    http.Post("/signin", with_body(&Impl::post_signin));
    http.Post("/check", with_body(&Impl::post_check));
    http.Post("/settings", with_body(&Impl::post_settings));
    http.Post("/signout", with_body(&Impl::post_signout));
    http.Post("/api/check", with_body(&Impl::api_check));
    // Any other request with a body: read (and limited) the same way, then 404.
    http.Post(".*", with_body(&Impl::not_found));
    http.Put(".*", with_body(&Impl::not_found));
    http.Patch(".*", with_body(&Impl::not_found));
    http.Delete(".*", with_body(&Impl::not_found));
    http.Get("/teacher", [this](const auto& req, auto& res) { get_teacher(req, res); });
    http.Get("/teacher/student", [this](const auto& req, auto& res) { get_teacher_student(req, res); });
    http.Get("/teacher/summary.html", [this](const auto& req, auto& res) { get_teacher_summary(req, res); });
    http.Get("/teacher/gradebook.csv", [this](const auto& req, auto& res) { get_teacher_gradebook(req, res); });
    http.Get("/teacher/canvas.csv", [this](const auto& req, auto& res) { get_teacher_lms(req, res, Lms::canvas); });
    http.Get("/teacher/moodle.csv", [this](const auto& req, auto& res) { get_teacher_lms(req, res, Lms::moodle); });
  }
};

Server::Server(Store& store, const Classroom& room, ServeSettings settings, std::string teacher_token, std::ostream& log)
    : impl_(std::make_unique<Impl>(store, room, std::move(settings), std::move(teacher_token), log)) {
  impl_->routes();
}

Server::~Server() = default;

int Server::bind() {
  const ServeSettings& s = impl_->settings;
  if (s.port == 0) {
    impl_->port = impl_->http.bind_to_any_port(s.host);
    if (impl_->port < 0) throw Error(fmt::format("--host: cannot listen on {}", quoted_printable(s.host)));
  } else {
    if (!impl_->http.bind_to_port(s.host, s.port))
      throw Error(fmt::format("--port: cannot listen on {}:{} (is it in use, or not an address of this machine?)",
                              printable(s.host, 200), s.port));
    impl_->port = s.port;
  }
  impl_->http.lengthen_backlog();
  return impl_->port;
}

std::string Server::address() const { return impl_->http.bound_address(); }

void Server::run() { impl_->http.listen_after_bind(); }

void Server::stop() { impl_->http.stop(); }

}  // namespace attnmark
