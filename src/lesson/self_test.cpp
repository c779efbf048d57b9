#include "attnmark/lesson/self_test.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <set>

#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/diagnosis.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/tolerance.h"
#include "attnmark/lesson/variant.h"

namespace attnmark {
namespace {

bool asks(const QuestionSpec& spec, Part p) { return std::find(spec.ask.begin(), spec.ask.end(), p) != spec.ask.end(); }

// A matrix as a student writes it: rounded as asked, "masked" for a masked score.
std::vector<std::vector<std::string>> written(const Matrix& m, int decimals) {
  std::vector<std::vector<std::string>> rows;
  for (const Vector& row : m) {
    rows.emplace_back();
    for (double x : row) rows.back().push_back(x == masked_score ? "masked" : format_fixed(x, decimals));
  }
  return rows;
}

void put(Submission& s, const QuestionVariant& q, Part p, const Matrix& m) {
  s.answers[q.spec->id][part_name(p)].rows = written(m, q.spec->decimals(p));
}


// `m` rounded to `decimals`, masked scores kept.
Matrix rounded(Matrix m, int decimals) {
  for (Vector& row : m)
    for (double& x : row)
      if (x != masked_score) x = round_to(x, decimals);
  return m;
}

// True when no marker could tell `a` from `b` at this step: every cell of
// one within the grader's own tolerance of the other's.
bool alike(const QuestionVariant& q, Part part, const Matrix& a, const Matrix& b) {
  for (std::size_t r = 0; r < a.size(); ++r)
    for (std::size_t c = 0; c < a[r].size(); ++c) {
      const bool masked = a[r][c] == masked_score || b[r][c] == masked_score;
      // The window's wider side, both ways: a weight's window leans to the
      // lesson's side of the exact weight, which says nothing of two mistakes.
      if (masked ? a[r][c] != b[r][c]
                 : !(std::fabs(a[r][c] - b[r][c]) <= half_width(cell_tolerance(q, part, r, c), b[r][c])))
        return false;
    }
  return true;
}

// Right answers as students also write them.
using Spelling = std::function<std::string(const std::string& part, const std::string& cell)>;
const std::vector<std::pair<std::string, Spelling>>& spellings() {
  static const std::vector<std::pair<std::string, Spelling>> all = {
      {"as asked", [](const std::string&, const std::string& c) { return c; }},
      {"decimal commas",
       [](const std::string&, const std::string& c) {
         std::string out = c;
         std::replace(out.begin(), out.end(), '.', ',');
         return out;
       }},
      {"weights as percentages",
       [](const std::string& part, const std::string& c) {
         if (part != "weights") return c;
         const std::size_t dot = c.find('.');
         const int decimals = dot == std::string::npos ? 0 : static_cast<int>(c.size() - dot - 1);
         return format_fixed(std::stod(c) * 100, std::max(0, decimals - 2)) + "%";
       }},
      {"spaces and signs",
       [](const std::string&, const std::string& c) {
         return c[0] == '-' ? " \xE2\x88\x92" + c.substr(1) + " " : " +" + c + " ";
       }},
  };
  return all;
}

// Every number of `s` (not words, not masked scores) respelt.
void respell(Submission& s, const Spelling& spell) {
  for (auto& [question, parts] : s.answers)
    for (auto& [part, answer] : parts)
      if (part != "most_attended")
        for (auto& row : answer.rows)
          for (std::string& cell : row)
            if (cell != "masked") cell = spell(part, cell);
}

// True when two rows of a part round alike to the decimals asked.
bool alike_row(const QuestionVariant& q, Part part, const Vector& a, const Vector& b) {
  const int d = q.spec->decimals(part);
  for (std::size_t c = 0; c < a.size(); ++c)
    if ((a[c] == masked_score) != (b[c] == masked_score) ||
        (a[c] != masked_score && round_to(a[c], d) != round_to(b[c], d)))
      return false;
  return true;
}

// The student's work on question qi from `scores` on: the right method from
// them, written as asked.
void work_from(Submission& s, const QuestionVariant& q, const Matrix& scores) {
  put(s, q, Part::scores, scores);
  const Matrix weights = rounded(softmax_rows(scores), q.spec->decimals(Part::weights));
  if (asks(*q.spec, Part::weights)) put(s, q, Part::weights, weights);
  if (asks(*q.spec, Part::output)) put(s, q, Part::output, mix_values(weights, q.values));
  if (asks(*q.spec, Part::most_attended)) {
    PartAnswer& a = s.answers[q.spec->id]["most_attended"];
    a.rows = {{}};
    for (std::size_t t : most_attended(weights)) a.rows[0].push_back(q.tokens[t]);
  }
}

// The rule cases of one question of one variant (SelfTest::unfair_rules).
void rule_cases(const Variant& v, std::size_t qi, SelfTest& out) {
  const QuestionVariant& q = v.questions[qi];
  const std::string& id = q.spec->id;
  const auto part_result = [&](const Marked& m, Part p) -> const PartResult* {
    for (const PartResult& r : m.questions[qi].parts)
      if (r.part == p) return &r;
    return nullptr;
  };
  const int dw = asks(*q.spec, Part::weights) ? q.spec->decimals(Part::weights) : 3;
  const bool follows = asks(*q.spec, Part::scores) && asks(*q.spec, Part::weights) &&
                       q.spec->marking.at(Part::weights).follow_through;
  for (std::size_t r = 0; follows && r < q.scores.size(); ++r) {
    std::vector<std::size_t> open;
    for (std::size_t j = 0; j < q.scores[r].size(); ++j)
      if (q.scores[r][j] != masked_score) open.push_back(j);
    if (open.size() < 2 || trivial_weights(q.weights[r], q.scores[r], dw)) continue;
    // An honest slip: one score of the row one unit off, the rest right.
    Matrix slipped = q.scores;
    for (double step : {1.0, -1.0, 2.0}) {
      slipped[r] = q.scores[r];
      slipped[r][open.back()] += step;
      Vector w;
      softmax_into(slipped[r], w);
      if (!trivial_weights(w, slipped[r], dw)) break;
    }
    Submission s = key_answers(v);
    work_from(s, q, slipped);
    const Marked m = grade(v, s);
    ++out.rule_cases;
    for (Part p : {Part::weights, Part::output}) {
      const PartResult* part = part_result(m, p);
      if (part && part->score < part->max_score - 1e-9)
        out.unfair_rules.push_back(fmt::format("{}, {}: an honest slip in scores row {} lost marks in {} ({} / {})",
                                               v.student, id, r + 1, part_label(p), format_exact(part->score),
                                               format_exact(part->max_score)));
    }
    if (const PartResult* part = part_result(m, Part::scores); part && (!part->went_off || part->went_off->part != Part::scores))
      out.unfair_rules.push_back(fmt::format("{}, {}: an honest slip in scores row {} is not said to be where the working went off",
                                             v.student, id, r + 1));
    // A degenerate row: every score of the row equal (the row's first right
    // one), the weights and output worked from it; nothing of it is carried.
    // (A value a typical mistake would also give the row, or its weights,
    // is not tried: that row is the mistake's, an honest attempt.)
    Matrix equal = q.scores;
    bool found = false;
    const std::vector<MistakenAnswer> score_mistakes = mistaken_answers(q, Part::scores, q.scores, q.weights, false);
    const std::vector<MistakenAnswer> weight_mistakes = mistaken_answers(q, Part::weights, q.scores, q.weights, false);
    for (std::size_t pick = 0; pick < open.size() && !found; ++pick) {
      for (std::size_t j : open) equal[r][j] = q.scores[r][open[pick]];
      Vector w;
      softmax_into(equal[r], w);
      found = true;
      for (const MistakenAnswer& m : score_mistakes) found = found && !alike_row(q, Part::scores, m.numbers[r], equal[r]);
      for (const MistakenAnswer& m : weight_mistakes) found = found && !alike_row(q, Part::weights, m.numbers[r], w);
    }
    if (!found) continue;
    Submission d = key_answers(v);
    work_from(d, q, equal);
    const Marked dm = grade(v, d);
    ++out.rule_cases;
    for (Part p : {Part::weights, Part::output, Part::most_attended}) {
      const PartResult* part = part_result(dm, p);
      if (!part) continue;
      const std::size_t per_row = part->cells.size() / q.scores.size();
      for (std::size_t c = r * per_row; c < (r + 1) * per_row && c < part->cells.size(); ++c)
        if (part->cells[c].verdict == Verdict::carried) {
          out.unfair_rules.push_back(fmt::format("{}, {}: equal scores in row {} earned carried credit in {}", v.student,
                                                 id, r + 1, part_label(p)));
          break;
        }
    }
  }
  // The right most attended token as students also write it.
  if (asks(*q.spec, Part::most_attended) && q.most_attended.size() == 1) {
    const std::string& token = q.tokens[q.most_attended[0]];
    const std::string weight = format_fixed(q.weights[0][q.most_attended[0]], dw);
    for (const std::string& text : {token + ".", "'" + token + "'", token + " (" + weight + ")", "\"" + token + "\""}) {
      Submission s = key_answers(v);
      s.answers[id]["most_attended"].rows = {{text}};
      const Marked m = grade(v, s);
      ++out.rule_cases;
      const PartResult* part = part_result(m, Part::most_attended);
      if (part && part->score < part->max_score - 1e-9)
        out.unfair_rules.push_back(fmt::format("{}, {}: the most attended token written {} lost marks", v.student, id, text));
    }
  }
}

}  // namespace

Submission key_answers(const Variant& v) {
  Submission s;
  s.student = v.student;
  for (const QuestionVariant& q : v.questions)
    for (Part p : q.spec->ask) switch (p) {
        case Part::query:
        case Part::queries: put(s, q, p, q.queries); break;
        case Part::keys: put(s, q, p, q.keys); break;
        case Part::values: put(s, q, p, q.values); break;
        case Part::scores: put(s, q, p, q.scores); break;
        case Part::weights: put(s, q, p, q.weights); break;
        case Part::output: put(s, q, p, q.output); break;
        case Part::most_attended: {
          PartAnswer& a = s.answers[q.spec->id]["most_attended"];
          a.rows = {{}};
          for (std::size_t t : q.most_attended) a.rows[0].push_back(q.tokens[t]);
          break;
        }
      }
  return s;
}

bool SelfTest::fair() const {
  if (!unfair_spellings.empty() || !unfair_rules.empty()) return false;
  return std::all_of(parts.begin(), parts.end(), [](const SelfTestPart& p) { return p.wrongly_named.empty(); });
}

SelfTest self_test(const Rubric& rubric, std::uint64_t seed, int variants) {
  SelfTest out;
  out.variants = variants;
  out.spellings = static_cast<int>(spellings().size());
  std::map<std::pair<std::string, Part>, std::size_t> index;  // (question, part) → out.parts
  for (const QuestionSpec& q : rubric.questions)
    for (Part p : {Part::scores, Part::weights, Part::output})
      if (asks(q, p)) {
        index[{q.id, p}] = out.parts.size();
        out.parts.push_back(SelfTestPart{q.id, p, {}, {}, {}});
      }
  for (int i = 1; i <= variants; ++i) {
    const std::string student = fmt::format("self-test-{}", i);
    const Variant v = make_variant(rubric, seed, student);
    // Right answers, in every spelling.
    for (const auto& [name, spell] : spellings()) {
      Submission s = key_answers(v);
      respell(s, spell);
      const Marked m = grade(v, s);
      for (const QuestionResult& q : m.questions)
        for (const PartResult& p : q.parts)
          if (p.score < p.max_score || !p.diagnoses.empty())
            out.unfair_spellings.push_back(fmt::format("{}, {}: {}.{} {} / {}{}", student, name, q.id, part_name(p.part),
                                                       format_exact(p.score), format_exact(p.max_score),
                                                       p.diagnoses.empty() ? "" : " (named " + p.diagnoses[0] + ")"));
    }
    // Every mistake, at the step it is made, with the right method after it.
    for (std::size_t qi = 0; qi < v.questions.size(); ++qi) {
      const QuestionVariant& q = v.questions[qi];
      rule_cases(v, qi, out);
      for (Part stage : {Part::scores, Part::weights, Part::output}) {
        if (!asks(*q.spec, stage)) continue;
        SelfTestPart& report = out.parts[index.at({q.spec->id, stage})];
        const int decimals = q.spec->decimals(stage);
        const std::vector<MistakenAnswer> made = mistaken_answers(q, stage, q.scores, q.weights, false);
        const Matrix& right = stage == Part::scores ? q.scores : stage == Part::weights ? q.weights : q.output;
        // An output is also right for the weights as the key writes them (the
        // grader accepts both): a mistake that lands there is no mistake.
        const Matrix right_for_written = mix_values(rounded(q.weights, q.spec->decimals(Part::weights)), q.values);
        std::set<std::pair<std::string, std::string>> alike_here;  // counted once per variant
        // What a student making each mistake writes: rounded as asked.
        std::vector<Matrix> shown;
        for (const MistakenAnswer& m : made) shown.push_back(rounded(m.numbers, decimals));
        for (std::size_t k = 0; k < made.size(); ++k) {
          const MistakenAnswer& m = made[k];
          if (alike(q, stage, shown[k], right)) continue;  // the right answer, to the marker
          if (stage == Part::output && alike(q, stage, shown[k], right_for_written)) continue;
          bool like_another = false;
          for (std::size_t o = 0; o < made.size(); ++o)
            if (made[o].code != m.code && alike(q, stage, shown[k], shown[o])) {
              const MistakenAnswer& other = made[o];
              like_another = true;
              alike_here.insert(std::minmax(m.code, other.code));
            }
          if (like_another) continue;
          Submission s = key_answers(v);
          Matrix scores = q.scores, weights = q.weights;
          if (stage == Part::scores) {
            scores = shown[k];  // the student goes on from the scores as written
            weights = softmax_rows(scores);
          }
          if (stage == Part::weights) weights = m.numbers;
          put(s, q, Part::scores, scores);
          if (asks(*q.spec, Part::weights)) put(s, q, Part::weights, weights);
          const Matrix written_weights = rounded(weights, q.spec->decimals(Part::weights));
          if (asks(*q.spec, Part::output))
            put(s, q, Part::output, stage == Part::output ? m.numbers : mix_values(written_weights, q.values));
          if (asks(*q.spec, Part::most_attended)) {
            PartAnswer& a = s.answers[q.spec->id]["most_attended"];
            a.rows = {{}};
            for (std::size_t t : most_attended(written_weights)) a.rows[0].push_back(q.tokens[t]);
          }
          // The same work in every spelling students use.
          for (const auto& [spelling, spell] : spellings()) {
            Submission spelt = s;
            respell(spelt, spell);
            const Marked marked = grade(v, spelt);
            auto& [made_count, named_count] = report.named[m.code];
            ++made_count;
            std::vector<std::string> codes;
            bool after = false, later_full = true;
            for (const PartResult& p : marked.questions[qi].parts) {
              for (const std::string& d : p.diagnoses) codes.push_back(d);
              if (after && p.part != Part::most_attended && p.score < p.max_score - 1e-9) later_full = false;
              if (p.part == stage) after = true;
            }
            if (codes == std::vector<std::string>{m.code} && later_full) {
              ++named_count;
            } else if (codes != std::vector<std::string>{m.code}) {
              std::string named;
              for (const std::string& c : codes) named += (named.empty() ? "" : ", ") + c;
              report.wrongly_named.push_back(fmt::format("{} on {}, {}: named {}", m.code, student, spelling,
                                                         named.empty() ? "nothing" : named));
            } else {
              report.wrongly_named.push_back(
                  fmt::format("{} on {}, {}: a later step lost marks", m.code, student, spelling));
            }
          }
        }
        for (const auto& pair : alike_here) ++report.alike[pair];
      }
    }
  }
  return out;
}

}  // namespace attnmark
