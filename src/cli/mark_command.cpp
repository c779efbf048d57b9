#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <sstream>

#include "readers/answer_reader.h"
#include "base/error.h"
#include "readers/rubric_loader.h"
#include "cli/commands.h"
#include "base/files.h"
#include "marking/judge.h"
#include "marking/mark_class.h"
#include "writers/feedback.h"
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

namespace {

// The rubric for a self-check: as given, else the one named in the answer
// file, looked for beside the file and in ./rubrics/.
Rubric rubric_for_check(const Options& options, const Submission& s) {
  if (!options.rubrics.empty()) return load_rubric_file(options.rubrics[0]);
  if (s.rubric.empty() || s.rubric.find_first_of("/\\") != std::string::npos)
    throw Error(options.answers, 0, 0, "names no rubric; give the rubric file: attnmark check RUBRIC --answers FILE");
  const std::filesystem::path beside = std::filesystem::path(options.answers).parent_path() / (s.rubric + ".yaml");
  for (const std::filesystem::path& p : {beside, std::filesystem::path("rubrics") / (s.rubric + ".yaml")}) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return load_rubric_file(p.string());
  }
  throw Error(options.answers, 0, 0,
              fmt::format("is for rubric '{}', but no {}.yaml is beside it or in rubrics/; give the rubric file", s.rubric, s.rubric));
}

}  // namespace

int run_check(const Options& options, std::ostream& out, std::ostream&) {
  if (options.answers.empty()) throw Error("check: --answers FILE is required");
  if (options.rubrics.size() > 1) throw Error("check: expected at most one rubric file");
  const ReadLimits limits;
  const Submission s = read_answer_file(read_file(options.answers, limits.max_file_bytes), options.answers, limits);
  if (!s.unreadable.empty()) throw Error(options.answers, 0, 0, s.unreadable);
  const Rubric rubric = rubric_for_check(options, s);
  const std::optional<std::uint64_t> seed =
      options.seed ? std::optional<std::uint64_t>(parse_seed(*options.seed)) : s.seed ? s.seed : rubric.seed;
  if (!seed) throw Error(options.answers, 0, 0, "records no seed; give --seed (from your worksheet)");
  const GradedSubmission g = judge(rubric, seed, s, "");
  if (!g.marked) throw Error(options.answers, 0, 0, g.reason);
  out << check_table(rubric, g, options.reveal);
  return g.marked->score >= g.marked->max_score - 1e-9 ? 0 : 1;
}

}  // namespace attnmark
