#include "marking/summary.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <iterator>

#include "lesson/diagnosis.h"
#include "writers/html_page.h"
#include "writers/markdown_writer.h"
#include "base/text.h"
#include "base/threads.h"
#include "writers/report_words.h"

namespace attnmark {
namespace {

// Submissions in the summary: its rows but the roster's missing students.
std::size_t submission_count(const ClassSummary& summary) {
  return summary.rows().size() - static_cast<std::size_t>(summary.statuses()[static_cast<std::size_t>(SubmissionStatus::missing)]);
}

// "Ada Lovelace, s002 and 3 more": who made a mistake, as the summaries list them.
std::string who_made(const ClassSummary& summary, const std::string& code) {
  const auto list = summary.mistake_students().find(code);
  if (list == summary.mistake_students().end()) return std::string();
  std::string out;
  for (const std::string& who : list->second) out += (out.empty() ? "" : ", ") + printable(who, 80);
  const int total = summary.mistakes().at(code);
  if (static_cast<std::size_t>(total) > list->second.size())
    out += fmt::format(" and {} more", total - static_cast<int>(list->second.size()));
  return out;
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

}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

int score_bin(double score, double max_score) {
  if (max_score <= 0) return 9;
  return std::clamp(static_cast<int>(std::floor(10 * score / max_score + 1e-9)), 0, 9);
}

namespace {

// summary.html's row of one submission; `out_of` is " / <max score>".
void append_row_html(std::string& out, const ClassSummary::Row& r, const std::string& out_of) {
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

void ClassSummary::render_rows_html() {
  const std::string out_of = out_of_text(max_score_);
  for (; rows_html_count_ < rows_.size(); ++rows_html_count_) append_row_html(rows_html_, rows_[rows_html_count_], out_of);
}

ClassSummary::ClassSummary(const Rubric& rubric) : max_score_(attnmark::max_score(rubric)) {
  for (const QuestionSpec& q : rubric.questions) parts_.emplace_back(q.ask.size());
}

void ClassSummary::flag(std::size_t row, const std::vector<std::string>& flags) {
  if (flagged_.size() >= 1000) return;
  const Row& r = rows_.at(row);
  std::string line = (r.student.empty() ? std::string("(no id)") : r.student) + " (" + r.source + "):";
  for (const std::string& f : flags) line += " " + f;
  flagged_.push_back(printable(line, 1000));
}

void ClassSummary::add(const GradedSubmission& g) {
  // Reasons bounded as in the gradebook: a file of junk notes must not make the summaries large.
  std::string reason = g.reason.size() > max_reason_cell_bytes ? bounded_reason(g.reason, max_reason_cell_bytes) : g.reason;
  rows_.push_back(Row{g.source, g.student, g.name, g.status, std::move(reason), g.file_stem,
                      g.marked ? std::optional<double>(g.marked->score) : std::nullopt});
  ++statuses_[static_cast<std::size_t>(g.status)];
  if (!g.flags.empty()) flag(rows_.size() - 1, g.flags);
  if (!g.marked || g.status == SubmissionStatus::duplicate) return;
  scores_.push_back(g.marked->score);
  std::vector<std::string> seen;
  for (std::size_t qi = 0; qi < g.marked->questions.size(); ++qi)
    for (std::size_t pi = 0; pi < g.marked->questions[qi].parts.size(); ++pi) {
      const PartResult& p = g.marked->questions[qi].parts[pi];
      PartStats& stats = parts_[qi][pi];
      ++stats.marked;
      stats.total += p.score;
      stats.full += p.score >= p.max_score - 1e-9;
      for (const std::string& d : p.diagnoses)
        if (std::find(seen.begin(), seen.end(), d) == seen.end()) seen.push_back(d);
    }
  constexpr std::size_t named = 50;  // a list a teacher reads, not the whole class
  const std::string who = g.name.empty() ? g.student : g.name;
  for (const std::string& d : seen) {
    ++mistakes_[d];
    std::vector<std::string>& list = mistake_students_[d];
    if (list.size() < named && !who.empty()) list.push_back(who);
  }
}

std::array<int, 10> ClassSummary::bins() const {
  std::array<int, 10> bins{};
  for (double s : scores_) ++bins[static_cast<std::size_t>(score_bin(s, max_score_))];
  return bins;
}

void ClassSummary::add_notice(std::string text) {
  constexpr std::size_t kept = 1000;
  if (notices_.size() < kept) notices_.push_back(std::move(text));
  else ++notices_left_off_;
}

void ClassSummary::append(ClassSummary&& later) {
  if (rows_html_count_ == rows_.size()) {  // every row so far rendered: so are the first of `later`'s
    rows_html_ += later.rows_html_;
    rows_html_count_ += later.rows_html_count_;
  }
  if (rows_.empty()) rows_.reserve(4096);
  rows_.insert(rows_.end(), std::make_move_iterator(later.rows_.begin()), std::make_move_iterator(later.rows_.end()));
  scores_.insert(scores_.end(), later.scores_.begin(), later.scores_.end());
  for (std::size_t q = 0; q < parts_.size(); ++q)
    for (std::size_t p = 0; p < parts_[q].size(); ++p) {
      parts_[q][p].marked += later.parts_[q][p].marked;
      parts_[q][p].full += later.parts_[q][p].full;
      parts_[q][p].total += later.parts_[q][p].total;
    }
  for (const auto& [code, count] : later.mistakes_) mistakes_[code] += count;
  for (std::string& line : later.flagged_)
    if (flagged_.size() < 1000) flagged_.push_back(std::move(line));
  for (auto& [code, list] : later.mistake_students_) {
    std::vector<std::string>& mine = mistake_students_[code];
    for (std::string& who : list)
      if (mine.size() < 50) mine.push_back(std::move(who));
  }
  for (std::size_t s = 0; s < submission_status_count; ++s) statuses_[s] += later.statuses_[s];
}

std::string summary_markdown(const Rubric& rubric, const ClassSummary& summary) {
  std::string out = fmt::format("# Class summary: {}\n\n", markdown_text(display_title(rubric)));
  const std::vector<double>& scores = summary.scores();
  const double max = summary.max_score();
  out += fmt::format("{} submission{}: ", submission_count(summary), submission_count(summary) == 1 ? "" : "s");
  bool first = true;
  for (std::size_t s = 0; s < submission_status_count; ++s) {
    // (Missing students are no submissions: the roster line counts them.)
    if (summary.statuses()[s] == 0 || SubmissionStatus(s) == SubmissionStatus::missing) continue;
    out += fmt::format("{}{} {}", first ? "" : ", ", summary.statuses()[s], status_name(SubmissionStatus(s)));
    first = false;
  }
  out += ".\n\n";
  if (!summary.roster_note().empty()) out += markdown_text(summary.roster_note()) + "\n\n";
  if (!scores.empty()) {
    out += fmt::format("Marked: {} · Mean: {} / {} · Median: {} · Lowest: {} · Highest: {}\n\n", scores.size(),
                       score_text(mean(scores)), score_text(max), score_text(median(scores)),
                       score_text(*std::min_element(scores.begin(), scores.end())),
                       score_text(*std::max_element(scores.begin(), scores.end())));
    out += "## Distribution\n\n| Score | Students | |\n|---|---|---|\n";
    const std::array<int, 10> bins = summary.bins();
    for (int bin = 0; bin < 10; ++bin) {
      const int n = bins[static_cast<std::size_t>(bin)];
      out += fmt::format("| {}–{}% | {} | {} |\n", 10 * bin, bin == 9 ? 100 : 10 * bin + 9, n,
                         std::string(static_cast<std::size_t>(std::min(n, 60)), '#'));
    }
    out += "\n## Parts\n\n| Question | Part | Full marks | Mean |\n|---|---|---|---|\n";
    for (std::size_t qi = 0; qi < rubric.questions.size(); ++qi) {
      const QuestionSpec& q = rubric.questions[qi];
      for (std::size_t pi = 0; pi < q.ask.size(); ++pi) {
        const ClassSummary::PartStats& p = summary.part(qi, pi);
        out += fmt::format("| {} | {} | {}% | {} / {} |\n", q.id, part_label(q.ask[pi]),
                           p.marked ? 100 * p.full / p.marked : 0, score_text(p.marked ? p.total / p.marked : 0),
                           score_text(q.marking.at(q.ask[pi]).marks));
      }
    }
    out += "\n## Mistakes\n\n";
    if (summary.mistakes().empty()) out += "No typical mistakes found.\n\n";
    else out += "| Mistake | Students | What it means | Who |\n|---|---|---|---|\n";
    for (const Mistake& m : mistakes()) {
      auto it = summary.mistakes().find(std::string(m.code));
      if (it != summary.mistakes().end())
        out += fmt::format("| `{}` | {} | {} | {} |\n", m.code, it->second, m.explanation,
                           markdown_text(who_made(summary, std::string(m.code))));
    }
    out += "\n";
  }
  if (!summary.notices().empty()) {
    out += "## Notes on the inputs\n\n";
    for (const std::string& n : summary.notices()) out += "- " + markdown_text(n) + "\n";
    if (summary.notices_left_off()) out += fmt::format("- … and {} more\n", summary.notices_left_off());
    out += "\n";
  }
  if (!summary.flagged().empty()) {
    out += "## Flagged for the teacher\n\nNever a change of marks: `fits-variant-of:ID` means the answers are wrong for "
           "the student's own variant but right, cell for cell at the precision asked, for ID's.\n\n";
    for (const std::string& line : summary.flagged()) out += "- " + markdown_text(line) + "\n";
    out += "\n";
  }
  out += "## Problem submissions\n\n";
  bool any = false;
  for (const ClassSummary::Row& r : summary.rows()) {
    if (r.status == SubmissionStatus::graded) continue;
    if (!any) out += "| Source | Student | Status | Reason |\n|---|---|---|---|\n";
    any = true;
    out += fmt::format("| {} | {} | {} | {} |\n", markdown_text(r.source),
                       markdown_text(r.name.empty() ? r.student : r.student + " (" + r.name + ")"), status_name(r.status), markdown_text(r.reason));
  }
  if (!any) out += "None: every submission was marked.\n";
  return out;
}

std::string summary_html(const Rubric& rubric, const ClassSummary& summary, const HtmlStyle& style, unsigned jobs) {
  const std::string& title = display_title(rubric);
  std::string out = "<main>\n<p class=\"kind muted\"><b>CLASS SUMMARY</b></p>\n";
  out += fmt::format("<h1>{}</h1>\n", html_escape(title));
  const std::vector<double>& scores = summary.scores();
  const double max = summary.max_score();
  std::string tally;
  for (std::size_t s = 0; s < submission_status_count; ++s)
    if (const int n = summary.statuses()[s]; n && SubmissionStatus(s) != SubmissionStatus::missing)
      tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", n, status_name(SubmissionStatus(s)));
  out += fmt::format("<p>{} submission{}{}{}.</p>\n", submission_count(summary), submission_count(summary) == 1 ? "" : "s",
                     tally.empty() ? "" : ": ", tally);
  if (!summary.roster_note().empty()) out += "<p>" + html_escape(summary.roster_note()) + "</p>\n";
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
    out += "<h2>Distribution of scores</h2>\n<figure>\n" + histogram_svg(summary.bins());
    out += fmt::format("<figcaption>Each bar counts the students whose score falls in that tenth of the {} marks; "
                       "the last bar includes full marks.</figcaption>\n</figure>\n", score_text(max));

    out += "<h2>Parts</h2>\n<table>\n<colgroup><col style=\"width:6.5em\"><col style=\"width:9em\"><col>"
           "<col style=\"width:7em\"></colgroup>\n<thead><tr><th scope=\"col\">Question</th><th scope=\"col\">Part</th>"
           "<th scope=\"col\">Students with full marks</th><th scope=\"col\" class=\"num\">Mean</th></tr></thead>\n<tbody>\n";
    for (std::size_t qi = 0; qi < rubric.questions.size(); ++qi) {
      const QuestionSpec& q = rubric.questions[qi];
      for (std::size_t pi = 0; pi < q.ask.size(); ++pi) {
        const ClassSummary::PartStats& p = summary.part(qi, pi);
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{} / {}</td></tr>\n", html_escape(q.id),
                           html_escape(part_label(q.ask[pi])), meter(p.marked ? static_cast<double>(p.full) / p.marked : 0),
                           score_text(p.marked ? p.total / p.marked : 0), score_text(q.marking.at(q.ask[pi]).marks));
      }
    }
    out += "</tbody>\n</table>\n";

    out += "<h2>Mistakes</h2>\n";
    if (summary.mistakes().empty()) {
      out += "<p>No typical mistakes found.</p>\n";
    } else {
      out += "<table>\n<colgroup><col style=\"width:11em\"><col style=\"width:6.5em\"><col><col></colgroup>\n"
             "<thead><tr><th scope=\"col\">Mistake</th><th scope=\"col\" class=\"num\">Students</th>"
             "<th scope=\"col\">What it means</th><th scope=\"col\">Who</th></tr></thead>\n<tbody>\n";
      for (const Mistake& m : mistakes()) {
        const auto it = summary.mistakes().find(std::string(m.code));
        if (it != summary.mistakes().end())
          out += fmt::format("<tr><td><code>{}</code></td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n",
                             html_escape(m.code), it->second, html_escape(m.explanation),
                             html_escape(who_made(summary, std::string(m.code))));
      }
      out += "</tbody>\n</table>\n";
    }
  }

  if (!summary.notices().empty()) {
    out += "<h2>Notes on the inputs</h2>\n<ul>\n";
    for (const std::string& n : summary.notices()) out += "<li>" + html_escape(n) + "</li>\n";
    if (summary.notices_left_off()) out += fmt::format("<li>… and {} more</li>\n", summary.notices_left_off());
    out += "</ul>\n";
  }
  if (!summary.flagged().empty()) {
    out += "<h2>Flagged for the teacher</h2>\n<p>Never a change of marks: <code>fits-variant-of:ID</code> means the "
           "answers are wrong for the student's own variant but right, cell for cell at the precision asked, for ID's.</p>\n<ul>\n";
    for (const std::string& line : summary.flagged()) out += "<li>" + html_escape(line) + "</li>\n";
    out += "</ul>\n";
  }
  out += "<h2>Students</h2>\n<table>\n<colgroup><col style=\"width:26%\"><col style=\"width:14%\"><col style=\"width:18%\">"
         "<col></colgroup>\n<thead><tr><th scope=\"col\">Student</th><th scope=\"col\" class=\"num\">Score</th>"
         "<th scope=\"col\">Status</th><th scope=\"col\">Reason</th></tr></thead>\n<tbody>\n";
  // A row per submission (100,000 for a large course): those rendered while
  // judging as they are, the rest in pieces on up to `jobs` threads.
  const std::string out_of = out_of_text(max);
  const std::vector<ClassSummary::Row>& rows = summary.rows();
  const std::size_t first = summary.rows_html_count();
  constexpr std::size_t piece_rows = 4096;
  std::vector<std::string> pieces((rows.size() - first + piece_rows - 1) / piece_rows);
  parallel_for(pieces.size(), jobs, [&](std::size_t i) {
    for (std::size_t k = first + i * piece_rows; k < std::min(rows.size(), first + (i + 1) * piece_rows); ++k)
      append_row_html(pieces[i], rows[k], out_of);
  });
  std::size_t size = out.size() + summary.rows_html().size();
  for (const std::string& piece : pieces) size += piece.size();
  out.reserve(size + 64);
  out += summary.rows_html();
  for (const std::string& piece : pieces) out += piece;
  out += "</tbody>\n</table>\n</main>\n";
  return html_page("Class summary: " + title, style, report_css(), out);
}

}  // namespace attnmark
