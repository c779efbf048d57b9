#include "readers/columns.h"

#include <algorithm>
#include <fmt/format.h>

#include "attnmark/base/error.h"
#include "base/text.h"

namespace attnmark {
namespace {

std::string key(const std::string& header) { return lower(trim(header)); }

std::optional<std::size_t> find(const std::vector<std::string>& header, std::string_view title) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (key(header[i]) == title) return i;
  return std::nullopt;
}

std::string header_list(const std::vector<std::string>& header) {
  std::string columns;
  constexpr std::size_t shown = 12;  // a message, not a dump of a wide header
  for (std::size_t i = 0; i < header.size() && i < shown; ++i) columns += (i ? ", " : "") + quoted_printable(header[i]);
  if (header.size() > shown) columns += ", ... (" + grouped(header.size() - shown) + " more)";
  return columns.empty() ? "no columns" : columns;
}

}  // namespace

std::string column_title_key(std::string_view header) {
  std::string key;
  bool space = false;
  for (const char c : header) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
      space = !key.empty();
      continue;
    }
    if (space) key += ' ';
    space = false;
    key += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return key;
}

bool is_known_metadata(std::string_view header) {
  static const std::vector<std::string> titles = {
      // Microsoft Forms
      "id", "start time", "completion time", "email", "name", "last modified time", "total points", "quiz feedback",
      // Google Forms
      "timestamp", "email address", "score",
      // Canvas
      "student", "sis user id", "sis login id", "integration id", "section",
      // Moodle
      "first name", "surname", "id number", "institution", "department", "state", "started on", "completed",
      "time taken",
      // what class_columns reads as names besides
      "full name", "student name", "display name", "last name", "firstname", "lastname"};
  const std::string key = column_title_key(header);
  // Microsoft Forms' quiz columns beside each question: "Points - Question 1 ...", "Feedback - Question 1 ...".
  if (key.starts_with("points - ") || key.starts_with("feedback - ")) return true;
  for (const std::vector<std::string>* list : {&titles, &id_column_titles(), &submitted_column_titles()})
    if (std::find(list->begin(), list->end(), key) != list->end()) return true;
  return false;
}

std::optional<std::size_t> find_column(const std::vector<std::string>& header, std::string_view title) {
  return find(header, title);
}

bool is_identity_title(std::string_view title) {
  const std::vector<std::string>& titles = id_column_titles();
  return title != "id" && std::find(titles.begin(), titles.end(), title) != titles.end();
}

const std::vector<std::string>& id_column_titles() {
  static const std::vector<std::string> titles = {"student", "student id", "id",           "id number",
                                                  "sis user id", "sis login id", "username", "login",
                                                  "email",   "email address"};
  return titles;
}

std::string no_id_column_message(const std::vector<std::string>& header) {
  std::string titles;
  for (const std::string& t : id_column_titles()) titles += (titles.empty() ? "" : ", ") + t;
  return fmt::format("expected a student id column in the header ({}), or name it with --id-column; got {}", titles,
                     header_list(header));
}

ClassColumns class_columns(const std::vector<std::string>& header, const ColumnChoice& choice, const std::string& file,
                           int line) {
  ClassColumns c;
  auto chosen = [&](const std::string& title, const char* option) {
    const std::optional<std::size_t> at = find(header, key(title));
    if (!at)
      throw ColumnError(file, line, 0,
                  fmt::format("{} {}: no such column in the header; got {}", option, quoted_printable(title), header_list(header)));
    return at;
  };
  // Canvas names its students in one column ("Student") or, when the export
  // is asked for first and last names, two ("LastName", "FirstName"); the
  // SIS User ID column is there only for a teacher allowed to see it.
  const bool canvas_names = find(header, "student") || (find(header, "lastname") && find(header, "firstname"));
  c.canvas = canvas_names && find(header, "id") && find(header, "sis login id") && find(header, "section");
  // A Microsoft Forms export numbers its responses in a column headed ID:
  // never a student's id.
  c.microsoft_forms = find(header, "id") && find(header, "start time") && find(header, "completion time");
  if (!choice.id.empty()) c.id = chosen(choice.id, "--id-column");
  else if (c.canvas) c.id = find(header, "sis user id") ? find(header, "sis user id") : find(header, "sis login id");
  else
    for (const std::string& title : id_column_titles())
      if (!(c.microsoft_forms && title == "id") && (c.id = find(header, title))) break;
  if (!choice.name.empty()) {
    c.name = chosen(choice.name, "--name-column");
  } else if (c.canvas) {
    c.name = find(header, "student");
    if (!c.name) {
      c.first_name = find(header, "firstname");
      c.last_name = find(header, "lastname");
    }
  } else {
    for (const char* title : {"name", "full name", "student name", "display name"})
      if ((c.name = find(header, title))) break;
    if (!c.name) {
      c.first_name = find(header, "first name");
      c.last_name = find(header, "last name");
      if (!c.last_name) c.last_name = find(header, "surname");
    }
  }
  if (c.name && c.name == c.id) c.name.reset();  // an id is not a name
  for (std::size_t i = 0; i < header.size(); ++i)
    if (i != c.id && is_identity_title(key(header[i]))) c.identities.push_back(i);
  return c;
}

const std::vector<std::string>& submitted_column_titles() {
  static const std::vector<std::string> titles = {"submitted", "submitted at", "submission time", "timestamp",
                                                  "completion time", "completed"};
  return titles;
}

std::optional<std::size_t> submitted_column(const std::vector<std::string>& header) {
  for (const std::string& title : submitted_column_titles())
    if (const std::optional<std::size_t> at = find(header, title)) return at;
  return std::nullopt;
}

std::string name_in(const std::vector<std::string>& fields, const ClassColumns& columns) {
  auto at = [&](std::optional<std::size_t> i) {
    return i && *i < fields.size() ? std::string(trim(fields[*i])) : std::string();
  };
  if (columns.name) return at(columns.name);
  const std::string first = at(columns.first_name), last = at(columns.last_name);
  return first.empty() || last.empty() ? first + last : first + " " + last;
}

}  // namespace attnmark
