// Fuzzes read_roster (a class list, CSV). Invariants: bad input throws only
// attnmark::Error with a short one-line message; a roster that reads gives
// at least one student, each with an id that is trimmed, UTF-8 and free of
// control characters (so it can be printed and made a file name), listed
// once, on increasing lines after the header.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "attnmark/base/error.h"
#include "base/text.h"
#include "readers/roster.h"
#include "fuzz_check.h"

using attnmark::fuzz::one_printable_line;
using attnmark::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<attnmark::RosterEntry> students = attnmark::read_roster(text, "fuzz.csv");
    require(!students.empty(), "a roster that reads lists a student");
    std::set<std::string> ids;
    int line = 1;
    for (const attnmark::RosterEntry& s : students) {
      require(!s.student.empty(), "every id is given");
      require(attnmark::trim(s.student) == s.student, "ids are trimmed");
      require(attnmark::student_id_problem(s.student).empty(), "ids are UTF-8 without control characters");
      require(attnmark::first_invalid_utf8(s.name) == std::string_view::npos, "names are UTF-8");
      require(ids.insert(s.student).second, "no id is listed twice");
      require(s.line > line, "lines increase, after the header");
      line = s.line;
    }
  } catch (const attnmark::Error& e) {
    require(one_printable_line(e.message()), "the error is one printable line");
    require(e.message().size() <= 1000, "the error is short");
  }
  return 0;
}
