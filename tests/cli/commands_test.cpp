// What every command shares (cli/commands.h): --seed and --jobs, checked
// strictly, in the program and as the command line gives them.
#include "support/test_support.h"

#include <fmt/format.h>
#include <string>

#include "cli/commands.h"

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

TEST_CASE("the number of jobs (--jobs) is a whole number from 1 to 256") {
  for (const char* bad : {"0", "257", "-1", "+2", "2.5", "abc", ""}) {
    INFO(bad);
    const Run r = run_cli(fmt::format("generate rubrics/lesson.yaml --format html --jobs '{}'", bad));
    CHECK(r.status == 2);
    CHECK(r.err == fmt::format("attnmark: --jobs: expected a whole number from 1 to 256; got '{}'\n", bad));
  }
  CHECK(run_cli("generate rubrics/lesson.yaml --format html --jobs 256").status == 0);
}
