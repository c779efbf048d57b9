// marking/mark_class.h: marking a class (the `mark` command).
//
// A class is marked as a stream: the inputs are read and checked first (so
// each student's last submission is known), then submissions are judged in
// chunks of 256 on every core and written out in input order, a bounded
// number of chunks behind. The output is the same for any number of threads
// and memory grows only with what the summary keeps per student.
//
//   MarkSettings settings;
//   settings.out_dir = "out";
//   StatusTally counts = mark_class(rubric, settings, {"answers/"}, std::cerr);
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "lesson/graded_submission.h"
#include "lesson/rubric.h"
#include "writers/theme.h"

namespace attnmark {

// How per-student feedback is written.
enum class FeedbackMode {
  files,  // feedback/<student>.md, .json and .html
  jsonl,  // one feedback.jsonl, a JSON object per line
  none,
};

// Everything `mark` needs besides the rubric and the inputs.
struct MarkSettings {
  std::optional<std::uint64_t> seed;  // --seed, else the rubric's; else each file's own
  unsigned jobs = 1;                   // threads, at least 1
  FeedbackMode feedback = FeedbackMode::files;
  std::string out_dir;
  bool force = false;                  // replace an earlier run's reports
  HtmlStyle style;                     // summary.html and feedback pages
};

// Marks every input (answer files, folders of them, CSV sheets) and writes
// gradebook.csv, summary.md, summary.html and the feedback into
// settings.out_dir. Every file and sheet row appears exactly once in the
// gradebook. Returns how many submissions got each status. Throws Error for
// a rubric that cannot be used or reports that would replace an earlier
// run's without `force`; then no report is left behind.
StatusTally mark_class(const Rubric& rubric, const MarkSettings& settings, const std::vector<std::string>& inputs,
                       std::ostream& err);

}  // namespace attnmark
