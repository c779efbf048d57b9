// attnmark validate (cli/validate.cpp), run as a user runs it: definition
// errors with their place, the line and a caret, after "attnmark: " as every
// command's; every shipped rubric passes.
#include "support/test_support.h"

#include <string>

#include "base/files.h"

TEST_CASE("definition errors exit 2 with file:line:column, the line and a caret") {
  const auto path = scratch() / "bad.yaml";
  attnmark::write_file(path.string(), "questions:\n  - task: one-tokn\n");
  const Run r = run_cli("validate '" + path.string() + "'");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "attnmark: " + path.string() +
                     ":2:11: q1.task: expected 'one-token' or 'all-tokens'; got 'one-tokn' (did you mean 'one-token'?)\n"
                     "  - task: one-tokn\n"
                     "          ^\n");
  const Run g = run_cli("generate '" + path.string() + "'");
  CHECK(g.status == 2);
  CHECK(g.err.rfind("attnmark: " + path.string() + ":2:11: q1.task:", 0) == 0);
}

TEST_CASE("validate checks every rubric after one fails, each error starting attnmark:") {
  const Run r = run_cli("validate /no/such.yaml rubrics/one-token.yaml /no/other.yaml");
  CHECK(r.status == 2);
  CHECK(r.out == "rubrics/one-token.yaml: ok (1 question)\n");
  CHECK(r.err ==
        "attnmark: /no/such.yaml: cannot open: No such file or directory\n"
        "attnmark: /no/other.yaml: cannot open: No such file or directory\n");
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

TEST_CASE("validate --self-test: every known mistake named exactly and right answers in every spelling, or exit 1") {
  const Run fair = run_cli("validate rubrics/lesson.yaml --self-test --seeds 5");
  CHECK(fair.status == 0);
  CHECK(fair.out.find("rubrics/lesson.yaml: self-test on 5 students' variants (seed 2026)\n") != std::string::npos);
  // Each mistake made on 5 variants in 4 spellings (rounded-early and wrong-exp-base have two forms each).
  CHECK(fair.out.find("  q1 weights: named exactly (of times made): hard-attention 20/20, no-exp 20/20, no-normalise 20/20, "
                      "rounded-early 40/40, wrong-exp-base 40/40\n") != std::string::npos);
  CHECK(fair.out.find("  right answers in 4 spellings: full marks on every variant\n") != std::string::npos);
  CHECK(fair.out.find("rubrics/lesson.yaml: fair: every mistake is named exactly and right answers get full marks\n") !=
        std::string::npos);
  // A tolerance of 0 on weights asked to 3 decimals: the right answer, rounded
  // as asked, loses its marks, and the self-test says so.
  const std::filesystem::path path = scratch() / "zero-tolerance.yaml";
  std::string rubric = attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/lesson.yaml", 1 << 20);
  const std::string asked = "weights: {marks: 2, decimals: 3}";
  REQUIRE(rubric.find(asked) != std::string::npos);
  rubric.replace(rubric.find(asked), asked.size(), "weights: {marks: 2, decimals: 3, tolerance: {absolute: 0}}");
  attnmark::write_file(path.string(), rubric);
  const Run unfair = run_cli("validate '" + path.string() + "' --self-test --seeds 2");
  CHECK(unfair.status == 1);
  CHECK(unfair.out.find("    unfair: self-test-1, as asked: q1.weights 0 / 2") != std::string::npos);
  CHECK(unfair.out.find("cases would be marked unfairly\n") != std::string::npos);
  // --seeds is checked, and only goes with --self-test.
  CHECK(run_cli("validate rubrics/lesson.yaml --seeds 5").status == 2);
  CHECK(run_cli("validate rubrics/lesson.yaml --self-test --seeds 0").status == 2);
}

TEST_CASE("every shipped rubric passes validate --self-test on 40 variants") {
  for (const char* name : {"lesson", "one-token", "all-tokens", "scaled-causal", "projections", "class-demo"}) {
    const Run r = run_cli(std::string("validate rubrics/") + name + ".yaml --self-test");
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("rubrics/") + name + ".yaml: fair: ") != std::string::npos);
  }
}
