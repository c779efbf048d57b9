// fuzz_check.h: invariants shared by the fuzz targets.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "base/text.h"
#include "attnmark/lesson/submission.h"

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

// What every reader of a submission file promises, whatever the bytes: the
// source is kept; the reason, every note and every part's unreadable
// sentence are one printable line, the reason short; an unreadable file
// keeps nothing it read; no more than `max_cells` cells are kept.
inline void require_submission_invariants(const Submission& s, std::string_view source, std::size_t max_cells) {
  require(s.source == source, "the source is kept");
  require(one_printable_line(s.unreadable), "the reason is one printable line");
  require(s.unreadable.size() <= 400, "the reason is short");
  if (!s.unreadable.empty())
    require(s.answers.empty() && s.notes.empty() && s.student.empty() && !s.seed, "an unreadable file keeps nothing");
  for (const auto& note : s.notes) require(one_printable_line(note), "each note is one printable line");
  std::size_t cells = 0;
  for (const auto& [question, parts] : s.answers)
    for (const auto& [part, answer] : parts) {
      require(one_printable_line(answer.unreadable), "a part's unreadable sentence is one printable line");
      for (const auto& row : answer.rows) cells += row.size();
    }
  require(cells <= max_cells, "no more cells than the limit");
}

}  // namespace attnmark::fuzz
