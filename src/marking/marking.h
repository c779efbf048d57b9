// marking.h: marking a class (mark) and one student's self-check (check).
//
// A class is marked as a stream: the inputs are read and checked first (so
// each student's last submission is known), then submissions are judged in
// chunks of 256 on every core and written out in input order, a bounded
// number of chunks behind. The output is the same for any number of threads
// and memory grows only with what the summary keeps per student.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lesson/submission.h"
#include "lesson/rubric.h"
#include "writers/reports.h"
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

// Judges one submission: its status, reason and marks. Pure and thread-safe.
// `superseded_by` is the source of the same student's later submission, or
// empty when this one counts.
GradedSubmission judge(const Rubric& rubric, std::optional<std::uint64_t> seed, const Submission& submission,
                       const std::string& superseded_by);

// Marks every input (answer files, folders of them, CSV sheets) and writes
// gradebook.csv, summary.md, summary.html and the feedback into settings.out_dir. Every
// file and sheet row appears exactly once in the gradebook. Returns how many
// submissions got each status. Throws Error for a rubric that cannot be used
// or reports that would replace an earlier run's without `force`.
std::map<std::string, int> mark_class(const Rubric& rubric, const MarkSettings& settings,
                                      const std::vector<std::string>& inputs, std::ostream& err);

// Gives file names to student ids: letters, digits, '-', '_' and '.', never
// hidden, at most 64 bytes, unique without regard to case ("s1", "s1-2").
class FileStems {
 public:
  std::string take(const std::string& id);

 private:
  std::map<std::string, int> taken_;  // lower-case name → times handed out
};

}  // namespace attnmark
