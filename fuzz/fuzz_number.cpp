// Fuzzes read_number, the reader of every answer cell. The first byte picks
// whether the cell is a masked score; the rest is the cell's text.
// Invariants: a value is always finite (NaN, inf and overflow never become
// marks), a reading that is not a value has decimals -1, and every problem
// is one printable line of bounded length.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "attnmark/lesson/number_reader.h"
#include "fuzz_check.h"

using attnmark::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool masked_allowed = data[0] & 1;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const attnmark::CellReading r = attnmark::read_number(text, masked_allowed);
  using Kind = attnmark::CellReading::Kind;
  if (r.kind == Kind::value) {
    require(std::isfinite(r.value), "a value is finite");
    require(r.decimals >= -1, "a value has decimals >= 0, or -1 for a fraction");
    require(r.problem.empty(), "a value has no problem");
  } else {
    require(r.decimals == -1, "only values have decimals");
    require(r.value == 0, "only values have a value");
  }
  require((r.kind == Kind::unreadable) == !r.problem.empty(), "exactly the unreadable have a problem");
  require(r.kind != Kind::masked || masked_allowed, "masked only where allowed");
  require(attnmark::fuzz::one_printable_line(r.problem), "the problem is one printable line");
  require(r.problem.size() <= 200, "the problem is short");
  return 0;
}
