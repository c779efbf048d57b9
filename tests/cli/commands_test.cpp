// The table of commands (cli/commands.h): every entry complete, its help and
// example shown, its example made of its own options, and its Runner the
// command itself.
#include "support/test_support.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace {

// The words of a command line without quotes (every example is one).
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

}  // namespace

TEST_CASE("every command in the table has a name, one line of help, an example and its options") {
  std::set<std::string> names;
  const Run top = run_cli("--help");
  CHECK(top.status == 0);
  for (const attnmark::CommandInfo& info : attnmark::command_table()) {
    const std::string name = info.name;
    INFO(name);
    CHECK(names.insert(name).second);
    CHECK(!name.empty());
    CHECK(info.help != nullptr);
    CHECK(std::string(info.help).size() > 10);
    CHECK(std::string(info.help).find('\n') == std::string::npos);
    CHECK(std::string(info.example).starts_with("attnmark " + name + " "));
    CHECK(info.declare);
    // attnmark --help lists it; attnmark NAME --help shows its help and example.
    CHECK(top.out.find(fmt::format("\n  {:<28}{}\n", name, info.help)) != std::string::npos);
    const Run r = run_cli(name + " --help");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out.starts_with(std::string(info.help) + "\n"));
    CHECK(r.out.ends_with(fmt::format("\nExample: {}\n", info.example)));
  }
  CHECK(names.size() == 9);
}

TEST_CASE("every command's example uses only the options the command declares") {
  for (const attnmark::CommandInfo& info : attnmark::command_table()) {
    INFO(info.name);
    CLI::App app;
    CLI::App* sub = app.add_subcommand(info.name, info.help);
    const attnmark::Runner run = info.declare(*sub);
    CHECK(run);
    std::vector<std::string> args = words(info.example);
    args.erase(args.begin());                 // "attnmark"
    std::reverse(args.begin(), args.end());   // CLI11 parses a vector from its back
    CHECK_NOTHROW(app.parse(args));
    CHECK(app.got_subcommand(sub));
  }
}

TEST_CASE("a command's Runner runs it with the options parsed into it, as the program does") {
  const std::string rubric = std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/lesson.yaml";
  CLI::App app;
  const auto& table = attnmark::command_table();
  const auto key = std::find_if(table.begin(), table.end(), [](const auto& c) { return std::string(c.name) == "key"; });
  REQUIRE(key != table.end());
  CLI::App* sub = app.add_subcommand("key");
  const attnmark::Runner run = key->declare(*sub);
  std::vector<std::string> args = {"key", rubric, "--seed", "5", "--student", "s001", "--format", "json"};
  std::reverse(args.begin(), args.end());
  app.parse(args);
  std::ostringstream out, err;
  CHECK(run(out, err) == 0);
  CHECK(err.str().empty());
  const Run program = run_cli("key rubrics/lesson.yaml --seed 5 --student s001 --format json");
  CHECK(program.status == 0);
  CHECK(out.str() == program.out);
  CHECK(!out.str().empty());
}
