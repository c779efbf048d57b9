// cli/commands.h: the subcommands, run from options that main() has parsed.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace attnmark {

// Everything the command line said, as text; commands check it strictly.
struct Options {
  std::string command;               // a name from command_table()
  std::vector<std::string> rubrics;  // validate takes several; the others one
  std::optional<std::string> seed;   // --seed, parsed with from_chars
  std::string student;               // --student
  std::string format;                // --format; empty: from -o's extension, else md (generate.cpp)
  std::string output;                // -o, --output, --out; empty means standard output
  std::vector<std::string> inputs;   // mark: answer files, folders, sheets
  std::string out_dir;               // mark: --out
  bool force = false;                // mark: replace an earlier run's reports; generate, key, template: files
  std::string answers;               // check: --answers (else the last positional)
  bool reveal = false;               // check: show reference answers
  bool self_test = false;            // validate: mark every known mistake on many variants
  std::optional<std::string> seeds;  // validate --self-test: how many variants (default 40)
  std::string roster;                // generate, key, template: --roster CSV (one output per student)
  std::string theme = "default";     // HTML: default, cream, tint, high-contrast
  std::string text_size = "normal";  // HTML: normal, large, x-large
  std::optional<std::string> jobs;   // threads; default: all cores
  std::string feedback = "files";    // mark: files, jsonl or none
  std::string id_column;             // rosters and sheets: --id-column (header of the student ids)
  std::string name_column;           // rosters and sheets: --name-column
  std::string near_ids = "flag";     // mark --roster: flag or match ids near a roster id (S002 for s002)
  std::vector<std::string> exports;  // mark: --export canvas,moodle
  std::string assignment;            // mark --export: the assignment's name (default: the rubric's title)
  std::string assignment_id;         // mark --export canvas: Canvas's assignment id, if known
  std::string platform;              // autograde: gradescope, prairielearn or gradescope-pack
  std::string root;                  // autograde: --root (default /autograder or /grade)
  std::string db;                    // serve, access-codes, mark, generate: --db (the class's SQLite file)
  std::string host;                  // serve: --host (default 127.0.0.1)
  std::optional<std::string> port;   // serve: --port (default 8080; 0 any free port)
  std::optional<std::string> attempts;  // serve: --attempts (per student)
  std::string close;                 // serve: --close DATE
  std::string reveal_after;          // serve: --reveal-after DATE
  std::string score = "best";        // serve, mark --db: best or last attempt
  std::string url;                   // generate --db: the class page's address, printed on worksheets
};

// A subcommand's name, one-line help and an example, for main()'s table.
struct CommandInfo {
  const char* name;
  const char* help;
  const char* example;  // a whole command line, shown by COMMAND --help
};
const std::vector<CommandInfo>& command_table();

// Runs options.command. Writes results to `out` (or files) and notes for the
// user to `err`. Returns the exit status. Throws Error for usage and
// definition errors (main reports them and exits 2).
int run_command(const Options& options, std::ostream& out, std::ostream& err);

// The subcommands, one file each: generate.cpp (generate, key, template),
// validate.cpp, mark.cpp, check.cpp, autograde.cpp.
int run_generate(const Options& options, std::ostream& out, std::ostream& err);  // generate, key, template
int run_validate(const Options& options, std::ostream& out, std::ostream& err);
int run_mark(const Options& options, std::ostream& out, std::ostream& err);
int run_check(const Options& options, std::ostream& out, std::ostream& err);
int run_autograde(const Options& options, std::ostream& out, std::ostream& err);
// serve.cpp: serve, access-codes, and mark --db.
int run_serve(const Options& options, std::ostream& out, std::ostream& err);
int run_access_codes(const Options& options, std::ostream& out, std::ostream& err);
int run_mark_db(const Options& options, std::ostream& out, std::ostream& err);

// Without --force, the file -o names is never replaced (checked before any
// work, so a refused run costs nothing); a folder is never a file's name.
// Throws Error ("ws.html: already exists; pass --force to replace it").
void refuse_to_replace(const Options& options);

// Parses --jobs strictly: 1 to 256; absent means every core.
unsigned parse_jobs(const std::optional<std::string>& text);

// Parses a seed strictly: decimal digits only, 0 to 2^64 − 1.
// Throws Error ("--seed: ...") otherwise; "-1" is not silently 2^64 − 1.
std::uint64_t parse_seed(const std::string& text);

}  // namespace attnmark
