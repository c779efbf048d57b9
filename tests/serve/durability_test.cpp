// Every attempt that got an answer survives kill -9 of the server: 2,000
// attempts from 20 client threads, the server killed mid-way and started
// again on the same database, the rows counted on disk.
#include <atomic>
#include <map>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <thread>

#include "support/serve_support.h"

namespace fs = std::filesystem;

namespace {

// One attempt's marker: a cell of q1's scores no other attempt writes.
std::string marker(int thread, int attempt) { return "m" + std::to_string(thread) + "_" + std::to_string(attempt); }

// How many times each marker is in the database's attempts.
std::map<std::string, int> stored_markers(const fs::path& db) {
  std::map<std::string, int> out;
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(handle, "SELECT answers FROM attempts", -1, &stmt, nullptr) == SQLITE_OK);
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const nlohmann::json answers = nlohmann::json::parse(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    ++out[answers["answers"]["q1"]["scores"][0].get<std::string>()];
  }
  sqlite3_finalize(stmt);
  sqlite3_close(handle);
  return out;
}

}  // namespace

TEST_CASE("serve: every answered attempt is in the database after kill -9 of the server, none twice", "[serve][threads]") {
  const fs::path dir = scratch() / "serve-kill9";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "class.sqlite").string();
  constexpr int threads = 20, per_thread = 100;
  const std::string roster = write_roster(dir, threads);
  std::vector<std::string> codes;
  std::vector<std::string> students;
  {
    ServeProcess first("rubrics/lesson.yaml --seed 5 --roster '" + roster + "' --db '" + db + "'", dir);
    REQUIRE(first.running());
  }
  for (int t = 1; t <= threads; ++t) {
    students.push_back("s0" + std::string(t < 10 ? "0" : "") + std::to_string(t));
    codes.push_back(code_of(db, students.back()));
  }

  std::vector<std::vector<std::string>> answered(threads);  // markers that got a 200
  std::vector<int> next(threads, 0);                        // each thread's next attempt
  std::atomic<int> answers{0};
  // Sends attempts until all are sent or the server stops answering.
  const auto phase = [&](int port) {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t, port] {
        httplib::Client client("127.0.0.1", port);
        client.set_read_timeout(30, 0);
        while (next[t] < per_thread) {
          const std::string m = marker(t, next[t]++);
          const std::string body = "{\"student\":\"" + students[t] + "\",\"code\":\"" + codes[t] +
                                   "\",\"answers\":{\"q1\":{\"scores\":[\"" + m + "\",\"0\",\"1\"]}}}";
          const auto r = client.Post("/api/check", body, "application/json");
          if (!r) return;  // the server is gone: this attempt may or may not be stored
          if (r->status != 200) return;
          answered[t].push_back(m);
          ++answers;
        }
      });
    for (std::thread& th : pool) th.join();
  };

  {
    ServeProcess server("--db '" + db + "' --checks-per-minute 100000", dir);
    REQUIRE(server.running());
    std::atomic<bool> done{false};  // the phase ended: the server stopped answering on its own
    std::thread killer([&] {
      while (answers < 600 && !done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      server.stop(SIGKILL);
    });
    phase(server.port());
    done = true;
    killer.join();
    INFO("the server's messages: " << server.err());
    REQUIRE(answers >= 600);
  }
  const int before_restart = answers;
  CHECK(before_restart >= 600);
  CHECK(before_restart < threads * per_thread);
  {
    ServeProcess again("--db '" + db + "' --checks-per-minute 100000", dir);
    REQUIRE(again.running());
    phase(again.port());
  }
  const std::map<std::string, int> stored = stored_markers(db);
  int sent = 0;
  for (int t = 0; t < threads; ++t) sent += next[t];
  CHECK(sent == threads * per_thread);
  std::size_t missing = 0, twice = 0, count_answered = 0;
  for (const auto& list : answered)
    for (const std::string& m : list) {
      ++count_answered;
      const auto it = stored.find(m);
      missing += it == stored.end();
    }
  for (const auto& [m, n] : stored) twice += n > 1;
  INFO("answered " << count_answered << ", stored " << stored.size());
  CHECK(missing == 0);
  CHECK(twice == 0);
  CHECK(stored.size() >= count_answered);
  CHECK(stored.size() <= static_cast<std::size_t>(sent));
  // At most one attempt a thread was in flight at the kill: stored, or not, unanswered.
  CHECK(stored.size() - count_answered <= static_cast<std::size_t>(threads));
}
