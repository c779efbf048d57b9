// readers/answer_reader.h: reads students' answers from answer files and class sheets.
//
//   Submission s = read_answer_file(text, "answers/s001.yaml");
//   if (!s.unreadable.empty()) report(s.source, s.unreadable);
//
//   read_sheet(csv, "class.csv", {}, [&](Submission&& s) { mark(s); });
//
// Everything read here is untrusted: sizes are capped, and bad content in an
// answer file becomes Submission::unreadable or a note, never an exception.
// Cell text is kept as written ("0.670" stays "0.670"); the grader reads it.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/lesson/submission.h"
#include "readers/columns.h"
#include "readers/csv.h"
#include "readers/yaml_tree.h"

namespace attnmark {

// Bounds on untrusted submissions. Each broken bound has its own message
// (below); docs/safety.md lists them for teachers.
struct ReadLimits {
  std::size_t max_file_bytes = 1 << 20;        // per answer file: 1 MiB
  std::size_t max_sheet_bytes = 16 << 20;      // per sheet: 16 MiB
  std::size_t max_cells = 10000;               // answer cells per submission (file or row)
  std::size_t max_sheet_rows = 10000;          // data rows per sheet
  std::size_t max_sheet_cells = 1'000'000;     // answer cells per sheet, all rows together
  ColumnChoice sheet_columns;                  // a sheet's id and name columns (--id-column, --name-column),
                                               // and its columns' titles (--columns, the rubric's form titles)
};

// Reads an answer file: JSON when the text starts with '{' (after an optional
// UTF-8 BOM and whitespace), else YAML. Never throws for bad content: a file
// that cannot be read at all comes back with `unreadable` set to a one-line
// reason naming line and column where known ("line 3, column 5: duplicate
// key 'q1' (first given at line 2)"). `source` is copied into
// Submission::source.
//
// The file is a map with rubric, student, seed, variant, generator,
// submitted (when it was handed in, as written: Submission::submitted) and
// answers; other top-level keys are noted and ignored. answers maps question
// id → part name → value, where a value is one cell (a scalar or null), one
// row (a list of scalars) or rows (a list of lists). Nulls become "". Part
// names are not checked here; the grader reports unknown ones.
//
// YAML reads a decimal comma in a list as a list comma ([0,665, 0,090, 0,245]
// is six numbers to it), so a part (named as parse_part knows) that is one
// row of pairs of digits (the first of a pair may have a sign) also gets
// PartAnswer::other_reading: the pairs joined ("0,665", "0,090", "0,245"),
// which the grader marks when they are exactly the values the part asks,
// with the note, on one line:
//   weights: YAML reads a decimal comma as a list comma, so these 6 numbers
//   were read as 3 with decimal commas (0,665, 0,090, 0,245); write 0.665, or quote "0,665"
//
// The student id and rubric name are trimmed; one holding a control
// character (has_control in base/text.h: a line break, ESC, NUL, a C1 control,
// a bidirectional control such as U+202E) is ignored with a note ("student
// 'a\nb' contains control characters; ignored"), and so is a question or part
// whose name holds one: such text never reaches a report, a file name or a
// terminal. JSON numbers beyond double's range (1e309) are kept as text, so
// that cell alone is unreadable. Every note is one line: quoted text is
// escaped and cut. Notes of one kind (unknown keys; questions, parts, cells
// ignored) are written for the first ten only, then summed up in one note
// ("and 9,990 more unknown keys ignored").
//
// Unreadable, with these exact reasons (line/column prefixes where known):
//   "binary file (contains NUL bytes)"
//   "UTF-16 text; save the file as UTF-8"   (a byte-order mark, or NULs in
//                                            every other byte without one)
//   "UTF-32 text; save the file as UTF-8"
//   "not UTF-8 text (byte 0xE9 at line 3); save the file as UTF-8"
//   "file is N bytes; the limit is M"
//   "more than M answer cells"
//   YAML: every error of parse_yaml (syntax, duplicate key, anchor, alias,
//   tag, second document, depth); JSON: "JSON syntax: ...", "duplicate key
//   'q1'", "nested deeper than 64 levels" (JSON errors other than syntax
//   carry no place: nlohmann's SAX interface gives none).
Submission read_answer_file(std::string_view text, const std::string& source,
                            const ReadLimits& limits = {});

// ---- The parts of read_answer_file other readers share (readers/notebook_reader) ----

// Why the bytes of a submission file cannot be read at all, or "": the
// encoding (encoding_problem in base/text.h), then the size ("file is N
// bytes; the limit is M", max_file_bytes).
std::string submission_bytes_problem(std::string_view text, const ReadLimits& limits);

// A JSON text as a tree, with parse_yaml's caps (depth, count of values) met
// on the way down, so deep nesting cannot exhaust the stack. Numbers keep
// their text as written. Throws Error, without a file, whose message holds
// its place when known ("line 1, column 7: JSON syntax: ...", "duplicate key
// 'cells'", "nested deeper than 64 levels").
YamlNode parse_json_tree(std::string_view text, const YamlLimits& limits);

// An answer file's tree (a map of rubric, student, seed, variant, generator
// and answers) as a Submission, by the rules of read_answer_file: the same
// notes, caps and unreadable reasons.
Submission read_answer_tree(const YamlNode& root, const std::string& source, const ReadLimits& limits);

// What read_sheet found besides the rows.
struct SheetInfo {
  // Header names (trimmed, in header order) of the columns not marked: those
  // that look like cells but are not (an unknown part name, indices that are
  // not positive integers, more than two indices), a second column for a cell
  // already given, and every other column that is neither the id, name or
  // submitted column, seed, variant or rubric, a title of
  // limits.sheet_columns.titles, nor a response's metadata
  // (is_known_metadata in readers/columns.h: Timestamp, Email, Start time, ...).
  std::vector<std::string> unknown_columns;
  std::size_t rows = 0;  // Submissions passed to `each`
};

// Reads a class sheet (CSV, UTF-8, optional BOM, any line endings).
//
// The header row needs a student id column (class_columns in
// readers/columns.h: `student`, `Student ID`, `id`, ..., `email`, or the one
// limits.sheet_columns names), may have a name column (`name`, `full name`,
// or `first name` and `last name`), a column of when each row was handed in
// (submitted_column in readers/columns.h: a form's `Timestamp` or
// `Completion time`, into Submission::submitted), and `seed`, `variant` and
// `rubric` columns. A cell column is named
// question.part[.index[.index]] with 1-based indices: `q1.weights.2` is
// rows[0][1] of a one-row part, `q2.scores.1.3` is rows[0][2] of a matrix,
// `q3.most_attended` is rows[0][0]. A question id here is 1 to 40 letters,
// digits, '_' or '-'. Each part is the smallest rectangle holding all its
// columns; cells without a column are "". A column headed by a title of
// limits.sheet_columns.titles is the column it stands for (a form's
// "Question 1 scores: key 2" is q1.scores.2). Other columns are not marked:
// SheetInfo::unknown_columns names those that are not a response's metadata.
//
// Calls `each` once per data row, in order, with a Submission whose source is
// "<file>:<line>" and whose cells are the row's fields trimmed of ASCII
// whitespace. A row whose fields are all blank is skipped. A row with a
// different number of fields than the header gets a note ("row has 5 fields
// but the header has 7"); missing fields are blank, extra ones ignored.
//
// Throws attnmark::Error, before calling `each` at all, for a sheet that
// cannot be read: a binary, UTF-16 or non-UTF-8 file (messages as above),
// "file is N bytes; the limit for a sheet is M" (max_sheet_bytes), malformed
// CSV (csv.h), no header ("the sheet is empty; expected a header row with a
// student id column"), no id column (no_id_column_message: "expected a
// student id column in the header (student, ...), or name it with
// --id-column; got 'a', 'b'"), "the header's cell columns make more than M answer
// cells per student" (max_cells), "more than M rows of answers; split the
// sheet into smaller ones" (max_sheet_rows, counting rows that are not all
// blank), or "more than M answer cells (R rows of C); split the sheet into
// smaller ones" (max_sheet_cells). Exceptions thrown by `each` pass through.
// Notes and unknown column names are one printable line (control bytes
// escaped), whatever the sheet holds.
SheetInfo read_sheet(std::string_view text, const std::string& file, const ReadLimits& limits,
                     const std::function<void(Submission&&)>& each);

struct SheetLayout;

// Who a sheet row is from, as SheetReader's check reads it: every cell
// trimmed, "" when blank or the sheet has no such column.
struct RowIdentity {
  int line = 0;
  std::string student;    // the id column's cell
  std::string submitted;  // the cell of when it was handed in (submitted_column)
  // The other columns that identify a student (id_column_titles: a form's
  // "Email address" beside its "Student ID" question), in header order; a
  // Microsoft Forms response number is not one.
  std::vector<std::string> others;
};

// A class sheet read in two steps, so that rows can become submissions on
// several threads (read_sheet is this, in one thread):
//
//   SheetReader sheet(text, "class.csv", limits);   // checks the whole sheet
//   for (std::size_t i = 0; i < sheet.rows(); ++i) use(sheet.submission(i));
//
// The check remembers where each row starts (16 bytes a row), so any row can
// be read again on its own, on any thread.
// REQUIRES: text outlives the reader.
class SheetReader {
 public:
  // Checks the whole sheet and reads its header; throws Error as read_sheet
  // does. `on_student`, when given, is called for every row that is not blank,
  // in order (as submission() numbers them), with who the row is from.
  // The check runs on up to `jobs` threads (a large sheet in pieces split at
  // record starts); what it finds, errors included, does not depend on them.
  SheetReader(std::string_view text, std::string file, const ReadLimits& limits,
              const std::function<void(RowIdentity&&)>& on_student = {},
              unsigned jobs = 1);

  // Header names of the columns not marked (as SheetInfo).
  const std::vector<std::string>& unknown_columns() const { return unknown_; }
  // The header of the column of when rows were handed in, as written
  // (printable): "Timestamp"; "" when the sheet has none.
  const std::string& submitted_column() const { return submitted_column_; }
  // How many rows are not blank (the header not counted).
  std::size_t rows() const { return rows_.size(); }
  // Row `index` (0-based, of the rows that are not blank, in sheet order) as
  // a submission. Thread-safe.
  // REQUIRES: index < rows().
  Submission submission(std::size_t index) const;
  // The same into `into`, reusing its storage (its answers' parts and cells,
  // when it last held a row of this sheet): every field of it is replaced.
  void submission(std::size_t index, Submission& into) const;

 private:
  std::string_view text_;
  std::string file_;
  std::vector<CsvReader::Position> rows_;  // where each row that is not blank starts
  std::shared_ptr<const SheetLayout> layout_;
  std::vector<std::string> unknown_;
  std::string submitted_column_;
};

// The most bytes a column map (mark --columns) may have.
inline constexpr std::size_t max_column_map_bytes = 1 << 20;

// A column map (`mark --columns MAP.csv`, the CSV `template --format form`
// writes): rows of a form question's title and the sheet column it stands
// for, after an optional header row `title,cell` (or `cell,title`). Without
// that header, the column whose every value is a cell name (or `student`) is
// the cells'. `student` is the id in any case. `columns` are the rubric's (form_questions' cells in
// writers/form_template: `student`, `q1.scores.1`, ...); a cell may be
// given in either spelling of a one-row part (`q1.weights.2`,
// `q1.weights.1.2`). Blank rows are skipped; fields are trimmed.
//
// Throws Error with the file and line: the bytes (input_problem in
// base/text.h; "file is N bytes; the limit for a column map is M"),
// malformed CSV (csv.h), "expected two fields, a form question's title and
// its cell (title,cell); got 3", "cannot tell which column holds the cell
// names (q1.scores.1, ...); give the header row title,cell", "the title of
// 'q1.scores.1' is blank", "'q9.scores.1' is not a cell of the rubric;
// attnmark template RUBRIC --format form lists them", "the title 'Score 1'
// is given twice (first at line 2)" (titles compared as column_title_key
// does), "'q1.scores.1' is given two titles (first at line 2)", and "the
// column map is empty; expected rows of title,cell".
std::vector<TitledColumn> read_column_map(std::string_view text, const std::string& file,
                                          const std::vector<std::string>& columns);

}  // namespace attnmark
