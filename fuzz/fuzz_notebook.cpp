// Fuzzes read_notebook (Jupyter notebooks handed in), as `mark`, `check` and
// the autograders read every uploaded .ipynb. Nothing in a notebook is ever
// run; the literal parser and the JSON tree meet hostile cell sources and
// outputs here. Invariants: it never throws; an unreadable notebook keeps
// nothing it read; the reason, every note and every part's unreadable
// sentence are one printable line; no more cells than the limit are kept.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "readers/notebook_reader.h"
#include "fuzz_check.h"

using attnmark::fuzz::one_printable_line;
using attnmark::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  attnmark::ReadLimits limits;
  limits.max_cells = 200;  // small, so the cap is reached too
  const attnmark::Submission s = attnmark::read_notebook(text, "fuzz.ipynb", limits);
  require(s.source == "fuzz.ipynb", "the source is kept");
  require(one_printable_line(s.unreadable), "the reason is one printable line");
  require(s.unreadable.size() <= 400, "the reason is short");
  if (!s.unreadable.empty())
    require(s.answers.empty() && s.notes.empty() && s.student.empty() && !s.seed,
            "an unreadable notebook keeps nothing");
  for (const auto& note : s.notes) require(one_printable_line(note), "each note is one printable line");
  std::size_t cells = 0;
  for (const auto& [question, parts] : s.answers)
    for (const auto& [part, answer] : parts) {
      require(one_printable_line(answer.unreadable), "a part's unreadable sentence is one printable line");
      for (const auto& row : answer.rows) cells += row.size();
    }
  require(cells <= limits.max_cells, "no more cells than the limit");
  return 0;
}
