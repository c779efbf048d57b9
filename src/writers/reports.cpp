#include "writers/reports.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

#include "lesson/diagnosis.h"
#include "lesson/numbers.h"
#include "writers/csv_writer.h"

namespace attnmark {
namespace {

// Markdown text from a student: nothing they wrote can become markup.
std::string md(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\`*_[]<>|~&").find(c) != std::string_view::npos) out += '\\';
    out += c == '\n' || c == '\r' ? ' ' : c;
  }
  return out;
}

const char* symbol(Verdict v) {
  switch (v) {
    case Verdict::correct: return "✓";
    case Verdict::carried: return "✓*";
    case Verdict::imprecise: return "≈";
    case Verdict::wrong: return "✗";
    case Verdict::unanswered: return "·";
    case Verdict::unreadable: return "?";
  }
  return "?";
}

// A part's name for people: "most attended", not "most_attended".
std::string part_heading(Part p) {
  std::string name = part_name(p);
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

double max_score(const Rubric& rubric) {
  double total = 0;
  for (const QuestionSpec& q : rubric.questions)
    for (const auto& [part, m] : q.marking) total += m.marks;
  return total;
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

ClassSummary::ClassSummary(const Rubric& rubric) : max_score_(attnmark::max_score(rubric)) {
  for (const QuestionSpec& q : rubric.questions) parts_.emplace_back(q.ask.size());
}

void ClassSummary::add(const GradedSubmission& g) {
  rows_.push_back(Row{g.source, g.student, g.status, g.reason, g.file_stem,
                      g.marked ? std::optional<double>(g.marked->score) : std::nullopt});
  if (!g.marked || g.status == "duplicate") return;
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
  for (const std::string& d : seen) ++mistakes_[d];
}

void ClassSummary::append(ClassSummary&& later) {
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
}

std::string score_text(double score) {
  std::string text = format_fixed(score, 2);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string gradebook_header(const Rubric& rubric) {
  std::string out = "student,variant,status,score,max_score";
  for (const QuestionSpec& q : rubric.questions) {
    out += ',';
    out += csv_field(q.id);
  }
  out += ",source,reason\r\n";
  return out;
}

void append_gradebook_row(std::string& out, const Rubric& rubric, const GradedSubmission& g) {
  out += csv_text_field(g.student);
  out += ',';
  out += csv_text_field(g.variant);
  out += ',';
  out += g.status;
  out += ',';
  if (g.marked) out += score_text(g.marked->score);
  out += ',';
  out += score_text(max_score(rubric));
  for (std::size_t i = 0; i < rubric.questions.size(); ++i) {
    out += ',';
    if (g.marked) out += score_text(g.marked->questions[i].score);
  }
  out += ',';
  out += csv_text_field(g.source);
  out += ',';
  out += csv_text_field(g.reason);
  out += "\r\n";
}
namespace {

// A JSON string: quotes, backslashes and control characters escaped.
void json_string(std::string& out, std::string_view text) {
  out += '"';
  std::size_t plain = 0;  // start of the run of characters copied as they are
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.data() + plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += fmt::format("\\u{:04x}", c);
    }
  }
  out.append(text.data() + plain, text.size() - plain);
  out += '"';
}

// A JSON string of our own making that needs no escapes ("1.2", "correct").
void json_plain(std::string& out, std::string_view text) {
  out += '"';
  out += text;
  out += '"';
}

void json_strings(std::string& out, const std::vector<std::string>& list) {
  out += '[';
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out += ',';
    json_string(out, list[i]);
  }
  out += ']';
}

}  // namespace

// Written by hand rather than through a JSON library: a course of 100,000
// students writes millions of cells, and this is the hot path.
void append_feedback_json(std::string& out, const GradedSubmission& g) {
  out += "{\"student\":";
  json_string(out, g.student);
  out += ",\"variant\":";
  json_string(out, g.variant);
  out += ",\"source\":";
  json_string(out, g.source);
  out += ",\"status\":";
  json_string(out, g.status);
  out += ",\"reason\":";
  json_string(out, g.reason);
  auto number = [&](const char* key, double x) {
    out += key;
    append_exact(out, x);
  };
  if (g.marked) {
    number(",\"score\":", g.marked->score);
    number(",\"max_score\":", g.marked->max_score);
    out += ",\"notes\":";
    json_strings(out, g.marked->notes);
  } else {
    out += ",\"score\":null,\"max_score\":null";
  }
  out += ",\"questions\":[";
  if (g.marked) {
    for (std::size_t qi = 0; qi < g.marked->questions.size(); ++qi) {
      const QuestionResult& q = g.marked->questions[qi];
      if (qi) out += ',';
      out += "{\"id\":";
      json_string(out, q.id);
      number(",\"score\":", q.score);
      number(",\"max_score\":", q.max_score);
      out += ",\"parts\":{";
      for (std::size_t pi = 0; pi < q.parts.size(); ++pi) {
        const PartResult& p = q.parts[pi];
        if (pi) out += ',';
        json_plain(out, part_name(p.part));
        number(":{\"score\":", p.score);
        number(",\"max_score\":", p.max_score);
        out += p.follow_through ? ",\"follow_through\":true,\"diagnoses\":" : ",\"follow_through\":false,\"diagnoses\":";
        json_strings(out, p.diagnoses);
        out += ",\"hints\":";
        json_strings(out, p.hints);
        out += ",\"cells\":[";
        for (std::size_t ci = 0; ci < p.cells.size(); ++ci) {
          const CellResult& c = p.cells[ci];
          if (ci) out += ',';
          out += "{\"cell\":";
          json_plain(out, c.label);
          out += ",\"given\":";
          json_string(out, c.given);
          if (c.value) {
            out += ",\"value\":";
            append_exact(out, *c.value, c.given);
          }
          else out += c.masked ? ",\"value\":\"masked\"" : ",\"value\":null";
          out += ",\"verdict\":";
          json_plain(out, verdict_name(c.verdict));
          if (!c.note.empty()) {
            out += ",\"note\":";
            json_string(out, c.note);
          }
          out += '}';
        }
        out += "]}";
      }
      out += "}}";
    }
  }
  out += "]}";
}

std::string feedback_markdown(const Rubric& rubric, const GradedSubmission& g, bool reveal) {
  std::string out = fmt::format("# Feedback: {}\n\n", md(rubric.title.empty() ? rubric.name : rubric.title));
  out += fmt::format("Student: {} · Variant: {} · Status: {}\n\n", md(g.student.empty() ? "(none)" : g.student),
                     g.variant.empty() ? "(unknown)" : g.variant, g.status);
  if (!g.reason.empty()) out += fmt::format("{}\n\n", md(g.reason));
  if (!g.marked) return out;
  out += fmt::format("**Score: {} / {}**\n\n", score_text(g.marked->score), score_text(g.marked->max_score));
  out += "✓ right · ✓* right for your earlier answers (follow-through) · ≈ right but not to the decimals asked · "
         "✗ wrong · · blank · ? could not be read\n\n";
  for (const QuestionResult& q : g.marked->questions) {
    out += fmt::format("## {}: {} / {}\n\n", q.id, score_text(q.score), score_text(q.max_score));
    for (const PartResult& p : q.parts) {
      out += fmt::format("### {}: {} / {}\n\n", part_heading(p.part), score_text(p.score), score_text(p.max_score));
      out += reveal ? "| Cell | Your answer | Mark | Answer |\n|---|---|---|---|\n" : "| Cell | Your answer | Mark |\n|---|---|---|\n";
      for (const CellResult& c : p.cells) {
        out += fmt::format("| {} | {} | {} |", c.label.empty() ? "-" : c.label, md(c.given), symbol(c.verdict));
        out += reveal ? fmt::format(" {} |\n", md(c.expected)) : "\n";
      }
      out += "\n";
      for (const std::string& h : p.hints) out += "- " + md(h) + "\n";
      if (!p.hints.empty()) out += "\n";
    }
  }
  for (const std::string& n : g.marked->notes) out += "- Note: " + md(n) + "\n";
  return out;
}

std::string summary_markdown(const Rubric& rubric, const ClassSummary& summary) {
  std::string out = fmt::format("# Class summary: {}\n\n", md(rubric.title.empty() ? rubric.name : rubric.title));
  std::map<std::string, int> statuses;
  for (const ClassSummary::Row& r : summary.rows()) ++statuses[r.status];
  const std::vector<double>& scores = summary.scores();
  const double max = summary.max_score();
  out += fmt::format("{} submission{}: ", summary.rows().size(), summary.rows().size() == 1 ? "" : "s");
  bool first = true;
  for (const auto& [status, n] : statuses) {
    out += fmt::format("{}{} {}", first ? "" : ", ", n, status);
    first = false;
  }
  out += ".\n\n";
  if (!scores.empty()) {
    out += fmt::format("Marked: {} · Mean: {} / {} · Median: {} · Lowest: {} · Highest: {}\n\n", scores.size(),
                       score_text(mean(scores)), score_text(max), score_text(median(scores)),
                       score_text(*std::min_element(scores.begin(), scores.end())),
                       score_text(*std::max_element(scores.begin(), scores.end())));
    out += "## Distribution\n\n| Score | Students | |\n|---|---|---|\n";
    for (int bin = 0; bin < 10; ++bin) {
      // Tenths of the maximum; the last bin includes full marks.
      int n = 0;
      for (double s : scores) {
        const int b = max > 0 ? std::min(9, static_cast<int>(std::floor(10 * s / max + 1e-9))) : 9;
        n += b == bin;
      }
      out += fmt::format("| {}–{}% | {} | {} |\n", 10 * bin, bin == 9 ? 100 : 10 * bin + 9, n,
                         std::string(static_cast<std::size_t>(std::min(n, 60)), '#'));
    }
    out += "\n## Parts\n\n| Question | Part | Full marks | Mean |\n|---|---|---|---|\n";
    for (std::size_t qi = 0; qi < rubric.questions.size(); ++qi) {
      const QuestionSpec& q = rubric.questions[qi];
      for (std::size_t pi = 0; pi < q.ask.size(); ++pi) {
        const ClassSummary::PartStats& p = summary.part(qi, pi);
        out += fmt::format("| {} | {} | {}% | {} / {} |\n", q.id, part_heading(q.ask[pi]),
                           p.marked ? 100 * p.full / p.marked : 0, score_text(p.marked ? p.total / p.marked : 0),
                           score_text(q.marking.at(q.ask[pi]).marks));
      }
    }
    out += "\n## Mistakes\n\n";
    if (summary.mistakes().empty()) out += "No typical mistakes found.\n\n";
    else out += "| Mistake | Students | What it means |\n|---|---|---|\n";
    for (const Mistake& m : mistakes()) {
      auto it = summary.mistakes().find(std::string(m.code));
      if (it != summary.mistakes().end()) out += fmt::format("| `{}` | {} | {} |\n", m.code, it->second, m.explanation);
    }
    out += "\n";
  }
  out += "## Problem submissions\n\n";
  bool any = false;
  for (const ClassSummary::Row& r : summary.rows()) {
    if (r.status == "graded") continue;
    if (!any) out += "| Source | Student | Status | Reason |\n|---|---|---|---|\n";
    any = true;
    out += fmt::format("| {} | {} | {} | {} |\n", md(r.source), md(r.student), r.status, md(r.reason));
  }
  if (!any) out += "None: every submission was marked.\n";
  return out;
}

std::string check_table(const Rubric& rubric, const GradedSubmission& g, bool reveal) {
  std::string out = fmt::format("attnmark check: {} · student {} · variant {}\n",
                                rubric.name, g.student.empty() ? "(none)" : g.student, g.variant);
  if (!g.reason.empty()) out += g.reason + "\n";
  if (!g.marked) return out;
  out += "✓ right  ✓* right for your earlier answers  ≈ too few decimals  ✗ wrong  · blank  ? unreadable\n\n";
  for (const QuestionResult& q : g.marked->questions) {
    out += fmt::format("{:<16}{:>9}\n", q.id, score_text(q.score) + " / " + score_text(q.max_score));
    for (const PartResult& p : q.parts) {
      std::string marks;
      for (const CellResult& c : p.cells) {
        if (!marks.empty()) marks += ' ';
        marks += symbol(c.verdict);
        if (reveal) marks += "(" + c.expected + ")";
      }
      out += fmt::format("  {:<14}{:>9}   {}\n", part_heading(p.part), score_text(p.score) + " / " + score_text(p.max_score), marks);
      for (const std::string& h : p.hints) out += "      hint: " + h + "\n";
    }
  }
  for (const std::string& n : g.marked->notes) out += "note: " + n + "\n";
  out += fmt::format("\nTotal: {} / {}\n", score_text(g.marked->score), score_text(g.marked->max_score));
  return out;
}

}  // namespace attnmark
