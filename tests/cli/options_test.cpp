// What several commands share (cli/options.h): the strict parsers of option
// values, in the program and as the command line gives them.
#include "support/test_support.h"

#include <filesystem>
#include <fmt/format.h>
#include <string>
#include <utility>
#include <vector>

#include "base/files.h"
#include "cli/options.h"

TEST_CASE("parse_unsigned takes decimal digits from min to max and refuses everything else") {
  using attnmark::parse_unsigned;
  CHECK(parse_unsigned("15", 10, 20, "--n") == 15);
  CHECK(parse_unsigned("10", 10, 20, "--n") == 10);
  CHECK(parse_unsigned("20", 10, 20, "--n") == 20);
  CHECK(parse_unsigned("0020", 10, 20, "--n") == 20);
  CHECK(parse_unsigned("0", 0, 18446744073709551615ULL, "--n") == 0);
  CHECK(parse_unsigned("18446744073709551615", 0, 18446744073709551615ULL, "--n") == 18446744073709551615ULL);
  for (const char* bad : {"9", "21", "-1", "+1", " 1", "1 ", "0x10", "1e3", "", "1.5", "abc", "18446744073709551616"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_unsigned(bad, 10, 20, "--n"),
                      std::string("--n: expected a whole number from 10 to 20; got '") + bad + "'");
  }
  CHECK_THROWS_WITH(parse_unsigned("18446744073709551616", 0, 18446744073709551615ULL, "--n"),
                    "--n: expected a whole number from 0 to 18446744073709551615; got '18446744073709551616'");
  // What the user wrote is quoted printably: one line, no terminal escapes.
  CHECK_THROWS_WITH(parse_unsigned("1\n\x1B[1m", 10, 20, "--n"),
                    "--n: expected a whole number from 10 to 20; got '1\\n\\x1B[1m'");
}

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
  CHECK(attnmark::parse_jobs(std::string("1")) == 1);
  CHECK(attnmark::parse_jobs(std::string("256")) == 256);
  CHECK(attnmark::parse_jobs(std::nullopt) >= 1);
}

TEST_CASE("every other number option is parsed as strictly, with its own range") {
  const std::filesystem::path dir = scratch() / "number-options";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string answers = (dir / "answers.yaml").string();
  attnmark::write_file(answers, "rubric: lesson\nseed: 1\n");
  const std::string out = (dir / "out").string();
  // Each fails on its number before it writes anything or opens a database.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"validate rubrics/lesson.yaml --self-test --seeds 0", "--seeds: expected a whole number from 1 to 1000; got '0'"},
      {"validate rubrics/lesson.yaml --self-test --seeds 1001",
       "--seeds: expected a whole number from 1 to 1000; got '1001'"},
      {"validate rubrics/lesson.yaml --self-test --seeds -1", "--seeds: expected a whole number from 1 to 1000; got '-1'"},
      {"serve --port -1", "--port: expected a whole number from 0 to 65535; got '-1'"},
      {"serve --port 65536", "--port: expected a whole number from 0 to 65535; got '65536'"},
      {"serve --attempts 0", "--attempts: expected a whole number from 1 to 1000000; got '0'"},
      {"serve --attempts 1000001", "--attempts: expected a whole number from 1 to 1000000; got '1000001'"},
      {fmt::format("mark rubrics/lesson.yaml '{}' -o '{}' --seed 0x10", answers, out),
       "--seed: expected a whole number from 0 to 18446744073709551615; got '0x10'"},
      {fmt::format("check '{}' --seed ' 1'", answers),
       "--seed: expected a whole number from 0 to 18446744073709551615; got ' 1'"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args);
    const Run r = run_cli(args);
    CHECK(r.status == 2);
    CHECK(r.err == "attnmark: " + message + "\n");
  }
  CHECK(!std::filesystem::exists(out));
}

TEST_CASE("parse_date reads a UTC date, with or without a time") {
  using attnmark::parse_date;
  CHECK(parse_date("--close", "1970-01-01") == 0);
  CHECK(parse_date("--close", "2026-12-24") == 1798070400);
  CHECK(parse_date("--close", "2026-12-24Z") == 1798070400);
  CHECK(parse_date("--close", "2026-12-24T17:00Z") == 1798131600);
  CHECK(parse_date("--close", "2026-12-24T17:00") == 1798131600);
  CHECK(parse_date("--close", "2026-12-24 17:00") == 1798131600);
  CHECK(parse_date("--close", "2026-12-24T17:00:30Z") == 1798131630);
  CHECK(parse_date("--close", "2024-02-29") == 1709164800);
  for (const char* bad : {"", "x", "2026-13-01", "2026-02-30", "2026-00-10", "2026-12-32", "2026-1-01", "26-12-24",
                          "2026-12-24T17", "2026-12-24T24:00", "2026-12-24T17:60", "2026-12-24T17:00:60",
                          "2026-12-24T17:00ZZ", "2026-12-24X", " 2026-12-24", "2026-12-24 "}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_date("--reveal-after", bad),
                      std::string("--reveal-after: expected a date like 2026-12-24 or 2026-12-24T17:00Z (UTC); got '") +
                          bad + "'");
  }
}

TEST_CASE("a class's input where the rubric goes says the first argument is the rubric: exit 2, nothing written") {
  namespace fs = std::filesystem;
  const fs::path dir = scratch() / "rubric-left-out";
  fs::create_directories(dir / "answers");
  const std::string answers = (dir / "answers").string() + "/";
  const std::string s01 = (dir / "answers" / "s01.yaml").string();
  attnmark::write_file(s01, attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/fixtures/class/answers/s01.yaml", 1 << 20));
  const std::string json = (dir / "answers" / "s02.json").string();
  attnmark::write_file(json, attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/fixtures/class/answers/s02.json", 1 << 20));
  const std::string sheet = (dir / "sheet.csv").string();
  attnmark::write_file(sheet, "student,q1.scores.1\ns01,0\n");
  const std::string out = (dir / "out").string();
  auto hint = [](const std::string& path, const std::string& example) {
    return "attnmark: " + path + ": is not a rubric (the first argument is the rubric, e.g. " + example + ")\n";
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      // `attnmark mark answers/`: the folder was taken for the rubric.
      {fmt::format("mark '{}' -o '{}'", answers, out), hint(answers, "attnmark mark rubrics/lesson.yaml " + answers)},
      {fmt::format("mark '{}' '{}' -o '{}'", s01, answers, out), hint(s01, "attnmark mark rubrics/lesson.yaml " + s01)},
      {fmt::format("mark '{}' '{}' -o '{}'", json, answers, out), hint(json, "attnmark mark rubrics/lesson.yaml " + json)},
      {fmt::format("mark '{}' '{}' -o '{}'", sheet, answers, out), hint(sheet, "attnmark mark rubrics/lesson.yaml " + sheet)},
      {fmt::format("generate '{}' --student s01", s01),
       hint(s01, "attnmark generate rubrics/lesson.yaml --student s001")},
      {fmt::format("key '{}' --student s01", answers), hint(answers, "attnmark key rubrics/lesson.yaml --student s001")},
      {fmt::format("autograde gradescope '{}' --root '{}'", s01, out),
       "attnmark: " + s01 + ": is not a rubric (the rubric comes after the platform, e.g. attnmark autograde "
                            "gradescope rubrics/lesson.yaml)\n"},
      {fmt::format("check '{}' '{}'", s01, s01), hint(s01, "attnmark check rubrics/lesson.yaml " + s01)},
      {fmt::format("validate '{}'", s01),
       "attnmark: " + s01 + ": is not a rubric (validate checks rubrics, e.g. attnmark validate rubrics/lesson.yaml; "
                            "attnmark check RUBRIC FILE checks answers)\n"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args);
    const Run r = run_cli(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err == message);
    CHECK(!fs::exists(out));
  }
  // A rubric with a mistake of its own keeps the rubric reader's own error.
  const std::string typo = (dir / "typo.yaml").string();
  attnmark::write_file(typo, "name: x\nbogus: 1\nquestions: []\n");
  const Run r = run_cli(fmt::format("mark '{}' '{}' -o '{}'", typo, answers, out));
  CHECK(r.status == 2);
  CHECK(r.err.starts_with("attnmark: " + typo + ":2:1: unknown key 'bogus'"));
  // A rubric and no input is still "INPUT is required".
  CHECK(run_cli("mark rubrics/lesson.yaml -o " + out).err == "attnmark: mark: INPUT is required; see attnmark mark --help\n");
}

TEST_CASE("a fresh seed has 63 random bits: never the same twice, never 0, too many to try one by one") {
  const std::uint64_t a = attnmark::fresh_seed(), b = attnmark::fresh_seed();
  CHECK(a != b);
  for (const std::uint64_t s : {a, b}) {
    CHECK(s >= 1);
    CHECK(s < (std::uint64_t{1} << 63));
  }
  // A seed of 6 digits or fewer happens once in 9 million million draws.
  CHECK((a > 999999 || b > 999999));
}
