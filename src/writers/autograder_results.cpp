#include "writers/autograder_results.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/text.h"
#include "attnmark/lesson/numbers.h"
#include "writers/feedback.h"
#include "writers/report_words.h"

namespace attnmark {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t wide = 1000;  // a line of student text shown whole, as check shows it

// `text` cut to at most max_bytes at the end of a UTF-8 character, with a
// line saying so. REQUIRES: text is UTF-8.
std::string cut(const std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + "\n… (cut here: the rest would pass the platform's size limit)\n";
}

// Indented, with a newline at the end. Text is printable() before it gets
// here; `replace` is the guard should anything else slip through.
std::string dump(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n"; }

// results.json as text, kept under max_results_bytes: the long texts (the
// output, then each test's `field`) are cut until it fits.
std::string bounded_dump(Json j, const char* field) {
  std::string text = dump(j);
  if (text.size() <= max_results_bytes) return text;
  if (j.contains("output")) {
    const std::size_t over = text.size() - max_results_bytes;
    const std::string& output = j["output"].get_ref<const std::string&>();
    j["output"] = cut(output, output.size() > over + 200 ? output.size() - over - 200 : 0);
    text = dump(j);
  }
  for (std::size_t cap = 4000; text.size() > max_results_bytes && cap >= 100; cap /= 4) {
    for (Json& t : j["tests"])
      if (t.contains(field)) t[field] = cut(t[field].get_ref<const std::string&>(), cap);
    text = dump(j);
  }
  return text;
}

std::string score_of(const GradedSubmission& g, double max) {
  return (g.marked ? score_text(g.marked->score) : "0") + " / " + score_text(max);
}

// Why a submission was not marked, after the file's name when there is one.
std::string unmarked_reason(const GradedSubmission& g) {
  const std::string reason = bounded_reason(g.reason, max_reason_bytes);
  return g.source.empty() ? reason : printable(g.source, 200) + ": " + reason;
}

}  // namespace

std::string autograder_output(const Rubric& rubric, const GradedSubmission& g, const std::vector<std::string>& notes) {
  std::string out;
  for (const std::string& n : notes) out += printable(n, wide) + "\n";
  if (!notes.empty()) out += "\n";
  if (g.marked) return out + check_table(rubric, g, false);
  out += fmt::format("attnmark: {} · student {}\n", printable(rubric.name, wide),
                     g.student.empty() ? "(none)" : printable(g.student, wide));
  out += unmarked_reason(g) + "\n";
  out += fmt::format("Not marked ({}). Score {}. Correct the file and submit it again.\n", status_name(g.status),
                     score_of(g, max_score(rubric)));
  return out;
}

std::string part_output(const QuestionResult& q, const PartResult& p) {
  std::string out, line;
  std::size_t row = 0;
  for (const CellResult& c : p.cells) {
    const std::size_t at = p.part == Part::most_attended ? 0 : cell_position(c.label).row;
    if (at != row && !line.empty()) out += line + "\n", line.clear();
    row = at;
    if (line.empty() && at > 0) {
      const std::size_t query = at - 1 < q.query_rows.size() ? q.query_rows[at - 1] : q.tokens.size();
      line = (query < q.tokens.size() ? printable(q.tokens[query], wide) : std::to_string(at)) + ":";
    }
    if (!line.empty()) line += ' ';
    line += verdict_look(c.verdict).symbol;
  }
  if (!line.empty()) out += line + "\n";
  for (const std::string& h : p.hints) out += "hint: " + printable(h, wide) + "\n";
  return out;
}

std::string gradescope_results(const Rubric& rubric, const GradedSubmission& g, const std::vector<std::string>& notes) {
  Json j;
  j["score"] = g.marked ? round_to(g.marked->score, 2) : 0.0;
  j["output"] = autograder_output(rubric, g, notes);
  j["output_format"] = "text";
  j["test_output_format"] = "text";
  j["visibility"] = "visible";
  j["extra_data"] = {{"student", printable(g.student, wide)},
                     {"variant", printable(g.variant, wide)},
                     {"status", status_name(g.status)}};
  Json tests = Json::array();
  for (std::size_t qi = 0; qi < rubric.questions.size(); ++qi) {
    const QuestionSpec& spec = rubric.questions[qi];
    const QuestionResult* q = nullptr;
    if (g.marked)
      for (const QuestionResult& r : g.marked->questions)
        if (r.id == spec.id) q = &r;
    for (std::size_t pi = 0; pi < spec.ask.size(); ++pi) {
      const Part part = spec.ask[pi];
      const PartResult* p = nullptr;
      if (q)
        for (const PartResult& r : q->parts)
          if (r.part == part) p = &r;
      const double max = spec.marking.at(part).marks;
      Json t;
      t["name"] = spec.id + " " + part_label(part);
      t["number"] = fmt::format("{}.{}", qi + 1, pi + 1);
      t["score"] = p ? round_to(p->score, 2) : 0.0;
      t["max_score"] = max;
      t["status"] = p && p->score >= p->max_score - 1e-9 ? "passed" : "failed";
      t["output"] = p ? part_output(*q, *p) : "not marked: see the output above\n";
      tests.push_back(std::move(t));
    }
  }
  j["tests"] = std::move(tests);
  return bounded_dump(std::move(j), "output");
}

std::string prairielearn_results(const Rubric& rubric, const GradedSubmission& g,
                                 const std::vector<std::string>& notes) {
  const double max = max_score(rubric);
  Json j;
  j["gradable"] = g.marked.has_value();
  if (!g.marked) {
    j["format_errors"] = Json::array({unmarked_reason(g)});
    for (const std::string& n : notes) j["format_errors"].push_back(printable(n, wide));
    j["message"] = fmt::format("Not marked ({}): {}", status_name(g.status), printable(unmarked_reason(g), 2000));
    j["output"] = autograder_output(rubric, g, notes);
    return bounded_dump(std::move(j), "message");
  }
  j["score"] = max > 0 ? g.marked->score / max : 0.0;
  j["message"] = fmt::format("{} / {}", score_text(g.marked->score), score_text(max));
  j["output"] = autograder_output(rubric, g, notes);
  Json tests = Json::array();
  for (const QuestionResult& q : g.marked->questions)
    for (const PartResult& p : q.parts) {
      Json t;
      t["name"] = q.id + " " + part_label(p.part);
      t["points"] = round_to(p.score, 2);
      t["max_points"] = p.max_score;
      t["message"] = part_output(q, p);
      tests.push_back(std::move(t));
    }
  j["tests"] = std::move(tests);
  return bounded_dump(std::move(j), "message");
}

}  // namespace attnmark
