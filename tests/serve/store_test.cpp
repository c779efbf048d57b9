// The class's SQLite file, for real on disk.
#include "serve/store.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include "attnmark/base/error.h"
#include <atomic>
#include <set>
#include <thread>

#include "support/serve_support.h"

namespace fs = std::filesystem;

namespace {

fs::path fresh(const std::string& name) {
  const fs::path dir = scratch() / ("store-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir / "class.sqlite";
}

void sql(const fs::path& db, const std::string& text) {
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &handle) == SQLITE_OK);
  CHECK(sqlite3_exec(handle, text.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(handle);
}

std::string error_of(const fs::path& db) {
  try {
    attnmark::Store store(db.string(), attnmark::StoreUse::serve, 200);
  } catch (const attnmark::Error& e) {
    return e.report();
  }
  return "";
}

}  // namespace

TEST_CASE("serve: the store keeps the class and its attempts across opens, in WAL mode at the schema's version") {
  const fs::path db = fresh("keeps");
  {
    attnmark::Store store(db.string());
    CHECK(store.schema_version() == attnmark::store_schema_version);
    CHECK_FALSE(store.has_class());
    store.set_class({std::string(64, 'f'), "name: x\n", "x.yaml", 42, "student\ns1\n", "roster.csv"});
    attnmark::AttemptRecord a{0, "s1", "2026-12-01T08:00:00Z", "{}", 3, 16, "{\"student\":\"s1\"}"};
    CHECK(store.add_attempt(a) == 1);
    CHECK(store.add_attempt(a) == 2);
  }
  attnmark::Store store(db.string());
  CHECK(store.has_class());
  const attnmark::ClassRecord r = store.load_class();
  CHECK(r.seed == 42);
  CHECK(r.rubric_text == "name: x\n");
  CHECK(r.roster_file == "roster.csv");
  CHECK(store.attempt_count() == 2);
  CHECK(store.attempt_count_of("s1") == 2);
  CHECK(store.attempts_of("s1").back().feedback == "{\"student\":\"s1\"}");
  CHECK(store.attempts_of("s2").empty());
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &handle) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(handle, "PRAGMA journal_mode", -1, &stmt, nullptr);
  REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
  CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0))) == "wal");
  sqlite3_finalize(stmt);
  sqlite3_close(handle);
}

TEST_CASE("serve: a newer, damaged, foreign or locked database is a clear error at open") {
  const fs::path newer = fresh("newer");
  { attnmark::Store store(newer.string()); }
  sql(newer, "PRAGMA user_version=7");
  CHECK(error_of(newer) == newer.string() +
                               ": was written by a newer attnmark (schema version 7; this one reads up to 2); use that "
                               "attnmark, or start a new database");

  const fs::path junk = fresh("junk");
  attnmark::write_file(junk.string(), std::string(4096, 'x'));
  CHECK(error_of(junk) == junk.string() + ": is not an attnmark database, or is damaged (file is not a database)");

  const fs::path locked = fresh("locked");
  sqlite3* holder = nullptr;
  REQUIRE(sqlite3_open(locked.c_str(), &holder) == SQLITE_OK);
  REQUIRE(sqlite3_exec(holder, "BEGIN EXCLUSIVE; CREATE TABLE t (x);", nullptr, nullptr, nullptr) == SQLITE_OK);
  CHECK(error_of(locked) == locked.string() + ": is locked by another program (is another attnmark serve using it?); stop it first");
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
  CHECK(error_of(locked).empty());

  // Reading a class never creates its file.
  const fs::path missing = fresh("missing");
  CHECK_THROWS_WITH(attnmark::Store(missing.string(), attnmark::StoreUse::read),
                    missing.string() + ": does not exist; attnmark serve creates it at its first start");
  CHECK_FALSE(fs::exists(missing));

  // From the command line: exit status 2 and the same words.
  const Run r = run_cli("access-codes --db '" + newer.string() + "'");
  CHECK(r.status == 2);
  CHECK(r.err.find("attnmark: " + newer.string() + ": was written by a newer attnmark") == 0);
}

TEST_CASE("serve: a class database another program holds a write lock on says so when the store writes") {
  const fs::path db = fresh("write-locked");
  {
    attnmark::Store store(db.string());
    store.set_class({std::string(64, 'f'), "name: x\n", "x.yaml", 42, "student\ns1\n", "roster.csv"});
  }
  WriteLock other(db.string(), "INSERT INTO attempts (student, at, answers, score, max_score, feedback) "
                               "VALUES ('s1', '2026-12-01T08:00:00Z', '{}', 0, 1, '{}')");
  // Open and read while the other program writes (WAL), but not write.
  attnmark::Store store(db.string(), attnmark::StoreUse::serve, 200);
  CHECK(store.has_class());
  const std::string locked = db.string() + ": is locked by another program (is another attnmark serve using it?); stop it first";
  CHECK_THROWS_WITH(store.set_teacher_token_hash(std::string(64, '0')), locked);
  CHECK_THROWS_WITH(store.add_attempt({0, "s1", "2026-12-01T08:00:00Z", "{}", 1, 2, "{}"}), locked);
  other.release();
  CHECK(store.add_attempt({0, "s1", "2026-12-01T08:00:00Z", "{}", 1, 2, "{}"}) == 1);
}

TEST_CASE("serve: a database of another program is refused before anything is written, and reading never creates a file") {
  const std::string foreign_words =
      ": is an SQLite database of another program (it has no attnmark class); choose a new file for --db";
  // Tables at user_version 0, or a user_version of another program's without attnmark's meta table.
  for (const std::string schema : {"CREATE TABLE notes (x); INSERT INTO notes VALUES (1)",
                                    "CREATE TABLE settings (x); PRAGMA user_version=1"}) {
    INFO(schema);
    const fs::path db = fresh("foreign");
    sql(db, schema);
    const std::string before = attnmark::read_file(db.string(), 1 << 20);
    CHECK(error_of(db) == db.string() + foreign_words);
    CHECK_THROWS_WITH(attnmark::Store(db.string(), attnmark::StoreUse::read), db.string() + foreign_words);
    CHECK(attnmark::read_file(db.string(), 1 << 20) == before);
  }

  // From the command line: every command that takes --db refuses it, exit
  // status 2, and leaves the file byte for byte as it was and nothing beside it.
  const fs::path folder = scratch() / "store-foreign-cli";
  fs::remove_all(folder);
  fs::create_directories(folder);
  const fs::path db = folder / "foreign.sqlite";
  sql(db, "CREATE TABLE notes (x); INSERT INTO notes VALUES ('keep me')");
  const std::string roster = write_roster(folder, 2);
  const std::string before = attnmark::read_file(db.string(), 1 << 20);
  const std::vector<std::string> files = listing(folder);
  for (const std::string& command :
       {"access-codes --db '" + db.string() + "'",
        // (192.0.2.1 is no address of this machine: were the file taken, serve would fail to listen, not serve on)
        "serve rubrics/lesson.yaml --seed 1 --roster '" + roster + "' --db '" + db.string() + "' --host 192.0.2.1 --port 0",
        "mark --db '" + db.string() + "' --out '" + (folder / "out").string() + "'",
        "generate rubrics/lesson.yaml --seed 1 --student s001 --db '" + db.string() + "' --url http://class.example/"}) {
    INFO(command);
    const Run r = run_cli(command);
    CHECK(r.status == 2);
    CHECK(r.err == "attnmark: " + db.string() + foreign_words + "\n");
    CHECK(r.out.empty());
    CHECK(attnmark::read_file(db.string(), 1 << 20) == before);
    CHECK(listing(folder) == files);
  }

  // A file that holds no class: reading commands say so and leave it as it
  // was; one that does not exist is not created.
  const fs::path empty = folder / "empty.sqlite";
  attnmark::write_file(empty.string(), "");
  const fs::path unfinished = folder / "unfinished.sqlite";
  { attnmark::Store store(unfinished.string()); }  // a first start that stopped before the class was stored
  const fs::path missing = folder / "missing.sqlite";
  for (const fs::path& file : {empty, unfinished, missing}) {
    const std::string bytes = fs::exists(file) ? attnmark::read_file(file.string(), 1 << 20) : std::string();
    const std::vector<std::string> now = listing(folder);
    for (const std::string& command : {"access-codes --db '" + file.string() + "'",
                                      "mark --db '" + file.string() + "' --out '" + (folder / "out").string() + "'"}) {
      INFO(command);
      const Run r = run_cli(command);
      CHECK(r.status == 2);
      CHECK(r.err == "attnmark: " + file.string() +
                         (file == missing ? ": does not exist; attnmark serve creates it at its first start\n"
                                          : ": holds no class yet; start attnmark serve with a rubric, --seed and "
                                            "--roster first\n"));
      CHECK(listing(folder) == now);
      if (file != missing) CHECK(attnmark::read_file(file.string(), 1 << 20) == bytes);
    }
  }
}

TEST_CASE("serve: attempts stored from many threads at once are each stored once", "[threads]") {
  const fs::path db = fresh("threads");
  attnmark::Store store(db.string());
  std::vector<std::thread> threads;
  std::vector<std::vector<std::int64_t>> ids(8);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i)
        ids[t].push_back(store.add_attempt({0, "s" + std::to_string(t), "2026-12-01T08:00:00Z", std::to_string(i), 1, 2, "{}"}));
    });
  for (std::thread& t : threads) t.join();
  std::set<std::int64_t> all;
  for (const auto& v : ids) all.insert(v.begin(), v.end());
  CHECK(all.size() == 400);
  CHECK(store.attempt_count() == 400);

  // A limit holds when many checks of one student arrive at once.
  std::atomic<int> stored{0};
  threads.clear();
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i)
        stored += store.add_attempt({0, "limited", "2026-12-01T08:00:00Z", "{}", 1, 2, "{}"}, 3) != 0;
    });
  for (std::thread& t : threads) t.join();
  CHECK(stored == 3);
  CHECK(store.attempt_count_of("limited") == 3);
}

namespace {

attnmark::AttemptRecord attempt_of(const std::string& student, std::size_t bytes) {
  // `bytes` in all: half answers, half feedback.
  return {0, student, "2026-12-01T08:00:00Z", std::string(bytes / 2, 'a'), 1, 2, std::string(bytes - bytes / 2, 'f')};
}

unsigned mode_of(const fs::path& file) {
  struct stat info {};
  REQUIRE(::stat(file.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

}  // namespace

TEST_CASE("serve: an attempt past its student's storage cap is not kept, counted in the transaction of the insert") {
  const fs::path db = fresh("storage-cap");
  attnmark::Store store(db.string());
  const attnmark::StoreCaps caps{std::nullopt, 100, std::nullopt};
  attnmark::Added a = store.add_attempt(attempt_of("s1", 60), caps);
  CHECK(a.kept == attnmark::Kept::stored);
  CHECK(a.id == 1);
  CHECK(store.counted_bytes_of("s1") == 60);
  CHECK(store.add_attempt(attempt_of("s1", 40), caps).kept == attnmark::Kept::stored);  // exactly 100: kept
  CHECK(store.students_at_storage_cap().empty());
  a = store.add_attempt(attempt_of("s1", 1), caps);
  CHECK(a.kept == attnmark::Kept::student_full);
  CHECK(a.id == 0);
  CHECK(store.attempt_count_of("s1") == 2);
  CHECK(store.add_attempt(attempt_of("s2", 100), caps).kept == attnmark::Kept::stored);  // another student's own
  REQUIRE(store.students_at_storage_cap().size() == 1);
  CHECK(store.students_at_storage_cap()[0].student == "s1");
  CHECK(store.students_at_storage_cap()[0].bytes == 100);
  // The attempt cap is still checked first.
  CHECK(store.add_attempt(attempt_of("s1", 1), {2, 100, std::nullopt}).kept == attnmark::Kept::attempts_used);
  // Cleared by the teacher: another allowance, the attempts kept.
  CHECK(store.clear_stored_bytes("s1"));
  CHECK_FALSE(store.clear_stored_bytes("s1"));
  CHECK_FALSE(store.clear_stored_bytes("nobody"));
  CHECK(store.students_at_storage_cap().empty());
  CHECK(store.add_attempt(attempt_of("s1", 100), caps).kept == attnmark::Kept::stored);
  CHECK(store.attempt_count_of("s1") == 3);
  // Bytes, not characters: "é" is 2.
  CHECK(store.add_attempt({0, "s3", "2026-12-01T08:00:00Z", "\xC3\xA9", 1, 2, "{}"}, caps).kept == attnmark::Kept::stored);
  CHECK(store.counted_bytes_of("s3") == 4);
}

TEST_CASE("serve: past the database's cap every check is kept out, and the size is the file's pages", "[threads]") {
  const fs::path db = fresh("database-cap");
  attnmark::Store store(db.string());
  store.set_class({std::string(64, 'f'), "name: x\n", "x.yaml", 42, "student\ns1\n", "roster.csv"});
  const std::int64_t size = store.database_bytes();
  CHECK(size > 0);
  CHECK(size % 4096 == 0);
  attnmark::Added a = store.add_attempt(attempt_of("s1", 10), {std::nullopt, std::nullopt, size});
  CHECK(a.kept == attnmark::Kept::database_full);
  CHECK(a.id == 0);
  CHECK(store.attempt_count() == 0);
  CHECK(store.add_attempt(attempt_of("s1", 10), {std::nullopt, std::nullopt, size + 10}).kept == attnmark::Kept::stored);
  // Many threads at once near the cap: the database never passes it.
  const std::int64_t cap = store.database_bytes() + 64 * 1024;
  std::vector<std::thread> threads;
  std::atomic<int> kept{0}, full{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        const attnmark::Kept k = store.add_attempt(attempt_of("s" + std::to_string(t), 2000), {std::nullopt, std::nullopt, cap}).kept;
        (k == attnmark::Kept::stored ? kept : full)++;
      }
    });
  for (std::thread& t : threads) t.join();
  CHECK(kept > 0);
  CHECK(full > 0);
  CHECK(kept + full == 160);
  CHECK(store.attempt_count() == 1 + kept);
  CHECK(store.database_bytes() <= cap + 2 * 4096);  // the pages the last attempt kept began (its row, its index entry)
}

TEST_CASE("serve: a schema 1 database is migrated with each student's stored bytes counted") {
  const fs::path db = fresh("migrate-bytes");
  sql(db, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
          "CREATE TABLE attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, student TEXT NOT NULL, at TEXT NOT NULL,"
          "  answers TEXT NOT NULL, score REAL NOT NULL, max_score REAL NOT NULL, feedback TEXT NOT NULL);"
          "CREATE INDEX attempts_by_student ON attempts (student, id);"
          "INSERT INTO attempts (student, at, answers, score, max_score, feedback) VALUES"
          "  ('s1', 't', 'abc', 1, 2, '{}'), ('s1', 't', '\xC3\xA9', 1, 2, '{}'), ('s2', 't', 'x', 1, 2, 'y');"
          "PRAGMA user_version=1");
  attnmark::Store store(db.string());
  CHECK(store.schema_version() == 2);
  CHECK(store.counted_bytes_of("s1") == 9);
  CHECK(store.counted_bytes_of("s2") == 2);
  CHECK(store.counted_bytes_of("s3") == 0);
}

TEST_CASE("serve: the database, its -wal and -shm are 0600 under a umask of 022, and an older 0644 file is made 0600 and said") {
  const mode_t before = ::umask(022);
  const fs::path db = fresh("modes");
  {
    attnmark::Store store(db.string());
    CHECK(store.opening_notes().empty());
    store.set_class({std::string(64, 'f'), "name: x\n", "x.yaml", 42, "student\ns1\n", "roster.csv"});
    store.add_attempt(attempt_of("s1", 10));
    for (const std::string suffix : {"", "-wal", "-shm"}) {
      INFO(suffix);
      CHECK(mode_of(db.string() + suffix) == 0600);
    }
  }
  // Made by an attnmark before this one (or copied in): 0644, with a -wal left by a kill -9.
  ::chmod(db.c_str(), 0644);
  const fs::path wal = db.string() + "-wal";
  attnmark::write_file(wal.string(), "");
  ::chmod(wal.c_str(), 0640);
  {
    attnmark::Store store(db.string());
    CHECK(store.opening_notes() ==
          std::vector<std::string>{db.string() + ": was readable by other users of this machine (mode 0644); it is now "
                                                 "0600, with its -wal and -shm (yours only): it holds the class's secret, "
                                                 "seed and every attempt"});
    CHECK(mode_of(db) == 0600);
    CHECK(mode_of(wal) == 0600);
    CHECK(store.has_class());
  }
  // Reading commands change nothing, mode included.
  ::chmod(db.c_str(), 0644);
  { attnmark::Store reader(db.string(), attnmark::StoreUse::read); }
  CHECK(mode_of(db) == 0644);
  ::umask(before);
}
