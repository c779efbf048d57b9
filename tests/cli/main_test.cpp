// The program's shell (cli/main.cpp), run as a user runs it: usage errors
// exit 2, --help exits 0.
#include "support/test_support.h"

TEST_CASE("usage errors exit 2") {
  CHECK(run_cli("").status == 2);
  CHECK(run_cli("frobnicate").status == 2);
  CHECK(run_cli("key rubrics/lesson.yaml --format pdf").status == 2);
  CHECK(run_cli("key rubrics/lesson.yaml --format pdf").err == "attnmark: --format: expected md, json, jsonl, html or tex; got 'pdf'\n");
  CHECK(run_cli("key no-such-file.yaml").err.rfind("attnmark: no-such-file.yaml: cannot open: No such file or directory", 0) == 0);
  CHECK(run_cli("--help").status == 0);
}
