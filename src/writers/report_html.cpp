#include "writers/report_html.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <iterator>
#include <map>

#include "lesson/diagnosis.h"
#include "writers/html_page.h"

namespace attnmark {
namespace {

std::string esc(std::string_view text) { return html_escape(text); }

std::string title_of(const Rubric& rubric) { return rubric.title.empty() ? rubric.name : rubric.title; }

std::string part_label(Part p) {
  std::string name = part_name(p);
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

std::string report_css() {
  return R"(.stats{display:flex;flex-wrap:wrap;gap:.6em;margin:.6em 0}
.stat{flex:1 1 7em;background:var(--panel);border:var(--line) solid var(--rule);border-radius:4px;padding:.35em .6em}
.stat b{display:block;font-size:1.35em;color:var(--heading)}
.stat span{color:var(--muted);font-size:.85em}
figure{margin:.4em 0 1em;break-inside:avoid}
figcaption{color:var(--muted);font-size:.85em}
.chart text{fill:var(--text);font-family:inherit}
.chart .axis{stroke:var(--rule)}
.chart .bar{fill:var(--bar)}
.meter{display:flex;align-items:center;gap:.5em}
.meter .track{flex:1;height:.9em;background:var(--panel);border:var(--line) solid var(--rule);border-radius:3px;overflow:hidden}
.meter .fill{height:100%;background:var(--bar)}
.meter .pct{min-width:3.2em;text-align:right}
td.good,span.good{color:var(--good)}
td.bad,span.bad{color:var(--bad)}
td.warn,span.warn{color:var(--warn)}
td.muted{color:var(--muted)}
.score-big{font-size:1.6em;font-weight:bold;color:var(--heading)}
.legend{font-size:.9em}
.follow{color:var(--good);font-size:.85em;font-weight:normal}
ul{margin:.3em 0 .6em;padding-left:1.3em}
section.qfb{break-inside:auto}
.part-fb{break-inside:avoid}
h3 .marks{font-weight:normal;color:var(--muted);font-size:.85em}
)";
}

// An SVG bar chart of how many scores fall in each tenth of the maximum.
// Drawn in a fixed 640×250 box that scales to the page width.
std::string histogram_svg(const std::array<int, 10>& bins) {
  const int top = std::max(1, *std::max_element(bins.begin(), bins.end()));
  // Gridlines at whole numbers of students, at most 5 of them.
  const int step = std::max(1, static_cast<int>(std::ceil(top / 5.0)));
  const int ceiling = (top + step - 1) / step * step;
  const double left = 44, right = 628, base = 200, height = 170;
  const double slot = (right - left) / 10;
  std::string out = fmt::format(
      "<svg class=\"chart\" role=\"img\" aria-labelledby=\"hist-title hist-desc\" viewBox=\"0 0 640 250\" "
      "width=\"640\" height=\"250\" xmlns=\"http://www.w3.org/2000/svg\">\n"
      "<title id=\"hist-title\">Histogram of scores</title>\n<desc id=\"hist-desc\">");
  for (int b = 0; b < 10; ++b)
    out += fmt::format("{}{}–{}%: {}", b ? "; " : "", 10 * b, b == 9 ? 100 : 10 * b + 9, bins[b]);
  out += "</desc>\n";
  for (int y = 0; y <= ceiling; y += step) {
    const double py = base - height * y / ceiling;
    out += fmt::format("<line class=\"axis\" x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke-width=\"{}\"/>\n", left,
                       py, right, py, y == 0 ? 1.5 : 0.5);
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"12\" text-anchor=\"end\">{}</text>\n", left - 6,
                       py + 4, y);
  }
  for (int b = 0; b < 10; ++b) {
    const double h = height * bins[b] / ceiling;
    const double x = left + slot * b + 4;
    if (bins[b] > 0)
      out += fmt::format("<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/>\n", x,
                         base - h, slot - 8, h);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"13\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>\n",
                       x + (slot - 8) / 2, base - h - 5, bins[b]);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}–{}%</text>\n",
                       x + (slot - 8) / 2, base + 16, 10 * b, b == 9 ? 100 : 10 * b + 9);
  }
  out += fmt::format("<text x=\"{}\" y=\"242\" font-size=\"12\" text-anchor=\"middle\">Score, as a share of full marks</text>\n",
                     (left + right) / 2);
  out += "<text x=\"12\" y=\"115\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 12 115)\">Students</text>\n";
  return out + "</svg>\n";
}

std::string meter(double fraction) {
  const double pct = 100 * std::clamp(fraction, 0.0, 1.0);
  return fmt::format("<div class=\"meter\"><div class=\"track\" aria-hidden=\"true\"><div class=\"fill\" "
                     "style=\"width:{:.1f}%\"></div></div><span class=\"pct\">{:.0f}%</span></div>",
                     pct, std::floor(pct));
}

const char* status_class(const std::string& status) {
  if (status == "graded") return "";
  if (status == "unreadable" || status == "wrong-rubric") return " class=\"bad\"";
  return " class=\"warn\"";
}

struct VerdictLook {
  const char* symbol;
  const char* word;
  const char* css;
};

VerdictLook look(Verdict v) {
  switch (v) {
    case Verdict::correct: return {"✓", "right", "good"};
    case Verdict::carried: return {"✓*", "right for your earlier answers", "good"};
    case Verdict::imprecise: return {"≈", "too few decimals", "warn"};
    case Verdict::wrong: return {"✗", "wrong", "bad"};
    case Verdict::unanswered: return {"·", "blank", "muted"};
    case Verdict::unreadable: return {"?", "could not be read", "bad"};
  }
  return {"?", "?", "muted"};
}

}  // namespace

int score_bin(double score, double max_score) {
  if (max_score <= 0) return 9;
  return std::clamp(static_cast<int>(std::floor(10 * score / max_score + 1e-9)), 0, 9);
}

std::string summary_html(const Rubric& rubric, const ClassSummary& summary, const HtmlStyle& style) {
  const std::string title = title_of(rubric);
  std::string out = "<main>\n<p class=\"kind muted\"><b>CLASS SUMMARY</b></p>\n";
  out += fmt::format("<h1>{}</h1>\n", esc(title));
  std::map<std::string, int> statuses;
  for (const ClassSummary::Row& r : summary.rows()) ++statuses[r.status];
  const std::vector<double>& scores = summary.scores();
  const double max = summary.max_score();
  std::string tally;
  for (const auto& [status, n] : statuses) tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", n, esc(status));
  out += fmt::format("<p>{} submission{}{}{}.</p>\n", summary.rows().size(), summary.rows().size() == 1 ? "" : "s",
                     tally.empty() ? "" : ": ", tally);
  if (!scores.empty()) {
    const auto stat = [](const std::string& value, const char* label) {
      return fmt::format("<div class=\"stat\"><b>{}</b><span>{}</span></div>\n", value, label);
    };
    out += "<div class=\"stats\">\n";
    out += stat(std::to_string(scores.size()), "marked");
    out += stat(score_text(mean(scores)), ("mean, of " + score_text(max)).c_str());
    out += stat(score_text(median(scores)), "median");
    out += stat(score_text(*std::min_element(scores.begin(), scores.end())), "lowest");
    out += stat(score_text(*std::max_element(scores.begin(), scores.end())), "highest");
    out += "</div>\n";
    std::array<int, 10> bins{};
    for (double s : scores) ++bins[static_cast<std::size_t>(score_bin(s, max))];
    out += "<h2>Distribution of scores</h2>\n<figure>\n" + histogram_svg(bins);
    out += fmt::format("<figcaption>Each bar counts the students whose score falls in that tenth of the {} marks; "
                       "the last bar includes full marks.</figcaption>\n</figure>\n", score_text(max));

    out += "<h2>Parts</h2>\n<table>\n<colgroup><col style=\"width:6.5em\"><col style=\"width:9em\"><col>"
           "<col style=\"width:7em\"></colgroup>\n<thead><tr><th scope=\"col\">Question</th><th scope=\"col\">Part</th>"
           "<th scope=\"col\">Students with full marks</th><th scope=\"col\" class=\"num\">Mean</th></tr></thead>\n<tbody>\n";
    for (std::size_t qi = 0; qi < rubric.questions.size(); ++qi) {
      const QuestionSpec& q = rubric.questions[qi];
      for (std::size_t pi = 0; pi < q.ask.size(); ++pi) {
        const ClassSummary::PartStats& p = summary.part(qi, pi);
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{} / {}</td></tr>\n", esc(q.id),
                           esc(part_label(q.ask[pi])), meter(p.marked ? static_cast<double>(p.full) / p.marked : 0),
                           score_text(p.marked ? p.total / p.marked : 0), score_text(q.marking.at(q.ask[pi]).marks));
      }
    }
    out += "</tbody>\n</table>\n";

    out += "<h2>Mistakes</h2>\n";
    if (summary.mistakes().empty()) {
      out += "<p>No typical mistakes found.</p>\n";
    } else {
      out += "<table>\n<colgroup><col style=\"width:11em\"><col style=\"width:6.5em\"><col></colgroup>\n"
             "<thead><tr><th scope=\"col\">Mistake</th><th scope=\"col\" class=\"num\">Students</th>"
             "<th scope=\"col\">What it means</th></tr></thead>\n<tbody>\n";
      for (const Mistake& m : mistakes()) {
        const auto it = summary.mistakes().find(std::string(m.code));
        if (it != summary.mistakes().end())
          out += fmt::format("<tr><td><code>{}</code></td><td class=\"num\">{}</td><td>{}</td></tr>\n", esc(m.code),
                             it->second, esc(m.explanation));
      }
      out += "</tbody>\n</table>\n";
    }
  }

  out += "<h2>Students</h2>\n<table>\n<colgroup><col style=\"width:26%\"><col style=\"width:14%\"><col style=\"width:18%\">"
         "<col></colgroup>\n<thead><tr><th scope=\"col\">Student</th><th scope=\"col\" class=\"num\">Score</th>"
         "<th scope=\"col\">Status</th><th scope=\"col\">Reason</th></tr></thead>\n<tbody>\n";
  // A row per submission (100,000 for a large course): written in place.
  const std::string out_of = " / " + score_text(max);
  auto to = std::back_inserter(out);
  for (const ClassSummary::Row& r : summary.rows()) {
    const std::string who = r.student.empty() ? "(no id) " + r.source : r.student;
    if (r.file_stem.empty()) fmt::format_to(to, "<tr><td>{}", esc(who));
    else fmt::format_to(to, "<tr><td><a href=\"feedback/{}.html\">{}</a>", esc(r.file_stem), esc(who));
    if (r.score) fmt::format_to(to, "</td><td class=\"num\">{}{}", score_text(*r.score), out_of);
    else out += "</td><td class=\"num\">–";
    fmt::format_to(to, "</td><td{}>{}</td><td>{}</td></tr>\n", status_class(r.status), esc(r.status), esc(r.reason));
  }
  out += "</tbody>\n</table>\n</main>\n";
  return html_page("Class summary: " + title, style, report_css(), out);
}

std::string feedback_html(const Rubric& rubric, const GradedSubmission& g, bool reveal, const HtmlStyle& style) {
  const std::string title = title_of(rubric);
  std::string out = "<main>\n<p class=\"kind muted\"><b>FEEDBACK</b></p>\n";
  out += fmt::format("<h1>{}</h1>\n", esc(title));
  out += "<div class=\"panel\">\n";
  out += fmt::format("<p><b>Student:</b> {} · <b>Variant:</b> {} · <b>Status:</b> <span{}>{}</span></p>\n",
                     esc(g.student.empty() ? "(none)" : g.student), esc(g.variant.empty() ? "(unknown)" : g.variant),
                     status_class(g.status), esc(g.status));
  if (!g.reason.empty()) out += "<p>" + esc(g.reason) + "</p>\n";
  if (g.marked)
    out += fmt::format("<p class=\"score-big\">Score: {} / {}</p>\n", score_text(g.marked->score),
                       score_text(g.marked->max_score));
  out += "</div>\n";
  if (!g.marked) return html_page("Feedback: " + title, style, report_css(), out + "</main>\n");

  out += "<p class=\"legend muted\">✓ right · ✓* right for your earlier answers (follow-through) · ≈ right but not to "
         "the decimals asked · ✗ wrong · · blank · ? could not be read</p>\n";
  for (const QuestionResult& q : g.marked->questions) {
    std::string heading = esc(q.id);
    for (std::size_t i = 0; i < rubric.questions.size(); ++i)
      if (rubric.questions[i].id == q.id && !rubric.questions[i].title.empty())
        heading = fmt::format("Question {}: {}", i + 1, esc(rubric.questions[i].title));
    out += fmt::format("<section class=\"qfb\">\n<h2>{} <span class=\"muted\">({} / {})</span></h2>\n", heading,
                       score_text(q.score), score_text(q.max_score));
    for (const PartResult& p : q.parts) {
      out += "<div class=\"part-fb\">\n";
      out += fmt::format("<h3>{} <span class=\"marks\">{} / {}</span>{}</h3>\n", esc(part_label(p.part)),
                         score_text(p.score), score_text(p.max_score),
                         p.follow_through ? " <span class=\"follow\">✓* follow-through</span>" : "");
      out += "<table>\n<colgroup><col style=\"width:12%\"><col><col>";
      if (reveal) out += "<col>";
      out += "</colgroup>\n<thead><tr><th scope=\"col\">Cell</th><th scope=\"col\">Your answer</th>"
             "<th scope=\"col\">Mark</th>";
      if (reveal) out += "<th scope=\"col\">Answer</th>";
      out += "</tr></thead>\n<tbody>\n";
      for (const CellResult& c : p.cells) {
        const VerdictLook v = look(c.verdict);
        std::string mark = fmt::format("{} {}", v.symbol, v.word);
        if (!c.note.empty()) mark += fmt::format("<br><span class=\"muted\">{}</span>", esc(c.note));
        out += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td><td class=\"{}\">{}</td>",
                           esc(c.label.empty() ? "–" : c.label), c.given.empty() ? "" : esc(c.given), v.css, mark);
        if (reveal) out += "<td>" + esc(c.expected) + "</td>";
        out += "</tr>\n";
      }
      out += "</tbody>\n</table>\n";
      // A hint that only repeats a cell's note (shown in its row) or a
      // mistake's explanation (shown as the mistake) is left out.
      std::vector<std::string> hints;
      for (const std::string& h : p.hints) {
        bool repeated = false;
        for (const std::string& d : p.diagnoses) repeated = repeated || h == explain(d);
        for (const CellResult& c : p.cells)
          repeated = repeated || (!c.note.empty() && h.size() >= c.note.size() && h.ends_with(c.note));
        if (!repeated) hints.push_back(h);
      }
      if (!p.diagnoses.empty() || !hints.empty()) {
        out += "<ul>\n";
        for (const std::string& d : p.diagnoses) {
          const std::string_view why = explain(d);
          out += fmt::format("<li><b>Mistake:</b> {}</li>\n", esc(why.empty() ? d : why));
        }
        for (const std::string& h : hints) out += "<li><b>Hint:</b> " + esc(h) + "</li>\n";
        out += "</ul>\n";
      }
      out += "</div>\n";
    }
    out += "</section>\n";
  }
  if (!g.marked->notes.empty()) {
    out += "<h2>Notes</h2>\n<ul>\n";
    for (const std::string& n : g.marked->notes) out += "<li>" + esc(n) + "</li>\n";
    out += "</ul>\n";
  }
  return html_page("Feedback: " + title, style, report_css(), out + "</main>\n");
}

}  // namespace attnmark
