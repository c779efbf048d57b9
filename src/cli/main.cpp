// attnmark: generate and mark transformer-attention exercises.
// main() only turns the command line into Options and reports errors.
#include <CLI/CLI.hpp>
#include <cctype>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>

#include "base/error.h"
#include "base/text.h"
#include "cli/commands.h"

#ifndef ATTNMARK_VERSION
#error "ATTNMARK_VERSION is set by src/CMakeLists.txt from the project's version"
#endif

namespace {

// --theme and --text-size, for every command that writes HTML.
void add_page_options(CLI::App* sub, attnmark::Options& options) {
  sub->add_option("--theme", options.theme, "HTML colours: default, cream, tint or high-contrast")
      ->default_str("default")
      ->type_name("THEME");
  sub->add_option("--text-size", options.text_size, "HTML text: normal, large or x-large")
      ->default_str("normal")
      ->type_name("SIZE");
}

// --id-column and --name-column, for every command that reads a roster (`where`: "the roster").
void add_column_options(CLI::App* sub, attnmark::Options& options, const std::string& where) {
  sub->add_option("--id-column", options.id_column, "Header of the student id column in " + where)->type_name("HEADER");
  sub->add_option("--name-column", options.name_column, "Header of the students' name column in " + where)
      ->type_name("HEADER");
}

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
  attnmark::Options options;
  std::string mark_rubric;  // mark takes exactly one rubric before its inputs
  CLI::App app{"attnmark: worksheets, keys and marking for attention exercises", "attnmark"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "attnmark " ATTNMARK_VERSION, "Print attnmark's version and exit");
  app.failure_message(parse_failure);
  app.footer("Run 'attnmark COMMAND --help' for a command's options and an example.");
  for (const attnmark::CommandInfo& info : attnmark::command_table()) {
    const std::string name = info.name;
    CLI::App* sub = app.add_subcommand(name, info.help);
    sub->footer(std::string("Example: ") + info.example);
    // Numbers are taken as text and parsed strictly (CLI11 turns -1 into 2^64-1);
    // their type names say what they are.
    if (name == "serve") {
      sub->add_option("RUBRIC", options.rubrics, "Rubric file (YAML); stored at the first start")
          ->type_name("FILE")
          ->expected(0, 1);
      sub->add_option("--seed", options.seed, "Seed; default: the rubric's seed: (first start)")->type_name("N");
      sub->add_option("--roster", options.roster, "Class roster (CSV): who may sign in (first start)")->type_name("CSV");
      sub->add_option("--db", options.db, "The class's SQLite file (created at the first start)")
          ->default_str("class.sqlite")
          ->type_name("FILE");
      sub->add_option("--host", options.host, "Address to listen on (default 127.0.0.1: this machine only)")
          ->type_name("ADDRESS");
      sub->add_option("--port", options.port, "Port (default 8080; 0: any free port)")->type_name("N");
      sub->add_option("--attempts", options.attempts, "Attempts kept per student (default: no limit)")->type_name("N");
      sub->add_option("--close", options.close, "After this (UTC), checks are shown but not kept")->type_name("DATE");
      sub->add_option("--reveal-after", options.reveal_after,
                      "With the rubric's reveal_answers: true, show answers only after this (UTC)")
          ->type_name("DATE");
      sub->add_option("--score", options.score, "The gradebook's attempt of each student: best or last")
          ->default_str("best")
          ->type_name("best|last");
      add_page_options(sub, options);
      continue;
    }
    if (name == "access-codes") {
      sub->add_option("--db", options.db, "The class's SQLite file")->required()->type_name("FILE");
      continue;
    }
    if (name == "mark") {
      sub->add_option("RUBRIC", mark_rubric, "Rubric file (YAML)")->type_name("FILE");
      sub->add_option("INPUT", options.inputs, "Answer files (YAML, JSON or Jupyter notebooks), folders of them, or CSV sheets")
          ->type_name("PATH");
      sub->add_option("--db", options.db, "Mark a served class's attempts instead (no RUBRIC or INPUT)")
          ->type_name("FILE");
      sub->add_option("--score", options.score, "With --db: each student's best or last attempt")
          ->default_str("best")
          ->type_name("best|last");
      sub->add_option("--seed", options.seed, "Seed; default: the rubric's seed:, else each file's own")->type_name("N");
      sub->add_option("-o,--out", options.out_dir, "Folder for the gradebook and reports")->required()->type_name("DIR");
      sub->add_flag("--force", options.force, "Replace the reports of an earlier run");
      sub->add_option("--feedback", options.feedback, "Per-student feedback: files, jsonl or none")
          ->default_str("files")
          ->type_name("MODE");
      sub->add_option("--jobs", options.jobs, "Threads (default: all cores)")->type_name("N");
      add_page_options(sub, options);
      sub->add_option("--roster", options.roster, "Class roster (CSV): the gradebook gets a row per roster student")
          ->type_name("CSV");
      add_column_options(sub, options, "rosters and sheets");
      sub->add_option("--near-ids", options.near_ids,
                      "Ids near a roster id (S002 for s002): flag them (default) or match them to the roster student")
          ->default_str("flag")
          ->type_name("flag|match");
      sub->add_option("--export", options.exports, "LMS gradebooks to write too: canvas, moodle")
          ->delimiter(',')
          ->type_name("LMS");
      sub->add_option("--assignment", options.assignment, "Assignment name in the exports (default: the rubric's title)")
          ->type_name("NAME");
      sub->add_option("--assignment-id", options.assignment_id, "Canvas's id of the assignment, for canvas.csv")
          ->type_name("ID");
      continue;
    }
    if (name == "autograde") {
      sub->add_option("platform", options.platform, "gradescope, prairielearn or gradescope-pack")->required();
      sub->add_option("rubric", options.rubrics, "Rubric file (YAML)")->required();
      sub->add_option("--seed", options.seed, "Seed; default: the rubric's seed:");
      sub->add_option("--root", options.root, "The grader's folder (default /autograder, or /grade for PrairieLearn)");
      sub->add_option("--student", options.student, "Student id, when the submission does not say");
      sub->add_option("-o,--output,--out", options.output, "gradescope-pack: the zip to write")->type_name("PATH");
      sub->add_flag("--force", options.force, "gradescope-pack: replace the zip if it exists");
      continue;
    }
    if (name == "check") {
      // check ANSWERS, check RUBRIC ANSWERS, or check [RUBRIC] --answers ANSWERS: run_check sorts them out.
      sub->add_option("FILES", options.rubrics, "Your answer file or notebook, or the rubric file and then it")
          ->type_name("FILE");
      sub->add_option("--answers", options.answers, "Your answer file or notebook (then FILES is the rubric)")->type_name("FILE");
      sub->add_option("--seed", options.seed, "Seed, if your answer file does not record it")->type_name("N");
      sub->add_flag("--reveal", options.reveal, "Show the right answers too");
      continue;
    }
    if (name == "validate") {
      sub->add_option("RUBRIC", options.rubrics, "Rubric files (YAML)")->required()->type_name("FILE");
      sub->add_flag("--self-test", options.self_test,
                    "Also mark every mistake the grader knows, and right answers in every spelling, on many variants");
      sub->add_option("--seeds", options.seeds, "With --self-test: how many students' variants (default 40)")
          ->type_name("N");
      continue;
    }
    // generate, key and template.
    sub->add_option("RUBRIC", options.rubrics, "Rubric file (YAML)")->required()->type_name("FILE");
    sub->add_option("--seed", options.seed, "Seed (a whole number); default: the rubric's seed:")->type_name("N");
    sub->add_option("--student", options.student, "Student id; each id gets its own variant")->type_name("ID");
    if (name != "template")
      sub->add_option("--format", options.format,
                      std::string(name == "key" ? "md, json, jsonl, html, tex or ipynb" : "md, json, html, tex or ipynb") +
                          "; default: from -o's extension, else md")
          ->type_name("FORMAT");
    sub->add_option("-o,--output,--out", options.output,
                    "Write to this file (or folder, with --roster) instead of standard output")
        ->type_name("PATH");
    sub->add_flag("--force", options.force, "Replace files that exist already");
    sub->add_option("--roster", options.roster, "Class roster (CSV with a student id column): one output per student")
        ->type_name("CSV");
    sub->add_option("--jobs", options.jobs, "Threads for a roster (default: all cores)")->type_name("N");
    add_column_options(sub, options, "the roster");
    if (name != "template") add_page_options(sub, options);
    if (name == "generate") {
      sub->add_option("--db", options.db, "A served class (attnmark serve): print each student's access code")
          ->type_name("FILE");
      sub->add_option("--url", options.url, "With --db: the class page's address, printed beside the code")
          ->type_name("URL");
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  for (CLI::App* sub : app.get_subcommands()) options.command = sub->get_name();
  if (options.command == "serve" && options.db.empty()) options.db = "class.sqlite";
  if (options.command == "mark" && options.db.empty()) {
    // RUBRIC and INPUT are required unless --db names a served class.
    if (mark_rubric.empty()) {
      std::cerr << "attnmark: mark: RUBRIC is required; see attnmark mark --help\n";
      return 2;
    }
    if (options.inputs.empty()) {
      std::cerr << "attnmark: mark: INPUT is required; see attnmark mark --help\n";
      return 2;
    }
  }
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
