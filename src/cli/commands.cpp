#include "cli/commands.h"

#include <charconv>
#include <algorithm>
#include <fmt/format.h>
#include <filesystem>
#include <thread>

#include "base/error.h"

namespace attnmark {

const std::vector<CommandInfo>& command_table() {
  static const std::vector<CommandInfo> table = {
      {"generate", "Write a student's worksheet (Markdown, HTML, LaTeX, JSON or a Jupyter notebook)",
       "attnmark generate rubrics/lesson.yaml --student s001 -o ws.html"},
      {"key", "Write a student's answer key with every worked step",
       "attnmark key rubrics/lesson.yaml --student s001 -o key.html"},
      {"template", "Write the blank answer file (YAML) a student fills in",
       "attnmark template rubrics/lesson.yaml --student s001 -o s001.yaml"},
      {"validate", "Check exercise definitions (rubrics)", "attnmark validate rubrics/lesson.yaml --self-test"},
      {"mark", "Mark a class: answer files, folders or CSV sheets; writes a gradebook and reports",
       "attnmark mark rubrics/class-demo.yaml fixtures/class/answers -o out/class"},
      {"check", "Check your own answers before handing them in", "attnmark check s001.yaml"},
      {"autograde", "Mark one submission as the autograder of Gradescope or PrairieLearn",
       "attnmark autograde gradescope rubrics/lesson.yaml --seed 2026"},
      {"serve", "Serve the class's self-check page and JSON API; every attempt kept in SQLite",
       "attnmark serve rubrics/lesson.yaml --seed 2026 --roster roster.csv --db class.sqlite"},
      {"access-codes", "Print each student's access code for a served class (CSV)",
       "attnmark access-codes --db class.sqlite"},
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

void refuse_to_replace(const Options& options) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::symlink_status(options.output, ec);
  if (ec || !std::filesystem::exists(status)) return;
  if (std::filesystem::is_directory(status)) throw Error(options.output, 0, 0, "is a folder; -o takes a file name here");
  if (!options.force) throw Error(options.output, 0, 0, "already exists; pass --force to replace it");
}

unsigned parse_jobs(const std::optional<std::string>& text) {
  if (!text) return std::max(1u, std::thread::hardware_concurrency());
  unsigned value = 0;
  const char* end = text->data() + text->size();
  const auto [stop, ec] = std::from_chars(text->data(), end, value);
  if (text->empty() || ec != std::errc() || stop != end || value < 1 || value > 256)
    throw Error(fmt::format("--jobs: expected a whole number from 1 to 256; got '{}'", *text));
  return value;
}

int run_command(const Options& options, std::ostream& out, std::ostream& err) {
  if (options.command == "validate") return run_validate(options, out, err);
  if (options.command == "mark") return options.db.empty() ? run_mark(options, out, err) : run_mark_db(options, out, err);
  if (options.command == "serve") return run_serve(options, out, err);
  if (options.command == "access-codes") return run_access_codes(options, out, err);
  if (options.command == "check") return run_check(options, out, err);
  if (options.command == "autograde") return run_autograde(options, out, err);
  return run_generate(options, out, err);
}

}  // namespace attnmark
