// serve_load: attnmark serve under a class's load, on loopback.
//
//   serve_load ATTNMARK RUBRIC FOLDER [CLIENTS] [CHECKS] [RATE] [SLOW]
//
// Starts `ATTNMARK serve RUBRIC --seed 1 --roster FOLDER/roster.csv --db
// FOLDER/class.sqlite --port 0` as its own process, with a roster of CLIENTS
// students (default 200); then CLIENTS threads, one connection each, post
// CHECKS checks in all (default 20,000) to /api/check, each a student's
// right answers with one cell of their own (so every attempt differs).
// With RATE (checks per second, all clients together), each client sends on
// a schedule (open loop, as a class does: students do not wait for each
// other), and a check's latency counts from when it was due, so a server
// that falls behind is not excused; without it (or 0), each client sends its
// next check as soon as the last is answered (closed loop: the most the
// server can do).
// With SLOW, that many more connections from the same address hold on
// while the checks run, half of them sending a header line every second and
// never ending their request (slowloris), half opened and silent; their
// number is printed with how many the server had closed by the end.
// The server allows 100,000 checks a minute per student (a load test's
// students check far faster than a class's). SERVE_ARGS in the
// environment: more options for the server.
// Prints throughput, latency p50/p99/max, the server's peak memory (VmHWM)
// and whether every answered check is in the database (nothing lost, none
// twice). Exit 1 when a check fails or one is lost.
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <mutex>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string run(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  pclose(pipe);
  return out;
}

// The server's peak resident memory in MB (VmHWM), or -1.
double peak_mb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: serve_load ATTNMARK RUBRIC FOLDER [CLIENTS] [CHECKS]\n";
    return 2;
  }
  const std::string attnmark = argv[1], rubric = argv[2], folder = argv[3];
  const int clients = argc > 4 ? std::stoi(argv[4]) : 200;
  const int checks = argc > 5 ? std::stoi(argv[5]) : 20000;
  const double rate = argc > 6 ? std::stod(argv[6]) : 0;
  const int slow = argc > 7 ? std::stoi(argv[7]) : 0;
  const char* serve_args = std::getenv("SERVE_ARGS");
  std::filesystem::create_directories(folder);
  const std::string db = folder + "/class.sqlite";
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
  std::string roster = "student,name\n";
  std::vector<std::string> students;
  for (int i = 0; i < clients; ++i) {
    students.push_back("st" + std::to_string(100000 + i));
    roster += students.back() + ",Student " + std::to_string(i) + "\n";
  }
  std::ofstream(folder + "/roster.csv") << roster;

  // Each student's right answers, from attnmark's key.
  const std::string keys = run("'" + attnmark + "' key '" + rubric + "' --seed 1 --roster '" + folder +
                               "/roster.csv' --format jsonl");
  std::vector<nlohmann::json> answers;
  std::istringstream lines(keys);
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json key = nlohmann::json::parse(line);
    nlohmann::json a = nlohmann::json::object();
    for (const auto& q : key["questions"]) a[q["id"].get<std::string>()] = q["answers"];
    answers.push_back(a);
  }
  if (answers.size() != students.size()) {
    std::cerr << "serve_load: attnmark key gave " << answers.size() << " keys for " << students.size() << " students\n";
    return 1;
  }

  const std::string out_file = folder + "/serve.out";
  std::filesystem::remove(out_file);  // an earlier run's address is not this one's
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string command = "exec '" + attnmark + "' serve '" + rubric + "' --seed 1 --roster '" + folder +
                                "/roster.csv' --db '" + db + "' --port 0 --checks-per-minute 100000 " + (serve_args ? serve_args : "") + " >'" +
                                out_file + "' 2>&1";
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int port = 0;
  const std::regex url(R"(students: http://127\.0\.0\.1:(\d+)/)");
  for (int i = 0; i < 400 && !port; ++i) {
    std::smatch m;
    const std::string text = slurp(out_file);
    if (std::regex_search(text, m, url)) port = std::stoi(m[1]);
    else std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!port) {
    std::cerr << "serve_load: the server did not start: " << slurp(out_file);
    kill(pid, SIGKILL);
    return 1;
  }
  const std::string codes_csv = run("'" + attnmark + "' access-codes --db '" + db + "'");
  std::vector<std::string> codes(students.size());
  {
    std::istringstream in(codes_csv);
    std::string line;
    std::getline(in, line);
    for (std::size_t i = 0; i < codes.size() && std::getline(in, line); ++i) {
      codes[i] = line.substr(line.find(',') + 1);
      if (!codes[i].empty() && codes[i].back() == '\r') codes[i].pop_back();
    }
  }

  // The slow connections, opened before the checks start and dribbled on
  // one thread until they end.
  std::vector<int> slow_fds;
  std::atomic<bool> checks_done{false};
  std::thread dribbler;
  if (slow > 0) {
    rlimit limit{};
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    for (int i = 0; i < slow; ++i) {
      const int fd = socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in a{};
      a.sin_family = AF_INET;
      a.sin_port = htons(static_cast<std::uint16_t>(port));
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        std::cerr << "serve_load: slow connection " << i << " could not connect\n";
        return 1;
      }
      if (i % 2 == 0) send(fd, "GET / HTTP/1.1\r\nHost: x\r\n", 26, MSG_NOSIGNAL);
      slow_fds.push_back(fd);
    }
    dribbler = std::thread([&] {
      while (!checks_done) {
        for (std::size_t i = 0; i < slow_fds.size(); i += 2) send(slow_fds[i], "X-Slow: 1\r\n", 11, MSG_NOSIGNAL);
        for (int t = 0; t < 10 && !checks_done; ++t) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
  }

  std::vector<std::vector<double>> latencies(clients);
  std::atomic<int> next{0}, answered{0}, failed{0};
  std::mutex failures_mutex;
  std::map<std::string, int> failures;  // why, how many
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (int c = 0; c < clients; ++c)
    pool.emplace_back([&, c] {
      httplib::Client client("127.0.0.1", port);
      client.set_keep_alive(true);
      client.set_tcp_nodelay(true);  // as a browser does: no 40 ms wait for a delayed ACK
      client.set_read_timeout(60, 0);
      const int mine = checks / clients + (c < checks % clients ? 1 : 0);
      for (int k = 0; k < mine; ++k) {
        const int n = next++;
        // When due: client c's k-th check, spread evenly over the run.
        const auto due = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                     std::chrono::duration<double>(rate > 0 ? (k * clients + c) / rate : 0));
        if (rate > 0) std::this_thread::sleep_until(due);
        nlohmann::json body{{"student", students[c]}, {"code", codes[c]}, {"answers", answers[c]}};
        body["answers"]["q1"]["scores"][0][0] = "n" + std::to_string(n);  // this attempt's own mark
        const std::string text = body.dump();
        const auto t0 = rate > 0 ? due : std::chrono::steady_clock::now();
        const auto r = client.Post("/api/check", text, "application/json");
        const auto t1 = std::chrono::steady_clock::now();
        if (!r || r->status != 200) {
          ++failed;
          std::lock_guard lock(failures_mutex);
          ++failures[r ? "status " + std::to_string(r->status) + ": " + r->body.substr(0, 100)
                       : "no answer: " + httplib::to_string(r.error())];
          continue;
        }
        ++answered;
        latencies[c].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
    });
  for (std::thread& t : pool) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  checks_done = true;
  if (dribbler.joinable()) dribbler.join();
  int slow_closed = 0;
  for (const int fd : slow_fds) {
    char c;
    const ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);
    if (n == 0 || (n > 0 && c == 'H')) ++slow_closed;  // closed, or answered (408)
    close(fd);
  }
  const double peak = peak_mb(pid);
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);

  std::vector<double> all;
  for (const auto& v : latencies) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  const auto pct = [&](double p) { return all.empty() ? 0 : all[std::min(all.size() - 1, std::size_t(p * all.size()))]; };

  // Nothing lost: every answered check is a row, and no row twice.
  sqlite3* handle = nullptr;
  sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(handle, "SELECT count(*), count(DISTINCT json_extract(answers, '$.answers.q1.scores[0][0]')) FROM attempts",
                     -1, &stmt, nullptr);
  long rows = -1, distinct = -1;
  if (sqlite3_step(stmt) == SQLITE_ROW) rows = sqlite3_column_int64(stmt, 0), distinct = sqlite3_column_int64(stmt, 1);
  sqlite3_finalize(stmt);
  sqlite3_close(handle);

  std::printf("serve_load: %d clients, %s, %d checks of %s in %.2f s: %.0f checks/s; latency p50 %.1f ms, p99 %.1f ms, "
              "max %.1f ms; server peak memory %.1f MB; %d answered, %d failed; %ld rows stored (%ld distinct); "
              "server exit status %d\n",
              clients, rate > 0 ? ("paced at " + std::to_string(int(rate)) + "/s").c_str() : "unpaced", checks,
              rubric.c_str(), seconds, answered / seconds, pct(0.50), pct(0.99),
              all.empty() ? 0 : all.back(), peak, answered.load(), failed.load(), rows, distinct,
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  if (slow > 0)
    std::printf("serve_load: %d slow connections held on meanwhile (half dribbling headers, half silent); %d of them "
                "answered 408 or closed by the end\n",
                slow, slow_closed);
  for (const auto& [why, n] : failures) std::printf("serve_load: %d failed with %s\n", n, why.c_str());
  const bool lost = rows != answered || distinct != answered;
  if (lost) std::printf("serve_load: LOST or DUPLICATED checks\n");
  return failed == 0 && !lost ? 0 : 1;
}
