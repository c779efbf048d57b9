// serve/http.h: what attnmark serve needs of HTTP beyond cpp-httplib: its
// listening socket, cookies, form fields, JSON errors, and request bodies
// read under one size limit. Included by serve's own .cpp files only (it
// includes <httplib.h>, a private dependency of the serve layer).
//
//   HttpServer http;                      // an httplib::Server with a longer listen backlog
//   std::string id = cookie(req, "attnmark_session");
//   if (!read_body(req, res, reader, 64 * 1024)) return;   // 413 or 400 set
#pragma once

#include <httplib.h>

#include <cstddef>
#include <map>
#include <string>

namespace attnmark {

// cpp-httplib 0.11 listens with a backlog of 5 connections: a class
// connecting at once overflows it, and the connections dropped wait a second
// or fail. Linux lets listen() be called again on a listening socket to set a
// longer backlog; the socket is a protected member, hence the subclass.
class HttpServer : public httplib::Server {
 public:
  void lengthen_backlog();
  // The numeric address the socket is bound to, or "" when it is not.
  std::string bound_address() const;
};

// The value of cookie `name` in the request's Cookie header, or "".
std::string cookie(const httplib::Request& req, const std::string& name);
// A Set-Cookie value: HttpOnly, SameSite=Strict, for `path`.
std::string set_cookie(const char* name, const std::string& value, const char* path);

// A form field, from a urlencoded body or a multipart one; "" when not sent.
std::string field(const httplib::Request& req, const std::string& name);
// Every field a form sent whose name holds a '.' (the answer cells'
// names do): name → value. Of a name sent twice the last counts, and a
// multipart part over a urlencoded field.
std::map<std::string, std::string> answer_fields(const httplib::Request& req);

// Answers `status` with {"error": message} and a line end.
void json_error(httplib::Response& res, int status, const std::string& message);

// Reads the body into `req` (body, and params or files as cpp-httplib would
// fill them). False, with res.status 413 or 400, when it is larger than
// `max_bytes` (a multipart part costing its names too) or malformed. Every
// request with a body is read here, never by cpp-httplib itself: Debian's
// libcpp-httplib is compiled with a cap of 8 KiB on a form-encoded body
// (CPPHTTPLIB_FORM_URL_ENCODED_PAYLOAD_MAX_LENGTH, which no define here can
// change) and none on a chunked one. Read here, every body has one limit,
// whatever its Content-Type.
bool read_body(httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader,
               std::size_t max_bytes);

}  // namespace attnmark
