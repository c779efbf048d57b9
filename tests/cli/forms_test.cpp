// A class answering on an online form (Google Forms, Microsoft Forms):
// template --format form lists the form's questions, and mark reads the
// form's export by those titles, by a --columns map, or by cell names, and
// says what it did not mark.
#include "support/test_support.h"

#include <filesystem>
#include <string>
#include <vector>

#include "attnmark/lesson/rubric.h"
#include "attnmark/lesson/self_test.h"
#include "attnmark/lesson/variant.h"
#include "base/files.h"

namespace {

constexpr std::uint64_t seed = 7;

// rubrics/one-token.yaml's form, as template --format form writes it.
const std::string one_token_form =
    "title,cell\r\n"
    "Student ID,student\r\n"
    "Question 1 scores: key 1,q1.scores.1\r\n"
    "Question 1 scores: key 2,q1.scores.2\r\n"
    "Question 1 scores: key 3,q1.scores.3\r\n"
    "Question 1 weights: key 1,q1.weights.1\r\n"
    "Question 1 weights: key 2,q1.weights.2\r\n"
    "Question 1 weights: key 3,q1.weights.3\r\n"
    "Question 1 output: dimension 1,q1.output.1\r\n"
    "Question 1 output: dimension 2,q1.output.2\r\n"
    "Question 1 most attended,q1.most_attended\r\n";

// The cells of one-token.yaml's form, in its order.
const std::vector<std::string> cell_names = {"q1.scores.1",  "q1.scores.2", "q1.scores.3",
                                             "q1.weights.1", "q1.weights.2", "q1.weights.3",
                                             "q1.output.1",  "q1.output.2", "q1.most_attended"};

// The titles of one-token.yaml's form, in the cells' order.
std::vector<std::string> form_titles() {
  std::vector<std::string> titles;
  for (const auto& row : parse_csv(one_token_form))
    if (row[1] != "cell" && row[1] != "student") titles.push_back(row[0]);
  return titles;
}

// The student's right answer for a cell of one-token.yaml ("q1.weights.2").
std::string right_answer(const std::string& student, const std::string& cell) {
  static const attnmark::Rubric rubric = shipped("one-token");
  const attnmark::Variant v = attnmark::make_variant(rubric, seed, student);
  const attnmark::Submission key = attnmark::key_answers(v);
  const std::size_t dot = cell.find('.', 3);
  const std::string part = cell.substr(3, dot == std::string::npos ? std::string::npos : dot - 3);
  const std::size_t column = dot == std::string::npos ? 0 : std::stoul(cell.substr(dot + 1)) - 1;
  return key.answers.at("q1").at(part).rows.at(0).at(column);
}

// A form's export: `head` (its first columns, then a column per title),
// and a row per student of `before` (the first fields), then the answers
// (blank when `answered` is false) and `after`.
std::string export_sheet(const std::string& head, const std::vector<std::string>& titles,
                         const std::vector<std::string>& students, const std::string& before,
                         bool answered = true, const std::string& extra_title = "", const std::string& extra = "") {
  std::string text = head;
  for (const std::string& t : titles) text += "," + t;
  text += extra_title.empty() ? "" : "," + extra_title;
  text += "\r\n";
  for (const std::string& s : students) {
    text += before + s;
    for (const std::string& cell : cell_names) text += "," + (answered ? right_answer(s, cell) : std::string());
    text += extra_title.empty() ? "" : "," + extra;
    text += "\r\n";
  }
  return text;
}

struct Marked {
  Run run;
  std::vector<std::vector<std::string>> gradebook;
  std::string summary;
};

Marked mark(const std::string& name, const std::string& sheet, const std::string& options = "") {
  const auto dir = scratch() / ("forms-" + name);
  std::filesystem::remove_all(dir);
  const std::string file = (dir / "form.csv").string();
  attnmark::write_file(file, sheet);
  Marked m;
  m.run = run_cli("mark rubrics/one-token.yaml '" + file + "' --seed 7 --feedback none --out '" +
                  (dir / "out").string() + "' " + options);
  if (std::filesystem::exists(dir / "out/gradebook.csv")) {
    m.gradebook = parse_csv(attnmark::read_file((dir / "out/gradebook.csv").string(), 1 << 20));
    m.summary = attnmark::read_file((dir / "out/summary.md").string(), 1 << 20);
  }
  return m;
}

// Each gradebook row's student, status and score.
std::vector<std::string> scores(const Marked& m) {
  std::vector<std::string> out;
  for (std::size_t r = 1; r < m.gradebook.size(); ++r)
    out.push_back(m.gradebook[r][0] + " " + m.gradebook[r][3] + " " + m.gradebook[r][4] + "/" + m.gradebook[r][5]);
  return out;
}

const std::string google_head = "Timestamp,Email address,Student ID";
const std::string google_row = "2026/12/01 9:00:00 AM GMT,s@school.example,";

}  // namespace

TEST_CASE("template --format form writes the form's question titles and their cells") {
  const Run r = run_cli("template rubrics/one-token.yaml --format form");
  CHECK(r.status == 0);
  CHECK(r.err == "");
  CHECK(r.out == one_token_form);
  const auto file = scratch() / "form-questions.csv";
  std::filesystem::remove(file);
  const Run written = run_cli("template rubrics/one-token.yaml --format form -o '" + file.string() + "'");
  CHECK(written.status == 0);
  CHECK(written.err == "attnmark: wrote form questions to " + file.string() + "\n");
  CHECK(attnmark::read_file(file.string(), 1 << 20) == one_token_form);
  // A matrix names its rows and columns; a most attended word per query is one list.
  const Run all = run_cli("template rubrics/class-demo.yaml --format form");
  CHECK(all.status == 0);
  CHECK(all.out.find("Question 2 scores: query 1 key 3,q2.scores.1.3\r\n") != std::string::npos);
  CHECK(all.out.find("Question 2 output: query 3 dimension 2,q2.output.3.2\r\n") != std::string::npos);
  CHECK(all.out.find("Question 2 most attended: query 3,q2.most_attended.3\r\n") != std::string::npos);
  CHECK(count(all.out, "\r\n") == 1 + 1 + 8 + 24 + 3);
}

TEST_CASE("template --format form: a roster or a format it does not write is refused, exit 2") {
  const Run roster = run_cli("template rubrics/one-token.yaml --format form --roster tests/golden/class-demo-sheet.roster.csv");
  CHECK(roster.status == 2);
  CHECK(roster.err == "attnmark: --format form: one form serves the whole class; leave out --roster (and --student)\n");
  const Run student = run_cli("template rubrics/one-token.yaml --format form --student s001");
  CHECK(student.status == 2);
  CHECK(student.err == "attnmark: --format form: one form serves the whole class; leave out --student\n");
  const Run pdf = run_cli("template rubrics/one-token.yaml --format pdf");
  CHECK(pdf.status == 2);
  CHECK(pdf.err == "attnmark: --format: expected yaml or form; got 'pdf'\n");
}

TEST_CASE("mark: a Google Forms export titled as template --format form lists is marked, exit 0") {
  const Marked m = mark("google", export_sheet(google_head, form_titles(), {"s001", "s002"}, google_row));
  CHECK(m.run.status == 0);
  CHECK(m.run.err.find("not marked") == std::string::npos);
  CHECK(scores(m) == std::vector<std::string>{"s001 graded 6/6", "s002 graded 6/6"});
}

TEST_CASE("mark: a form's column it cannot mark is a notice that needs the teacher, exit 1") {
  const Marked m =
      mark("extra", export_sheet(google_head, form_titles(), {"s001"}, google_row, true, "Any comments?", "no"));
  CHECK(m.run.status == 1);
  const std::string notice = "column 'Any comments?' is not a cell of any question and was not marked; title it as "
                             "attnmark template RUBRIC --format form lists, or map it with --columns MAP.csv";
  CHECK(m.run.err.find("/form.csv: " + notice + "\n") != std::string::npos);
  CHECK(m.summary.find(notice) != std::string::npos);
  CHECK(scores(m) == std::vector<std::string>{"s001 graded 6/6"});
}

TEST_CASE("mark --columns: a form titled in the teacher's own words") {
  const auto dir = scratch() / "forms-map";
  std::filesystem::remove_all(dir);
  const std::string map = (dir / "map.csv").string();
  // No header: the column of cell names is the one whose every value is one.
  std::string text = "student,My school ID\n";
  std::vector<std::string> titles;
  for (std::size_t c = 0; c < cell_names.size(); ++c) {
    titles.push_back("Box " + std::to_string(c + 1));
    text += cell_names[c] + ",Box " + std::to_string(c + 1) + "\n";
  }
  attnmark::write_file(map, text);
  const Marked m = mark("map-run", export_sheet("Timestamp,My school ID", titles, {"s001"}, "2026-12-01 09:00,"),
                        "--columns '" + map + "'");
  CHECK(m.run.status == 0);
  CHECK(scores(m) == std::vector<std::string>{"s001 graded 6/6"});
  // A cell the rubric lacks, or a title given twice: the map's line, exit 2, nothing marked.
  attnmark::write_file(map, "title,cell\nBox 1,q1.scores.1\nBox 2,q2.scores.1\n");
  const Marked bad = mark("map-bad", "Student ID,Box 1\ns001,1\n", "--columns '" + map + "'");
  CHECK(bad.run.status == 2);
  CHECK(bad.run.err == "attnmark: " + map +
                           ":3: 'q2.scores.1' is not a cell of the rubric; attnmark template RUBRIC --format form "
                           "lists them\n");
  attnmark::write_file(map, "title,cell\nBox 1,q1.scores.1\n box  1 ,q1.scores.2\n");
  const Marked twice = mark("map-twice", "Student ID,Box 1\ns001,1\n", "--columns '" + map + "'");
  CHECK(twice.run.status == 2);
  CHECK(twice.run.err == "attnmark: " + map + ":3: the title 'box  1' is given twice (first at line 2)\n");
}

TEST_CASE("mark: a sheet where no row answers any question is a notice in the summary, exit 1") {
  const Marked m = mark("blank", export_sheet(google_head, form_titles(), {"s001", "s002"}, google_row, false));
  CHECK(m.run.status == 1);
  const std::string notice = "no row answers any question, so every student in it is unanswered; title its columns as "
                             "attnmark template RUBRIC --format form lists, or map them with --columns MAP.csv";
  CHECK(m.run.err.find("/form.csv: " + notice + "\n") != std::string::npos);
  CHECK(m.summary.find(notice) != std::string::npos);
  CHECK(scores(m) == std::vector<std::string>{"s001 unanswered 0/6", "s002 unanswered 0/6"});
}

TEST_CASE("mark: a Microsoft Forms export's own columns are known, not unmarked columns") {
  const Marked m = mark("microsoft",
                        export_sheet("ID,Start time,Completion time,Email,Name,Student ID", form_titles(), {"s001"},
                                     "1,12/1/26 9:00:00,12/1/26 9:05:00,ada@school.example,Ada Lovelace,"));
  CHECK(m.run.status == 0);
  CHECK(m.run.err.find("not marked") == std::string::npos);
  CHECK(scores(m) == std::vector<std::string>{"s001 graded 6/6"});
}
