#include "cli/commands.h"

#include <charconv>
#include <algorithm>
#include <fmt/format.h>
#include <thread>

#include "base/error.h"

namespace attnmark {

const std::vector<CommandInfo>& command_table() {
  static const std::vector<CommandInfo> table = {
      {"generate", "Write a student's worksheet (Markdown or JSON)"},
      {"key", "Write a student's answer key with every worked step"},
      {"template", "Write the blank answer file (YAML) a student fills in"},
      {"validate", "Check exercise definitions (rubrics)"},
      {"mark", "Mark a class: answer files, folders or CSV sheets; writes a gradebook and reports"},
      {"check", "Check your own answers before handing them in"},
      {"autograde", "Mark one submission as the autograder of Gradescope or PrairieLearn"},
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
  if (options.command == "mark") return run_mark(options, out, err);
  if (options.command == "check") return run_check(options, out, err);
  if (options.command == "autograde") return run_autograde(options, out, err);
  return run_generate(options, out, err);
}

}  // namespace attnmark
