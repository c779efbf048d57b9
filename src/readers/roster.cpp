#include "readers/roster.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <set>

#include "base/error.h"
#include "readers/csv.h"

namespace attnmark {
namespace {

std::string trim(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return std::string(text);
}

std::string lower(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

}  // namespace

std::vector<RosterEntry> read_roster(std::string_view text, const std::string& file) {
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
    for (const std::string& f : record.fields) columns += (columns.empty() ? "'" : ", '") + f + "'";
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
    const auto [it, fresh] = first_line.emplace(e.student, e.line);
    if (!fresh)
      throw Error(file, e.line, 0, fmt::format("student '{}' is listed twice (first on line {})", e.student, it->second));
    students.push_back(std::move(e));
  }
  if (students.empty()) throw Error(file, header_line, 0, "the roster lists no students");
  return students;
}

std::vector<std::string> file_stems(const std::vector<RosterEntry>& students, const std::vector<std::string>& reserved) {
  constexpr std::size_t max_bytes = 64;
  std::set<std::string> taken;
  for (const std::string& r : reserved) taken.insert(lower(r));
  std::vector<std::string> stems;
  stems.reserve(students.size());
  for (const RosterEntry& e : students) {
    std::string stem;
    for (unsigned char c : e.student) {
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
      stem += ok ? static_cast<char>(c) : '_';
    }
    if (!stem.empty() && stem[0] == '.') stem[0] = '_';
    if (stem.size() > max_bytes) stem.resize(max_bytes);
    std::string name = stem;
    for (int n = 2; taken.count(lower(name)); ++n) {
      const std::string suffix = fmt::format("-{}", n);
      name = stem.substr(0, max_bytes - suffix.size()) + suffix;
    }
    taken.insert(lower(name));
    stems.push_back(std::move(name));
  }
  return stems;
}

}  // namespace attnmark
