// cli/mark.h: mark RUBRIC INPUT... -o DIR, a class's files marked; and
// mark --db FILE -o DIR, a served class's attempts (cli/serve.cpp).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/options.h"

namespace attnmark {

struct MarkOptions {
  std::string rubric;                 // RUBRIC (none with --db)
  std::vector<std::string> inputs;    // INPUT...: answer files, folders, sheets (none with --db)
  std::string db;                     // --db: a served class's SQLite file
  std::string score = "best";         // --score, with --db: best or last attempt
  std::optional<std::string> seed;    // --seed (parse_seed)
  std::string out_dir;                // -o, --out: the reports' folder
  bool force = false;                 // --force: replace an earlier run's reports
  std::string feedback = "files";     // --feedback: files, jsonl or none
  std::optional<std::string> jobs;    // --jobs (parse_jobs)
  PageOptions page;                   // --theme, --text-size
  std::string roster;                 // --roster CSV
  ColumnChoice columns;               // --id-column, --name-column of sheets (and of a roster without an id column)
  std::string roster_id_column;       // --roster-id-column: the roster's, when generate was given --id-column
  std::string column_map;             // --columns MAP.csv: form questions' titles and the sheet columns they are
  std::string near_ids = "flag";      // --near-ids: flag or match ids near a roster id (S002 for s002)
  std::vector<std::string> exports;   // --export canvas,moodle
  std::string assignment;             // --assignment: name in the exports (default: the rubric's title)
  std::string assignment_id;          // --assignment-id: Canvas's id of the assignment
  std::string missing = "leave";      // --missing: leave or zero, the exports' rows for roster students who handed nothing in
};

void declare_mark(CLI::App& sub, MarkOptions& options);
// With --db, run_mark_db (cli/serve.h).
int run_mark(const MarkOptions& options, std::ostream& out, std::ostream& err);

}  // namespace attnmark
