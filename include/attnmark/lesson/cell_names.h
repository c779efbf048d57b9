// attnmark/lesson/cell_names.h: where an answer cell sits in its part, and its name for
// people in the lesson's table of the part: a row per query (per token for
// keys and values), a column per key for scores and weights, else per
// dimension. The grader labels cells with these; every report names them so.
//
//   cell_position("2.3") == CellPosition{2, 3};  append_cell_label(label, {2, 3});  // "2.3"
//   cell_name(tokens, {0, 1, 2}, Part::scores, "2.1") == "is → bus"   (tokens bus, is, late)
//   table_corner(Part::weights) == "query ↓ key →"
//   spoken_cell_name(tokens, {0, 1, 2}, Part::weights, {0, 2}) == "weight, query bus, key late"
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/lesson/rubric.h"

namespace attnmark {

// Where a cell is, 1-based: row 2, column 3 of a matrix is "2.3"; column 3
// of a one-row part (row 0) is "3"; the one word of a one-token most
// attended is (0, 0), "". A most attended part with a word per query puts
// query r in column r.
struct CellPosition {
  std::size_t row = 0, column = 0;
};

// The position a label names. REQUIRES: label is one append_cell_label wrote.
CellPosition cell_position(std::string_view label);

// The place of the answer a cell marks in its part's PartAnswer::rows,
// 0-based: "2.3" is rows[1][2]; "3" is rows[0][2] (a one-row part, and a
// most attended word per query: one list); "" is rows[0][0].
// REQUIRES: label is one append_cell_label wrote.
CellPosition answer_place(std::string_view label);

// Appends the label of the cell at `at` ("2.3", "3" or "") to out, without a
// string of its own for each number.
void append_cell_label(std::string& out, CellPosition at);

// The name of row `row` of part's table (1-based): its query's token, or for
// keys and values its own token ("is"); a number past the tokens.
std::string row_name(const std::vector<std::string>& tokens, const std::vector<std::size_t>& query_rows, Part part,
                     std::size_t row);

// The name of column `column` of part's table (1-based): its key's token for
// scores and weights ("bus"), else the dimension ("2").
std::string column_name(const std::vector<std::string>& tokens, Part part, std::size_t column);

// What the rows and columns of part's table are: "query ↓ key →" for scores
// and weights, "token ↓ dimension →" for keys and values, else "query ↓ dimension →".
const char* table_corner(Part part);

// A cell named for people by its tokens, from its label ("2.3", "3", ""):
// weights and scores by their key, after the query for a row of a matrix
// ("late", "is → bus"); outputs and projections by their dimension, after
// the token for a row of a matrix ("2", "is, 2"); the most attended word by
// its query ("is"), or "" for the one word of a one-token question.
// REQUIRES: label is one the grader gave a cell of `part` in `question`.
std::string cell_name(const std::vector<std::string>& tokens, const std::vector<std::size_t>& query_rows, Part part,
                      std::string_view label);

// A cell named to be heard (a screen reader's name for its box), in the
// lesson's words, from its place in its part's answers (0-based, as
// answer_place gives): "weight, query bus, key late"; "output, query is,
// dimension 2"; "key, token is, dimension 1"; "most attended token, query is".
// A one-row part's cells belong to query_rows[0] (a one-token question).
// REQUIRES: place is a cell of `part` in the question of tokens and query_rows.
std::string spoken_cell_name(const std::vector<std::string>& tokens, const std::vector<std::size_t>& query_rows,
                             Part part, CellPosition place);

}  // namespace attnmark
