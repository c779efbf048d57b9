#include "readers/roster.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

#include "attnmark/base/error.h"
#include "base/text.h"
#include "readers/csv.h"

namespace attnmark {
namespace {

bool blank(const std::vector<std::string>& fields) {
  return std::all_of(fields.begin(), fields.end(), [](const std::string& f) { return trim(f).empty(); });
}

std::string field_at(const CsvRecord& r, std::optional<std::size_t> column) {
  return column && *column < r.fields.size() ? std::string(trim(r.fields[*column])) : std::string();
}

// The rows of an LMS's export that are not students. Canvas: the row under
// the header that marks assignments posted by hand ("Manual Posting" in
// their columns, no student), and the Points Possible row. Moodle's
// participants: a teacher, whose Roles do not say Student.
bool not_a_student(const CsvRecord& r, const ClassColumns& columns, const std::vector<std::string>& keys,
                   const std::string& name) {
  if (columns.canvas && field_at(r, find_column(keys, "id")).empty()) {
    if (name == "Points Possible") return true;
    if (name.empty())
      for (const std::string& f : r.fields)
        if (trim(f).starts_with("Manual Posting")) return true;
  }
  if (const auto roles = find_column(keys, "roles")) return lower(field_at(r, roles)).find("student") == std::string::npos;
  return false;
}

}  // namespace

std::vector<RosterEntry> read_roster(std::string_view text, const std::string& file, const ColumnChoice& choice,
                                     std::vector<std::string>* notes) {
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
  std::vector<CsvRecord> rows;
  while (reader.next(record))
    if (!blank(record.fields)) rows.push_back(record);  // spreadsheets export trailing rows of commas
  // A recognised id column that is blank in every row holds no ids (Moodle's
  // ID number, when the site does not fill it in): the next one is taken.
  std::vector<std::string> searched = header;
  ClassColumns columns = class_columns(searched, choice, file, header_line);
  while (choice.id.empty() && columns.id && !rows.empty() &&
         std::all_of(rows.begin(), rows.end(), [&](const CsvRecord& r) { return field_at(r, columns.id).empty(); })) {
    searched[*columns.id].clear();
    const std::optional<std::size_t> name = columns.name;
    columns = class_columns(searched, choice, file, header_line);
    if (name && !columns.name && !columns.first_name) columns.name = name;
  }
  if (!columns.id) throw ColumnError(file, header_line, 0, no_id_column_message(header));
  std::vector<std::string> keys;
  for (const std::string& h : header) keys.push_back(lower(trim(h)));
  std::vector<RosterEntry> students;
  std::map<std::string, int> first_line;
  std::vector<std::string> left_out;
  for (const CsvRecord& row : rows) {
    RosterEntry e;
    e.line = row.line;
    e.student = field_at(row, columns.id);
    e.name = name_in(row.fields, columns);
    if (not_a_student(row, columns, keys, e.name)) {
      if (!e.name.empty() && e.name != "Points Possible")
        left_out.push_back(fmt::format("{} (line {})", quoted_printable(e.name), e.line));
      continue;
    }
    // Canvas's Test Student has a Canvas ID and no SIS ids: left out unless
    // the ids are Canvas's own (--id-column ID).
    if (columns.canvas && e.student.empty() && !field_at(row, find_column(keys, "id")).empty() &&
        field_at(row, find_column(keys, "sis user id")).empty() && field_at(row, find_column(keys, "sis login id")).empty()) {
      left_out.push_back(fmt::format("{} (line {}: no SIS id, as Canvas's Test Student; --id-column ID takes Canvas's ids)",
                                     quoted_printable(e.name), e.line));
      continue;
    }
    if (e.student.empty())
      throw Error(file, e.line, 0, fmt::format("this row has no student id (column {})", quoted_printable(header[*columns.id])));
    for (std::size_t i = 0; i < keys.size() && i < row.fields.size(); ++i)
      if (!keys[i].empty()) e.fields.try_emplace(keys[i], trim(row.fields[i]));
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
  if (notes && !left_out.empty()) {
    std::string who;
    for (const std::string& w : left_out) who += (who.empty() ? "" : ", ") + w;
    notes->push_back(fmt::format("{}: left out {} {} not a student: {}", file, left_out.size(),
                                 left_out.size() == 1 ? "row that is" : "rows that are", who));
  }
  return students;
}

}  // namespace attnmark
