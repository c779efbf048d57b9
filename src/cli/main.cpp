// attnmark: generate and mark transformer-attention exercises.
// main() parses the command line into the command table's options, runs the
// command given, and reports errors.
#include <CLI/CLI.hpp>
#include <cctype>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <utility>
#include <vector>

#include "attnmark/base/error.h"
#include "base/text.h"
#include "cli/commands.h"

#ifndef ATTNMARK_VERSION
#error "ATTNMARK_VERSION is set by src/CMakeLists.txt from the project's version"
#endif

namespace {

// The option parser's errors read like attnmark's own: one line that starts
// "attnmark: ", names the command, and says where the options are listed.
std::string parse_failure(const CLI::App* app, const CLI::Error& e) {
  std::string what = e.what();
  // "A subcommand is required" reads on after "attnmark: "; "RUBRIC is required" keeps its capitals.
  if (what.size() > 1 && std::isupper(static_cast<unsigned char>(what[0])) &&
      !std::isupper(static_cast<unsigned char>(what[1])))
    what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
  std::string command;
  for (const CLI::App* sub : app->get_subcommands()) command = sub->get_name();
  if (command.empty()) {
    std::string names;
    for (const attnmark::CommandInfo& info : attnmark::command_table()) names += std::string(names.empty() ? "" : ", ") + info.name;
    const std::vector<std::string> rest = app->remaining();
    what = rest.empty()                    ? "expected a command: " + names
           : rest.front().starts_with("-") ? "unknown option " + attnmark::quoted_printable(rest.front())
                                           : "unknown command " + attnmark::quoted_printable(rest.front()) +
                                                 "; the commands are " + names;
  }
  const std::string help = command.empty() ? "attnmark --help" : "attnmark " + command + " --help";
  return "attnmark: " + (command.empty() ? "" : command + ": ") + attnmark::printable(what, 1000) + "; see " + help + "\n";
}

int run_main(int argc, char** argv) {
  CLI::App app{"attnmark: worksheets, keys and marking for attention exercises", "attnmark"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "attnmark " ATTNMARK_VERSION, "Print attnmark's version and exit");
  app.failure_message(parse_failure);
  app.footer("Run 'attnmark COMMAND --help' for a command's options and an example.");
  std::vector<std::pair<CLI::App*, attnmark::Runner>> commands;
  for (const attnmark::CommandInfo& info : attnmark::command_table()) {
    CLI::App* sub = app.add_subcommand(info.name, info.help);
    sub->footer(std::string("Example: ") + info.example);
    commands.emplace_back(sub, info.declare(*sub));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  for (const auto& [sub, run] : commands)
    if (app.got_subcommand(sub)) return run(std::cout, std::cerr);
  return 2;  // unreachable: require_subcommand(1) made the parse fail
}

}  // namespace

// Every failure ends here as one line (an Error with its place, and the
// caret line under it) and exit status 2, never as an abort: an exception
// from a library is a bug, but not one that should cost a core dump and a
// half-written temporary folder.
int main(int argc, char** argv) {
  try {
    return run_main(argc, argv);
  } catch (const attnmark::Error& e) {
    std::cerr << "attnmark: " << e.report() << "\n";
  } catch (const std::bad_alloc&) {
    std::cerr << "attnmark: out of memory\n";
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "attnmark: " << attnmark::printable(e.what(), 1000) << "\n";
  } catch (const std::exception& e) {
    std::cerr << "attnmark: internal error: " << attnmark::printable(e.what(), 1000)
              << " (please report this as a bug)\n";
  } catch (...) {
    std::cerr << "attnmark: internal error: an unknown exception (please report this as a bug)\n";
  }
  return 2;
}
