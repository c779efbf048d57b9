#include "writers/class_report.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iterator>

#include "base/text.h"
#include "base/threads.h"
#include "writers/html_page.h"
#include "writers/markdown_writer.h"
#include "writers/report_words.h"

namespace attnmark {
namespace {

// The sentences both layouts say, each written once. The flag's explanation
// names a code, which each layout marks up in its own way.
constexpr const char* no_mistakes = "No typical mistakes found.";
constexpr const char* flag_before = "Never a change of marks: ";
constexpr const char* flag_code = "fits-variant-of:ID";
constexpr const char* flag_after =
    " means the answers are wrong for the student's own variant but right, cell for cell at the precision asked, "
    "for ID's.";

// "30 submissions", and ": 27 graded, 2 unreadable" when any row has a status.
std::string submissions_text(const ClassReport& report) {
  std::string out = fmt::format("{} submission{}", report.submissions, report.submissions == 1 ? "" : "s");
  for (std::size_t i = 0; i < report.tally.size(); ++i)
    out += fmt::format("{}{} {}", i ? ", " : ": ", report.tally[i].second, status_name(report.tally[i].first));
  return out;
}

// "0–9%" ... "90–100%": the label of a tenth of the marks.
std::string bin_label(int bin) { return fmt::format("{}–{}%", 10 * bin, bin == 9 ? 100 : 10 * bin + 9); }

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
  for (int b = 0; b < 10; ++b) out += fmt::format("{}{}: {}", b ? "; " : "", bin_label(b), bins[b]);
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
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>\n",
                       x + (slot - 8) / 2, base + 16, bin_label(b));
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

// summary.html's row of one submission; `out_of` is " / <max score>".
void append_row_html(std::string& out, const ReportRow& r, const std::string& out_of) {
  auto to = std::back_inserter(out);
  const std::string who = r.student.empty() ? "(no id) " + r.source
                          : r.name.empty()  ? r.student
                                            : r.name + " (" + r.student + ")";
  if (r.file_stem.empty()) fmt::format_to(to, "<tr><td>{}", html_escape(who));
  else fmt::format_to(to, "<tr><td><a href=\"feedback/{}.html\">{}</a>", html_escape(r.file_stem), html_escape(who));
  if (r.score) fmt::format_to(to, "</td><td class=\"num\">{}{}", score_text(*r.score), out_of);
  else out += "</td><td class=\"num\">–";
  fmt::format_to(to, "</td><td{}>{}</td><td>{}</td></tr>\n", status_class(r.status), status_name(r.status),
                 html_escape(r.reason));
}

std::string out_of_text(double max_score) { return " / " + score_text(max_score); }

}  // namespace

void append_report_row_html(std::string& out, const ReportRow& row, double max_score) {
  append_row_html(out, row, out_of_text(max_score));
}

std::string summary_markdown(const ClassReport& report) {
  std::string out = fmt::format("# Class summary: {}\n\n", markdown_text(report.title));
  out += submissions_text(report) + ".\n\n";
  if (!report.roster_note.empty()) out += markdown_text(report.roster_note) + "\n\n";
  if (const auto& f = report.figures) {
    out += fmt::format("Marked: {} · Mean: {} / {} · Median: {} · Lowest: {} · Highest: {}\n\n", f->marked,
                       score_text(f->mean), score_text(report.max_score), score_text(f->median), score_text(f->lowest),
                       score_text(f->highest));
    out += "## Distribution\n\n| Score | Students | |\n|---|---|---|\n";
    for (int bin = 0; bin < 10; ++bin) {
      const int n = report.bins[static_cast<std::size_t>(bin)];
      out += fmt::format("| {} | {} | {} |\n", bin_label(bin), n, std::string(static_cast<std::size_t>(std::min(n, 60)), '#'));
    }
    out += "\n## Parts\n\n| Question | Part | Full marks | Mean |\n|---|---|---|---|\n";
    for (const ClassReport::PartLine& p : report.parts)
      out += fmt::format("| {} | {} | {}% | {} / {} |\n", p.question, p.part, p.marked ? 100 * p.full / p.marked : 0,
                         score_text(p.mean), score_text(p.marks));
    out += "\n## Mistakes\n\n";
    if (report.mistakes.empty()) out += std::string(no_mistakes) + "\n\n";
    else out += "| Mistake | Students | What it means | Who |\n|---|---|---|---|\n";
    for (const ClassReport::MistakeLine& m : report.mistakes)
      out += fmt::format("| `{}` | {} | {} | {} |\n", m.code, m.students, m.explanation, markdown_text(m.who));
    out += "\n";
  }
  if (!report.notices.empty()) {
    out += "## Notes on the inputs\n\n";
    for (const std::string& n : report.notices) out += "- " + markdown_text(n) + "\n";
    if (report.notices_left_off) out += fmt::format("- … and {} more\n", report.notices_left_off);
    out += "\n";
  }
  if (!report.flagged.empty()) {
    out += fmt::format("## Flagged for the teacher\n\n{}`{}`{}\n\n", flag_before, flag_code, flag_after);
    for (const std::string& line : report.flagged) out += "- " + markdown_text(line) + "\n";
    out += "\n";
  }
  out += "## Problem submissions\n\n";
  bool any = false;
  for (const ReportRow& r : report.rows) {
    if (r.status == SubmissionStatus::graded) continue;
    if (!any) out += "| Source | Student | Status | Reason |\n|---|---|---|---|\n";
    any = true;
    out += fmt::format("| {} | {} | {} | {} |\n", markdown_text(r.source),
                       markdown_text(r.name.empty() ? r.student : r.student + " (" + r.name + ")"), status_name(r.status),
                       markdown_text(r.reason));
  }
  if (!any) out += "None: every submission was marked.\n";
  return out;
}

std::string summary_html(const ClassReport& report, const HtmlStyle& style, unsigned jobs) {
  std::string out = "<main>\n<p class=\"kind muted\"><b>CLASS SUMMARY</b></p>\n";
  out += fmt::format("<h1>{}</h1>\n", html_escape(report.title));
  out += "<p>" + submissions_text(report) + ".</p>\n";
  if (!report.roster_note.empty()) out += "<p>" + html_escape(report.roster_note) + "</p>\n";
  if (const auto& f = report.figures) {
    const auto stat = [](const std::string& value, const std::string& label) {
      return fmt::format("<div class=\"stat\"><b>{}</b><span>{}</span></div>\n", value, label);
    };
    out += "<div class=\"stats\">\n";
    out += stat(std::to_string(f->marked), "marked");
    out += stat(score_text(f->mean), "mean, of " + score_text(report.max_score));
    out += stat(score_text(f->median), "median");
    out += stat(score_text(f->lowest), "lowest");
    out += stat(score_text(f->highest), "highest");
    out += "</div>\n";
    out += "<h2>Distribution of scores</h2>\n<figure>\n" + histogram_svg(report.bins);
    out += fmt::format("<figcaption>Each bar counts the students whose score falls in that tenth of the {} marks; "
                       "the last bar includes full marks.</figcaption>\n</figure>\n", score_text(report.max_score));

    out += "<h2>Parts</h2>\n<table>\n<colgroup><col style=\"width:6.5em\"><col style=\"width:9em\"><col>"
           "<col style=\"width:7em\"></colgroup>\n<thead><tr><th scope=\"col\">Question</th><th scope=\"col\">Part</th>"
           "<th scope=\"col\">Students with full marks</th><th scope=\"col\" class=\"num\">Mean</th></tr></thead>\n<tbody>\n";
    for (const ClassReport::PartLine& p : report.parts)
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{} / {}</td></tr>\n", html_escape(p.question),
                         html_escape(p.part), meter(p.marked ? static_cast<double>(p.full) / p.marked : 0),
                         score_text(p.mean), score_text(p.marks));
    out += "</tbody>\n</table>\n";

    out += "<h2>Mistakes</h2>\n";
    if (report.mistakes.empty()) {
      out += fmt::format("<p>{}</p>\n", no_mistakes);
    } else {
      out += "<table>\n<colgroup><col style=\"width:11em\"><col style=\"width:6.5em\"><col><col></colgroup>\n"
             "<thead><tr><th scope=\"col\">Mistake</th><th scope=\"col\" class=\"num\">Students</th>"
             "<th scope=\"col\">What it means</th><th scope=\"col\">Who</th></tr></thead>\n<tbody>\n";
      for (const ClassReport::MistakeLine& m : report.mistakes)
        out += fmt::format("<tr><td><code>{}</code></td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n",
                           html_escape(m.code), m.students, html_escape(m.explanation), html_escape(m.who));
      out += "</tbody>\n</table>\n";
    }
  }

  if (!report.notices.empty()) {
    out += "<h2>Notes on the inputs</h2>\n<ul>\n";
    for (const std::string& n : report.notices) out += "<li>" + html_escape(n) + "</li>\n";
    if (report.notices_left_off) out += fmt::format("<li>… and {} more</li>\n", report.notices_left_off);
    out += "</ul>\n";
  }
  if (!report.flagged.empty()) {
    out += fmt::format("<h2>Flagged for the teacher</h2>\n<p>{}<code>{}</code>{}</p>\n<ul>\n", flag_before, flag_code,
                       flag_after);
    for (const std::string& line : report.flagged) out += "<li>" + html_escape(line) + "</li>\n";
    out += "</ul>\n";
  }
  out += "<h2>Students</h2>\n<table>\n<colgroup><col style=\"width:26%\"><col style=\"width:14%\"><col style=\"width:18%\">"
         "<col></colgroup>\n<thead><tr><th scope=\"col\">Student</th><th scope=\"col\" class=\"num\">Score</th>"
         "<th scope=\"col\">Status</th><th scope=\"col\">Reason</th></tr></thead>\n<tbody>\n";
  // A row per submission (100,000 for a large course): those rendered while
  // judging as they are, the rest in pieces on up to `jobs` threads.
  const std::string out_of = out_of_text(report.max_score);
  const std::span<const ReportRow> rows = report.rows;
  const std::size_t first = report.rows_html_count;
  constexpr std::size_t piece_rows = 4096;
  std::vector<std::string> pieces((rows.size() - first + piece_rows - 1) / piece_rows);
  parallel_for(pieces.size(), jobs, [&](std::size_t i) {
    for (std::size_t k = first + i * piece_rows; k < std::min(rows.size(), first + (i + 1) * piece_rows); ++k)
      append_row_html(pieces[i], rows[k], out_of);
  });
  std::size_t size = out.size() + report.rows_html.size();
  for (const std::string& piece : pieces) size += piece.size();
  out.reserve(size + 64);
  out += report.rows_html;
  for (const std::string& piece : pieces) out += piece;
  out += "</tbody>\n</table>\n</main>\n";
  return html_page("Class summary: " + report.title, style, report_css(), out);
}

}  // namespace attnmark
