// serve/http_server.h: attnmark serve's HTTP/1.1 server: one thread watches
// every connection (epoll), and a small pool of workers runs the handler on
// whole requests only. A connection costs a descriptor and its buffers, never
// a thread, so a client that sends slowly, or not at all, holds nothing
// another student needs; every phase of a request has a deadline.
//
//   HttpServer http(options, [](HttpRequest& req, HttpResponse& res) { res.set_content("hi", "text/plain"); });
//   int port = http.bind("127.0.0.1", 0);   // 0: any free port
//   http.run();                             // until stop(), from another thread or a signal watcher
//
// With options.tls (serve/tls.h) every connection is TLS (1.2 or later), and
// each response carries Strict-Transport-Security.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "serve/http.h"

namespace attnmark {

class TlsContext;

struct HttpServerOptions {
  HttpLimits limits;
  // From a request's first byte (or, on a new connection, its opening) to its
  // last header line; longer: 408 and the connection is closed.
  int header_timeout_ms = 10'000;
  // From the end of the headers to the body's last byte.
  int body_timeout_ms = 30'000;
  // A kept-open connection with no request this long is closed.
  int idle_timeout_ms = 30'000;
  // A response the client does not take in this long: the connection is closed.
  int write_timeout_ms = 30'000;
  // Threads running the handler; a request waits for one only once it is whole.
  std::size_t workers = 16;
  // Open connections at most (0: the descriptor limit, raised to its hard
  // limit, less a margin). At the limit the connection idle or stalled the
  // longest is closed to take a new one, so a flood of connections never
  // keeps a newcomer out.
  std::size_t max_connections = 0;
  std::size_t requests_per_connection = 10'000;
  // Headers every response carries unless it sets its own.
  std::vector<std::pair<std::string, std::string>> headers;
  std::shared_ptr<TlsContext> tls;  // null: plain HTTP
};

// Runs on a worker. An exception it lets out is answered 500 (plain text).
using HttpHandler = std::function<void(HttpRequest&, HttpResponse&)>;
// The body of an answer the server gives itself, on the watching thread
// (a malformed or too large request: 400, 408, 413, 414, 431, 501, 505):
// `reason` says why in words for the client; `path` is the request's path
// when its line was read, else "". Keep it cheap.
using HttpErrorPage = std::function<void(int status, const std::string& reason, const std::string& path, HttpResponse&)>;

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, HttpHandler handler, HttpErrorPage error_page);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Listens on host:port and returns the port (port 0: any free one). Throws
  // Error when it cannot.
  int bind(const std::string& host, int port);
  // The numeric address bound ("127.0.0.1", "::"). REQUIRES: bind() succeeded.
  std::string bound_address() const;
  // Serves until stop(). REQUIRES: bind() succeeded.
  void run();
  // Stops run() (from any thread, and from a signal handler).
  void stop();
  // How many connections are open now (for tests and the teacher).
  std::size_t open_connections() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace attnmark
