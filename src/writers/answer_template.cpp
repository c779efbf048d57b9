#include <fmt/format.h>
#include <fmt/ranges.h>

#include "writers/answer_template.h"

namespace attnmark {
namespace {

std::string blank_row(std::size_t n) {
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) out += i ? ", ~" : "~";
  return out + "]";
}

// A YAML double-quoted scalar, so ids and words are never read as numbers.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string render_answer_template(const Rubric& rubric, const Variant& variant) {
  std::string out;
  out += fmt::format("# attnmark answer file for {}: replace each ~ with your answer.\n", rubric.name);
  out += "# Numbers like 0.665, 2/3 or 66.5% are fine; write masked for a masked score.\n";
  out += "# A decimal comma needs quotes in a list, [\"0,665\", ...], or write 0.665.\n";
  out += fmt::format("rubric: {}\n", quoted(variant.rubric));
  out += fmt::format("student: {}\n", quoted(variant.student));
  out += fmt::format("seed: {}\n", variant.seed);
  out += fmt::format("variant: {}\n", quoted(variant.id_text()));
  out += fmt::format("generator: {}\n", quoted(generator_version));
  out += "answers:\n";
  for (const QuestionVariant& q : variant.questions) {
    const QuestionSpec& spec = *q.spec;
    out += fmt::format("  {}:\n", spec.id);
    const std::size_t n = q.tokens.size();
    const std::size_t rows = q.query_token ? 1 : n;
    for (Part p : spec.ask) {
      std::size_t cols = 0;
      switch (p) {
        case Part::query:
        case Part::queries:
        case Part::keys: cols = static_cast<std::size_t>(spec.d_k); break;
        case Part::values:
        case Part::output: cols = static_cast<std::size_t>(spec.d_v); break;
        case Part::scores:
        case Part::weights: cols = n; break;
        case Part::most_attended: cols = 1; break;
      }
      const std::size_t part_rows = (p == Part::keys || p == Part::values) ? n : rows;
      const bool vector = q.query_token && part_rows == 1;
      const std::string name = part_name(p);
      // Comments name the tokens, so a student knows which blank is which.
      const std::string order = fmt::format("  # {}", fmt::join(q.tokens, ", "));
      if (p == Part::most_attended) {
        out += fmt::format("    {}: {}\n", name,
                           vector ? "~  # a token's word" : blank_row(n) + order);
      } else if (vector) {
        out += fmt::format("    {}: {}{}\n", name, blank_row(cols),
                           p == Part::scores || p == Part::weights ? order : "");
      } else {
        out += fmt::format("    {}:\n", name);
        for (std::size_t r = 0; r < part_rows; ++r)
          out += fmt::format("      - {}  # {}\n", blank_row(cols), q.tokens[r]);
      }
    }
  }
  return out;
}

}  // namespace attnmark
