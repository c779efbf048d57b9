// Printable pages in a real browser (issue 4): worksheets, a class pack, a
// key and a class summary are printed to PDF by headless Chromium and read
// back with poppler (pdfinfo, pdftotext), as a teacher would print them; the
// LaTeX sheets are compiled with lualatex and pdflatex. Needs the Debian packages that
// scripts/setup --print installs. Without them the tests fail when CI is set
// and are skipped with a warning otherwise.
//
//   ctest --test-dir build -L browser           # just these
//   ATTNMARK_KEEP_PRINTS=1 ...                  # keep the PDFs (path in the log)
#include <catch2/catch.hpp>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <regex>
#include <sys/wait.h>
#include <unistd.h>

#include "attnmark/lesson/grader.h"
#include "attnmark/lesson/numbers.h"
#include "readers/rubric_loader.h"
#include "attnmark/lesson/variant.h"
#include "base/files.h"
#include "marking/summary.h"
#include "writers/feedback.h"

using namespace attnmark;
namespace fs = std::filesystem;

namespace {

const std::string source_dir = ATTNMARK_SOURCE_DIR;

fs::path scratch() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("attnmark-browser-test-" + std::to_string(getpid()));
    fs::remove_all(d);  // left by an earlier process of the same id, if any
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

// Removes the scratch folder at exit unless asked to keep it.
// Holds its own copy of the path: scratch()'s static is gone by then.
struct Cleanup {
  fs::path dir = scratch();
  ~Cleanup() {
    std::error_code ec;
    if (!std::getenv("ATTNMARK_KEEP_PRINTS")) fs::remove_all(dir, ec);
  }
} cleanup;

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Run {
  int status;
  std::string out;
  std::string err;
};

// Runs a shell command, capturing both streams.
Run sh(const std::string& command) {
  static int n = 0;
  const fs::path out = scratch() / fmt::format("sh-{}.out", n), err = scratch() / fmt::format("sh-{}.err", n);
  ++n;
  const std::string full = command + " >" + quote(out.string()) + " 2>" + quote(err.string()) + " </dev/null";
  const int raw = std::system(full.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_file(out.string(), 1 << 26), read_file(err.string(), 1 << 26)};
}

bool have(const char* tool) { return sh(std::string("command -v ") + tool).status == 0; }

// True when the tools are here. Without them: a failure in CI, a warning elsewhere.
bool tools_present(std::initializer_list<const char*> tools) {
  std::string missing;
  for (const char* t : tools)
    if (!have(t)) missing += std::string(missing.empty() ? "" : ", ") + t;
  if (missing.empty()) return true;
  const std::string message = "missing " + missing + ": run scripts/setup --print (Debian packages chromium, "
                              "poppler-utils, texlive-latex-base, texlive-latex-recommended, texlive-luatex, fonts-dejavu-core)";
  if (std::getenv("CI")) FAIL(message);
  WARN("skipped: " << message);
  return false;
}

// Chromium as the issue prescribes: headless, no network, a fresh profile.
std::string chromium(const std::string& args) {
  static int profile = 0;
  const fs::path dir = scratch() / fmt::format("profile-{}", profile++);
  return "timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
         "--disable-background-networking --disable-component-update --disable-sync --user-data-dir=" +
         quote(dir.string()) + " " + args;
}

// Prints a page to PDF.
void print_pdf(const fs::path& html, const fs::path& pdf) {
  const Run r = sh(chromium("--no-pdf-header-footer --print-to-pdf=" + quote(pdf.string()) + " " +
                            quote("file://" + html.string())));
  INFO(r.err);
  REQUIRE(r.status == 0);
  REQUIRE(fs::exists(pdf));
}

// Loads a page with console logging on; the page must load and log no error.
void check_console(const fs::path& html) {
  const Run r = sh(chromium("--enable-logging=stderr --v=0 --dump-dom " + quote("file://" + html.string())));
  REQUIRE(r.status == 0);
  CHECK(r.out.find("</html>") != std::string::npos);
  std::vector<std::string> console;
  std::size_t start = 0;
  for (std::size_t end; (end = r.err.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = r.err.substr(start, end - start);
    if (line.find("CONSOLE") != std::string::npos) console.push_back(line);
  }
  INFO(html.string());
  CHECK(console == std::vector<std::string>{});
}

int pages(const fs::path& pdf) {
  const Run r = sh("pdfinfo " + quote(pdf.string()));
  REQUIRE(r.status == 0);
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, std::regex("Pages:\\s+(\\d+)")));
  return std::stoi(m[1]);
}

std::string page_text(const fs::path& pdf, int page) {
  const Run r = sh(fmt::format("pdftotext -f {0} -l {0} -layout {1} -", page, quote(pdf.string())));
  REQUIRE(r.status == 0);
  return r.out;
}

// All the text of a PDF in reading order (a wrapped cell stays together).
std::string flow_text(const fs::path& pdf) {
  const Run r = sh("pdftotext " + quote(pdf.string()) + " -");
  REQUIRE(r.status == 0);
  return r.out;
}

// Text without spaces or line breaks, to find words a table cell wrapped.
std::string squeezed(const std::string& text) {
  std::string out;
  for (char c : text)
    if (c != ' ' && c != '\n' && c != '\f') out += c;
  return out;
}

// Every word must end inside its page: nothing printed is cut off at the
// right edge (pdftotext -bbox gives each word's box in points).
void check_nothing_past_the_edge(const fs::path& pdf, double expected_width) {
  const Run r = sh("pdftotext -bbox " + quote(pdf.string()) + " -");
  REQUIRE(r.status == 0);
  const std::regex page_re("<page width=\"([0-9.]+)\" height=\"([0-9.]+)\">");
  const std::regex word_re("<word xMin=\"([0-9.-]+)\" yMin=\"[0-9.-]+\" xMax=\"([0-9.-]+)\" yMax=\"[0-9.-]+\">([^<]*)</word>");
  double width = 0;
  int page_count = 0, words = 0;
  std::vector<std::string> outside;
  const std::string& xml = r.out;
  std::size_t pos = 0;
  while (pos < xml.size()) {
    const std::size_t next_page = xml.find("<page ", pos);
    const std::size_t next_word = xml.find("<word ", pos);
    if (next_page == std::string::npos && next_word == std::string::npos) break;
    std::smatch m;
    const std::string chunk = xml.substr(std::min(next_page, next_word), 400);
    if (next_page < next_word) {
      REQUIRE(std::regex_search(chunk, m, page_re));
      width = std::stod(m[1]);
      ++page_count;
      pos = next_page + 6;
    } else {
      REQUIRE(std::regex_search(chunk, m, word_re));
      ++words;
      if (std::stod(m[2]) > width + 0.01 || std::stod(m[1]) < -0.01)
        outside.push_back(fmt::format("page {}: '{}' from x={} to x={}", page_count, m[3].str(), m[1].str(), m[2].str()));
      pos = next_word + 6;
    }
  }
  CHECK(width == Approx(expected_width).margin(0.5));
  CHECK(words > 50);
  INFO(pdf.string());
  CHECK(outside == std::vector<std::string>{});
}

// A copy of an HTML page that asks for A4 paper (Chromium prints US Letter
// unless the page says otherwise); the page itself leaves the size to the printer.
fs::path on_a4(const fs::path& html) {
  std::string text = read_file(html.string(), 1 << 26);
  const std::size_t at = text.find("</style>");
  REQUIRE(at != std::string::npos);
  text.insert(at, "@page{size:A4}\n");
  const fs::path copy = html.parent_path() / (html.stem().string() + ".a4.html");
  write_file(copy.string(), text);
  return copy;
}

Run run_attnmark(const std::string& args) { return sh("cd " + quote(source_dir) + " && " + quote(ATTNMARK_BINARY) + " " + args); }

struct Student {
  std::string id, name;
};

const std::vector<Student> class_of_four = {
    {"s001", "Ada Lovelace"}, {"s002", "Alan Turing"}, {"s003", "Grace Hopper"}, {"s004", "Zoë Núñez-Okafor"}};

fs::path write_roster(const std::vector<Student>& students) {
  std::string text = "student,name,email\r\n";
  for (const Student& s : students) text += s.id + ",\"" + s.name + "\",x@example.org\r\n";
  const fs::path path = scratch() / "roster.csv";
  write_file(path.string(), text);
  return path;
}

constexpr double letter_width = 612, a4_width = 595.28;

// A page of a worksheet must not end with a heading whose question or part
// goes on over the page: the last line before the running footer is not a
// question heading ("Question 2: ...") or a part heading ("Weights  3 marks ·
// give 3 decimal places").
void check_no_heading_at_the_foot(const fs::path& pdf) {
  const std::regex question("^\\s*Question \\d+:");
  const std::regex part_heading("\\d+ marks?( · give [^·]*)?\\s*$");
  const int n = pages(pdf);
  for (int p = 1; p <= n; ++p) {
    const std::string text = page_text(pdf, p);
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t end; start < text.size(); start = end + 1) {
      end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      const std::string line = text.substr(start, end - start);
      if (line.find_first_not_of(" \f\r") == std::string::npos) continue;
      if (line.find(" · seed ") != std::string::npos) continue;  // the running footer
      lines.push_back(line);
    }
    INFO(pdf.string() << " page " << p << " of " << n << ":\n" << text);
    REQUIRE(!lines.empty());
    CHECK_FALSE(std::regex_search(lines.back(), question));
    CHECK_FALSE(std::regex_search(lines.back(), part_heading));
  }
}

}  // namespace

TEST_CASE("browser: a class pack prints each student from a new page, named and numbered, on Letter and A4",
          "[browser]") {
  if (!tools_present({"chromium", "pdfinfo", "pdftotext"})) return;
  const fs::path dir = scratch() / "class";
  const Run made = run_attnmark(fmt::format("generate rubrics/one-token.yaml --seed 5 --roster {} --format html -o {}",
                                        quote(write_roster(class_of_four).string()), quote(dir.string())));
  REQUIRE(made.status == 0);
  const Rubric rubric = load_rubric_file(source_dir + "/rubrics/one-token.yaml");
  // The class pack is the teacher's, in the folder beside the students'.
  const fs::path teacher = dir.string() + "-teacher";

  // Each student's own worksheet, printed alone, gives how many pages they take.
  std::vector<int> own_pages;
  for (const Student& s : class_of_four) {
    const fs::path pdf = dir / (s.id + ".pdf");
    print_pdf(dir / (s.id + ".html"), pdf);
    own_pages.push_back(pages(pdf));
    CHECK(own_pages.back() == 1);
  }
  for (const auto& [html, width] : {std::pair{teacher / "class-pack.html", letter_width}, std::pair{on_a4(teacher / "class-pack.html"), a4_width}}) {
    INFO(html.string());
    const fs::path pdf = dir / (html.stem().string() + ".pdf");
    print_pdf(html, pdf);
    const int total = pages(pdf);
    if (width == letter_width) CHECK(total == own_pages[0] + own_pages[1] + own_pages[2] + own_pages[3]);
    CHECK(total == static_cast<int>(class_of_four.size()));  // a one-question sheet: one page per student
    check_nothing_past_the_edge(pdf, width);
    check_no_heading_at_the_foot(pdf);
    // Walk the pages: each student's sheet starts on a fresh page with their
    // name, id and variant, and every page of it names their variant.
    int page = 1;
    for (std::size_t i = 0; i < class_of_four.size(); ++i) {
      const Student& s = class_of_four[i];
      const std::string variant = make_variant(rubric, 5, s.id).id_text();
      const std::string first = page_text(pdf, page);
      INFO("page " << page << " should start " << s.name << "'s worksheet:\n" << first);
      CHECK(first.find("WORKSHEET") != std::string::npos);
      CHECK(first.find(s.name) != std::string::npos);
      CHECK(first.find("Variant " + variant + " · Seed 5") != std::string::npos);
      int own = 1;
      for (++page; page <= total && page_text(pdf, page).find("WORKSHEET") == std::string::npos; ++page) ++own;
      if (width == letter_width) CHECK(own == own_pages[i]);
      CHECK(own == 1);
      for (int p = page - own; p < page; ++p) {
        const std::string text = page_text(pdf, p);
        INFO("page " << p);
        CHECK(text.find("student " + s.id + " · variant " + variant + " · seed 5") != std::string::npos);  // footer
        for (const Student& other : class_of_four)
          if (other.id != s.id) CHECK(text.find(other.name) == std::string::npos);
      }
    }
    CHECK(page == total + 1);
  }
  check_console(teacher / "class-pack.html");
}

TEST_CASE("browser: the lesson worksheet prints on at most 3 pages on Letter and A4, no page ending in a heading",
          "[browser]") {
  if (!tools_present({"chromium", "pdfinfo", "pdftotext"})) return;
  const fs::path dir = scratch() / "paper";
  fs::create_directories(dir);
  const fs::path worksheet = dir / "lesson.html";
  REQUIRE(run_attnmark("generate rubrics/lesson.yaml --student s001 --format html -o " + quote(worksheet.string())).status == 0);
  for (const auto& [html, width] : {std::pair{worksheet, letter_width}, std::pair{on_a4(worksheet), a4_width}}) {
    INFO(html.string());
    const fs::path pdf = dir / (html.stem().string() + ".pdf");
    print_pdf(html, pdf);
    const int n = pages(pdf);
    CHECK(n <= 3);
    check_nothing_past_the_edge(pdf, width);
    check_no_heading_at_the_foot(pdf);
    // Every question is printed, and the last page holds more than a Working box.
    std::string all;
    for (int p = 1; p <= n; ++p) all += page_text(pdf, p);
    for (const char* q : {"Question 1:", "Question 2:", "Question 3:", "Most attended"}) {
      INFO(q);
      CHECK(all.find(q) != std::string::npos);
    }
    CHECK(squeezed(page_text(pdf, n)).find("mark") != std::string::npos);
  }
}

TEST_CASE("browser: a one-question worksheet prints on one page on Letter and A4", "[browser]") {
  if (!tools_present({"chromium", "pdfinfo", "pdftotext"})) return;
  const fs::path dir = scratch() / "one-page";
  fs::create_directories(dir);
  // A few seeds and students (one with an e-mail for an id, as some LMS
  // exports give), so no variant's numbers or longer id push it over the page.
  for (const auto& [seed, student] :
       {std::pair{1, "s001"}, std::pair{5, "s002"}, std::pair{2026, "jane.doe@uni.example.edu"}}) {
    const fs::path worksheet = dir / fmt::format("one-token-{}.html", seed);
    REQUIRE(run_attnmark(fmt::format("generate rubrics/one-token.yaml --seed {} --student {} --format html -o {}", seed,
                                     student, quote(worksheet.string()))).status == 0);
    for (const auto& [html, width] : {std::pair{worksheet, letter_width}, std::pair{on_a4(worksheet), a4_width}}) {
      INFO(html.string());
      const fs::path pdf = dir / (html.stem().string() + ".pdf");
      print_pdf(html, pdf);
      CHECK(pages(pdf) == 1);
      check_nothing_past_the_edge(pdf, width);
      const std::string text = page_text(pdf, 1);
      CHECK(text.find("Most attended") != std::string::npos);
      CHECK(text.find("Working") != std::string::npos);
    }
  }
}

TEST_CASE("browser: a worksheet in large text and a key print within the page", "[browser]") {
  if (!tools_present({"chromium", "pdfinfo", "pdftotext"})) return;
  const fs::path dir = scratch() / "sheets";
  fs::create_directories(dir);
  const Rubric lesson = load_rubric_file(source_dir + "/rubrics/lesson.yaml");
  const std::string variant = make_variant(lesson, 2026, "s001").id_text();
  const fs::path worksheet = dir / "worksheet.html", key = dir / "key.html";
  REQUIRE(run_attnmark("generate rubrics/lesson.yaml --student s001 --format html --theme cream --text-size x-large -o " +
                   quote(worksheet.string())).status == 0);
  REQUIRE(run_attnmark("key rubrics/projections.yaml --seed 99 --student carol --format html --theme high-contrast "
                   "--text-size large -o " + quote(key.string())).status == 0);
  for (const auto& [html, width] : {std::pair{worksheet, letter_width}, std::pair{on_a4(worksheet), a4_width}}) {
    const fs::path pdf = dir / (html.stem().string() + ".pdf");
    print_pdf(html, pdf);
    check_nothing_past_the_edge(pdf, width);
    const int n = pages(pdf);
    CHECK(n >= 3);
    const std::string first = page_text(pdf, 1);
    CHECK(first.find("Student ID") != std::string::npos);
    CHECK(first.find("s001") != std::string::npos);
    for (int p = 1; p <= n; ++p) CHECK(page_text(pdf, p).find("variant " + variant + " · seed 2026") != std::string::npos);
  }
  const fs::path key_pdf = dir / "key.pdf";
  print_pdf(key, key_pdf);
  check_nothing_past_the_edge(key_pdf, letter_width);
  std::string all;
  for (int p = 1; p <= pages(key_pdf); ++p) all += page_text(key_pdf, p);
  // Worked steps of the key: a projection, a product, e^score, the total, a weight × value.
  for (const char* step : {"ANSWER KEY", "2×1 + 0×0 = 2", "2×0 + 2×3 = 6", "54.60", "459.03", "0.879", "3.52, 1.76",
                           "3.99, 2.23", "Unrounded output: 3.991286, 2.233529."}) {
    INFO(step);
    CHECK(all.find(step) != std::string::npos);
  }
  check_console(worksheet);
  check_console(key);
}

namespace {

// A class of twelve for the lesson, marked by the grader: right answers from
// each variant, with some parts left blank or wrong so the scores spread,
// and two students with the lesson's common mistake.
std::vector<GradedSubmission> marked_class(const Rubric& rubric) {
  std::vector<GradedSubmission> rows;
  for (int k = 0; k < 12; ++k) {
    const std::string id = fmt::format("s{:02}", k + 1);
    const Variant v = make_variant(rubric, 2026, id);
    Submission s;
    s.student = id;
    s.source = "answers/" + id + ".yaml";
    for (std::size_t qi = 0; qi < v.questions.size(); ++qi) {
      const QuestionVariant& q = v.questions[qi];
      for (std::size_t pi = 0; pi < q.spec->ask.size(); ++pi) {
        const Part part = q.spec->ask[pi];
        if ((k * 7 + static_cast<int>(qi * 3 + pi) * 5) % 12 < 11 - k) continue;  // left blank: weaker students skip more
        const Matrix& m = part == Part::scores ? q.scores : part == Part::weights ? q.weights : q.output;
        PartAnswer& a = s.answers[q.spec->id][part_name(part)];
        if (part == Part::most_attended) {
          a.rows.push_back({});
          for (std::size_t t : q.most_attended) a.rows.back().push_back(q.tokens[t]);
          continue;
        }
        for (const Vector& row : m) {
          a.rows.push_back({});
          for (double x : row) a.rows.back().push_back(format_fixed(x, q.spec->decimals(part)));
        }
        if (part == Part::weights && qi == 0 && (k == 4 || k == 9)) a.rows[0] = {"1.000", "0.000", "0.000"};
      }
    }
    GradedSubmission g;
    g.source = s.source;
    g.student = k == 6 ? "<script>alert(1)</script>" : id;
    g.variant = v.id_text();
    g.status = SubmissionStatus::graded;
    g.marked = grade(v, s);
    g.file_stem = id;
    rows.push_back(g);
  }
  GradedSubmission broken;
  broken.source = "answers/broken.yaml";
  broken.status = SubmissionStatus::unreadable;
  broken.reason = "answers/broken.yaml:2:3: expected a mapping";
  broken.file_stem = "broken.yaml";
  rows.push_back(broken);
  return rows;
}

}  // namespace

TEST_CASE("browser: the class summary prints its chart, and feedback pages load", "[browser]") {
  if (!tools_present({"chromium", "pdfinfo", "pdftotext"})) return;
  const fs::path dir = scratch() / "reports";
  const Rubric rubric = load_rubric_file(source_dir + "/rubrics/lesson.yaml");
  const std::vector<GradedSubmission> rows = marked_class(rubric);
  ClassSummary summary(rubric);
  for (const GradedSubmission& g : rows) summary.add(g);
  const std::string html = summary_html(rubric, summary, {});
  CHECK(html.find("<svg class=\"chart\"") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  write_file((dir / "summary.html").string(), html);
  for (const GradedSubmission& g : rows)
    write_file((dir / "feedback" / (g.file_stem + ".html")).string(), feedback_html(rubric, g, false, {}));

  const fs::path pdf = dir / "summary.pdf";
  print_pdf(dir / "summary.html", pdf);
  check_nothing_past_the_edge(pdf, letter_width);
  const std::string first = page_text(pdf, 1);
  // The chart is drawn: its axis title, a bin label and its tick labels are text on the page.
  CHECK(first.find("Score, as a share of full marks") != std::string::npos);
  CHECK(first.find("90–100%") != std::string::npos);
  CHECK(first.find("Students") != std::string::npos);
  std::string all;
  for (int p = 1; p <= pages(pdf); ++p) all += page_text(pdf, p);
  CHECK(squeezed(flow_text(pdf)).find("<script>alert(1)</script>") != std::string::npos);  // shown as text, maybe wrapped
  CHECK(all.find("hard-attention") != std::string::npos);
  check_console(dir / "summary.html");
  check_console(dir / "feedback" / "s05.html");
  const fs::path fb = dir / "feedback.pdf";
  print_pdf(dir / "feedback" / "s07.html", fb);
  check_nothing_past_the_edge(fb, letter_width);
  CHECK(squeezed(flow_text(fb)).find("<script>alert(1)</script>") != std::string::npos);
}

TEST_CASE("pdflatex compiles the LaTeX worksheet, key and class pack", "[browser][tex]") {
  if (!tools_present({"pdflatex", "pdfinfo", "pdftotext"})) return;
  const fs::path dir = scratch() / "tex";
  std::vector<Student> students = class_of_four;
  students.push_back({"s005", "Łukasz 李 <&>$#_^%~{}\\"});
  const Run made = run_attnmark(fmt::format("generate rubrics/all-tokens.yaml --seed 42 --roster {} --format tex --text-size large -o {}",
                                        quote(write_roster(students).string()), quote(dir.string())));
  REQUIRE(made.status == 0);
  // (The class pack and key are in the teacher's folder, apart from what is handed out.)
  const fs::path teacher = dir.string() + "-teacher";
  for (const fs::path& tex : {teacher / "class-pack.tex", teacher / "class-key.tex", dir / "s005.tex"}) {
    INFO(tex.string());
    const Run r = sh("cd " + quote(tex.parent_path().string()) + " && pdflatex -interaction=nonstopmode -halt-on-error " +
                     tex.filename().string());
    INFO(r.out.substr(r.out.size() > 3000 ? r.out.size() - 3000 : 0));
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Overfull \\hbox") == std::string::npos);
  }
  const fs::path pack = teacher / "class-pack.pdf";
  const int total = pages(pack), own = pages(dir / "s005.pdf");
  CHECK(total == 5 * own);  // every student's sheet has the same shape here
  const Rubric rubric = load_rubric_file(source_dir + "/rubrics/all-tokens.yaml");
  for (std::size_t i = 0; i < students.size(); ++i) {
    const std::string text = page_text(pack, static_cast<int>(i) * own + 1);
    INFO(text);
    CHECK(text.find("WORKSHEET") != std::string::npos);
    CHECK(text.find("Variant " + make_variant(rubric, 42, students[i].id).id_text()) != std::string::npos);
  }
  // Special characters are printed, not obeyed; 李 (pdflatex has no font for
  // it) as '?'. The name box breaks the name between its words.
  const std::string eve = squeezed(page_text(pack, 4 * own + 1));
  CHECK(eve.find("Łukasz?") != std::string::npos);
  CHECK(eve.find("<&>$#_^%~{}\\") != std::string::npos);
  check_nothing_past_the_edge(pack, a4_width);
}

// A roster's names in any script, as LuaLaTeX sets them with DejaVu, and as
// pdflatex, the fallback, sets what it can (Latin letters; '?' for others).
TEST_CASE("lualatex sets a roster's names in any script, and pdflatex sets the Latin ones", "[browser][tex]") {
  if (!tools_present({"lualatex", "pdflatex", "pdfinfo", "pdftotext"})) return;
  const fs::path dir = scratch() / "tex-names";
  const std::vector<Student> students = {{"s001", "Nguyễn Thị Ánh"},
                                         {"s002", "Σωκράτης Παπαδόπουλος"},
                                         {"s003", "Фёдор Достоевский"},
                                         {"s004", "Zoë Łukasz Dvořák"},
                                         {"s005", "Wolfeschlegelsteinhausenbergerdorff Константинопольская"}};
  const Run made = run_attnmark(fmt::format("generate rubrics/lesson.yaml --seed 2026 --roster {} --format tex -o {}",
                                            quote(write_roster(students).string()), quote(dir.string())));
  REQUIRE(made.status == 0);
  for (const char* engine : {"lualatex", "pdflatex"}) {
    INFO(engine);
    for (const Student& s : students) {
      INFO(s.name);
      const fs::path tex = dir / (s.id + ".tex");
      CHECK(read_file(tex.string(), 1 << 20).find("\\fitname{" + s.name + "}") != std::string::npos);  // verbatim in the .tex
      const Run r = sh("cd " + quote(dir.string()) + " && " + engine + " -interaction=nonstopmode -halt-on-error " +
                       tex.filename().string());
      INFO(r.out.substr(r.out.size() > 3000 ? r.out.size() - 3000 : 0));
      REQUIRE(r.status == 0);
      CHECK(r.out.find("Overfull \\hbox") == std::string::npos);
      // Word by word: the Name box may wrap a name between its words, and
      // pdftotext then reads the lines apart.
      const std::string text = flow_text(dir / (s.id + ".pdf"));
      const bool latin = s.id == "s004";
      if (std::string(engine) == "lualatex" || latin) {
        std::size_t words = 0;
        for (std::size_t at = 0; at < s.name.size();) {
          const std::size_t end = std::min(s.name.find(' ', at), s.name.size());
          CHECK(text.find(s.name.substr(at, end - at)) != std::string::npos);
          ++words;
          at = end + 1;
        }
        CHECK(words >= 2);
        if (s.id != "s005") CHECK(squeezed(text).find(squeezed(s.name)) != std::string::npos);
        CHECK(read_file((dir / (s.id + ".log")).string(), 1 << 24).find("Missing character") == std::string::npos);
      }
    }
    // The fallback: what pdflatex has no letters for prints as '?'.
    if (std::string(engine) == "pdflatex") CHECK(squeezed(flow_text(dir / "s001.pdf")).find("Nguy?nTh?Ánh") != std::string::npos);
  }
}
