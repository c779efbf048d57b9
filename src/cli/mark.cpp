// attnmark mark RUBRIC INPUTS... --out DIR: marks a class.
#include <fmt/format.h>
#include <ostream>

#include "base/error.h"
#include "base/files.h"
#include "cli/commands.h"
#include "marking/mark_class.h"
#include "readers/rubric_loader.h"
#include "writers/theme.h"

namespace attnmark {

int run_mark(const Options& options, std::ostream&, std::ostream& err) {
  if (options.rubrics.size() != 1) throw Error("mark: expected one rubric file");
  if (options.inputs.empty()) throw Error("mark: expected answer files, folders or sheets to mark");
  if (options.out_dir.empty()) throw Error("mark: --out DIR is required");
  MarkSettings settings;
  settings.out_dir = options.out_dir;
  settings.force = options.force;
  settings.jobs = parse_jobs(options.jobs);
  settings.style = html_style(options.theme, options.text_size);
  if (options.feedback == "files") settings.feedback = FeedbackMode::files;
  else if (options.feedback == "jsonl") settings.feedback = FeedbackMode::jsonl;
  else if (options.feedback == "none") settings.feedback = FeedbackMode::none;
  else throw Error(fmt::format("--feedback: expected files, jsonl or none; got '{}'", options.feedback));
  const Rubric rubric = load_rubric_file(options.rubrics[0]);
  settings.seed = options.seed ? std::optional<std::uint64_t>(parse_seed(*options.seed)) : rubric.seed;
  const StatusTally counts = mark_class(rubric, settings, options.inputs, err);
  std::string tally;
  int total = 0;
  for (std::size_t s = 0; s < submission_status_count; ++s) {
    if (counts[s] == 0) continue;
    tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", counts[s], status_name(SubmissionStatus(s)));
    total += counts[s];
  }
  const char* feedback = settings.feedback == FeedbackMode::files   ? ", feedback/"
                         : settings.feedback == FeedbackMode::jsonl ? ", feedback.jsonl"
                                                                    : "";
  err << fmt::format("attnmark: marked {} submission{} ({}); reports in {}/: gradebook.csv, summary.md, summary.html{}\n", total,
                     total == 1 ? "" : "s", tally, options.out_dir, feedback);
  return 0;
}

}  // namespace attnmark
