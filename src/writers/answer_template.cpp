#include <fmt/format.h>
#include <fmt/ranges.h>

#include "writers/answer_template.h"

#include <cstdint>
#include <string_view>

#include "base/text.h"

namespace attnmark {
namespace {

std::string blank_row(std::size_t n) {
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) out += i ? ", ~" : "~";
  return out + "]";
}

}  // namespace

std::string double_quoted(std::string_view text) {
  constexpr char hex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t code_point = 0;
    const std::size_t n = decode_utf8(text, i, code_point);
    if (n == 0) {
      const unsigned char c = static_cast<unsigned char>(text[i++]);
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      continue;
    }
    if (code_point == '"' || code_point == '\\') {
      out += '\\';
      out += static_cast<char>(code_point);
    } else if (is_control(code_point) || code_point == 0xFEFF || code_point == 0xFFFE || code_point == 0xFFFF) {
      out += "\\u";
      for (int k = 0; k < 4; ++k) out += hex[(code_point >> (12 - 4 * k)) & 15];
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out + "\"";
}

AnswerShape answer_shape(const QuestionSpec& spec, Part p) {
  const std::size_t n = static_cast<std::size_t>(spec.token_count());
  const bool one_token = spec.task == Task::one_token;
  const std::size_t rows = one_token ? 1 : n;
  AnswerShape shape;
  switch (p) {
    case Part::query:
    case Part::queries:
    case Part::keys: shape.cols = static_cast<std::size_t>(spec.d_k); break;
    case Part::values:
    case Part::output: shape.cols = static_cast<std::size_t>(spec.d_v); break;
    case Part::scores:
    case Part::weights: shape.cols = n; break;
    case Part::most_attended: shape.cols = 1; break;
  }
  shape.rows = (p == Part::keys || p == Part::values) ? n : rows;
  shape.vector = one_token && shape.rows == 1;
  return shape;
}

AnswerShape answer_shape(const QuestionVariant& q, Part p) { return answer_shape(*q.spec, p); }

std::string render_answer_template(const Rubric& rubric, const Variant& variant, bool record_seed) {
  std::string out;
  out += fmt::format("# attnmark answer file for {}: replace each ~ with your answer.\n", rubric.name);
  out += "# Numbers like 0.665, 2/3 or 66.5% are fine; write masked for a masked score.\n";
  out += "# A decimal comma needs quotes in a list, [\"0,665\", ...], or write 0.665.\n";
  out += fmt::format("rubric: {}\n", double_quoted(variant.rubric));
  out += fmt::format("student: {}\n", double_quoted(variant.student));
  if (record_seed) out += fmt::format("seed: {}\n", variant.seed);
  out += fmt::format("variant: {}\n", double_quoted(variant.id_text()));
  out += fmt::format("generator: {}\n", double_quoted(generator_version));
  out += "answers:\n";
  for (const QuestionVariant& q : variant.questions) {
    const QuestionSpec& spec = *q.spec;
    out += fmt::format("  {}:\n", spec.id);
    const std::size_t n = q.tokens.size();
    for (Part p : spec.ask) {
      const AnswerShape shape = answer_shape(q, p);
      const std::size_t cols = shape.cols, part_rows = shape.rows;
      const bool vector = shape.vector;
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
