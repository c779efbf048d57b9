// The command line, run as a user runs it: exit codes, messages, files.
#include <catch2/catch.hpp>

#include "test_support.h"
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "base/error.h"
#include "cli/commands.h"
#include "base/files.h"

namespace {


}  // namespace

TEST_CASE("parse_seed accepts whole numbers and rejects everything else") {
  CHECK(attnmark::parse_seed("0") == 0);
  CHECK(attnmark::parse_seed("18446744073709551615") == 18446744073709551615ULL);
  for (const char* bad : {"-1", "+1", "", " 1", "1 ", "1e3", "0x10", "18446744073709551616", "1.5", "abc"}) {
    INFO(bad);
    CHECK_THROWS_WITH(attnmark::parse_seed(bad),
                      std::string("--seed: expected a whole number from 0 to 18446744073709551615; got '") + bad + "'");
  }
}

TEST_CASE("a seed of -1 is refused with exit 2, not turned into 2^64-1") {
  const Run r = run_cli("key rubrics/lesson.yaml --seed -1");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "attnmark: --seed: expected a whole number from 0 to 18446744073709551615; got '-1'\n");
}

TEST_CASE("key --format json has the documented shape") {
  const Run r = run_cli("key rubrics/lesson.yaml --seed 3 --student s001 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["rubric"] == "lesson");
  CHECK(j["student"] == "s001");
  CHECK(j["seed"] == 3);
  CHECK(j["variant"].get<std::string>().size() == 16);
  CHECK(j["generator"] == "attnmark-gen/1");
  const auto& q1 = j["questions"][0];
  CHECK(q1["id"] == "q1");
  CHECK(q1["task"] == "one-token");
  CHECK(q1["query_token"] == 2);
  CHECK(q1["scale"] == 1.0);
  CHECK(q1["mask"] == "none");
  CHECK(q1["inputs"]["query"] == nlohmann::json::array({1.0, 0.0}));
  CHECK(q1["answers"]["scores"] == nlohmann::json::array({2.0, 0.0, 1.0}));
  CHECK(q1["answers"]["output"][0].get<double>() == Approx(7.876).epsilon(0).margin(0.0005));
  const auto& q2 = j["questions"][1];
  CHECK(q2["query_token"].is_null());
  CHECK(q2["inputs"]["queries"].size() == 3);
  CHECK(q2["answers"]["weights"][2][0].get<double>() == Approx(0.665).epsilon(0).margin(0.0005));
  CHECK(j["questions"][2]["answers"]["most_attended"] == "is");
}

TEST_CASE("a masked score is null in the JSON key") {
  const Run r = run_cli("key rubrics/scaled-causal.yaml --seed 7 --student s001 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["questions"][0]["scale"] == 2.0);
  CHECK(j["questions"][0]["mask"] == "causal");
  CHECK(j["questions"][0]["answers"]["scores"][3].is_null());
  CHECK(j["questions"][0]["answers"]["weights"][3] == 0.0);
  CHECK(j["questions"][1]["answers"]["scores"][0][1].is_null());
}

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

TEST_CASE("definition errors exit 2 with file:line:column, the line and a caret") {
  const auto path = scratch() / "bad.yaml";
  attnmark::write_file(path.string(), "questions:\n  - task: one-tokn\n");
  const Run r = run_cli("validate '" + path.string() + "'");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == path.string() +
                     ":2:11: q1.task: expected 'one-token' or 'all-tokens'; got 'one-tokn' (did you mean 'one-token'?)\n"
                     "  - task: one-tokn\n"
                     "          ^\n");
  const Run g = run_cli("generate '" + path.string() + "'");
  CHECK(g.status == 2);
  CHECK(g.err.rfind("attnmark: " + path.string() + ":2:11: q1.task:", 0) == 0);
}

TEST_CASE("validate passes every shipped rubric") {
  const Run r = run_cli("validate rubrics/lesson.yaml rubrics/one-token.yaml rubrics/all-tokens.yaml "
                         "rubrics/scaled-causal.yaml rubrics/projections.yaml");
  CHECK(r.status == 0);
  CHECK(r.out ==
        "rubrics/lesson.yaml: ok (3 questions)\n"
        "rubrics/one-token.yaml: ok (1 question)\n"
        "rubrics/all-tokens.yaml: ok (1 question)\n"
        "rubrics/scaled-causal.yaml: ok (2 questions)\n"
        "rubrics/projections.yaml: ok (1 question)\n");
}

TEST_CASE("usage errors exit 2") {
  CHECK(run_cli("").status == 2);
  CHECK(run_cli("frobnicate").status == 2);
  CHECK(run_cli("key rubrics/lesson.yaml --format pdf").status == 2);
  CHECK(run_cli("key rubrics/lesson.yaml --format pdf").err == "attnmark: --format: expected md, json, jsonl, html or tex; got 'pdf'\n");
  CHECK(run_cli("key no-such-file.yaml").err.rfind("attnmark: no-such-file.yaml: cannot open: No such file or directory", 0) == 0);
  CHECK(run_cli("--help").status == 0);
}

namespace {
// A lesson answer file for s001 with the given q1 lines filled in.
std::string lesson_answers(const std::string& scores, const std::string& weights, const std::string& output) {
  const Run t = run_cli("template rubrics/lesson.yaml --student s001");
  std::string text = t.out;
  auto fill = [&](const std::string& blank, const std::string& with) {
    const std::size_t at = text.find(blank);
    REQUIRE(at != std::string::npos);
    text.replace(at, blank.size(), with);
  };
  fill("scores: [~, ~, ~]", "scores: " + scores);
  fill("weights: [~, ~, ~]", "weights: " + weights);
  fill("output: [~, ~]", "output: " + output);
  return text;
}
}  // namespace

TEST_CASE("check: a student's self-check table, hints, and exit status 1 when something is wrong") {
  const auto path = scratch() / "s001.yaml";
  attnmark::write_file(path.string(), lesson_answers("[2, 0, 1]", "[0.67, 0.090, 0.245]", "[7.88, 2.12]"));
  const Run r = run_cli("check rubrics/lesson.yaml --answers '" + path.string() + "'");
  CHECK(r.status == 1);
  CHECK(r.out.find("q1               4.33 / 5\n") != std::string::npos);
  CHECK(r.out.find("  weights        1.33 / 2   ≈ ✓ ✓\n") != std::string::npos);
  CHECK(r.out.find("      hint: weights 1: '0.67' is right to 2 decimal places; give 3\n") != std::string::npos);
  // No reference answers without --reveal.
  CHECK(r.out.find("0.665") == std::string::npos);
  const Run revealed = run_cli("check rubrics/lesson.yaml --answers '" + path.string() + "' --reveal");
  CHECK(revealed.out.find("≈(0.665) ✓(0.090) ✓(0.245)") != std::string::npos);
}

TEST_CASE("check finds the rubric named in the answer file and exits 0 when all is right") {
  const Run key = run_cli("key rubrics/lesson.yaml --student s001 --format json");
  const auto j = nlohmann::json::parse(key.out);
  auto row = [](const nlohmann::json& v) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i].get<double>());
    return out + "]";
  };
  std::string text = lesson_answers("[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.876, 2.124]");
  const auto& q2 = j["questions"][1]["answers"];
  for (const char* part : {"scores", "weights", "output"}) {
    std::string rows;
    for (const auto& r : q2[part]) rows += "      - " + row(r) + "\n";
    const std::string blank = std::string("    ") + part + ":\n";
    const std::size_t at = text.find(blank, text.find("  q2:"));
    const std::size_t end = text.find("\n    ", at + blank.size());
    text.replace(at, end + 1 - at, blank + rows);
  }
  text.replace(text.find("scores: [~, ~, ~]"), 17, "scores: [1, 2, 1]");
  text.replace(text.find("weights: [~, ~, ~]"), 18, "weights: [0.212, 0.576, 0.212]");
  text.replace(text.find("most_attended: ~"), 16, "most_attended: is");
  const auto path = scratch() / "all-right.yaml";
  attnmark::write_file(path.string(), text);
  const Run r = run_cli("check --answers '" + path.string() + "'");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("Total: 16 / 16\n") != std::string::npos);
}

TEST_CASE("check exits 2 when the answer file or rubric is unusable") {
  const auto dir = scratch();
  attnmark::write_file((dir / "broken.yaml").string(), "answers: [\n");
  const Run broken = run_cli("check rubrics/lesson.yaml --answers '" + (dir / "broken.yaml").string() + "'");
  CHECK(broken.status == 2);
  CHECK(broken.err.rfind("attnmark: " + (dir / "broken.yaml").string() + ": line 2, column 1: ", 0) == 0);
  attnmark::write_file((dir / "norubric.yaml").string(), "student: s1\nseed: 1\nanswers: {}\n");
  const Run none = run_cli("check --answers '" + (dir / "norubric.yaml").string() + "'");
  CHECK(none.status == 2);
  CHECK(none.err == "attnmark: " + (dir / "norubric.yaml").string() +
                        ": names no rubric; give the rubric file: attnmark check RUBRIC --answers FILE\n");
  CHECK(run_cli("check rubrics/lesson.yaml --answers /no/such/file.yaml").status == 2);
}

TEST_CASE("mark refuses to overwrite an earlier run without --force") {
  const auto dir = scratch() / "mark-out";
  std::filesystem::remove_all(dir);
  const auto in = scratch() / "mark-in";
  std::filesystem::remove_all(in);
  attnmark::write_file((in / "s001.yaml").string(), lesson_answers("[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.88, 2.12]"));
  const Run first = run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + dir.string() + "'");
  CHECK(first.status == 0);
  CHECK(first.err == "attnmark: marked 1 submission (1 graded); reports in " + dir.string() +
                         "/: gradebook.csv, summary.md, summary.html, feedback/\n");
  CHECK(attnmark::read_file((dir / "gradebook.csv").string(), 1 << 20) ==
        "student,variant,status,score,max_score,q1,q2,q3,source,reason\r\n"
        "s001,2a1549ca301b20b2,graded,5,16,5,0,0," + (in / "s001.yaml").string() + ",\r\n");
  const Run again = run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + dir.string() + "'");
  CHECK(again.status == 2);
  CHECK(again.err == "attnmark: " + dir.string() +
                         ": already holds 'gradebook.csv' from an earlier run; pass --force to replace it, or choose another --out\n");
  CHECK(run_cli("mark rubrics/lesson.yaml '" + in.string() + "' --out '" + dir.string() + "' --force").status == 0);
}
