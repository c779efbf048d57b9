// cli/generate.h: generate, key and template: a student's worksheet, answer
// key or blank answer file, or one per student of a roster.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/options.h"

namespace attnmark {

struct GenerateOptions {
  std::string command;                // generate, key or template: what is written
  std::vector<std::string> rubrics;   // RUBRIC: one file
  std::optional<std::string> seed;    // --seed (parse_seed)
  std::string student;                // --student
  std::string format;                 // --format; empty: from -o's extension, else md
  std::string output;                 // -o: a file, a folder with --roster; empty: standard output
  bool force = false;                 // --force: replace files
  std::string roster;                 // --roster CSV: one output per student
  std::optional<std::string> jobs;    // --jobs (parse_jobs)
  ColumnChoice columns;               // --id-column, --name-column of the roster
  PageOptions page;                   // --theme, --text-size (not template)
  std::string db;                     // generate --db: a served class, whose access codes are printed
  std::string url;                    // generate --url: the class page's address, printed on worksheets
  std::string teacher_out;            // generate --roster --teacher-out: the keys' and class pack's folder
};

void declare_generate(CLI::App& sub, GenerateOptions& options);
void declare_key(CLI::App& sub, GenerateOptions& options);
void declare_template(CLI::App& sub, GenerateOptions& options);
int run_generate(const GenerateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace attnmark
