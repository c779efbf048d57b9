// attnmark generate, key and template (cli/generate.cpp), run as a user runs
// them: files written and where (the format from -o's name, nothing replaced
// without --force), seeds, HTML and LaTeX, and rosters (one output per
// student, keys apart, the same for any --jobs).
#include "support/test_support.h"

#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/files.h"
#include "attnmark/lesson/variant.h"
#include "writers/answer_template.h"
#include "writers/html_writer.h"
#include "writers/key_json.h"
#include "writers/latex_writer.h"
#include "writers/markdown_writer.h"
#include "writers/sheet_document.h"
#include "writers/theme.h"

using namespace attnmark;
namespace fs = std::filesystem;

namespace {

// Every file under a folder, by its path inside ("keys/class-key.html"), with its bytes.
std::map<std::string, std::string> folder(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) files[fs::relative(entry.path(), dir).string()] = read_file(entry.path().string(), 1 << 26);
  return files;
}

// The names of the files and folders in `dir`, sorted.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("writing with -o creates the file and says where") {
  const auto path = scratch() / "sub" / "w.md";
  std::filesystem::remove_all(path.parent_path());
  const Run r = run_cli("generate rubrics/lesson.yaml --student s001 -o '" + path.string() + "'");
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(r.err == "attnmark: wrote worksheet to " + path.string() + "\n");
  CHECK(attnmark::read_file(path.string(), 1 << 20).rfind("# How attention works in a transformer: worksheet\n", 0) == 0);
}

TEST_CASE("a rubric without a seed gets a fresh one that is printed") {
  const Run r = run_cli("template rubrics/one-token.yaml --student s1");
  CHECK(r.status == 0);
  CHECK(r.err.rfind("attnmark: rubrics/one-token.yaml has no seed: and no --seed was given; using --seed ", 0) == 0);
  const std::string seed = r.err.substr(r.err.rfind(' ') + 1, r.err.size() - r.err.rfind(' ') - 2);
  CHECK(r.out.find("seed: " + seed + "\n") != std::string::npos);
  // The printed seed reproduces the output.
  const Run again = run_cli("template rubrics/one-token.yaml --student s1 --seed " + seed);
  CHECK(again.out == r.out);
}

TEST_CASE("generate --format html and tex write one self-contained file") {
  const Run html = run_cli("generate rubrics/lesson.yaml --seed 2026 --student s001 --format html");
  REQUIRE(html.status == 0);
  const Rubric rubric = shipped("lesson");
  const Variant v = make_variant(rubric, 2026, "s001");
  CHECK(html.out == sheet_html(sheet_document(rubric, v, Sheet::worksheet), "", {}));
  const Run key = run_cli("key rubrics/lesson.yaml --seed 2026 --student s001 --format html --theme tint --text-size x-large");
  REQUIRE(key.status == 0);
  CHECK(key.out == sheet_html(sheet_document(rubric, v, Sheet::key), "", {Theme::tint, TextSize::x_large}));
  const Run tex = run_cli("key rubrics/lesson.yaml --seed 2026 --student s001 --format tex");
  REQUIRE(tex.status == 0);
  CHECK(tex.out == sheet_latex({sheet_document(rubric, v, Sheet::key)}, TextSize::normal));
  const Run bad = run_cli("generate rubrics/lesson.yaml --format jsonl");
  CHECK(bad.status == 2);
  CHECK(bad.err == "attnmark: --format: expected md, json, html, tex or ipynb; got 'jsonl'\n");
  const Run bad_key = run_cli("key rubrics/lesson.yaml --format pdf");
  CHECK(bad_key.err == "attnmark: --format: expected md, json, jsonl, html, tex or ipynb; got 'pdf'\n");
}

TEST_CASE("generate --roster writes a class ready to hand out, the same for any --jobs", "[threads]") {
  const fs::path dir = scratch() / "roster";
  fs::create_directories(dir);
  write_file((dir / "roster.csv").string(),
             "\xEF\xBB\xBFStudent,Name,Email\r\ns001,\"Lovelace, Ada\",a@x\r\ns002,<script>alert(1)</script>,b@x\r\n"
             "../../etc/x,Eve,e@x\r\nS001,Grace Hopper,g@x\r\nclass-pack,Sneaky,s@x\r\n");
  const std::string roster = (dir / "roster.csv").string();
  const Run one = run_cli(fmt::format("generate rubrics/one-token.yaml --seed 5 --roster '{}' --format html -o '{}' --jobs 1",
                                      roster, (dir / "one").string()));
  REQUIRE(one.status == 0);
  CHECK(one.err == fmt::format("attnmark: wrote 5 worksheets and answer files to {0} (hand these out); "
                               "5 keys, class-pack.html, class-key.html to {0}-teacher (for the teacher only: keys "
                               "and every student's sheet)\n",
                               (dir / "one").string()));
  const Run four = run_cli(fmt::format("generate rubrics/one-token.yaml --seed 5 --roster '{}' --format html -o '{}' --jobs 4",
                                       roster, (dir / "four").string()));
  REQUIRE(four.status == 0);
  auto files = folder(dir / "one");
  CHECK(files == folder(dir / "four"));
  CHECK(folder(dir / "one-teacher") == folder(dir / "four-teacher"));
  std::vector<std::string> names;
  for (const auto& [name, bytes] : files) names.push_back(name);
  // What is handed to students; apart from it, in the teacher's folder, the keys and the class pack.
  CHECK(names == std::vector<std::string>{"S001-2.answers.yaml", "S001-2.html", "_._.._etc_x.answers.yaml",
                                          "_._.._etc_x.html", "class-pack-2.answers.yaml", "class-pack-2.html",
                                          "s001.answers.yaml", "s001.html", "s002.answers.yaml", "s002.html"});
  names.clear();
  for (const auto& [name, bytes] : folder(dir / "one-teacher")) {
    names.push_back(name);
    files["teacher/" + name] = bytes;
  }
  CHECK(names == std::vector<std::string>{"S001-2.key.html", "_._.._etc_x.key.html", "class-key.html",
                                          "class-pack-2.key.html", "class-pack.html", "s001.key.html",
                                          "s002.key.html"});
  CHECK(!fs::exists(scratch() / "etc"));
  CHECK(!fs::exists(dir / "etc"));

  const Rubric rubric = shipped("one-token");
  const Variant ada = make_variant(rubric, 5, "s001");
  CHECK(files.at("s001.html") == sheet_html(sheet_document(rubric, ada, Sheet::worksheet, "Lovelace, Ada"), "Lovelace, Ada", {}));
  CHECK(files.at("s001.answers.yaml") == render_answer_template(rubric, ada));
  CHECK(files.at("teacher/s001.key.html") == sheet_html(sheet_document(rubric, ada, Sheet::key, "Lovelace, Ada"), "Lovelace, Ada", {}));
  CHECK(count(files.at("s002.html"), "&lt;script&gt;alert(1)&lt;/script&gt;") == 1);
  CHECK(count(files.at("s002.html"), "<script") == 0);
  const std::string& pack = files.at("teacher/class-pack.html");
  CHECK(count(pack, "<article class=\"sheet worksheet\">") == 5);
  CHECK(count(pack, "<script") == 0);
  CHECK(count(pack, sheet_article(sheet_document(rubric, ada, Sheet::worksheet), "Lovelace, Ada")) == 1);
  const std::string& key = files.at("teacher/class-key.html");
  CHECK(count(key, "<article class=\"sheet key\">") == 5);
  CHECK(count(key, sheet_article(sheet_document(rubric, ada, Sheet::key), "Lovelace, Ada")) == 1);
  // Students stay in roster order.
  CHECK(pack.find("Lovelace, Ada") < pack.find("Grace Hopper"));
}

TEST_CASE("key and template with a roster, in every format") {
  const fs::path dir = scratch() / "roster-formats";
  fs::create_directories(dir);
  const std::string roster = (dir / "roster.csv").string();
  write_file(roster, "student,name\na,Ann\nb,Bob\n");
  const Run key = run_cli(fmt::format("key rubrics/lesson.yaml --roster '{}' --format tex -o '{}'", roster, (dir / "k").string()));
  REQUIRE(key.status == 0);
  std::vector<std::string> names;
  for (const auto& [name, bytes] : folder(dir / "k")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"a.key.tex", "b.key.tex", "class-key.html", "class-key.tex"});
  const Run md = run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}' -o '{}'", roster, (dir / "m").string()));
  REQUIRE(md.status == 0);
  const Rubric rubric = shipped("lesson");
  // The roster's name is printed on each student's Markdown sheet and key.
  const Variant bob = make_variant(rubric, 2026, "b");
  const std::string bob_md = read_file((dir / "m" / "b.md").string(), 1 << 20);
  CHECK(bob_md == render_markdown(sheet_document(rubric, bob, Sheet::worksheet, "Bob")));
  CHECK(bob_md.find("Name: Bob · Student: b · ") != std::string::npos);
  CHECK(read_file((dir / "m-teacher" / "b.key.md").string(), 1 << 20) ==
        render_markdown(sheet_document(rubric, bob, Sheet::key, "Bob")));
  names.clear();
  for (const auto& [name, bytes] : folder(dir / "m")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"a.answers.yaml", "a.md", "b.answers.yaml", "b.md"});
  names.clear();
  for (const auto& [name, bytes] : folder(dir / "m-teacher")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"a.key.md", "b.key.md", "class-key.html", "class-pack.html"});
  const Run tex = run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}' --format tex -o '{}'", roster,
                                      (dir / "g").string()));
  REQUIRE(tex.status == 0);
  CHECK(tex.err == fmt::format("attnmark: wrote 2 worksheets and answer files to {0} (hand these out); 2 keys, "
                               "class-pack.html, class-pack.tex, class-key.html, class-key.tex to {0}-teacher (for the "
                               "teacher only: keys and every student's sheet)\n", (dir / "g").string()));
  names.clear();
  for (const auto& [name, bytes] : folder(dir / "g")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"a.answers.yaml", "a.tex", "b.answers.yaml", "b.tex"});
  names.clear();
  for (const auto& [name, bytes] : folder(dir / "g-teacher")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"a.key.tex", "b.key.tex", "class-key.html", "class-key.tex",
                                          "class-pack.html", "class-pack.tex"});
  const Run tpl = run_cli(fmt::format("template rubrics/lesson.yaml --roster '{}' -o '{}'", roster, (dir / "t").string()));
  REQUIRE(tpl.status == 0);
  names.clear();
  for (const auto& [name, bytes] : folder(dir / "t")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"a.answers.yaml", "b.answers.yaml"});
  CHECK(tpl.err == fmt::format("attnmark: wrote 2 answer files to {}\n", (dir / "t").string()));
  const Run no_dir = run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}'", roster));
  CHECK(no_dir.status == 2);
  CHECK(no_dir.err == "attnmark: --roster: give -o DIR, the folder for one file per student (or, for key, --format jsonl)\n");
  write_file((dir / "bad.csv").string(), "student,name\na,Ann\na,Again\n");
  const Run bad = run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}' -o '{}'", (dir / "bad.csv").string(),
                                      (dir / "x").string()));
  CHECK(bad.status == 2);
  CHECK(bad.err == fmt::format("attnmark: {}:3: student 'a' is listed twice (first on line 2)\n", (dir / "bad.csv").string()));
}

TEST_CASE("key --roster --format jsonl: one compact key per line, the same for any --jobs", "[threads]") {
  const fs::path dir = scratch() / "jsonl";
  fs::create_directories(dir);
  const std::string roster = (dir / "roster.csv").string();
  std::string text = "student,name\n";
  for (int i = 0; i < 40; ++i) text += fmt::format("s{:03},Student {}\n", i, i);
  write_file(roster, text);
  const Run one = run_cli(fmt::format("key rubrics/all-tokens.yaml --seed 42 --roster '{}' --format jsonl --jobs 1", roster));
  const Run many = run_cli(fmt::format("key rubrics/all-tokens.yaml --seed 42 --roster '{}' --format jsonl --jobs 7", roster));
  REQUIRE(one.status == 0);
  CHECK(one.out == many.out);
  CHECK(count(one.out, "\n") == 40);
  const Rubric rubric = shipped("all-tokens");
  std::size_t start = 0;
  for (int i = 0; i < 40; ++i) {
    const std::size_t end = one.out.find('\n', start);
    const std::string line = one.out.substr(start, end - start);
    start = end + 1;
    const Variant v = make_variant(rubric, 42, fmt::format("s{:03}", i));
    CHECK(nlohmann::json::parse(line) == nlohmann::json::parse(render_json(v, Sheet::key)));
    CHECK(count(line, "\n") == 0);
    CHECK(count(line, ": ") == 0);  // compact
  }
  const Run file = run_cli(fmt::format("key rubrics/all-tokens.yaml --seed 42 --roster '{}' --format jsonl -o '{}'", roster,
                                       (dir / "keys.jsonl").string()));
  REQUIRE(file.status == 0);
  CHECK(read_file((dir / "keys.jsonl").string(), 1 << 24) == one.out);
}

TEST_CASE("a roster or --student that is not UTF-8, or holds a control character, is an error: exit 2, nothing left behind") {
  const fs::path dir = scratch() / "roster-latin1";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string roster = (dir / "roster.csv").string();
  write_file(roster, "student,name\ns001,Jos\xE9\n");
  const std::string message = fmt::format("attnmark: {}:2: not UTF-8 text (byte 0xE9 at line 2); save the roster as UTF-8\n", roster);
  for (const std::string& args : {fmt::format("key rubrics/lesson.yaml --roster '{}' --format jsonl", roster),
                                  fmt::format("generate rubrics/lesson.yaml --roster '{}' --format json -o '{}'", roster,
                                              (dir / "out").string()),
                                  fmt::format("generate rubrics/lesson.yaml --roster '{}' -o '{}'", roster,
                                              (dir / "out").string())}) {
    INFO(args);
    const Run r = run_cli(args);
    CHECK(r.status == 2);
    CHECK(r.err == message);
    CHECK(r.out.empty());
  }
  CHECK(listing(dir) == std::vector<std::string>{"roster.csv 23"});
  write_file(roster, "student\nevil\xE2\x80\xAEtxt\n");
  const Run bidi = run_cli(fmt::format("template rubrics/lesson.yaml --roster '{}' -o '{}'", roster, (dir / "out").string()));
  CHECK(bidi.status == 2);
  CHECK(bidi.err == fmt::format("attnmark: {}:2: student id 'evil\\u202Etxt' contains a control character (U+202E); "
                                "remove it from the roster\n", roster));
  const Run latin1 = run_cli("generate rubrics/lesson.yaml --student \"$(printf '\\351')\" --format json");
  CHECK(latin1.status == 2);
  CHECK(latin1.err == "attnmark: --student: '\\xE9' is not UTF-8 text (byte 0xE9)\n");
  const Run c1 = run_cli("key rubrics/lesson.yaml --student \"$(printf 'x\\302\\205')\" --format json");
  CHECK(c1.status == 2);
  CHECK(c1.err == "attnmark: --student: 'x\\u0085' contains a control character (U+0085)\n");
  const Run esc = run_cli("template rubrics/lesson.yaml --student \"$(printf '\\033[2J')\"");
  CHECK(esc.status == 2);
  CHECK(esc.err == "attnmark: --student: '\\x1B[2J' contains a control character (U+001B)\n");
}

TEST_CASE("the id of --student is trimmed as answer files' ids are, so the template reads back as the same student") {
  const Run spaced = run_cli("template rubrics/lesson.yaml --student ' s001 '");
  const Run plain = run_cli("template rubrics/lesson.yaml --student s001");
  REQUIRE(plain.status == 0);
  CHECK(spaced.out == plain.out);
}

TEST_CASE("the format is taken from -o's name when --format is not given") {
  const fs::path dir = scratch() / "format-from-name";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"ws.md", "md"}, {"ws.markdown", "md"}, {"ws.json", "json"}, {"ws.html", "html"},
      {"WS.HTM", "html"}, {"ws.tex", "tex"}, {"ws", "md"}};
  for (const auto& [name, format] : cases) {
    INFO(name);
    const std::string path = (dir / name).string();
    const Run r = run_cli(fmt::format("generate rubrics/lesson.yaml --student s001 -o '{}'", path));
    REQUIRE(r.status == 0);
    CHECK(read_file(path, 1 << 24) == run_cli("generate rubrics/lesson.yaml --student s001 --format " + format).out);
  }
  const Run jsonl = run_cli(fmt::format("key rubrics/lesson.yaml --student s001 -o '{}'", (dir / "k.jsonl").string()));
  REQUIRE(jsonl.status == 0);
  CHECK(read_file((dir / "k.jsonl").string(), 1 << 24) ==
        run_cli("key rubrics/lesson.yaml --student s001 --format jsonl").out);
  // --format and a name that names no format agree; a name for another format does not.
  const Run txt = run_cli(fmt::format("generate rubrics/lesson.yaml --format html -o '{}'", (dir / "ws.txt").string()));
  CHECK(txt.status == 0);
  const std::string html = (dir / "contradiction.html").string();
  const Run contradiction = run_cli(fmt::format("generate rubrics/lesson.yaml --format md -o '{}'", html));
  CHECK(contradiction.status == 2);
  CHECK(contradiction.err == fmt::format("attnmark: --format md does not match -o '{}', a name for html; "
                                         "leave out --format or rename the file\n", html));
  CHECK(!fs::exists(html));
  const std::string pdf = (dir / "ws.pdf").string();
  const Run unknown = run_cli(fmt::format("generate rubrics/lesson.yaml -o '{}'", pdf));
  CHECK(unknown.status == 2);
  CHECK(unknown.err == fmt::format("attnmark: -o: cannot tell the format from the name '{}'; "
                                   "name the file .md, .json, .html, .tex or .ipynb, or give --format\n", pdf));
  const Run key_unknown = run_cli(fmt::format("key rubrics/lesson.yaml -o '{}'", pdf));
  CHECK(key_unknown.err == fmt::format("attnmark: -o: cannot tell the format from the name '{}'; "
                                       "name the file .md, .json, .jsonl, .html, .tex or .ipynb, or give --format\n", pdf));
  CHECK(!fs::exists(pdf));
  // With --roster, -o is a folder whatever its name, but a key's .jsonl is one key per line.
  const std::string roster = (dir / "roster.csv").string();
  write_file(roster, "student\na\nb\n");
  const Run folder_named = run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}' -o '{}'", roster,
                                               (dir / "class.html").string()));
  CHECK(folder_named.status == 0);
  CHECK(fs::exists(dir / "class.html" / "a.md"));
  const Run lines = run_cli(fmt::format("key rubrics/lesson.yaml --roster '{}' -o '{}'", roster, (dir / "keys.jsonl").string()));
  CHECK(lines.status == 0);
  CHECK(read_file((dir / "keys.jsonl").string(), 1 << 24) ==
        run_cli(fmt::format("key rubrics/lesson.yaml --roster '{}' --format jsonl", roster)).out);
}

TEST_CASE("generate, key and template replace nothing without --force") {
  const fs::path dir = scratch() / "force";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "ws.md").string();
  write_file(path, "the teacher's own notes\n");
  for (const char* command : {"generate", "key", "template"}) {
    INFO(command);
    const Run r = run_cli(fmt::format("{} rubrics/lesson.yaml -o '{}'", command, path));
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err == fmt::format("attnmark: {}: already exists; pass --force to replace it\n", path));
    CHECK(read_file(path, 1 << 20) == "the teacher's own notes\n");
  }
  const Run forced = run_cli(fmt::format("generate rubrics/lesson.yaml -o '{}' --force", path));
  CHECK(forced.status == 0);
  CHECK(read_file(path, 1 << 20) == run_cli("generate rubrics/lesson.yaml").out);
  const Run folder_named = run_cli(fmt::format("generate rubrics/lesson.yaml -o '{}' --force", dir.string()));
  CHECK(folder_named.status == 2);
  CHECK(folder_named.err == fmt::format("attnmark: {}: is a folder; -o takes a file name here\n", dir.string()));

  // A roster's folder: refused before anything is written when it holds a file the run would write.
  const std::string roster = (dir / "roster.csv").string();
  write_file(roster, "student\na\nb\n");
  const std::string out = (dir / "class").string();
  REQUIRE(run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}' -o '{}'", roster, out)).status == 0);
  write_file((dir / "class" / "b.md").string(), "edited\n");
  fs::remove(dir / "class" / "a.md");
  const std::vector<std::string> before = listing(dir / "class");
  const Run again = run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}' -o '{}'", roster, out));
  CHECK(again.status == 2);
  CHECK(again.err == fmt::format("attnmark: {}: already holds 'a.answers.yaml'; pass --force to replace it, "
                                 "or choose another -o\n", out));
  CHECK(listing(dir / "class") == before);
  const Run replaced = run_cli(fmt::format("generate rubrics/lesson.yaml --roster '{}' -o '{}' --force", roster, out));
  CHECK(replaced.status == 0);
  CHECK(fs::exists(dir / "class" / "a.md"));
  CHECK(read_file((dir / "class" / "b.md").string(), 1 << 20) != "edited\n");
  // An empty folder that exists is filled.
  fs::create_directories(dir / "empty");
  CHECK(run_cli(fmt::format("template rubrics/lesson.yaml --roster '{}' -o '{}'", roster, (dir / "empty").string())).status == 0);
  CHECK(listing(dir / "empty") == std::vector<std::string>{"a.answers.yaml 813", "b.answers.yaml 813"});
}

TEST_CASE("generate --roster -o class/ with a trailing slash writes the folder class") {
  const fs::path dir = scratch() / "trailing-slash";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string roster = (dir / "roster.csv").string();
  write_file(roster, "student,name\ns001,Ada\ns002,Alan\n");
  const Run r = run_cli(fmt::format("generate rubrics/one-token.yaml --seed 5 --roster '{}' --format html -o '{}/class/'",
                                    roster, dir.string()));
  CHECK(r.status == 0);
  CHECK(r.err == fmt::format("attnmark: wrote 2 worksheets and answer files to {0}/class/ (hand these out); 2 keys, "
                             "class-pack.html, class-key.html to {0}/class-teacher (for the teacher only: keys and "
                             "every student's sheet)\n", dir.string()));
  std::vector<std::string> names;
  for (const auto& [name, bytes] : folder(dir / "class")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"s001.answers.yaml", "s001.html", "s002.answers.yaml", "s002.html"});
  names.clear();
  for (const auto& [name, bytes] : folder(dir / "class-teacher")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"class-key.html", "class-pack.html", "s001.key.html", "s002.key.html"});
  const Run keys = run_cli(fmt::format("key rubrics/one-token.yaml --seed 5 --roster '{}' -o '{}/keys//'", roster, dir.string()));
  CHECK(keys.status == 0);
  CHECK(keys.err == fmt::format("attnmark: wrote 2 keys, class-key.html to {}/keys//\n", dir.string()));
  CHECK(listing(dir / "keys").size() == 3);
}

TEST_CASE("generate --roster keeps the teacher's files out of the folder handed to students") {
  const fs::path dir = scratch() / "teacher-apart";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string roster = (dir / "roster.csv").string();
  write_file(roster, "student,name\ns001,Ada\ns002,Alan\n");
  const std::string generate = "generate rubrics/one-token.yaml --seed 5 --roster '" + roster + "' ";

  // A teacher's folder of one's own choosing.
  const Run chosen = run_cli(generate + fmt::format("-o '{0}/nb' --format ipynb --teacher-out '{0}/mine'", dir.string()));
  REQUIRE(chosen.status == 0);
  CHECK(chosen.err == fmt::format("attnmark: wrote 2 notebooks to {0}/nb (hand these out); 2 keys, class-pack.html, "
                                  "class-key.html to {0}/mine (for the teacher only: keys and every student's sheet)\n",
                                  dir.string()));
  CHECK(names_in(dir / "nb") == std::vector<std::string>{"s001.ipynb", "s002.ipynb"});
  CHECK(names_in(dir / "mine") ==
        std::vector<std::string>{"class-key.html", "class-pack.html", "s001.key.ipynb", "s002.key.ipynb"});
  CHECK((fs::status(dir / "mine").permissions() & fs::perms::all) == fs::perms::owner_all);

  // Neither folder inside the other; nothing is written.
  for (const std::string& teacher : {dir.string() + "/out/keys", dir.string() + "/out", dir.string()}) {
    CAPTURE(teacher);
    const Run inside = run_cli(generate + fmt::format("-o '{}/out' --teacher-out '{}'", dir.string(), teacher));
    CHECK(inside.status == 2);
    CHECK(inside.err == fmt::format("attnmark: --teacher-out: '{}' and -o '{}/out' must be apart, neither inside the "
                                    "other: the students' folder is handed out, the teacher's holds the keys\n",
                                    teacher, dir.string()));
    CHECK(!fs::exists(dir / "out"));
  }
  // A students' folder of an earlier attnmark, with the keys inside it.
  fs::create_directories(dir / "old" / "keys");
  const Run old = run_cli(generate + fmt::format("-o '{}/old' --force", dir.string()));
  CHECK(old.status == 2);
  CHECK(old.err == fmt::format("attnmark: {0}/old: holds 'keys', which is for the teacher only and would be handed "
                               "out with the worksheets; move it to '{0}/old-teacher' (or remove it), then run again\n",
                               dir.string()));
  CHECK(names_in(dir / "old") == std::vector<std::string>{"keys"});
  // Only a roster has a teacher's folder.
  const Run alone = run_cli("generate rubrics/one-token.yaml --student s001 --teacher-out t");
  CHECK(alone.status == 2);
  CHECK(alone.err == "attnmark: --teacher-out: give --roster too; the teacher's folder holds the keys of a roster's students\n");
  // The teacher's folder refuses to be overwritten, as -o does.
  const Run again = run_cli(generate + fmt::format("-o '{0}/nb2' --format ipynb --teacher-out '{0}/mine'", dir.string()));
  CHECK(again.status == 2);
  CHECK(again.err == fmt::format("attnmark: {}/mine: already holds 's001.key.ipynb'; pass --force to replace it, or "
                                 "choose another --teacher-out\n", dir.string()));
  CHECK(!fs::exists(dir / "nb2"));
}
