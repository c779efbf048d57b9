// The HTTP request parser from strings: whole requests in any pieces, and
// each limit with the status it answers.
#include "serve/http.h"

#include <catch2/catch.hpp>

#include <string>

using namespace attnmark;
using State = RequestParser::State;

namespace {

// Feeds `bytes` one piece of `step` bytes at a time until the parser ends.
State parse(RequestParser& p, const std::string& bytes, std::size_t step = 1 << 20) {
  State s = p.state();
  for (std::size_t at = 0; at < bytes.size() && s != State::done && s != State::error; at += step)
    s = p.feed(std::string_view(bytes).substr(at, step));
  return s;
}

}  // namespace

TEST_CASE("http: a GET is read whole, its path decoded and its query fields split", "[http]") {
  for (const std::size_t step : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
    INFO(step);
    RequestParser p{HttpLimits{}};
    const std::string bytes = "GET /teacher/student?id=s%20001&x=a+b HTTP/1.1\r\nHost: x\r\nCookie: a=1; attnmark_session=abc\r\n\r\n";
    REQUIRE(parse(p, bytes, step) == State::done);
    const HttpRequest& r = p.request();
    CHECK(r.method == "GET");
    CHECK(r.path == "/teacher/student");
    CHECK(r.query_value("id") == "s 001");
    CHECK(r.query_value("x") == "a b");
    CHECK(r.header("HOST") == "x");
    CHECK(cookie(r, "attnmark_session") == "abc");
    CHECK(cookie(r, "attnmark") == "");
    CHECK(r.keep_alive());
    CHECK(p.leftover().empty());
  }
}

TEST_CASE("http: a form's body is read by Content-Length, and what follows is the next request", "[http]") {
  RequestParser p{HttpLimits{}};
  const std::string bytes =
      "POST /signin HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 25\r\n\r\n"
      "student=s001&code=ab%2Dcd"
      "GET / HTTP/1.1\r\n\r\n";
  REQUIRE(parse(p, bytes) == State::done);
  CHECK(p.request().form_value("student") == "s001");
  CHECK(p.request().form_value("code") == "ab-cd");
  CHECK(p.leftover() == "GET / HTTP/1.1\r\n\r\n");
}

TEST_CASE("http: a chunked body is read under the same limit", "[http]") {
  RequestParser p{HttpLimits{}};
  REQUIRE(parse(p, "POST /api/check HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3;x=y\r\n:1}\r\n0\r\nX-Trailer: 1\r\n\r\n", 3) ==
          State::done);
  CHECK(p.request().body == "{\"a\":1}");
  HttpLimits small;
  small.body = 10;
  RequestParser over{small};
  CHECK(parse(over, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n") == State::error);
  CHECK(over.error_status() == 413);
}

TEST_CASE("http: a multipart form's fields, its parts costing their names", "[http]") {
  const std::string body =
      "--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nabc\r\n"
      "--XyZ\r\nContent-Disposition: form-data; name=\"q1.scores.1\"\r\n\r\n2\r\n"
      "--XyZ--\r\n";
  RequestParser p{HttpLimits{}};
  REQUIRE(parse(p, "POST /check HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: " +
                       std::to_string(body.size()) + "\r\n\r\n" + body) == State::done);
  CHECK(field(p.request(), "csrf") == "abc");
  CHECK(answer_fields(p.request()) == std::map<std::string, std::string>{{"q1.scores.1", "2"}});
  std::multimap<std::string, std::string> out;
  int status = 0;
  CHECK_FALSE(parse_multipart(body, "XyZ", 60, out, status));
  CHECK(status == 413);
  CHECK_FALSE(parse_multipart("--XyZ\r\nno end", "XyZ", 1000, out, status));
  CHECK(status == 400);
}

TEST_CASE("http: each bound answers its status: 414, 431, 413, 400, 501, 505", "[http]") {
  const HttpLimits limits;
  const auto error_of = [&](const std::string& bytes) {
    RequestParser p{limits};
    const State s = parse(p, bytes, 997);
    return s == State::error ? p.error_status() : s == State::done ? 200 : 0;
  };
  // The request line: 8 KiB, whether or not its line end has come.
  CHECK(error_of("GET /" + std::string(8 * 1024, 'a') + " HTTP/1.1\r\n\r\n") == 414);
  CHECK(error_of("GET /" + std::string(9 * 1024, 'a')) == 414);
  CHECK(error_of("GET /" + std::string(8 * 1024 - 20, 'a') + " HTTP/1.1\r\n\r\n") == 200);
  // Header fields: 16 KiB in all, 100 lines at most; a line never ended counts too.
  std::string many = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 101; ++i) many += "X-" + std::to_string(i) + ": 1\r\n";
  CHECK(error_of(many + "\r\n") == 431);
  CHECK(error_of("GET / HTTP/1.1\r\nX: " + std::string(17 * 1024, 'a') + "\r\n\r\n") == 431);
  CHECK(error_of("GET / HTTP/1.1\r\nX: " + std::string(17 * 1024, 'a')) == 431);
  std::string slow = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 2000; ++i) slow += "X: a\r\n";  // a header line every so often, never done
  CHECK(error_of(slow) == 431);
  // Bodies.
  CHECK(error_of("POST /api/check HTTP/1.1\r\nContent-Length: 65537\r\n\r\n") == 413);
  CHECK(error_of("POST /api/check HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n") == 413);
  CHECK(error_of("POST /api/check HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == 400);
  CHECK(error_of("POST /api/check HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") == 400);
  CHECK(error_of("POST /api/check HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n") == 400);
  CHECK(error_of("POST /api/check HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") == 501);
  // Malformed.
  CHECK(error_of("GET / HTTP/2.0\r\n\r\n") == 505);
  CHECK(error_of("GET nowhere HTTP/1.1\r\n\r\n") == 400);
  CHECK(error_of(" /api/check HTTP/1.1\r\n\r\n") == 400);  // no method (found by fuzz_http)
  CHECK(error_of("GET / HTTP/1.1\r\n folded: 1\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nno colon\r\n\r\n") == 400);
}

TEST_CASE("http: a GET or HEAD that says it has a body is refused, never read as a second request", "[http]") {
  const std::string hidden = "POST /api/check HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}";
  for (const char* method : {"GET", "HEAD"}) {
    INFO(method);
    RequestParser p{HttpLimits{}};
    CHECK(parse(p, std::string(method) + " / HTTP/1.1\r\nContent-Length: " + std::to_string(hidden.size()) + "\r\n\r\n" +
                       hidden) == State::error);
    CHECK(p.error_status() == 400);
    CHECK(p.error_reason() == "a GET or HEAD request has no body");
    RequestParser chunked{HttpLimits{}};
    CHECK(parse(chunked, std::string(method) + " / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") == State::error);
  }
  RequestParser empty{HttpLimits{}};
  CHECK(parse(empty, "GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n") == State::done);
}

TEST_CASE("http: responses are framed with Content-Length, HEAD without the body", "[http]") {
  HttpResponse res;
  res.set_content("hi", "text/plain");
  res.set_header("Set-Cookie", "a=1");
  res.set_header("Set-Cookie", "b=2");
  CHECK(serialize_response(res, "GET", true, {{"X-Frame-Options", "DENY"}, {"Content-Type", "never"}}) ==
        "HTTP/1.1 200 OK\r\nX-Frame-Options: DENY\r\nContent-Type: text/plain\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n"
        "Content-Length: 2\r\nConnection: keep-alive\r\n\r\nhi");
  CHECK(serialize_response(res, "HEAD", false, {}) ==
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 2\r\n"
        "Connection: close\r\n\r\n");
  CHECK(std::string(reason_phrase(431)) == "Request Header Fields Too Large");
  CHECK(encode_query_value("s 1&x/é") == "s%201%26x%2F%C3%A9");
  CHECK(percent_decoded("a%2", false) == "a%2");
}
