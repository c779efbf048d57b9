// roster.h: a class list (CSV) and the safe file names its students get.
//
//   std::vector<RosterEntry> students = read_roster(read_file(path, limit), path);
//   std::vector<std::string> stems = file_stems(students, {"class-pack", "class-key"});
//   // students[i] is written to DIR/stems[i].html
//
// The header names the columns (any case, spaces around ignored): `student`
// (required) and `name` (optional); other columns are ignored. BOM, CRLF and
// quoted fields are fine (CsvReader). Rows with nothing in them are skipped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attnmark {

// One student of a roster.
struct RosterEntry {
  std::string student;  // the id their variant is made from; spaces around trimmed
  std::string name;     // for people; may be empty
  int line = 0;         // 1-based line in the roster, for messages
};

// Reads a roster. Throws Error(file, line, column, ...) for malformed CSV, a
// header without a student column, a row without a student id, a student
// listed twice, or a roster with no students.
std::vector<RosterEntry> read_roster(std::string_view text, const std::string& file);

// A safe, unique file stem for each student, in order: letters, digits, '-',
// '_' and '.' only (anything else becomes '_'), never starting with '.', at
// most 64 bytes, and unique without regard to case (a repeat gets "-2",
// "-3", ..., cutting the stem so the total stays within 64 bytes). Stems in
// `reserved` (compared without case) are never given out. So "../../etc/x"
// becomes "_.._etc_x" and can only name a file inside the output folder.
std::vector<std::string> file_stems(const std::vector<RosterEntry>& students, const std::vector<std::string>& reserved);

}  // namespace attnmark
