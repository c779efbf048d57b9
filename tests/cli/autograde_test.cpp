// attnmark autograde (cli/autograde.cpp): Gradescope's and PrairieLearn's
// results.json from fake roots, the answer file chosen from what was handed
// in, the student id, the demo class marked alike by mark and by each
// autograder, and the Gradescope zip unpacked, built and run.
#include "support/test_support.h"
#include "support/revealing_rubric.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/files.h"
#include "readers/answer_reader.h"
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

TEST_CASE("autograde gradescope-pack: the zip holds the scripts, the rubric and the sources") {
  const fs::path zip = scratch() / "autograder.zip";
  fs::remove(zip);
  const Run r = run_cli("autograde gradescope-pack " + demo + " -o '" + zip.string() + "'");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // As generate does: an existing zip is replaced only with --force.
  const Run again = run_cli("autograde gradescope-pack " + demo + " --out '" + zip.string() + "'");
  CHECK(again.status == 2);
  CHECK(again.err == "attnmark: " + zip.string() + ": already exists; pass --force to replace it\n");
  CHECK(run_cli("autograde gradescope-pack " + demo + " -o '" + zip.string() + "' --force").status == 0);
  const std::string listing_file = (scratch() / "autograder.list").string();
  const std::string command = "python3 -c \"import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); "
                              "print(z.testzip()); [print(i.filename, oct(i.external_attr >> 16)) for i in "
                              "z.infolist()]\" '" + zip.string() + "' >'" + listing_file + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  const std::string list = attnmark::read_file(listing_file, 1 << 20);
  CHECK(list.rfind("None\nsetup.sh 0o100755\nrun_autograder 0o100755\nclass-demo.yaml 0o100644\n"
                   "attnmark/CMakeLists.txt 0o100644\n", 0) == 0);
  CHECK(list.find("\nattnmark/src/CMakeLists.txt 0o100644\n") != std::string::npos);
  CHECK(list.find("\nattnmark/src/cli/main.cpp 0o100644\n") != std::string::npos);
  CHECK(list.find("\nattnmark/src/lesson/attention.cpp 0o100644\n") != std::string::npos);
  CHECK(list.find("tests/") == std::string::npos);
  CHECK(list.find("build") == std::string::npos);
  // Seed from the rubric, written out in run_autograder.
  const std::string unpacked = (scratch() / "autograder-list").string();
  fs::remove_all(unpacked);
  REQUIRE(std::system(("python3 -m zipfile -e '" + zip.string() + "' '" + unpacked + "'").c_str()) == 0);
  const std::string run = attnmark::read_file(unpacked + "/run_autograder", 1 << 20);
  CHECK(run.find("\"$source_dir/attnmark/build/attnmark\" autograde gradescope \"$source_dir/\"'class-demo.yaml' "
                 "--seed 2026 --root \"$root\"\n") != std::string::npos);
  CHECK(attnmark::read_file(unpacked + "/class-demo.yaml", 1 << 20) ==
        attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/" + demo, 1 << 20));
  // setup.sh installs every package attnmark's build needs (scripts/setup's
  // build list; catch2 is for the tests, which the pack does not build, and
  // the pack builds without mimalloc).
  const std::string setup = attnmark::read_file(unpacked + "/setup.sh", 1 << 20);
  const std::string ours = attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/scripts/setup", 1 << 20);
  const std::size_t build_list = ours.find("\nbuild=(");
  REQUIRE(build_list != std::string::npos);
  std::istringstream build(ours.substr(build_list + 8, ours.find(')', build_list) - build_list - 8));
  const std::size_t packages = setup.find("\npackages=(");
  REQUIRE(packages != std::string::npos);
  const std::string installed = " " + setup.substr(packages + 11, setup.find(')', packages) - packages - 11) + " ";
  for (std::string package; build >> package;)
    if (package != "catch2" && package != "libmimalloc-dev") CHECK(installed.find(" " + package + " ") != std::string::npos);
}

// Hidden from the main run (it builds attnmark again, minutes on two
// cores): tests/CMakeLists.txt runs it as the CTest entry autograde-pack-builds.
TEST_CASE("autograde gradescope-pack: setup.sh builds attnmark and run_autograder marks a fake root", "[.pack]") {
  if (std::system("for p in g++ cmake make pkg-config libyaml-cpp-dev libcli11-dev libfmt-dev nlohmann-json3-dev "
                  "libcpp-httplib-dev libsqlite3-dev libssl-dev; do "
                  "dpkg-query -W -f='${Status}' $p 2>/dev/null | grep -q 'install ok installed' || exit 1; done") != 0) {
    WARN("the build packages are not all installed (scripts/setup); setup.sh would run apt-get: skipped");
    return;
  }
  const fs::path zip = scratch() / "pack-build.zip", dir = scratch() / "pack-build";
  REQUIRE(run_cli("autograde gradescope-pack " + demo + " --seed 2026 -o '" + zip.string() + "'").status == 0);
  fs::remove_all(dir);
  REQUIRE(std::system(("python3 -m zipfile -e '" + zip.string() + "' '" + dir.string() + "'").c_str()) == 0);
  // Python's extract drops the modes; Gradescope's unzip keeps them.
  REQUIRE(std::system(("chmod 755 '" + (dir / "setup.sh").string() + "' '" + (dir / "run_autograder").string() + "'")
                          .c_str()) == 0);
  const std::string log = (scratch() / "pack-build.log").string();
  const int built = std::system(("cd '" + dir.string() + "' && ./setup.sh >'" + log + "' 2>&1").c_str());
  INFO(attnmark::read_file(log, 1 << 24));
  REQUIRE(built == 0);
  const fs::path root = fake_root("pack-root", "submission", {{"answers.yaml", fixture("s04.yaml")}}, metadata_for("s04"));
  REQUIRE(std::system(("'" + (dir / "run_autograder").string() + "' '" + root.string() + "' >/dev/null 2>&1").c_str()) ==
          0);
  const json j = results(root);
  CHECK(j["score"] == 13.67);
  CHECK(j["tests"].size() == 7);
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
