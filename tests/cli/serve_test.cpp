// attnmark serve's options for its limits, what its start says of them and
// of the files' modes, and access-codes -o.
#include "cli/serve.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include "attnmark/base/error.h"
#include "support/serve_support.h"

namespace fs = std::filesystem;

namespace {

// A folder of `mode`; one others may reach is made outside scratch() (0700).
fs::path folder(const std::string& name, unsigned mode) {
  const fs::path dir = (mode & 05) ? fs::temp_directory_path() / ("attnmark-open-" + std::to_string(getpid()) + "-" + name)
                                   : scratch() / ("cli-serve-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  ::chmod(dir.c_str(), mode);
  return dir;
}

unsigned mode_of(const fs::path& file) {
  struct stat info {};
  REQUIRE(::stat(file.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

std::string serve_args(const fs::path& dir, const std::string& more = "") {
  return fmt::format("rubrics/lesson.yaml --seed 7 --roster '{}' --db '{}' {}", write_roster(dir, 2),
                     (dir / "class.sqlite").string(), more);
}

}  // namespace

TEST_CASE("parse_size takes a whole number of bytes, KiB, MiB or GiB within its range, and nothing else") {
  using attnmark::parse_size;
  CHECK(parse_size("2MiB", 1, 1ULL << 40, "--x") == 2 * 1024 * 1024);
  CHECK(parse_size("512KiB", 1, 1ULL << 40, "--x") == 512 * 1024);
  CHECK(parse_size("1GiB", 1, 1ULL << 40, "--x") == 1ULL << 30);
  CHECK(parse_size("4096", 1, 1ULL << 40, "--x") == 4096);
  CHECK(parse_size("1024GiB", 1, 1ULL << 40, "--x") == 1ULL << 40);
  for (const std::string bad : {"-1", "+1", "", "MiB", "2 MiB", "2mib", "2MB", "2M", "1.5MiB", " 2MiB", "2MiB ",
                                "0x10", "1025GiB", "0", "18446744073709551616", "17179869184GiB"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_size(bad, 1, 1ULL << 40, "--db-max"),
                      "--db-max: expected a size like 2MiB, 512KiB or 1GiB from 1 byte to 1024 GiB; got '" + bad + "'");
  }
}

TEST_CASE("serve's limit options are parsed strictly, before any database is opened") {
  const fs::path dir = folder("bad-limits", 0700);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--checks-per-minute -1", "--checks-per-minute: expected a whole number from 1 to 100000; got '-1'"},
      {"--checks-per-minute 0", "--checks-per-minute: expected a whole number from 1 to 100000; got '0'"},
      {"--storage-per-student -1",
       "--storage-per-student: expected a size like 2MiB, 512KiB or 1GiB from 64 KiB to 1 GiB; got '-1'"},
      {"--storage-per-student 1KiB",
       "--storage-per-student: expected a size like 2MiB, 512KiB or 1GiB from 64 KiB to 1 GiB; got '1KiB'"},
      {"--db-max 2GB", "--db-max: expected a size like 2MiB, 512KiB or 1GiB from 1 MiB to 1024 GiB; got '2GB'"},
  };
  for (const auto& [more, message] : cases) {
    INFO(more);
    const Run r = run_cli("serve " + serve_args(dir, more) + " --port 0");
    CHECK(r.status == 2);
    CHECK(r.err == "attnmark: " + message + "\n");
    CHECK_FALSE(fs::exists(dir / "class.sqlite"));
  }
  attnmark::ServeOptions options;
  CHECK(attnmark::class_limits(options).checks_per_minute == 30);
  CHECK(attnmark::class_limits(options).storage_per_student == 2 * 1024 * 1024);
  CHECK(attnmark::class_limits(options).database_max == 1LL << 30);
  options.checks_per_minute = "120";
  options.storage_per_student = "8MiB";
  options.db_max = "20GiB";
  const attnmark::ClassLimits limits = attnmark::class_limits(options);
  CHECK(limits.checks_per_minute == 120);
  CHECK(limits.storage_per_student == 8 * 1024 * 1024);
  CHECK(limits.database_max == 20LL << 30);
}

TEST_CASE("serve's start says its caps in the rules line, makes the database 0600 and warns of an open folder") {
  const fs::path dir = folder("start", 0755);
  {
    ServeProcess server(serve_args(dir, "--checks-per-minute 5 --storage-per-student 512KiB --db-max 2GiB"), dir);
    REQUIRE(server.running());
    CHECK(server.out().find("\n  rules: any number of checks; a check with every box blank or unreadable, or the same as the last, is answered, not stored; the gradebook counts each student's best attempt; right "
                            "answers never shown; at most 5 checks a minute per student; up to 512 KiB of attempts "
                            "stored per student and 2 GiB in all (later checks are answered, not stored)\n") !=
          std::string::npos);
    const std::string db = (dir / "class.sqlite").string();
    CHECK(server.err() == fmt::format("attnmark serve: warning: other users of this machine can open the folder of {}, "
                                      "'{}' (mode 0755); the database is kept 0600, but a backup or a list of codes put "
                                      "there is theirs to read as the folder allows: chmod 700 that folder to keep it "
                                      "to yourself\n",
                                      db, dir.string()));
    for (const std::string suffix : {"", "-wal", "-shm"}) {
      INFO(suffix);
      CHECK(mode_of(db + suffix) == 0600);
    }
  }
  // A database made 0644 (by an older attnmark) in a folder of the owner's alone: made 0600, and said; no warning.
  ::chmod(dir.c_str(), 0700);
  struct Remove {
    fs::path dir;
    ~Remove() { fs::remove_all(dir); }
  } remove{dir};
  const std::string db = (dir / "class.sqlite").string();
  ::chmod(db.c_str(), 0644);
  ServeProcess again("--db '" + db + "'", dir);
  REQUIRE(again.running());
  CHECK(again.err() == "attnmark serve: " + db +
                           ": was readable by other users of this machine (mode 0644); it is now 0600, with its -wal and "
                           "-shm (yours only): it holds the class's secret, seed and every attempt\n");
  CHECK(mode_of(db) == 0600);
  CHECK(again.out().find("at most 30 checks a minute per student; up to 2 MiB of attempts stored per student and 1 GiB "
                         "in all (later checks are answered, not stored)\n") != std::string::npos);
}

TEST_CASE("access-codes -o writes the codes to a file only its owner reads") {
  const mode_t before = ::umask(022);
  const fs::path dir = folder("codes", 0700);
  const std::string db = (dir / "class.sqlite").string();
  {
    ServeProcess server(serve_args(dir), dir);
    REQUIRE(server.running());
  }
  const Run shown = run_cli("access-codes --db '" + db + "'");
  REQUIRE(shown.status == 0);
  const std::string file = (dir / "codes.csv").string();
  const Run written = run_cli("access-codes --db '" + db + "' -o '" + file + "'");
  CHECK(written.status == 0);
  CHECK(written.out.empty());
  CHECK(attnmark::read_file(file, 1 << 20) == shown.out);
  CHECK(mode_of(file) == 0600);
  ::umask(before);
}
