// gradebook.csv rows (writers/gradebook.h): every cell one printable line,
// and the reason cell bounded whatever a submission's notes hold.
#include "support/test_support.h"

#include <string>

#include "base/text.h"
#include "writers/gradebook.h"
#include "writers/report_words.h"

using namespace attnmark;

TEST_CASE("the gradebook's reason cell stays well under a spreadsheet's 32,767 characters") {
  const Rubric rubric = shipped("lesson");
  GradedSubmission g;
  g.source = "in/s01.yaml";
  g.status = SubmissionStatus::unreadable;
  for (int i = 0; i < 100000; ++i) g.reason += (i ? "; " : "") + std::string("unknown key 'k") + std::to_string(i) + "' ignored";
  std::string row;
  append_gradebook_row(row, rubric, g);
  CHECK(row.size() < max_reason_cell_bytes + 200);
  const std::vector<std::vector<std::string>> cells = parse_csv(gradebook_header(rubric) + row);
  REQUIRE(cells.size() == 2);
  const std::string& reason = cells[1][cells[1].size() - 2];  // (then flags)
  CHECK(reason.size() <= max_reason_cell_bytes);
  CHECK(reason.starts_with("unknown key 'k0' ignored; unknown key 'k1' ignored; "));
  CHECK(reason.ends_with("' ignored … (and " + grouped(100000 - count(reason, "; ") - 1) + " more notes)"));
}

TEST_CASE("bounded_reason cuts at a note, else at a character, and says how many notes are left out") {
  CHECK(bounded_reason("short; enough", 100) == "short; enough");
  const std::string notes = std::string(50, 'a') + "; " + std::string(50, 'b') + "; " + std::string(50, 'c');
  CHECK(bounded_reason(notes, 120) == std::string(50, 'a') + " … (and 2 more notes)");
  // One long note with a multi-byte character at the cut: cut before it.
  const std::string one = std::string(139, 'x') + "\xC3\xA9" + std::string(100, 'y');
  const std::string cut = bounded_reason(one, 200);
  CHECK(cut == std::string(139, 'x') + " … (and 1 more note)");
  CHECK(first_invalid_utf8(cut) == std::string::npos);
  // Control characters and bytes that are not UTF-8 are escaped.
  CHECK(bounded_reason("in/\x1B[2Ja\xE9.yaml", 100) == "in/\\x1B[2Ja\\xE9.yaml");
}

TEST_CASE("the gradebook's source and reason never hold control characters or bytes that are not UTF-8") {
  const Rubric rubric = shipped("lesson");
  GradedSubmission g;
  g.source = "in/\x1B]0;owned\x07\xE9.yaml";
  g.status = SubmissionStatus::unreadable;
  g.reason = "not UTF-8 text; \xE2\x80\xAE";
  std::string row;
  append_gradebook_row(row, rubric, g);
  CHECK(count(row, "in/\\x1B]0;owned\\x07\\xE9.yaml") == 1);
  CHECK(count(row, "not UTF-8 text; \\u202E") == 1);
  CHECK(first_invalid_utf8(row) == std::string::npos);
}
