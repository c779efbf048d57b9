// fuzz_check.h: invariants shared by the fuzz targets.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "base/text.h"

namespace attnmark::fuzz {

// Aborts (a crash libFuzzer records, with the input) when `ok` is false.
// Unlike assert it stays on in release builds.
inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

// A message shown to a user must be one line of printable text, as
// printable() makes it: well-formed UTF-8 with no control character (C0,
// DEL, C1, line or paragraph separator, bidirectional control; is_control).
// UTF-8 letters are fine.
inline bool one_printable_line(std::string_view text) {
  return first_invalid_utf8(text) == std::string_view::npos && !has_control(text);
}

}  // namespace attnmark::fuzz
