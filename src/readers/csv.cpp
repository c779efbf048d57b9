#include "readers/csv.h"

#include <algorithm>
#include <array>
#include <climits>
#include <utility>

#include "attnmark/base/error.h"

namespace attnmark {

namespace {

constexpr std::size_t max_field_bytes = std::size_t(1) << 20;  // 1 MiB
// Fields in one record: a line of commas must not become millions of
// strings (a 16 MiB line of commas would take half a GiB).
constexpr std::size_t max_fields = 20000;
// Longer lines are not copied into an error for the caret.
constexpr std::size_t max_source_line_bytes = 200;
constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

}  // namespace

CsvReader::CsvReader(std::string_view text, std::string file_name)
    : text_(text), file_name_(std::move(file_name)) {
  if (text_.substr(0, utf8_bom.size()) == utf8_bom) pos_ = line_start_ = utf8_bom.size();
}

CsvReader::CsvReader(std::string_view text, std::string file_name, Position from)
    : text_(text), file_name_(std::move(file_name)), pos_(from.offset), line_(from.line), line_start_(from.line_start) {}

bool CsvReader::next(CsvRecord& record) {
  while (skip_line_break()) {
  }  // completely empty lines are not records
  if (pos_ >= text_.size()) return false;
  record.line = line_;
  std::size_t count = 0;
  for (;;) {
    if (count == max_fields)
      fail(line_, line_start_, pos_,
           "more than " + std::to_string(max_fields) + " fields in one row");
    if (count == record.fields.size()) record.fields.emplace_back();
    read_field(record.fields[count++]);
    if (pos_ < text_.size() && text_[pos_] == ',') {
      ++pos_;
      continue;
    }
    skip_line_break();  // or we are at the end of the text
    break;
  }
  record.fields.resize(count);
  return true;
}

void CsvReader::read_field(std::string& field) {
  const std::size_t start = pos_;
  const int start_line = line_;
  const std::size_t start_line_start = line_start_;
  field.clear();

  if (pos_ >= text_.size() || text_[pos_] != '"') {
    // One table look-up a byte (find_first_of would test each byte with memchr).
    static constexpr auto stops = [] {
      std::array<bool, 256> t{};
      for (const unsigned char c : {',', '\n', '\r', '"'}) t[c] = true;
      return t;
    }();
    std::size_t end = pos_;
    while (end < text_.size() && !stops[static_cast<unsigned char>(text_[end])]) ++end;
    if (end < text_.size() && text_[end] == '"')
      fail(line_, line_start_, end, "a '\"' inside an unquoted field; quote the whole field");
    if (end - pos_ > max_field_bytes) fail(line_, line_start_, start, "field longer than 1 MiB");
    field.assign(text_.substr(pos_, end - pos_));
    pos_ = end;
    return;
  }

  ++pos_;  // the opening quote
  for (;;) {
    std::size_t quote = text_.find('"', pos_);
    if (quote == std::string_view::npos)
      fail(start_line, start_line_start, start, "unterminated quoted field starting here");
    // Count the line breaks inside the field, so later lines stay right.
    for (std::size_t i = pos_; i < quote; ++i) {
      bool lone_cr = text_[i] == '\r' && text_[i + 1] != '\n';  // i + 1 <= quote
      if (text_[i] == '\n' || lone_cr) {
        ++line_;
        line_start_ = i + 1;
      }
    }
    bool doubled = quote + 1 < text_.size() && text_[quote + 1] == '"';
    if (field.size() + (quote - pos_) + doubled > max_field_bytes)
      fail(start_line, start_line_start, start, "field longer than 1 MiB");
    field.append(text_.substr(pos_, quote - pos_));
    pos_ = quote + 1;
    if (!doubled) break;
    field += '"';
    ++pos_;
  }
  if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\r' && text_[pos_] != '\n')
    fail(line_, line_start_, pos_,
         "text after a closing quote; write a '\"' inside a quoted field as '\"\"'");
}

bool CsvReader::skip_line_break() {
  if (pos_ >= text_.size()) return false;
  if (text_[pos_] == '\r') {
    ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
  } else if (text_[pos_] == '\n') {
    ++pos_;
  } else {
    return false;
  }
  ++line_;
  line_start_ = pos_;
  return true;
}

void CsvReader::fail(int line, std::size_t line_start, std::size_t at,
                     std::string message) const {
  std::size_t line_end = std::min(text_.find_first_of("\r\n", line_start), text_.size());
  std::string source_line;
  if (line_end - line_start <= max_source_line_bytes)
    source_line = text_.substr(line_start, line_end - line_start);
  int column = static_cast<int>(std::min<std::size_t>(at - line_start + 1, INT_MAX));
  throw Error(file_name_, line, column, std::move(message), std::move(source_line));
}

}  // namespace attnmark
