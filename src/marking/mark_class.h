// marking/mark_class.h: marking a class (the `mark` command).
//
// A class is marked as a stream: the inputs are read and checked first (so
// each student's latest submission is known), then submissions are judged in
// chunks of 256 on every core and written out in input order, a bounded
// number of chunks behind. The output is the same for any number of threads
// and memory grows only with what the summary keeps per student.
//
//   MarkSettings settings;
//   settings.out_dir = "out";
//   ClassMarked marked = mark_class(rubric, settings, {"answers/"}, std::cerr);
//   return marked.complete() ? 0 : 1;
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"
#include "marking/report_set.h"

namespace attnmark {

// Marks every input (answer files, folders of them, CSV sheets) and writes
// gradebook.csv, summary.md, summary.html, the feedback and the LMS exports
// into settings.out_dir. The gradebook has one row per student: the
// submission that counts (a superseded one is listed in the summaries, not
// as a row a lookup could find first), and one per submission without a
// student id. With a roster: a row per roster student in roster order
// (`missing` when they handed nothing in), then `not-on-roster` rows, then
// those without an id. What the inputs hold that is not marked is listed in
// the summaries and on `err`.
//
// The reports are built in a temporary folder beside out_dir and put in its
// place whole when the run ends (an earlier run's folder is swapped out in
// one step), so out_dir holds the old reports or the new ones, never a mix.
// out_dir must be new, empty, or hold only an earlier run's reports.
//
// Throws Error for a rubric that cannot be used, an input inside out_dir,
// an out_dir holding other files, reports that would replace an earlier
// run's without `force`, or a failure to write; then out_dir is as it was.
ClassMarked mark_class(const Rubric& rubric, const MarkSettings& settings, const std::vector<std::string>& inputs,
                       std::ostream& err);

}  // namespace attnmark
