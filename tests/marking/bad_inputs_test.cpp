// fixtures/bad/: broken and hostile rubrics, answer files and sheets, each
// with what attnmark must make of it in fixtures/bad/expected.tsv; then the
// whole folder marked at once, as a teacher would, checking that every file
// and row is accounted for and nothing is written outside --out.
//
// expected.tsv: one check per line, "file<TAB>check<TAB>expected" (file
// relative to fixtures/bad/; '#' starts a comment). Checks:
//   rubrics/*  error      "L:C: message", "message" (no place), or "ok"
//   answers/*  unreadable the reason, or "" when the file was read
//              notes      the notes joined with " | "
//              student    the student id as read (escaped as printable)
//              cell Q.P.L the verdict of one cell and its note: "unreadable: 'NaN' is not a number"
//              score      "S / M" when marked against the lesson
//              status     the gradebook status when the folder is marked
//   sheets/*   error      "L:C: message" (L:0 when there is no column), or "ok"
//              rows       how many rows are handed out
//              students   the rows' student ids joined with " | " (escaped)
//              unknown    the unknown columns joined with " | "
//              row N notes  the notes of the N-th row
//              status     the gradebook statuses of the sheet's rows, joined with " | "
//   folders/C  (a submissions folder, marked alone from fixtures/bad/folders/)
//              exit       mark's exit status
//              rows       each gradebook row as "source student status score", joined with " | "
//              reasons    each row's reason, joined with " | " (empty ones too)
//              notes      what mark said on standard error before its tally, joined with " | "
//              feedback   the feedback files' names (the .json ones), joined with " | "
//              superseded summary.md's rows of superseded submissions (no gradebook rows), joined with " | "
//              leaks      the reports' files that quote bytes of README.md (a link's target), or "none"
// ATTNMARK_UPDATE_BAD=1 rewrites the expected column from what attnmark does
// now; read the diff of expected.tsv before committing it.
// (Hostile inputs that need no corpus are tested beside what they attack:
// readers/csv_test.cpp, writers/csv_writer_test.cpp, base/files_test.cpp,
// marking/mark_class_test.cpp.)
#include "support/test_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "readers/answer_reader.h"
#include "attnmark/base/error.h"
#include "attnmark/lesson/grader.h"
#include "readers/rubric_loader.h"
#include "attnmark/lesson/variant.h"
#include "base/files.h"
#include "base/text.h"
#include "marking/inputs.h"
#include "readers/yaml_tree.h"

namespace {

namespace fs = std::filesystem;
using namespace attnmark;

const fs::path root = ATTNMARK_SOURCE_DIR;
const fs::path bad = root / "fixtures/bad";

struct Check {
  std::string file, check, expected;
};

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) out.push_back(field);
  if (!line.empty() && line.back() == sep) out.emplace_back();
  return out;
}

std::vector<Check> manifest() {
  std::vector<Check> out;
  std::ifstream in(bad / "expected.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = split(line, '\t');
    if (f.size() == 2) f.emplace_back();
    REQUIRE(f.size() == 3);
    out.push_back({f[0], f[1], f[2]});
  }
  return out;
}

std::string place(const Error& e) {
  if (e.line() == 0) return e.message();
  return std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.message();
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? " | " : "") + items[i];
  return out;
}

const Rubric& lesson() {
  static const Rubric r = load_rubric_file((root / "rubrics/lesson.yaml").string());
  return r;
}

// An answer file (or notebook) read as `mark` reads it: capped, then parsed.
Submission read_answers(const std::string& file) {
  const ReadLimits limits;
  const std::string path = (bad / file).string();
  try {
    return read_submission_file(read_file(path, limits.max_file_bytes), path, file, limits);
  } catch (const Error& e) {
    Submission s;
    s.source = file;
    s.unreadable = e.message();
    return s;
  }
}

// A sheet read as `mark` reads it; "ok" or the error with its place.
struct SheetRead {
  std::string error = "ok";
  SheetInfo info;
  std::vector<Submission> rows;
};

SheetRead read_sheet_file(const std::string& file) {
  const ReadLimits limits;
  SheetRead out;
  try {
    const std::string text = read_file((bad / file).string(), limits.max_sheet_bytes);
    out.info = read_sheet(text, file, limits, [&](Submission&& s) { out.rows.push_back(std::move(s)); });
  } catch (const Error& e) {
    out.error = e.line() == 0 ? e.message()
                              : std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.message();
  }
  return out;
}

std::string cell_of(const Marked& m, const std::string& spec) {
  const std::vector<std::string> parts = split(spec, '.');
  REQUIRE(parts.size() >= 3);
  std::string label = parts[2];
  for (std::size_t i = 3; i < parts.size(); ++i) label += "." + parts[i];
  for (const QuestionResult& q : m.questions)
    for (const PartResult& p : q.parts)
      if (q.id == parts[0] && part_name(p.part) == parts[1])
        for (const CellResult& c : p.cells)
          if (c.label == label) return std::string(verdict_name(c.verdict)) + (c.note.empty() ? "" : ": " + c.note);
  return "<no such cell>";
}

std::string score_text(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

// What attnmark makes of one file, as the check names it.
// What one folder of fixtures/bad/folders/ came to, marked alone from there
// (so sources read "links/s07.yaml").
struct FolderRun {
  int status = -1;
  std::vector<std::vector<std::string>> gradebook;  // with its header
  std::string err;
  fs::path out;
};

const FolderRun& mark_folder(const std::string& name) {
  static std::map<std::string, FolderRun> runs;
  if (auto it = runs.find(name); it != runs.end()) return it->second;
  FolderRun r;
  r.out = scratch() / "folders" / name;
  fs::remove_all(r.out);
  const std::string command = "cd '" + (bad / "folders").string() + "' && '" + ATTNMARK_BINARY + "' mark '" +
                              (root / "rubrics/lesson.yaml").string() + "' '" + name + "' --out '" + r.out.string() +
                              "' >/dev/null 2>'" + (scratch() / "folder-stderr").string() + "' </dev/null";
  const int raw = std::system(command.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.err = read_file((scratch() / "folder-stderr").string(), 1 << 20);
  r.gradebook = parse_csv(read_file((r.out / "gradebook.csv").string(), 1 << 20));
  return runs.emplace(name, std::move(r)).first->second;
}

std::string observe_folder(const std::string& name, const std::string& check) {
  const FolderRun& r = mark_folder(name);
  if (check == "exit") return std::to_string(r.status);
  if (check == "superseded") {
    std::vector<std::string> lines;
    for (const std::string& line : split(read_file((r.out / "summary.md").string(), 1 << 20), '\n'))
      if (line.find(" | duplicate | ") != std::string::npos) lines.push_back(line);
    return join(lines);
  }
  if (check == "notes") {
    std::vector<std::string> lines;
    for (const std::string& line : split(r.err, '\n'))
      if (!line.empty() && !line.starts_with("attnmark: marked ") && !line.starts_with("attnmark: not complete")) lines.push_back(line);
    return join(lines);
  }
  REQUIRE(!r.gradebook.empty());
  const std::vector<std::string>& header = r.gradebook[0];
  auto column = [&](const char* title) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), title) - header.begin());
  };
  std::vector<std::string> items;
  if (check == "rows" || check == "reasons")
    for (std::size_t i = 1; i < r.gradebook.size(); ++i) {
      const auto& row = r.gradebook[i];
      items.push_back(check == "reasons" ? row[column("reason")]
                                         : row[column("source")] + " " + row[column("student")] + " " +
                                               row[column("status")] + " " + row[column("score")]);
    }
  if (check == "feedback")
    for (const auto& e : fs::recursive_directory_iterator(r.out / "feedback"))
      if (e.path().extension() == ".json") items.push_back(fs::relative(e.path(), r.out / "feedback").string());
  if (check == "leaks") {
    const std::string secret = "# attnmark";  // README.md's first line, which links/s07.yaml points at
    REQUIRE(read_file((root / "README.md").string(), 1 << 20).starts_with(secret));
    for (const auto& e : fs::recursive_directory_iterator(r.out))
      if (e.is_regular_file() && read_file(e.path().string(), 1 << 26).find(secret) != std::string::npos)
        items.push_back(fs::relative(e.path(), r.out).string());
    if (items.empty()) return "none";
  }
  std::sort(items.begin() + (check == "feedback" ? 0 : static_cast<std::ptrdiff_t>(items.size())), items.end());
  return join(items);
}

std::string observe(const std::string& file, const std::string& check) {
  if (file.rfind("folders/", 0) == 0) return observe_folder(file.substr(8), check);
  if (file.rfind("rubrics/", 0) == 0) {
    REQUIRE(check == "error");
    try {
      const Rubric r = load_rubric_file((bad / file).string());
      return "ok";
    } catch (const Error& e) {
      return place(e);
    }
  }
  if (file.rfind("answers/", 0) == 0) {
    const Submission s = read_answers(file);
    if (check == "unreadable") return s.unreadable;
    if (check == "notes") return join(s.notes);
    if (check == "student") return printable(s.student, 200);
    if (!s.unreadable.empty()) return "<unreadable: " + s.unreadable + ">";
    const Marked m = grade(make_variant(lesson(), *lesson().seed, s.student), s);
    if (check == "score") return score_text(m.score) + " / " + score_text(m.max_score);
    if (check.rfind("cell ", 0) == 0) return cell_of(m, check.substr(5));
  }
  if (file.rfind("sheets/", 0) == 0) {
    const SheetRead r = read_sheet_file(file);
    if (check == "error") return r.error;
    if (check == "rows") return std::to_string(r.rows.size());
    if (check == "unknown") return join(r.info.unknown_columns);
    if (check == "students") {
      std::vector<std::string> ids;
      for (const Submission& s : r.rows) ids.push_back(printable(s.student, 200));
      return join(ids);
    }
    if (check.rfind("row ", 0) == 0) {
      const std::size_t n = std::stoul(check.substr(4));
      REQUIRE(n >= 1);
      REQUIRE(n <= r.rows.size());
      return join(r.rows[n - 1].notes);
    }
  }
  FAIL("unknown check '" << check << "' for " << file);
  return {};
}

std::vector<std::string> corpus_files() {
  std::vector<std::string> out;
  for (const char* dir : {"rubrics", "answers", "sheets", "folders"})
    for (const auto& e : fs::directory_iterator(bad / dir)) out.push_back(std::string(dir) + "/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

namespace {

// The gradebook of one `mark` run over the corpus, with its columns by name.
struct Gradebook {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string raw;
  std::size_t column(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    REQUIRE(it != header.end());
    return static_cast<std::size_t>(it - header.begin());
  }
};

// The sheets too big to mark in a unit test (their caps are checked above).
bool marked_in_run(const std::string& sheet) {
  // (A sheet without an id column stops mark with exit 2: tested in marking/mark_class_test.cpp.)
  return sheet != "sheets/too-many-rows.csv" && sheet != "sheets/million-cells.csv" && sheet != "sheets/no-id-column.csv";
}

struct MarkRun {
  int status = -1;
  fs::path out;
  Gradebook gradebook;
  std::vector<std::string> inputs;  // relative to fixtures/bad/, as expected.tsv names them
  std::string err;
};

// Marks fixtures/bad/answers/ and the sheets once, from an empty working
// folder, into <scratch>/cwd/out.
const MarkRun& mark_run() {
  static const MarkRun run = [] {
    MarkRun r;
    const fs::path cwd = scratch() / "cwd";
    fs::remove_all(cwd);  // its own folder only: other tests of this process keep theirs
    fs::create_directories(cwd);
    r.out = cwd / "out";
    std::string args = "mark '" + (root / "rubrics/lesson.yaml").string() + "' '" + (bad / "answers").string() + "'";
    for (const std::string& f : corpus_files()) {
      if (f.rfind("answers/", 0) == 0) r.inputs.push_back(f);
      if (f.rfind("sheets/", 0) == 0 && marked_in_run(f)) {
        r.inputs.push_back(f);
        args += " '" + (bad / f).string() + "'";
      }
    }
    const std::string command = "cd '" + cwd.string() + "' && '" + ATTNMARK_BINARY + "' " + args +
                                " --out out >'" + (scratch() / "stdout").string() + "' 2>'" +
                                (scratch() / "stderr").string() + "' </dev/null";
    const int raw = std::system(command.c_str());
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.err = read_file((scratch() / "stderr").string(), 1 << 24);
    r.gradebook.raw = read_file((r.out / "gradebook.csv").string(), 1 << 26);
    auto records = parse_csv(r.gradebook.raw);
    REQUIRE(!records.empty());
    r.gradebook.header = records[0];
    r.gradebook.rows.assign(records.begin() + 1, records.end());
    return r;
  }();
  return run;
}

// The file of fixtures/bad/ a gradebook source names ("answers/x.yaml",
// "sheets/x.csv" for every row of a sheet).
std::string corpus_file_of(const std::string& source) {
  const std::string prefix = bad.string() + "/";
  if (source.rfind(prefix, 0) != 0) return "<outside the corpus: " + source + ">";
  std::string file = source.substr(prefix.size());
  if (file.rfind("sheets/", 0) == 0)
    if (const std::size_t colon = file.rfind(':'); colon != std::string::npos) file.erase(colon);
  return file;
}

}  // namespace

TEST_CASE("fixtures/bad marked as one class: every file and row once, with a status and a reason", "[threads]") {
  const MarkRun& run = mark_run();
  INFO(run.err);
  REQUIRE(run.status == 1);
  const Gradebook& g = run.gradebook;
  const std::size_t status = g.column("status"), source = g.column("source"), reason = g.column("reason");

  // Rows of each input, in input order.
  std::map<std::string, std::vector<std::vector<std::string>>> rows_of;
  for (const auto& row : g.rows) {
    REQUIRE(row.size() == g.header.size());
    rows_of[corpus_file_of(row[source])].push_back(row);
  }
  std::size_t expected_rows = 0;
  for (const std::string& file : run.inputs) {
    INFO(file);
    const auto& rows = rows_of[file];
    if (file.rfind("answers/", 0) == 0) {
      CHECK(rows.size() == 1);  // exactly once
      CHECK((!rows.empty() && rows[0][source] == (bad / file).string()));
    } else {
      const SheetRead read = read_sheet_file(file);
      // A sheet that cannot be read is one row; else one row per data row.
      CHECK(rows.size() == (read.error == "ok" ? read.rows.size() : 1));
      if (read.error != "ok" && rows.size() == 1) CHECK(rows[0][source] == (bad / file).string());
    }
    expected_rows += rows.size();
    for (const auto& row : rows) {
      CHECK(!row[status].empty());
      if (row[status] != "graded") CHECK(!row[reason].empty());
    }
  }
  CHECK(g.rows.size() == expected_rows);
  CHECK(rows_of.size() == run.inputs.size());  // nothing from elsewhere

}

TEST_CASE("fixtures/bad marked: nothing is written outside --out, and every name in it is safe") {
  const MarkRun& run = mark_run();
  REQUIRE(run.status == 1);
  // The working folder holds --out and nothing else; the corpus is untouched.
  for (const std::string& entry : listing(scratch() / "cwd")) {
    INFO(entry);
    CHECK(entry.rfind("out", 0) == 0);
  }
  const std::vector<std::string> before = listing(bad);
  CHECK(std::count_if(before.begin(), before.end(), [](const std::string& e) {
          return e.find(".tmp-attnmark") != std::string::npos;
        }) == 0);
  // Every file of --out is a plain file or folder inside it, with a safe name.
  for (const auto& entry : fs::recursive_directory_iterator(run.out)) {
    const std::string name = entry.path().filename().string();
    INFO(entry.path().string());
    CHECK_FALSE(entry.is_symlink());
    CHECK(name.size() <= 100);
    CHECK(name[0] != '.');
    CHECK(std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
             c == '-';
    }));
    CHECK(fs::weakly_canonical(entry.path()).string().rfind(fs::weakly_canonical(run.out).string() + "/", 0) == 0);
  }
  // One feedback file name per row (a/b and a_b, Zoë and Zoé, the two ../../etc/passwd stay apart).
  std::set<std::string> stems;
  for (const auto& entry : fs::recursive_directory_iterator(run.out / "feedback"))
    if (entry.path().extension() == ".json")
      stems.insert(fs::relative(entry.path(), run.out / "feedback").replace_extension().string());
  CHECK(stems.size() == run.gradebook.rows.size());
}

TEST_CASE("fixtures/bad marked: the gradebook is safe to open in a spreadsheet") {
  const MarkRun& run = mark_run();
  REQUIRE(run.status == 1);
  auto plain_number = [](const std::string& t) {
    double value = 0;
    const char* begin = t.data() + (t.size() > 1 && t[0] == '+' ? 1 : 0);
    const auto [end, ec] = std::from_chars(begin, t.data() + t.size(), value);
    return ec == std::errc() && end == t.data() + t.size();
  };
  for (const auto& row : run.gradebook.rows)
    for (const std::string& cell : row) {
      INFO(cell);
      const bool formula = !cell.empty() && std::string("=+-@\t\r").find(cell[0]) != std::string::npos;
      CHECK((!formula || plain_number(cell)));
      CHECK(cell.rfind("\xEF\xBC\x9D", 0) != 0);  // full-width =
      // No control bytes but the line breaks a quoted field may hold.
      CHECK(std::none_of(cell.begin(), cell.end(), [](char c) {
        const unsigned char u = static_cast<unsigned char>(c);
        return (u < 0x20 && c != '\n' && c != '\r' && c != '\t') || u == 0x7F;
      }));
    }
  // What the students wrote as ids is there, neutralised.
  const std::size_t student = run.gradebook.column("student");
  std::set<std::string> ids;
  for (const auto& row : run.gradebook.rows) ids.insert(row[student]);
  CHECK(ids.count("'=cmd|' /C calc'!A0") == 1);
  CHECK(ids.count("'-1+1") == 1);
  CHECK(ids.count("'@SUM(1+1)*cmd|' /C calc'!A0") == 1);
  CHECK(ids.count("+1") == 1);  // a number stays a number
}

TEST_CASE("fixtures/bad marked: reports escape everything students wrote") {
  const MarkRun& run = mark_run();
  REQUIRE(run.status == 1);
  for (const auto& entry : fs::recursive_directory_iterator(run.out)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".md" && ext != ".html") continue;
    const std::string text = read_file(entry.path().string(), 1 << 26);
    INFO(entry.path().string());
    std::string lower = text;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // HTML has no raw tag of a student's; Markdown only backslash-escaped ones.
    for (const char* tag : {"<script>alert", "<img src=x", "</td><script>"})
      for (std::size_t at = lower.find(tag); at != std::string::npos; at = lower.find(tag, at + 1))
        CHECK((ext == ".md" && at > 0 && lower[at - 1] == '\\'));
    CHECK(lower.find("\x1b[") == std::string::npos);  // no terminal escapes
  }
}

TEST_CASE("fixtures/bad marked: Windows device names never become file names") {
  // CON, PRN, AUX, NUL, COM1-9 and LPT1-9 name devices on Windows whatever
  // follows the first dot ("nul.txt.json" too); a teacher may copy --out there.
  const MarkRun& run = mark_run();
  REQUIRE(run.status == 1);
  static const std::set<std::string> devices = {"con",  "prn",  "aux",  "nul",  "com1", "com2", "com3", "com4",
                                                "com5", "com6", "com7", "com8", "com9", "lpt1", "lpt2", "lpt3",
                                                "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9"};
  for (const auto& entry : fs::recursive_directory_iterator(run.out)) {
    std::string base = entry.path().filename().string();
    base = base.substr(0, base.find('.'));
    for (char& c : base) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    while (!base.empty() && base.back() == ' ') base.pop_back();
    INFO(entry.path().string());
    CHECK(devices.count(base) == 0);
  }
}

namespace {

// The gradebook statuses of one corpus file's rows in the marking run.
std::string statuses_in_run(const std::string& file) {
  const MarkRun& run = mark_run();
  const std::size_t status = run.gradebook.column("status"), source = run.gradebook.column("source");
  std::vector<std::string> statuses;
  for (const auto& row : run.gradebook.rows)
    if (corpus_file_of(row[source]) == file) statuses.push_back(row[status]);
  return join(statuses);
}

}  // namespace

TEST_CASE("fixtures/bad: every file gets exactly the message or status expected.tsv gives") {
  const std::vector<Check> checks = manifest();
  std::set<std::string> covered;
  const bool update = std::getenv("ATTNMARK_UPDATE_BAD") != nullptr;
  std::string rewritten;
  for (const Check& c : checks) {
    covered.insert(c.file);
    const std::string actual = c.check == "status" ? statuses_in_run(c.file) : observe(c.file, c.check);
    rewritten += c.file + "\t" + c.check + "\t" + actual + "\n";
    INFO(c.file << " " << c.check);
    if (!update) CHECK(actual == c.expected);
  }
  if (update) {
    // The expected column replaced, comments and order kept.
    std::ifstream in(bad / "expected.tsv");
    std::string line, out;
    std::size_t next = 0;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') {
        out += line + "\n";
        continue;
      }
      out += split(rewritten, '\n').at(next++) + "\n";
    }
    write_file((bad / "expected.tsv").string(), out);
    WARN("ATTNMARK_UPDATE_BAD: rewrote " << (bad / "expected.tsv").string() << "; read its diff");
  }
  // The corpus and the manifest stay in step: every file has a check.
  const std::vector<std::string> files = corpus_files();
  CHECK(files.size() >= 40);
  for (const std::string& f : files) {
    INFO(f);
    CHECK(covered.count(f) == 1);
  }
}
