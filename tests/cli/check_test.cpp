// attnmark check (cli/check.cpp), run as a student runs it: the self-check
// table and hints, the rubric found from the answer file, and exit statuses.
#include "support/test_support.h"
#include "support/revealing_rubric.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>
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
  // --reveal only where the rubric reveals: the shipped lesson does not.
  const Run refused = run_cli("check rubrics/lesson.yaml --answers '" + path.string() + "' --reveal");
  CHECK(refused.status == 2);
  CHECK(refused.out.empty());
  CHECK(refused.err == "attnmark: --reveal: rubric 'lesson' does not allow showing the right answers (its "
                       "reveal_answers is false); your teacher can give you your key (attnmark key)\n");
  const Run revealed = run_cli("check '" + revealing_rubric("lesson") + "' --answers '" + path.string() + "' --reveal");
  CHECK(revealed.status == 1);
  CHECK(revealed.out.find("≈(0.665) ✓(0.090) ✓(0.245)") != std::string::npos);
}

TEST_CASE("check --reveal: a variant id alone never reveals a key, and a file with its student and seed does where the rubric allows") {
  const std::string rubric = revealing_rubric("class-demo");
  const Run key = run_cli("key rubrics/class-demo.yaml --student s001 --format json");
  const std::string variant = nlohmann::json::parse(key.out)["variant"];
  const auto only_variant = scratch() / "only-variant.yaml";
  attnmark::write_file(only_variant.string(), "rubric: class-demo\nvariant: \"" + variant + "\"\n");
  const std::string refusal =
      "attnmark: " + only_variant.string() +
      ": --reveal: shows the right answers only for a file that records your student id and the seed your worksheet "
      "was made with, as the key your teacher gives you does; check without --reveal, or ask your teacher for your "
      "key (attnmark key)\n";
  Run r = run_cli("check '" + rubric + "' '" + only_variant.string() + "' --reveal");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == refusal);
  // Nor with the student's id but no seed, nor with a seed given on the command line only.
  const auto no_seed = scratch() / "no-seed.yaml";
  attnmark::write_file(no_seed.string(),
                       "rubric: class-demo\nstudent: s001\nvariant: \"" + variant + "\"\n");
  r = run_cli("check '" + rubric + "' '" + no_seed.string() + "' --reveal");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + no_seed.string() + refusal.substr(refusal.find(": --reveal")));
  r = run_cli("check '" + rubric + "' '" + no_seed.string() + "' --reveal --seed 2026");
  CHECK(r.status == 2);
  CHECK(r.err == "attnmark: " + no_seed.string() + refusal.substr(refusal.find(": --reveal")));
  // The student's own template (student and seed, as the teacher's key records) reveals.
  const auto own = scratch() / "own.yaml";
  attnmark::write_file(own.string(), run_cli("template rubrics/class-demo.yaml --student s001").out);
  r = run_cli("check '" + rubric + "' '" + own.string() + "' --reveal");
  CHECK(r.status == 1);
  CHECK(r.out.find("  scores            0 / 2   ✗(-2.0) ✗(3.0) ·(masked)\n") != std::string::npos);
  CHECK(r.err.empty());
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
                        ": names no rubric; give the rubric file: attnmark check RUBRIC FILE\n");
  CHECK(run_cli("check rubrics/lesson.yaml --answers /no/such/file.yaml").status == 2);
}

TEST_CASE("check FILE: the answer file is the last file named, the rubric the one before it or the one it names") {
  const auto path = scratch() / "s001-positional.yaml";
  attnmark::write_file(path.string(), lesson_answers("[2, 0, 1]", "[0.67, 0.090, 0.245]", "[7.88, 2.12]"));
  const Run flag = run_cli("check rubrics/lesson.yaml --answers '" + path.string() + "'");
  REQUIRE(flag.status == 1);
  for (const std::string& args : {"'" + path.string() + "'", "rubrics/lesson.yaml '" + path.string() + "'",
                                  "--answers '" + path.string() + "'"}) {
    INFO(args);
    const Run r = run_cli("check " + args);
    CHECK(r.status == 1);
    CHECK(r.out == flag.out);
    CHECK(r.err.empty());
  }
  // A rubric given where the answer file goes is named as what it is.
  const Run rubric = run_cli("check rubrics/lesson.yaml");
  CHECK(rubric.status == 2);
  CHECK(rubric.err == "attnmark: rubrics/lesson.yaml: is a rubric, not an answer file; give your answer file: attnmark check FILE\n");
  const Run none = run_cli("check");
  CHECK(none.status == 2);
  CHECK(none.err == "attnmark: check: give your answer file: attnmark check FILE\n");
  const Run three = run_cli("check a.yaml b.yaml c.yaml");
  CHECK(three.status == 2);
  CHECK(three.err == "attnmark: check: expected your answer file, or the rubric file and then your answer file\n");
  const Run two = run_cli("check a.yaml b.yaml --answers c.yaml");
  CHECK(two.status == 2);
  CHECK(two.err == "attnmark: check: expected at most one rubric file\n");
}

TEST_CASE("check and mark give the same verdicts, case by case") {
  // The cases of the marking rules: right, rounded too far, hard attention,
  // the lesson's rounding, stray values, decimal commas, too few values.
  const std::vector<std::array<std::string, 3>> cases = {
      {"[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.88, 2.12]"},
      {"[2, 0, 1]", "[0.67, 0.09, 0.24]", "[7.9, 2.1]"},
      {"[2, 0, 1]", "[1, 0, 0]", "[10, 0]"},
      {"[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.87, 2.13]"},
      {"[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.88, 2.12, 5, 6]"},
      {"[2, 0, 1]", "[0,665, 0,090, 0,245]", "[7,88, 2,12]"},
      {"[2, 1]", "[0.5, 0.5, 0]", "[5]"},
  };
  const std::filesystem::path dir = scratch() / "same-verdicts";
  std::filesystem::create_directories(dir / "answers");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::string text = lesson_answers(cases[i][0], cases[i][1], cases[i][2]);
    text.replace(text.find("student: \"s001\""), 15, "student: \"s00" + std::to_string(i + 1) + "\"");
    // The template names s001's variant; each file here is marked as its own student.
    text.erase(text.find("variant: "), text.find('\n', text.find("variant: ")) - text.find("variant: ") + 1);
    attnmark::write_file((dir / "answers" / ("s00" + std::to_string(i + 1) + ".yaml")).string(), text);
  }
  const Run marked = run_cli("mark rubrics/lesson.yaml '" + (dir / "answers").string() + "' --out '" + (dir / "out").string() + "'");
  REQUIRE(marked.status == 0);
  const std::map<std::string, std::string> symbol = {{"correct", "✓"}, {"carried", "✓*"}, {"imprecise", "≈"},
                                                     {"wrong", "✗"},   {"unanswered", "·"}, {"unreadable", "?"}};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string id = "s00" + std::to_string(i + 1);
    const Run checked = run_cli("check rubrics/lesson.yaml --answers '" + (dir / "answers" / (id + ".yaml")).string() + "'");
    const nlohmann::json feedback =
        nlohmann::json::parse(attnmark::read_file((dir / "out" / "feedback" / (id + ".json")).string(), 1 << 20));
    INFO(id << ": " << cases[i][1] << " " << cases[i][2] << "\n" << checked.out);
    // check's marks per part: after the score on the part's line, or, for a
    // matrix, on a line per row ("      bus: ✓ ✓ ✓").
    std::map<std::string, std::string> check_marks;  // "q1 weights" → "≈ ✓ ✓"
    std::string question, part;
    std::size_t start = 0;
    for (std::size_t end; (end = checked.out.find('\n', start)) != std::string::npos; start = end + 1) {
      const std::string line = checked.out.substr(start, end - start);
      if (line.starts_with("q")) {
        question = line.substr(0, line.find(' '));
      } else if (line.starts_with("  ") && !line.starts_with("   ") && line.size() > 28) {
        part = question + " " + line.substr(2, line.find_last_not_of(' ', 15) - 1);
        check_marks[part] = line.find("↓") == std::string::npos ? line.substr(28) : "";
      } else if (line.starts_with("      ") && !line.starts_with("      hint:") && line.find(": ") != std::string::npos) {
        std::string& marks = check_marks[part];
        marks += (marks.empty() ? "" : " ") + line.substr(line.find(": ") + 2);
      }
    }
    for (const auto& q : feedback.at("questions"))
      for (const auto& [name, result] : q.at("parts").items()) {
        std::string marks;
        for (const auto& cell : result.at("cells")) marks += (marks.empty() ? "" : " ") + symbol.at(cell.at("verdict"));
        std::string label = name;
        std::replace(label.begin(), label.end(), '_', ' ');
        INFO(q.at("id").get<std::string>() << " " << label);
        CHECK(check_marks[q.at("id").get<std::string>() + " " + label] == marks);
      }
  }
}

TEST_CASE("check never sends CR, VT, FF or an escape sequence from an answer file to the terminal") {
  const auto path = scratch() / "s001-controls.yaml";
  std::string text = lesson_answers("[2, 0, 1]", "[0.665, 0.090, 0.245]", "[7.88, 2.12]");
  const std::string blank = "    most_attended: ~  # a token's word\n";
  REQUIRE(text.find(blank) != std::string::npos);
  text.replace(text.find(blank), blank.size(), "    most_attended: \"\\rcat\\v\\f\\e[2J\"\n");
  text += "  \"q\\r9\": {scores: 1}\n";
  attnmark::write_file(path.string(), text);
  const Run r = run_cli("check rubrics/lesson.yaml --answers '" + path.string() + "'");
  CHECK(r.status == 1);
  CHECK(r.out.find_first_of("\r\v\f\x1B") == std::string::npos);
  CHECK(r.out.find("\\rcat\\x0B\\x0C\\x1B[2J") != std::string::npos);
  CHECK(r.out.find("question 'q\\r9' has control characters in its name; ignored") != std::string::npos);
}

TEST_CASE("check reads a notebook as it reads an answer file, and finds its rubric") {
  // The worksheet notebook with q1's weights typed as the lesson's hard-attention mistake.
  const Run ws = run_cli("generate rubrics/lesson.yaml --student s001 --format ipynb");
  REQUIRE(ws.status == 0);
  std::string nb = ws.out;
  const std::string blank = "q1_weights = [None, None, None]";
  REQUIRE(nb.find(blank) != std::string::npos);
  nb.replace(nb.find(blank), blank.size(), "q1_weights = [1, 0, 0]");
  const auto path = scratch() / "s001.ipynb";
  attnmark::write_file(path.string(), nb);
  const Run r = run_cli("check '" + path.string() + "'");
  CHECK(r.status == 1);
  CHECK(r.out.starts_with("attnmark check: lesson · student s001 · variant a9fc1491e1b448ef\n"));
  CHECK(r.out.find("  weights           0 / 2   ✗ ✗ ✗\n      hint: Your working first goes wrong at weights · bus: you "
                   "wrote 1, which is not e to the power of the score, divided by the total of e to the power of every "
                   "score.\n      hint: Attention takes a share of every token's value") != std::string::npos);
  // Not a notebook: exit 2 with the reason.
  attnmark::write_file(path.string(), "{\"nbformat\": 4, \"cells\": []}");
  const Run bad = run_cli("check rubrics/lesson.yaml '" + path.string() + "'");
  CHECK(bad.status == 2);
  CHECK(bad.err.find("the notebook has no answer cells") != std::string::npos);
}
