// attnmark check (cli/check.cpp), run as a student runs it: the self-check
// table and hints, the rubric found from the answer file, and exit statuses.
#include "support/test_support.h"

#include <nlohmann/json.hpp>
#include <string>

#include "base/files.h"

TEST_CASE("check: a student's self-check table, hints, and exit status 1 when something is wrong") {
  const auto path = scratch() / "s001.yaml";
  attnmark::write_file(path.string(), lesson_answers("[2, 0, 1]", "[0.67, 0.090, 0.245]", "[7.88, 2.12]"));
  const Run r = run_cli("check rubrics/lesson.yaml --answers '" + path.string() + "'");
  CHECK(r.status == 1);
  CHECK(r.out.find("q1               4.33 / 5\n") != std::string::npos);
  CHECK(r.out.find("  weights        1.33 / 2   ≈ ✓ ✓\n") != std::string::npos);
  CHECK(r.out.find("      hint: weights · bus: '0.67' is right to 2 decimal places; give 3\n") != std::string::npos);
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
