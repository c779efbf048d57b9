#include "attnmark/lesson/cell_names.h"

#include <charconv>

namespace attnmark {
namespace {

// Appends n in decimal (std::to_string without a string of its own).
void append_count(std::string& out, std::size_t n) {
  char digits[20];  // 2^64 has 20 digits
  out.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}

bool by_key(Part part) { return part == Part::scores || part == Part::weights; }
bool by_token(Part part) { return part == Part::keys || part == Part::values; }

// Token i (0-based), or its number past the tokens.
std::string token(const std::vector<std::string>& tokens, std::size_t i) {
  return i < tokens.size() ? tokens[i] : std::to_string(i + 1);
}

}  // namespace

CellPosition cell_position(std::string_view label) {
  const auto number = [](std::string_view s) {
    std::size_t n = 0;
    for (char c : s) n = n * 10 + static_cast<std::size_t>(c - '0');
    return n;
  };
  const std::size_t dot = label.find('.');
  if (dot == std::string_view::npos) return {0, number(label)};
  return {number(label.substr(0, dot)), number(label.substr(dot + 1))};
}

CellPosition answer_place(std::string_view label) {
  const CellPosition at = cell_position(label);
  return {at.row ? at.row - 1 : 0, at.column ? at.column - 1 : 0};
}

void append_cell_label(std::string& out, CellPosition at) {
  if (at.row) {
    append_count(out, at.row);
    out += '.';
  }
  if (at.column) append_count(out, at.column);
}

std::string row_name(const std::vector<std::string>& tokens, const std::vector<std::size_t>& query_rows, Part part,
                     std::size_t row) {
  if (by_token(part)) return token(tokens, row - 1);
  return row - 1 < query_rows.size() ? token(tokens, query_rows[row - 1]) : std::to_string(row);
}

std::string column_name(const std::vector<std::string>& tokens, Part part, std::size_t column) {
  return by_key(part) ? token(tokens, column - 1) : std::to_string(column);
}

const char* table_corner(Part part) {
  return by_key(part) ? "query ↓ key →" : by_token(part) ? "token ↓ dimension →" : "query ↓ dimension →";
}

std::string cell_name(const std::vector<std::string>& tokens, const std::vector<std::size_t>& query_rows, Part part,
                      std::string_view label) {
  const CellPosition at = cell_position(label);
  if (part == Part::most_attended) return label.empty() ? std::string() : row_name(tokens, query_rows, part, at.column);
  std::string name = column_name(tokens, part, at.column);
  if (!at.row) return name;
  return row_name(tokens, query_rows, part, at.row) + (by_key(part) ? " → " : ", ") + name;
}

std::string spoken_cell_name(const std::vector<std::string>& tokens, const std::vector<std::size_t>& query_rows,
                             Part part, CellPosition place) {
  const auto query = [&](std::size_t i) { return "query " + token(tokens, i < query_rows.size() ? query_rows[i] : i); };
  const auto dimension = [](std::size_t i) { return "dimension " + std::to_string(i + 1); };
  switch (part) {
    case Part::scores: return "score, " + query(place.row) + ", key " + token(tokens, place.column);
    case Part::weights: return "weight, " + query(place.row) + ", key " + token(tokens, place.column);
    case Part::output: return "output, " + query(place.row) + ", " + dimension(place.column);
    case Part::most_attended: return "most attended token, " + query(place.column);
    case Part::query:
    case Part::queries:
      return "query, token " + token(tokens, place.row < query_rows.size() ? query_rows[place.row] : place.row) + ", " +
             dimension(place.column);
    case Part::keys: return "key, token " + token(tokens, place.row) + ", " + dimension(place.column);
    case Part::values: return "value, token " + token(tokens, place.row) + ", " + dimension(place.column);
  }
  return "";
}

}  // namespace attnmark
