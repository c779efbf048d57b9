#include "writers/teacher_pages.h"

#include <fmt/format.h>

#include "writers/csv_writer.h"
#include "writers/html_page.h"
#include "writers/html_writer.h"
#include "writers/report_words.h"

namespace attnmark {
namespace {

// The radar's CSS beside report_css (whose .meter draws its bars).
std::string radar_css() {
  return ".bar{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:center;margin:.5em 0}\n"
         "button,select{font:inherit;padding:.3em 1em}\n"
         "table.radar td.count{min-width:12em}\n"
         "table.radar .pct{min-width:4.5em}\n"
         // Read from the back of a room: larger than the chosen text size, which it scales with.
         "table.radar{font-size:1.3em}\n";
}

// Pages styled as the other served pages: `body` (HTML) in <main>.
std::string page(std::string_view title, const HtmlStyle& style, const std::string& body) {
  return html_page(title, style, sheet_css() + report_css() + radar_css(), "<main>\n" + body + "</main>\n");
}

// The line saying how the page updates, with a link to pause or resume.
std::string refresh_line(bool paused, const std::string& live_href, const std::string& pause_href) {
  if (paused)
    return fmt::format("<p role=\"status\">Paused: this page does not update. <a href=\"{}\">Resume</a> "
                       "(updates every {} s)</p>\n",
                       html_escape(live_href), live_refresh_seconds);
  return fmt::format("<p role=\"status\">Updates every {} s. <a href=\"{}\">Pause</a></p>\n", live_refresh_seconds,
                     html_escape(pause_href));
}

std::string mistakes_cell(const std::vector<LiveMistake>& mistakes) {
  if (mistakes.empty()) return "–";
  std::string out;
  for (std::size_t i = 0; i < mistakes.size(); ++i) {
    if (i) out += ", ";
    out += fmt::format("<abbr title=\"{}\">{}</abbr>", html_escape(mistakes[i].words), html_escape(mistakes[i].code));
  }
  return out;
}

// The radar's address with its choices: with `names`, names=1; with `pause`, pause=1.
std::string radar_query(const RadarPage& p, bool names, bool pause) {
  std::string q;
  auto add = [&](const std::string& kv) { q += (q.empty() ? "?" : "&") + kv; };
  if (!p.window.empty() && p.window != "since") add("window=" + p.window);
  if (p.window == "since" && !p.since.empty()) add("since=" + p.since);
  if (!p.question.empty()) add("question=" + p.question);
  if (names) add("names=1");
  if (pause) add("pause=1");
  return "/teacher/radar" + q;
}

// A count of students as a bar (report_css's meter, as the class summary draws
// it) with "3 of 12" beside it in text, so it reads without the bar.
std::string count_bar(std::size_t count, std::size_t of) {
  const double percent = of ? 100.0 * static_cast<double>(count) / static_cast<double>(of) : 0.0;
  return fmt::format("<div class=\"meter\"><div class=\"track\" aria-hidden=\"true\"><div class=\"fill\" "
                     "style=\"width:{:.1f}%\"></div></div><span class=\"pct\">{} of {}</span></div>",
                     percent, count, of);
}

}  // namespace

std::string with_auto_refresh(std::string page, bool paused) {
  if (paused) return page;
  const std::string charset = "<meta charset=\"utf-8\">\n";
  const std::size_t at = page.find(charset);
  if (at == std::string::npos) return page;
  page.insert(at + charset.size(), fmt::format("<meta http-equiv=\"refresh\" content=\"{}\">\n", live_refresh_seconds));
  return page;
}

std::string live_table_html(const LiveView& v) {
  std::string body = "<section aria-labelledby=\"live\">\n<h2 id=\"live\">The class now</h2>\n";
  body += refresh_line(v.paused, "/teacher", "/teacher?pause=1");
  body += fmt::format("<p>Score: of each student's {} attempt, as the gradebook counts it. Mistakes: named in their "
                      "latest attempt. <a href=\"/teacher/radar\">Misconception radar</a></p>\n",
                      v.counts_best ? "best" : "last");
  body += "<table><thead><tr><th scope=\"col\">Student</th><th scope=\"col\">Name</th><th scope=\"col\">Score</th>";
  for (const std::string& q : v.questions) body += "<th scope=\"col\">" + html_escape(q) + "</th>";
  body += "<th scope=\"col\">Last check</th><th scope=\"col\">Attempts</th><th scope=\"col\">Mistakes</th></tr></thead>\n"
          "<tbody>\n";
  for (const LiveRow& r : v.rows) {
    body += fmt::format("<tr><td><a href=\"/teacher/student?id={}\">{}</a></td><td>{}</td><td>{}</td>",
                        html_escape(r.query_id), html_escape(r.student), html_escape(r.name), html_escape(r.score));
    for (const std::string& q : v.questions) {
      std::string mark = "–";
      for (const LiveMark& m : r.marks)
        if (m.question == q) mark = m.score;
      body += "<td>" + html_escape(mark) + "</td>";
    }
    body += fmt::format("<td>{}</td><td>{}</td><td>{}</td></tr>\n", r.last_check.empty() ? "–" : html_escape(r.last_check),
                        r.attempts, mistakes_cell(r.mistakes));
  }
  return body + "</tbody></table>\n</section>\n";
}

std::string radar_page_html(const RadarPage& p) {
  std::string body = fmt::format("<h1>{}: misconceptions</h1>\n", html_escape(p.title));
  body += refresh_line(p.paused, radar_query(p, p.names, false), radar_query(p, p.names, true));
  // The choices, a GET form: the window, the questions and the names.
  body += "<form class=\"bar\" method=\"get\" action=\"/teacher/radar\"><label>Attempts <select name=\"window\">";
  for (const auto& [value, words] : std::vector<std::pair<std::string, std::string>>{
           {"", "whole class"}, {"10", "last 10 min"}, {"30", "last 30 min"}, {"60", "last hour"}})
    body += fmt::format("<option value=\"{}\"{}>{}</option>", value, p.window == value ? " selected" : "", words);
  body += "</select></label> <label>Questions <select name=\"question\">";
  body += fmt::format("<option value=\"\"{}>whole lesson</option>", p.question.empty() ? " selected" : "");
  body += fmt::format("<option value=\"each\"{}>each question</option>", p.question == "each" ? " selected" : "");
  for (const std::string& q : p.questions)
    body += fmt::format("<option{}>{}</option>", p.question == q ? " selected" : "", html_escape(q));
  body += fmt::format("</select></label> <label><input type=\"checkbox\" name=\"names\" value=\"1\"{}> Names</label>",
                      p.names ? " checked" : "");
  if (p.paused) body += "<input type=\"hidden\" name=\"pause\" value=\"1\">";
  body += " <button type=\"submit\">Show</button></form>\n";
  body += fmt::format("<p>{} student{} checked {}. <a href=\"{}\">radar.csv</a> · <a href=\"/teacher\">The class</a></p>\n",
                      p.students, p.students == 1 ? "" : "s", p.since.empty() ? "so far" : "since " + html_escape(p.since),
                      html_escape("/teacher/radar.csv" + radar_query(p, p.names, false).substr(std::string("/teacher/radar").size())));
  if (p.rows.empty())
    return with_auto_refresh(page("Radar: " + p.title, p.style, body + "<p>No mistake named.</p>\n"), p.paused);
  body += "<table class=\"radar\"><thead><tr><th scope=\"col\">Mistake</th>";
  if (!p.question.empty()) body += "<th scope=\"col\">Question</th>";
  body += "<th scope=\"col\">Made it</th><th scope=\"col\">Still make it</th>";
  if (p.names) body += "<th scope=\"col\">Who still makes it</th>";
  body += "</tr></thead>\n<tbody>\n";
  for (const RadarRow& r : p.rows) {
    body += fmt::format("<tr><td><b>{}</b><br>{}</td>", html_escape(r.code), html_escape(r.words));
    if (!p.question.empty()) body += "<td>" + html_escape(r.question) + "</td>";
    body += fmt::format("<td class=\"count\">{}</td><td class=\"count\">{}</td>", count_bar(r.made, p.students),
                        count_bar(r.still, p.students));
    if (p.names) {
      std::string who;
      for (const std::string& s : r.still_students) who += (who.empty() ? "" : ", ") + html_escape(s);
      body += "<td>" + (who.empty() ? std::string("–") : who) + "</td>";
    }
    body += "</tr>\n";
  }
  body += "</tbody></table>\n<p>Made it: students with the mistake in any of their attempts shown. Still make it: "
          "those with it in their latest one. Each of the students who checked.</p>\n";
  return with_auto_refresh(page("Radar: " + p.title, p.style, body), p.paused);
}

std::string radar_csv(const RadarPage& p) {
  std::string out = "mistake,words,question,made_it,still_make_it,students\r\n";
  for (const RadarRow& r : p.rows) {
    append_csv_text_field(out, r.code);
    out += ',';
    append_csv_text_field(out, r.words);
    out += ',';
    append_csv_text_field(out, r.question.empty() ? "all" : r.question);
    out += fmt::format(",{},{},", r.made, r.still);
    std::string who;
    if (p.names)
      for (const std::string& s : r.still_students) who += (who.empty() ? "" : " ") + s;
    append_csv_text_field(out, who);
    out += "\r\n";
  }
  return out;
}

}  // namespace attnmark
