#include "serve/server.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
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
#include "serve/http_server.h"
#include "serve/limits.h"
#include "serve/live_view.h"
#include "serve/pages.h"
#include "serve/sessions.h"
#include "writers/served_pages.h"
#include "writers/teacher_pages.h"

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

// Steady milliseconds, as serve/limits.h counts.
std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

const char* session_cookie = "attnmark_session";
const char* teacher_cookie = "attnmark_teacher";
// A browser that signed a student in before (serve/limits.h): it never waits
// its turn behind a flooding address.
const char* known_cookie = "attnmark_known";

// Whether a check says nothing to mark: no answer at all, or every box blank
// or unreadable. Such a check is answered, never stored.
bool says_nothing(const GradedSubmission& g) {
  if (g.status == SubmissionStatus::unanswered) return true;
  if (!g.marked) return false;
  for (const QuestionResult& q : g.marked->questions)
    for (const PartResult& p : q.parts)
      for (const CellResult& c : p.cells)
        if (c.verdict != Verdict::unanswered && c.verdict != Verdict::unreadable) return false;
  return true;
}

}  // namespace

std::string class_rules(const ServeSettings& settings, bool reveals) {
  return class_rules_text(rules_of(settings), reveals);
}

ClassRules rules_of(const ServeSettings& settings) {
  return {settings.attempts, settings.close_at, settings.reveal_after, settings.score, settings.limits};
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
  int port = 0;
  Sessions sessions;
  SignInLimits sign_ins;
  CheckRate check_rate;
  std::atomic<bool> told_full{false};  // the teacher heard the database is at --db-max
  LiveCache live_cache;                // each attempt's marks and mistakes, read once for the live pages

  Impl(Store& s, const Classroom& r, ServeSettings st, std::string token, std::ostream& l)
      : store(s),
        room(r),
        settings(std::move(st)),
        teacher_token(std::move(token)),
        log(l),
        sign_ins(room.secret()),
        check_rate(settings.limits.checks_per_minute) {}

  // One line to the teacher's standard error, whole however many threads tell.
  void tell_teacher(const std::string& line) {
    std::lock_guard lock(log_mutex);
    log << "attnmark serve: " << utc_date_time(now_seconds()) << ": " << line << "\n";
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
  Opened session(const HttpRequest& req, HttpResponse& res) {
    Opened o = sessions.open(cookie(req, session_cookie), remembered_style(cookie(req, "attnmark_style"), settings.style),
                             now_seconds());
    if (o.fresh) res.set_header("Set-Cookie", set_cookie(session_cookie, o.id, "/", secure()));
    return o;
  }

  bool teacher(const HttpRequest& req) {
    const std::string auth = req.header("authorization");
    std::string token = auth.starts_with("Bearer ") ? auth.substr(7) : cookie(req, teacher_cookie);
    return !token.empty() && same_secret(sha256_hex(token), store.teacher_token_hash());
  }

  // A student's code checked under the sign-in rule (serve/limits.h). The
  // code is compared even for an id not on the roster, so the time taken says
  // nothing of the roster. The answer is held for the rule's delay, right or
  // wrong (by the HTTP server, not a thread), and a 429 says when to come back.
  SignIn sign_in(const HttpRequest& req, const std::string& student, const std::string& code, HttpResponse& res) {
    SignIn in = sign_ins.sign_in(student, req.remote_address, cookie(req, known_cookie), now_ms(),
                                 [&] { return codes_match(room.code_of(student), code) && room.find(student); });
    res.delay_ms = static_cast<int>(in.delay_ms);
    if (in.status == 429) res.set_header("Retry-After", std::to_string(std::max<std::int64_t>(1, in.retry_after_seconds)));
    return in;
  }

  // A check's turn under --checks-per-minute; when refused, 429 and when to
  // come back are set on `res`.
  CheckTurn check_turn(const std::string& student, HttpResponse& res) {
    CheckTurn t = check_rate.take(student, now_ms());
    if (!t.ok) {
      res.status = 429;
      res.set_header("Retry-After", std::to_string(std::max<std::int64_t>(1, t.retry_after_seconds)));
    }
    return t;
  }

  // ---- Checking ----

  struct Outcome {
    std::optional<Checked> checked;
    std::int64_t attempt = 0;  // its id when stored
    bool stored = false;
    Kept kept = Kept::stored;  // when marked but not stored: which cap kept it out
    std::string refused;       // why not checked (attempts used up)
    std::string nothing_new;   // when marked but not stored as it changes nothing: why, for the student
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
    if (says_nothing(o.checked->graded)) {
      o.nothing_new = "every box is blank or unreadable";
      return o;
    }
    try {
      if (store.last_answers_of(student) == o.checked->answers) {
        o.nothing_new = "the same answers as your last check";
        return o;
      }
    } catch (const Error& e) {
      return unsaved(student, e);
    }
    AttemptRecord a;
    a.student = student;
    a.at = utc_date_time(now_seconds());
    a.answers = o.checked->answers;
    a.score = o.checked->graded.marked ? o.checked->graded.marked->score : 0;
    a.max_score = o.checked->graded.marked ? o.checked->graded.marked->max_score : 0;
    a.feedback = o.checked->feedback;
    Added added;
    try {
      // Committed before the student hears of it; the caps are counted in the same transaction.
      added = store.add_attempt(a, {settings.attempts, settings.limits.storage_per_student, settings.limits.database_max});
    } catch (const Error& e) {
      return unsaved(student, e);
    }
    o.kept = added.kept;
    switch (added.kept) {
      case Kept::stored:
        o.attempt = added.id;
        o.stored = true;
        break;
      case Kept::attempts_used:  // another check of theirs took the last attempt meanwhile
        o.checked.reset();
        o.refused = fmt::format("you have used all {} attempts", *settings.attempts);
        break;
      case Kept::database_full:
        if (!told_full.exchange(true)) tell_teacher(database_full_note(settings.limits));
        break;
      case Kept::student_full: break;
    }
    return o;
  }

  // ---- Routes ----

  void api_check(const HttpRequest& req, HttpResponse& res) {
    std::string error;
    std::optional<CheckRequest> request = read_check_request(req.body, attempt_source, error);
    if (!request) return json_error(res, 400, error);
    if (const SignIn in = sign_in(req, request->student, request->code, res); !in.ok)
      return json_error(res, in.status, in.message);
    if (const CheckTurn t = check_turn(request->student, res); !t.ok) return json_error(res, 429, t.message);
    std::string problem;
    const Outcome o = check(request->student, std::move(request->answers), problem);
    if (o.unsaved) {
      res.set_header("Retry-After", "60");
      return json_error(res, 503, unsaved_check);
    }
    if (!o.refused.empty()) return json_error(res, 403, o.refused);
    if (!o.checked) return json_error(res, 400, problem);
    res.set_header("X-Attnmark-Stored", o.stored                   ? std::string("yes")
                                        : !o.nothing_new.empty() ? "no (" + o.nothing_new + ")"
                                        : o.kept != Kept::stored ? not_kept_header(o.kept, settings.limits)
                                                                 : std::string("no (the class is closed)"));
    if (o.stored) res.set_header("X-Attnmark-Attempt", std::to_string(o.attempt));
    res.set_content(o.checked->feedback, "application/json");
  }

  void signin_page(HttpResponse& res, const Session& s, const std::string& message, const std::string& student) {
    res.set_content(signin_page_html({display_title(room.rubric()), s.csrf, message, student, s.style}), html_type);
  }

  void get_root(const HttpRequest& req, HttpResponse& res) {
    const Opened o = session(req, res);
    const Session& s = o.session;
    if (s.student.empty()) return signin_page(res, s, "", "");
    const std::vector<AttemptRecord> attempts = store.attempts_of(s.student);
    const StudentPage page = attempts.empty()
                                 ? student_page(room, rules_now(), s, attempts, {}, std::nullopt, "")
                                 : attempt_page(room, rules_now(), s, attempts, attempts.back(), "");
    res.set_content(student_page_html(page), html_type);
  }

  void get_attempt(const HttpRequest& req, HttpResponse& res) {
    const Opened o = session(req, res);
    const Session& s = o.session;
    if (s.student.empty()) return res.set_redirect("/", 303);
    const std::string wanted = req.query_value("n");
    const std::vector<AttemptRecord> attempts = store.attempts_of(s.student);
    for (const AttemptRecord& a : attempts) {
      if (std::to_string(a.id) != wanted) continue;
      return res.set_content(
          student_page_html(attempt_page(room, rules_now(), s, attempts, a, "Attempt of " + a.at + " (UTC)")), html_type);
    }
    res.status = 404;
    res.set_content(served_message_page(ServedMessage::no_such_attempt, s.style), html_type);
  }

  void post_signin(const HttpRequest& req, HttpResponse& res) {
    const Opened o = session(req, res);
    Session s = o.session;
    if (!form_from_session(field(req, "csrf"), s)) return forbidden(res, s);
    const std::string student = std::string(trim(field(req, "student")));
    if (const SignIn in = sign_in(req, student, field(req, "code"), res); !in.ok) {
      res.status = in.status;
      return signin_page(res, s, in.message, student);
    }
    // A new session id at sign-in: an id planted before it is worth nothing after.
    const std::string fresh = sessions.sign_in(o.id, student, s.style, now_seconds());
    res.headers.clear();  // the anonymous session's cookie, if one was set, is replaced
    res.set_header("Set-Cookie", set_cookie(session_cookie, fresh, "/", secure()));
    res.set_header("Set-Cookie", set_cookie(known_cookie, sign_ins.known_browser_cookie(student), "/", secure(), 31536000));
    res.set_redirect("/", 303);
  }

  void forbidden(HttpResponse& res, const Session& s) {
    res.status = 403;
    res.set_content(served_message_page(ServedMessage::form_expired, s.style), html_type);
  }

  void post_check(const HttpRequest& req, HttpResponse& res) {
    const Opened opened = session(req, res);
    const Session& s = opened.session;
    if (s.student.empty()) return res.set_redirect("/", 303);
    if (!form_from_session(field(req, "csrf"), s)) return forbidden(res, s);
    std::map<std::string, std::string> fields = answer_fields(req);
    if (const CheckTurn t = check_turn(s.student, res); !t.ok) {
      const std::vector<AttemptRecord> attempts = store.attempts_of(s.student);
      return res.set_content(
          student_page_html(student_page(room, rules_now(), s, attempts, std::move(fields), std::nullopt, t.message)),
          html_type);
    }
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
      if (!o.nothing_new.empty())
        notice = nothing_new_notice(o.nothing_new, settings.attempts.has_value());
      else if (!o.stored)
        notice = o.kept != Kept::stored ? not_kept_notice(o.kept, settings.limits) : "Checked, not kept: the class is closed.";
    }
    const std::vector<AttemptRecord> attempts = store.attempts_of(s.student);
    res.set_content(
        student_page_html(student_page(room, rules_now(), s, attempts, std::move(fields), std::move(shown), notice)),
        html_type);
  }

  void post_settings(const HttpRequest& req, HttpResponse& res) {
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
    res.set_header("Set-Cookie", set_cookie("attnmark_style", fmt::format("{}.{}", theme_name(s.style.theme), text_size_name(s.style.text_size)), "/",
                                        secure(), 31536000));
    res.set_redirect("/", 303);
  }

  void post_signout(const HttpRequest& req, HttpResponse& res) {
    const Opened o = session(req, res);
    if (!form_from_session(field(req, "csrf"), o.session)) return forbidden(res, o.session);
    sessions.forget(o.id);
    res.set_header("Set-Cookie", set_cookie(session_cookie, "", "/", secure(), 0));
    res.set_redirect("/", 303);
  }

  // ---- The teacher's pages ----

  bool teacher_or_refuse(const HttpRequest& req, HttpResponse& res) {
    if (teacher(req)) return true;
    res.status = 401;
    res.set_content(served_message_page(ServedMessage::teacher_token, settings.style), html_type);
    return false;
  }

  // The teacher's forms carry this token: a MAC of the teacher's token, so
  // a page of another site cannot post them.
  std::string teacher_csrf() const { return labelled_hmac_hex(teacher_token, "attnmark teacher form", "clear"); }

  // The teacher's page, reloading itself unless `paused` (the answer to a
  // form never does: a reload would send the form again).
  void teacher_page_into(HttpResponse& res, const std::string& cleared, bool paused) {
    TeacherPage page = teacher_page(room, store.all_attempts(), closed(), settings.score, settings.style, paused, &live_cache);
    page.limits = teacher_limits(check_rate, sign_ins, store.students_at_storage_cap(), store.database_bytes(),
                                 rules_of(settings), room.rubric().reveal_in_feedback, now_ms(), teacher_csrf(), cleared);
    if (!settings.tls && reach_of(http.bound_address()) != Reach::this_machine) page.warning = clear_text_warning;
    res.set_content(with_auto_refresh(teacher_page_html(page), paused), html_type);
  }

  void get_teacher(const HttpRequest& req, HttpResponse& res) {
    if (const std::string token = req.query_value("token"); !token.empty()) {
      if (!same_secret(sha256_hex(token), store.teacher_token_hash())) return (void)teacher_or_refuse(HttpRequest{}, res);
      // The token moves from the address into a cookie, so it does not stay in the address bar or history.
      res.set_header("Set-Cookie", set_cookie(teacher_cookie, token, "/teacher", secure()));
      return res.set_redirect("/teacher", 303);
    }
    if (!teacher_or_refuse(req, res)) return;
    teacher_page_into(res, "", req.query_value("pause") == "1");
  }

  // POST /teacher/clear: kind and key of one row of the limits section.
  void post_teacher_clear(const HttpRequest& req, HttpResponse& res) {
    if (!teacher_or_refuse(req, res)) return;
    if (!same_secret(field(req, "csrf"), teacher_csrf())) {
      res.status = 403;
      return res.set_content(served_message_page(ServedMessage::form_expired, settings.style), html_type);
    }
    std::string said;
    try {
      said = clear_limit(field(req, "kind"), field(req, "key"), check_rate, sign_ins, store, settings.limits);
    } catch (const Error& e) {
      res.status = 400;
      return res.set_content(served_notice_page("Not cleared", e.report(), settings.style), html_type);
    }
    tell_teacher(said);
    teacher_page_into(res, said, true);
  }

  void get_teacher_student(const HttpRequest& req, HttpResponse& res) {
    if (!teacher_or_refuse(req, res)) return;
    const std::string student = req.query_value("id");
    res.set_content(teacher_student_page_html(teacher_student_page(room, student, store.attempts_of(student), settings.style)),
                    html_type);
  }

  void get_teacher_summary(const HttpRequest& req, HttpResponse& res) {
    if (!teacher_or_refuse(req, res)) return;
    res.set_content(exported_summary(room, room.gradebook(store.all_attempts(), settings.score), settings.style), html_type);
  }

  // GET /teacher/radar[.csv]: the class's named mistakes (serve/live_view.h's radar_query_of reads the query).
  RadarPage radar(const HttpRequest& req) {
    return radar_page(room, store.all_attempts(), radar_query_of(room, req.query, now_seconds()), settings.style,
                      &live_cache);
  }
  void get_teacher_radar(const HttpRequest& req, HttpResponse& res) {
    if (!teacher_or_refuse(req, res)) return;
    res.set_content(radar_page_html(radar(req)), html_type);
  }
  void get_teacher_radar_csv(const HttpRequest& req, HttpResponse& res) {
    if (!teacher_or_refuse(req, res)) return;
    res.set_header("Content-Disposition", "attachment; filename=\"radar.csv\"");
    res.set_content(radar_csv(radar(req)), "text/csv; charset=utf-8");
  }

  void get_teacher_gradebook(const HttpRequest& req, HttpResponse& res) {
    if (!teacher_or_refuse(req, res)) return;
    res.set_header("Content-Disposition", "attachment; filename=\"gradebook.csv\"");
    res.set_content(exported_gradebook(room, room.gradebook(store.all_attempts(), settings.score)),
                    "text/csv; charset=utf-8");
  }

  void get_teacher_lms(const HttpRequest& req, HttpResponse& res, Lms lms) {
    if (!teacher_or_refuse(req, res)) return;
    const std::string csv = exported_lms(room, room.gradebook(store.all_attempts(), settings.score), lms);
    res.set_header("Content-Disposition", lms == Lms::canvas ? "attachment; filename=\"canvas.csv\""
                                                             : "attachment; filename=\"moodle.csv\"");
    res.set_content(csv, "text/csv; charset=utf-8");
  }

  // ---- Dispatch ----

  bool secure() const { return settings.tls != nullptr; }

  using Route = void (Impl::*)(const HttpRequest&, HttpResponse&);
  // What each method and path is answered by (HEAD as GET, without the body).
  Route route_of(const std::string& method, const std::string& path) {
    static const std::pair<const char*, Route> gets[] = {
        {"/", &Impl::get_root},
        {"/attempt", &Impl::get_attempt},
        {"/teacher", &Impl::get_teacher},
        {"/teacher/student", &Impl::get_teacher_student},
        {"/teacher/summary.html", &Impl::get_teacher_summary},
        {"/teacher/radar", &Impl::get_teacher_radar},
        {"/teacher/radar.csv", &Impl::get_teacher_radar_csv},
        {"/teacher/gradebook.csv", &Impl::get_teacher_gradebook},
        {"/teacher/canvas.csv", &Impl::get_teacher_canvas},
        {"/teacher/moodle.csv", &Impl::get_teacher_moodle},
    };
    static const std::pair<const char*, Route> posts[] = {
        {"/signin", &Impl::post_signin},     {"/check", &Impl::post_check},
        {"/settings", &Impl::post_settings}, {"/signout", &Impl::post_signout},
        {"/api/check", &Impl::api_check},    {"/teacher/clear", &Impl::post_teacher_clear},
    };
    if (method == "GET" || method == "HEAD") {
      for (const auto& [p, route] : gets)
        if (path == p) return route;
    } else if (method == "POST") {
      for (const auto& [p, route] : posts)
        if (path == p) return route;
    }
    return nullptr;
  }

  void get_teacher_canvas(const HttpRequest& req, HttpResponse& res) { get_teacher_lms(req, res, Lms::canvas); }
  void get_teacher_moodle(const HttpRequest& req, HttpResponse& res) { get_teacher_lms(req, res, Lms::moodle); }

  // Every whole request, on a worker of the HTTP server. A failure inside a
  // route: the teacher reads why on standard error; the student, a sentence
  // for them (JSON for the API, else a page).
  void handle(HttpRequest& req, HttpResponse& res) {
    const Route route = route_of(req.method, req.path);
    if (!route) return json_error(res, 404, "not found");
    std::string what;
    try {
      (this->*route)(req, res);
      return;
    } catch (const Error& e) {
      what = e.report();
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
      what = "an unknown exception";
    }
    tell_teacher(fmt::format("{} {} failed: {}", printable(req.method, 20), printable(req.path, 200), printable(what, 1000)));
    res = HttpResponse{};
    if (req.path.starts_with("/api/")) return json_error(res, 500, unanswered);
    res.status = 500;
    res.set_content(served_notice_page("Not answered", unanswered, settings.style), html_type);
  }

  // The server's own answers to requests it would not pass on.
  void error_page(int status, const std::string& reason, const std::string&, HttpResponse& res) {
    if (status == 413)
      json_error(res, 413, fmt::format("the request is larger than {} KiB", settings.max_body_bytes / 1024));
    else
      json_error(res, status, reason);
  }

  HttpServerOptions http_options() const {
    HttpServerOptions o;
    o.limits.body = settings.max_body_bytes;
    o.workers = settings.workers;
    o.tls = settings.tls;
    o.headers = {{"X-Content-Type-Options", "nosniff"},
                 {"X-Frame-Options", "DENY"},
                 {"Referrer-Policy", "no-referrer"},
                 {"Cache-Control", "no-store"},
                 {"Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src " +
                                                 served_script_source() +
                                                 "; form-action 'self'; frame-ancestors 'none'"}};
    // Browsers that once reached the class page over HTTPS keep to it for a year.
    if (settings.tls) o.headers.emplace_back("Strict-Transport-Security", "max-age=31536000");
    return o;
  }

  HttpServer http{http_options(), [this](HttpRequest& req, HttpResponse& res) { handle(req, res); },
                  [this](int status, const std::string& reason, const std::string& path, HttpResponse& res) {
                    error_page(status, reason, path, res);
                  }};
};

Server::Server(Store& store, const Classroom& room, ServeSettings settings, std::string teacher_token, std::ostream& log)
    : impl_(std::make_unique<Impl>(store, room, std::move(settings), std::move(teacher_token), log)) {}

Server::~Server() = default;

int Server::bind() {
  impl_->port = impl_->http.bind(impl_->settings.host, impl_->settings.port);
  return impl_->port;
}

std::string Server::address() const { return impl_->http.bound_address(); }

void Server::run() { impl_->http.run(); }

void Server::stop() { impl_->http.stop(); }

}  // namespace attnmark
