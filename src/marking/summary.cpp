#include "marking/summary.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <iterator>

#include "attnmark/lesson/diagnosis.h"
#include "base/text.h"
#include "writers/report_words.h"

namespace attnmark {
namespace {

// Submissions in the summary: its rows but the roster's missing students.
std::size_t submission_count(const ClassSummary& summary) {
  return summary.rows().size() - static_cast<std::size_t>(summary.statuses()[static_cast<std::size_t>(SubmissionStatus::missing)]);
}

// "Lovelace, Ada (s001); s002 and 3 more": who made a mistake, as the
// summaries list them (a roster's "Last, First" name holds a comma).
std::string who_made(const ClassSummary& summary, const std::string& code) {
  const auto list = summary.mistake_students().find(code);
  if (list == summary.mistake_students().end()) return std::string();
  std::string out;
  for (const std::string& who : list->second) out += (out.empty() ? "" : "; ") + printable(who, 120);
  const int total = summary.mistakes().at(code);
  if (static_cast<std::size_t>(total) > list->second.size())
    out += fmt::format(" and {} more", total - static_cast<int>(list->second.size()));
  return out;
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

void ClassSummary::render_rows_html() {
  for (; rows_html_count_ < rows_.size(); ++rows_html_count_)
    append_report_row_html(rows_html_, rows_[rows_html_count_], max_score_);
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
  rows_.push_back(ReportRow{g.source, g.student, g.name, g.status, std::move(reason), g.file_stem,
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
  // The id beside the name: the teacher finds the row, and two Ada Smiths are two.
  const std::string who = g.name.empty() ? g.student : g.student.empty() ? g.name : g.name + " (" + g.student + ")";
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

ClassReport class_report(const Rubric& rubric, const ClassSummary& summary) {
  ClassReport report;
  report.title = display_title(rubric);
  report.submissions = submission_count(summary);
  for (std::size_t s = 0; s < submission_status_count; ++s)
    // (Missing students are no submissions: the roster line counts them.)
    if (const int n = summary.statuses()[s]; n && SubmissionStatus(s) != SubmissionStatus::missing)
      report.tally.emplace_back(SubmissionStatus(s), n);
  report.roster_note = summary.roster_note();
  report.max_score = summary.max_score();
  const std::vector<double>& scores = summary.scores();
  if (!scores.empty()) {
    const auto [lowest, highest] = std::minmax_element(scores.begin(), scores.end());
    report.figures = ClassReport::Figures{scores.size(), mean(scores), median(scores), *lowest, *highest};
    report.bins = summary.bins();
    for (std::size_t qi = 0; qi < rubric.questions.size(); ++qi) {
      const QuestionSpec& q = rubric.questions[qi];
      for (std::size_t pi = 0; pi < q.ask.size(); ++pi) {
        const ClassSummary::PartStats& p = summary.part(qi, pi);
        report.parts.push_back({q.id, part_label(q.ask[pi]), p.marked, p.full, p.marked ? p.total / p.marked : 0,
                                q.marking.at(q.ask[pi]).marks});
      }
    }
    for (const Mistake& m : mistakes())
      if (const auto it = summary.mistakes().find(std::string(m.code)); it != summary.mistakes().end())
        report.mistakes.push_back({std::string(m.code), std::string(m.explanation), it->second,
                                   who_made(summary, std::string(m.code))});
  }
  report.notices = summary.notices();
  report.notices_left_off = summary.notices_left_off();
  report.flagged = summary.flagged();
  report.rows = summary.rows();
  report.rows_html = summary.rows_html();
  report.rows_html_count = summary.rows_html_count();
  return report;
}

std::string summary_markdown(const Rubric& rubric, const ClassSummary& summary) {
  return summary_markdown(class_report(rubric, summary));
}

std::string summary_html(const Rubric& rubric, const ClassSummary& summary, const HtmlStyle& style, unsigned jobs) {
  return summary_html(class_report(rubric, summary), style, jobs);
}

}  // namespace attnmark
