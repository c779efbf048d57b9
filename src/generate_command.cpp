#include <fmt/format.h>
#include <ostream>
#include <random>

#include "attnmark/error.h"
#include "attnmark/rubric_loader.h"
#include "attnmark/variant.h"
#include "attnmark/worksheet.h"
#include "commands.h"
#include "file_io.h"

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

}  // namespace

int run_generate(const Options& options, std::ostream& out, std::ostream& err) {
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

int run_validate(const Options& options, std::ostream& out, std::ostream& err) {
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

}  // namespace attnmark
