// Fuzzes serve/http's RequestParser, which reads every byte a client sends
// attnmark serve: the first byte picks the piece size the rest is fed in
// (1 to 256 bytes). Invariants: nothing throws; it ends done, error (with
// one of the statuses it documents) or wanting more; a request is never
// larger than its limits allow; a GET or HEAD never has a body; and feeding
// the bytes whole gives the same outcome as feeding them in pieces.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "serve/http.h"

using attnmark::HttpLimits;
using attnmark::RequestParser;
using attnmark::fuzz::require;

namespace {

struct Outcome {
  RequestParser::State state;
  int status = 0;
  std::string method, path, body, leftover;
  std::size_t headers = 0, fields = 0;
};

Outcome parse(std::string_view bytes, std::size_t step, const HttpLimits& limits) {
  RequestParser p(limits);
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    const RequestParser::State s = p.feed(bytes.substr(at, step));
    if (s == RequestParser::State::done || s == RequestParser::State::error) {
      // What came after the end is the next request's, as the server keeps it.
      Outcome o{s, p.error_status(), p.request().method, p.request().path, p.request().body, p.leftover() +
                std::string(bytes.substr(std::min(bytes.size(), at + step))), p.request().headers.size(),
                p.request().form.size()};
      return o;
    }
  }
  return Outcome{p.state(), 0, "", "", "", "", 0, 0};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t step = 1 + data[0];
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  HttpLimits limits;
  limits.request_line = 256;  // small bounds, so the fuzzer reaches them
  limits.header_bytes = 512;
  limits.header_count = 8;
  limits.body = 256;
  const Outcome pieces = parse(bytes, step, limits);
  const Outcome whole = parse(bytes, bytes.size() + 1, limits);
  require(pieces.state == whole.state, "the same state whole and in pieces");
  if (pieces.state == RequestParser::State::error) {
    const int s = pieces.status;
    require(s == 400 || s == 413 || s == 414 || s == 431 || s == 501 || s == 505, "a documented error status");
    require(s == whole.status, "the same error whole and in pieces");
  }
  if (pieces.state == RequestParser::State::done) {
    require(!pieces.method.empty(), "a request has a method");
    require(pieces.headers <= limits.header_count, "no more header fields than the limit");
    require(pieces.body.size() <= 2 * limits.body, "no body larger than the limit");
    require(pieces.method != "GET" || pieces.body.empty(), "a GET has no body");
    require(pieces.method == whole.method && pieces.path == whole.path && pieces.body == whole.body &&
                pieces.fields == whole.fields && pieces.leftover == whole.leftover,
            "the same request whole and in pieces");
  }
  return 0;
}
