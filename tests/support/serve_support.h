// support/serve_support.h: a served class for the tests: the attnmark binary
// started as its own process (`attnmark serve ... --port 0`), its address and
// teacher's token read from what it prints, and an HTTP client for it
// (cpp-httplib's); and another program's write lock on a class's database.
#pragma once

#include <httplib.h>
#include <sqlite3.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "support/test_support.h"

// A roster of `n` students s001, s002, ... (and their names), in `dir`.
inline std::string write_roster(const std::filesystem::path& dir, int n, const std::string& extra_rows = "") {
  std::string csv = "student,name\n";
  for (int i = 1; i <= n; ++i) csv += "s" + std::string(i < 10 ? "00" : i < 100 ? "0" : "") + std::to_string(i) + ",Student " + std::to_string(i) + "\n";
  csv += extra_rows;
  const std::string path = (dir / "roster.csv").string();
  attnmark::write_file(path, csv);
  return path;
}

// `attnmark serve ARGS --port 0` running in the background, from the
// repository root; stopped with SIGTERM (or killed) when it goes.
class ServeProcess {
 public:
  // `args` are shell words, as run_cli takes them; `shell_prefix` runs before
  // the server in its shell ("ulimit -n 300; "). Waits (up to 20 s) for the
  // addresses to be printed; fails the test if the server ends instead.
  explicit ServeProcess(const std::string& args, const std::filesystem::path& dir, const std::string& shell_prefix = "")
      : dir_(dir) {
    static int serial = 0;
    const std::string tag = std::to_string(++serial);
    out_ = (dir / ("serve-" + tag + ".out")).string();
    err_ = (dir / ("serve-" + tag + ".err")).string();
    const char* other = std::getenv("ATTNMARK_TEST_BINARY");
    const std::string binary = other && *other ? other : ATTNMARK_BINARY;
    const std::string command = shell_prefix + "exec '" + binary + "' serve " + args + " --port 0 >'" + out_ + "' 2>'" + err_ + "' </dev/null";
    pid_ = fork();
    if (pid_ == 0) {
      if (chdir(ATTNMARK_SOURCE_DIR) != 0) _exit(127);
      execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    const std::regex url(R"(teacher:  https?://127\.0\.0\.1:(\d+)/teacher\?token=([0-9a-f]+))");
    for (int i = 0; i < 400; ++i) {
      std::smatch m;
      const std::string text = read(out_);
      if (std::regex_search(text, m, url)) {
        port_ = std::stoi(m[1]);
        token_ = m[2];
        return;
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~ServeProcess() { stop(); }

  bool running() const { return port_ > 0 && pid_ > 0; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& token() const { return token_; }
  std::string out() const { return read(out_); }
  std::string err() const { return read(err_); }
  int exit_status() const { return exit_status_; }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(30, 0);
    return c;
  }

  // Stops it with `signal` and returns its exit status (-1 when killed).
  int stop(int signal = SIGTERM) {
    if (pid_ <= 0) return exit_status_;
    kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return exit_status_;
  }

 private:
  static std::string read(const std::string& path) {
    std::error_code ec;
    return std::filesystem::exists(path, ec) ? attnmark::read_file(path, 1 << 24) : std::string();
  }
  std::filesystem::path dir_;
  std::string out_, err_, token_;
  pid_t pid_ = -1;
  int port_ = 0;
  int exit_status_ = -1;
};

// The access code of `student` in the class of `db`, from attnmark access-codes.
inline std::string code_of(const std::string& db, const std::string& student) {
  const Run r = run_cli("access-codes --db '" + db + "'");
  for (const Fields& row : parse_csv(r.out))
    if (row.size() == 2 && row[0] == student) return row[1];
  return {};
}

// Another program's write lock on the database `db`: a second connection with
// a write transaction open (as `sqlite3 db 'BEGIN IMMEDIATE; insert ...'`
// leaves one), held until release() or the lock goes.
class WriteLock {
 public:
  // `sql` runs after BEGIN IMMEDIATE, inside the transaction.
  explicit WriteLock(const std::string& db, const std::string& sql = "") {
    REQUIRE(sqlite3_open_v2(db.c_str(), &handle_, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_exec(handle_, ("BEGIN IMMEDIATE;" + sql).c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  }
  ~WriteLock() { release(); }
  WriteLock(const WriteLock&) = delete;
  WriteLock& operator=(const WriteLock&) = delete;
  // Rolls the transaction back and closes the connection.
  void release() {
    if (!handle_) return;
    sqlite3_exec(handle_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(handle_);
    handle_ = nullptr;
  }

 private:
  sqlite3* handle_ = nullptr;
};
