// attnmark: generate and mark transformer-attention exercises.
// main() only turns the command line into Options and reports errors.
#include <CLI/CLI.hpp>
#include <iostream>

#include "attnmark/error.h"
#include "commands.h"

int main(int argc, char** argv) {
  attnmark::Options options;
  CLI::App app{"attnmark: worksheets, keys and marking for attention exercises"};
  app.require_subcommand(1);
  for (const attnmark::CommandInfo& info : attnmark::command_table()) {
    CLI::App* sub = app.add_subcommand(info.name, info.help);
    sub->add_option("rubric", options.rubrics, "Rubric file (YAML)")->required();
    if (std::string(info.name) == "validate") continue;
    // Numbers are taken as text and parsed strictly (CLI11 turns -1 into 2^64-1).
    sub->add_option("--seed", options.seed, "Seed (a whole number); default: the rubric's seed:");
    sub->add_option("--student", options.student, "Student id; each id gets its own variant");
    if (std::string(info.name) != "template")
      sub->add_option("--format", options.format, "md or json")->default_str("md");
    sub->add_option("-o,--output", options.output, "Write to this file instead of standard output");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  for (CLI::App* sub : app.get_subcommands()) options.command = sub->get_name();
  try {
    return attnmark::run_command(options, std::cout, std::cerr);
  } catch (const attnmark::Error& e) {
    std::cerr << "attnmark: " << e.report() << "\n";
    return 2;
  }
}
