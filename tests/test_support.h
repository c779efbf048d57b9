// test_support.h: helpers shared by the tests.
#pragma once

#include <string>
#include <vector>

// The records of a CSV text (RFC 4180: quoted fields, "" escapes, CRLF or
// LF), read independently of attnmark's own CsvReader so that tests of what
// attnmark writes do not trust attnmark to read it back.
inline std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      row.push_back(field), field.clear(), any = true;
    } else if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      row.push_back(field), field.clear();
      rows.push_back(row), row.clear();
      any = false;
    } else {
      field += c, any = true;
    }
  }
  if (any || !field.empty()) row.push_back(field), rows.push_back(row);
  return rows;
}
