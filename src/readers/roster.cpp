#include "readers/roster.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <set>

#include "base/error.h"
#include "base/text.h"
#include "readers/csv.h"

namespace attnmark {
std::vector<RosterEntry> read_roster(std::string_view text, const std::string& file) {
  // Ids become JSON, file names and text on sheets: the bytes are checked
  // before any of them is read, as answer files are.
  if (std::string problem = encoding_problem(text, "roster"); !problem.empty()) {
    const std::size_t bad = first_invalid_utf8(text);
    const bool utf8_problem = problem.starts_with("not UTF-8");
    throw Error(file, utf8_problem && bad != std::string_view::npos ? line_of(text, bad) : 0, 0, std::move(problem));
  }
  CsvReader reader(text, file);
  CsvRecord record;
  if (!reader.next(record)) throw Error(file, 0, 0, "the roster is empty; expected a header with a 'student' column");
  const int header_line = record.line;
  std::optional<std::size_t> student_column, name_column;
  for (std::size_t i = 0; i < record.fields.size(); ++i) {
    const std::string h = lower(trim(record.fields[i]));
    if (h == "student" && !student_column) student_column = i;
    if (h == "name" && !name_column) name_column = i;
  }
  if (!student_column) {
    std::string columns;
    constexpr std::size_t shown = 12;  // a message, not a dump of a wide header
    for (std::size_t i = 0; i < record.fields.size() && i < shown; ++i)
      columns += (i ? ", " : "") + quoted_printable(record.fields[i]);
    if (record.fields.size() > shown) columns += ", ... (" + grouped(record.fields.size() - shown) + " more)";
    throw Error(file, header_line, 0,
                fmt::format("expected a 'student' column in the header (and optionally 'name'); got {}",
                            columns.empty() ? "no columns" : columns));
  }
  std::vector<RosterEntry> students;
  std::map<std::string, int> first_line;
  while (reader.next(record)) {
    const bool empty = std::all_of(record.fields.begin(), record.fields.end(),
                                   [](const std::string& f) { return trim(f).empty(); });
    if (empty) continue;  // spreadsheets export trailing rows of commas
    RosterEntry e;
    e.line = record.line;
    if (*student_column < record.fields.size()) e.student = trim(record.fields[*student_column]);
    if (name_column && *name_column < record.fields.size()) e.name = trim(record.fields[*name_column]);
    if (e.student.empty()) throw Error(file, e.line, 0, "this row has no student id");
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
