// Diagnosis (lesson/diagnosis.h): each of the lesson's mistakes, made by
// hand, is named by exactly its own code, and the steps after it follow through.
#include "support/test_support.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/diagnosis.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/number_reader.h"
#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/tolerance.h"
#include "readers/rubric_loader.h"

using namespace attnmark;

// ---- Each mistake, made by hand on the lesson, gets exactly its code. ----

namespace {

struct Case {
  const char* code;
  std::function<void(Submission&, const QuestionVariant&)> make;
};

Matrix lesson_values() { return {{10, 0}, {0, 10}, {5, 5}}; }

Matrix normalise(Matrix m) {
  for (Vector& row : m) {
    double t = 0;
    for (double x : row) t += x;
    for (double& x : row) x /= t;
  }
  return m;
}

Matrix power(const Matrix& s, double base) {
  Matrix out = s;
  for (Vector& row : out)
    for (double& x : row) x = std::pow(base, x);
  return out;
}

}  // namespace

TEST_CASE("each lesson mistake is named by its own code, with follow-through downstream") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  const QuestionVariant& q1 = v.questions[0];
  const QuestionVariant& q2 = v.questions[1];
  const std::vector<Case> cases = {
      {"hard-attention", [&](Submission& s, const QuestionVariant& q) {
         put(s, q, Part::scores, q.scores);
         put(s, q, Part::weights, {{1, 0, 0}});
         put(s, q, Part::output, {{10, 0}});
       }},
      {"no-exp", [&](Submission& s, const QuestionVariant& q) {
         put(s, q, Part::scores, q.scores);
         const Matrix w = normalise(q.scores);  // 2/3, 0, 1/3
         put(s, q, Part::weights, w);
         put(s, q, Part::output, mix_values(w, lesson_values()));
       }},
      {"no-normalise", [&](Submission& s, const QuestionVariant& q) {
         put(s, q, Part::scores, q.scores);
         const Matrix w = power(q.scores, std::exp(1.0));
         s.answers["q1"]["weights"].rows = {texts(w[0], 2)};
       }},
      {"wrong-exp-base", [&](Submission& s, const QuestionVariant& q) {
         put(s, q, Part::scores, q.scores);
         put(s, q, Part::weights, normalise(power(q.scores, 10)));
       }},
      {"wrong-exp-base", [&](Submission& s, const QuestionVariant& q) {
         put(s, q, Part::scores, q.scores);
         put(s, q, Part::weights, normalise(power(q.scores, 2)));
       }},
      {"extra-scale", [&](Submission& s, const QuestionVariant& q) {
         Matrix scaled = q.scores;
         for (double& x : scaled[0]) x /= std::sqrt(2.0);
         s.answers["q1"]["scores"].rows = {texts(scaled[0], 2)};
       }},
      {"mixed-keys", [&](Submission& s, const QuestionVariant& q) {
         put(s, q, Part::weights, q.weights);
         put(s, q, Part::output, mix_values(q.weights, {{2, 1}, {0, 2}, {1, 1}}));
       }},
      {"rounded-early", [&](Submission& s, const QuestionVariant& q) {
         put(s, q, Part::weights, q.weights);
         Matrix w = q.weights;
         for (double& x : w[0]) x = round_to(x, 1);  // 0.7, 0.1, 0.2
         put(s, q, Part::output, mix_values(w, lesson_values()));
       }},
      {"weights-not-normalised", [&](Submission& s, const QuestionVariant& q) {
         put(s, q, Part::scores, q.scores);
         s.answers["q1"]["weights"].rows = {{"0.7", "0.2", "0.3"}};
       }},
  };
  for (const Case& c : cases) {
    Submission s;
    c.make(s, q1);
    const Marked m = grade(v, s);
    INFO(c.code);
    CHECK(all_diagnoses(m) == std::vector<std::string>{c.code});
  }
  // All-tokens only.
  const Matrix k = q2.keys, qm = q2.queries;
  const std::vector<Case> all_cases = {
      {"transposed-scores", [&](Submission& s, const QuestionVariant& q) {
         Matrix t = q.scores;
         for (std::size_t i = 0; i < 3; ++i)
           for (std::size_t j = 0; j < 3; ++j) t[i][j] = q.scores[j][i];
         put(s, q, Part::scores, t);
       }},
      {"softmax-columns", [&](Submission& s, const QuestionVariant& q) {
         put(s, q, Part::scores, q.scores);
         Matrix e = power(q.scores, std::exp(1.0)), w = e;
         for (std::size_t j = 0; j < 3; ++j) {
           double t = e[0][j] + e[1][j] + e[2][j];
           for (std::size_t i = 0; i < 3; ++i) w[i][j] = e[i][j] / t;
         }
         put(s, q, Part::weights, w);
       }},
      {"wrong-query", [&](Submission& s, const QuestionVariant& q) {
         Matrix wrong = q.scores;
         wrong[0] = wrong[2];  // bus's row scored with late's query
         put(s, q, Part::scores, wrong);
       }},
  };
  for (const Case& c : all_cases) {
    Submission s;
    c.make(s, q2);
    INFO(c.code);
    CHECK(all_diagnoses(grade(v, s)) == std::vector<std::string>{c.code});
  }
}

TEST_CASE("scale and mask mistakes are named on the scaled causal rubric") {
  const Rubric rubric = shipped("scaled-causal");
  const Variant v = make_variant(rubric, 7, "s001");
  const QuestionVariant& q = v.questions[0];
  SECTION("missing-scale: dot products not divided by 2, weights carried") {
    Submission s;
    const Matrix dots = attention_scores(q.queries, q.keys, 1.0, Mask::causal, q.query_rows());
    put(s, q, Part::scores, dots);
    put(s, q, Part::weights, softmax_rows(dots));
    const Marked m = grade(v, s);
    CHECK(all_diagnoses(m) == std::vector<std::string>{"missing-scale"});
    CHECK(part_of(m, 0, Part::weights).follow_through);
  }
  SECTION("mask-ignored: every key scored") {
    Submission s;
    put(s, q, Part::scores, attention_scores(q.queries, q.keys, 2.0, Mask::none, q.query_rows()));
    CHECK(all_diagnoses(grade(v, s)) == std::vector<std::string>{"mask-ignored"});
  }
}

// ---- PrairieLearn-style: every shipped rubric, many seeds, every mistake. ----

namespace {

// A mistake made by hand (independently of diagnosis.cpp), at the step it happens.
struct Made {
  std::string code;
  Part stage;      // scores, weights or output
  Matrix numbers;  // what the student writes at that step
};

Matrix rows_softmax_base(const Matrix& s, double base) {
  Matrix out = s;
  for (Vector& row : out) {
    double t = 0;
    for (double& x : row) {
      x = x == masked_score ? 0 : std::pow(base, x);
      t += x;
    }
    for (double& x : row) x /= t;
  }
  return out;
}

std::vector<Made> made_mistakes(const QuestionVariant& q) {
  const QuestionSpec& spec = *q.spec;
  const std::vector<std::size_t> rows = q.query_rows();
  std::vector<Made> out;
  const Matrix dots = attention_scores(q.queries, q.keys, 1.0, spec.mask, rows);
  if (q.scale != 1) out.push_back({"missing-scale", Part::scores, dots});
  if (spec.mask == Mask::causal)
    out.push_back({"mask-ignored", Part::scores, attention_scores(q.queries, q.keys, q.scale, Mask::none, rows)});
  Matrix extra = q.scores;
  for (Vector& row : extra)
    for (double& x : row)
      if (x != masked_score) x /= q.scale != 1 ? q.scale : std::sqrt(static_cast<double>(spec.d_k));
  out.push_back({"extra-scale", Part::scores, extra});
  if (spec.task == Task::all_tokens) {
    Matrix t(q.scores.size(), Vector(q.scores.size()));
    for (std::size_t i = 0; i < t.size(); ++i)
      for (std::size_t j = 0; j < t.size(); ++j) {
        double dot = 0;
        for (int k = 0; k < spec.d_k; ++k) dot += q.keys[i][k] * q.queries[j][k];
        t[i][j] = spec.mask == Mask::causal && j > i ? masked_score : dot / q.scale;
      }
    out.push_back({"transposed-scores", Part::scores, t});
    for (std::size_t r = 0; r < q.tokens.size(); ++r)
      for (std::size_t other = 0; other < q.tokens.size(); ++other) {
        if (other == r) continue;
        Matrix wrong = q.scores;
        wrong[r] = attention_scores({q.queries[other]}, q.keys, q.scale, spec.mask, {r})[0];
        out.push_back({"wrong-query", Part::scores, wrong});
      }
    Matrix e = rows_softmax_base(q.scores, std::exp(1.0)), cols = e;
    for (std::size_t r = 0; r < e.size(); ++r)
      for (std::size_t j = 0; j < e.size(); ++j) e[r][j] = q.scores[r][j] == masked_score ? 0 : std::exp(q.scores[r][j]);
    for (std::size_t j = 0; j < e.size(); ++j) {
      double t = 0;
      for (std::size_t r = 0; r < e.size(); ++r) t += e[r][j];
      for (std::size_t r = 0; r < e.size(); ++r) cols[r][j] = e[r][j] / t;
    }
    out.push_back({"softmax-columns", Part::weights, cols});
  }
  Matrix hard = q.weights, no_exp = q.scores, powers = q.scores, early = q.scores;
  for (std::size_t r = 0; r < hard.size(); ++r) {
    double total = 0, etotal = 0;
    for (std::size_t j = 0; j < hard[r].size(); ++j) {
      hard[r][j] = j == q.most_attended[r] ? 1 : 0;
      const bool m = q.scores[r][j] == masked_score;
      total += m ? 0 : q.scores[r][j];
      powers[r][j] = m ? 0 : std::exp(q.scores[r][j]);
      early[r][j] = m ? 0 : std::round(std::exp(q.scores[r][j]));
      etotal += early[r][j];
    }
    for (std::size_t j = 0; j < hard[r].size(); ++j) {
      no_exp[r][j] = q.scores[r][j] == masked_score ? 0 : q.scores[r][j] / total;
      early[r][j] /= etotal;
    }
  }
  out.push_back({"hard-attention", Part::weights, hard});
  out.push_back({"no-exp", Part::weights, no_exp});
  out.push_back({"no-normalise", Part::weights, powers});
  out.push_back({"wrong-exp-base", Part::weights, rows_softmax_base(q.scores, 10)});
  out.push_back({"wrong-exp-base", Part::weights, rows_softmax_base(q.scores, 2)});
  out.push_back({"rounded-early", Part::weights, early});
  Matrix early1 = q.scores;  // e^score to 1 decimal
  for (Vector& row : early1) {
    double t = 0;
    for (double& x : row) {
      x = x == masked_score ? 0 : std::round(std::exp(x) * 10) / 10;
      t += x;
    }
    for (double& x : row) x /= t;
  }
  out.push_back({"rounded-early", Part::weights, early1});
  Matrix unnormalised = q.weights;
  unnormalised[0][0] += 0.15;
  out.push_back({"weights-not-normalised", Part::weights, unnormalised});
  if (spec.d_k == spec.d_v) out.push_back({"mixed-keys", Part::output, mix_values(q.weights, q.keys)});
  Matrix coarse = q.weights;
  for (Vector& row : coarse)
    for (double& x : row) x = std::round(x * 10) / 10;
  out.push_back({"rounded-early", Part::output, mix_values(coarse, q.values)});
  return out;
}

bool close(const QuestionVariant& q, Part p, const Matrix& a, const Matrix& b) {
  for (std::size_t r = 0; r < a.size(); ++r)
    for (std::size_t c = 0; c < a[r].size(); ++c) {
      if ((a[r][c] == masked_score) != (b[r][c] == masked_score)) return false;
      if (a[r][c] == masked_score) continue;
      // As the grader matches a mistake: the answer as written (rounded as
      // asked) within the cell's tolerance or the written precision.
      const int d = q.spec->decimals(p);
      const double slack = std::max(half_width(cell_tolerance(q, p, r, c), b[r][c]), 0.51 * std::pow(10.0, -d));
      if (!(std::fabs(round_to(a[r][c], d) - b[r][c]) <= slack + 1e-9)) return false;
    }
  return true;
}

bool asks(const QuestionSpec& spec, Part p) { return std::find(spec.ask.begin(), spec.ask.end(), p) != spec.ask.end(); }

}  // namespace

TEST_CASE("every mistake on every shipped rubric gets exactly its own code, and later steps follow through") {
  int checked = 0, skipped = 0;
  for (const char* name : {"lesson", "one-token", "all-tokens", "scaled-causal", "projections", "class-demo"}) {
    const Rubric rubric = shipped(name);
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
      const Variant v = make_variant(rubric, seed, "s" + std::to_string(seed));
      for (std::size_t qi = 0; qi < v.questions.size(); ++qi) {
        const QuestionVariant& q = v.questions[qi];
        const std::vector<Made> all = made_mistakes(q);
        for (const Made& m : all) {
          if (!asks(*q.spec, m.stage)) continue;
          // Skip numbers that another mistake (or the right method) also gives.
          const Matrix& right = m.stage == Part::scores ? q.scores : m.stage == Part::weights ? q.weights : q.output;
          bool ambiguous = close(q, m.stage, m.numbers, right);
          for (const Made& other : all)
            if (other.code != m.code && other.stage == m.stage && close(q, m.stage, m.numbers, other.numbers)) ambiguous = true;
          // And numbers the catalogue's other mistakes give at this step (the
          // grader's list, which has some this test does not make).
          for (const MistakenAnswer& other : mistaken_answers(q, m.stage, q.scores, q.weights, false))
            if (other.code != m.code && other.numbers.size() == m.numbers.size() &&
                close(q, m.stage, m.numbers, other.numbers))
              ambiguous = true;
          bool finite_numbers = true;
          for (const Vector& row : m.numbers)
            for (double x : row) finite_numbers = finite_numbers && !std::isnan(x) && x != INFINITY && std::fabs(x) < 1e6;
          if (ambiguous || !finite_numbers) {
            ++skipped;
            continue;
          }
          // The student's work: the key up to the mistake, the mistake, then the right method on it.
          Submission s = from_key(v);
          Matrix scores = q.scores, weights = q.weights, output;
          if (m.stage == Part::scores) {
            scores = m.numbers;  // the student goes on from the scores as written
            for (Vector& row : scores)
              for (double& x : row)
                if (x != masked_score) x = round_to(x, q.spec->decimals(Part::scores));
            weights = softmax_rows(scores);
          }
          if (m.stage == Part::weights) weights = m.numbers;
          put(s, q, Part::scores, scores);
          if (asks(*q.spec, Part::weights)) put(s, q, Part::weights, weights);
          Matrix written_weights = weights;  // the student mixes the weights as written
          for (Vector& row : written_weights)
            for (double& x : row) x = round_to(x, q.spec->decimals(Part::weights));
          output = m.stage == Part::output ? m.numbers : mix_values(written_weights, q.values);
          if (asks(*q.spec, Part::output)) put(s, q, Part::output, output);
          if (asks(*q.spec, Part::most_attended)) put_words(s, q, most_attended(written_weights));
          const Marked marked = grade(v, s);
          INFO(name << " seed " << seed << " " << q.spec->id << " " << m.code);
          std::vector<std::string> codes;
          for (const PartResult& p : marked.questions[qi].parts)
            for (const std::string& d : p.diagnoses) codes.push_back(d);
          CHECK(codes == std::vector<std::string>{m.code});
          // Every step after the mistake is credited in full.
          bool after = false;
          for (const PartResult& p : marked.questions[qi].parts) {
            if (after && p.part != Part::most_attended) CHECK(p.score == Approx(p.max_score).epsilon(0).margin(1e-9));
            if (p.part == m.stage) after = true;
          }
          ++checked;
        }
      }
    }
  }
  INFO("checked " << checked << ", skipped as ambiguous " << skipped);
  CHECK(checked > 1500);
  CHECK(skipped < checked / 4);
}

TEST_CASE("projections: a query worked from another token's embedding is diagnosed wrong-query on the query part") {
  const Rubric rubric = shipped("projections");
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Variant v = make_variant(rubric, seed, "s" + std::to_string(seed));
    for (std::size_t qi = 0; qi < v.questions.size(); ++qi) {
      const QuestionVariant& q = v.questions[qi];
      if (!q.query_token || !q.spec->marking.count(Part::query)) continue;
      const Matrix all = multiply(q.embeddings, q.w_q);
      for (std::size_t other = 0; other < all.size(); ++other) {
        if (other == *q.query_token || all[other] == all[*q.query_token]) continue;
        Submission s;
        put(s, q, Part::query, {all[other]});
        const Marked m = grade(v, s);
        const PartResult& query = part_of(m, qi, Part::query);
        INFO("seed " << seed << " " << q.spec->id << " token " << other);
        CHECK(query.diagnoses == std::vector<std::string>{"wrong-query"});
        for (const std::string& h : query.hints) CHECK(h.find("Multiply the embedding") == std::string::npos);
        ++checked;
      }
    }
  }
  CHECK(checked > 40);
}

TEST_CASE("diagnoses: weights that do not add up to 1 are named when no mistake reproduces them, and codes come in catalogue order") {
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  const QuestionVariant& q1 = v.questions[0];
  const auto read = [](std::vector<const char*> cells) {
    std::vector<CellReading> out;
    for (const char* cell : cells) out.push_back(read_number(cell));
    return out;
  };
  using Codes = std::vector<std::string>;
  // 0.5 + 0.2 + 0.12 = 0.82.
  CHECK(diagnoses(q1, Part::weights, {}, read({"0.5", "0.2", "0.12"})) == Codes{"weights-not-normalised"});
  // 1.005, within the student's rounding (half of 0.01, 0.001 and 0.001); 1 exactly.
  CHECK(diagnoses(q1, Part::weights, {}, read({"0.67", "0.090", "0.245"})).empty());
  CHECK(diagnoses(q1, Part::weights, {}, read({"1/2", "1/4", "25%"})).empty());
  // A row not all numbers says nothing of its total; nor do other parts.
  CHECK(diagnoses(q1, Part::weights, {}, read({"0.5", "", "0.12"})).empty());
  CHECK(diagnoses(q1, Part::weights, {}, read({"0.5", "x", "0.12"})).empty());
  CHECK(diagnoses(q1, Part::output, {}, read({"0.5", "0.2", "0.12"})).empty());
  // Reproduced mistakes come in catalogue order, once each, and explain the row alone.
  CHECK(diagnoses(q1, Part::weights, {"rounded-early", "no-exp", "rounded-early"}, read({"0.5", "0.2", "0.12"})) ==
        Codes{"no-exp", "rounded-early"});
  // All tokens: one row of three that does not add up is enough.
  const QuestionVariant& q2 = v.questions[1];
  REQUIRE(q2.tokens.size() == 3);
  CHECK(diagnoses(q2, Part::weights, {}, read({"0.665", "0.090", "0.245", "0.5", "0.2", "0.12", "1", "0", "0"})) ==
        Codes{"weights-not-normalised"});
  CHECK(diagnoses(q2, Part::weights, {}, read({"0.665", "0.090", "0.245", "0.5", "0.3", "0.2", "1", "0", "0"})).empty());
}
