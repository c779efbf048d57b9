// make_class: writes a synthetic class for the benchmarks, reproducibly.
//
//   make_class RUBRIC SEED N sheet OUT.csv     one CSV sheet, a row per student
//   make_class RUBRIC SEED N files OUT_DIR     one YAML answer file per student
//
// Each student's answers come from attnmark's own key for their variant, in a
// realistic mix: right (rounded as asked, or unrounded), one of the lesson's
// mistakes carried through the later steps, a slip in one score then the
// right method, blank, unreadable cells, and a few resubmissions.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string>

#include "attnmark/attention.h"
#include "attnmark/numbers.h"
#include "attnmark/pcg32.h"
#include "attnmark/rubric_loader.h"
#include "attnmark/variant.h"

using namespace attnmark;

namespace {

std::string cell(double x, int decimals) { return x == masked_score ? "masked" : format_fixed(x, decimals); }

// The numbers one student writes for one question, by the kind of student.
struct Work {
  Matrix scores, weights, output;
  std::vector<std::size_t> top;
};

Work work_for(const QuestionVariant& q, std::uint32_t kind) {
  Work w{q.scores, q.weights, q.output, q.most_attended};
  switch (kind) {
    case 0: return w;  // right
    case 1: {          // hard attention
      for (std::size_t r = 0; r < w.weights.size(); ++r)
        for (std::size_t j = 0; j < w.weights[r].size(); ++j) w.weights[r][j] = j == q.most_attended[r] ? 1 : 0;
      break;
    }
    case 2: {  // scores divided by their total
      for (std::size_t r = 0; r < w.scores.size(); ++r) {
        double t = 0;
        for (double s : w.scores[r]) t += s == masked_score ? 0 : s;
        if (t == 0) return w;
        for (std::size_t j = 0; j < w.scores[r].size(); ++j)
          w.weights[r][j] = w.scores[r][j] == masked_score ? 0 : w.scores[r][j] / t;
      }
      break;
    }
    case 3: {  // K·Qᵀ
      for (std::size_t i = 0; i < w.scores.size(); ++i)
        for (std::size_t j = 0; j < w.scores.size() && w.scores.size() == w.scores[i].size(); ++j)
          w.scores[i][j] = q.scores[j][i];
      w.weights = softmax_rows(w.scores);
      break;
    }
    case 4: {  // a slip in one score, then the right method
      w.scores[0][0] += 1;
      w.weights = softmax_rows(w.scores);
      break;
    }
  }
  w.output = mix_values(w.weights, q.values);
  w.top = most_attended(w.weights);
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: make_class RUBRIC SEED N sheet|files OUT\n");
    return 2;
  }
  const Rubric rubric = load_rubric_file(argv[1]);
  const std::uint64_t seed = std::stoull(argv[2]);
  const int n = std::stoi(argv[3]);
  const bool sheet = std::string(argv[4]) == "sheet";
  const std::string out_path = argv[5];
  std::ofstream sheet_out;
  if (sheet) {
    sheet_out.open(out_path, std::ios::binary);
    sheet_out << "timestamp,student,name";
    for (const QuestionSpec& q : rubric.questions) {
      const int rows = q.task == Task::one_token ? 1 : q.token_count();
      for (Part p : q.ask) {
        const int cols = p == Part::scores || p == Part::weights ? q.token_count() : p == Part::output ? q.d_v : 1;
        for (int r = 1; r <= rows; ++r)
          for (int c = 1; c <= cols; ++c) {
            if (p == Part::most_attended) sheet_out << fmt::format(",{}.most_attended{}", q.id, rows > 1 ? fmt::format(".{}", r) : "");
            else if (rows == 1) sheet_out << fmt::format(",{}.{}.{}", q.id, part_name(p), c);
            else sheet_out << fmt::format(",{}.{}.{}.{}", q.id, part_name(p), r, c);
            if (p == Part::most_attended) break;
          }
      }
    }
    sheet_out << "\r\n";
  } else {
    std::filesystem::create_directories(out_path);
  }
  Pcg32 rng(seed, 7);
  for (int i = 0; i < n; ++i) {
    const std::uint32_t roll = rng.below(100);
    // A few resubmit: the same id as an earlier student.
    const std::string student = roll < 2 && i > 10 ? fmt::format("st{:06}", i / 2) : fmt::format("st{:06}", i);
    const Variant v = make_variant(rubric, seed, student);
    const std::uint32_t kind = roll < 55 ? 0 : roll < 65 ? 1 : roll < 72 ? 2 : roll < 79 ? 3 : roll < 88 ? 4 : 0;
    const bool blank = roll >= 88 && roll < 94;
    const bool unreadable = roll >= 94;
    const bool unrounded = roll >= 45 && roll < 55;
    std::string line = fmt::format("2026-11-30 10:{:02}:{:02},{},\"Student {}, A.\"", i / 60 % 60, i % 60, student, i);
    std::string yaml = fmt::format("rubric: {}\nstudent: \"{}\"\nseed: {}\nvariant: \"{}\"\nanswers:\n", rubric.name, student, seed, v.id_text());
    for (const QuestionVariant& q : v.questions) {
      const Work w = work_for(q, kind);
      yaml += fmt::format("  {}:\n", q.spec->id);
      for (Part p : q.spec->ask) {
        const Matrix* m = p == Part::scores ? &w.scores : p == Part::weights ? &w.weights : &w.output;
        const int d = unrounded ? 12 : q.spec->decimals(p);
        yaml += fmt::format("    {}:\n", part_name(p));
        if (p == Part::most_attended) {
          for (std::size_t r = 0; r < w.top.size(); ++r) {
            const std::string word = blank ? "" : q.tokens[w.top[r]];
            line += "," + word;
            yaml += fmt::format("      - [{}]\n", blank ? "~" : word);
          }
          continue;
        }
        for (std::size_t r = 0; r < m->size(); ++r) {
          std::string row;
          for (std::size_t c = 0; c < (*m)[r].size(); ++c) {
            std::string text = blank ? "" : cell((*m)[r][c], d);
            if (unreadable && r == 0 && c == 0) text = "6.6.5";
            line += "," + text;
            row += (c ? ", " : "") + (text.empty() ? std::string("~") : "\"" + text + "\"");
          }
          yaml += fmt::format("      - [{}]\n", row);
        }
      }
    }
    if (sheet) sheet_out << line << "\r\n";
    else std::ofstream(std::filesystem::path(out_path) / fmt::format("{}-{:06}.yaml", student, i), std::ios::binary) << yaml;
  }
  return 0;
}
