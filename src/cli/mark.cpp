// attnmark mark RUBRIC INPUTS... --out DIR: marks a class.
#include "cli/mark.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <ostream>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "cli/progress.h"
#include "cli/serve.h"
#include "marking/mark_class.h"
#include "base/text.h"
#include "readers/answer_reader.h"
#include "readers/roster.h"
#include "readers/rubric_loader.h"
#include "writers/form_template.h"

namespace attnmark {

void declare_mark(CLI::App& sub, MarkOptions& options) {
  sub.add_option("RUBRIC", options.rubric, "Rubric file (YAML)")->type_name("FILE");
  sub.add_option("INPUT", options.inputs, "Answer files (YAML, JSON or Jupyter notebooks), folders of them, or CSV sheets")
      ->type_name("PATH");
  sub.add_option("--db", options.db, "Mark a served class's attempts instead (no RUBRIC or INPUT)")->type_name("FILE");
  add_score_option(sub, options.score, "With --db: each student's best or last attempt");
  add_seed_option(sub, options.seed, "Seed; default: the rubric's seed:, else each file's own");
  sub.add_option("-o,--out", options.out_dir, "Folder for the gradebook and reports")->required()->type_name("DIR");
  sub.add_flag("--force", options.force, "Replace the reports of an earlier run");
  sub.add_option("--feedback", options.feedback, "Per-student feedback: files, jsonl or none")
      ->default_str("files")
      ->type_name("MODE");
  add_jobs_option(sub, options.jobs, "Threads (default: all cores)");
  add_page_options(sub, options.page);
  add_roster_option(sub, options.roster, "Class roster (CSV): the gradebook gets a row per roster student");
  add_column_options(sub, options.columns, "sheets (and the roster's, when it has none attnmark knows)");
  sub.add_option("--roster-id-column", options.roster_id_column,
                 "Header of the roster's id column, when the worksheets were made with generate --id-column; "
                 "default: the one generate takes (a sheet's ids, emails or logins are matched to it), "
                 "e.g. --roster class.csv --roster-id-column Matrikel")
      ->type_name("HEADER");
  sub.add_option("--columns", options.column_map,
                 "A sheet's columns by their titles (CSV of title,cell, as template --format form writes), e.g. "
                 "--columns form-map.csv; without it, the titles template --format form gives are known")
      ->type_name("MAP.csv");
  sub.add_option("--near-ids", options.near_ids,
                 "Ids near a roster id (S002 for s002): flag them (default) or match them to the roster student")
      ->default_str("flag")
      ->type_name("flag|match");
  sub.add_option("--export", options.exports, "LMS gradebooks to write too: canvas, moodle")
      ->delimiter(',')
      ->type_name("LMS");
  sub.add_option("--assignment", options.assignment, "Assignment name in the exports (default: the rubric's title)")
      ->type_name("NAME");
  sub.add_option("--assignment-id", options.assignment_id, "Canvas's id of the assignment, for canvas.csv")
      ->type_name("ID");
  sub.add_option("--missing", options.missing,
                 "Roster students who handed nothing in, in canvas.csv and moodle.csv: leave (no row, so the LMS keeps "
                 "their grade) or zero (a row with 0), e.g. --roster class.csv --export canvas --missing zero")
      ->default_str("leave")
      ->type_name("leave|zero");
}

int run_mark(const MarkOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.db.empty()) return run_mark_db(options, out, err);
  // RUBRIC and INPUT are required unless --db names a served class; said as
  // the option parser says what it requires.
  if (options.rubric.empty()) {
    err << "attnmark: mark: RUBRIC is required; see attnmark mark --help\n";
    return 2;
  }
  if (options.inputs.empty()) {
    refuse_input_as_rubric(options.rubric, "mark");  // "mark answers/": the rubric left out
    err << "attnmark: mark: INPUT is required; see attnmark mark --help\n";
    return 2;
  }
  if (options.out_dir.empty()) throw Error("mark: --out DIR is required");
  MarkSettings settings;
  settings.out_dir = options.out_dir;
  settings.force = options.force;
  settings.jobs = parse_jobs(options.jobs);
  settings.style = options.page.style();
  if (options.feedback == "files") settings.feedback = FeedbackMode::files;
  else if (options.feedback == "jsonl") settings.feedback = FeedbackMode::jsonl;
  else if (options.feedback == "none") settings.feedback = FeedbackMode::none;
  else throw Error(fmt::format("--feedback: expected files, jsonl or none; got '{}'", options.feedback));
  settings.sheet_columns = options.columns;
  if (options.near_ids == "match") settings.match_near_ids = true;
  else if (options.near_ids != "flag")
    throw Error(fmt::format("--near-ids: expected flag or match; got {}", quoted_printable(options.near_ids)));
  settings.exports = options.exports;
  settings.assignment = options.assignment;
  settings.assignment_id = options.assignment_id;
  if (options.missing == "zero") settings.missing = MissingScore::zero;
  else if (options.missing != "leave")
    throw Error(fmt::format("--missing: expected leave or zero; got {}", quoted_printable(options.missing)));
  const Rubric rubric = load_rubric_argument(options.rubric, "mark");
  // A form's questions are read by their titles: the map's, then those
  // template --format form writes for this rubric.
  const std::vector<FormQuestion> form = form_questions(rubric);
  if (!options.column_map.empty()) {
    std::vector<std::string> cells;
    for (const FormQuestion& q : form) cells.push_back(q.cell);
    settings.sheet_columns.titles =
        read_column_map(read_file(options.column_map, max_column_map_bytes), options.column_map, cells);
  }
  for (const FormQuestion& q : form) {
    settings.sheet_columns.titles.push_back({q.title, q.cell});
    if (q.cell != "student") settings.sheet_columns.cells.push_back(q.cell);
  }
  if (!options.roster.empty()) {
    std::vector<std::string> notes;
    const std::string text = read_file(options.roster, max_roster_bytes);
    // The roster's ids are those its worksheets were made from: the column
    // generate takes, whichever column of the sheets names the students.
    const ColumnChoice roster_columns{options.roster_id_column, options.columns.name};
    try {
      settings.roster = read_roster(text, options.roster, roster_columns, &notes);
    } catch (const ColumnError&) {
      if (!options.roster_id_column.empty() || options.columns.id.empty()) throw;
      notes.clear();
      settings.roster = read_roster(text, options.roster, options.columns, &notes);  // as generate --id-column read it
    }
    for (const std::string& note : notes) err << "attnmark: " << note << "\n";
  }
  settings.seed = options.seed ? std::optional<std::uint64_t>(parse_seed(*options.seed)) : rubric.seed;
  Progress progress("marking", 0, err, is_terminal(err));
  settings.progress = [&](std::size_t written, std::size_t all) {
    progress.set_total(all);
    progress.done(written);
  };
  const ClassMarked marked = mark_class(rubric, settings, options.inputs, err);
  progress.finish();
  const StatusTally& counts = marked.statuses;
  std::string tally;
  int total = 0;
  for (std::size_t s = 0; s < submission_status_count; ++s) {
    // A missing student is no submission: said apart, below.
    if (counts[s] == 0 || SubmissionStatus(s) == SubmissionStatus::missing) continue;
    tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", counts[s], status_name(SubmissionStatus(s)));
    total += counts[s];
  }
  const char* feedback = settings.feedback == FeedbackMode::files   ? ", feedback/"
                         : settings.feedback == FeedbackMode::jsonl ? ", feedback.jsonl"
                                                                    : "";
  std::string exports;
  for (const std::string& e : marked.exports) exports += ", " + e;
  // Long work on a terminal says how long it took; quick work, as most is,
  // does not, and neither does a log (its bytes stay the same run to run).
  const std::string took = is_terminal(err) && progress.elapsed() >= 1 ? " (in " + progress.took() + ")" : "";
  err << fmt::format("attnmark: marked {} submission{}{}{}{}; reports in {}/: gradebook.csv, summary.md, summary.html{}{}{}\n",
                     total, total == 1 ? "" : "s", tally.empty() ? "" : " (" + tally + ")",
                     settings.roster ? fmt::format("; roster: {} student{}", settings.roster->size(),
                                                   settings.roster->size() == 1 ? "" : "s")
                                     : "",
                     settings.roster ? fmt::format(", {} missing", marked.missing) : "", options.out_dir, feedback, exports, took);
  for (const std::string& note : marked.export_notes) err << "attnmark: " << note << "\n";
  if (marked.complete()) return 0;
  // The teacher has something to look at before the marks go out.
  std::string what;
  auto add = [&](std::size_t n, const char* one, const char* many) {
    if (n) what += fmt::format("{}{} {}", what.empty() ? "" : "; ", n, n == 1 ? one : many);
  };
  add(marked.missing, "roster student handed nothing in", "roster students handed nothing in");
  add(marked.not_on_roster, "submission's id is not on the roster", "submissions' ids are not on the roster");
  if (marked.unmarked)
    what += fmt::format("{}{} submission{} could not be marked", what.empty() ? "" : "; ", marked.unmarked,
                        marked.unmarked == 1 ? "" : "s");
  if (marked.not_read)
    what += fmt::format("{}{} problem{} with the inputs (files not marked, folders not read, files flagged, "
                        "sheets' columns not marked)",
                        what.empty() ? "" : "; ", marked.not_read, marked.not_read == 1 ? "" : "s");
  err << fmt::format("attnmark: not complete: {}; see summary.md (exit status 1)\n", what);
  return 1;
}

}  // namespace attnmark
