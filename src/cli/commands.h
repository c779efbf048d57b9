// cli/commands.h: the table of commands. main() makes a subcommand of each
// entry, lets it declare its options, parses, and runs the one given:
//
//   for (const CommandInfo& c : command_table()) {
//     CLI::App* sub = app.add_subcommand(c.name, c.help);
//     runners.push_back(c.declare(*sub));   // options bound to the command's own struct
//   }
//   app.parse(argc, argv);
//   return runners[given](std::cout, std::cerr);
//
// A new command is one entry in command_table() (commands.cpp) and a file
// of its own with its options' struct, their declaration and its run
// function (cli/generate.h is one).
#pragma once

#include <functional>
#include <iosfwd>
#include <vector>

namespace CLI {
class App;
}

namespace attnmark {

// Runs a command with the options parsed into it. Writes results to `out`
// (or files) and notes for the user to `err`; returns the exit status.
// Throws Error for usage and definition errors (main reports them, exit 2).
using Runner = std::function<int(std::ostream& out, std::ostream& err)>;

struct CommandInfo {
  const char* name;
  const char* help;     // one line, in `attnmark --help` and atop the command's own
  const char* example;  // a whole command line, shown by COMMAND --help
  // Declares the command's options on `sub`, bound to a struct of the
  // command's own; the Runner returned runs the command with them once the
  // command line is parsed.
  std::function<Runner(CLI::App& sub)> declare;
};

// Every command, in the order `attnmark --help` lists them.
const std::vector<CommandInfo>& command_table();

}  // namespace attnmark
