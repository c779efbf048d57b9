// attnmark: generate and mark transformer-attention exercises.
// main() only turns the command line into Options and reports errors.
#include <CLI/CLI.hpp>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>

#include "base/error.h"
#include "base/text.h"
#include "cli/commands.h"

namespace {

int run_main(int argc, char** argv) {
  attnmark::Options options;
  std::string mark_rubric;  // mark takes exactly one rubric before its inputs
  CLI::App app{"attnmark: worksheets, keys and marking for attention exercises"};
  app.require_subcommand(1);
  for (const attnmark::CommandInfo& info : attnmark::command_table()) {
    const std::string name = info.name;
    CLI::App* sub = app.add_subcommand(name, info.help);
    if (name == "mark") {
      sub->add_option("rubric", mark_rubric, "Rubric file (YAML)")->required();
      sub->add_option("inputs", options.inputs, "Answer files (YAML/JSON), folders of them, or CSV sheets")->required();
      sub->add_option("--seed", options.seed, "Seed; default: the rubric's seed:, else each file's own");
      sub->add_option("--out", options.out_dir, "Folder for the gradebook and reports")->required();
      sub->add_flag("--force", options.force, "Replace the reports of an earlier run");
      sub->add_option("--feedback", options.feedback, "Per-student feedback: files, jsonl or none")->default_str("files");
      sub->add_option("--jobs", options.jobs, "Threads (default: all cores)");
      sub->add_option("--theme", options.theme, "HTML colours: default, cream, tint or high-contrast")->default_str("default");
      sub->add_option("--text-size", options.text_size, "HTML text: normal, large or x-large")->default_str("normal");
      sub->add_option("--roster", options.roster, "Class roster (CSV): the gradebook gets a row per roster student");
      sub->add_option("--id-column", options.id_column, "Header of the student id column in rosters and sheets");
      sub->add_option("--name-column", options.name_column, "Header of the students' name column in rosters and sheets");
      sub->add_option("--near-ids", options.near_ids,
                      "Ids near a roster id (S002 for s002): flag them (default) or match them to the roster student")
          ->default_str("flag");
      sub->add_option("--export", options.exports, "LMS gradebooks to write too: canvas, moodle")->delimiter(',');
      sub->add_option("--assignment", options.assignment, "Assignment name in the exports (default: the rubric's title)");
      sub->add_option("--assignment-id", options.assignment_id, "Canvas's id of the assignment, for canvas.csv");
      continue;
    }
    if (name == "autograde") {
      sub->add_option("platform", options.platform, "gradescope, prairielearn or gradescope-pack")->required();
      sub->add_option("rubric", options.rubrics, "Rubric file (YAML)")->required();
      sub->add_option("--seed", options.seed, "Seed; default: the rubric's seed:");
      sub->add_option("--root", options.root, "The grader's folder (default /autograder, or /grade for PrairieLearn)");
      sub->add_option("--student", options.student, "Student id, when the submission does not say");
      sub->add_option("-o,--output", options.output, "gradescope-pack: the zip to write");
      continue;
    }
    if (name == "check") {
      sub->add_option("rubric", options.rubrics, "Rubric file (default: the one the answer file names)");
      sub->add_option("--answers", options.answers, "Your answer file")->required();
      sub->add_option("--seed", options.seed, "Seed, if your answer file does not record it");
      sub->add_flag("--reveal", options.reveal, "Show the right answers too");
      continue;
    }
    sub->add_option("rubric", options.rubrics, "Rubric file (YAML)")->required();
    if (name == "validate") {
      sub->add_flag("--self-test", options.self_test,
                    "Also mark every mistake the grader knows, and right answers in every spelling, on many variants");
      sub->add_option("--seeds", options.seeds, "With --self-test: how many students' variants (default 40)");
      continue;
    }
    // Numbers are taken as text and parsed strictly (CLI11 turns -1 into 2^64-1).
    sub->add_option("--seed", options.seed, "Seed (a whole number); default: the rubric's seed:");
    sub->add_option("--student", options.student, "Student id; each id gets its own variant");
    if (name != "template")
      sub->add_option("--format", options.format, name == "key" ? "md, json, jsonl, html or tex" : "md, json, html or tex")
          ->default_str("md");
    sub->add_option("-o,--output", options.output, "Write to this file (or folder, with --roster) instead of standard output");
    sub->add_option("--roster", options.roster, "Class roster (CSV with a student column): one output per student");
    sub->add_option("--jobs", options.jobs, "Threads for a roster (default: all cores)");
    sub->add_option("--id-column", options.id_column, "Header of the student id column in the roster");
    sub->add_option("--name-column", options.name_column, "Header of the students' name column in the roster");
    if (name != "template") {
      sub->add_option("--theme", options.theme, "HTML colours: default, cream, tint or high-contrast")->default_str("default");
      sub->add_option("--text-size", options.text_size, "HTML text: normal, large or x-large")->default_str("normal");
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  for (CLI::App* sub : app.get_subcommands()) options.command = sub->get_name();
  if (!mark_rubric.empty()) options.rubrics.push_back(mark_rubric);
  return attnmark::run_command(options, std::cout, std::cerr);
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
