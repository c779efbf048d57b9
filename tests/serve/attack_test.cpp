// attnmark serve against a student who wants the page down for everyone, or
// a request smuggled past it: slow and idle connections by the thousand,
// floods of header bytes, bodies hidden in a GET; and HTTPS. The binary runs
// as its own process and these tests talk to it over loopback sockets.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <fstream>

#include "serve/served_class.h"
#include "serve/server.h"
#include "support/serve_support.h"

namespace fs = std::filesystem;

namespace {

// This test process's descriptor limit raised to `wanted` (or its hard limit).
void raise_descriptor_limit(rlim_t wanted) {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = std::min(wanted, limit.rlim_max);
  setrlimit(RLIMIT_NOFILE, &limit);
}

// A raw loopback connection to the server.
struct Socket {
  int fd = -1;
  // From `source` (another loopback address, 127.0.0.2, is another client).
  explicit Socket(int port, const char* source = nullptr) {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (source) {
      sockaddr_in from{};
      from.sin_family = AF_INET;
      inet_pton(AF_INET, source, &from.sin_addr);
      ::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from);
    }
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ~Socket() {
    if (fd >= 0) ::close(fd);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  bool send(const std::string& bytes) const {
    std::size_t at = 0;
    while (at < bytes.size()) {
      const ssize_t n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
      if (n <= 0) return false;
      at += static_cast<std::size_t>(n);
    }
    return true;
  }
  // Whether the server has closed the connection (end of stream within `ms`).
  bool closed_by_peer(int ms) const {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0) return false;
    char c;
    return ::recv(fd, &c, 1, 0) <= 0;
  }
  // What arrives until the server closes the connection or `ms` pass.
  std::string receive(int ms) const {
    std::string out;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < until) {
      pollfd p{fd, POLLIN, 0};
      const int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count());
      if (poll(&p, 1, std::max(1, left)) <= 0) break;
      char buffer[4096];
      const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      out.append(buffer, static_cast<std::size_t>(n));
    }
    return out;
  }
};

// The server's resident memory now, in KiB (VmRSS), and at its peak (VmHWM).
long memory_kib(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with(field + ":")) return std::stol(line.substr(field.size() + 1));
  return -1;
}

std::int64_t stored_attempts(const fs::path& db) {
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(handle, "SELECT count(*) FROM attempts", -1, &stmt, nullptr);
  std::int64_t count = -1;
  if (sqlite3_step(stmt) == SQLITE_ROW) count = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  sqlite3_close(handle);
  return count;
}

}  // namespace

TEST_CASE("serve: 1,000 slow connections from one address do not keep a student's checks waiting, and are closed with 408",
          "[serve][attack][threads]") {
  raise_descriptor_limit(4096);
  const fs::path dir = class_dir("slow");
  ServeProcess server(serve_args(dir, write_roster(dir, 1), "--checks-per-minute 1000"), dir);
  REQUIRE(server.running());
  const std::string code = code_of((dir / "class.sqlite").string(), "s001");

  // Each slow connection starts a request and sends a header line every
  // 600 ms, never ending it (slowloris); the check goes on meanwhile.
  std::vector<std::unique_ptr<Socket>> slow;
  for (int i = 0; i < 1000; ++i) {
    slow.push_back(std::make_unique<Socket>(server.port()));
    REQUIRE(slow.back()->fd >= 0);
    REQUIRE(slow.back()->send("GET / HTTP/1.1\r\nHost: x\r\n"));
  }
  std::atomic<bool> done{false};
  std::thread dribble([&] {
    while (!done) {
      for (auto& s : slow) s->send("X-Slow: 1\r\n");
      std::this_thread::sleep_for(std::chrono::milliseconds(600));
    }
  });
  httplib::Client client = server.client();
  client.set_read_timeout(5, 0);
  int answered = 0;
  double slowest_ms = 0;
  for (int i = 0; i < 40; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = client.Post("/api/check", check_body("s001", code, hard_attention_with(i)), "application/json");
    slowest_ms = std::max(slowest_ms, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    if (r && r->status == 200) ++answered;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  done = true;
  dribble.join();
  INFO("slowest check: " << slowest_ms << " ms");
  CHECK(answered == 40);
  // A request whose headers take longer than 10 s is answered 408 and closed.
  int timed_out = 0;
  for (std::size_t i = 0; i < slow.size(); i += 100) {
    const std::string answer = slow[i]->receive(15'000);
    if (answer.starts_with("HTTP/1.1 408 Request Timeout\r\n")) ++timed_out;
  }
  CHECK(timed_out == 10);
  CHECK(stored_attempts(dir / "class.sqlite") == 40);
}

TEST_CASE("serve: requests are taken in turns by address: a flood from one address does not queue another's check",
          "[serve][attack][threads]") {
  raise_descriptor_limit(4096);
  const fs::path dir = class_dir("turns");
  ServeProcess server(serve_args(dir, write_roster(dir, 1)), dir);
  REQUIRE(server.running());
  const std::string code = code_of((dir / "class.sqlite").string(), "s001");
  // 300 connections from 127.0.0.1 asking for the sign-in page as fast as it comes.
  std::atomic<bool> done{false};
  std::atomic<long> flooded{0};
  std::vector<std::thread> flood;
  for (int t = 0; t < 4; ++t)
    flood.emplace_back([&] {
      std::vector<std::unique_ptr<Socket>> mine;
      for (int i = 0; i < 75; ++i) mine.push_back(std::make_unique<Socket>(server.port()));
      const std::string get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
      for (auto& s : mine) s->send(get + get + get + get);
      char buffer[65536];
      while (!done) {
        for (auto& s : mine) {
          const ssize_t n = ::recv(s->fd, buffer, sizeof buffer, MSG_DONTWAIT);
          if (n > 0) {
            flooded += n;
            s->send(get);
          }
        }
      }
    });
  // Another client, at 127.0.0.2: each check is answered.
  int answered = 0;
  for (int i = 0; i < 20; ++i) {
    const std::string body = check_body("s001", code, hard_attention_with(i));
    Socket s(server.port(), "127.0.0.2");
    REQUIRE(s.fd >= 0);
    s.send("POST /api/check HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
    if (s.receive(5000).starts_with("HTTP/1.1 200 OK\r\n")) ++answered;
  }
  done = true;
  for (std::thread& t : flood) t.join();
  CHECK(flooded > 0);
  CHECK(answered == 20);
  CHECK(stored_attempts(dir / "class.sqlite") == 20);
}

TEST_CASE("serve: a flood of connections past the descriptor limit closes the stalest, and a student still checks",
          "[serve][attack][threads]") {
  raise_descriptor_limit(4096);
  const fs::path dir = class_dir("flood");
  // The server may hold about 300 descriptors: far fewer than the flood.
  ServeProcess server(serve_args(dir, write_roster(dir, 1)), dir, "ulimit -n 300; ");
  REQUIRE(server.running());
  const std::string code = code_of((dir / "class.sqlite").string(), "s001");
  std::vector<std::unique_ptr<Socket>> idle;
  for (int i = 0; i < 1000; ++i) idle.push_back(std::make_unique<Socket>(server.port()));
  httplib::Client client = server.client();
  client.set_read_timeout(5, 0);
  for (int i = 0; i < 5; ++i) {
    const auto r = client.Post("/api/check", check_body("s001", code, hard_attention), "application/json");
    REQUIRE(r);
    CHECK(r->status == 200);
  }
  // The first of the flood were closed to make room.
  CHECK(idle.front()->closed_by_peer(2000));
  CHECK_FALSE(idle.back()->closed_by_peer(100));
}

TEST_CASE("serve: the request line and header fields are bounded (414, 431), and a header flood is not kept", "[serve][attack][threads]") {
  const fs::path dir = class_dir("headers");
  ServeProcess server(serve_args(dir, write_roster(dir, 1)), dir);
  REQUIRE(server.running());
  {
    Socket s(server.port());
    s.send("GET /" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
    const std::string answer = s.receive(5000);
    CHECK(answer.starts_with("HTTP/1.1 414 URI Too Long\r\n"));
    CHECK(answer.find("Connection: close\r\n") != std::string::npos);
    CHECK(answer.ends_with("{\"error\":\"the request line is too long\"}\n"));
  }
  {
    Socket s(server.port());
    std::string many = "GET / HTTP/1.1\r\n";
    for (int i = 0; i < 150; ++i) many += "X-" + std::to_string(i) + ": 1\r\n";
    s.send(many + "\r\n");
    CHECK(s.receive(5000).starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
  }
  // 160 MiB of header lines as fast as they go: the server answers 431 and
  // closes after 16 KiB of them; its memory does not grow with the flood.
  const long before = memory_kib(server.pid(), "VmRSS");
  std::size_t sent = 0;
  {
    Socket s(server.port());
    s.send("GET / HTTP/1.1\r\n");
    std::string lines;
    for (int i = 0; i < 4096; ++i) lines += "X-Flood: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
    while (sent < (160u << 20) && s.send(lines)) sent += lines.size();
  }
  INFO("sent " << sent << " bytes before the server closed");
  CHECK(sent < (8u << 20));
  CHECK(memory_kib(server.pid(), "VmHWM") - before < 32 * 1024);
  // And the page is up.
  const auto r = server.client().Get("/");
  REQUIRE(r);
  CHECK(r->status == 200);
}

TEST_CASE("serve: a GET or HEAD with a body is refused whole: its body never runs as a hidden request", "[serve][attack][threads]") {
  const fs::path dir = class_dir("smuggle");
  ServeProcess server(serve_args(dir, write_roster(dir, 1)), dir);
  REQUIRE(server.running());
  const std::string code = code_of((dir / "class.sqlite").string(), "s001");
  const std::string body = check_body("s001", code, hard_attention);
  const std::string hidden = "POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
                             std::to_string(body.size()) + "\r\n\r\n" + body;
  for (const std::string method : {"GET", "HEAD"}) {
    INFO(method);
    Socket s(server.port());
    s.send(method + " / HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(hidden.size()) + "\r\n\r\n" + hidden);
    const std::string answer = s.receive(3000);
    CHECK(answer.starts_with("HTTP/1.1 400 Bad Request\r\n"));
    CHECK(answer.find("HTTP/1.1", 10) == std::string::npos);  // one answer, then closed
  }
  {  // The same hidden in a chunked GET.
    Socket s(server.port());
    s.send("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden);
    CHECK(s.receive(3000).starts_with("HTTP/1.1 400 Bad Request\r\n"));
  }
  CHECK(stored_attempts(dir / "class.sqlite") == 0);
  // A request pipelined after a GET without a body is the next request, as it should be.
  Socket s(server.port());
  s.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n" + hidden);
  const std::string answers = s.receive(3000);
  CHECK(answers.starts_with("HTTP/1.1 200 OK\r\n"));
  CHECK(answers.find("X-Attnmark-Stored: yes") != std::string::npos);
  CHECK(stored_attempts(dir / "class.sqlite") == 1);
}

TEST_CASE("serve: --tls-self-signed serves HTTPS with HSTS and Secure cookies, and prints the certificate's fingerprint",
          "[serve][attack][tls][threads]") {
  const fs::path dir = class_dir("tls");
  const std::string roster = write_roster(dir, 1);
  std::string fingerprint;
  {
    ServeProcess server(serve_args(dir, roster, "--tls-self-signed"), dir);
    REQUIRE(server.running());
    const std::string out = server.out();
    CHECK(out.find("  students: https://127.0.0.1:") != std::string::npos);
    CHECK(out.find("warning: plain HTTP") == std::string::npos);
    const fs::path cert = dir / "class.sqlite.tls.crt";
    const fs::path key = dir / "class.sqlite.tls.key";
    REQUIRE(fs::exists(cert));
    CHECK((fs::status(key).permissions() & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none);
    // The fingerprint printed is the certificate's.
    FILE* f = std::fopen(cert.c_str(), "r");
    REQUIRE(f);
    X509* x = PEM_read_X509(f, nullptr, nullptr, nullptr);
    std::fclose(f);
    REQUIRE(x);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    X509_digest(x, EVP_sha256(), digest, &size);
    X509_free(x);
    for (unsigned int i = 0; i < size; ++i) fingerprint += fmt::format("{}{:02X}", i ? ":" : "", digest[i]);
    CHECK(out.find("SHA-256 fingerprint\n    " + fingerprint + "\n") != std::string::npos);
    CHECK(out.find("(made now)") != std::string::npos);

    // A client that trusts that certificate, and checks it is for 127.0.0.1.
    httplib::SSLClient client("127.0.0.1", server.port());
    client.set_ca_cert_path(cert.c_str());
    client.enable_server_certificate_verification(true);
    const auto r = client.Get("/");
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->get_header_value("Strict-Transport-Security") == "max-age=31536000");
    CHECK(r->get_header_value("Set-Cookie").find("; HttpOnly; SameSite=Strict; Secure") != std::string::npos);
    const std::string code = code_of((dir / "class.sqlite").string(), "s001");
    const auto c = client.Post("/api/check", check_body("s001", code, hard_attention), "application/json");
    REQUIRE(c);
    CHECK(c->status == 200);
    // Plain HTTP on the HTTPS port is no request.
    Socket plain(server.port());
    plain.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    CHECK(plain.receive(3000).find("200 OK") == std::string::npos);
  }
  // The next start keeps the certificate (and so the fingerprint the class was shown).
  ServeProcess again("--db '" + (dir / "class.sqlite").string() + "' --tls-self-signed", dir);
  REQUIRE(again.running());
  CHECK(again.out().find("SHA-256 fingerprint\n    " + fingerprint + "\n") != std::string::npos);
  CHECK(again.out().find("(made at an earlier start)") != std::string::npos);
}

TEST_CASE("serve: --tls-cert and --tls-key serve HTTPS with the teacher's certificate, and a wrong pair is refused",
          "[serve][attack][tls][threads]") {
  const fs::path dir = class_dir("tls-files");
  const std::string roster = write_roster(dir, 1);
  // A certificate made by a first start, used as the teacher's own.
  {
    const fs::path other = class_dir("tls-files-maker");
    ServeProcess maker(serve_args(other, write_roster(other, 1), "--tls-self-signed"), other);
    REQUIRE(maker.running());
    fs::copy_file(other / "class.sqlite.tls.crt", dir / "cert.pem");
    fs::copy_file(other / "class.sqlite.tls.key", dir / "key.pem");
  }
  ServeProcess server(serve_args(dir, roster, "--tls-cert '" + (dir / "cert.pem").string() + "' --tls-key '" +
                                                  (dir / "key.pem").string() + "'"),
                      dir);
  REQUIRE(server.running());
  CHECK(server.out().find("  HTTPS: certificate ") != std::string::npos);
  httplib::SSLClient client("127.0.0.1", server.port());
  client.set_ca_cert_path((dir / "cert.pem").c_str());
  client.enable_server_certificate_verification(true);
  const auto r = client.Get("/");
  REQUIRE(r);
  CHECK(r->status == 200);
  server.stop();

  const Run alone = run_cli("serve " + serve_args(dir, roster, "--tls-cert '" + (dir / "cert.pem").string() + "' --port 0"));
  CHECK(alone.status == 2);
  CHECK(alone.err == "attnmark: --tls-cert: give --tls-key too (the certificate's private key)\n");
  const Run wrong = run_cli("serve " + serve_args(dir, roster, "--tls-cert '" + (dir / "roster.csv").string() +
                                                                   "' --tls-key '" + (dir / "key.pem").string() + "' --port 0"));
  CHECK(wrong.status == 2);
  CHECK(wrong.err.find("--tls-cert: not a PEM certificate this machine can read") != std::string::npos);
}

TEST_CASE("serve: plain HTTP on an address the network reaches says so at start, with how to turn HTTPS on",
          "[serve][attack][threads]") {
  const fs::path dir = class_dir("clear");
  ServeProcess server(serve_args(dir, write_roster(dir, 1), "--host 0.0.0.0"), dir);
  REQUIRE(server.running());
  CHECK(server.out().find(std::string("  warning: ") + attnmark::clear_text_warning + "\n") != std::string::npos);
  // And the teacher's page says it first.
  httplib::Client teacher = server.client();
  const auto signed_in = teacher.Get(("/teacher?token=" + server.token()).c_str());
  REQUIRE(signed_in);
  const std::string set = signed_in->get_header_value("Set-Cookie");
  const auto page = teacher.Get("/teacher", {{"Cookie", set.substr(0, set.find(';'))}});
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(page->body.find("<p class=\"notice\" role=\"alert\">Warning: plain HTTP: access codes, answers and the "
                        "teacher") != std::string::npos);
  CHECK(page->body.find("start with --tls-self-signed (or --tls-cert FILE --tls-key FILE) to serve HTTPS.</p>") !=
        std::string::npos);
  const fs::path local_dir = class_dir("clear-local");
  ServeProcess local(serve_args(local_dir, write_roster(local_dir, 1)), local_dir);
  REQUIRE(local.running());
  CHECK(local.out().find("warning: plain HTTP") == std::string::npos);
  const auto local_page = local.client().Get("/teacher", {{"Authorization", "Bearer " + local.token()}});
  REQUIRE(local_page);
  CHECK(local_page->status == 200);
  CHECK(local_page->body.find("Warning: plain HTTP") == std::string::npos);
}

TEST_CASE("serve: one student's script is held to the checks a minute and the storage the class allows, over loopback",
          "[serve][attack]") {
  const fs::path dir = class_dir("caps");
  const fs::path db = dir / "class.sqlite";
  ServeProcess server(serve_args(dir, write_roster(dir, 2), "--checks-per-minute 5 --storage-per-student 64KiB"), dir);
  REQUIRE(server.running());
  CHECK(server.out().find("at most 5 checks a minute per student; up to 64 KiB of attempts stored per student") !=
        std::string::npos);
  const std::string code1 = code_of(db.string(), "s001"), code2 = code_of(db.string(), "s002");
  httplib::Client client = server.client();
  // Each attempt padded with an answer cell of 20 KB, and each one new (a
  // check the same as the last is not stored): a script filling the database.
  int checks = 0;
  const auto padded = [&](const std::string& student, const std::string& code) {
    return "{\"student\":\"" + student + "\",\"code\":\"" + code +
           "\",\"answers\":{\"q1\":{\"scores\":[\"" + std::string(20000, '7') + "\",0," + std::to_string(++checks) + "]}}}";
  };
  std::vector<std::string> stored;
  for (int i = 0; i < 5; ++i) {
    const auto r = client.Post("/api/check", padded("s001", code1), "application/json");
    REQUIRE(r);
    CHECK(r->status == 200);
    stored.push_back(r->get_header_value("X-Attnmark-Stored"));
  }
  // Answered every time; kept until the student's 64 KiB are used, then not.
  CHECK(stored.front() == "yes");
  CHECK(stored.back() == "no (your stored attempts have reached the class's limit of 64 KiB)");
  // The sixth check in the minute: 429, and when to come back.
  const auto sixth = client.Post("/api/check", padded("s001", code1), "application/json");
  REQUIRE(sixth);
  CHECK(sixth->status == 429);
  CHECK(std::stoi(sixth->get_header_value("Retry-After")) >= 1);
  CHECK(sixth->body.starts_with("{\"error\":\"you have checked 5 times in the last minute (this class allows 5 a minute); try again in "));
  // Another student is not held up by either.
  const auto other = client.Post("/api/check", padded("s002", code2), "application/json");
  REQUIRE(other);
  CHECK(other->status == 200);
  CHECK(other->get_header_value("X-Attnmark-Stored") == "yes");
  // What was kept is under the cap.
  const std::int64_t kept = stored_attempts(db);
  CHECK(kept >= 2);
  CHECK(kept <= 5);
}

TEST_CASE("serve: the database and its -wal and -shm are 0600 once the class has checked", "[serve][attack]") {
  const fs::path dir = class_dir("modes");
  const fs::path db = dir / "class.sqlite";
  ServeProcess server(serve_args(dir, write_roster(dir, 1)), dir, "umask 022; ");
  REQUIRE(server.running());
  const auto r = server.client().Post("/api/check", check_body("s001", code_of(db.string(), "s001"), hard_attention), "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  for (const char* suffix : {"", "-wal", "-shm"}) {
    INFO(suffix);
    const fs::path file = db.string() + suffix;
    REQUIRE(fs::exists(file));
    CHECK((fs::status(file).permissions() & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none);
  }
}

TEST_CASE("serve: a new class without --seed draws a random one, never the rubric's public seed:, and warns when given it",
          "[serve][attack]") {
  const fs::path dir = class_dir("seed");
  const std::string roster = write_roster(dir, 1);
  const fs::path db = dir / "class.sqlite";
  std::string seed;
  {
    ServeProcess server("rubrics/lesson.yaml --roster '" + roster + "' --db '" + db.string() + "'", dir);
    REQUIRE(server.running());
    const std::string out = server.out();
    const std::size_t at = out.find("(rubric lesson, seed ");
    REQUIRE(at != std::string::npos);
    seed = out.substr(at + 21, out.find(')', at) - at - 21);
    CHECK(seed != "2026");
    CHECK(seed.size() >= 15);  // 63 random bits: almost always 18 or 19 digits
    CHECK(server.err().find("warning: --seed") == std::string::npos);
  }
  // generate --db takes the class's seed without being told it.
  const Run g = run_cli("generate rubrics/lesson.yaml --roster '" + roster + "' --db '" + db.string() +
                        "' --url http://x/ -o '" + (dir / "sheets").string() + "'");
  CHECK(g.status == 0);
  const fs::path other = class_dir("seed-rubric");
  ServeProcess given("rubrics/lesson.yaml --seed 2026 --roster '" + write_roster(other, 1) + "' --db '" +
                         (other / "class.sqlite").string() + "'",
                     other);
  REQUIRE(given.running());
  CHECK(given.err().find("attnmark serve: warning: --seed 2026 is the rubric's own seed:, which anyone with "
                         "rubrics/lesson.yaml reads; with it every student's key follows from the rubric.") == 0);
}

TEST_CASE("key -o and a roster's teacher folder are their owner's only (0600, 0700), worksheets without codes are not",
          "[serve][attack]") {
  const fs::path dir = class_dir("key-modes");
  const std::string roster = write_roster(dir, 2);
  const auto private_to_owner = [](const fs::path& p) {
    return (fs::status(p).permissions() & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none;
  };
  REQUIRE(run_cli("key rubrics/lesson.yaml --seed 5 --student s001 -o '" + (dir / "key.md").string() + "'").status == 0);
  CHECK(private_to_owner(dir / "key.md"));
  REQUIRE(run_cli("generate rubrics/lesson.yaml --seed 5 --roster '" + roster + "' -o '" + (dir / "class").string() + "'")
              .status == 0);
  // The keys and the class pack are in the teacher's folder, beside the one handed out.
  CHECK(private_to_owner(dir / "class-teacher"));
  CHECK(private_to_owner(dir / "class-teacher" / "s001.key.md"));
  CHECK(private_to_owner(dir / "class-teacher" / "class-pack.html"));
  REQUIRE(run_cli("generate rubrics/lesson.yaml --seed 5 --student s001 -o '" + (dir / "sheet.md").string() + "'").status == 0);
  const mode_t mask = umask(0);
  umask(mask);
  if ((mask & 044) == 0) {  // as the umask lets them be
    CHECK_FALSE(private_to_owner(dir / "sheet.md"));
    CHECK_FALSE(private_to_owner(dir / "class"));
  }
  // A served class's worksheets print their student's code: their folder is private too.
  const fs::path db = dir / "class.sqlite";
  { ServeProcess server("rubrics/lesson.yaml --roster '" + roster + "' --db '" + db.string() + "'", dir); REQUIRE(server.running()); }
  REQUIRE(run_cli("generate rubrics/lesson.yaml --roster '" + roster + "' --db '" + db.string() + "' --url http://x/ -o '" +
                  (dir / "served").string() + "'").status == 0);
  CHECK(private_to_owner(dir / "served"));
  CHECK(private_to_owner(dir / "served-teacher"));
}
