// attnmark mark RUBRIC INPUTS... --out DIR: marks a class.
#include <fmt/format.h>
#include <ostream>

#include "base/error.h"
#include "base/files.h"
#include "cli/commands.h"
#include "marking/mark_class.h"
#include "base/text.h"
#include "readers/roster.h"
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
  settings.sheet_columns = {options.id_column, options.name_column};
  if (options.near_ids == "match") settings.match_near_ids = true;
  else if (options.near_ids != "flag")
    throw Error(fmt::format("--near-ids: expected flag or match; got {}", quoted_printable(options.near_ids)));
  settings.exports = options.exports;
  settings.assignment = options.assignment;
  settings.assignment_id = options.assignment_id;
  const Rubric rubric = load_rubric_file(options.rubrics[0]);
  if (!options.roster.empty())
    settings.roster = read_roster(read_file(options.roster, max_roster_bytes), options.roster, settings.sheet_columns);
  settings.seed = options.seed ? std::optional<std::uint64_t>(parse_seed(*options.seed)) : rubric.seed;
  const ClassMarked marked = mark_class(rubric, settings, options.inputs, err);
  const StatusTally& counts = marked.statuses;
  std::string tally;
  int total = 0;
  for (std::size_t s = 0; s < submission_status_count; ++s) {
    // A missing student is no submission: said apart, below.
    if (counts[s] == 0 || SubmissionStatus(s) == SubmissionStatus::missing) continue;
    tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", counts[s], status_name(SubmissionStatus(s)));
    total += counts[s];
  }
  const char* feedback = settings.feedback == FeedbackMode::files   ? ", feedback/"
                         : settings.feedback == FeedbackMode::jsonl ? ", feedback.jsonl"
                                                                    : "";
  std::string exports;
  for (const std::string& e : settings.exports) exports += ", " + e + ".csv";
  err << fmt::format("attnmark: marked {} submission{}{}{}{}; reports in {}/: gradebook.csv, summary.md, summary.html{}{}\n",
                     total, total == 1 ? "" : "s", tally.empty() ? "" : " (" + tally + ")",
                     settings.roster ? fmt::format("; roster: {} student{}", settings.roster->size(),
                                                   settings.roster->size() == 1 ? "" : "s")
                                     : "",
                     settings.roster ? fmt::format(", {} missing", marked.missing) : "", options.out_dir, feedback, exports);
  if (marked.complete()) return 0;
  // The teacher has something to look at before the marks go out.
  std::string what;
  auto add = [&](std::size_t n, const char* one, const char* many) {
    if (n) what += fmt::format("{}{} {}", what.empty() ? "" : "; ", n, n == 1 ? one : many);
  };
  add(marked.missing, "roster student handed nothing in", "roster students handed nothing in");
  add(marked.not_on_roster, "submission's id is not on the roster", "submissions' ids are not on the roster");
  if (marked.unmarked)
    what += fmt::format("{}{} submission{} could not be marked", what.empty() ? "" : "; ", marked.unmarked,
                        marked.unmarked == 1 ? "" : "s");
  if (marked.not_read)
    what += fmt::format("{}{} problem{} with the inputs (files not marked, folders not read, files flagged)",
                        what.empty() ? "" : "; ", marked.not_read, marked.not_read == 1 ? "" : "s");
  err << fmt::format("attnmark: not complete: {}; see summary.md (exit status 1)\n", what);
  return 1;
}

}  // namespace attnmark
