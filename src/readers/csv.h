// readers/csv.h: RFC 4180 reading (writing is writers/csv_writer.h).
//
//   CsvReader reader(text, "answers.csv");
//   CsvRecord record;
//   while (reader.next(record)) use(record.line, record.fields);
//
// Reading: a UTF-8 BOM at the start is skipped; lines may end in CRLF, LF or
// a lone CR (even mixed); a quoted field may hold commas, line breaks and
// doubled quotes ("" for "); the last line needs no line break. A completely
// empty line is skipped; a line holding only spaces is a record of one field.
// Fields are returned exactly as written: no trimming, and spaces before a
// quote make it a quote inside an unquoted field (an error). Records may
// have different numbers of fields; checking that is the caller's job.
//
// Errors (attnmark::Error, with the line's text for a caret):
//   "unterminated quoted field starting here"       at the opening quote
//   "a '\"' inside an unquoted field; quote the whole field"   at the quote
//   "text after a closing quote; write a '\"' inside a quoted field as '\"\"'"
//                                                   at the first such byte
//   "field longer than 1 MiB"                       at the field's start
//   "more than 20000 fields in one row"             at the 20001st field
// Lines are 1-based and count every line break, including those inside
// quoted fields; columns are 1-based byte offsets in the line, not counting
// the BOM.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attnmark {

// One record of a CSV file, with the 1-based line it starts on.
struct CsvRecord {
  int line = 0;
  std::vector<std::string> fields;
};

// Reads CSV records one at a time from text held by the caller (a pull
// reader, so a 100,000-row sheet streams).
// REQUIRES: text outlives the reader.
class CsvReader {
 public:
  // Where a record starts: a byte offset, with its 1-based line and the
  // offset of that line's first byte (for error columns).
  struct Position {
    std::size_t offset = 0;
    int line = 1;
    std::size_t line_start = 0;
  };

  CsvReader(std::string_view text, std::string file_name);
  // A reader that starts at `from`, a position() an earlier reader of the
  // same text returned; several may read one text at once (threads).
  CsvReader(std::string_view text, std::string file_name, Position from);

  // Where the next record starts, or the empty lines before it.
  Position position() const { return {pos_, line_, line_start_}; }
  // Skips the empty lines next() would skip; returns where the next record starts.
  Position skip_empty_lines() {
    while (skip_line_break()) {
    }
    return position();
  }

  // Reads the next record into `record` (reusing its storage); returns false
  // at the end. Throws attnmark::Error(file, line, column, message) on
  // malformed input, e.g. an unterminated quoted field ("unterminated quoted
  // field starting here") or a stray quote in an unquoted field ("a '\"'
  // inside an unquoted field; quote the whole field"). After a throw the
  // reader should not be used again.
  bool next(CsvRecord& record);

 private:
  // Reads one field starting at pos_ into `field`, stopping before the ','
  // or line break (or at the end) that follows it.
  void read_field(std::string& field);
  // Consumes a line break at pos_ (CRLF, LF or CR), if any; true if it did.
  bool skip_line_break();
  [[noreturn]] void fail(int line, std::size_t line_start, std::size_t at,
                         std::string message) const;

  std::string_view text_;
  std::string file_name_;
  std::size_t pos_ = 0;         // next byte to read
  int line_ = 1;                // 1-based line of pos_
  std::size_t line_start_ = 0;  // offset of the first byte of line_
};

}  // namespace attnmark
