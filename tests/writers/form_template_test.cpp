// writers/form_template: an online form's questions for every shipped
// rubric, read back by their titles as mark reads a form's export.
#include "support/test_support.h"

#include <set>
#include <string>
#include <vector>

#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/self_test.h"
#include "attnmark/lesson/variant.h"
#include "readers/answer_reader.h"
#include "readers/columns.h"
#include "writers/form_template.h"

using attnmark::FormQuestion;

namespace {

// The key's cell a sheet column names: "q1.keys.2.1" is rows[1][0] of keys,
// "q1.scores.2" rows[0][1], "q1.most_attended" rows[0][0].
std::string key_cell(const attnmark::Submission& key, const std::string& cell) {
  std::vector<std::string> pieces;
  for (std::size_t start = 0;;) {
    const std::size_t dot = cell.find('.', start);
    pieces.push_back(cell.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const auto& rows = key.answers.at(pieces[0]).at(pieces[1]).rows;
  if (pieces.size() == 4) return rows.at(std::stoul(pieces[2]) - 1).at(std::stoul(pieces[3]) - 1);
  return rows.at(0).at(pieces.size() == 3 ? std::stoul(pieces[2]) - 1 : 0);
}

}  // namespace

TEST_CASE("form questions: one-token's in order, the id first") {
  const std::vector<FormQuestion> q = attnmark::form_questions(shipped("one-token"));
  REQUIRE(q.size() == 10);
  CHECK(q[0] == FormQuestion{"Student ID", "student"});
  CHECK(q[1] == FormQuestion{"Question 1 scores: key 1", "q1.scores.1"});
  CHECK(q[7] == FormQuestion{"Question 1 output: dimension 1", "q1.output.1"});
  CHECK(q[9] == FormQuestion{"Question 1 most attended", "q1.most_attended"});
  const std::vector<FormQuestion> p = attnmark::form_questions(shipped("projections"));
  CHECK(p[1] == FormQuestion{"Question 1 query: dimension 1", "q1.query.1"});
  CHECK(p[3] == FormQuestion{"Question 1 keys: token 1 dimension 1", "q1.keys.1.1"});
}

TEST_CASE("form questions of every shipped rubric: unique plain titles, and a key's form export is full marks") {
  for (const char* name : {"lesson", "one-token", "all-tokens", "class-demo", "projections", "scaled-causal"}) {
    CAPTURE(name);
    const attnmark::Rubric rubric = shipped(name);
    const std::vector<FormQuestion> questions = attnmark::form_questions(rubric);
    std::set<std::string> titles, cells;
    attnmark::ReadLimits limits;
    std::string header, row;
    const attnmark::Variant v = attnmark::make_variant(rubric, 5, "s001");
    const attnmark::Submission key = attnmark::key_answers(v);
    for (const FormQuestion& q : questions) {
      CHECK(titles.insert(attnmark::column_title_key(q.title)).second);
      CHECK(cells.insert(q.cell).second);
      CHECK(q.title.find_first_of(",\"\r\n") == std::string::npos);
      limits.sheet_columns.titles.push_back({q.title, q.cell});
      header += (header.empty() ? "" : ",") + q.title;
      row += row.empty() ? std::string("s001") : "," + key_cell(key, q.cell);
    }
    // Read back by its titles alone: every column is marked, and every cell is right.
    const std::string sheet = "Timestamp,Email address," + header + "\n2026-12-01 09:00,a@x," + row + "\n";
    std::vector<attnmark::Submission> rows;
    const attnmark::SheetInfo info =
        attnmark::read_sheet(sheet, "form.csv", limits, [&](attnmark::Submission&& s) { rows.push_back(std::move(s)); });
    CHECK(info.unknown_columns.empty());
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].student == "s001");
    const attnmark::Marked m = attnmark::grade(v, rows[0]);
    CHECK(m.max_score > 0);
    CHECK(m.score == m.max_score);
  }
}
