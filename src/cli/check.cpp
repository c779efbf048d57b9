// attnmark check [RUBRIC] --answers FILE: a student's self-check.
#include <filesystem>
#include <fmt/format.h>
#include <ostream>

#include "base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "cli/commands.h"
#include "marking/judge.h"
#include "readers/answer_reader.h"
#include "readers/rubric_loader.h"
#include "writers/feedback.h"
#include "writers/report_words.h"

namespace attnmark {

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
              fmt::format("is for rubric {}, but no {}.yaml is beside it or in rubrics/; give the rubric file",
                          quoted_printable(s.rubric), printable(s.rubric, 60)));
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
  if (!g.marked) throw Error(options.answers, 0, 0, bounded_reason(g.reason, max_reason_bytes));
  out << check_table(rubric, g, options.reveal);
  return g.marked->score >= g.marked->max_score - 1e-9 ? 0 : 1;
}

}  // namespace attnmark
