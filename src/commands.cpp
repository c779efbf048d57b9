#include "commands.h"

#include <charconv>
#include <cstdint>
#include <fmt/format.h>
#include <ostream>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "attnmark/error.h"
#include "attnmark/rubric_loader.h"
#include "attnmark/variant.h"
#include "attnmark/worksheet.h"
#include "answer_reader.h"
#include "file_io.h"
#include "marking.h"
#include "reports.h"

namespace attnmark {
namespace {

// The seed from --seed, else the rubric's, else a fresh one the user is told.
std::uint64_t choose_seed(const Options& options, const Rubric& rubric, std::ostream& err) {
  if (options.seed) return parse_seed(*options.seed);
  if (rubric.seed) return *rubric.seed;
  // Only this path is not reproducible by itself, so the seed is printed.
  std::random_device device;
  const std::uint64_t seed = 1 + device() % 999999;
  err << fmt::format("attnmark: {} has no seed: and no --seed was given; using --seed {}\n", rubric.file, seed);
  return seed;
}

// Writes to -o PATH, or to standard output.
void emit(const Options& options, const std::string& text, const char* what, std::ostream& out, std::ostream& err) {
  if (options.output.empty()) {
    out << text;
    return;
  }
  write_file(options.output, text);
  err << fmt::format("attnmark: wrote {} to {}\n", what, options.output);
}

Sheet sheet_of(const Options& options) {
  return options.command == "key" ? Sheet::key : Sheet::worksheet;
}

int generate(const Options& options, std::ostream& out, std::ostream& err) {
  if (options.rubrics.size() != 1) throw Error(options.command + ": expected one rubric file");
  const Rubric rubric = load_rubric_file(options.rubrics[0]);
  const Variant variant = make_variant(rubric, choose_seed(options, rubric, err), options.student);
  const Sheet sheet = sheet_of(options);
  const char* what = options.command == "template" ? "answer template"
                     : sheet == Sheet::key         ? "answer key"
                                                   : "worksheet";
  if (options.command == "template") {
    emit(options, render_answer_template(rubric, variant), what, out, err);
  } else if (options.format == "md") {
    emit(options, render_markdown(rubric, variant, sheet), what, out, err);
  } else if (options.format == "json") {
    emit(options, render_json(variant, sheet), what, out, err);
  } else {
    throw Error(fmt::format("--format: expected 'md' or 'json'; got '{}'", options.format));
  }
  return 0;
}

int validate(const Options& options, std::ostream& out, std::ostream& err) {
  if (options.rubrics.empty()) throw Error("validate: expected one or more rubric files");
  int status = 0;
  for (const std::string& path : options.rubrics) {
    try {
      const Rubric rubric = load_rubric_file(path);
      // Draw a few variants so impossible constraints show now, not in class.
      const std::uint64_t seed = rubric.seed.value_or(0);
      for (int i = 0; i < 20; ++i) make_variant(rubric, seed, fmt::format("validate-{}", i));
      out << fmt::format("{}: ok ({} question{})\n", path, rubric.questions.size(),
                         rubric.questions.size() == 1 ? "" : "s");
    } catch (const Error& e) {
      err << e.report() << "\n";
      status = 2;
    }
  }
  return status;
}

int mark(const Options& options, std::ostream&, std::ostream& err) {
  if (options.rubrics.size() != 1) throw Error("mark: expected one rubric file");
  if (options.inputs.empty()) throw Error("mark: expected answer files, folders or sheets to mark");
  if (options.out_dir.empty()) throw Error("mark: --out DIR is required");
  const Rubric rubric = load_rubric_file(options.rubrics[0]);
  SeedChoice seed;
  if (options.seed) seed.given = parse_seed(*options.seed);
  else seed.given = rubric.seed;
  const std::vector<GradedSubmission> rows = mark_inputs(rubric, seed, options.inputs, err);
  write_reports(rubric, rows, options.out_dir, options.force);
  std::map<std::string, int> counts;
  for (const GradedSubmission& g : rows) ++counts[g.status];
  std::string tally;
  for (const auto& [status, n] : counts) tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", n, status);
  err << fmt::format("attnmark: marked {} submission{} ({}); reports in {}/: gradebook.csv, summary.md, feedback/\n",
                     rows.size(), rows.size() == 1 ? "" : "s", tally, options.out_dir);
  return 0;
}

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

int check(const Options& options, std::ostream& out, std::ostream&) {
  if (options.answers.empty()) throw Error("check: --answers FILE is required");
  if (options.rubrics.size() > 1) throw Error("check: expected at most one rubric file");
  const ReadLimits limits;
  const Submission s = read_answer_file(read_file(options.answers, limits.max_file_bytes), options.answers, limits);
  if (!s.unreadable.empty()) throw Error(options.answers, 0, 0, s.unreadable);
  const Rubric rubric = rubric_for_check(options, s);
  SeedChoice seed;
  seed.given = options.seed ? std::optional<std::uint64_t>(parse_seed(*options.seed)) : s.seed ? s.seed : rubric.seed;
  if (!seed.given) throw Error(options.answers, 0, 0, "records no seed; give --seed (from your worksheet)");
  std::ostringstream ignored;
  std::vector<GradedSubmission> rows = mark_inputs(rubric, seed, {options.answers}, ignored);
  const GradedSubmission& g = rows.at(0);
  if (!g.marked) throw Error(options.answers, 0, 0, g.reason);
  out << check_table(rubric, g, options.reveal);
  return g.marked->score >= g.marked->max_score - 1e-9 ? 0 : 1;
}

}  // namespace

const std::vector<CommandInfo>& command_table() {
  static const std::vector<CommandInfo> table = {
      {"generate", "Write a student's worksheet (Markdown or JSON)"},
      {"key", "Write a student's answer key with every worked step"},
      {"template", "Write the blank answer file (YAML) a student fills in"},
      {"validate", "Check exercise definitions (rubrics)"},
      {"mark", "Mark a class: answer files, folders or CSV sheets; writes a gradebook and reports"},
      {"check", "Check your own answers before handing them in"},
  };
  return table;
}

std::uint64_t parse_seed(const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || text[0] < '0' || text[0] > '9' || ec != std::errc() || stop != end)
    throw Error(fmt::format("--seed: expected a whole number from 0 to 18446744073709551615; got '{}'", text));
  return value;
}

int run_command(const Options& options, std::ostream& out, std::ostream& err) {
  if (options.command == "validate") return validate(options, out, err);
  if (options.command == "mark") return mark(options, out, err);
  if (options.command == "check") return check(options, out, err);
  return generate(options, out, err);
}

}  // namespace attnmark
