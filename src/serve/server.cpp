#include "serve/server.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <charconv>
#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>

#include "base/error.h"
#include "base/text.h"
#include "lesson/variant.h"
#include "marking/summary.h"
#include "serve/codes.h"
#include "writers/feedback.h"
#include "writers/gradebook.h"
#include "writers/html_page.h"
#include "writers/html_writer.h"
#include "writers/lms_export.h"
#include "writers/report_words.h"
#include "writers/sheet_document.h"

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

// The value of cookie `name` in the request's Cookie header, or "".
std::string cookie(const httplib::Request& req, const std::string& name) {
  const std::string header = req.get_header_value("Cookie");
  std::size_t at = 0;
  while (at < header.size()) {
    std::size_t end = header.find(';', at);
    if (end == std::string::npos) end = header.size();
    const std::string_view pair = trim(std::string_view(header).substr(at, end - at));
    if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
      return std::string(pair.substr(name.size() + 1));
    at = end + 1;
  }
  return {};
}

std::string set_cookie(const char* name, const std::string& value, const char* path) {
  return fmt::format("{}={}; Path={}; HttpOnly; SameSite=Strict", name, value, path);
}

// A form field, from a urlencoded body or a multipart one.
std::string field(const httplib::Request& req, const std::string& name) {
  if (req.has_param(name.c_str())) return req.get_param_value(name.c_str());
  if (req.has_file(name.c_str())) return req.get_file_value(name.c_str()).content;
  return {};
}

// Every answer field a form sent: name → value.
std::map<std::string, std::string> answer_fields(const httplib::Request& req) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : req.params)
    if (name.find('.') != std::string::npos) out[name] = value;
  for (const auto& [name, file] : req.files)
    if (name.find('.') != std::string::npos) out[name] = file.content;
  return out;
}

void json_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(nlohmann::json{{"error", message}}.dump() + "\n", "application/json");
}

// Failed sign-ins counted per key (a student id, an address) in a window.
class FailureLimiter {
 public:
  FailureLimiter(int limit, int window_seconds) : limit_(limit), window_(window_seconds) {}
  bool blocked(const std::string& key) {
    std::lock_guard lock(mutex_);
    const auto it = counts_.find(key);
    if (it == counts_.end()) return false;
    if (now_seconds() - it->second.first >= window_) {
      counts_.erase(it);
      return false;
    }
    return it->second.second >= limit_;
  }
  void fail(const std::string& key) {
    std::lock_guard lock(mutex_);
    if (counts_.size() > 100000) {  // forget expired entries, so junk ids cannot grow the table forever
      const std::int64_t now = now_seconds();
      std::erase_if(counts_, [&](const auto& e) { return now - e.second.first >= window_; });
    }
    auto& entry = counts_[key];
    if (entry.second == 0 || now_seconds() - entry.first >= window_) entry = {now_seconds(), 0};
    ++entry.second;
  }

 private:
  int limit_, window_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::pair<std::int64_t, int>> counts_;  // key → (window start, failures)
};

// cpp-httplib 0.11 listens with a backlog of 5 connections: a class
// connecting at once overflows it, and the connections dropped wait a second
// or fail. Linux lets listen() be called again on a listening socket to set a
// longer backlog; the socket is a protected member, hence the subclass.
class HttpServer : public httplib::Server {
 public:
  void lengthen_backlog() { ::listen(svr_sock_, SOMAXCONN); }
  // The numeric address the socket is bound to, or "" when it is not.
  std::string bound_address() const {
    sockaddr_storage address{};
    socklen_t size = sizeof address;
    if (getsockname(svr_sock_, reinterpret_cast<sockaddr*>(&address), &size) != 0) return {};
    char text[INET6_ADDRSTRLEN] = "";
    if (address.ss_family == AF_INET)
      inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&address)->sin_addr, text, sizeof text);
    else if (address.ss_family == AF_INET6)
      inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&address)->sin6_addr, text, sizeof text);
    return text;
  }
};

struct Session {
  std::string student;  // empty until signed in
  std::string csrf;
  HtmlStyle style;
  std::int64_t used = 0;
};

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

struct Server::Impl {
  Store& store;
  const Classroom& room;
  ServeSettings settings;
  std::string teacher_token;
  std::ostream& log;
  std::mutex log_mutex;
  HttpServer http;
  int port = 0;

  std::mutex sessions_mutex;
  std::unordered_map<std::string, Session> sessions;  // by random id
  FailureLimiter per_id, per_address;

  Impl(Store& s, const Classroom& r, ServeSettings st, std::string token, std::ostream& l)
      : store(s),
        room(r),
        settings(std::move(st)),
        teacher_token(std::move(token)),
        log(l),
        per_id(settings.failures_per_id, settings.failure_window_seconds),
        per_address(settings.failures_per_address, settings.failure_window_seconds) {}

  // One line to the teacher's standard error, whole however many threads tell.
  void tell_teacher(const std::string& line) {
    std::lock_guard lock(log_mutex);
    log << "attnmark serve: " << utc_text(now_seconds()) << ": " << line << "\n";
    log.flush();
  }

  bool closed() const { return settings.close_at && now_seconds() >= *settings.close_at; }
  bool reveal() const {
    return room.rubric().reveal_in_feedback && (!settings.reveal_after || now_seconds() >= *settings.reveal_after);
  }
  std::optional<std::int64_t> attempts_left(const std::string& student) {
    if (!settings.attempts) return std::nullopt;
    return std::max<std::int64_t>(0, *settings.attempts - store.attempt_count_of(student));
  }

  // ---- Sessions ----

  // The request's session, or a new anonymous one (its cookie set on `res`).
  Session session(const httplib::Request& req, httplib::Response& res, std::string& id) {
    id = cookie(req, session_cookie);
    std::lock_guard lock(sessions_mutex);
    const std::int64_t now = now_seconds();
    if (auto it = sessions.find(id); !id.empty() && it != sessions.end() && now - it->second.used < 12 * 3600) {
      it->second.used = now;
      return it->second;
    }
    // A flood of visitors cannot grow the table without bound: past 200,000
    // sessions the idle ones go, then, if that is not enough, every one not
    // signed in (a student's page in the middle of a class is kept).
    if (sessions.size() > 200000) {
      std::erase_if(sessions, [&](const auto& e) { return now - e.second.used >= 3600; });
      if (sessions.size() > 200000) std::erase_if(sessions, [](const auto& e) { return e.second.student.empty(); });
    }
    id = random_hex(32);
    Session fresh{"", random_hex(32), remembered_style(req), now};
    sessions[id] = fresh;
    res.set_header("Set-Cookie", set_cookie(session_cookie, id, "/"));
    return fresh;
  }
  // The theme and text size a browser chose before (its attnmark_style
  // cookie, "cream.large"), else the class's.
  HtmlStyle remembered_style(const httplib::Request& req) const {
    const std::string chosen = cookie(req, "attnmark_style");
    const std::size_t dot = chosen.find('.');
    if (dot == std::string::npos) return settings.style;
    try {
      return html_style(chosen.substr(0, dot), chosen.substr(dot + 1));
    } catch (const Error&) {
      return settings.style;
    }
  }

  void save(const std::string& id, const Session& s) {
    std::lock_guard lock(sessions_mutex);
    sessions[id] = s;
  }
  void forget(const std::string& id) {
    std::lock_guard lock(sessions_mutex);
    sessions.erase(id);
  }
  // Whether the form's CSRF token is the session's.
  static bool csrf_ok(const httplib::Request& req, const Session& s) {
    const std::string sent = field(req, "csrf");
    return !sent.empty() && same_secret(sent, s.csrf);
  }

  bool teacher(const httplib::Request& req) {
    const std::string auth = req.get_header_value("Authorization");
    std::string token = auth.starts_with("Bearer ") ? auth.substr(7) : cookie(req, teacher_cookie);
    return !token.empty() && same_secret(sha256_hex(token), store.teacher_token_hash());
  }

  // ---- Sign-in ----

  // Checks a student's code, rate limited. Returns "" when signed in, else
  // the HTTP status to answer with (401 or 429) in `status` and a message.
  // An id past its failures is refused even with its right code: that is what
  // stops guessing one student's code. An address past its failures is
  // refused only wrong codes: behind a school's NAT or a proxy a whole class
  // is one address, and others' typos must not keep a student out.
  std::string sign_in(const std::string& student, const std::string& code, const std::string& address, int& status) {
    const char* too_many = "too many failed sign-ins; wait a few minutes and try again";
    // Counted by at most 200 bytes of the id: a 60 KB id costs the table no more than a short one.
    const std::string id_key = "id:" + student.substr(0, 200);
    const std::string address_key = "addr:" + address;
    if (per_id.blocked(id_key)) {
      status = 429;
      return too_many;
    }
    const RosterEntry* entry = room.find(student);
    // The code is compared even for an id not on the roster, so the time taken says nothing of the roster.
    const bool ok = codes_match(room.code_of(student), code) && entry;
    if (ok) return {};
    // Counted while the address is held too, so its id's limit still holds.
    per_id.fail(id_key);
    const bool address_held = per_address.blocked(address_key);
    per_address.fail(address_key);
    status = address_held ? 429 : 401;
    return address_held ? too_many : "wrong student id or access code";
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
  Outcome check(const std::string& student, const std::string& answers_json, std::string& problem) {
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
    o.checked = room.check(student, answers_json, problem);
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
    if (const std::string problem = encoding_problem(req.body, "request body"); !problem.empty())
      return json_error(res, 400, problem);
    const nlohmann::json body = nlohmann::json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object())
      return json_error(res, 400, "expected a JSON object: {\"student\": ID, \"code\": CODE, \"answers\": {...}}");
    const auto text_of = [&](const char* key) -> const std::string* {
      const auto it = body.find(key);
      return it != body.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
    };
    const std::string* student = text_of("student");
    const std::string* code = text_of("code");
    if (!student) return json_error(res, 400, "\"student\": expected your student id as a string");
    if (!code) return json_error(res, 400, "\"code\": expected your access code as a string");
    const auto answers = body.find("answers");
    if (answers == body.end() || !answers->is_object())
      return json_error(res, 400, "\"answers\": expected an object of questions, as in your answer file");
    int status = 0;
    if (const std::string why = sign_in(*student, *code, req.remote_addr, status); !why.empty())
      return json_error(res, status, why);
    std::string problem;
    const Outcome o = check(*student, answers->dump(), problem);
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

  std::string page(const std::string& title, const HtmlStyle& style, const std::string& body) {
    return html_page(title, style, sheet_css() + sheet_form_css() + report_css() + serve_css(), "<main>\n" + body + "</main>\n");
  }
  static std::string serve_css() {
    return ".bar{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:center;margin:.5em 0}\n"
           "form.inline{display:inline}\n"
           "button{font:inherit;padding:.3em 1em}\n"
           ".notice{border:var(--line) solid var(--rule);padding:.4em .8em;background:var(--panel)}\n";
  }

  std::string signin_page(const Session& s, const std::string& message, const std::string& student) {
    std::string body = fmt::format("<h1>{}</h1>\n", html_escape(display_title(room.rubric())));
    body += "<p>Sign in with your student id and the access code your teacher gave you.</p>\n";
    if (!message.empty()) body += "<p class=\"notice bad\" role=\"alert\">" + html_escape(message) + "</p>\n";
    body += "<form method=\"post\" action=\"/signin\">\n";
    body += "<input type=\"hidden\" name=\"csrf\" value=\"" + html_escape(s.csrf) + "\">\n";
    body += "<p><label>Student id <input name=\"student\" autocomplete=\"username\" value=\"" + html_escape(student) +
            "\"></label></p>\n";
    body += "<p><label>Access code <input name=\"code\" autocomplete=\"current-password\"></label></p>\n";
    body += "<p><button type=\"submit\">Sign in</button></p>\n</form>\n";
    return page("Sign in: " + display_title(room.rubric()), s.style, body);
  }

  // The student's page: their worksheet to fill in, the feedback of `shown`
  // (the check just made, or their last attempt) and their attempts.
  std::string student_page(const Session& s, const std::map<std::string, std::string>& values,
                           const GradedSubmission* shown, const std::string& notice) {
    const Rubric& rubric = room.rubric();
    const RosterEntry* entry = room.find(s.student);
    const Variant variant = make_variant(rubric, room.seed(), s.student);
    const SheetDocument doc = sheet_document(rubric, variant, Sheet::worksheet);
    const bool reveal_now = reveal();
    SheetForm form;
    form.values = values;
    if (shown && shown->marked) marks_into(form, doc, *shown, reveal_now);

    std::string body = fmt::format("<h1>{}</h1>\n", html_escape(doc.title));
    body += "<div class=\"bar\">";
    body += fmt::format("<span>Signed in as <b>{}</b>{}</span>", html_escape(s.student),
                        entry && !entry->name.empty() ? " (" + html_escape(entry->name) + ")" : "");
    body += "<form class=\"inline\" method=\"post\" action=\"/signout\"><input type=\"hidden\" name=\"csrf\" value=\"" +
            html_escape(s.csrf) + "\"><button type=\"submit\">Sign out</button></form>";
    body += "<form class=\"inline\" method=\"post\" action=\"/settings\"><input type=\"hidden\" name=\"csrf\" value=\"" +
            html_escape(s.csrf) + "\"><label>Colours <select name=\"theme\">";
    for (const char* t : {"default", "cream", "tint", "high-contrast"})
      body += fmt::format("<option{}>{}</option>", theme_name(s.style.theme) == std::string(t) ? " selected" : "", t);
    body += "</select></label> <label>Text <select name=\"text_size\">";
    for (const char* t : {"normal", "large", "x-large"})
      body += fmt::format("<option{}>{}</option>", text_size_name(s.style.text_size) == std::string(t) ? " selected" : "",
                          t);
    body += "</select></label> <button type=\"submit\">Apply</button></form>";
    body += "</div>\n";
    body += fmt::format("<p class=\"meta muted\">Variant {} · Rubric {}</p>\n", html_escape(doc.variant),
                        html_escape(doc.rubric));
    if (!notice.empty()) body += "<p class=\"notice\" role=\"status\">" + html_escape(notice) + "</p>\n";
    if (closed()) body += "<p class=\"notice\">The class is closed: checks are shown but not kept.</p>\n";
    if (const auto left = attempts_left(s.student))
      body += fmt::format("<p class=\"notice\">Attempts left: {}.</p>\n", *left);
    body += "<form method=\"post\" action=\"/check\" enctype=\"multipart/form-data\">\n";
    body += "<input type=\"hidden\" name=\"csrf\" value=\"" + html_escape(s.csrf) + "\">\n";
    body += sheet_form_questions(doc, form);
    body += "<p><button type=\"submit\" id=\"check\">Check</button></p>\n</form>\n";
    if (shown) body += "<section class=\"feedback\">\n" + feedback_article(rubric, *shown, reveal_now) + "</section>\n";
    const std::vector<AttemptRecord> attempts = store.attempts_of(s.student);
    body += "<h2>Your attempts</h2>\n";
    if (attempts.empty()) {
      body += "<p>None yet.</p>\n";
    } else {
      body += "<table><thead><tr><th scope=\"col\">Attempt</th><th scope=\"col\">When (UTC)</th><th "
              "scope=\"col\">Score</th></tr></thead>\n<tbody>\n";
      for (std::size_t i = attempts.size(); i-- > 0;)
        body += fmt::format("<tr><td><a href=\"/attempt?n={}\">{}</a></td><td>{}</td><td>{} / {}</td></tr>\n",
                            attempts[i].id, i + 1, html_escape(attempts[i].at), score_text(attempts[i].score),
                            score_text(attempts[i].max_score));
      body += "</tbody></table>\n";
    }
    return page(doc.title + ": " + s.student, s.style, body);
  }

  // The verdict of each answer cell beside its input.
  static void marks_into(SheetForm& form, const SheetDocument& doc, const GradedSubmission& g, bool reveal_now) {
    for (const QuestionResult& q : g.marked->questions) {
      const QuestionSection* section = nullptr;
      for (const QuestionSection& qs : doc.questions)
        if (qs.id == q.id) section = &qs;
      if (!section) continue;
      for (const PartResult& p : q.parts) {
        // The part's columns: one more than the largest column of its cells on the sheet.
        std::size_t columns = 0;
        for (const PartSection& ps : section->parts) {
          if (ps.part != p.part) continue;
          for (const SheetBlock& b : ps.blocks) {
            for (const auto& row : b.table.rows)
              for (const SheetCell& c : row)
                for (const SheetCell::Address& a : c.answers) columns = std::max(columns, a.column + 1);
            for (const Span& span : b.text) columns = std::max<std::size_t>(columns, span.answer ? 1 : 0);
          }
        }
        if (columns == 0) continue;
        for (std::size_t i = 0; i < p.cells.size(); ++i) {
          const CellResult& c = p.cells[i];
          const VerdictLook& v = verdict_look(c.verdict);
          std::string mark = fmt::format("<span class=\"{}\" title=\"{}\">{}</span>", v.css, v.word, v.symbol);
          if (reveal_now) mark += " <span class=\"muted\">" + html_escape(c.expected) + "</span>";
          form.marks[answer_field_name(q.id, part_name(p.part), i / columns, i % columns)] = mark;
        }
      }
    }
  }

  // The answers object of an answer file from a form's fields
  // ("q1.weights.1.2" → answers.q1.weights[0][1]); fields that are not
  // cells of this sheet are left out.
  static std::string answers_from_fields(const std::map<std::string, std::string>& fields) {
    nlohmann::json answers = nlohmann::json::object();
    for (const auto& [name, value] : fields) {
      // question.part.row.column, row and column 1 to 100.
      const std::size_t a = name.find('.'), b = name.find('.', a + 1), c = name.find('.', b + 1);
      if (a == std::string::npos || b == std::string::npos || c == std::string::npos) continue;
      std::size_t row = 0, column = 0;
      const auto [r_end, r_ec] = std::from_chars(name.data() + b + 1, name.data() + c, row);
      const auto [c_end, c_ec] = std::from_chars(name.data() + c + 1, name.data() + name.size(), column);
      if (r_ec != std::errc() || c_ec != std::errc() || r_end != name.data() + c || c_end != name.data() + name.size() ||
          row < 1 || column < 1 || row > 100 || column > 100)
        continue;
      if (!encoding_problem(value, "cell").empty() || !encoding_problem(name, "field").empty()) continue;
      nlohmann::json& rows = answers[name.substr(0, a)][name.substr(a + 1, b - a - 1)];
      if (!rows.is_array()) rows = nlohmann::json::array();
      while (rows.size() < row) rows.push_back(nlohmann::json::array());
      nlohmann::json& cells = rows[row - 1];
      while (cells.size() < column) cells.push_back(nullptr);
      cells[column - 1] = std::string(trim(value));
    }
    return answers.dump();
  }

  // The fields of a stored attempt's answers, to fill the form again: a
  // part is one cell, one row (a list) or rows (a list of lists), as in an
  // answer file.
  static std::map<std::string, std::string> fields_of(const std::string& answer_file) {
    std::map<std::string, std::string> out;
    const nlohmann::json j = nlohmann::json::parse(answer_file, nullptr, false);
    if (j.is_discarded() || !j.contains("answers") || !j["answers"].is_object()) return out;
    const auto text = [](const nlohmann::json& cell) {
      return cell.is_string() ? cell.get<std::string>() : cell.is_null() ? std::string() : cell.dump();
    };
    for (const auto& [q, parts] : j["answers"].items()) {
      if (!parts.is_object()) continue;
      for (const auto& [p, value] : parts.items()) {
        if (!value.is_array()) {
          out[answer_field_name(q, p, 0, 0)] = text(value);
          continue;
        }
        for (std::size_t r = 0; r < value.size(); ++r) {
          if (!value[r].is_array()) {
            out[answer_field_name(q, p, 0, r)] = text(value[r]);
            continue;
          }
          for (std::size_t c = 0; c < value[r].size(); ++c) out[answer_field_name(q, p, r, c)] = text(value[r][c]);
        }
      }
    }
    return out;
  }

  void get_root(const httplib::Request& req, httplib::Response& res) {
    std::string id;
    const Session s = session(req, res, id);
    if (s.student.empty()) return res.set_content(signin_page(s, "", ""), "text/html; charset=utf-8");
    const std::vector<AttemptRecord> attempts = store.attempts_of(s.student);
    if (attempts.empty()) return res.set_content(student_page(s, {}, nullptr, ""), "text/html; charset=utf-8");
    const GradedSubmission last = room.judge_stored(attempts.back());
    res.set_content(student_page(s, fields_of(attempts.back().answers), &last, ""), "text/html; charset=utf-8");
  }

  void get_attempt(const httplib::Request& req, httplib::Response& res) {
    std::string id;
    const Session s = session(req, res, id);
    if (s.student.empty()) return res.set_redirect("/", 303);
    const std::string wanted = req.get_param_value("n");
    for (const AttemptRecord& a : store.attempts_of(s.student)) {
      if (std::to_string(a.id) != wanted) continue;
      const GradedSubmission g = room.judge_stored(a);
      return res.set_content(student_page(s, fields_of(a.answers), &g, "Attempt of " + a.at + " (UTC)"),
                             "text/html; charset=utf-8");
    }
    res.status = 404;
    res.set_content(page("Not found", s.style, "<p>No such attempt of yours.</p>\n"), "text/html; charset=utf-8");
  }

  void post_signin(const httplib::Request& req, httplib::Response& res) {
    std::string id;
    Session s = session(req, res, id);
    if (!csrf_ok(req, s)) return forbidden(res, s);
    const std::string student = std::string(trim(field(req, "student")));
    int status = 0;
    if (const std::string why = sign_in(student, field(req, "code"), req.remote_addr, status); !why.empty()) {
      res.status = status;
      return res.set_content(signin_page(s, why, student), "text/html; charset=utf-8");
    }
    // A new session id at sign-in: an id planted before it is worth nothing after.
    forget(id);
    const std::string fresh = random_hex(32);
    s.student = student;
    s.csrf = random_hex(32);
    save(fresh, s);
    res.set_header("Set-Cookie", set_cookie(session_cookie, fresh, "/"));
    res.set_redirect("/", 303);
  }

  void forbidden(httplib::Response& res, const Session& s) {
    res.status = 403;
    res.set_content(page("Form expired", s.style,
                         "<p class=\"notice\">This form has expired or did not come from this page. "
                         "<a href=\"/\">Open the page again</a> and send it from there.</p>\n"),
                    "text/html; charset=utf-8");
  }

  void post_check(const httplib::Request& req, httplib::Response& res) {
    std::string id;
    const Session s = session(req, res, id);
    if (s.student.empty()) return res.set_redirect("/", 303);
    if (!csrf_ok(req, s)) return forbidden(res, s);
    const std::map<std::string, std::string> fields = answer_fields(req);
    std::string problem;
    const Outcome o = check(s.student, answers_from_fields(fields), problem);
    if (o.unsaved) {
      res.status = 503;
      res.set_header("Retry-After", "60");
      return res.set_content(student_page(s, fields, nullptr, unsaved_check), "text/html; charset=utf-8");
    }
    if (!o.checked) {
      res.status = o.refused.empty() ? 400 : 403;
      return res.set_content(student_page(s, fields, nullptr, o.refused.empty() ? problem : o.refused),
                             "text/html; charset=utf-8");
    }
    res.set_content(student_page(s, fields, &o.checked->graded, o.stored ? "" : "Checked, not kept: the class is closed."),
                    "text/html; charset=utf-8");
  }

  void post_settings(const httplib::Request& req, httplib::Response& res) {
    std::string id;
    Session s = session(req, res, id);
    if (!csrf_ok(req, s)) return forbidden(res, s);
    try {
      s.style = html_style(field(req, "theme"), field(req, "text_size"));
    } catch (const Error&) {
      res.status = 400;
      return res.set_content(page("Settings", s.style, "<p>Unknown colours or text size.</p>\n"), "text/html; charset=utf-8");
    }
    save(id, s);
    // Remembered by the browser for a year, across sign-ins.
    res.set_header("Set-Cookie", fmt::format("attnmark_style={}.{}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict",
                                             theme_name(s.style.theme), text_size_name(s.style.text_size)));
    res.set_redirect("/", 303);
  }

  void post_signout(const httplib::Request& req, httplib::Response& res) {
    std::string id;
    const Session s = session(req, res, id);
    if (!csrf_ok(req, s)) return forbidden(res, s);
    forget(id);
    res.set_header("Set-Cookie", fmt::format("{}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0", session_cookie));
    res.set_redirect("/", 303);
  }

  // ---- The teacher's page ----

  bool teacher_or_refuse(const httplib::Request& req, httplib::Response& res) {
    if (teacher(req)) return true;
    res.status = 401;
    res.set_content(page("Teacher", settings.style,
                         "<p>Open the teacher's address that attnmark serve printed when it started "
                         "(it ends in ?token=...).</p>\n"),
                    "text/html; charset=utf-8");
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
    const std::vector<AttemptRecord> attempts = store.all_attempts();
    std::map<std::string, std::pair<std::size_t, double>> per_student;  // attempts, best score
    for (const AttemptRecord& a : attempts) {
      auto& e = per_student[a.student];
      e.second = e.first == 0 ? a.score : std::max(e.second, a.score);
      ++e.first;
    }
    std::string body = fmt::format("<h1>{}: the class</h1>\n", html_escape(display_title(room.rubric())));
    body += fmt::format("<p>{} attempts by {} of {} students{}. <a href=\"/teacher/summary.html\">Class summary</a> · "
                        "<a href=\"/teacher/gradebook.csv\">gradebook.csv</a> ({} attempt of each student) · "
                        "<a href=\"/teacher/canvas.csv\">canvas.csv</a> · <a href=\"/teacher/moodle.csv\">moodle.csv</a></p>\n",
                        attempts.size(), per_student.size(), room.roster().size(), closed() ? "; closed" : "",
                        settings.score == ScoreRule::best ? "best" : "last");
    body += "<table><thead><tr><th scope=\"col\">Student</th><th scope=\"col\">Name</th><th scope=\"col\">Attempts</th>"
            "<th scope=\"col\">Best</th></tr></thead>\n<tbody>\n";
    for (const RosterEntry& e : room.roster()) {
      const auto it = per_student.find(e.student);
      body += fmt::format("<tr><td><a href=\"/teacher/student?id={}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                          html_escape(httplib::detail::encode_query_param(e.student)), html_escape(e.student),
                          html_escape(e.name), it == per_student.end() ? 0 : it->second.first,
                          it == per_student.end() ? "–" : score_text(it->second.second));
    }
    body += "</tbody></table>\n";
    res.set_content(page("Teacher: " + display_title(room.rubric()), settings.style, body), "text/html; charset=utf-8");
  }

  void get_teacher_student(const httplib::Request& req, httplib::Response& res) {
    if (!teacher_or_refuse(req, res)) return;
    const std::string student = req.get_param_value("id");
    std::string body = fmt::format("<h1>{}</h1>\n<p><a href=\"/teacher\">The class</a></p>\n", html_escape(student));
    const std::vector<AttemptRecord> attempts = store.attempts_of(student);
    if (attempts.empty()) body += "<p>No attempts.</p>\n";
    for (std::size_t i = attempts.size(); i-- > 0;) {
      const GradedSubmission g = room.judge_stored(attempts[i]);
      body += fmt::format("<section><h2>Attempt {} · {} · {} / {}</h2>\n", i + 1, html_escape(attempts[i].at),
                          score_text(attempts[i].score), score_text(attempts[i].max_score));
      body += feedback_article(room.rubric(), g, true) + "</section>\n";
    }
    res.set_content(page("Teacher: " + student, settings.style, body), "text/html; charset=utf-8");
  }

  void get_teacher_summary(const httplib::Request& req, httplib::Response& res) {
    if (!teacher_or_refuse(req, res)) return;
    ClassSummary summary(room.rubric());
    for (const GradedSubmission& g : room.gradebook(store.all_attempts(), settings.score)) summary.add(g);
    res.set_content(summary_html(room.rubric(), summary, settings.style), "text/html; charset=utf-8");
  }

  void get_teacher_gradebook(const httplib::Request& req, httplib::Response& res) {
    if (!teacher_or_refuse(req, res)) return;
    std::string csv = gradebook_header(room.rubric());
    for (const GradedSubmission& g : room.gradebook(store.all_attempts(), settings.score))
      append_gradebook_row(csv, room.rubric(), g);
    res.set_header("Content-Disposition", "attachment; filename=\"gradebook.csv\"");
    res.set_content(csv, "text/csv; charset=utf-8");
  }

  // canvas.csv and moodle.csv of each student's counted attempt.
  void get_teacher_lms(const httplib::Request& req, httplib::Response& res, bool canvas) {
    if (!teacher_or_refuse(req, res)) return;
    std::vector<LmsRow> rows;
    const std::vector<GradedSubmission> graded = room.gradebook(store.all_attempts(), settings.score);
    for (std::size_t i = 0; i < graded.size(); ++i) {
      const GradedSubmission& g = graded[i];
      rows.push_back({g.student, g.name, g.marked ? std::optional<double>(g.marked->score) : std::nullopt,
                      lms_feedback(room.rubric(), g), room.roster()[i].fields});
    }
    const std::string& title = display_title(room.rubric());
    res.set_header("Content-Disposition", canvas ? "attachment; filename=\"canvas.csv\"" : "attachment; filename=\"moodle.csv\"");
    res.set_content(canvas ? canvas_csv(rows, title, "", max_score(room.rubric())) : moodle_csv(rows, title),
                    "text/csv; charset=utf-8");
  }

  // ---- Request bodies ----

  void not_found(const httplib::Request&, httplib::Response& res) { res.status = 404; }

  // A route whose body is read by read_body before `handler` runs. Every
  // request with a body goes through it, never through cpp-httplib's own
  // reading: Debian's libcpp-httplib is compiled with a cap of 8 KiB on a
  // form-encoded body (CPPHTTPLIB_FORM_URL_ENCODED_PAYLOAD_MAX_LENGTH, which
  // no define here can change) and none on a chunked one. Read here, every
  // body has one limit, settings.max_body_bytes, whatever its Content-Type.
  httplib::Server::HandlerWithContentReader with_body(void (Impl::*handler)(const httplib::Request&, httplib::Response&)) {
    return [this, handler](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
      httplib::Request full = req;
      if (read_body(full, res, reader)) (this->*handler)(full, res);
    };
  }

  // Reads the body into req (body, and params or files as cpp-httplib would
  // fill them). False, with res.status 413 or 400, when it is too large or
  // malformed.
  bool read_body(httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    const std::size_t max = settings.max_body_bytes;
    std::size_t size = 0;
    bool over = false;
    // Past the limit the rest is read and dropped, as cpp-httplib drops a body
    // whose Content-Length is too large: the connection's next request then
    // starts where it should.
    const auto keep = [&](std::string* into, const char* data, std::size_t n) {
      size += n;
      over = over || size > max;
      if (!over && into) into->append(data, n);
      return true;
    };
    bool read = false;
    if (req.is_multipart_form_data()) {
      std::string* part = nullptr;
      read = reader(
          [&](const httplib::MultipartFormData& file) {
            // A part costs its names too, so no flood of empty parts grows the table.
            size += 1 + file.name.size() + file.filename.size() + file.content_type.size();
            over = over || size > max;
            part = over ? nullptr : &req.files.emplace(file.name, file)->second.content;
            return true;
          },
          [&](const char* data, std::size_t n) { return keep(part, data, n); });
    } else {
      read = reader([&](const char* data, std::size_t n) { return keep(&req.body, data, n); });
    }
    if (over || res.status == 413) {
      res.status = 413;
      return false;
    }
    if (!read) {
      res.status = 400;
      return false;
    }
    if (req.get_header_value("Content-Type").starts_with("application/x-www-form-urlencoded"))
      httplib::detail::parse_query_text(req.body, req.params);
    return true;
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
      res.set_content(page("Not answered", settings.style, std::string("<p class=\"notice\">") + unanswered + "</p>\n"),
                      "text/html; charset=utf-8");
    });
    http.set_error_handler([this](const httplib::Request&, httplib::Response& res) {
      if (!res.body.empty()) return;
      if (res.status == 413)
        res.set_content(nlohmann::json{{"error", fmt::format("the request is larger than {} KiB", settings.max_body_bytes / 1024)}}
                                .dump() + "\n",
                        "application/json");
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
    http.Get("/teacher/canvas.csv", [this](const auto& req, auto& res) { get_teacher_lms(req, res, true); });
    http.Get("/teacher/moodle.csv", [this](const auto& req, auto& res) { get_teacher_lms(req, res, false); });
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
