// attnmark validate (cli/validate.cpp), run as a user runs it: definition
// errors with their place, the line and a caret; every shipped rubric passes.
#include "support/test_support.h"

#include <string>

#include "base/files.h"

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
