// The CSV reader (readers/csv.h): records, lines, columns, messages.
#include "support/test_support.h"

#include <string>
#include <vector>

#include "attnmark/base/error.h"
#include "readers/csv.h"

using attnmark::CsvReader;
using attnmark::CsvRecord;
using attnmark::Error;

namespace {

// The error reading text throws; fails the test when nothing is thrown.
Error error_reading(std::string_view text) {
  try {
    read_all(text);
  } catch (const Error& e) {
    return e;
  }
  FAIL("no error for: " << std::string(text));
  return Error("unreachable: FAIL throws");
}

const std::string unquoted_quote = "a '\"' inside an unquoted field; quote the whole field";
const std::string unterminated = "unterminated quoted field starting here";
const std::string after_quote =
    "text after a closing quote; write a '\"' inside a quoted field as '\"\"'";
const std::size_t mib = std::size_t(1) << 20;

}  // namespace

TEST_CASE("empty inputs give no records") {
  CHECK(read_all("").empty());
  CHECK(read_all("\xEF\xBB\xBF").empty());
  CHECK(read_all("\n").empty());
  CHECK(read_all("\r\n\r\n").empty());
  CHECK(read_all("\r\r").empty());
  CHECK(read_all("\xEF\xBB\xBF\n\n").empty());
}

TEST_CASE("the end is sticky") {
  CsvReader reader("a\n", "x.csv");
  CsvRecord record;
  CHECK(reader.next(record));
  CHECK_FALSE(reader.next(record));
  CHECK_FALSE(reader.next(record));
}

TEST_CASE("records with LF, CRLF, lone CR and mixed line endings") {
  for (std::string end : {"\n", "\r\n", "\r"}) {
    INFO("line end bytes: " << end.size());
    auto records = read_all("id,name,score" + end + "1,Ann,0.5" + end);
    REQUIRE(records.size() == 2);
    CHECK(records[0].line == 1);
    CHECK(records[0].fields == Fields{"id", "name", "score"});
    CHECK(records[1].line == 2);
    CHECK(records[1].fields == Fields{"1", "Ann", "0.5"});
  }
  auto mixed = read_all("a\rb\nc\r\nd");
  REQUIRE(mixed.size() == 4);
  for (int i = 0; i < 4; ++i) {
    CHECK(mixed[i].line == i + 1);
    CHECK(mixed[i].fields == Fields{std::string(1, char('a' + i))});
  }
  // "\n\r" is two line breaks (LF, then a lone CR), so one empty line.
  auto reversed = read_all("a\n\rb");
  REQUIRE(reversed.size() == 2);
  CHECK(reversed[1].line == 3);
}

TEST_CASE("a BOM is skipped and a final line needs no line break") {
  auto records = read_all("\xEF\xBB\xBF" "a,b\nc,d");
  REQUIRE(records.size() == 2);
  CHECK(records[0].fields == Fields{"a", "b"});
  CHECK(records[1].fields == Fields{"c", "d"});
  CHECK(records[1].line == 2);
  // Only at the start: a BOM later is data.
  CHECK(read_all("a,\xEF\xBB\xBF" "b")[0].fields == Fields{"a", "\xEF\xBB\xBF" "b"});
}

TEST_CASE("empty lines are skipped but keep the line count") {
  auto records = read_all("\n\na\n\n\nb\r\n\r\n");
  REQUIRE(records.size() == 2);
  CHECK(records[0].line == 3);
  CHECK(records[1].line == 6);
}

TEST_CASE("empty fields and lines of spaces are kept") {
  CHECK(read_all(",")[0].fields == Fields{"", ""});
  CHECK(read_all("a,,b")[0].fields == Fields{"a", "", "b"});
  CHECK(read_all("a,\n")[0].fields == Fields{"a", ""});
  CHECK(read_all(",a")[0].fields == Fields{"", "a"});
  CHECK(read_all("  \n")[0].fields == Fields{"  "});
  CHECK(read_all(" a , b ")[0].fields == Fields{" a ", " b "});
}

TEST_CASE("quoted fields hold commas, doubled quotes and line breaks") {
  CHECK(read_all("\"a,b\",\"c\"\"d\"")[0].fields == Fields{"a,b", "c\"d"});
  CHECK(read_all("\"\"")[0].fields == Fields{""});
  CHECK(read_all("\"\"\"\"")[0].fields == Fields{"\""});
  CHECK(read_all("\"\"\"a\"\"\"")[0].fields == Fields{"\"a\""});
  CHECK(read_all("a,\"\"")[0].fields == Fields{"a", ""});
  CHECK(read_all("\"abc\"")[0].fields == Fields{"abc"});
  CHECK(read_all("\"abc\"\n")[0].fields == Fields{"abc"});
  CHECK(read_all("\"x\"\r\n\"y\"\r")[1].fields == Fields{"y"});
}

TEST_CASE("line breaks inside quotes are kept and counted") {
  auto records = read_all("\"x\ny\",z\nnext\n");
  REQUIRE(records.size() == 2);
  CHECK(records[0].line == 1);
  CHECK(records[0].fields == Fields{"x\ny", "z"});
  CHECK(records[1].line == 3);

  records = read_all("h\n\"a\r\nb\r\nc\",d\r\nq\r\n");
  REQUIRE(records.size() == 3);
  CHECK(records[1].line == 2);
  CHECK(records[1].fields == Fields{"a\r\nb\r\nc", "d"});
  CHECK(records[2].line == 5);

  records = read_all("\"a\rb\"\rq");  // lone CR inside and outside quotes
  REQUIRE(records.size() == 2);
  CHECK(records[0].fields == Fields{"a\rb"});
  CHECK(records[1].line == 3);

  records = read_all("\"\n\n\"\nq");  // a field of only line breaks
  CHECK(records[0].fields == Fields{"\n\n"});
  CHECK(records[1].line == 4);
}

TEST_CASE("a record's storage is reused without leaking old fields") {
  CsvReader reader("a,b,c\nd\ne,f\n", "x.csv");
  CsvRecord record;
  REQUIRE(reader.next(record));
  CHECK(record.fields == Fields{"a", "b", "c"});
  REQUIRE(reader.next(record));
  CHECK(record.fields == Fields{"d"});
  REQUIRE(reader.next(record));
  CHECK(record.fields == Fields{"e", "f"});
}

TEST_CASE("a stray quote in an unquoted field") {
  Error e = error_reading("ab\"c");
  CHECK(e.file() == "answers.csv");
  CHECK(e.line() == 1);
  CHECK(e.column() == 3);
  CHECK(e.message() == unquoted_quote);
  CHECK(std::string(e.what()) == "answers.csv:1:3: " + unquoted_quote);
  CHECK(e.report() == "answers.csv:1:3: " + unquoted_quote + "\nab\"c\n  ^");

  e = error_reading("id,name\n1, \"Ann\"\n");  // a space before the quote
  CHECK(e.line() == 2);
  CHECK(e.column() == 4);
  CHECK(e.source_line() == "1, \"Ann\"");

  e = error_reading("a\"");  // quote at EOF
  CHECK(e.column() == 2);
  CHECK(e.message() == unquoted_quote);
}

TEST_CASE("an unterminated quoted field is reported where it starts") {
  Error e = error_reading("\"");
  CHECK(e.line() == 1);
  CHECK(e.column() == 1);
  CHECK(e.message() == unterminated);

  e = error_reading("a,\"b");
  CHECK(e.column() == 3);
  CHECK(e.message() == unterminated);

  e = error_reading("ok\nx,\"abc\ndef\n\nghi");
  CHECK(e.line() == 2);
  CHECK(e.column() == 3);
  CHECK(e.source_line() == "x,\"abc");
  CHECK(e.message() == unterminated);

  e = error_reading("\"a\"\"");  // the last quote is a doubled one
  CHECK(e.column() == 1);
  CHECK(e.message() == unterminated);
}

TEST_CASE("text after a closing quote") {
  Error e = error_reading("\"a\"b");
  CHECK(e.line() == 1);
  CHECK(e.column() == 4);
  CHECK(e.message() == after_quote);

  e = error_reading("x\n\"a\nbc\" ,d");  // after a multi-line field
  CHECK(e.line() == 3);
  CHECK(e.column() == 4);
  CHECK(e.source_line() == "bc\" ,d");
}

TEST_CASE("columns do not count the BOM") {
  Error e = error_reading("\xEF\xBB\xBF" "a\"b");
  CHECK(e.line() == 1);
  CHECK(e.column() == 2);
  CHECK(e.source_line() == "a\"b");
}

TEST_CASE("a very long line is not copied into the error") {
  Error e = error_reading(std::string(300, 'a') + "\"");
  CHECK(e.column() == 301);
  CHECK(e.source_line().empty());
}

TEST_CASE("fields are capped at 1 MiB") {
  CHECK(read_all(std::string(mib, 'x'))[0].fields[0].size() == mib);
  CHECK(read_all("\"" + std::string(mib, 'x') + "\"")[0].fields[0].size() == mib);
  // A doubled quote counts as the one byte it becomes.
  CHECK(read_all("\"" + std::string(mib - 1, 'x') + "\"\"\"")[0].fields[0].size() == mib);

  Error e = error_reading("a," + std::string(mib + 1, 'x'));
  CHECK(e.line() == 1);
  CHECK(e.column() == 3);
  CHECK(e.message() == "field longer than 1 MiB");
  CHECK(e.source_line().empty());

  e = error_reading("h\n\"" + std::string(mib + 1, 'x') + "\"");
  CHECK(e.line() == 2);
  CHECK(e.column() == 1);
  CHECK(e.message() == "field longer than 1 MiB");

  e = error_reading("\"" + std::string(mib, 'x') + "\"\"\"");
  CHECK(e.message() == "field longer than 1 MiB");
}

TEST_CASE("100,000 rows stream through one record") {
  std::string text = "id,name,score\r\n";
  for (int i = 1; i <= 100000; ++i) text += std::to_string(i) + ",\"Doe, J\",0.5\r\n";
  CsvReader reader(text, "big.csv");
  CsvRecord record;
  int count = 0;
  while (reader.next(record)) ++count;
  CHECK(count == 100001);
  CHECK(record.line == 100001);
  CHECK(record.fields == Fields{"100000", "Doe, J", "0.5"});
}

TEST_CASE("a CSV line of more than 20,000 fields is refused at the field that breaks the cap") {
  const std::string wide(20000, ','), fits(19999, ',');  // the reader keeps a view: they must outlive it
  CsvReader reader(wide, "wide.csv");
  CsvRecord record;
  try {
    reader.next(record);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.line() == 1);
    CHECK(e.column() == 20001);
    CHECK(e.message() == "more than 20000 fields in one row");
  }
  CsvReader ok(fits, "wide.csv");
  CHECK(ok.next(record));
  CHECK(record.fields.size() == 20000);
}
