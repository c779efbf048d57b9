// fuzz_check.h: invariants shared by the fuzz targets.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace attnmark::fuzz {

// Aborts (a crash libFuzzer records, with the input) when `ok` is false.
// Unlike assert it stays on in release builds.
inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

// A message shown to a user must be one line of printable text: no line
// breaks, no terminal control bytes (C0, DEL). UTF-8 letters are fine.
inline bool one_printable_line(std::string_view text) {
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) return false;
  }
  return true;
}

}  // namespace attnmark::fuzz
