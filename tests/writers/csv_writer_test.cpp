// CSV written (writers/csv_writer.h): fields quoted only when they must be,
// formulas defused for spreadsheets, and what is written reads back.
#include "support/test_support.h"

#include <string>
#include <vector>

#include "readers/csv.h"
#include "writers/csv_writer.h"

using attnmark::csv_field;
using attnmark::csv_text_field;

TEST_CASE("csv_field quotes only when it must") {
  CHECK(csv_field("") == "");
  CHECK(csv_field("abc") == "abc");
  CHECK(csv_field(" a b ") == " a b ");
  CHECK(csv_field("=1+2") == "=1+2");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("\"") == "\"\"\"\"");
  CHECK(csv_field("a\nb") == "\"a\nb\"");
  CHECK(csv_field("a\rb") == "\"a\rb\"");
}

TEST_CASE("csv_text_field defuses formulas but keeps plain numbers") {
  CHECK(csv_text_field("Ann") == "Ann");
  CHECK(csv_text_field("") == "");
  CHECK(csv_text_field("=1+2") == "'=1+2");
  CHECK(csv_text_field("@SUM(A1)") == "'@SUM(A1)");
  CHECK(csv_text_field("+1+cmd|' /C calc'!A0") == "'+1+cmd|' /C calc'!A0");
  CHECK(csv_text_field("\tx") == "'\tx");
  CHECK(csv_text_field("\rx") == "\"'\rx\"");
  CHECK(csv_text_field("=HYPERLINK(\"x\",\"y\")") == "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"");
  CHECK(csv_text_field("-") == "'-");
  CHECK(csv_text_field("+") == "'+");
  CHECK(csv_text_field("-1/4") == "'-1/4");
  CHECK(csv_text_field("- 5") == "'- 5");
  CHECK(csv_text_field("-inf") == "'-inf");
  CHECK(csv_text_field("-1e") == "'-1e");
  CHECK(csv_text_field("-.") == "'-.");
  for (const char* number : {"-0.5", "+2", "1e-3", "-1e-3", "-.5", "-5.", "+1E+9", "-0"}) {
    INFO(number);
    CHECK(csv_text_field(number) == number);
  }
  // Only a leading trigger matters; U+2212 minus is not one.
  CHECK(csv_text_field("a=1") == "a=1");
  CHECK(csv_text_field("\xE2\x88\x92" "0.5") == "\xE2\x88\x92" "0.5");
}

TEST_CASE("csv_text_field neutralises full-width formula starts too, and numbers stay numbers") {
  CHECK(csv_text_field("\xEF\xBC\x9D" "1+1") == "'\xEF\xBC\x9D" "1+1");  // ＝1+1
  CHECK(csv_text_field("\xEF\xBC\xA0SUM(A1)") == "'\xEF\xBC\xA0SUM(A1)");  // ＠SUM(A1)
  CHECK(csv_text_field("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0");
  CHECK(csv_text_field("-1+1") == "'-1+1");
  CHECK(csv_text_field("-0.5") == "-0.5");
  CHECK(csv_text_field("+2") == "+2");
}

TEST_CASE("written fields read back as the same text") {
  Fields original = {"=cmd()", "a,b", "say \"hi\"", "two\nlines", "-0.5", "", "x"};
  std::string line = csv_field(original[0]);
  for (std::size_t i = 1; i < original.size(); ++i) line += "," + csv_field(original[i]);
  CHECK(read_all(line + "\r\n")[0].fields == original);
  CHECK(read_all(csv_text_field("=cmd()") + "," + csv_text_field("-0.5"))[0].fields ==
        Fields{"'=cmd()", "-0.5"});
}
