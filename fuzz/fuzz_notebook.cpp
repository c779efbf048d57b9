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

using attnmark::fuzz::require_submission_invariants;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  attnmark::ReadLimits limits;
  limits.max_cells = 200;  // small, so the cap is reached too
  require_submission_invariants(attnmark::read_notebook(text, "fuzz.ipynb", limits), "fuzz.ipynb", limits.max_cells);
  return 0;
}
