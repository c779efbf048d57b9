#include "serve/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <climits>
#include <cstdint>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <fmt/format.h>
#include <list>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#include "attnmark/base/error.h"
#include "serve/tls.h"

namespace attnmark {

namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string numeric_address(const sockaddr_storage& address) {
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&address)->sin_addr, text, sizeof text);
  } else if (address.ss_family == AF_INET6) {
    const in6_addr& a = reinterpret_cast<const sockaddr_in6*>(&address)->sin6_addr;
    // An IPv4 client of a dual-stack socket is its IPv4 address.
    if (IN6_IS_ADDR_V4MAPPED(&a)) inet_ntop(AF_INET, &a.s6_addr[12], text, sizeof text);
    else inet_ntop(AF_INET6, &a, text, sizeof text);
  }
  return text;
}

// The descriptor limit raised as far as this process may, and what is left
// for connections once the database, the log and the server's own are open.
std::size_t connection_room() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 900;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = std::min<rlim_t>(limit.rlim_max, 1 << 20);
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  const std::size_t usable = limit.rlim_cur > 128 ? static_cast<std::size_t>(limit.rlim_cur) - 64 : 64;
  return std::min<std::size_t>(usable, 100'000);
}

}  // namespace

// One client's connection, owned by the watching thread.
struct Connection {
  enum class Phase {
    handshake,  // TLS: before the first request
    reading,    // a request arriving (or none yet)
    working,    // a worker has the request
    delaying,   // the response is held until ready_at
    writing,    // the response going out
  };
  std::uint64_t id = 0;
  int fd = -1;
  std::string address;
  SSL* ssl = nullptr;
  Phase phase = Phase::reading;
  RequestParser parser;
  bool body_phase = false;        // the parser is past the headers
  std::int64_t deadline = 0;      // ms (steady clock): what the phase must finish by
  std::int64_t ready_at = 0;      // delaying: when to send
  std::string out;                // writing: the response's bytes
  std::size_t out_at = 0;
  bool close_after = false;
  bool tls_wants_write = false;   // an SSL read or handshake is waiting to write
  bool hung_up = false;           // working or delaying when the peer went: closed once the answer is ready
  std::uint32_t events = 0;       // what epoll watches now
  std::size_t served = 0;
  std::list<std::uint64_t>::iterator age;  // in Impl::by_age: oldest activity first

  explicit Connection(const HttpLimits& limits) : parser(limits) {}
};

struct HttpServer::Impl {
  HttpServerOptions options;
  HttpHandler handler;
  HttpErrorPage error_page;
  int listener = -1;
  int epoll = -1;
  int wake = -1;  // eventfd: a worker finished, or stop()
  std::atomic<bool> stopping{false};
  std::atomic<std::size_t> open{0};
  std::size_t max_connections = 0;
  // The soonest a held response is due (ms, steady clock), once finish_jobs
  // holds one: the watching thread wakes for it.
  std::int64_t earliest_due = INT64_MAX;

  std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> connections;
  std::list<std::uint64_t> by_age;  // connection ids, least recently active first
  std::uint64_t next_id = 1;

  // Whole requests for the workers, and their answers back.
  struct Job {
    std::uint64_t connection;
    HttpRequest request;
  };
  struct Done {
    std::uint64_t connection;
    std::string bytes;
    bool close;
    int delay_ms;
  };
  // Whole requests wait per client address and are taken in turns, one
  // address after another: a client with a thousand connections waits
  // behind itself, not in front of every other student.
  std::mutex jobs_mutex;
  std::condition_variable jobs_ready;
  std::unordered_map<std::string, std::deque<Job>> waiting;  // address → its requests, oldest first
  std::deque<std::string> turns;                             // each address with a request waiting, once
  std::mutex done_mutex;
  std::vector<Done> done;
  std::vector<std::thread> workers;

  Impl(HttpServerOptions o, HttpHandler h, HttpErrorPage e)
      : options(std::move(o)), handler(std::move(h)), error_page(std::move(e)) {}

  ~Impl() {
    for (auto& [id, c] : connections) drop_resources(*c);
    if (listener >= 0) ::close(listener);
    if (epoll >= 0) ::close(epoll);
    if (wake >= 0) ::close(wake);
  }

  // ---- Workers ----

  void work() {
    while (true) {
      Job job;
      {
        std::unique_lock lock(jobs_mutex);
        jobs_ready.wait(lock, [&] { return stopping || !turns.empty(); });
        if (turns.empty()) return;
        const std::string address = std::move(turns.front());
        turns.pop_front();
        std::deque<Job>& queue = waiting.at(address);
        job = std::move(queue.front());
        queue.pop_front();
        if (queue.empty()) waiting.erase(address);
        else turns.push_back(address);
      }
      HttpResponse res;
      try {
        handler(job.request, res);
      } catch (...) {
        res = HttpResponse{};
        res.status = 500;
        res.set_content("the server could not answer\n", "text/plain; charset=utf-8");
      }
      const bool keep = job.request.keep_alive() && !res.close;
      Done d{job.connection, serialize_response(res, job.request.method, keep, options.headers), !keep, res.delay_ms};
      {
        std::lock_guard lock(done_mutex);
        done.push_back(std::move(d));
      }
      const std::uint64_t one = 1;
      [[maybe_unused]] ssize_t n = ::write(wake, &one, sizeof one);
    }
  }

  // ---- Connections ----

  void watch(Connection& c, std::uint32_t events) {
    if (c.events == events || c.hung_up) return;
    epoll_event e{};
    e.events = events;
    e.data.u64 = c.id;
    epoll_ctl(epoll, EPOLL_CTL_MOD, c.fd, &e);
    c.events = events;
  }

  void touch(Connection& c) { by_age.splice(by_age.end(), by_age, c.age); }

  void drop_resources(Connection& c) {
    if (c.ssl) SSL_free(c.ssl);
    c.ssl = nullptr;
    if (c.fd >= 0) ::close(c.fd);
    c.fd = -1;
  }

  void close_connection(std::uint64_t id) {
    const auto it = connections.find(id);
    if (it == connections.end()) return;
    Connection& c = *it->second;
    if (c.ssl && c.phase != Connection::Phase::handshake) SSL_shutdown(c.ssl);  // a close_notify, not waited for
    by_age.erase(c.age);
    drop_resources(c);
    connections.erase(it);
    open = connections.size();
  }

  void accept_all() {
    while (true) {
      sockaddr_storage peer{};
      socklen_t size = sizeof peer;
      const int fd = accept4(listener, reinterpret_cast<sockaddr*>(&peer), &size, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR) continue;
        if (errno == EMFILE || errno == ENFILE) {
          // Out of descriptors: free the stalest connection, then try again later.
          if (!evict_one()) return;
          continue;
        }
        return;  // EAGAIN, or a connection that went before it was taken
      }
      if (connections.size() >= max_connections && !evict_one()) {
        ::close(fd);
        continue;
      }
      const int yes = 1;
      // A response is written in one piece, but a TLS record or a large page
      // may take several: without this, Nagle's algorithm holds the last for
      // the client's delayed ACK.
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
      auto c = std::make_unique<Connection>(options.limits);
      c->id = next_id++;
      c->fd = fd;
      c->address = numeric_address(peer);
      c->deadline = now_ms() + options.header_timeout_ms;
      if (options.tls) {
        c->ssl = SSL_new(options.tls->get());
        if (!c->ssl) {
          ::close(fd);
          continue;
        }
        SSL_set_fd(c->ssl, fd);
        SSL_set_accept_state(c->ssl);
        c->phase = Connection::Phase::handshake;
      }
      epoll_event e{};
      e.events = EPOLLIN;
      e.data.u64 = c->id;
      if (epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &e) != 0) {
        drop_resources(*c);
        continue;
      }
      c->events = EPOLLIN;
      c->age = by_age.insert(by_age.end(), c->id);
      const std::uint64_t id = c->id;
      connections.emplace(id, std::move(c));
      open = connections.size();
    }
  }

  // Closes the least recently active connection no worker holds. False when
  // every connection is at work.
  bool evict_one() {
    for (const std::uint64_t id : by_age) {
      const Connection& c = *connections.at(id);
      if (c.phase == Connection::Phase::working || c.phase == Connection::Phase::delaying) continue;
      close_connection(id);
      return true;
    }
    return false;
  }

  // Reads what has arrived into `into`. Returns false when the connection is
  // to be closed (the peer closed it, or it failed).
  bool receive(Connection& c, std::string& into) {
    char buffer[16 * 1024];
    // Enough in one turn to finish a large request, not so much that one
    // fast client starves the others.
    for (int turn = 0; turn < 16; ++turn) {
      if (c.ssl) {
        ERR_clear_error();
        const int n = SSL_read(c.ssl, buffer, sizeof buffer);
        if (n > 0) {
          into.append(buffer, static_cast<std::size_t>(n));
          continue;
        }
        const int error = SSL_get_error(c.ssl, n);
        if (error == SSL_ERROR_WANT_READ) return true;
        if (error == SSL_ERROR_WANT_WRITE) {
          c.tls_wants_write = true;
          return true;
        }
        return false;
      }
      const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
      if (n > 0) {
        into.append(buffer, static_cast<std::size_t>(n));
        if (static_cast<std::size_t>(n) < sizeof buffer) return true;
        continue;
      }
      if (n == 0) return false;
      return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    }
    return true;
  }

  void on_readable(Connection& c) {
    touch(c);
    if (c.phase == Connection::Phase::handshake) {
      ERR_clear_error();
      const int r = SSL_do_handshake(c.ssl);
      if (r != 1) {
        const int error = SSL_get_error(c.ssl, r);
        if (error == SSL_ERROR_WANT_READ) return watch(c, EPOLLIN);
        if (error == SSL_ERROR_WANT_WRITE) return watch(c, EPOLLOUT);
        return close_connection(c.id);
      }
      c.phase = Connection::Phase::reading;
      watch(c, EPOLLIN);
    }
    if (c.phase != Connection::Phase::reading) return;
    std::string bytes;
    c.tls_wants_write = false;
    const bool alive = receive(c, bytes);
    if (!bytes.empty()) {
      const bool was_started = c.parser.started();
      c.parser.feed(bytes);
      if (!was_started) c.deadline = now_ms() + options.header_timeout_ms;
      if (!c.body_phase && c.parser.state() >= RequestParser::State::body &&
          c.parser.state() != RequestParser::State::done && c.parser.state() != RequestParser::State::error) {
        c.body_phase = true;
        c.deadline = now_ms() + options.body_timeout_ms;
      }
      if (parsed(c)) return;
    }
    if (!alive) return close_connection(c.id);
    watch(c, c.tls_wants_write ? EPOLLIN | EPOLLOUT : EPOLLIN);
  }

  // Acts on a finished or failed request. True when the connection is no
  // longer reading (or is gone).
  bool parsed(Connection& c) {
    const RequestParser::State state = c.parser.state();
    if (state == RequestParser::State::error) {
      answer_error(c, c.parser.error_status(), c.parser.error_reason(), c.parser.request().path);
      return true;
    }
    if (state != RequestParser::State::done) return false;
    c.phase = Connection::Phase::working;
    watch(c, 0);
    HttpRequest request = std::move(c.parser.request());
    request.remote_address = c.address;
    if (++c.served >= options.requests_per_connection) request.headers.emplace_back("connection", "close");
    {
      std::lock_guard lock(jobs_mutex);
      std::deque<Job>& queue = waiting[c.address];
      if (queue.empty()) turns.push_back(c.address);
      queue.push_back(Job{c.id, std::move(request)});
    }
    jobs_ready.notify_one();
    return true;
  }

  // The server's own answer to a request it will not pass on; the
  // connection closes after it, since what follows cannot be trusted to
  // start a request.
  void answer_error(Connection& c, int status, const std::string& reason, const std::string& path) {
    HttpResponse res;
    res.status = status;
    error_page(status, reason, path, res);
    if (res.body.empty()) res.set_content(reason + "\n", "text/plain; charset=utf-8");
    send(c, serialize_response(res, "GET", false, options.headers), true);
  }

  void send(Connection& c, std::string bytes, bool close_after) {
    c.phase = Connection::Phase::writing;
    c.out = std::move(bytes);
    c.out_at = 0;
    c.close_after = close_after;
    c.deadline = now_ms() + options.write_timeout_ms;
    on_writable(c);
  }

  void on_writable(Connection& c) {
    if (c.phase == Connection::Phase::handshake) return on_readable(c);
    if (c.phase == Connection::Phase::reading) return on_readable(c);  // a TLS read that wanted to write
    if (c.phase != Connection::Phase::writing) return;
    while (c.out_at < c.out.size()) {
      const std::size_t left = c.out.size() - c.out_at;
      if (c.ssl) {
        ERR_clear_error();
        const int n = SSL_write(c.ssl, c.out.data() + c.out_at, static_cast<int>(std::min<std::size_t>(left, 1 << 20)));
        if (n > 0) {
          c.out_at += static_cast<std::size_t>(n);
          continue;
        }
        const int error = SSL_get_error(c.ssl, n);
        if (error == SSL_ERROR_WANT_WRITE) return watch(c, EPOLLOUT);
        if (error == SSL_ERROR_WANT_READ) return watch(c, EPOLLIN);
        return close_connection(c.id);
      }
      const ssize_t n = ::send(c.fd, c.out.data() + c.out_at, left, MSG_NOSIGNAL);
      if (n > 0) {
        c.out_at += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return watch(c, EPOLLOUT);
      return close_connection(c.id);
    }
    touch(c);
    if (c.close_after) {
      ::shutdown(c.fd, SHUT_WR);
      return close_connection(c.id);
    }
    // The next request on this connection; it may have arrived already.
    const std::string leftover = c.parser.leftover();
    c.parser = RequestParser(options.limits);
    c.body_phase = false;
    c.out.clear();
    c.out.shrink_to_fit();
    c.phase = Connection::Phase::reading;
    c.deadline = now_ms() + options.idle_timeout_ms;
    if (!leftover.empty()) {
      c.parser.feed(leftover);
      c.deadline = now_ms() + options.header_timeout_ms;
      if (parsed(c)) return;
    }
    watch(c, EPOLLIN);
    // TLS may hold decrypted bytes of the next request that epoll cannot see.
    if (c.ssl && SSL_pending(c.ssl) > 0) on_readable(c);
  }

  void finish_jobs() {
    std::uint64_t count = 0;
    [[maybe_unused]] ssize_t n = ::read(wake, &count, sizeof count);
    std::vector<Done> finished;
    {
      std::lock_guard lock(done_mutex);
      finished.swap(done);
    }
    for (Done& d : finished) {
      const auto it = connections.find(d.connection);
      if (it == connections.end()) continue;
      Connection& c = *it->second;
      if (c.hung_up) {
        close_connection(c.id);
        continue;
      }
      if (d.delay_ms > 0) {
        c.phase = Connection::Phase::delaying;
        c.ready_at = now_ms() + d.delay_ms;
        c.out = std::move(d.bytes);
        c.close_after = d.close;
        earliest_due = std::min(earliest_due, c.ready_at);
        continue;
      }
      send(c, std::move(d.bytes), d.close);
    }
  }

  // Closes what is past its deadline and sends held responses that are due.
  // Returns the milliseconds until the next held response is due (at most 250).
  int sweep() {
    const std::int64_t now = now_ms();
    std::vector<std::uint64_t> expired, due;
    std::int64_t next = now + 250;
    for (const auto& [id, c] : connections) {
      switch (c->phase) {
        case Connection::Phase::working: break;
        case Connection::Phase::delaying:
          if (c->ready_at <= now) due.push_back(id);
          else next = std::min(next, c->ready_at);
          break;
        default:
          if (c->deadline <= now) expired.push_back(id);
      }
    }
    for (const std::uint64_t id : due) {
      Connection& c = *connections.at(id);
      if (c.hung_up) {
        close_connection(id);
        continue;
      }
      std::string bytes = std::move(c.out);
      send(c, std::move(bytes), c.close_after);
    }
    for (const std::uint64_t id : expired) {
      const auto it = connections.find(id);
      if (it == connections.end()) continue;
      Connection& c = *it->second;
      // A request begun and not finished in time is told so; a silent
      // connection (or a response not taken) is just closed.
      if (c.phase == Connection::Phase::reading && c.parser.started())
        answer_error(c, 408, "the request took too long to arrive", c.parser.request().path);
      else
        close_connection(id);
    }
    return static_cast<int>(std::max<std::int64_t>(1, next - now));
  }
};

HttpServer::HttpServer(HttpServerOptions options, HttpHandler handler, HttpErrorPage error_page)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler), std::move(error_page))) {}

HttpServer::~HttpServer() {
  stop();
  for (std::thread& t : impl_->workers)
    if (t.joinable()) t.join();
}

int HttpServer::bind(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (getaddrinfo(host.c_str(), service.c_str(), &hints, &found) != 0 || !found)
    throw Error(fmt::format("--host: cannot listen on {}", host));
  int fd = -1;
  for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, SOMAXCONN) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(found);
  if (fd < 0) {
    if (port == 0) throw Error(fmt::format("--host: cannot listen on {}", host));
    throw Error(fmt::format("--port: cannot listen on {}:{} (is it in use, or not an address of this machine?)", host, port));
  }
  impl_->listener = fd;
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  return address.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&address)->sin6_port)
                                       : ntohs(reinterpret_cast<sockaddr_in*>(&address)->sin_port);
}

std::string HttpServer::bound_address() const {
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  if (getsockname(impl_->listener, reinterpret_cast<sockaddr*>(&address), &size) != 0) return {};
  return numeric_address(address);
}

std::size_t HttpServer::open_connections() const { return impl_->open; }

void HttpServer::stop() {
  Impl& s = *impl_;
  s.stopping = true;
  if (s.wake >= 0) {
    const std::uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(s.wake, &one, sizeof one);
  }
  s.jobs_ready.notify_all();
}

void HttpServer::run() {
  Impl& s = *impl_;
  // OpenSSL writes with write(2), not send(MSG_NOSIGNAL): a client gone
  // mid-answer must cost its connection, not the server.
  std::signal(SIGPIPE, SIG_IGN);
  s.max_connections = s.options.max_connections ? s.options.max_connections : connection_room();
  s.epoll = epoll_create1(EPOLL_CLOEXEC);
  s.wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (s.epoll < 0 || s.wake < 0) throw Error("serve: cannot watch connections (epoll)");
  constexpr std::uint64_t listener_tag = 0, wake_tag = ~std::uint64_t{0};
  epoll_event e{};
  e.events = EPOLLIN;
  e.data.u64 = listener_tag;
  epoll_ctl(s.epoll, EPOLL_CTL_ADD, s.listener, &e);
  e.data.u64 = wake_tag;
  epoll_ctl(s.epoll, EPOLL_CTL_ADD, s.wake, &e);
  for (std::size_t i = 0; i < std::max<std::size_t>(1, s.options.workers); ++i) s.workers.emplace_back([&s] { s.work(); });

  std::vector<epoll_event> events(512);
  int timeout = 250;
  std::int64_t last_sweep = now_ms();
  while (!s.stopping) {
    const int n = epoll_wait(s.epoll, events.data(), static_cast<int>(events.size()), timeout);
    for (int i = 0; i < n; ++i) {
      const std::uint64_t tag = events[i].data.u64;
      if (tag == listener_tag) {
        s.accept_all();
        continue;
      }
      if (tag == wake_tag) {
        s.finish_jobs();
        continue;
      }
      const auto it = s.connections.find(tag);
      if (it == s.connections.end()) continue;
      Connection& c = *it->second;
      const std::uint32_t happened = events[i].events;
      if (happened & (EPOLLERR | EPOLLHUP)) {
        if (c.phase != Connection::Phase::working && c.phase != Connection::Phase::delaying) {
          s.close_connection(tag);
        } else {
          // Level-triggered, a hang-up would be reported again and again
          // while its answer is made: stop watching until it is ready.
          epoll_ctl(s.epoll, EPOLL_CTL_DEL, c.fd, nullptr);
          c.hung_up = true;
        }
        continue;
      }
      if (happened & EPOLLOUT) s.on_writable(c);
      else if (happened & EPOLLIN) s.on_readable(c);
    }
    const std::int64_t now = now_ms();
    if (now - last_sweep >= 100 || n == 0 || s.earliest_due <= now) {
      s.earliest_due = INT64_MAX;
      timeout = s.sweep();
      last_sweep = now;
    }
    if (s.earliest_due != INT64_MAX) timeout = static_cast<int>(std::clamp<std::int64_t>(s.earliest_due - now, 1, timeout));
  }
  {
    std::lock_guard lock(s.jobs_mutex);
    s.jobs_ready.notify_all();
  }
  for (std::thread& t : s.workers)
    if (t.joinable()) t.join();
  s.workers.clear();
  for (auto& [id, c] : s.connections) s.drop_resources(*c);
  s.connections.clear();
  s.by_age.clear();
  s.open = 0;
}

}  // namespace attnmark
