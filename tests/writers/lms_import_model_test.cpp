// canvas.csv and moodle.csv (writers/lms_export.h, written by `mark
// --export`) checked against a small model of each LMS's importer, written
// from its published source, so that a rule of the importer, not attnmark's
// idea of it, decides whether an import keeps every grade it should:
//   Canvas: canvas-lms app/models/gradebook_importer.rb (the header row, the
//     Points Possible row, students matched by Canvas id, SIS User ID, SIS
//     Login ID, then name; assignments by "Name (id)", then by name; a grade
//     is changed where it differs, a blank one included, at 2 decimals).
//   Moodle: grade/import/csv/classes/load_data.php (prepare_import_grade_data,
//     map_user_data_with_value, update_grade_item) and the mapping form's
//     defaults (grade/import/direct/classes/mapping_form.php, the same form as
//     grade_import_mapping_form: the identity column whose header is a user
//     field's name, "<item> (Real)" and "<item> (Feedback)"), English strings.
#include "support/test_support.h"

#include <charconv>
#include <fmt/format.h>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/files.h"

namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) { return attnmark::read_file(p.string(), 1 << 24); }
}  // namespace

namespace {

std::string strip(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::optional<double> number(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// ---- Canvas: gradebook_importer.rb ----

struct CanvasStudent {
  std::string id;  // Canvas's user id
  std::string name, sortable_name, sis_user_id, login_id;
};

struct CanvasCourse {
  std::vector<CanvasStudent> students;
  std::string assignment_id, assignment_title;
  std::map<std::string, std::string> grades;  // Canvas id -> current score as Canvas exports it; absent: none
};

struct CanvasImport {
  bool header_ok = false;
  std::string assignment;        // "id:<id>" matched by id, "title:<id>" by title, "new:<title>" a new one
  std::string points_possible;   // from the Points Possible row
  std::vector<std::string> unknown;  // rows that match no student (Canvas asks the teacher to match them)
  std::map<std::string, std::string> changes;  // Canvas id -> the grade it posts where it differs ("" clears)
};

// The grade the importer posts for a student, or none when it sees no
// change: no_change_to_value? (equal; both blank or "-"; else equal at 2 decimals).
bool canvas_changed(const std::string& current, const std::string& next) {
  auto no_score = [](const std::string& v) { return v.empty() || v == "-"; };
  if (current == next) return false;
  if (no_score(current) && no_score(next)) return false;
  if (current.empty() || next.empty()) return true;
  const std::optional<double> a = number(current), b = number(next);
  if (!a || !b) return true;
  return fmt::format("{:.2f}", *a) != fmt::format("{:.2f}", *b);
}

CanvasImport canvas_import(const CanvasCourse& course, const std::string& csv) {
  CanvasImport result;
  const auto rows = parse_csv(csv);
  if (rows.empty()) return result;
  const std::vector<std::string>& header = rows[0];
  // header?: "Student" and "ID" first; SIS User ID and SIS Login ID after
  // them count as student columns; the last student column is "Section".
  if (!(header.size() > 3 && contains(header[0], "Student") && contains(header[1], "ID"))) return result;
  std::size_t student_columns = 3, sis_user = 0, sis_login = 0;
  if (contains(header[2], "SIS Login ID")) {
    sis_login = 2, student_columns = 4;
  } else if (contains(header[2], "SIS User ID") && header.size() > 3 && contains(header[3], "SIS Login ID")) {
    sis_user = 2, sis_login = 3, student_columns = 5;
  }
  if (student_columns > header.size() || !contains(header[student_columns - 1], "Section")) return result;
  result.header_ok = true;
  // This course has one assignment: the first column after the student columns.
  if (header.size() <= student_columns) return result;
  const std::size_t column = student_columns;
  const std::string& title_and_id = header[column];
  // Assignment.title_and_id: "Title (123)".
  std::string id;
  if (const std::size_t open = title_and_id.rfind(" ("); open != std::string::npos && title_and_id.back() == ')') {
    id = title_and_id.substr(open + 2, title_and_id.size() - open - 3);
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) id.clear();
  }
  if (!id.empty() && id == course.assignment_id) result.assignment = "id:" + id;
  else if (title_and_id == course.assignment_title) result.assignment = "title:" + course.assignment_id;
  else result.assignment = "new:" + title_and_id;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::vector<std::string>& row = rows[r];
    auto at = [&](std::size_t i) { return i < row.size() ? row[i] : std::string(); };
    if (contains(at(0), "Points Possible")) {
      result.points_possible = at(column);
      continue;
    }
    bool blank = true;
    for (const std::string& f : row) blank = blank && (strip(f).empty() || f.starts_with("Manual Posting"));
    if (blank) continue;
    const CanvasStudent* student = nullptr;
    for (const CanvasStudent& s : course.students) {
      if (!at(1).empty() && s.id == at(1)) student = &s;
    }
    for (const CanvasStudent& s : course.students)
      if (!student && sis_user && !at(sis_user).empty() && s.sis_user_id == at(sis_user)) student = &s;
    for (const CanvasStudent& s : course.students)
      if (!student && sis_login && !at(sis_login).empty() && s.login_id == at(sis_login)) student = &s;
    for (const CanvasStudent& s : course.students)
      if (!student && (s.name == at(0) || s.sortable_name == at(0))) student = &s;
    if (!student) {
      result.unknown.push_back(at(0).empty() ? at(sis_user) : at(0));
      continue;
    }
    const std::string grade = strip(at(column));
    const auto current = course.grades.find(student->id);
    if (canvas_changed(current == course.grades.end() ? "" : current->second, grade)) result.changes[student->id] = grade;
  }
  return result;
}

// ---- Moodle: grade/import/csv ----

struct MoodleUser {
  std::string id, username, idnumber, email;
};

struct MoodleCourse {
  std::vector<MoodleUser> users;
  std::string item;  // the grade item's name as the form lists it: "Assignment: NAME" for an Assignment activity
  std::map<std::string, std::optional<double>> grades;  // user id -> grade (none: no grade)
  std::map<std::string, std::string> feedback;          // user id -> feedback
};

struct MoodleImport {
  std::string error;     // why the whole import was refused; empty: imported
  std::string identity;  // the user field the form maps the identity column to
  bool grade_mapped = false, feedback_mapped = false;
  MoodleCourse after;    // the course after the import (as before when refused)
};

MoodleImport moodle_import(const MoodleCourse& course, const std::string& csv) {
  MoodleImport result;
  result.after = course;
  auto rows = parse_csv(csv);
  if (rows.empty()) return result.error = "empty file", result;
  std::vector<std::string> header = rows[0];
  for (std::string& h : header) h = strip(h);
  // csv_import_reader: every line has the header's number of columns.
  for (std::size_t r = 1; r < rows.size(); ++r)
    if (rows[r].size() != header.size()) return result.error = "csvweirdcolumns", result;
  // The form's defaults. Identity: the first "Map to" option, in its order,
  // whose label is a header; else the first column mapped to the user id.
  const std::vector<std::pair<std::string, std::string>> map_to = {
      {"userid", "User ID"}, {"username", "Username"}, {"useridnumber", "ID number"}, {"useremail", "Email address"}};
  std::size_t identity_column = 0;
  result.identity = "userid";
  [&] {
    for (const auto& [field, label] : map_to)
      for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == label) {
          result.identity = field, identity_column = i;
          return;
        }
  }();
  // Grade items: "<item> (Real)"; feedback: "<item> (Feedback)" is "Feedback for <item>".
  std::optional<std::size_t> grade_column, feedback_column;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (const std::size_t at = header[i].find("(Real)"); at != std::string::npos && strip(header[i].substr(0, at)) == course.item)
      grade_column = i;
    if (const std::size_t at = header[i].find("(Feedback)");
        at != std::string::npos && "Feedback for " + strip(header[i].substr(0, at)) == "Feedback for " + course.item)
      feedback_column = i;
  }
  result.grade_mapped = grade_column.has_value();
  result.feedback_mapped = feedback_column.has_value();
  // prepare_import_grade_data: the user of each line, then its values; any
  // failure aborts the whole import (import_cleanup), nothing imported.
  MoodleCourse after = course;
  const MoodleUser* student = nullptr;  // kept from line to line, as $this->studentid is
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::vector<std::string>& line = rows[r];
    if (line.size() <= 1) continue;
    std::optional<std::optional<double>> grade;
    std::optional<std::string> feedback;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const std::string value = strip(line[i]);
      if (i == identity_column) {
        if (value.empty()) continue;  // "Skip invalid row with blank user field": the last line's user stays
        student = nullptr;
        for (const MoodleUser& u : course.users) {
          const std::string& field = result.identity == "userid"         ? u.id
                                     : result.identity == "username"     ? u.username
                                     : result.identity == "useridnumber" ? u.idnumber
                                                                         : u.email;
          if (field == value) student = &u;
        }
        if (!student) return result.error = "usermappingerror: " + value, result;
      } else if (grade_column && i == *grade_column) {
        if (value.empty() || value == "-") {
          grade = std::optional<double>();  // "No grade"
        } else {
          const std::optional<double> v = number(value);
          if (!v) return result.error = "badgrade", result;
          if (*v > 100) return result.error = "gradevaluetoobig", result;  // gradepointmax's default
          grade = v;
        }
      } else if (feedback_column && i == *feedback_column) {
        feedback = value;
      }
    }
    if (!student) return result.error = "usermappingerrorusernotfound", result;
    if (grade) after.grades[student->id] = *grade;
    if (feedback) after.feedback[student->id] = *feedback;
  }
  result.after = after;
  return result;
}

// ---- The course: four students on the roster, each graded 12 by an earlier import ----

const std::string roster_csv =
    "Student ID,Full Name,Email\ns0,Ada Lovelace,ada@x.org\ns1,\"Turing, Alan\",alan@x.org\n"
    "s2,Grace Hopper,grace@x.org\ns3,Edsger Dijkstra,ed@x.org\n";

CanvasCourse canvas_course() {
  CanvasCourse c;
  c.students = {{"1001", "Ada Lovelace", "Lovelace, Ada", "s0", "ada"},
                {"1002", "Alan Turing", "Turing, Alan", "s1", "alan"},
                {"1003", "Grace Hopper", "Hopper, Grace", "s2", "grace"},
                {"1004", "Edsger Dijkstra", "Dijkstra, Edsger", "s3", "ed"}};
  c.assignment_id = "123456";
  c.assignment_title = "Attention worksheet";
  for (const CanvasStudent& s : c.students) c.grades[s.id] = "12";
  return c;
}

MoodleCourse moodle_course() {
  MoodleCourse c;
  c.users = {{"11", "ada", "", "ada@x.org"},
             {"12", "alan", "", "alan@x.org"},
             {"13", "grace", "", "grace@x.org"},
             {"14", "ed", "", "ed@x.org"},
             {"2", "teacher", "", "teacher@x.org"}};
  c.item = "Assignment: Attention worksheet";
  for (const char* id : {"11", "12", "13", "14"}) {
    c.grades[id] = 12;
    c.feedback[id] = "12 / 16. From an earlier import.";
  }
  return c;
}

// Right answers to q1 of the lesson (5 of 16) for each id.
void write_answers(const fs::path& dir, const std::vector<std::string>& ids) {
  fs::remove_all(dir);
  std::string answers = lesson_answers("[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.88, 2.12]");
  answers.erase(answers.find("variant: "), answers.find('\n', answers.find("variant: ")) + 1 - answers.find("variant: "));
  for (const std::string& id : ids) {
    std::string text = answers;
    text.replace(text.find("student: \"s001\""), 15, "student: \"" + id + "\"");
    attnmark::write_file((dir / id / "answers.yaml").string(), text);
  }
}

struct Exports {
  Run run;
  std::string canvas, moodle;
  bool moodle_written = false;
};

Exports mark_lesson_class(const std::string& name, const std::vector<std::string>& ids, const std::string& options) {
  const fs::path dir = scratch() / ("lms-model-" + name);
  fs::remove_all(dir);
  write_answers(dir / "subs", ids);
  attnmark::write_file((dir / "roster.csv").string(), roster_csv);
  std::string args = options;
  const std::string roster = "'" + (dir / "roster.csv").string() + "'";
  if (const std::size_t at = args.find("ROSTER"); at != std::string::npos) args.replace(at, 6, roster);
  Exports e;
  e.run = run_cli("mark rubrics/lesson.yaml '" + (dir / "subs").string() + "' " + args +
                  " --export canvas,moodle --assignment 'Attention worksheet' --assignment-id 123456 --out '" +
                  (dir / "out").string() + "'");
  e.canvas = slurp(dir / "out/canvas.csv");
  e.moodle_written = fs::exists(dir / "out/moodle.csv");
  if (e.moodle_written) e.moodle = slurp(dir / "out/moodle.csv");
  return e;
}

const std::string feedback = "5 / 16. q2 scores 0/2; q2 weights 0/3; q2 output 0/3; q3 scores 0/1; q3 weights 0/1; "
                             "q3 most attended 0/1.";
const std::string canvas_header =
    "Student,ID,SIS User ID,SIS Login ID,Section,Attention worksheet (123456)\r\nPoints Possible,,,,,16\r\n";
const std::string moodle_header =
    "Email address,Full name,Assignment: Attention worksheet (Real),Assignment: Attention worksheet (Feedback)\r\n";

}  // namespace

TEST_CASE("the importer models follow their sources: a blank grade clears, an unknown Moodle user aborts everything") {
  // What the exports must never hold, seen through the models.
  const CanvasImport canvas = canvas_import(canvas_course(), canvas_header + "Grace Hopper,,s2,,,\r\n");
  CHECK(canvas.header_ok);
  CHECK(canvas.changes == std::map<std::string, std::string>{{"1003", ""}});  // Grace's 12 posted as blank
  const MoodleImport blank = moodle_import(moodle_course(), moodle_header + "grace@x.org,Grace Hopper,,no submission\r\n");
  CHECK(blank.error.empty());
  CHECK(blank.after.grades.at("13") == std::nullopt);  // Grace's 12 is gone
  CHECK(blank.after.feedback.at("13") == "no submission");
  const MoodleImport unknown = moodle_import(
      moodle_course(), moodle_header + "ada@x.org,Ada Lovelace,5,ok\r\nnobody@x.org,,5,ok\r\n");
  CHECK(unknown.error == "usermappingerror: nobody@x.org");
  CHECK(unknown.after.grades.at("11") == 12);  // Ada's row, before it, is not imported either
  // Headers the form does not map by itself: the grade goes nowhere.
  const MoodleImport unmapped = moodle_import(
      moodle_course(), "ID number,Full name,Assignment: Attention worksheet,Feedback: Attention worksheet\r\ns0,,5,ok\r\n");
  CHECK(unmapped.identity == "useridnumber");
  CHECK_FALSE(unmapped.grade_mapped);
  CHECK_FALSE(unmapped.feedback_mapped);
  CHECK(unmapped.error == "usermappingerror: s0");  // no Moodle user has ID number s0
  // A blank identity keeps the line before's user: its grade lands on them.
  const MoodleImport kept = moodle_import(moodle_course(), moodle_header + "ada@x.org,,5,a\r\n,,7,b\r\n");
  CHECK(kept.after.grades.at("11") == 7);
}

TEST_CASE("canvas.csv and moodle.csv of a class all marked: every grade imported, the columns mapped by themselves") {
  const Exports e = mark_lesson_class("all", {"s0", "s1", "s2", "s3"}, "--roster ROSTER");
  CHECK(e.run.status == 0);
  CHECK(e.canvas == canvas_header + "Ada Lovelace,,s0,,,5\r\n\"Turing, Alan\",,s1,,,5\r\nGrace Hopper,,s2,,,5\r\n"
                                    "Edsger Dijkstra,,s3,,,5\r\n");
  const CanvasImport canvas = canvas_import(canvas_course(), e.canvas);
  CHECK(canvas.header_ok);
  CHECK(canvas.assignment == "id:123456");
  CHECK(canvas.points_possible == "16");
  CHECK(canvas.unknown.empty());
  CHECK(canvas.changes == std::map<std::string, std::string>{{"1001", "5"}, {"1002", "5"}, {"1003", "5"}, {"1004", "5"}});
  REQUIRE(e.moodle_written);
  CHECK(e.moodle == moodle_header + "ada@x.org,Ada Lovelace,5," + feedback + "\r\nalan@x.org,\"Turing, Alan\",5," +
                        feedback + "\r\ngrace@x.org,Grace Hopper,5," + feedback + "\r\ned@x.org,Edsger Dijkstra,5," +
                        feedback + "\r\n");
  const MoodleImport moodle = moodle_import(moodle_course(), e.moodle);
  CHECK(moodle.error.empty());
  CHECK(moodle.identity == "useremail");
  CHECK(moodle.grade_mapped);
  CHECK(moodle.feedback_mapped);
  for (const char* id : {"11", "12", "13", "14"}) {
    CHECK(moodle.after.grades.at(id) == 5);
    CHECK(moodle.after.feedback.at(id) == feedback);
  }
}

TEST_CASE("canvas.csv and moodle.csv leave out missing students, whose grades stay as they were") {
  const Exports e = mark_lesson_class("some-missing", {"s0", "s1"}, "--roster ROSTER");
  CHECK(e.run.status == 1);
  CHECK(e.run.err.find("attnmark: canvas.csv and moodle.csv hold no row for 2 students (2 handed nothing in; see "
                       "summary.md): the LMS keeps the grade each has; --missing zero writes 0 for those who handed "
                       "nothing in\n") != std::string::npos);
  CHECK(e.canvas == canvas_header + "Ada Lovelace,,s0,,,5\r\n\"Turing, Alan\",,s1,,,5\r\n");
  const CanvasImport canvas = canvas_import(canvas_course(), e.canvas);
  CHECK(canvas.unknown.empty());
  CHECK(canvas.changes == std::map<std::string, std::string>{{"1001", "5"}, {"1002", "5"}});
  REQUIRE(e.moodle_written);
  CHECK(e.moodle == moodle_header + "ada@x.org,Ada Lovelace,5," + feedback + "\r\nalan@x.org,\"Turing, Alan\",5," +
                        feedback + "\r\n");
  const MoodleImport moodle = moodle_import(moodle_course(), e.moodle);
  CHECK(moodle.error.empty());
  CHECK(moodle.after.grades.at("11") == 5);
  CHECK(moodle.after.grades.at("13") == 12);
  CHECK(moodle.after.grades.at("14") == 12);
  CHECK(moodle.after.feedback.at("13") == "12 / 16. From an earlier import.");
}

TEST_CASE("mark --missing zero: canvas.csv and moodle.csv give each missing student 0") {
  const Exports e = mark_lesson_class("zero", {"s0", "s1"}, "--roster ROSTER --missing zero");
  CHECK(e.run.status == 1);
  CHECK(e.run.err.find("hold no row") == std::string::npos);
  CHECK(e.canvas == canvas_header + "Ada Lovelace,,s0,,,5\r\n\"Turing, Alan\",,s1,,,5\r\nGrace Hopper,,s2,,,0\r\n"
                                    "Edsger Dijkstra,,s3,,,0\r\n");
  const CanvasImport canvas = canvas_import(canvas_course(), e.canvas);
  CHECK(canvas.changes == std::map<std::string, std::string>{{"1001", "5"}, {"1002", "5"}, {"1003", "0"}, {"1004", "0"}});
  REQUIRE(e.moodle_written);
  CHECK(e.moodle == moodle_header + "ada@x.org,Ada Lovelace,5," + feedback + "\r\nalan@x.org,\"Turing, Alan\",5," +
                        feedback + "\r\ngrace@x.org,Grace Hopper,0,0 / 16. No submission.\r\n"
                        "ed@x.org,Edsger Dijkstra,0,0 / 16. No submission.\r\n");
  const MoodleImport moodle = moodle_import(moodle_course(), e.moodle);
  CHECK(moodle.error.empty());
  CHECK(moodle.after.grades.at("13") == 0);
  CHECK(moodle.after.grades.at("14") == 0);
  CHECK(moodle.after.feedback.at("14") == "0 / 16. No submission.");
}

TEST_CASE("without --roster: canvas.csv's unknown ids are left for the teacher, and no moodle.csv is written") {
  const Exports e = mark_lesson_class("no-roster", {"s0", "s1", "s9"}, "");
  CHECK(e.run.status == 0);
  CHECK(e.run.err.find("reports in") != std::string::npos);
  CHECK(e.run.err.find("feedback/, canvas.csv\n") != std::string::npos);
  CHECK(e.run.err.find("attnmark: moodle.csv not written: without --roster nothing says which ids are Moodle users, "
                       "and Moodle's import stops at the first that is not; give --roster (Moodle's participants "
                       "export works as downloaded)\n") != std::string::npos);
  CHECK_FALSE(e.moodle_written);
  CHECK(e.canvas == canvas_header + ",,s0,,,5\r\n,,s1,,,5\r\n,,s9,,,5\r\n");
  const CanvasImport canvas = canvas_import(canvas_course(), e.canvas);
  CHECK(canvas.unknown == std::vector<std::string>{"s9"});  // Canvas asks the teacher; nothing is cleared
  CHECK(canvas.changes == std::map<std::string, std::string>{{"1001", "5"}, {"1002", "5"}});
}
