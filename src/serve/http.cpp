#include "serve/http.h"

#include <charconv>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/text.h"

namespace attnmark {

namespace {

bool is_token_char(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  if (u <= 32 || u >= 127) return false;
  return std::string_view("()<>@,;:\\\"/[]?={}").find(c) == std::string_view::npos;
}

bool same_name(std::string_view a, std::string_view b) { return a.size() == b.size() && lower(a) == lower(b); }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A header's parameter, as in `multipart/form-data; boundary=xyz` or
// `form-data; name="q1.scores.1"`: its value unquoted, or "".
std::string header_parameter(std::string_view header, std::string_view name) {
  std::size_t at = header.find(';');
  while (at != std::string_view::npos) {
    std::string_view rest = trim(header.substr(at + 1));
    const std::size_t equals = rest.find('=');
    if (equals == std::string_view::npos) return {};
    const std::string_view key = trim(rest.substr(0, equals));
    std::string_view value = rest.substr(equals + 1);
    std::string out;
    std::size_t end = 0;
    if (!value.empty() && value[0] == '"') {
      for (end = 1; end < value.size() && value[end] != '"'; ++end) {
        if (value[end] == '\\' && end + 1 < value.size()) ++end;
        out += value[end];
      }
      ++end;
    } else {
      end = value.find(';');
      if (end == std::string_view::npos) end = value.size();
      out = std::string(trim(value.substr(0, end)));
    }
    if (same_name(key, name)) return out;
    const std::size_t next = value.find(';', std::min(end, value.size()));
    if (next == std::string_view::npos) return {};
    at = static_cast<std::size_t>(value.data() + next - header.data());
  }
  return {};
}

}  // namespace

std::string HttpRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (same_name(key, name)) return value;
  return {};
}

std::string HttpRequest::query_value(const std::string& name) const {
  const auto it = query.find(name);
  return it == query.end() ? std::string() : it->second;
}

std::string HttpRequest::form_value(const std::string& name) const {
  const auto it = form.find(name);
  return it == form.end() ? std::string() : it->second;
}

bool HttpRequest::keep_alive() const {
  const std::string connection = lower(header("connection"));
  if (version == "HTTP/1.0") return connection.find("keep-alive") != std::string::npos;
  return connection.find("close") == std::string::npos;
}

bool HttpResponse::has_header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (same_name(key, name)) return true;
  return false;
}

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 204: return "No Content";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return status < 400 ? "OK" : "Error";
  }
}

std::string serialize_response(const HttpResponse& res, std::string_view method, bool keep_alive,
                               const std::vector<std::pair<std::string, std::string>>& extra) {
  std::string out = fmt::format("HTTP/1.1 {} {}\r\n", res.status, reason_phrase(res.status));
  for (const auto& [name, value] : extra)
    if (!res.has_header(name)) out += fmt::format("{}: {}\r\n", name, value);
  for (const auto& [name, value] : res.headers) out += fmt::format("{}: {}\r\n", name, value);
  out += fmt::format("Content-Length: {}\r\n", res.body.size());
  out += keep_alive && !res.close ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
  out += "\r\n";
  if (method != "HEAD") out += res.body;
  return out;
}

// ---- The parser ----

RequestParser::State RequestParser::fail(int status, std::string reason) {
  error_status_ = status;
  error_reason_ = std::move(reason);
  return state_ = State::error;
}

RequestParser::State RequestParser::feed(std::string_view bytes) {
  if (!bytes.empty()) started_ = true;
  if (position_ == buffer_.size()) {
    buffer_.clear();
    position_ = 0;
  }
  buffer_.append(bytes);
  while (state_ != State::done && state_ != State::error) {
    if (state_ == State::body || state_ == State::chunk_data) {
      const std::size_t have = buffer_.size() - position_;
      const std::size_t take = std::min(have, body_expected_);
      request_.body.append(buffer_, position_, take);
      position_ += take;
      body_expected_ -= take;
      if (body_expected_ > 0) break;
      if (state_ == State::body) return finish();
      state_ = State::chunk_end;
      continue;
    }
    // Every other state reads a line.
    const std::size_t end = buffer_.find('\n', position_);
    const std::size_t bound = state_ == State::start ? limits_.request_line
                              : state_ == State::chunk_size || state_ == State::chunk_end ? 1024
                                                                                          : limits_.header_bytes;
    if (end == std::string::npos) {
      const std::size_t pending = buffer_.size() - position_;
      if (state_ == State::start && pending > bound) return fail(414, "the request line is too long");
      if ((state_ == State::headers || state_ == State::trailers) && header_bytes_ + pending > bound)
        return fail(431, "the request's header fields are too large");
      if (pending > bound) return fail(400, "a chunk's size line is too long");
      break;
    }
    // Bounds count a line's bytes before its '\n' ('\r' included), as the
    // pending bytes of a line not yet ended are counted above.
    const std::size_t raw = end - position_;
    if (state_ == State::start && raw > bound) return fail(414, "the request line is too long");
    if ((state_ == State::chunk_size || state_ == State::chunk_end) && raw > bound)
      return fail(400, "a chunk's size line is too long");
    std::string_view line(buffer_.data() + position_, raw);
    const std::size_t consumed = raw + 1;
    position_ = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    switch (state_) {
      case State::start:
        if (line.empty()) continue;  // a line end before a request is allowed (RFC 9112 2.2)
        if (request_line(line) == State::error) return state_;
        state_ = State::headers;
        break;
      case State::headers:
      case State::trailers:
        header_bytes_ += consumed;
        if (header_bytes_ > limits_.header_bytes) return fail(431, "the request's header fields are too large");
        if (line.empty()) {
          if (state_ == State::trailers) return finish();
          if (headers_done() == State::error) return state_;
          break;
        }
        if (state_ == State::trailers) continue;  // trailers are read and dropped
        if (header_line(line) == State::error) return state_;
        break;
      case State::chunk_size: {
        const std::string_view digits = trim(line.substr(0, line.find(';')));
        std::size_t size = 0;
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), size, 16);
        if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size())
          return fail(400, "a chunk's size is not a hexadecimal number");
        if (size > body_limit_ || request_.body.size() + size > body_limit_) return fail(413, "the body is too large");
        if (size == 0) {
          state_ = State::trailers;
          header_bytes_ = 0;
          break;
        }
        body_expected_ = size;
        state_ = State::chunk_data;
        break;
      }
      case State::chunk_end:
        if (!line.empty()) return fail(400, "a chunk does not end with a line end");
        state_ = State::chunk_size;
        break;
      default: break;
    }
    // A request's line and headers before its body are one budget: the
    // buffer never holds more than the limits allow of them.
    if (position_ > 64 * 1024 && state_ != State::done) {
      buffer_.erase(0, position_);
      position_ = 0;
    }
  }
  return state_;
}

RequestParser::State RequestParser::request_line(std::string_view line) {
  const std::size_t first = line.find(' ');
  const std::size_t last = line.rfind(' ');
  if (first == std::string_view::npos || first == 0 || first == last) return fail(400, "the request line is malformed");
  request_.method = std::string(line.substr(0, first));
  request_.target = std::string(line.substr(first + 1, last - first - 1));
  request_.version = std::string(line.substr(last + 1));
  for (char c : request_.method)
    if (!is_token_char(c)) return fail(400, "the request's method is malformed");
  if (request_.version != "HTTP/1.1" && request_.version != "HTTP/1.0") {
    if (!request_.version.starts_with("HTTP/")) return fail(400, "the request line is malformed");
    return fail(505, "only HTTP/1.0 and HTTP/1.1 are served");
  }
  std::string_view target = request_.target;
  // The absolute form (a proxy's): its path is what is served.
  if (target.starts_with("http://") || target.starts_with("https://")) {
    const std::size_t slash = target.find('/', target.find("//") + 2);
    target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
  }
  if (target.empty() || target[0] != '/') return fail(400, "the request's target is not a path");
  for (char c : target)
    if (static_cast<unsigned char>(c) <= 32 || c == 127) return fail(400, "the request's target is malformed");
  const std::size_t question = target.find('?');
  request_.path = percent_decoded(target.substr(0, question), false);
  if (question != std::string_view::npos) request_.query = parse_urlencoded(target.substr(question + 1));
  return state_;
}

RequestParser::State RequestParser::header_line(std::string_view line) {
  if (request_.headers.size() >= limits_.header_count) return fail(431, "the request has too many header fields");
  if (line[0] == ' ' || line[0] == '\t') return fail(400, "a header field is folded");  // obsolete, and a smuggling tool
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return fail(400, "a header field is malformed");
  const std::string_view name = line.substr(0, colon);
  for (char c : name)
    if (!is_token_char(c)) return fail(400, "a header field's name is malformed");
  request_.headers.emplace_back(lower(name), std::string(trim(line.substr(colon + 1))));
  return state_;
}

RequestParser::State RequestParser::headers_done() {
  const std::string type = lower(request_.header("content-type"));
  // A multipart form's boundaries and part headers are framing: the body
  // read may be that much larger than the budget of its names and contents.
  body_limit_ = type.starts_with("multipart/form-data") ? limits_.body * 2 : limits_.body;
  std::string length_text;
  int lengths = 0;
  bool chunked = false;
  for (const auto& [name, value] : request_.headers) {
    if (name == "content-length") {
      if (lengths > 0 && value != length_text) return fail(400, "the request has two Content-Lengths");
      length_text = value;
      ++lengths;
    } else if (name == "transfer-encoding") {
      if (lower(trim(value)) != "chunked" || chunked) return fail(501, "only the chunked transfer coding is read");
      chunked = true;
    }
  }
  if (chunked && lengths > 0) return fail(400, "the request has both Content-Length and Transfer-Encoding");
  std::size_t length = 0;
  if (lengths > 0) {
    const auto [ptr, ec] = std::from_chars(length_text.data(), length_text.data() + length_text.size(), length);
    if (length_text.empty() || ec == std::errc::result_out_of_range) return fail(413, "the body is too large");
    if (ec != std::errc() || ptr != length_text.data() + length_text.size())
      return fail(400, "the request's Content-Length is not a number");
  }
  // GET and HEAD carry no body: one that says it has one is refused whole
  // (never read as the next request on the connection).
  if ((request_.method == "GET" || request_.method == "HEAD") && (chunked || length > 0))
    return fail(400, "a GET or HEAD request has no body");
  if (chunked) {
    state_ = State::chunk_size;
    return state_;
  }
  if (length > body_limit_) return fail(413, "the body is too large");
  body_expected_ = length;
  if (length == 0) return finish();
  request_.body.reserve(length);
  state_ = State::body;
  return state_;
}

RequestParser::State RequestParser::finish() {
  const std::string type_header = request_.header("content-type");
  const std::string type = lower(type_header);
  if (type.starts_with("application/x-www-form-urlencoded")) {
    if (request_.body.size() > limits_.body) return fail(413, "the body is too large");
    request_.form = parse_urlencoded(request_.body);
  } else if (type.starts_with("multipart/form-data")) {
    int status = 400;
    if (!parse_multipart(request_.body, header_parameter(type_header, "boundary"), limits_.body, request_.form, status))
      return fail(status, status == 413 ? "the body is too large" : "the multipart form is malformed");
  } else if (request_.body.size() > limits_.body) {
    return fail(413, "the body is too large");
  }
  return state_ = State::done;
}

// ---- Forms and cookies ----

std::string percent_decoded(std::string_view text, bool plus) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+' && plus) {
      out += ' ';
    } else if (c == '%' && i + 2 < text.size() && hex_digit(text[i + 1]) >= 0 && hex_digit(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::multimap<std::string, std::string> parse_urlencoded(std::string_view text) {
  std::multimap<std::string, std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('&', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view pair = text.substr(at, end - at);
    if (!pair.empty()) {
      const std::size_t equals = pair.find('=');
      if (equals == std::string_view::npos)
        out.emplace(percent_decoded(pair, true), "");
      else
        out.emplace(percent_decoded(pair.substr(0, equals), true), percent_decoded(pair.substr(equals + 1), true));
    }
    at = end + 1;
  }
  return out;
}

std::string encode_query_value(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
        std::string_view("-_.~").find(c) != std::string_view::npos)
      out += c;
    else
      out += fmt::format("%{:02X}", u);
  }
  return out;
}

bool parse_multipart(std::string_view body, std::string_view boundary, std::size_t max_bytes,
                     std::multimap<std::string, std::string>& out, int& status) {
  status = 400;
  if (boundary.empty() || boundary.size() > 200) return false;
  const std::string delimiter = "--" + std::string(boundary);
  std::size_t at = body.find(delimiter);
  if (at == std::string_view::npos) return false;
  std::size_t cost = 0;
  while (true) {
    at += delimiter.size();
    if (body.substr(at, 2) == "--") return true;  // the closing delimiter
    if (body.substr(at, 2) != "\r\n") return false;
    at += 2;
    const std::size_t headers_end = body.find("\r\n\r\n", at);
    if (headers_end == std::string_view::npos) return false;
    std::string name;
    bool named = false;
    std::size_t line_at = at;
    while (line_at < headers_end) {
      std::size_t line_end = body.find("\r\n", line_at);
      if (line_end == std::string_view::npos || line_end > headers_end) line_end = headers_end;
      const std::string_view line = body.substr(line_at, line_end - line_at);
      const std::size_t colon = line.find(':');
      if (colon != std::string_view::npos && same_name(trim(line.substr(0, colon)), "content-disposition")) {
        name = header_parameter(line.substr(colon + 1), "name");
        named = true;
      }
      cost += line.size();
      line_at = line_end + 2;
    }
    const std::size_t content_at = headers_end + 4;
    const std::size_t next = body.find("\r\n" + delimiter, content_at);
    if (next == std::string_view::npos) return false;
    // A part costs its headers too, so no flood of empty parts grows the table.
    cost += 1 + next - content_at;
    if (cost > max_bytes) {
      status = 413;
      return false;
    }
    if (named) out.emplace(name, std::string(body.substr(content_at, next - content_at)));
    at = next + 2;
  }
}

std::string cookie(const HttpRequest& req, const std::string& name) {
  for (const auto& [key, header] : req.headers) {
    if (key != "cookie") continue;
    std::size_t at = 0;
    while (at < header.size()) {
      std::size_t end = header.find(';', at);
      if (end == std::string::npos) end = header.size();
      const std::string_view pair = trim(std::string_view(header).substr(at, end - at));
      if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
        return std::string(pair.substr(name.size() + 1));
      at = end + 1;
    }
  }
  return {};
}

std::string set_cookie(const char* name, const std::string& value, const char* path, bool secure,
                       std::optional<long> max_age) {
  return fmt::format("{}={}; Path={}{}; HttpOnly; SameSite=Strict{}", name, value, path,
                     max_age ? fmt::format("; Max-Age={}", *max_age) : "", secure ? "; Secure" : "");
}

std::string field(const HttpRequest& req, const std::string& name) { return req.form_value(name); }

std::map<std::string, std::string> answer_fields(const HttpRequest& req) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : req.form)
    if (name.find('.') != std::string::npos) out[name] = value;
  return out;
}

void json_error(HttpResponse& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(nlohmann::json{{"error", message}}.dump() + "\n", "application/json");
}

}  // namespace attnmark
