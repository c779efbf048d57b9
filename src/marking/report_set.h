// marking/report_set.h: the report folder of a marked class, written one way
// whether the class was marked from files (`mark`, marking/mark_class.h) or
// from a served class's attempts (`mark --db`): gradebook.csv, summary.md,
// summary.html, the feedback (files or feedback.jsonl) and the LMS exports,
// with one naming policy for feedback files, one row for a roster student who
// handed nothing in, and one rule for replacing an earlier run's folder.
//
//   bool replace = check_out_folder(settings);              // before any marking
//   ReportWriter writer(rubric, settings, stems, replace, &roster, &order);
//   ReportChunk chunk;
//   chunk.begin(rubric, settings, 0, graded.size());
//   for (const GradedSubmission& g : graded) chunk.add(g, true);
//   chunk.end(writer.stems());
//   writer.add(chunk);
//   ClassMarked marked = writer.finish({}, flags);          // the folder takes --out's place
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/files.h"
#include "attnmark/lesson/graded_submission.h"
#include "attnmark/lesson/rubric.h"
#include "marking/class_roster.h"
#include "marking/inputs.h"
#include "marking/summary.h"
#include "readers/columns.h"
#include "readers/roster.h"
#include "writers/lms_export.h"
#include "writers/theme.h"

namespace attnmark {

// How per-student feedback is written.
enum class FeedbackMode {
  files,  // feedback/<student>.md, .json and .html
  jsonl,  // one feedback.jsonl, a JSON object per line
  none,
};

// What canvas.csv and moodle.csv hold for a roster student who handed
// nothing in (--missing).
enum class MissingScore {
  leave,  // no row: the LMS keeps whatever grade the student has
  zero,   // a row with 0, its feedback "0 / MAX. No submission."
};

// Everything `mark` needs besides the rubric and the inputs.
struct MarkSettings {
  std::optional<std::uint64_t> seed;  // --seed, else the rubric's; else each file's own
  unsigned jobs = 1;                   // threads, at least 1
  FeedbackMode feedback = FeedbackMode::files;
  std::string out_dir;
  bool force = false;                  // replace an earlier run's reports
  HtmlStyle style;                     // summary.html and feedback pages
  std::optional<std::vector<RosterEntry>> roster;  // --roster: a gradebook row per roster student, in its order
  bool match_near_ids = false;         // --near-ids match: S002 is marked as the roster's s002
  ColumnChoice sheet_columns;          // --id-column, --name-column and the columns' titles (--columns) for sheets
  std::vector<std::string> exports;    // LMS gradebooks to write too: "canvas", "moodle"
  std::string assignment;              // their assignment name (default: the rubric's title)
  std::string assignment_id;           // Canvas's id of the assignment, if known
  MissingScore missing = MissingScore::leave;  // --missing: the exports' rows for missing roster students
  // Told how many of the submissions are marked and written, of how many,
  // after each chunk of them, on the thread that called mark_class (the
  // CLI's progress line). May be empty.
  std::function<void(std::size_t written, std::size_t total)> progress;
};

// What a run made of the class.
struct ClassMarked {
  StatusTally statuses{};      // how many submissions got each status
  std::size_t unmarked = 0;    // submissions that count but got no marks (unreadable, wrong rubric, ...)
  std::size_t not_read = 0;    // files under the inputs not read, places that could not be read, flagged files
  std::size_t missing = 0;     // roster students without a submission
  std::size_t not_on_roster = 0;  // submissions whose id is not on the roster
  std::vector<std::string> exports;       // the LMS files written ("canvas.csv", "moodle.csv"), in --export's order
  std::vector<std::string> export_notes;  // what the teacher should know of them, one line each (for standard error)
  // True when every submission that counts was marked, every roster student
  // handed in, and nothing in the inputs needs the teacher.
  bool complete() const { return unmarked == 0 && not_read == 0 && missing == 0 && not_on_roster == 0; }
};

// The gradebook row of a roster student who handed nothing in.
GradedSubmission missing_submission(const RosterEntry& student);

// --out as the folder replaced: without trailing slashes ("out/" and "out"
// are one folder, whose temporary lies beside it), and a link to a folder
// (results -> /mnt/share/results) as the folder it names.
std::string report_folder(std::string out_dir);

// A student's row of canvas.csv and moodle.csv: the score and short
// feedback of the submission that counts; with their roster entry, its name
// and other columns. A submission not marked has no score (so no row); a
// missing student has none either, or 0 with MissingScore::zero.
LmsRow lms_row(const Rubric& rubric, const GradedSubmission& graded, const RosterEntry* entry = nullptr,
               MissingScore missing = MissingScore::leave);

// Checks that settings.out_dir can take this run's reports: new, empty, or
// holding only an earlier run's reports, LMS exports included (replaced only
// with settings.force).
// Returns whether a folder is there already (to be swapped out whole at the
// end). Throws Error saying why not.
bool check_out_folder(const MarkSettings& settings);

// One submission as its feedback files are named (feedback_stems).
struct StemSource {
  std::string student;  // its student id, or empty
  bool counts = true;   // false for a submission another of the same student supersedes
  std::string file;     // its file's name, for one without a student id
};

// The name of each submission's feedback files under feedback/.
// feedback/<id>.* is always the student's counted submission: ids that are
// their own safe name get it first, whatever their order, so no other
// submission can take it; a superseded submission goes in superseded/, one
// without a student id in no-student/ (folder names that no feedback file of
// an id can have).
std::vector<std::string> feedback_stems(const std::vector<StemSource>& submissions);

// With a roster, the order of the gradebook: each roster student's counted
// submission (or none), then the counted ones not on the roster, then those
// without a student id.
struct RosterOrder {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> of_student;  // per roster student: the submission that counts, or none
  std::vector<std::size_t> others;      // not on the roster, then without an id
};

// A run of consecutive submissions, with everything they add to the reports
// rendered in order, so that the thread that judged them renders them too.
// Chunks are the same whatever the number of threads, so the reports are.
// Their text buffers are reused from chunk to chunk.
class ReportChunk {
 public:
  // Starts the chunk of submissions [first, first + count).
  // REQUIRES: rubric and settings outlive the chunk's use.
  void begin(const Rubric& rubric, const MarkSettings& settings, std::size_t first, std::size_t count);
  // Renders the next submission; `counts` is false for one superseded by a
  // later one of the same student (no gradebook row, no export).
  void add(const GradedSubmission& graded, bool counts);
  // Ends the chunk: `stems` names each submission's feedback files (with
  // FeedbackMode::files; for summary.html's links), indexed from 0 for the
  // whole class.
  void end(const std::vector<std::string>& stems);

 private:
  friend class ReportWriter;
  struct FeedbackFiles {
    std::string json, markdown, html;
  };
  const Rubric* rubric_ = nullptr;
  const MarkSettings* settings_ = nullptr;
  std::size_t first_ = 0, next_ = 0;
  std::string gradebook_;             // the gradebook rows of those that count, in order, without their flags
  std::vector<std::pair<std::size_t, std::size_t>> rows_;  // (submission, end of its row in gradebook_)
  std::string jsonl_;                 // their feedback.jsonl lines (FeedbackMode::jsonl)
  std::vector<FeedbackFiles> files_;  // theirs, in order (FeedbackMode::files)
  std::vector<std::pair<std::size_t, LmsRow>> exports_;  // (submission, its row) of those that count (--export)
  std::optional<ClassSummary> summary_;
};

// Writes the reports as chunks arrive into a temporary folder beside
// settings.out_dir, which takes out_dir's place whole when the run has
// finished (an earlier run's folder is swapped out in one step); a run that
// fails leaves out_dir as it was.
class ReportWriter {
 public:
  // REQUIRES: check_out_folder(settings) passed; `replace` is what it
  // returned. `roster` and `order`, when given, outlive the writer.
  ReportWriter(const Rubric& rubric, const MarkSettings& settings, std::vector<std::string> stems, bool replace,
               const ClassRoster* roster, const RosterOrder* order);

  // The name of each submission's feedback files (FeedbackMode::files), else empty.
  const std::vector<std::string>& stems() const { return stems_; }

  // Adds a chunk's submissions after those added before. Empties the chunk.
  void add(ReportChunk& chunk);

  // The roster's line at the top of the summaries, made by finish() from
  // what it counted so far (missing, not_on_roster); without it the
  // summaries have none.
  void set_roster_note(std::function<std::string(const ClassMarked& counted)> note) { roster_note_ = std::move(note); }

  // Writes what is left (the gradebook in its order, with each submission's
  // flag; the roster's missing students; the summaries; the LMS exports)
  // and puts the folder in out_dir's place.
  // REQUIRES: flags has an entry per submission added.
  ClassMarked finish(const std::vector<InputNotice>& notices, const std::vector<std::string>& flags);

 private:
  void write_row(std::size_t k, const std::vector<std::string>& flags);
  void flush_rows(bool all);
  // `missing`: how many of `rows` are missing roster students without a score.
  void write_exports(const std::vector<LmsRow>& rows, std::size_t missing, ClassMarked& marked);

  const Rubric& rubric_;
  const MarkSettings& settings_;
  ClassSummary summary_;
  std::vector<std::string> stems_;  // feedback file names, per submission (feedback files)
  bool replace_;                    // an earlier run's folder is at out_dir
  std::size_t unmarked_ = 0, not_on_roster_ = 0;
  const ClassRoster* roster_;   // or null
  const RosterOrder* order_;    // with a roster: the gradebook's order
  std::function<std::string(const ClassMarked&)> roster_note_;
  std::string held_;                                       // the gradebook rows, without their flags
  std::vector<std::pair<std::size_t, std::size_t>> held_at_;  // submission → its row in held_ (begin, end)
  std::vector<std::size_t> held_order_;                     // the submissions with a row, in input order
  std::string rows_out_;                                    // rows on their way to the gradebook file
  std::vector<std::pair<std::size_t, LmsRow>> exports_;     // (submission, row) for --export, in input order
  std::optional<NewFolder> staging_;  // the new out_dir, until it takes its place
  std::filesystem::path root_;        // staging_'s temporary folder
  std::optional<NewFile> gradebook_, jsonl_;
  std::optional<NewFolder> feedback_;  // feedback files, made when the first is written
  std::unordered_set<std::string> made_;  // its folders made so far (superseded/, no-student/)
};

}  // namespace attnmark
