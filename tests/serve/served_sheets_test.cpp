// Worksheets of a served class (generate --db --url): the student's code and
// the class page's address are printed, and the seed is not, in every
// format, since with the rubric the seed makes every classmate's key.
#include <nlohmann/json.hpp>

#include "support/serve_support.h"

namespace fs = std::filesystem;
using attnmark::read_file;

TEST_CASE("serve: a served class's worksheets print the access code and never the seed", "[serve]") {
  const fs::path dir = scratch() / "serve-sheets";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string seed = "987654321";
  const std::string db = (dir / "class.sqlite").string();
  const std::string roster = write_roster(dir, 2);
  {
    ServeProcess server("rubrics/lesson.yaml --seed " + seed + " --roster '" + roster + "' --db '" + db + "'", dir);
    REQUIRE(server.running());
  }
  const std::string code = code_of(db, "s001");
  REQUIRE(code.size() == 11);
  for (const std::string format : {"md", "html", "tex", "ipynb"}) {
    CAPTURE(format);
    const std::string served = (dir / ("served." + format)).string();
    const std::string plain = (dir / ("plain." + format)).string();
    Run r = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --student s001 --db '" + db +
                    "' --url http://class.example/ -o '" + served + "'");
    REQUIRE(r.status == 0);
    r = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --student s001 -o '" + plain + "'");
    REQUIRE(r.status == 0);
    // (LaTeX lets a long address break anywhere, and keeps "--" from becoming a dash.)
    const auto text = [&](const std::string& path) {
      std::string t = read_file(path, 1 << 22);
      if (format == "tex")
        for (const std::string mark : {"\\allowbreak{}", "{}"})
          for (std::size_t at; (at = t.find(mark)) != std::string::npos;) t.erase(at, mark.size());
      return t;
    };
    const std::string sheet = text(served), unserved = text(plain);
    CHECK(sheet.find(code) != std::string::npos);
    CHECK(sheet.find("http://class.example/") != std::string::npos);
    CHECK(sheet.find(seed) == std::string::npos);
    CHECK(unserved.find(seed) != std::string::npos);  // the same sheet, not served, says it
  }
  // The notebook's header records no seed, in its cell and its own metadata.
  const nlohmann::json nb = nlohmann::json::parse(read_file((dir / "served.ipynb").string(), 1 << 22));
  CHECK(nb["cells"][0]["metadata"]["attnmark"]["student"] == "s001");
  CHECK_FALSE(nb["cells"][0]["metadata"]["attnmark"].contains("seed"));
  CHECK_FALSE(nb["metadata"]["attnmark"].contains("seed"));
  // A JSON worksheet is the variant, seed and all.
  const Run json = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --student s001 --db '" + db +
                           "' --url http://class.example/ --format json");
  CHECK(json.status == 2);
  CHECK(json.err ==
        "attnmark: --db: a served class's worksheets are md, html, tex or ipynb; a JSON worksheet records the seed\n");
  CHECK(json.out.empty());
  // The teacher's key of a served class still records it.
  const Run key = run_cli("key rubrics/lesson.yaml --seed " + seed + " --student s001");
  CHECK(key.out.find("Seed: " + seed) != std::string::npos);
}

namespace {

// The answer file of `key` (key --format json) with every answer right, as
// `template` (whose header it keeps) lays out the file.
std::string right_answers(const std::string& header_of_template, const nlohmann::json& key) {
  std::string out;
  for (std::size_t at = 0; at < header_of_template.size();) {
    const std::size_t end = header_of_template.find('\n', at);
    const std::string line = header_of_template.substr(at, end - at);
    if (line.starts_with("answers:")) break;
    out += line + "\n";
    at = end + 1;
  }
  out += "answers:\n";
  for (const auto& q : key["questions"]) {
    out += "  " + q["id"].get<std::string>() + ":\n";
    for (const auto& [part, value] : q["answers"].items()) {
      std::string flow = value.dump();
      for (std::size_t at; (at = flow.find("null")) != std::string::npos;) flow.replace(at, 4, "masked");
      out += "    " + part + ": " + flow + "\n";
    }
  }
  return out;
}

}  // namespace

TEST_CASE("serve: a served class's hand-outs carry no seed, check offline against their own variant, and mark needs the class's seed", "[serve]") {
  const fs::path dir = scratch() / "serve-handouts";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string seed = "987654321012";
  const std::string db = (dir / "class.sqlite").string();
  const std::string roster = write_roster(dir, 2);
  {
    ServeProcess server("rubrics/class-demo.yaml --seed " + seed + " --roster '" + roster + "' --db '" + db + "'", dir);
    REQUIRE(server.running());
  }
  // Every format's hand-outs (worksheets, answer files, notebooks) hold no
  // seed and no other student's code; the teacher's folder, outside the
  // students', holds the keys (with the seed) and the class pack (every code).
  const std::string codes[] = {code_of(db, "s001"), code_of(db, "s002")};
  // A code is printed whole, or in LaTeX with its hyphen escaped: both its halves are there.
  const auto holds = [](const std::string& text, const std::string& code) {
    const std::size_t dash = code.find('-');
    return text.find(code.substr(0, dash)) != std::string::npos && text.find(code.substr(dash + 1)) != std::string::npos;
  };
  for (const std::string format : {"md", "html", "tex", "ipynb"}) {
    CAPTURE(format);
    const fs::path out = dir / format;
    const Run r = run_cli("generate rubrics/class-demo.yaml --seed " + seed + " --roster '" + roster + "' --db '" + db +
                          "' --url http://class.example/ --format " + format + " -o '" + out.string() + "'");
    REQUIRE(r.status == 0);
    CHECK(r.err.find(" to " + out.string() + " (hand these out); 2 keys, class-pack.html, ") != std::string::npos);
    CHECK(r.err.ends_with(" to " + out.string() + "-teacher (for the teacher only: keys and every student's access code)\n"));
    std::size_t handouts = 0;
    for (const auto& entry : fs::recursive_directory_iterator(out)) {
      if (!entry.is_regular_file()) continue;
      const std::string name = fs::relative(entry.path(), out).string();
      CAPTURE(name);
      const std::string text = read_file(entry.path().string(), 1 << 24);
      ++handouts;
      CHECK(text.find(seed) == std::string::npos);
      CHECK(text.find("seed:") == std::string::npos);
      // s001's files and s002's: a sheet holds its own student's code, never the other's.
      const std::size_t mine = name.starts_with("s001.") ? 0 : 1;
      CHECK(holds(text, codes[mine]) == !name.ends_with(".answers.yaml"));
      CHECK(!holds(text, codes[1 - mine]));
    }
    // Each student's sheet (and answer file).
    CHECK(handouts == (format == "ipynb" ? 2u : 4u));
    const std::string pack = read_file((dir / (format + "-teacher") / "class-pack.html").string(), 1 << 24);
    CHECK(holds(pack, codes[0]));
    CHECK(holds(pack, codes[1]));
    CHECK(read_file((dir / (format + "-teacher") / ("s001.key." + format)).string(), 1 << 24).find(seed) !=
          std::string::npos);
  }
  const nlohmann::json key = nlohmann::json::parse(
      run_cli("key rubrics/class-demo.yaml --seed " + seed + " --student s001 --format json").out);
  const std::string variant = key["variant"];
  const std::string header = "attnmark check: class-demo · student s001 · variant " + variant +
                             "\nmarked against the variant the file records, " + variant +
                             "; it records no seed, so only the class's page or the teacher can say whether that is "
                             "s001's own\n";
  // The offline check of the answer file and of the notebook: the student's own variant, said truthfully.
  const std::string answers = (dir / "md" / "s001.answers.yaml").string();
  // (Blank, so "no answers given; " comes first.)
  const std::string blank_header = "attnmark check: class-demo · student s001 · variant " + variant +
                                   "\nno answers given; marked against the variant the file records, " + variant +
                                   "; it records no seed, so only the class's page or the teacher can say whether that "
                                   "is s001's own\n";
  Run r = run_cli("check rubrics/class-demo.yaml '" + answers + "'");
  CHECK(r.status == 1);
  CHECK(r.out.starts_with(blank_header));
  r = run_cli("check rubrics/class-demo.yaml '" + (dir / "ipynb" / "s001.ipynb").string() + "'");
  CHECK(r.status == 1);
  CHECK(r.out.starts_with(blank_header));
  const fs::path subs = dir / "subs";
  fs::create_directories(subs);
  attnmark::write_file((subs / "s001.yaml").string(), right_answers(read_file(answers, 1 << 20), key));
  attnmark::write_file((subs / "s002.yaml").string(), read_file((dir / "md" / "s002.answers.yaml").string(), 1 << 20));
  r = run_cli("check rubrics/class-demo.yaml '" + (subs / "s001.yaml").string() + "'");
  CHECK(r.status == 0);
  CHECK(r.out.starts_with(header));
  CHECK(r.out.ends_with("Total: 15 / 15\n"));
  // mark without the class's seed: exit 2, nothing written; with it, marked.
  const fs::path reports = dir / "reports";
  r = run_cli("mark rubrics/class-demo.yaml '" + subs.string() + "' --out '" + reports.string() + "'");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + (subs / "s001.yaml").string() +
                     " and 1 more record a variant but no seed (a served class's files), and not one of those variants "
                     "is its student's with seed 2026: pass the class's --seed, or mark the served class with mark "
                     "--db CLASS.sqlite\n");
  CHECK_FALSE(fs::exists(reports));
  r = run_cli("mark rubrics/class-demo.yaml '" + subs.string() + "' --out '" + reports.string() + "' --seed " + seed);
  CHECK(r.status == 0);
  CHECK(read_file((reports / "gradebook.csv").string(), 1 << 20).find("s001,," + variant + ",graded,15,15,") !=
        std::string::npos);
}
