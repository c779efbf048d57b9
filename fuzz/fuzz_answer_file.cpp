// Fuzzes read_answer_file (YAML and JSON answer files), as `mark` and `check`
// read every uploaded file. Invariants: it never throws; an unreadable file
// keeps nothing it read; the reason and every note are one printable line;
// no more cells than the limit are kept.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "readers/answer_reader.h"
#include "fuzz_check.h"

using attnmark::fuzz::require_submission_invariants;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  attnmark::ReadLimits limits;
  limits.max_cells = 200;  // small, so the cap is reached too
  require_submission_invariants(attnmark::read_answer_file(text, "fuzz.yaml", limits), "fuzz.yaml", limits.max_cells);
  return 0;
}
