// attnmark autograde (cli/autograde.cpp): Gradescope's and PrairieLearn's
// results.json from fake roots, the answer file chosen from what was handed
// in, the student id (from Gradescope's metadata through the roster), the
// demo class marked alike by mark and by each autograder, the Gradescope zip,
// and the static program both packs ship, run as their images run it.
#include "support/test_support.h"
#include "support/revealing_rubric.h"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "base/files.h"
#include "readers/answer_reader.h"
#include "readers/elf_linkage.h"
#include "writers/report_words.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string demo = "rubrics/class-demo.yaml";

std::string fixture(const std::string& name) {
  return attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/fixtures/class/answers/" + name, 1 << 20);
}

// A fresh fake root: files handed in (name → bytes) under `folder`, and
// Gradescope's metadata when `metadata` is not empty.
fs::path fake_root(const std::string& name, const std::string& folder,
                   const std::vector<std::pair<std::string, std::string>>& files, const std::string& metadata = "") {
  const fs::path root = scratch() / ("autograde-" + name);
  fs::remove_all(root);
  fs::create_directories(root / folder);
  for (const auto& [file, bytes] : files) attnmark::write_file((root / folder / file).string(), bytes);
  if (!metadata.empty()) attnmark::write_file((root / "submission_metadata.json").string(), metadata);
  return root;
}

std::string metadata_for(const std::string& sid, const std::string& email = "student@example.org") {
  return R"({"id": 123, "created_at": "2026-03-02T09:17:00.000000-08:00", "assignment": {"title": "Attention"},
             "users": [{"email": ")" + email + R"(", "id": 4567, "name": "A Student", "sid": )" +
         (sid.empty() ? std::string("null") : "\"" + sid + "\"") + "}]}";
}

// Gradescope's metadata as it comes for a student without a Student ID in
// Gradescope's roster: email, id (Gradescope's own number) and name.
std::string metadata_without_sid(const std::string& email, int id = 4567) {
  return R"({"id": 123, "users": [{"email": ")" + email + R"(", "id": )" + std::to_string(id) +
         R"(, "name": "Anh Nguyen", "sid": null}]})";
}

// The class roster of the roster tests: s04's email, a shared email, and
// Gradescope's user ids in the column autograde looks for them in.
std::string roster_file() {
  const fs::path path = scratch() / "autograde-roster.csv";
  attnmark::write_file(path.string(), "student,name,email,gradescope id\n"
                                      "s04,Anh Nguyen,anh@example.org,4567\n"
                                      "s05,Ben Ode,twins@example.org,5555\n"
                                      "s06,Bea Ode,twins@example.org,6666\n");
  return path.string();
}

// A file that is an x86-64 ELF program with no program headers: static as
// far as the pack's check goes (a real one is the pack test's).
std::string fake_static_program() {
  std::string elf(64, '\0');
  elf.replace(0, 4, "\x7f" "ELF");
  elf[4] = 2;    // ELFCLASS64
  elf[5] = 1;    // little-endian
  elf[6] = 1;    // EV_CURRENT
  elf[16] = 2;   // ET_EXEC
  elf[18] = 62;  // EM_X86_64
  elf[54] = 56;  // e_phentsize; e_phnum 0
  const fs::path path = scratch() / "fake-static-attnmark";
  attnmark::write_file(path.string(), elf);
  return path.string();
}

json results(const fs::path& root) {
  return json::parse(attnmark::read_file((root / "results" / "results.json").string(), 1 << 21));
}

Run gradescope(const fs::path& root, const std::string& extra = "") {
  return run_cli("autograde gradescope " + demo + " --root '" + root.string() + "'" + extra);
}

Run prairielearn(const fs::path& root, const std::string& extra = "") {
  return run_cli("autograde prairielearn " + demo + " --root '" + root.string() + "'" + extra);
}

}  // namespace

TEST_CASE("autograde gradescope: score, the check table without answers, and a test per part") {
  const fs::path root = fake_root("gs-s04", "submission", {{"answers.yaml", fixture("s04.yaml")}}, metadata_for("s04"));
  const Run r = gradescope(root);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err == "attnmark: wrote " + (root / "results" / "results.json").string() +
                     ": 13.67 / 15 (graded, answers.yaml)\n");
  const json j = results(root);
  CHECK(j["score"] == 13.67);
  CHECK(j["output_format"] == "text");
  CHECK(j["visibility"] == "visible");
  CHECK(j["extra_data"] == json({{"student", "s04"}, {"variant", "f7c99591969029ee"}, {"status", "graded"}}));
  // The output is what `check` prints for the same file, and shows no answers.
  const Run check = run_cli("check " + demo + " --answers fixtures/class/answers/s04.yaml");
  CHECK(j["output"] == check.out);
  CHECK(r.out == check.out);
  CHECK(j["output"].get<std::string>().find("Total: 13.67 / 15\n") != std::string::npos);
  const Run revealed = run_cli("check '" + revealing_rubric("class-demo") + "' --answers fixtures/class/answers/s04.yaml --reveal");
  CHECK(revealed.out.find("✗(") != std::string::npos);
  CHECK(j["output"].get<std::string>().find("✗(") == std::string::npos);
  const json& tests = j["tests"];
  REQUIRE(tests.size() == 7);
  std::vector<std::string> names;
  for (const json& t : tests) names.push_back(t["number"].get<std::string>() + " " + t["name"].get<std::string>());
  CHECK(names == std::vector<std::string>{"1.1 q1 scores", "1.2 q1 weights", "1.3 q1 output", "2.1 q2 scores",
                                          "2.2 q2 weights", "2.3 q2 output", "2.4 q2 most attended"});
  CHECK(tests[1] == json({{"name", "q1 weights"},
                          {"number", "1.2"},
                          {"score", 0.67},
                          {"max_score", 2.0},
                          {"status", "failed"},
                          {"output", "✗ ✗ ✓\n"
                                     "hint: Your working first goes wrong at weights · ran: you wrote -1, which is not e to the power of the score, "
                                     "divided by the total of e to the power of every score.\n"
                                     "hint: Softmax takes e to the power of each score before dividing by the "
                                     "total; dividing the scores themselves skips that step.\n"}}));
  CHECK(tests[2]["status"] == "passed");
  CHECK(tests[2]["output"] ==
        "✓* ✓*\nhint: Your working first goes wrong at weights · ran: you wrote -1, which is not e to the power of "
        "the score, divided by the total of e to the power of every score.\nhint: correct method, carried from your "
        "weights\n");
  CHECK(tests[3]["output"] == "is: ✓ ✓ ✓\non: ✓ ✓ ✓\nlate: ✓ ✓ ✓\n");
}

TEST_CASE("autograde gradescope: the student id from the metadata, and a file that names someone else") {
  // Metadata without an sid: the email is the id.
  fs::path root = fake_root("gs-email", "submission", {{"a.yaml", "answers: {q1: {scores: [1, 2, 3]}}\n"}},
                            metadata_for("", "ada@example.org"));
  REQUIRE(gradescope(root).status == 0);
  CHECK(results(root)["extra_data"]["student"] == "ada@example.org");
  // s01's file handed in by s27: marked as s27's, so a wrong variant, and said so.
  root = fake_root("gs-other", "submission", {{"s01.yaml", fixture("s01.yaml")}}, metadata_for("s27"));
  REQUIRE(gradescope(root).status == 0);
  json j = results(root);
  CHECK(j["extra_data"]["status"] == "wrong-variant");
  CHECK(j["score"] == 6.22);
  CHECK(j["output"].get<std::string>().rfind(
            "Your file says student 's01', but Gradescope says 's27' handed it in; marked as 's27'.\n\n", 0) == 0);
  // The same id in other capitals, the file made for it: marked as the file's id.
  root = fake_root("gs-case", "submission", {{"s04.yaml", fixture("s04.yaml")}}, metadata_for("S04"));
  REQUIRE(gradescope(root).status == 0);
  j = results(root);
  CHECK(j["score"] == 13.67);
  CHECK(j["output"].get<std::string>().rfind("Your file says student 's04', which Gradescope writes 'S04'; marked as "
                                             "'s04', the id your worksheet was made for.\n\n",
                                             0) == 0);
  // No metadata at all (a teacher trying it by hand): the file's id.
  root = fake_root("gs-none", "submission", {{"s04.yaml", fixture("s04.yaml")}});
  const Run r = gradescope(root);
  CHECK(r.status == 0);
  CHECK(r.err.find("submission_metadata.json: cannot open") != std::string::npos);
  CHECK(results(root)["score"] == 13.67);
}

TEST_CASE("autograde gradescope: an unreadable file is a visible 0 with the reason") {
  const fs::path root = fake_root("gs-docx", "submission", {{"s24.docx", fixture("s24.docx")}}, metadata_for("s24"));
  const Run r = gradescope(root);
  REQUIRE(r.status == 0);
  const json j = results(root);
  CHECK(j["score"] == 0.0);
  CHECK(j["visibility"] == "visible");
  CHECK(j["output"] ==
        "attnmark: class-demo · student s24\n"
        "s24.docx: binary file (contains NUL bytes)\n"
        "Not marked (unreadable). Score 0 / 15. Correct the file and submit it again.\n");
  REQUIRE(j["tests"].size() == 7);
  for (const json& t : j["tests"]) {
    CHECK(t["score"] == 0.0);
    CHECK(t["status"] == "failed");
  }
  CHECK(j["tests"][6]["max_score"] == 1.0);
}

TEST_CASE("autograde: which file is the answer file when several are handed in") {
  const std::string meta = metadata_for("s04");
  // One answer file among others: marked, the others named.
  fs::path root = fake_root("pick-one", "submission",
                            {{"s04.yaml", fixture("s04.yaml")}, {"worksheet.pdf", "%PDF-1.4"}, {".DS_Store", "x"}}, meta);
  REQUIRE(gradescope(root).status == 0);
  json j = results(root);
  CHECK(j["score"] == 13.67);
  CHECK(j["output"].get<std::string>().rfind(
            "Marked 's04.yaml', the one answer file handed in; not marked: 'worksheet.pdf'.\n\n", 0) == 0);
  // Two answer files, one for another rubric: the one for this rubric.
  root = fake_root("pick-rubric", "submission", {{"s04.yaml", fixture("s04.yaml")}, {"s28.yaml", fixture("s28.yaml")}},
                   meta);
  REQUIRE(gradescope(root).status == 0);
  j = results(root);
  CHECK(j["score"] == 13.67);
  CHECK(j["output"].get<std::string>().rfind("Marked 's04.yaml', the one file handed in that holds answers for "
                                             "'class-demo'; not marked: 's28.yaml'.\n\n",
                                             0) == 0);
  // Two that both could be: an error the student reads.
  root = fake_root("pick-two", "submission", {{"a.yaml", fixture("s04.yaml")}, {"b.json", fixture("s02.json")}}, meta);
  REQUIRE(gradescope(root).status == 0);
  j = results(root);
  CHECK(j["score"] == 0.0);
  CHECK(j["output"] == "attnmark: class-demo · student s04\n"
                       "2 answer files were handed in ('a.yaml', 'b.json'); more than one of them holds answers; "
                       "submit only your one answer file\n"
                       "Not marked (unreadable). Score 0 / 15. Correct the file and submit it again.\n");
  // Nothing, or nothing that is an answer file.
  root = fake_root("pick-none", "submission", {}, meta);
  REQUIRE(gradescope(root).status == 0);
  CHECK(results(root)["output"].get<std::string>().find(
            "\nno file was handed in; submit your answer file (.yaml, .json or .ipynb)\n") != std::string::npos);
  root = fake_root("pick-pdfs", "submission", {{"a.pdf", "x"}, {"b.txt", "y"}}, meta);
  REQUIRE(gradescope(root).status == 0);
  CHECK(results(root)["output"].get<std::string>().find(
            "\nnone of the 2 files handed in is an answer file (.yaml, .yml, .json or .ipynb): 'a.pdf', 'b.txt'\n") !=
        std::string::npos);
}

TEST_CASE("autograde prairielearn: gradable, score from 0 to 1, tests with points") {
  fs::path root = fake_root("pl-s04", "student", {{"answers.yaml", fixture("s04.yaml")}});
  REQUIRE(prairielearn(root).status == 0);
  json j = results(root);
  CHECK(j["gradable"] == true);
  CHECK(j["score"] == 13.666666666666666 / 15);
  CHECK(j["message"] == "13.67 / 15");
  REQUIRE(j["tests"].size() == 7);
  CHECK(j["tests"][1] == json({{"name", "q1 weights"},
                               {"points", 0.67},
                               {"max_points", 2.0},
                               {"message", "✗ ✗ ✓\nhint: Your working first goes wrong at weights · ran: you wrote -1, "
                                           "which is not e to the power of the score, divided by the total of e to the "
                                           "power of every score.\nhint: Softmax takes e to the power of each score before dividing "
                                           "by the total; dividing the scores themselves skips that step.\n"}}));
  CHECK(j.dump().size() < 1'000'000);
  // Unreadable: not gradable (no attempt used), with the reason.
  root = fake_root("pl-utf16", "student", {{"answers.yaml", fixture("s25.yaml")}});
  REQUIRE(prairielearn(root).status == 0);
  j = results(root);
  CHECK(j["gradable"] == false);
  CHECK(j["format_errors"] == json::array({"answers.yaml: UTF-16 text; save the file as UTF-8"}));
  CHECK(!j.contains("score"));
  // The id from the file, else --student: unnamed.yaml kept s29's variant.
  root = fake_root("pl-unnamed", "student", {{"answers.yaml", fixture("unnamed.yaml")}});
  REQUIRE(prairielearn(root, " --student s29").status == 0);
  j = results(root);
  CHECK(j["score"] == 1.0);
  CHECK(j["output"].get<std::string>().rfind("attnmark check: class-demo · student s29 · ", 0) == 0);
}

TEST_CASE("autograde: usage errors exit 2") {
  const fs::path root = fake_root("usage", "student", {});
  Run r = run_cli("autograde moodle " + demo);
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: autograde: expected gradescope, prairielearn or gradescope-pack; got 'moodle'\n");
  r = run_cli("autograde prairielearn " + demo + " --root /no/such/folder");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: autograde prairielearn: --root '/no/such/folder' is not a folder\n");
  r = run_cli("autograde prairielearn " + demo + " --root '" + root.string() + "' -o x.json");
  CHECK(r.status == 2);
  r = run_cli("autograde gradescope-pack " + demo);
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: autograde gradescope-pack: -o FILE (the zip to write) is required\n");
}

TEST_CASE("The demo class gets the same score from mark and from each autograder, student by student") {
  const fs::path out = scratch() / "autograde-class";
  fs::remove_all(out);
  run_cli("mark " + demo + " fixtures/class/answers --out '" + out.string() + "'");
  const auto rows = parse_csv(attnmark::read_file((out / "gradebook.csv").string(), 1 << 20));
  REQUIRE(rows.size() > 1);
  const auto column = [&](const std::string& name) {
    const auto it = std::find(rows[0].begin(), rows[0].end(), name);
    REQUIRE(it != rows[0].end());
    return static_cast<std::size_t>(it - rows[0].begin());
  };
  const std::size_t source = column("source"), score = column("score"), status = column("status");
  std::map<std::string, std::pair<std::string, std::string>> marked;  // file name → status, score
  for (std::size_t i = 1; i < rows.size(); ++i)
    marked[fs::path(rows[i][source]).filename().string()] = {rows[i][status], rows[i][score]};
  std::size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(std::string(ATTNMARK_SOURCE_DIR) + "/fixtures/class/answers")) {
    const std::string name = entry.path().filename().string();
    const attnmark::Submission s = attnmark::read_answer_file(fixture(name), name);
    if (s.student.empty() || !marked.count(name) || marked[name].first == "duplicate") continue;
    INFO(name);
    const auto& [expected_status, expected_score] = marked[name];
    const fs::path gs = fake_root("class-gs", "submission", {{name, fixture(name)}}, metadata_for(s.student));
    REQUIRE(gradescope(gs).status == 0);
    const json g = results(gs);
    const fs::path pl = fake_root("class-pl", "student", {{name, fixture(name)}});
    REQUIRE(prairielearn(pl).status == 0);
    const json p = results(pl);
    CHECK(g["extra_data"]["status"] == expected_status);
    if (expected_score.empty()) {  // not marked: a visible 0, and not gradable
      CHECK(g["score"] == 0.0);
      CHECK(p["gradable"] == false);
    } else {
      CHECK(attnmark::score_text(g["score"].get<double>()) == expected_score);
      CHECK(p["gradable"] == true);
      CHECK(attnmark::score_text(p["score"].get<double>() * 15) == expected_score);
    }
    ++compared;
  }
  CHECK(compared == 25);  // s01 to s22, the later of s26, s27 and s28
}

TEST_CASE("autograde gradescope-pack: the zip holds the scripts, the rubric, the roster and the static program") {
  const fs::path zip = scratch() / "autograder.zip";
  fs::remove(zip);
  const std::string binary = fake_static_program(), roster = roster_file();
  const std::string pack = "autograde gradescope-pack " + demo + " --binary '" + binary + "' --roster '" + roster + "'";
  const Run r = run_cli(pack + " -o '" + zip.string() + "'");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err == "attnmark: wrote " + zip.string() + ": setup.sh, run_autograder, class-demo.yaml, roster.csv (3 "
                 "students), attnmark (static, from " + binary + "); upload it under Configure Autograder (base image "
                 "Ubuntu 22.04 or 24.04)\n");
  // As generate does: an existing zip is replaced only with --force.
  const Run again = run_cli(pack + " --out '" + zip.string() + "'");
  CHECK(again.status == 2);
  CHECK(again.err == "attnmark: " + zip.string() + ": already exists; pass --force to replace it\n");
  const std::string first = attnmark::read_file(zip.string(), 1 << 20);
  CHECK(run_cli(pack + " -o '" + zip.string() + "' --force").status == 0);
  CHECK(attnmark::read_file(zip.string(), 1 << 20) == first);  // the same bytes: every entry dated 1980-01-01
  const std::string listing_file = (scratch() / "autograder.list").string();
  const std::string command = "python3 -c \"import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); "
                              "print(z.testzip()); [print(i.filename, oct(i.external_attr >> 16), i.date_time) for i in "
                              "z.infolist()]\" '" + zip.string() + "' >'" + listing_file + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  CHECK(attnmark::read_file(listing_file, 1 << 20) == "None\n"
                                                      "setup.sh 0o100755 (1980, 1, 1, 0, 0, 0)\n"
                                                      "run_autograder 0o100755 (1980, 1, 1, 0, 0, 0)\n"
                                                      "class-demo.yaml 0o100644 (1980, 1, 1, 0, 0, 0)\n"
                                                      "roster.csv 0o100644 (1980, 1, 1, 0, 0, 0)\n"
                                                      "attnmark 0o100755 (1980, 1, 1, 0, 0, 0)\n");
  // Seed from the rubric and the roster, written out in run_autograder.
  const std::string unpacked = (scratch() / "autograder-list").string();
  fs::remove_all(unpacked);
  REQUIRE(std::system(("python3 -m zipfile -e '" + zip.string() + "' '" + unpacked + "'").c_str()) == 0);
  const std::string run = attnmark::read_file(unpacked + "/run_autograder", 1 << 20);
  CHECK(run.find("\n\"$source_dir/attnmark\" autograde gradescope \"$source_dir/\"'class-demo.yaml' --seed 2026 "
                 "--roster \"$source_dir/roster.csv\" --root \"$root\"\n") != std::string::npos);
  CHECK(attnmark::read_file(unpacked + "/class-demo.yaml", 1 << 20) ==
        attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/" + demo, 1 << 20));
  CHECK(attnmark::read_file(unpacked + "/roster.csv", 1 << 20) == attnmark::read_file(roster, 1 << 20));
  CHECK(attnmark::read_file(unpacked + "/attnmark", 1 << 20) == attnmark::read_file(binary, 1 << 20));
  // setup.sh installs nothing: it runs the program and validates the rubric.
  const std::string setup = attnmark::read_file(unpacked + "/setup.sh", 1 << 20);
  CHECK(setup.find("apt") == std::string::npos);
  CHECK(setup.find("\n\"$here/attnmark\" --version\n\"$here/attnmark\" validate \"$here/\"'class-demo.yaml'\n") !=
        std::string::npos);
  // Without a roster, run_autograder passes none.
  const fs::path plain = scratch() / "autograder-plain.zip";
  fs::remove(plain);
  REQUIRE(run_cli("autograde gradescope-pack " + demo + " --binary '" + binary + "' -o '" + plain.string() + "'").status == 0);
  fs::remove_all(unpacked);
  REQUIRE(std::system(("python3 -m zipfile -e '" + plain.string() + "' '" + unpacked + "'").c_str()) == 0);
  CHECK(attnmark::read_file(unpacked + "/run_autograder", 1 << 20).find("--seed 2026 --root \"$root\"\n") !=
        std::string::npos);
  CHECK(!fs::exists(unpacked + "/roster.csv"));
}

TEST_CASE("autograde gradescope-pack: a program linked to shared libraries is refused") {
  // The tests' own attnmark is the default build's: dynamic.
  const fs::path zip = scratch() / "autograder-dynamic.zip";
  fs::remove(zip);
  Run r = run_cli("autograde gradescope-pack " + demo + " --binary '" ATTNMARK_BINARY "' -o '" + zip.string() + "'");
  CHECK(r.status == 2);
  CHECK(r.err.rfind("attnmark: autograde gradescope-pack: --binary '" ATTNMARK_BINARY "': it is not static: it needs "
                    "'/lib64/ld-linux-x86-64.so.2', ", 0) == 0);
  CHECK(r.err.find("'libc.so.6'") != std::string::npos);
  CHECK(r.err.find("; build the static one in attnmark's folder with `cmake --preset static && cmake --build "
                   "build-static --target attnmark`\n") != std::string::npos);
  r = run_cli("autograde gradescope-pack " + demo + " --binary '" + demo + "' -o '" + zip.string() + "'");
  CHECK(r.status == 2);
  CHECK(r.err.find("--binary 'rubrics/class-demo.yaml': not an ELF file; build the static one") != std::string::npos);
  CHECK(!fs::exists(zip));
  r = run_cli("autograde gradescope " + demo + " --binary x");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: autograde gradescope: --binary is for gradescope-pack\n");
}

TEST_CASE("autograde gradescope: the roster names the student from Gradescope's sid, email or id") {
  const std::string roster = " --roster '" + roster_file() + "'";
  const Run key = run_cli("key " + demo + " --student s04 --format ipynb");
  REQUIRE(key.status == 0);
  // No sid, as Gradescope's metadata is for a student without one: the
  // email is on the roster, so s04's own key gets full marks, without notes.
  fs::path root = fake_root("roster-email", "submission", {{"s04.ipynb", key.out}}, metadata_without_sid("Anh@Example.org"));
  Run r = gradescope(root, roster);
  INFO(r.err);
  REQUIRE(r.status == 0);
  json j = results(root);
  CHECK(j["score"] == 15.0);
  CHECK(j["extra_data"] == json({{"student", "s04"}, {"variant", "f7c99591969029ee"}, {"status", "graded"}}));
  CHECK(j["output"].get<std::string>().rfind("attnmark check: class-demo · student s04 · ", 0) == 0);
  // With the sid: it first.
  root = fake_root("roster-sid", "submission", {{"s04.ipynb", key.out}}, metadata_for("s04", "other@example.org"));
  REQUIRE(gradescope(root, roster).status == 0);
  CHECK(results(root)["score"] == 15.0);
  // An sid that is not on the roster: the email is, and the note says so.
  root = fake_root("roster-sid-off", "submission", {{"s04.ipynb", key.out}}, metadata_for("x99", "anh@example.org"));
  REQUIRE(gradescope(root, roster).status == 0);
  j = results(root);
  CHECK(j["score"] == 15.0);
  CHECK(j["output"].get<std::string>().rfind("Gradescope's Student ID 'x99' is not on the class roster.\n\n", 0) == 0);
  // The email not on the roster: Gradescope's user id, in the roster's gradescope id column.
  root = fake_root("roster-id", "submission", {{"s04.ipynb", key.out}}, metadata_without_sid("anh@elsewhere.org", 4567));
  REQUIRE(gradescope(root, roster).status == 0);
  j = results(root);
  CHECK(j["score"] == 15.0);
  CHECK(j["extra_data"]["student"] == "s04");
  CHECK(j["output"].get<std::string>().rfind("Gradescope's email 'anh@elsewhere.org' is not on the class roster.\n\n",
                                             0) == 0);
  // An email two students share names neither; nor does an id that is not
  // on it: the file's own student, who is on the roster, is marked.
  root = fake_root("roster-shared", "submission", {{"s04.yaml", fixture("s04.yaml")}}, metadata_without_sid("twins@example.org", 1));
  REQUIRE(gradescope(root, roster).status == 0);
  j = results(root);
  CHECK(j["score"] == 13.67);
  CHECK(j["extra_data"]["student"] == "s04");
  CHECK(j["output"].get<std::string>().rfind("Gradescope's email 'twins@example.org' is held by several students of "
                                             "the class roster.\n"
                                             "Gradescope's user id '1' is not on the class roster.\n"
                                             "Marked as 's04', the student your file names.\n\n",
                                             0) == 0);
  // A classmate's file handed in by s05 (found by Gradescope id): s05's variant, so wrong-variant.
  root = fake_root("roster-other", "submission", {{"s04.yaml", fixture("s04.yaml")}}, metadata_without_sid("ben@home.org", 5555));
  REQUIRE(gradescope(root, roster).status == 0);
  j = results(root);
  CHECK(j["extra_data"]["status"] == "wrong-variant");
  CHECK(j["extra_data"]["student"] == "s05");
  CHECK(j["output"].get<std::string>().rfind("Gradescope's email 'ben@home.org' is not on the class roster.\n"
                                             "Your file says student 's04', but Gradescope says 's05' handed it in; "
                                             "marked as 's05'.\n\n",
                                             0) == 0);
  // Nobody the roster knows: marked as Gradescope names them, said so.
  root = fake_root("roster-nobody", "submission", {{"s01.yaml", fixture("s01.yaml")}}, metadata_without_sid("zed@example.org", 9));
  REQUIRE(gradescope(root, roster).status == 0);
  j = results(root);
  CHECK(j["extra_data"]["student"] == "zed@example.org");
  CHECK(j["extra_data"]["status"] == "wrong-variant");
  CHECK(j["output"].get<std::string>().rfind("Gradescope's email 'zed@example.org' is not on the class roster.\n"
                                             "Gradescope's user id '9' is not on the class roster.\n"
                                             "Your file's student 's01' is not on the class roster either.\n"
                                             "Your file says student 's01', but Gradescope says 'zed@example.org' "
                                             "handed it in; marked as 'zed@example.org'.\n\n",
                                             0) == 0);
}

TEST_CASE("autograde gradescope: without a roster or an sid, an honest file's own student is marked, not the email") {
  // Before the roster rule this was a wrong-variant: s04's file marked as the email's variant.
  fs::path root = fake_root("email-honest", "submission", {{"s04.yaml", fixture("s04.yaml")}}, metadata_without_sid("anh@example.org"));
  REQUIRE(gradescope(root).status == 0);
  json j = results(root);
  CHECK(j["score"] == 13.67);
  CHECK(j["extra_data"]["student"] == "s04");
  CHECK(j["extra_data"]["status"] == "graded");
  // A file naming another email is contradicted by Gradescope's: the email's variant.
  std::string named = fixture("s04.yaml");
  named.replace(named.find("student: \"s04\""), 14, "student: \"ben@example.org\"");
  root = fake_root("email-other", "submission", {{"s04.yaml", named}}, metadata_without_sid("anh@example.org"));
  REQUIRE(gradescope(root).status == 0);
  j = results(root);
  CHECK(j["extra_data"]["student"] == "anh@example.org");
  CHECK(j["output"].get<std::string>().rfind("Your file says student 'ben@example.org', but Gradescope says "
                                             "'anh@example.org' handed it in; marked as 'anh@example.org'.\n\n",
                                             0) == 0);
}

// The static program itself, as Gradescope's and PrairieLearn's images run
// it: run by the CTest entry autograde-pack-static (tests/CMakeLists.txt),
// which skips (exit 77) when build-static/attnmark is not built and passes
// its path in ATTNMARK_STATIC_BINARY (else that path of these sources).
TEST_CASE("autograde packs: the static program has no loader and no libraries, setup.sh needs nothing, both mark", "[.pack]") {
  const char* env = std::getenv("ATTNMARK_STATIC_BINARY");
  const std::string binary = env && *env ? env : std::string(ATTNMARK_SOURCE_DIR) + "/build-static/attnmark";
  if (!fs::is_regular_file(binary))
    FAIL(binary + " is not built: cmake --preset static && cmake --build build-static --target attnmark");
  // What readelf says (binutils), and what the pack's own check reads.
  const std::string elf_out = (scratch() / "pack-readelf.txt").string();
  REQUIRE(std::system(("readelf -lWd '" + binary + "' >'" + elf_out + "' 2>&1").c_str()) == 0);
  const std::string elf = attnmark::read_file(elf_out, 1 << 20);
  INFO(elf);
  CHECK(elf.find("INTERP") == std::string::npos);
  CHECK(elf.find("NEEDED") == std::string::npos);
  CHECK(elf.find("There is no dynamic section in this file.") != std::string::npos);
  const attnmark::ElfLinkage linkage = attnmark::elf_linkage(attnmark::read_file(binary, attnmark::max_program_bytes));
  CHECK(linkage.problem == "");
  CHECK(linkage.is_static());

  // Gradescope: the pack, unpacked as Gradescope's unzip does (modes kept).
  const fs::path zip = scratch() / "pack-static.zip", dir = scratch() / "pack-static";
  fs::remove(zip);
  REQUIRE(run_cli("autograde gradescope-pack " + demo + " --binary '" + binary + "' --roster '" + roster_file() +
                  "' -o '" + zip.string() + "'").status == 0);
  fs::remove_all(dir);
  REQUIRE(std::system(("python3 -m zipfile -e '" + zip.string() + "' '" + dir.string() + "'").c_str()) == 0);
  REQUIRE(std::system(("chmod 755 '" + (dir / "setup.sh").string() + "' '" + (dir / "run_autograder").string() +
                       "' '" + (dir / "attnmark").string() + "'").c_str()) == 0);
  // setup.sh with nothing on PATH (no apt-get, no compiler, no coreutils)
  // and an empty environment: it needs only bash and the program.
  const std::string log = (scratch() / "pack-setup.log").string();
  const int setup = std::system(("cd '" + dir.string() + "' && env -i PATH=/nonexistent /bin/bash ./setup.sh >'" + log +
                                 "' 2>&1").c_str());
  const std::string setup_log = attnmark::read_file(log, 1 << 20);
  INFO(setup_log);
  CHECK(setup == 0);
  CHECK(setup_log.rfind("attnmark 0.1.0\n", 0) == 0);
  // run_autograder on a fake root: Gradescope's real metadata (no sid), the roster in the zip.
  const Run key = run_cli("key " + demo + " --student s04 --format ipynb");
  const fs::path root = fake_root("pack-root", "submission", {{"s04.ipynb", key.out}}, metadata_without_sid("anh@example.org"));
  REQUIRE(std::system(("'" + (dir / "run_autograder").string() + "' '" + root.string() + "' >/dev/null 2>&1").c_str()) == 0);
  json j = results(root);
  CHECK(j["score"] == 15.0);
  CHECK(j["extra_data"]["student"] == "s04");
  CHECK(j["tests"].size() == 7);

  // With no shared library at all: the program alone in an empty root
  // (chroot, so root only), as on a base image whose libraries are not
  // Debian 12's.
  if (geteuid() == 0) {
    const fs::path jail = scratch() / "pack-jail";
    fs::remove_all(jail);
    fs::create_directories(jail);
    fs::copy_file(binary, jail / "attnmark");
    fs::copy_file(std::string(ATTNMARK_SOURCE_DIR) + "/" + demo, jail / "rubric.yaml");
    fs::create_directories(jail / "grade" / "submission");
    attnmark::write_file((jail / "grade" / "submission" / "s04.yaml").string(), fixture("s04.yaml"));
    attnmark::write_file((jail / "grade" / "submission_metadata.json").string(), metadata_without_sid("anh@example.org"));
    CHECK(std::system(("chroot '" + jail.string() + "' /attnmark validate /rubric.yaml >/dev/null 2>&1").c_str()) == 0);
    CHECK(std::system(("chroot '" + jail.string() + "' /attnmark autograde gradescope /rubric.yaml --root /grade "
                       ">/dev/null 2>&1").c_str()) == 0);
    CHECK(results(jail / "grade")["score"] == 13.67);
  } else {
    WARN("not root: the chroot check (the program with no library beside it) is not run");
  }

  // PrairieLearn: the image's folder as the Dockerfile expects it, every
  // COPY source there, and the entrypoint run on a fake /grade.
  const fs::path pl = std::string(ATTNMARK_SOURCE_DIR) + "/packaging/prairielearn";
  const fs::path image = scratch() / "pl-image";
  fs::remove_all(image);
  fs::create_directories(image);
  for (const char* f : {"Dockerfile", "attnmark-grade"}) fs::copy_file(pl / f, image / f);
  fs::copy_file(binary, image / "attnmark");
  fs::copy_file(std::string(ATTNMARK_SOURCE_DIR) + "/" + demo, image / "rubric.yaml");
  const std::string dockerfile = attnmark::read_file((image / "Dockerfile").string(), 1 << 20);
  std::size_t copies = 0;
  for (std::size_t at = dockerfile.find("\nCOPY "); at != std::string::npos; at = dockerfile.find("\nCOPY ", at + 1)) {
    std::istringstream words(dockerfile.substr(at + 6, dockerfile.find('\n', at + 1) - at - 6));
    std::vector<std::string> parts;
    for (std::string w; words >> w;) parts.push_back(w);
    REQUIRE(parts.size() >= 2);
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      INFO(parts[i]);
      CHECK(fs::is_regular_file(image / parts[i]));
      ++copies;
    }
  }
  CHECK(copies == 3);
  CHECK(dockerfile.find("\nENTRYPOINT [\"/grader/attnmark-grade\"]\n") != std::string::npos);
  const json info = json::parse(attnmark::read_file((pl / "info.json").string(), 1 << 20));
  CHECK(info["gradingMethod"] == "External");
  CHECK(info["externalGradingOptions"]["enabled"] == true);
  CHECK(info["externalGradingOptions"]["image"].is_string());
  CHECK(info["externalGradingOptions"]["entrypoint"] == "/grader/attnmark-grade");
  CHECK(info["externalGradingOptions"]["timeout"].is_number_integer());
  fs::path grade = fake_root("pl-grade", "student", {{"answers.ipynb", key.out}});
  REQUIRE(std::system(("env -i PATH=/usr/bin:/bin '" + (image / "attnmark-grade").string() + "' '" + grade.string() +
                       "' >/dev/null 2>&1").c_str()) == 0);
  j = results(grade);
  CHECK(j["gradable"] == true);
  CHECK(j["score"] == 1.0);
  // The root from the environment, as a local run of the image would give it; a broken rubric still writes results.
  grade = fake_root("pl-grade-env", "student", {{"answers.yaml", fixture("s04.yaml")}});
  fs::create_directories(grade / "tests");
  attnmark::write_file((grade / "tests" / "rubric.yaml").string(), "not: a rubric\n");
  REQUIRE(std::system(("env -i PATH=/usr/bin:/bin ATTNMARK_GRADE_ROOT='" + grade.string() + "' '" +
                       (image / "attnmark-grade").string() + "' >/dev/null 2>&1").c_str()) == 0);
  j = results(grade);
  CHECK(j == json({{"gradable", false},
                   {"format_errors", {"The grader failed to run (attnmark exit status 2); please tell your teacher."}}}));
}

TEST_CASE("autograde: a notebook handed in is the answer file, read without running it") {
  // The demo rubric's key as a notebook (every answer typed), handed in with a PDF beside it.
  const Run key = run_cli("key " + demo + " --student s04 --format ipynb");
  REQUIRE(key.status == 0);
  const std::string meta = metadata_for("s04");
  fs::path root = fake_root("notebook", "submission", {{"s04.ipynb", key.out}, {"notes.pdf", "%PDF-1.4"}}, meta);
  REQUIRE(gradescope(root).status == 0);
  json j = results(root);
  CHECK(j["score"] == 15.0);
  CHECK(j["output"].get<std::string>().find("Marked 's04.ipynb', the one answer file handed in; not marked: 'notes.pdf'.") !=
        std::string::npos);
  root = fake_root("notebook-pl", "student", {{"s04.ipynb", key.out}});
  REQUIRE(prairielearn(root, " --student s04").status == 0);
  j = results(root);
  CHECK(j["gradable"] == true);
  CHECK(j["score"] == 1.0);
}
