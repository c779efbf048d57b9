// marking/inputs.h: what `mark` is given, read and checked before anything is
// judged: the answer files in full, the class sheets checked (a row is read
// again when it is judged), every submission's place in input order, and
// which of a student's submissions counts.
//
//   InputList list = input_files({"answers/", "class.csv"}, "out");
//   Inputs in = read_inputs(std::move(list), jobs);
//   Submission s;
//   for (std::size_t i = 0; i < in.submissions.size(); ++i) { in.take(i, s); judge(..., s, ...); }
//
// What is an input, decided here once:
// - a file named on the command line is read: a `.csv` as a class sheet,
//   anything else as an answer file (the teacher chose it);
// - in a folder, every file is a submission, read as an answer file: a
//   `.csv` there is a student's upload, never a class sheet, and is an
//   unreadable submission that says so, like a symbolic link (never
//   followed), a pipe or a device; hidden files and `__MACOSX/` are skipped
//   and counted, and a folder that cannot be read is listed as not marked;
// - reports are never inputs: an input inside --out is an error, and --out
//   inside an input folder is not walked.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "attnmark/lesson/submission.h"
#include "readers/answer_reader.h"

namespace attnmark {

// One file to read, and how it came to be an input.
struct InputFile {
  std::string path;
  bool sheet = false;   // a class sheet: a `.csv` named on the command line
  std::string place;    // found in a folder: its path below that folder ("s04/answers.yaml"); else ""
  std::string refused;  // why it is not read at all (a link, a sheet in a folder), or ""
};

// Something in the inputs that was not read as a submission: one line for
// standard error and the summary, its file names made printable.
struct InputNotice {
  std::string text;           // "subs/deep: cannot read folder: Permission denied; not marked"
  bool needs_teacher = true;  // false for what is skipped by design (hidden files, the reports' folder)
};

// The inputs, files found in folders included, in order, and what was left out.
struct InputList {
  std::vector<InputFile> files;
  std::vector<InputNotice> notices;
};

// One submission file's bytes read by the reader its name asks for: a
// notebook (readers/notebook_reader) for a name ending in .ipynb, else an
// answer file in YAML or JSON (readers/answer_reader). `source` names it in
// reports. Never throws for bad content.
Submission read_submission_file(std::string_view text, const std::string& path, const std::string& source,
                                const ReadLimits& limits);

// Every input file: the files themselves, and the answer files under each
// folder, sorted. Throws Error when an input does not exist ("form.cvs: no
// such file or folder"), when one is `out_dir` or inside it (reports are
// never marked) or an input folder cannot be opened at all.
InputList input_files(const std::vector<std::string>& inputs, const std::string& out_dir);

// Where a submission is in the inputs.
struct Place {
  std::size_t file = 0;  // index of the input file
  std::size_t row = 0;   // a sheet's row (0-based, of its rows that are not blank)
  int line = 0;          // that row's line; 0 for an answer file
};

// Everything read before anything is judged: the answer files in full, the
// sheets checked (a row is read again when it is judged), every
// submission's place in input order, and which one counts for each student.
//
// Which counts: a student's latest submission, by the time it records (a
// sheet's Timestamp or Completion time column, `submitted:` in an answer file
// or a notebook's metadata), else by its file's modification time; of equal
// times the later in input order; the later in input order alone when a
// recorded time cannot be read (the rule in full, as docs/marking.md gives
// it, is at latest_of in inputs.cpp). A file in a folder whose names do not
// name the student it claims (`subs/s04/answers.yaml` saying `student: s02`)
// never replaces one that sits under the student's own name; such a file is
// flagged either way.
struct Inputs {
  static constexpr std::size_t counts = static_cast<std::size_t>(-1);

  std::vector<std::string> files;  // paths, to open
  std::vector<std::string> shown;  // the same, printable, for reports
  std::vector<std::optional<Submission>> parsed;  // answer files, and sheets that cannot be used
  std::vector<std::string> sheet_texts;
  std::vector<std::unique_ptr<SheetReader>> sheets;
  std::vector<Place> submissions;        // in input order
  std::vector<std::string> students;     // per submission: the student id it gives, or ""
  std::vector<std::size_t> superseding;  // per submission: the one that counts for its student, or `counts`
  std::unordered_map<std::size_t, std::string> flags;  // submission → why its place and its student disagree
  // A submission that counts as another student than the id it gives
  // (students has the one it counts as).
  struct Matched {
    std::string given;  // the id it gives
    std::string note;   // for its feedback; "" for none
  };
  std::unordered_map<std::size_t, Matched> matched;
  std::unordered_map<std::size_t, std::string> superseded_why;  // submission that does not count → why (superseded_reason)
  std::vector<InputNotice> notices;      // what was not read, and sheets' columns that were not marked

  // Submission i into `s`, read (a sheet row, reusing the storage of `s`) or
  // taken (an answer file: once only), with its source printable and its
  // flag (if any) as its first note.
  void take(std::size_t i, Submission& s);
  // Where submission i came from, printable: "answers/s01.yaml", "class.csv:12".
  std::string source(std::size_t i) const {
    const Place& place = submissions[i];
    return place.line ? shown[place.file] + ":" + std::to_string(place.line) : shown[place.file];
  }
  // Why submission i does not count, naming the one that does and both
  // times ("superseded by answers/s01-resubmit.yaml (submitted
  // 2026-12-01T10:02Z, later than this file's 2026-12-01T09:00Z)"), or ""
  // when it counts.
  std::string superseded_reason(std::size_t i) const;
};

// The student a submission counts as, when not the id it gives (a roster's
// id for an email, or for a near-miss with --near-ids match).
struct CountsAs {
  std::string student;  // "" (or the id given): the id given stands
  std::string note;     // for the student's feedback; "" for none
};
// Called with the id a submission gives ("" when blank) and, for a sheet row,
// its other identity cells (RowIdentity::others).
using StudentMatcher = std::function<CountsAs(const std::string& student, const std::vector<std::string>& others)>;

// Reads and checks every input, answer files on up to `jobs` threads.
// Unreadable files and sheets become one unreadable submission each.
// `sheet_columns` says which columns of a sheet hold ids and names;
// `counts_as`, when given, says whom each submission counts as, before
// superseding is decided; it is not called for an unreadable one.
Inputs read_inputs(InputList list, unsigned jobs, const ColumnChoice& sheet_columns = {},
                   const StudentMatcher& counts_as = {});

}  // namespace attnmark
