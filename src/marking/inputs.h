// marking/inputs.h: what `mark` is given, read and checked before anything is
// judged: the answer files in full, the class sheets checked (a row is read
// again when it is judged), every submission's place in input order, and
// which of a student's submissions counts (the last).
//
//   Inputs in = read_inputs(input_files({"answers/", "class.csv"}, err), jobs, err);
//   for (std::size_t i = 0; i < in.submissions.size(); ++i) judge(..., in.take(i), ...);
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lesson/submission.h"
#include "readers/answer_reader.h"

namespace attnmark {

// Every input file: the files themselves, and every regular file under a
// folder, in sorted order. Says on `err` when a folder has no files.
std::vector<std::string> input_files(const std::vector<std::string>& inputs, std::ostream& err);

// Where a submission is in the inputs.
struct Place {
  std::size_t file = 0;  // index of the input file
  std::size_t row = 0;   // a sheet's row (0-based, of its rows that are not blank)
  int line = 0;          // that row's line; 0 for an answer file
};

// Everything read before anything is judged: the answer files in full, the
// sheets checked (a row is read again when it is judged), and every
// submission's place in input order, with the student's last submission
// when it is a later one (the last counts).
struct Inputs {
  static constexpr std::size_t counts = static_cast<std::size_t>(-1);

  std::vector<std::string> files;
  std::vector<std::optional<Submission>> parsed;  // answer files, and sheets that cannot be used
  std::vector<std::string> sheet_texts;
  std::vector<std::unique_ptr<SheetReader>> sheets;
  std::vector<Place> submissions;        // in input order
  std::vector<std::size_t> superseding;  // per submission: its student's last one, or `counts`

  // Submission i, read (a sheet row) or taken (an answer file: once only).
  Submission take(std::size_t i) {
    const Place& place = submissions[i];
    if (parsed[place.file]) return std::move(*parsed[place.file]);
    return sheets[place.file]->submission(place.row);
  }
  // Where submission i came from: "answers/s01.yaml", "class.csv:12".
  std::string source(std::size_t i) const {
    const Place& place = submissions[i];
    return place.line ? files[place.file] + ":" + std::to_string(place.line) : files[place.file];
  }
};

// Reads and checks every input, answer files on up to `jobs` threads.
// Unreadable files and sheets become one unreadable submission each; sheet
// columns that are no question's cells are reported on `err`.
Inputs read_inputs(std::vector<std::string> files, unsigned jobs, std::ostream& err);

}  // namespace attnmark
