#include "attnmark/lesson/rubric.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace attnmark {

const char* part_name(Part part) {
  switch (part) {
    case Part::query: return "query";
    case Part::queries: return "queries";
    case Part::keys: return "keys";
    case Part::values: return "values";
    case Part::scores: return "scores";
    case Part::weights: return "weights";
    case Part::output: return "output";
    case Part::most_attended: return "most_attended";
  }
  return "?";
}

std::optional<Part> parse_part(std::string_view name) {
  for (Part p : {Part::query, Part::queries, Part::keys, Part::values, Part::scores, Part::weights, Part::output,
                 Part::most_attended})
    if (name == part_name(p)) return p;
  if (name == most_attended_alias) return Part::most_attended;
  return std::nullopt;
}

std::string answer_variable(std::string_view question, Part part) {
  std::string name;
  if (!question.empty() && question[0] >= '0' && question[0] <= '9') name += 'q';
  for (char c : question)
    name += ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) ? c : '_';
  name += '_';
  name += part_name(part);
  return name;
}

std::string answer_field_name(std::string_view question, std::string_view part, std::size_t row, std::size_t column) {
  std::string name;
  name.reserve(question.size() + part.size() + 10);
  name.append(question).append(".").append(part).append(".");
  name.append(std::to_string(row + 1)).append(".").append(std::to_string(column + 1));
  return name;
}

std::optional<AnswerField> parse_answer_field(std::string_view name) {
  const std::size_t a = name.find('.');
  const std::size_t b = a == std::string_view::npos ? a : name.find('.', a + 1);
  const std::size_t c = b == std::string_view::npos ? b : name.find('.', b + 1);
  if (c == std::string_view::npos) return std::nullopt;
  // A row or column: decimal digits only, to their end (a fourth dot is not a digit).
  const auto index = [](std::string_view digits) -> std::optional<std::size_t> {
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size() || value < 1 || value > max_answer_field_index)
      return std::nullopt;
    return value - 1;
  };
  const auto row = index(name.substr(b + 1, c - b - 1));
  const auto column = index(name.substr(c + 1));
  if (!row || !column) return std::nullopt;
  return AnswerField{std::string(name.substr(0, a)), std::string(name.substr(a + 1, b - a - 1)), *row, *column};
}

std::string part_label(Part part) {
  std::string label = part_name(part);
  std::replace(label.begin(), label.end(), '_', ' ');
  return label;
}

const std::string& display_title(const Rubric& rubric) { return rubric.title.empty() ? rubric.name : rubric.title; }

double max_score(const Rubric& rubric) {
  double total = 0;
  for (const QuestionSpec& q : rubric.questions)
    for (const auto& [part, m] : q.marking) total += m.marks;
  return total;
}

double Grid::value(std::int64_t index) const {
  if (decimals == 0) return static_cast<double>(min_units + index * step_units);  // (the same as dividing by 1)
  double power = 1;
  for (int i = 0; i < decimals; ++i) power *= 10;
  // One correctly rounded division: the double nearest the decimal value.
  return static_cast<double>(min_units + index * step_units) / power;
}

bool InputSpec::integral() const {
  if (!present) return true;
  if (random) {
    if (grid.decimals == 0) return true;
    std::int64_t power = 1;
    for (int i = 0; i < grid.decimals; ++i) power *= 10;
    return grid.min_units % power == 0 && grid.step_units % power == 0;
  }
  for (const Vector& row : fixed)
    for (double x : row)
      if (x != std::floor(x)) return false;
  return true;
}

bool QuestionSpec::integral_scores() const {
  if (scale.kind != ScaleSpec::Kind::none &&
      !(scale.kind == ScaleSpec::Kind::number && scale.number == 1))
    return false;
  if (projections) return embeddings.integral() && w_q.integral() && w_k.integral();
  return query.integral() && queries.integral() && keys.integral();
}

int QuestionSpec::decimals(Part part) const {
  auto found = marking.find(part);
  if (found != marking.end() && found->second.decimals) return *found->second.decimals;
  switch (part) {
    case Part::scores: return integral_scores() ? 0 : 2;
    case Part::weights: return 3;
    case Part::query:
    case Part::queries:
      return embeddings.integral() && w_q.integral() ? 0 : 2;
    case Part::keys: return embeddings.integral() && w_k.integral() ? 0 : 2;
    case Part::values: return embeddings.integral() && w_v.integral() ? 0 : 2;
    case Part::output:
    case Part::most_attended: return 2;
  }
  return 2;
}

bool QuestionSpec::fixed() const {
  for (const InputSpec* input : {&query, &queries, &keys, &values, &embeddings, &w_q, &w_k, &w_v})
    if (input->present && input->random) return false;
  return !tokens.from_bank && query_token.kind != QueryTokenSpec::Kind::random;
}

}  // namespace attnmark
