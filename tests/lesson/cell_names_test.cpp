// Cells' labels and their names in the lesson's table (lesson/cell_names.h).
#include "support/test_support.h"

#include <string>
#include <vector>

#include "attnmark/lesson/cell_names.h"

using namespace attnmark;

TEST_CASE("a cell's label is its place: 2.3 in a matrix, 3 in a one-row part, empty for the one word") {
  const auto label = [](CellPosition at) {
    std::string out;
    append_cell_label(out, at);
    return out;
  };
  CHECK(label({2, 3}) == "2.3");
  CHECK(label({12, 10}) == "12.10");
  CHECK(label({0, 3}) == "3");
  CHECK(label({0, 0}) == "");
  for (const std::string text : {"2.3", "12.10", "3", ""}) {
    const CellPosition at = cell_position(text);
    CHECK(label(at) == text);
  }
  CHECK(cell_position("12.10").row == 12);
  CHECK(cell_position("12.10").column == 10);
  CHECK(cell_position("3").row == 0);
}

TEST_CASE("a cell's label names the place of its answer in the part's rows, 0-based") {
  const auto place = [](std::string_view label) {
    const CellPosition at = answer_place(label);
    return std::to_string(at.row) + "," + std::to_string(at.column);
  };
  CHECK(place("2.3") == "1,2");
  CHECK(place("1.1") == "0,0");
  CHECK(place("3") == "0,2");
  CHECK(place("") == "0,0");
  // Every cell the grader labels, where the student wrote it.
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  Submission s;
  s.answers["q2"]["weights"].rows = {{"0.1", "0.2", "0.3"}, {"0.4", "0.5", "0.6"}, {"0.7", "0.8", "0.9"}};
  s.answers["q1"]["scores"].rows = {{"1", "2", "3"}};
  s.answers["q3"]["most_attended"].rows = {{"bus"}};
  const Marked m = grade(v, s);
  std::size_t checked = 0;
  for (const QuestionResult& q : m.questions)
    for (const PartResult& p : q.parts) {
      const PartAnswer& a = s.answers[q.id][std::string(part_name(p.part))];
      for (const CellResult& c : p.cells) {
        if (a.rows.empty()) continue;
        const CellPosition at = answer_place(c.label);
        REQUIRE(at.row < a.rows.size());
        REQUIRE(at.column < a.rows[at.row].size());
        CHECK(a.rows[at.row][at.column] == c.given);
        ++checked;
      }
    }
  CHECK(checked == 9 + 3 + 1);
}

TEST_CASE("the lesson's table names its rows by query (or token) and its columns by key (or dimension)") {
  const std::vector<std::string> tokens = {"bus", "is", "late"};
  const std::vector<std::size_t> query_rows = {2, 0};  // a table of the queries of late and bus
  CHECK(row_name(tokens, query_rows, Part::weights, 1) == "late");
  CHECK(row_name(tokens, query_rows, Part::output, 2) == "bus");
  CHECK(row_name(tokens, query_rows, Part::scores, 3) == "3");  // past the query rows
  CHECK(row_name(tokens, query_rows, Part::keys, 1) == "bus");  // keys and values: a row per token
  CHECK(row_name(tokens, query_rows, Part::values, 4) == "4");
  CHECK(column_name(tokens, Part::scores, 2) == "is");
  CHECK(column_name(tokens, Part::weights, 4) == "4");
  CHECK(column_name(tokens, Part::output, 2) == "2");
  CHECK(column_name(tokens, Part::queries, 1) == "1");
  CHECK(std::string(table_corner(Part::scores)) == "query ↓ key →");
  CHECK(std::string(table_corner(Part::weights)) == "query ↓ key →");
  CHECK(std::string(table_corner(Part::keys)) == "token ↓ dimension →");
  CHECK(std::string(table_corner(Part::values)) == "token ↓ dimension →");
  CHECK(std::string(table_corner(Part::output)) == "query ↓ dimension →");
  CHECK(std::string(table_corner(Part::queries)) == "query ↓ dimension →");
  // A cell's name is its row's and its column's.
  CHECK(cell_name(tokens, query_rows, Part::weights, "1.2") == "late → is");
  CHECK(cell_name(tokens, query_rows, Part::keys, "3.2") == "late, 2");
  CHECK(cell_name(tokens, query_rows, Part::output, "2.1") == "bus, 1");
  CHECK(cell_name(tokens, query_rows, Part::most_attended, "1") == "late");
}

TEST_CASE("A cell's spoken name is the lesson's words for its row and column") {
  const std::vector<std::string> tokens{"bus", "is", "late"};
  const std::vector<std::size_t> all{0, 1, 2};
  const std::vector<std::size_t> one{1};  // a one-token question asked by "is"
  CHECK(spoken_cell_name(tokens, all, Part::weights, {0, 2}) == "weight, query bus, key late");
  CHECK(spoken_cell_name(tokens, all, Part::scores, {2, 0}) == "score, query late, key bus");
  CHECK(spoken_cell_name(tokens, one, Part::scores, {0, 2}) == "score, query is, key late");
  CHECK(spoken_cell_name(tokens, all, Part::output, {1, 1}) == "output, query is, dimension 2");
  CHECK(spoken_cell_name(tokens, one, Part::output, {0, 0}) == "output, query is, dimension 1");
  CHECK(spoken_cell_name(tokens, all, Part::keys, {2, 0}) == "key, token late, dimension 1");
  CHECK(spoken_cell_name(tokens, all, Part::values, {0, 1}) == "value, token bus, dimension 2");
  CHECK(spoken_cell_name(tokens, one, Part::query, {0, 1}) == "query, token is, dimension 2");
  CHECK(spoken_cell_name(tokens, all, Part::queries, {2, 0}) == "query, token late, dimension 1");
  CHECK(spoken_cell_name(tokens, all, Part::most_attended, {0, 2}) == "most attended token, query late");
  CHECK(spoken_cell_name(tokens, one, Part::most_attended, {0, 0}) == "most attended token, query is");
}
