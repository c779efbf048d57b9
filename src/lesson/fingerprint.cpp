#include "attnmark/lesson/fingerprint.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "base/text.h"
#include "attnmark/lesson/attention.h"
#include "attnmark/lesson/numbers.h"

namespace attnmark {
namespace {

// FNV-1a over the cells: bytes of names, 8 bytes of numbers, a separator each.
class Hash {
 public:
  void add(std::string_view text) {
    for (unsigned char c : text) mix(c);
    mix(0x1F);
  }
  // A number at `decimals`: its units of the last decimal, or a masked score.
  void add(double x, int decimals) {
    const std::int64_t units = x == masked_score ? INT64_MIN : std::llround(x * power_of_ten(decimals));
    for (int i = 0; i < 8; ++i) mix(static_cast<unsigned char>(static_cast<std::uint64_t>(units) >> (8 * i)));
    mix(0x1E);
  }
  std::uint64_t value() const { return h_; }

 private:
  void mix(unsigned char c) {
    h_ ^= c;
    h_ *= 0x100000001B3ULL;
  }
  std::uint64_t h_ = 0xCBF29CE484222325ULL;
};

const Matrix* matrix_of(const QuestionVariant& q, Part p) {
  switch (p) {
    case Part::query:
    case Part::queries: return &q.queries;
    case Part::keys: return &q.keys;
    case Part::values: return &q.values;
    case Part::scores: return &q.scores;
    case Part::weights: return &q.weights;
    case Part::output: return &q.output;
    case Part::most_attended: return nullptr;
  }
  return nullptr;
}

}  // namespace

std::uint64_t key_fingerprint(const Variant& variant) {
  Hash hash;
  for (const QuestionVariant& q : variant.questions)
    for (Part p : q.spec->ask) {
      hash.add(part_name(p));
      if (const Matrix* m = matrix_of(q, p)) {
        const int decimals = q.spec->decimals(p);
        for (const Vector& row : *m)
          for (double x : row) hash.add(x, decimals);
      } else {
        for (std::size_t t : q.most_attended) hash.add(lower(q.tokens[t]));
      }
    }
  return hash.value();
}

std::optional<std::uint64_t> answer_fingerprint(const Rubric& rubric, const Marked& marked) {
  if (marked.questions.size() != rubric.questions.size()) return std::nullopt;
  Hash hash;
  for (std::size_t qi = 0; qi < rubric.questions.size(); ++qi) {
    const QuestionSpec& q = rubric.questions[qi];
    const QuestionResult& result = marked.questions[qi];
    if (result.parts.size() != q.ask.size()) return std::nullopt;
    for (const PartResult& part : result.parts) {
      hash.add(part_name(part.part));
      const int decimals = q.decimals(part.part);
      for (const CellResult& cell : part.cells) {
        if (cell.verdict == Verdict::unanswered || cell.verdict == Verdict::unreadable) return std::nullopt;
        if (part.part == Part::most_attended) hash.add(lower(trim(cell.given)));
        else if (cell.masked) hash.add(masked_score, decimals);
        else if (cell.value) hash.add(*cell.value, decimals);
        else return std::nullopt;
      }
    }
  }
  return hash.value();
}

bool same_for_everyone(const Rubric& rubric) {
  return std::all_of(rubric.questions.begin(), rubric.questions.end(), [](const QuestionSpec& q) { return q.fixed(); });
}

}  // namespace attnmark
