#include "readers/roster.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

#include "attnmark/base/error.h"
#include "base/text.h"
#include "readers/csv.h"

namespace attnmark {
std::vector<RosterEntry> read_roster(std::string_view text, const std::string& file, const ColumnChoice& choice) {
  // Ids become JSON, file names and text on sheets: the bytes are checked
  // before any of them is read, as answer files are.
  if (std::string problem = encoding_problem(text, "roster"); !problem.empty()) {
    const std::size_t bad = first_invalid_utf8(text);
    const bool utf8_problem = problem.starts_with("not UTF-8");
    throw Error(file, utf8_problem && bad != std::string_view::npos ? line_of(text, bad) : 0, 0, std::move(problem));
  }
  CsvReader reader(text, file);
  CsvRecord record;
  if (!reader.next(record)) throw Error(file, 0, 0, "the roster is empty; expected a header with a student id column");
  const int header_line = record.line;
  const std::vector<std::string> header = record.fields;
  const ClassColumns columns = class_columns(header, choice, file, header_line);
  if (!columns.id) throw ColumnError(file, header_line, 0, no_id_column_message(header));
  std::vector<std::string> keys;
  for (const std::string& h : header) keys.push_back(lower(trim(h)));
  std::vector<RosterEntry> students;
  std::map<std::string, int> first_line;
  while (reader.next(record)) {
    const bool empty = std::all_of(record.fields.begin(), record.fields.end(),
                                   [](const std::string& f) { return trim(f).empty(); });
    if (empty) continue;  // spreadsheets export trailing rows of commas
    RosterEntry e;
    e.line = record.line;
    if (*columns.id < record.fields.size()) e.student = trim(record.fields[*columns.id]);
    e.name = name_in(record.fields, columns);
    // A Canvas export's second row holds each assignment's points, not a student.
    if (columns.canvas && e.student.empty() && e.name == "Points Possible") continue;
    if (e.student.empty())
      throw Error(file, e.line, 0, fmt::format("this row has no student id (column {})", quoted_printable(header[*columns.id])));
    for (std::size_t i = 0; i < keys.size() && i < record.fields.size(); ++i)
      if (!keys[i].empty()) e.fields.try_emplace(keys[i], trim(record.fields[i]));
    if (const std::string problem = student_id_problem(e.student); !problem.empty())
      throw Error(file, e.line, 0, fmt::format("student id {} {}; remove it from the roster",
                                               quoted_printable(e.student), problem));
    const auto [it, fresh] = first_line.emplace(e.student, e.line);
    if (!fresh)
      throw Error(file, e.line, 0,
                  fmt::format("student {} is listed twice (first on line {})", quoted_printable(e.student), it->second));
    students.push_back(std::move(e));
  }
  if (students.empty()) throw Error(file, header_line, 0, "the roster lists no students");
  return students;
}

}  // namespace attnmark
