#include "writers/served_pages.h"

#include <algorithm>
#include <fmt/format.h>

#include "attnmark/lesson/cell_names.h"
#include "base/crypto.h"
#include "writers/feedback_view.h"
#include "writers/feedback.h"
#include "writers/html_page.h"
#include "writers/html_writer.h"
#include "writers/report_words.h"
#include "writers/sheet_document.h"

namespace attnmark {
namespace {

// The CSS the served pages add to a sheet's and a report's.
std::string serve_css() {
  return ".bar{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:center;margin:.5em 0}\n"
         "form.inline{display:inline}\n"
         "select,input,button{font:inherit}\n"
         "button{padding:.3em 1em}\n"
         ".summary{margin:.5em 0 1em}\n"
         ".summary h2{margin:.1em 0 .3em}\n"
         ".summary ul{margin:.2em 0;padding-left:1.2em}\n"
         ".notice{border:var(--line) solid var(--rule);padding:.4em .8em;background:var(--panel)}\n";
}

// Every served page: `body` (HTML) in <main>, styled as sheets, their forms and reports are.
std::string page(std::string_view title, const HtmlStyle& style, const std::string& body) {
  return html_page(title, style, sheet_css() + sheet_form_css() + report_css() + serve_css(), "<main>\n" + body + "</main>\n");
}

std::string csrf_input(const std::string& csrf) {
  return "<input type=\"hidden\" name=\"csrf\" value=\"" + html_escape(csrf) + "\">";
}

// The verdict of each answer cell of `g`, by field name, to stand beside its
// input; with `reveal`, the right answer after it.
std::map<std::string, CellMark> marks_of(const SheetDocument& doc, const GradedSubmission& g, bool reveal) {
  std::map<std::string, CellMark> marks;
  for (const QuestionResult& q : g.marked->questions) {
    const QuestionSection* section = nullptr;
    for (const QuestionSection& qs : doc.questions)
      if (qs.id == q.id) section = &qs;
    if (!section) continue;
    for (const PartResult& p : q.parts) {
      // Only a part the sheet asks for has inputs to stand beside.
      bool on_sheet = false;
      for (const PartSection& ps : section->parts)
        if (ps.part == p.part)
          for (const SheetBlock& b : ps.blocks) {
            for (const auto& row : b.table.rows)
              for (const SheetCell& c : row) on_sheet = on_sheet || !c.answers.empty();
            for (const Span& span : b.text) on_sheet = on_sheet || span.answer;
          }
      if (!on_sheet) continue;
      for (const CellResult& c : p.cells) {
        const VerdictLook& v = verdict_look(c.verdict);
        const bool invalid = c.verdict == Verdict::wrong || c.verdict == Verdict::unreadable || c.verdict == Verdict::imprecise;
        const CellPosition at = answer_place(c.label);
        marks[answer_field_name(q.id, part_name(p.part), at.row, at.column)] =
            CellMark{v.word, invalid, v.symbol, v.css, reveal ? "answer " + c.expected : std::string()};
      }
    }
  }
  return marks;
}

// The colours and text chooser, on every page that has a session's form token.
std::string style_form(const std::string& csrf, const HtmlStyle& style) {
  std::string out = "<form class=\"inline\" method=\"post\" action=\"/settings\">" + csrf_input(csrf) +
                    "<label>Colours <select name=\"theme\">";
  for (const char* t : {"default", "cream", "tint", "high-contrast"})
    out += fmt::format("<option{}>{}</option>", theme_name(style.theme) == std::string(t) ? " selected" : "", t);
  out += "</select></label> <label>Text <select name=\"text_size\">";
  for (const char* t : {"normal", "large", "x-large"})
    out += fmt::format("<option{}>{}</option>", text_size_name(style.text_size) == std::string(t) ? " selected" : "", t);
  return out + "</select></label> <button type=\"submit\">Apply</button></form>";
}

// What a check came to, first on the page: the score, each question's and
// part's marks, and the first thing to fix; in a live region that takes the
// focus, so a screen reader says it and the eye finds it without scrolling.
std::string check_summary(const StudentPage& p) {
  const FeedbackView v = feedback_view(*p.rubric, *p.shown, p.reveal);
  std::string out = "<section class=\"summary notice\" id=\"summary\" role=\"status\" aria-live=\"polite\" "
                    "aria-labelledby=\"summary-head\" tabindex=\"-1\" autofocus>\n";
  out += fmt::format("<h2 id=\"summary-head\">{}: {}</h2>\n", html_escape(p.summary_title),
                     v.marked ? v.score : std::string(status_name(v.status)));
  if (!p.notice.empty()) out += "<p>" + html_escape(p.notice) + "</p>\n";
  if (!v.reason.empty()) out += "<p>" + html_escape(v.reason) + "</p>\n";
  if (v.marked) {
    out += "<ul>\n";
    std::string first_fix;
    for (const QuestionView& q : v.questions) {
      std::string parts;
      for (const PartView& part : q.parts) {
        parts += fmt::format("{}{} {}{}", parts.empty() ? "" : ", ", part.label, part.score,
                             part.follow_through ? " (follow-through)" : "");
        if (!first_fix.empty()) continue;
        const auto bad = std::find_if(part.cells.begin(), part.cells.end(), [](const CellView& c) {
          return c.verdict != Verdict::correct && c.verdict != Verdict::carried;
        });
        if (bad == part.cells.end()) continue;
        const std::string where = fmt::format("Question {}, {}", q.number ? q.number : 1, part.label);
        const auto hint = std::find_if(part.hints.begin(), part.hints.end(), [](const HintView& h) { return !h.repeats; });
        if (!part.diagnoses.empty())
          first_fix = "<b>Mistake</b> (" + html_escape(where) + "): " + html_escape(part.diagnoses.front().words);
        else if (hint != part.hints.end())
          first_fix = "<b>Hint</b> (" + html_escape(where) + "): " + html_escape(hint->text);
        else
          first_fix = "<b>First to fix</b> (" + html_escape(where) + "): " +
                      html_escape(bad->name.empty() ? std::string(bad->look.word) : bad->name + ": " + bad->look.word) +
                      (bad->note.empty() ? "" : "; " + html_escape(bad->note));
      }
      const std::string heading = q.title.empty() ? q.id : fmt::format("Question {}", q.number);
      out += fmt::format("<li>{}: {} ({})</li>\n", html_escape(heading), q.score, html_escape(parts));
    }
    out += "</ul>\n";
    out += first_fix.empty() ? "<p>Every answer is right.</p>\n" : "<p>" + first_fix + "</p>\n";
  }
  if (p.attempts_left) out += fmt::format("<p>Attempts left: {}.</p>\n", *p.attempts_left);
  return out + "<p><a href=\"#feedback\">All the feedback</a></p>\n</section>\n";
}

// The bar above the student's form: who is signed in, signing out, and the page's colours and text size.
std::string student_bar(const StudentPage& p) {
  std::string out = "<div class=\"bar\">";
  out += fmt::format("<span>Signed in as <b>{}</b>{}</span>", html_escape(p.student),
                     p.name.empty() ? "" : " (" + html_escape(p.name) + ")");
  out += "<form class=\"inline\" method=\"post\" action=\"/signout\">" + csrf_input(p.csrf) +
         "<button type=\"submit\">Sign out</button></form>";
  return out + style_form(p.csrf, p.style) + "</div>\n";
}

}  // namespace

const std::string& served_script() {
  // Enter in an answer box goes to the next box, and from the last to Check.
  static const std::string script =
      "document.addEventListener('keydown',function(e){"
      "if(e.key!=='Enter'||!e.target.matches||!e.target.matches('input.cell'))return;"
      "e.preventDefault();"
      "var boxes=Array.prototype.slice.call(document.querySelectorAll('input.cell'));"
      "var next=boxes[boxes.indexOf(e.target)+1]||document.getElementById('check');"
      "next.focus();if(next.select)next.select();});";
  return script;
}

std::string served_script_source() { return "'sha256-" + base64(sha256(served_script())) + "'"; }

std::string signin_page_html(const SignInPage& p) {
  std::string body = fmt::format("<h1>{}</h1>\n", html_escape(p.title));
  body += "<div class=\"bar\">" + style_form(p.csrf, p.style) + "</div>\n";
  body += "<p>Sign in with your student id and the access code your teacher gave you.</p>\n";
  if (!p.message.empty()) body += "<p class=\"notice bad\" role=\"alert\">" + html_escape(p.message) + "</p>\n";
  body += "<form method=\"post\" action=\"/signin\">\n";
  body += csrf_input(p.csrf) + "\n";
  body += "<p><label>Student id <input name=\"student\" autocomplete=\"username\" value=\"" + html_escape(p.student) +
          "\"></label></p>\n";
  body += "<p><label>Access code <input name=\"code\" autocomplete=\"current-password\"></label></p>\n";
  body += "<p><button type=\"submit\">Sign in</button></p>\n</form>\n";
  return page("Sign in: " + p.title, p.style, body);
}

std::string student_page_html(const StudentPage& p) {
  const SheetDocument doc = sheet_document(*p.rubric, p.variant, Sheet::worksheet);
  SheetForm form;
  form.values = p.values;
  if (p.shown && p.shown->marked) form.marks = marks_of(doc, *p.shown, p.reveal);

  std::string body = fmt::format("<h1>{}</h1>\n", html_escape(doc.title));
  if (p.shown) body += check_summary(p);
  body += student_bar(p);
  body += fmt::format("<p class=\"meta muted\">Variant {} · Rubric {}</p>\n", html_escape(doc.variant),
                      html_escape(doc.rubric));
  if (!p.notice.empty() && !p.shown) body += "<p class=\"notice\" role=\"status\">" + html_escape(p.notice) + "</p>\n";
  if (p.closed) body += "<p class=\"notice\">The class is closed: checks are shown but not kept.</p>\n";
  if (p.attempts_left && !p.shown) body += fmt::format("<p class=\"notice\">Attempts left: {}.</p>\n", *p.attempts_left);
  body += "<form method=\"post\" action=\"/check\" enctype=\"multipart/form-data\">\n";
  // The form's default button, disabled: Enter in a box sends nothing
  // (served_script() moves it to the next box); only Check sends the form.
  body += "<button type=\"submit\" disabled hidden aria-hidden=\"true\" tabindex=\"-1\"></button>\n";
  body += csrf_input(p.csrf) + "\n";
  body += sheet_form_questions(doc, form);
  body += "<p><button type=\"submit\" id=\"check\">Check</button></p>\n</form>\n";
  if (p.shown)
    body += "<section class=\"feedback\" id=\"feedback\">\n" + feedback_article(*p.rubric, *p.shown, p.reveal) + "</section>\n";
  body += "<h2>Your attempts</h2>\n";
  if (p.attempts.empty()) {
    body += "<p>None yet.</p>\n";
  } else {
    body += "<table><thead><tr><th scope=\"col\">Attempt</th><th scope=\"col\">When (UTC)</th><th "
            "scope=\"col\">Score</th></tr></thead>\n<tbody>\n";
    for (std::size_t i = p.attempts.size(); i-- > 0;) {
      const AttemptLine& a = p.attempts[i];
      body += fmt::format("<tr><td><a href=\"/attempt?n={}\">{}</a></td><td>{}</td><td>{} / {}</td></tr>\n", a.id, i + 1,
                          html_escape(a.at), score_text(a.score), score_text(a.max_score));
    }
    body += "</tbody></table>\n";
  }
  body += "<script>" + served_script() + "</script>\n";
  return page(doc.title + ": " + p.student, p.style, body);
}

namespace {

std::string limits_section(const TeacherLimits& l) {
  std::string body = "<section aria-labelledby=\"limits\">\n<h2 id=\"limits\">Limits</h2>\n";
  body += fmt::format("<p>This start: {}.</p>\n<p>The database: {}{}.</p>\n", html_escape(l.rules),
                      html_escape(l.database), l.database_full ? " (full: checks are answered, not kept)" : "");
  if (!l.cleared.empty()) body += "<p class=\"notice\" role=\"status\">" + html_escape(l.cleared) + "</p>\n";
  if (l.rows.empty()) return body + "<p>No student or address is held by a limit.</p>\n</section>\n";
  body += "<table><caption>Held by a limit now</caption><thead><tr><th scope=\"col\">Who</th>"
          "<th scope=\"col\">Limit</th><th scope=\"col\">Clear</th></tr></thead>\n<tbody>\n";
  for (const LimitRow& r : l.rows)
    body += fmt::format(
        "<tr><td>{0}</td><td>{1}</td><td><form class=\"inline\" method=\"post\" action=\"/teacher/clear\">{2}"
        "<input type=\"hidden\" name=\"kind\" value=\"{3}\"><input type=\"hidden\" name=\"key\" value=\"{4}\">"
        "<button type=\"submit\" aria-label=\"Clear: {0}, {1}\">Clear</button></form></td></tr>\n",
        html_escape(r.who), html_escape(r.what), csrf_input(l.csrf), html_escape(r.kind), html_escape(r.key));
  return body + "</tbody></table>\n</section>\n";
}

}  // namespace

std::string teacher_page_html(const TeacherPage& p) {
  std::string body = fmt::format("<h1>{}: the class</h1>\n", html_escape(p.title));
  if (!p.warning.empty()) body += "<p class=\"notice\" role=\"alert\">Warning: " + html_escape(p.warning) + ".</p>\n";
  body += fmt::format("<p>{} attempts by {} of {} students{}. <a href=\"/teacher/summary.html\">Class summary</a> · "
                      "<a href=\"/teacher/gradebook.csv\">gradebook.csv</a> ({} attempt of each student) · "
                      "<a href=\"/teacher/canvas.csv\">canvas.csv</a> · <a href=\"/teacher/moodle.csv\">moodle.csv</a></p>\n",
                      p.attempts, p.students_with_attempts, p.roster, p.closed ? "; closed" : "",
                      p.counts_best ? "best" : "last");
  body += live_table_html(p.live);
  if (p.limits) body += limits_section(*p.limits);
  return page("Teacher: " + p.title, p.style, body);
}

std::string teacher_student_page_html(const TeacherStudentPage& p) {
  std::string body = fmt::format("<h1>{}</h1>\n<p><a href=\"/teacher\">The class</a></p>\n", html_escape(p.student));
  if (p.attempts.empty()) body += "<p>No attempts.</p>\n";
  for (std::size_t i = p.attempts.size(); i-- > 0;) {
    const TeacherAttempt& a = p.attempts[i];
    body += fmt::format("<section><h2>Attempt {} · {} · {} / {}</h2>\n", i + 1, html_escape(a.at), score_text(a.score),
                        score_text(a.max_score));
    body += feedback_article(*p.rubric, a.graded, true) + "</section>\n";
  }
  return page("Teacher: " + p.student, p.style, body);
}

std::string served_message_page(ServedMessage message, const HtmlStyle& style) {
  switch (message) {
    case ServedMessage::form_expired:
      return page("Form expired", style,
                  "<p class=\"notice\">This form has expired or did not come from this page. "
                  "<a href=\"/\">Open the page again</a> and send it from there.</p>\n");
    case ServedMessage::no_such_attempt: return page("Not found", style, "<p>No such attempt of yours.</p>\n");
    case ServedMessage::unknown_style: return page("Settings", style, "<p>Unknown colours or text size.</p>\n");
    case ServedMessage::teacher_token:
      return page("Teacher", style,
                  "<p>Open the teacher's address that attnmark serve printed when it started "
                  "(it ends in ?token=...).</p>\n");
  }
  return page("", style, "");
}

std::string served_notice_page(std::string_view title, std::string_view notice, const HtmlStyle& style) {
  return page(title, style, "<p class=\"notice\">" + html_escape(notice) + "</p>\n");
}

}  // namespace attnmark
