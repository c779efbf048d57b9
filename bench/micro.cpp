// micro: Google Benchmark micro-benchmarks of the steps marking repeats for
// every student: reading a number, judging a cell, diagnosing a part,
// generating a variant. Run by bench/run; by hand:
//
//   build-bench/micro --benchmark_min_time=0.2
//
// Rubrics are read from the source tree (ATTNMARK_SOURCE_DIR, set by
// bench/CMakeLists.txt), or from $ATTNMARK_RUBRICS when set.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdlib>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/diagnosis.h"
#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/number_reader.h"
#include "attnmark/lesson/numbers.h"
#include "attnmark/lesson/submission.h"
#include "attnmark/lesson/tolerance.h"
#include "attnmark/lesson/variant.h"
#include "readers/rubric_loader.h"

using namespace attnmark;

namespace {

std::string rubric_path(const char* name) {
  const char* dir = std::getenv("ATTNMARK_RUBRICS");
  return dir ? fmt::format("{}/{}", dir, name) : fmt::format("{}/rubrics/{}", ATTNMARK_SOURCE_DIR, name);
}

// Loaded once; variants point into them, so they live for the whole run.
const Rubric& rubric(const char* name) {
  static const Rubric all_tokens = load_rubric_file(rubric_path("all-tokens.yaml"));
  static const Rubric lesson = load_rubric_file(rubric_path("lesson.yaml"));
  return std::string(name) == "lesson" ? lesson : all_tokens;
}

std::vector<std::string> students(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(fmt::format("st{:06}", i));
  return out;
}

// ---- reading a number ----

// What students write, roughly as often as a class writes it.
const std::vector<std::string>& spellings() {
  static const std::vector<std::string> s = {
      "0.665", "0.665", "0.665", "2",      "-1",       "7.88",  ".665",  "+2",  "\xe2\x88\x92" "0.5",  // U+2212 minus
      "1e-3",  "66.5%", "2/3",   " 0,665 ", "0.664999999999", "",     "~",     "6.6.5", "-inf",
  };
  return s;
}

// One cell per iteration, cycling through the mix (so Time is per cell).
void BM_ReadNumber_Mix(benchmark::State& state) {
  const auto& texts = spellings();
  std::vector<bool> masked;
  for (const std::string& t : texts) masked.push_back(t == "-inf");
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(read_number(texts[i], masked[i]));
    if (++i == texts.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadNumber_Mix);

// One spelling at a time: a plain decimal, a percentage, a fraction, an unreadable cell.
void BM_ReadNumber(benchmark::State& state) {
  static const std::array<const char*, 5> texts = {"0.665", "66.5%", "2/3", "\xe2\x88\x92" "0,5", "6.6.5"};
  const std::string text = texts[static_cast<std::size_t>(state.range(0))];
  state.SetLabel(text);
  for (auto _ : state) benchmark::DoNotOptimize(read_number(text));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadNumber)->DenseRange(0, 4);

// ---- judging a cell ----

void BM_Within(benchmark::State& state) {
  Tolerance t;
  switch (state.range(0)) {
    case 0: t = {Tolerance::Mode::absolute, 0.01, 0, 0}, state.SetLabel("absolute"); break;
    case 1: t = {Tolerance::Mode::relative, 0, 0.01, 0}, state.SetLabel("relative"); break;
    case 2: t = {Tolerance::Mode::sigfigs, 0, 0, 3}, state.SetLabel("sigfigs 3"); break;
    default: t = {Tolerance::Mode::decimals, 0, 0, 3}, state.SetLabel("decimals 3"); break;
  }
  // Reference weights and outputs, and answers near and far from them.
  std::vector<std::pair<double, double>> cells;
  const Variant v = make_variant(rubric("all-tokens"), 1, "st000001");
  for (const QuestionVariant& q : v.questions)
    for (const Matrix* m : {&q.weights, &q.output})
      for (const Vector& row : *m)
        for (double x : row) {
          cells.emplace_back(round_to(x, 3), x);
          cells.emplace_back(x + 0.02, x);
        }
  std::size_t i = 0;  // one cell per iteration, cycling (so Time is per cell)
  for (auto _ : state) {
    benchmark::DoNotOptimize(within(t, cells[i].first, cells[i].second));
    if (++i == cells.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Within)->DenseRange(0, 3);

// ---- diagnosing a part ----

// A submission as a student who writes `weights` (and works on from them) would make it.
Submission submission_of(const Variant& v, bool mistake) {
  Submission s;
  s.student = v.student;
  s.rubric = v.rubric;
  s.seed = v.seed;
  s.variant = v.id_text();
  for (const QuestionVariant& q : v.questions) {
    Matrix weights = q.weights;
    if (mistake)  // scores divided by their total ("no-exp"), carried into the output
      for (std::size_t r = 0; r < weights.size(); ++r) {
        double total = 0;
        for (double x : q.scores[r]) total += x == masked_score ? 0 : x;
        for (std::size_t j = 0; j < weights[r].size() && total != 0; ++j)
          weights[r][j] = q.scores[r][j] == masked_score ? 0 : q.scores[r][j] / total;
      }
    const Matrix output = mix_values(weights, q.values);
    for (Part p : q.spec->ask) {
      const Matrix* m = p == Part::scores ? &q.scores : p == Part::weights ? &weights : p == Part::output ? &output : nullptr;
      PartAnswer& a = s.answers[q.spec->id][part_name(p)];
      if (!m) {  // most attended: the words
        a.rows.emplace_back();
        for (std::size_t t : most_attended(weights)) a.rows.back().push_back(q.tokens[t]);
        continue;
      }
      for (const Vector& row : *m) {
        a.rows.emplace_back();
        for (double x : row) a.rows.back().push_back(x == masked_score ? "masked" : format_fixed(x, q.spec->decimals(p)));
      }
    }
  }
  return s;
}

void BM_Grade(benchmark::State& state) {
  const bool mistake = state.range(0) == 1;
  state.SetLabel(mistake ? "no-exp mistake" : "right");
  const Variant v = make_variant(rubric("all-tokens"), 1, "st000001");
  const Submission s = submission_of(v, mistake);
  const Marked check = grade(v, s);
  if (mistake == (check.score == check.max_score)) state.SkipWithError("the submission is not marked as expected");
  for (auto _ : state) benchmark::DoNotOptimize(grade(v, s));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Grade)->Arg(0)->Arg(1);

void BM_MistakenAnswers(benchmark::State& state) {
  const Variant v = make_variant(rubric("all-tokens"), 1, "st000001");
  const QuestionVariant& q = v.questions[0];
  for (auto _ : state) benchmark::DoNotOptimize(mistaken_answers(q, Part::weights, q.scores, q.weights, false));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MistakenAnswers);

// ---- generating a variant ----

// Arg 0: all-tokens.yaml (random, with constraints) or lesson.yaml (fixed);
// arg 1: a new Variant each time (make_variant) or one reused, as each
// marking thread does (make_variant_into).
void BM_MakeVariant(benchmark::State& state) {
  const char* name = state.range(0) == 0 ? "all-tokens" : "lesson";
  const bool reused = state.range(1) == 1;
  state.SetLabel(std::string(name) + (reused ? ", into a reused variant" : ""));
  const Rubric& r = rubric(name);
  const std::uint64_t seed = r.seed.value_or(1);
  const std::vector<std::string> ids = students(1024);
  Variant v;
  std::size_t i = 0;
  for (auto _ : state) {
    if (reused) make_variant_into(r, seed, variant_id(seed, ids[i]), ids[i], v);
    else v = make_variant(r, seed, ids[i]);
    benchmark::DoNotOptimize(v);
    i = (i + 1) % ids.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MakeVariant)->Args({0, 0})->Args({1, 0})->Args({0, 1})->Args({1, 1});

}  // namespace

BENCHMARK_MAIN();
