// Fuzzes load_rubric, as `validate`, `mark` and `check` read a rubric.
// Invariants: bad input throws only attnmark::Error, whose message is one
// printable line; a rubric that loads has at least one question.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "attnmark/base/error.h"
#include "readers/rubric_loader.h"
#include "fuzz_check.h"

using attnmark::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const attnmark::Rubric rubric = attnmark::load_rubric(text, "fuzz.yaml");
    require(!rubric.questions.empty(), "a rubric has a question");
  } catch (const attnmark::Error& e) {
    require(attnmark::fuzz::one_printable_line(e.message()), "the error is one printable line");
    require(e.message().size() <= 2000, "the error is short");
  }
  return 0;
}
