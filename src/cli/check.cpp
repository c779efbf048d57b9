// attnmark check ANSWERS, check RUBRIC ANSWERS, or check [RUBRIC] --answers ANSWERS:
// a student's self-check.
#include "cli/check.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <ostream>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "base/text.h"
#include "cli/options.h"
#include "marking/inputs.h"
#include "marking/judge.h"
#include "readers/answer_reader.h"
#include "readers/rubric_loader.h"
#include "writers/feedback.h"
#include "writers/report_words.h"

namespace attnmark {

namespace {

// The rubric for a self-check: as given, else the one named in the answer
// file, looked for beside the file and in ./rubrics/.
Rubric rubric_for_check(const std::string& rubric_file, const std::string& answers, const Submission& s) {
  if (!rubric_file.empty()) return load_rubric_argument(rubric_file, "check");
  if (s.rubric.empty() || s.rubric.find_first_of("/\\") != std::string::npos)
    throw Error(answers, 0, 0, "names no rubric; give the rubric file: attnmark check RUBRIC FILE");
  const std::filesystem::path beside = std::filesystem::path(answers).parent_path() / (s.rubric + ".yaml");
  for (const std::filesystem::path& p : {beside, std::filesystem::path("rubrics") / (s.rubric + ".yaml")}) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return load_rubric_file(p.string());
  }
  throw Error(answers, 0, 0,
              fmt::format("is for rubric {}, but no {}.yaml is beside it or in rubrics/; give the rubric file",
                          quoted_printable(s.rubric), printable(s.rubric, 60)));
}

// Whether a file that reads as no answers at all is a rubric: the one
// mistake worth naming when a single file is given.
bool is_rubric(const std::string& path) {
  try {
    load_rubric_file(path);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

void declare_check(CLI::App& sub, CheckOptions& options) {
  // check ANSWERS, check RUBRIC ANSWERS, or check [RUBRIC] --answers ANSWERS: run_check sorts them out.
  sub.add_option("FILES", options.files, "Your answer file or notebook, or the rubric file and then it")
      ->type_name("FILE");
  sub.add_option("--answers", options.answers, "Your answer file or notebook (then FILES is the rubric)")
      ->type_name("FILE");
  add_seed_option(sub, options.seed, "Seed, if your answer file does not record it");
  sub.add_flag("--reveal", options.reveal, "Show the right answers too");
}

int run_check(const CheckOptions& options, std::ostream& out, std::ostream&) {
  // The answer file is --answers, else the last file named; a file before it
  // is the rubric.
  std::string rubric_file, answers = options.answers;
  const std::size_t most = options.answers.empty() ? 2 : 1;  // files named besides --answers
  if (options.files.size() > most)
    throw Error(options.answers.empty() ? "check: expected your answer file, or the rubric file and then your answer file"
                                        : "check: expected at most one rubric file");
  if (options.answers.empty()) {
    if (options.files.empty()) throw Error("check: give your answer file: attnmark check FILE");
    answers = options.files.back();
    if (options.files.size() == 2) rubric_file = options.files.front();
  } else if (!options.files.empty()) {
    rubric_file = options.files.front();
  }
  const ReadLimits limits;
  const Submission s = read_submission_file(read_file(answers, limits.max_file_bytes), answers, answers, limits);
  if (!s.unreadable.empty()) throw Error(answers, 0, 0, s.unreadable);
  if (rubric_file.empty() && s.rubric.empty() && s.answers.empty() && is_rubric(answers))
    throw Error(answers, 0, 0, "is a rubric, not an answer file; give your answer file: attnmark check FILE");
  const Rubric rubric = rubric_for_check(rubric_file, answers, s);
  const std::optional<std::uint64_t> given_seed =
      options.seed ? std::optional<std::uint64_t>(parse_seed(*options.seed)) : std::nullopt;
  // A file that records a variant but no seed (a served class's worksheet
  // or notebook) is marked against that variant, whose numbers follow from
  // its id: any other seed would mark it against another student's numbers.
  const bool recorded_only = !given_seed && !s.seed && parse_variant_id(s.variant);
  const std::optional<std::uint64_t> seed = given_seed ? given_seed : s.seed ? s.seed : rubric.seed;
  if (!seed && !recorded_only) throw Error(answers, 0, 0, "records no seed; give --seed (from your worksheet)");
  const GradedSubmission g = recorded_only ? judge_recorded_variant(rubric, s) : judge(rubric, seed, s, "");
  if (!g.marked) throw Error(answers, 0, 0, bounded_reason(g.reason, max_reason_bytes));
  if (options.reveal) {
    // Right answers only where the rubric lets feedback show them, and for
    // a file holding what the key the teacher issues holds: the student,
    // and the seed (with the variant it gives), not a variant id alone.
    if (!rubric.reveal_in_feedback)
      throw Error(fmt::format("--reveal: rubric {} does not allow showing the right answers (its reveal_answers is "
                              "false); your teacher can give you your key (attnmark key)",
                              quoted_printable(rubric.name)));
    const bool own_with_seed = s.seed && (!given_seed || *given_seed == *s.seed) && !s.student.empty() &&
                               g.status != SubmissionStatus::wrong_variant;
    if (!own_with_seed)
      throw Error(answers, 0, 0,
                  "--reveal: shows the right answers only for a file that records your student id and the seed your "
                  "worksheet was made with, as the key your teacher gives you does; check without --reveal, or ask "
                  "your teacher for your key (attnmark key)");
  }
  out << check_table(rubric, g, options.reveal);
  return g.marked->score >= g.marked->max_score - 1e-9 ? 0 : 1;
}

}  // namespace attnmark
