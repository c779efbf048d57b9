// serve/http.h: HTTP/1.1 messages as attnmark serve reads and answers them,
// and the parser that reads a request from bytes under fixed limits. The
// connections themselves are serve/http_server.h's.
//
//   RequestParser parser(HttpLimits{});
//   parser.feed("GET /attempt?n=3 HTTP/1.1\r\nHost: x\r\n\r\n");
//   parser.state() == RequestParser::State::done;
//   parser.request().query_value("n") == "3";
//
// The parser is testable from a string: feed it any bytes, in any pieces, and
// it ends in done (a whole request), error (with the status to answer: 400,
// 413, 414, 431, 501, 505) or still wants more.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnmark {

// What one request may be. Every bound is in bytes unless it says otherwise.
struct HttpLimits {
  std::size_t request_line = 8 * 1024;  // longer: 414
  std::size_t header_bytes = 16 * 1024; // all header lines together; more: 431
  std::size_t header_count = 100;       // more lines: 431
  std::size_t body = 64 * 1024;         // larger: 413 (a multipart form's parts cost their names too)
};

struct HttpRequest {
  std::string method;  // "GET", as sent (methods are case-sensitive)
  std::string target;  // "/attempt?n=3", as sent
  std::string path;    // "/attempt", percent-decoded
  std::string version; // "HTTP/1.1"
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-case, in order
  std::string body;
  std::multimap<std::string, std::string> query;  // the target's ?a=1&b=2, decoded
  std::multimap<std::string, std::string> form;   // a urlencoded or multipart body's fields, decoded
  std::string remote_address;                     // numeric: "127.0.0.1", "::1"

  // The first header of that name (any case), or "".
  std::string header(std::string_view name) const;
  // The first value of a query or form field, or "".
  std::string query_value(const std::string& name) const;
  std::string form_value(const std::string& name) const;
  // Whether the client asked for the connection to stay open (HTTP/1.1 unless
  // "Connection: close"; HTTP/1.0 only with "Connection: keep-alive").
  bool keep_alive() const;
};

struct HttpResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // as set; Set-Cookie may repeat
  std::string body;
  // Held this long before it is sent (a slowed sign-in): by the connection's
  // event loop, not a thread.
  int delay_ms = 0;
  // Close the connection once this is sent.
  bool close = false;

  void set_header(std::string name, std::string value) { headers.emplace_back(std::move(name), std::move(value)); }
  void set_content(std::string content, std::string type) {
    body = std::move(content);
    set_header("Content-Type", std::move(type));
  }
  // A redirect to `location` (303 See Other by default) with an empty body.
  void set_redirect(std::string location, int redirect_status = 303) {
    status = redirect_status;
    set_header("Location", std::move(location));
  }
  bool has_header(std::string_view name) const;
};

// The reason phrase of a status: reason_phrase(431) == "Request Header Fields Too Large".
const char* reason_phrase(int status);

// The bytes of `res` as an answer to a request of `method` (HEAD: headers
// only), with Content-Length, Connection, and `extra` headers (sent before the
// response's own).
std::string serialize_response(const HttpResponse& res, std::string_view method, bool keep_alive,
                               const std::vector<std::pair<std::string, std::string>>& extra);

// Reads one request, fed in pieces. Bytes after its end are kept for the
// next request (leftover()).
class RequestParser {
 public:
  enum class State { start, headers, body, chunk_size, chunk_data, chunk_end, trailers, done, error };

  explicit RequestParser(const HttpLimits& limits) : limits_(limits) {}

  // Takes more bytes; returns the new state. REQUIRES: state() is not done or error.
  State feed(std::string_view bytes);
  State state() const { return state_; }
  // Whether any byte of this request has arrived (an idle keep-alive
  // connection has none).
  bool started() const { return started_; }
  // When error: the status to answer and why (for a plain-text body).
  int error_status() const { return error_status_; }
  const std::string& error_reason() const { return error_reason_; }
  // When done: the request (its form filled from the body's Content-Type).
  HttpRequest& request() { return request_; }
  // When done: the bytes that followed it. The next request begins with them.
  std::string leftover() const { return buffer_.substr(position_); }

 private:
  State fail(int status, std::string reason);
  State request_line(std::string_view line);
  State header_line(std::string_view line);
  State headers_done();
  State finish();

  HttpLimits limits_;
  State state_ = State::start;
  bool started_ = false;
  std::string buffer_;
  std::size_t position_ = 0;      // first unread byte of buffer_
  std::size_t header_bytes_ = 0;  // header lines so far (a request's or a chunked body's trailers)
  std::size_t body_expected_ = 0; // Content-Length, or the current chunk's size
  std::size_t body_limit_ = 0;
  int error_status_ = 0;
  std::string error_reason_;
  HttpRequest request_;
};

// Percent-decoding as a form or query string holds it ('+' a space when `plus`).
//   percent_decoded("a%20b+c", true) == "a b c"
std::string percent_decoded(std::string_view text, bool plus);
// A query-string or urlencoded form's fields: "a=1&b=x+y" → {a: 1, b: "x y"}.
std::multimap<std::string, std::string> parse_urlencoded(std::string_view text);
// Escapes a query parameter's value: encode_query_value("s 1&x") == "s%201%26x".
std::string encode_query_value(std::string_view text);
// A multipart/form-data body's fields (name → content) under `boundary`.
// False when it is malformed, or its parts' names and contents add up to more
// than `max_bytes`.
bool parse_multipart(std::string_view body, std::string_view boundary, std::size_t max_bytes,
                     std::multimap<std::string, std::string>& out, int& status);

// The value of cookie `name` in the request's Cookie header, or "".
std::string cookie(const HttpRequest& req, const std::string& name);
// A Set-Cookie value: HttpOnly, SameSite=Strict, for `path`; with `secure`
// (the page is served over HTTPS), Secure too; with max_age, kept that many
// seconds (0: removed).
//   set_cookie("a", "1", "/", false, 60) == "a=1; Path=/; Max-Age=60; HttpOnly; SameSite=Strict"
std::string set_cookie(const char* name, const std::string& value, const char* path, bool secure,
                       std::optional<long> max_age = std::nullopt);

// A form field; "" when not sent.
std::string field(const HttpRequest& req, const std::string& name);
// Every form field whose name holds a '.' (the answer cells' names do):
// name → value. Of a name sent twice the last counts.
std::map<std::string, std::string> answer_fields(const HttpRequest& req);

// Answers `status` with {"error": message} and a line end.
void json_error(HttpResponse& res, int status, const std::string& message);

}  // namespace attnmark
