// The class's SQLite file, for real on disk.
#include "serve/store.h"

#include <sqlite3.h>

#include "base/error.h"
#include <atomic>
#include <set>
#include <thread>

#include "support/test_support.h"

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
    attnmark::Store store(db.string(), true, 200);
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
                               ": was written by a newer attnmark (schema version 7; this one reads up to 1); use that "
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
  CHECK_THROWS_WITH(attnmark::Store(missing.string(), false),
                    missing.string() + ": does not exist; attnmark serve creates it at its first start");
  CHECK_FALSE(fs::exists(missing));

  // From the command line: exit status 2 and the same words.
  const Run r = run_cli("access-codes --db '" + newer.string() + "'");
  CHECK(r.status == 2);
  CHECK(r.err.find("attnmark: " + newer.string() + ": was written by a newer attnmark") == 0);
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
