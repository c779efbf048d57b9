// Fuzzes read_sheet (CSV class sheets). Invariants: bad input throws only
// attnmark::Error with a one-line message and nothing handed out before it;
// every row handed out names its line; no more rows or cells than the limits.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "attnmark/base/error.h"
#include "readers/answer_reader.h"
#include "fuzz_check.h"

using attnmark::fuzz::one_printable_line;
using attnmark::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  attnmark::ReadLimits limits;
  limits.max_cells = 200;  // small, so the caps are reached too
  limits.max_sheet_rows = 50;
  limits.max_sheet_cells = 2000;
  std::size_t rows = 0;
  try {
    const attnmark::SheetInfo info =
        attnmark::read_sheet(text, "fuzz.csv", limits, [&](attnmark::Submission&& s) {
          ++rows;
          require(s.source.rfind("fuzz.csv:", 0) == 0, "a row's source names the file and line");
          require(s.unreadable.empty(), "a row is never unreadable as a whole");
          std::size_t cells = 0;
          for (const auto& [question, parts] : s.answers)
            for (const auto& [part, answer] : parts)
              for (const auto& row : answer.rows) cells += row.size();
          require(cells <= limits.max_cells, "no more cells per row than the limit");
          for (const auto& note : s.notes) require(one_printable_line(note), "each note is one printable line");
        });
    require(info.rows == rows, "rows counts the rows handed out");
    require(rows <= limits.max_sheet_rows, "no more rows than the limit");
    for (const auto& column : info.unknown_columns)
      require(one_printable_line(column), "unknown column names are printable");
  } catch (const attnmark::Error& e) {
    require(rows == 0, "nothing is handed out before an error");
    require(one_printable_line(e.message()), "the error is one printable line");
    require(e.message().size() <= 1000, "the error is short");
  }
  return 0;
}
