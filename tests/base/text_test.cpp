// Text helpers (base/text.h): what untrusted text becomes when shown, which
// ids are refused, and repeated notes summed up.
#include "support/test_support.h"

#include "base/text.h"

using namespace attnmark;

TEST_CASE("printable escapes C0, DEL, C1, separators and bidirectional controls, one readable form each") {
  CHECK(printable("a\nb\rc\td", 100) == "a\\nb\\rc\\td");
  CHECK(printable("\x1B[31mred\x7F\v\f", 100) == "\\x1B[31mred\\x7F\\x0B\\x0C");
  CHECK(printable("next\xC2\x85line \xC2\x9B", 100) == "next\\u0085line \\u009B");
  CHECK(printable("evil\xE2\x80\xAEtxt.exe", 100) == "evil\\u202Etxt.exe");
  CHECK(printable("\xD8\x9C \xE2\x80\x8E \xE2\x80\x8F \xE2\x80\xAA \xE2\x81\xA6 \xE2\x81\xA9", 100) ==
        "\\u061C \\u200E \\u200F \\u202A \\u2066 \\u2069");
  CHECK(printable("a\xE2\x80\xA8" "b\xE2\x80\xA9", 100) == "a\\u2028b\\u2029");
  // Letters of every script, and marks that are not controls, stay as they are.
  CHECK(printable("Jos\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x99\x82 \xC2\xA0", 100) ==
        "Jos\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x99\x82 \xC2\xA0");
}

TEST_CASE("printable escapes every byte that is not part of well-formed UTF-8, so its output always is") {
  CHECK(printable("Jos\xE9", 100) == "Jos\\xE9");
  CHECK(printable("\xC3", 100) == "\\xC3");                       // cut short
  CHECK(printable("\xC0\xAF", 100) == "\\xC0\\xAF");              // overlong
  CHECK(printable("\xED\xA0\x80", 100) == "\\xED\\xA0\\x80");      // a surrogate
  CHECK(printable("\xF4\x90\x80\x80", 100) == "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
  CHECK(printable("\x80x\xFF", 100) == "\\x80x\\xFF");
  // Every byte value, alone and after a lead byte: the output is UTF-8 on one line.
  for (int a = 0; a < 256; ++a)
    for (int b : {0x41, 0x80, 0xA0, 0xBF, 0xC3}) {
      const std::string in{static_cast<char>(a), static_cast<char>(b)};
      const std::string out = printable(in, 100);
      CHECK(first_invalid_utf8(out) == std::string_view::npos);
      CHECK(out.find_first_of("\n\r") == std::string::npos);
      CHECK(!has_control(out));
    }
}

TEST_CASE("printable cuts at a character or an escape, never inside one, then ...") {
  CHECK(printable("abcdef", 4) == "abcd...");
  CHECK(printable("abcd", 4) == "abcd");
  CHECK(printable("ab\ncd", 3) == "ab...");                          // "\n" would end at byte 4
  CHECK(printable("a\xC3\xA9" "b", 2) == "a...");                    // é is 2 bytes
  CHECK(printable("a\xE2\x80\xAE", 6) == "a...");                    // \u202E is 6
  CHECK(printable("a\xE2\x80\xAE", 7) == "a\\u202E");
  CHECK(quoted_printable("a\nb") == "'a\\nb'");
}

TEST_CASE("is_control and find_control: exactly the characters that are never part of a name") {
  for (std::uint32_t cp : {0x00u, 0x1Fu, 0x7Fu, 0x80u, 0x85u, 0x9Fu, 0x061Cu, 0x200Eu, 0x200Fu, 0x2028u, 0x2029u,
                           0x202Au, 0x202Eu, 0x2066u, 0x2069u})
    CHECK(is_control(cp));
  for (std::uint32_t cp : {0x20u, 0x7Eu, 0xA0u, 0xE9u, 0x200Bu, 0x200Du, 0x2027u, 0x202Fu, 0x2065u, 0x206Au, 0xFEFFu})
    CHECK_FALSE(is_control(cp));
  CHECK(find_control("ab\xE2\x80\xAE") == 2);
  CHECK(find_control("\xE9\x1B") == 1);  // a byte that is not UTF-8 is passed over
  CHECK(find_control("s001") == std::string_view::npos);
}

TEST_CASE("student_id_problem: UTF-8 without control characters") {
  CHECK(student_id_problem("s001").empty());
  CHECK(student_id_problem("Jos\xC3\xA9 <img>").empty());
  CHECK(student_id_problem("").empty());
  CHECK(student_id_problem("Jos\xE9") == "is not UTF-8 text (byte 0xE9)");
  CHECK(student_id_problem("a\x1B") == "contains a control character (U+001B)");
  CHECK(student_id_problem("a\xC2\x85") == "contains a control character (U+0085)");
  CHECK(student_id_problem("a\xE2\x81\xA6") == "contains a control character (U+2066)");
}

TEST_CASE("encoding_problem names what to save as UTF-8") {
  CHECK(encoding_problem("student\nJos\xE9\n", "roster") ==
        "not UTF-8 text (byte 0xE9 at line 2); save the roster as UTF-8");
  CHECK(encoding_problem("\xFF\xFEs\0", "roster") == "UTF-16 text; save the roster as UTF-8");
  CHECK(encoding_problem("a\xE9") == "not UTF-8 text (byte 0xE9 at line 1); save the file as UTF-8");
}

TEST_CASE("RepeatedNotes keeps ten of a kind and sums up the rest in one note") {
  std::vector<std::string> notes;
  RepeatedNotes unknown("more unknown keys ignored");
  for (int i = 0; i < 10000; ++i)
    if (unknown.keep()) notes.push_back("unknown key 'k" + std::to_string(i) + "' ignored");
  unknown.finish(notes);
  REQUIRE(notes.size() == 11);
  CHECK(notes[9] == "unknown key 'k9' ignored");
  CHECK(notes[10] == "and 9,990 more unknown keys ignored");
  std::vector<std::string> few;
  RepeatedNotes none("more");
  CHECK(none.keep());
  none.finish(few);
  CHECK(few.empty());
  CHECK(grouped(0) == "0");
  CHECK(grouped(999) == "999");
  CHECK(grouped(1000) == "1,000");
  CHECK(grouped(1234567) == "1,234,567");
}

TEST_CASE("input_problem: the encoding first, then the size, in the words every reader uses") {
  CHECK(attnmark::input_problem("abc", 3) == "");
  CHECK(attnmark::input_problem("abcd", 3) == "file is 4 bytes; the limit is 3");
  CHECK(attnmark::input_problem("abcd", 3, "the limit for a sheet") == "file is 4 bytes; the limit for a sheet is 3");
  CHECK(attnmark::input_problem(std::string("a\0b\0", 4) + "ccccc", 3) == "binary file (contains NUL bytes)");
}

TEST_CASE("cell_quote: a student's cell quoted at most 60 bytes, cut at a character, with an ellipsis") {
  using attnmark::cell_quote;
  CHECK(cell_quote("0.665") == "0.665");
  CHECK(cell_quote(std::string(60, '9')) == std::string(60, '9'));
  CHECK(cell_quote(std::string(61, '9')) == std::string(57, '9') + "\u2026");
  CHECK(cell_quote(std::string(900000, '9')) == std::string(57, '9') + "\u2026");
  // é is 2 bytes: 28 of them fill 56, the 29th would pass 57.
  std::string accents;
  for (int i = 0; i < 40; ++i) accents += "\u00e9";
  CHECK(cell_quote(accents) == accents.substr(0, 56) + "\u2026");
  CHECK(attnmark::first_invalid_utf8(cell_quote(accents)) == std::string_view::npos);
  // A byte that is not UTF-8 counts as one.
  CHECK(cell_quote(std::string(70, '\xE9')) == std::string(57, '\xE9') + "\u2026");
  CHECK(cell_quote(std::string(900000, 'x')).size() == attnmark::max_cell_quote_bytes);
}
