// Cells' labels and their names in the lesson's table (lesson/cell_names.h).
#include "support/test_support.h"

#include <string>
#include <vector>

#include "lesson/cell_names.h"

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
