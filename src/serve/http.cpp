#include "serve/http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string_view>

#include "base/text.h"

namespace attnmark {

void HttpServer::lengthen_backlog() { ::listen(svr_sock_, SOMAXCONN); }

std::string HttpServer::bound_address() const {
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  if (getsockname(svr_sock_, reinterpret_cast<sockaddr*>(&address), &size) != 0) return {};
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&address)->sin_addr, text, sizeof text);
  else if (address.ss_family == AF_INET6)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&address)->sin6_addr, text, sizeof text);
  return text;
}

std::string cookie(const httplib::Request& req, const std::string& name) {
  const std::string header = req.get_header_value("Cookie");
  std::size_t at = 0;
  while (at < header.size()) {
    std::size_t end = header.find(';', at);
    if (end == std::string::npos) end = header.size();
    const std::string_view pair = trim(std::string_view(header).substr(at, end - at));
    if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
      return std::string(pair.substr(name.size() + 1));
    at = end + 1;
  }
  return {};
}

std::string set_cookie(const char* name, const std::string& value, const char* path) {
  return fmt::format("{}={}; Path={}; HttpOnly; SameSite=Strict", name, value, path);
}

std::string field(const httplib::Request& req, const std::string& name) {
  if (req.has_param(name.c_str())) return req.get_param_value(name.c_str());
  if (req.has_file(name.c_str())) return req.get_file_value(name.c_str()).content;
  return {};
}

std::map<std::string, std::string> answer_fields(const httplib::Request& req) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : req.params)
    if (name.find('.') != std::string::npos) out[name] = value;
  for (const auto& [name, file] : req.files)
    if (name.find('.') != std::string::npos) out[name] = file.content;
  return out;
}

void json_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(nlohmann::json{{"error", message}}.dump() + "\n", "application/json");
}

bool read_body(httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader,
               std::size_t max_bytes) {
  std::size_t size = 0;
  bool over = false;
  // Past the limit the rest is read and dropped, as cpp-httplib drops a body
  // whose Content-Length is too large: the connection's next request then
  // starts where it should.
  const auto keep = [&](std::string* into, const char* data, std::size_t n) {
    size += n;
    over = over || size > max_bytes;
    if (!over && into) into->append(data, n);
    return true;
  };
  bool read = false;
  if (req.is_multipart_form_data()) {
    std::string* part = nullptr;
    read = reader(
        [&](const httplib::MultipartFormData& file) {
          // A part costs its names too, so no flood of empty parts grows the table.
          size += 1 + file.name.size() + file.filename.size() + file.content_type.size();
          over = over || size > max_bytes;
          part = over ? nullptr : &req.files.emplace(file.name, file)->second.content;
          return true;
        },
        [&](const char* data, std::size_t n) { return keep(part, data, n); });
  } else {
    read = reader([&](const char* data, std::size_t n) { return keep(&req.body, data, n); });
  }
  if (over || res.status == 413) {
    res.status = 413;
    return false;
  }
  if (!read) {
    res.status = 400;
    return false;
  }
  if (req.get_header_value("Content-Type").starts_with("application/x-www-form-urlencoded"))
    httplib::detail::parse_query_text(req.body, req.params);
  return true;
}

}  // namespace attnmark
