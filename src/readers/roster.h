// readers/roster.h: a class list (CSV).
//
//   std::vector<RosterEntry> students = read_roster(read_file(path, limit), path);
//
// The header names the columns (any case, spaces around ignored): the ids'
// column, recognised as class_columns (readers/columns.h) says or chosen
// with --id-column (`student`, `Student ID`, `SIS User ID`, `email`, ...;
// in a Canvas export, its SIS User ID), and the names' (optional). Every
// other column is kept for the LMS exports. BOM, CRLF and quoted fields are
// fine (CsvReader). Rows with nothing in them are skipped, and so is the
// `Points Possible` row of a Canvas export.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "readers/columns.h"

namespace attnmark {

// The largest roster read: rosters are typed by people, and 16 MiB is tens
// of thousands of students.
inline constexpr std::size_t max_roster_bytes = std::size_t{16} << 20;

// One student of a roster.
struct RosterEntry {
  std::string student;  // the id their variant is made from; spaces around trimmed
  std::string name;     // for people; may be empty
  int line = 0;         // 1-based line in the roster, for messages
  std::map<std::string, std::string> fields;  // every column, by its header made small and trimmed ("sis login id")
};

// Reads a roster. Throws Error(file, line, column, ...) for bytes that are not
// UTF-8 text ("not UTF-8 text (byte 0xE9 at line 2); save the roster as
// UTF-8", and the UTF-16, UTF-32 and binary messages of encoding_problem),
// malformed CSV, a header without an id column (or without the one chosen), a row without a student
// id, an id holding a control character (is_control: C0, DEL, C1,
// bidirectional controls; "student id 'a\u202Eb' contains a control character
// (U+202E); remove it from the roster"), a student listed twice, or a roster
// with no students. Text quoted in a message is escaped (quoted_printable).
//
// An LMS's export is read as it comes: in Canvas's, the Points Possible and
// Manual Posting rows and the Test Student (a Canvas ID without SIS ids)
// are left out; in Moodle's participants, everyone whose Roles column does
// not say Student. A recognised id column blank in every row is passed over
// for the next (Moodle's ID number when unused: the email is taken). When
// `notes` is given, a line naming the people left out is added to it
// ("roster.csv: left out 1 row that is not a student: 'Student, Test'
// (line 9: ...)").
std::vector<RosterEntry> read_roster(std::string_view text, const std::string& file, const ColumnChoice& columns = {},
                                     std::vector<std::string>* notes = nullptr);

}  // namespace attnmark
