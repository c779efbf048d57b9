#include "lesson/fingerprint.h"

#include <string_view>

#include "base/text.h"
#include "lesson/attention.h"
#include "lesson/numbers.h"

namespace attnmark {
namespace {

// FNV-1a over the cells, each ended by a byte no cell holds.
class Hash {
 public:
  void add(std::string_view cell) {
    for (unsigned char c : cell) mix(c);
    mix(0x1F);
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

std::string written(double x, int decimals) { return x == masked_score ? "masked" : format_fixed(x, decimals); }

}  // namespace

std::uint64_t key_fingerprint(const Variant& variant) {
  Hash hash;
  for (const QuestionVariant& q : variant.questions)
    for (Part p : q.spec->ask) {
      hash.add(part_name(p));
      if (const Matrix* m = matrix_of(q, p)) {
        for (const Vector& row : *m)
          for (double x : row) hash.add(written(x, q.spec->decimals(p)));
      } else {
        for (std::size_t t : q.most_attended) hash.add(lower(q.tokens[t]));
      }
    }
  return hash.value();
}

std::optional<std::uint64_t> answer_fingerprint(const Variant& variant, const Marked& marked) {
  if (marked.questions.size() != variant.questions.size()) return std::nullopt;
  Hash hash;
  for (std::size_t qi = 0; qi < variant.questions.size(); ++qi) {
    const QuestionVariant& q = variant.questions[qi];
    const QuestionResult& result = marked.questions[qi];
    if (result.parts.size() != q.spec->ask.size()) return std::nullopt;
    for (std::size_t pi = 0; pi < result.parts.size(); ++pi) {
      const PartResult& part = result.parts[pi];
      hash.add(part_name(part.part));
      for (const CellResult& cell : part.cells) {
        if (cell.verdict == Verdict::unanswered || cell.verdict == Verdict::unreadable) return std::nullopt;
        if (part.part == Part::most_attended) hash.add(lower(trim(cell.given)));
        else if (cell.masked) hash.add("masked");
        else if (cell.value) hash.add(written(*cell.value, q.spec->decimals(part.part)));
        else return std::nullopt;
      }
    }
  }
  return hash.value();
}

}  // namespace attnmark
