// The program's shell (cli/main.cpp), run as a user runs it: usage errors
// exit 2 with one line that starts "attnmark: ", --help and --version exit 0,
// and each command's help shows numbers as numbers and an example.
#include "support/test_support.h"

#include <fmt/format.h>
#include <string>

#include "base/files.h"
#include "cli/commands.h"

TEST_CASE("usage errors exit 2") {
  CHECK(run_cli("").status == 2);
  CHECK(run_cli("frobnicate").status == 2);
  CHECK(run_cli("key rubrics/lesson.yaml --format pdf").status == 2);
  CHECK(run_cli("key rubrics/lesson.yaml --format pdf").err == "attnmark: --format: expected md, json, jsonl, html, tex or ipynb; got 'pdf'\n");
  CHECK(run_cli("key no-such-file.yaml").err.rfind("attnmark: no-such-file.yaml: cannot open: No such file or directory", 0) == 0);
  CHECK(run_cli("--help").status == 0);
}

TEST_CASE("the option parser's errors are one line that starts attnmark: and names the command") {
  const std::string commands = "generate, key, template, validate, mark, check, autograde, serve, access-codes";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "attnmark: expected a command: " + commands + "; see attnmark --help\n"},
      {"frobnicate", "attnmark: unknown command 'frobnicate'; the commands are " + commands + "; see attnmark --help\n"},
      {"--bogus", "attnmark: unknown option '--bogus'; see attnmark --help\n"},
      {"generate", "attnmark: generate: RUBRIC is required; see attnmark generate --help\n"},
      {"generate rubrics/lesson.yaml --bogus",
       "attnmark: generate: the following argument was not expected: --bogus; see attnmark generate --help\n"},
      {"key rubrics/lesson.yaml --seed", "attnmark: key: --seed: 1 required NUMBER missing; see attnmark key --help\n"},
      {"mark rubrics/lesson.yaml answers", "attnmark: mark: --out is required; see attnmark mark --help\n"},
      {"validate", "attnmark: validate: RUBRIC is required; see attnmark validate --help\n"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args);
    const Run r = run_cli(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err == message);
  }
}

TEST_CASE("attnmark --version prints the project's version") {
  const std::string cmake = attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/CMakeLists.txt", 1 << 20);
  const std::string marker = "project(attnmark VERSION ";
  REQUIRE(cmake.find(marker) != std::string::npos);
  const std::size_t at = cmake.find(marker) + marker.size();
  const std::string version = cmake.substr(at, cmake.find(' ', at) - at);
  const Run r = run_cli("--version");
  CHECK(r.status == 0);
  CHECK(r.out == "attnmark " + version + "\n");
  CHECK(r.err.empty());
}

TEST_CASE("each command's help gives numbers as NUMBER, never TEXT, and an example") {
  for (const attnmark::CommandInfo& info : attnmark::command_table()) {
    const std::string name = info.name;
    INFO(name);
    const Run r = run_cli(name + " --help");
    CHECK(r.status == 0);
    CHECK(r.out.rfind(std::string(info.help) + "\nUsage: attnmark " + name + " [OPTIONS]", 0) == 0);
    CHECK(r.out.ends_with(fmt::format("\nExample: {}\n", info.example)));
    CHECK(std::string(info.example).starts_with("attnmark " + name + " "));
    CHECK(r.out.find(" TEXT") == std::string::npos);
    CHECK(r.out.find(" N ") == std::string::npos);
    if (name != "validate" && name != "access-codes") CHECK(r.out.find("  --seed NUMBER ") != std::string::npos);
  }
  CHECK(run_cli("autograde --help").out.find("  --seed NUMBER  ") != std::string::npos);
  CHECK(run_cli("autograde --help").out.find("  --root DIR  ") != std::string::npos);
  CHECK(run_cli("generate --help").out.find("  --jobs NUMBER ") != std::string::npos);
  CHECK(run_cli("mark --help").out.find("  --jobs NUMBER ") != std::string::npos);
  CHECK(run_cli("validate --help").out.find("  --seeds NUMBER ") != std::string::npos);
  for (const char* number : {"  --port NUMBER ", "  --attempts NUMBER ", "  --checks-per-minute NUMBER "})
    CHECK(run_cli("serve --help").out.find(number) != std::string::npos);
  const Run top = run_cli("--help");
  CHECK(top.out.find("  --version ") != std::string::npos);
  CHECK(top.out.ends_with("\nRun 'attnmark COMMAND --help' for a command's options and an example.\n"));
}

TEST_CASE("every command that writes takes -o and --out alike") {
  const std::filesystem::path dir = scratch() / "o-and-out";
  std::filesystem::remove_all(dir);
  const Run ws = run_cli(fmt::format("generate rubrics/lesson.yaml --student s001 --out '{}'", (dir / "ws.md").string()));
  CHECK(ws.status == 0);
  CHECK(ws.err == fmt::format("attnmark: wrote worksheet to {}\n", (dir / "ws.md").string()));
  CHECK(run_cli(fmt::format("key rubrics/lesson.yaml --out '{}'", (dir / "key.md").string())).status == 0);
  CHECK(run_cli(fmt::format("template rubrics/lesson.yaml --student s001 --out '{}'", (dir / "a.yaml").string())).status == 0);
  const Run marked = run_cli(fmt::format("mark rubrics/lesson.yaml '{}' -o '{}'", (dir / "a.yaml").string(),
                                         (dir / "class").string()));
  CHECK(marked.err.starts_with("attnmark: marked 1 submission "));
  CHECK(std::filesystem::exists(dir / "class" / "gradebook.csv"));
  const Run both = run_cli(fmt::format("template rubrics/lesson.yaml -o '{}' --out '{}'", (dir / "b.yaml").string(),
                                       (dir / "c.yaml").string()));
  CHECK(both.status == 2);
  CHECK(both.err.starts_with("attnmark: template: "));
}
