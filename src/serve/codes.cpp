#include "serve/codes.h"

#include <cstdint>

#include "base/crypto.h"

namespace attnmark {

std::string random_hex(std::size_t bytes) {
  const std::string buffer = random_bytes(bytes);
  return hex(reinterpret_cast<const unsigned char*>(buffer.data()), buffer.size());
}

namespace {

// HMAC-SHA256(key, label + '\0' + text).
Digest labelled_mac(std::string_view key, std::string_view label, std::string_view text) {
  std::string message(label);
  message += '\0';
  message += text;
  return hmac_sha256(key, message);
}

}  // namespace

std::string labelled_hmac_hex(std::string_view key, std::string_view label, std::string_view text) {
  return hex(labelled_mac(key, label, text));
}

std::string access_code(std::string_view secret, std::string_view student) {
  const Digest mac = labelled_mac(secret, "attnmark access code", student);
  // 128 bits of the MAC, read as a number and written in base 31: 10 digits
  // use 49.5 bits, and the bias of taking them from 128 is below 2^-78.
  unsigned __int128 n = 0;
  for (int i = 0; i < 16; ++i) n = (n << 8) | mac[i];
  std::string code;
  const auto base = static_cast<unsigned>(access_code_alphabet.size());
  for (int i = 0; i < 10; ++i) {
    if (i == 5) code += '-';
    code += access_code_alphabet[static_cast<std::size_t>(n % base)];
    n /= base;
  }
  return code;
}

std::string normalised_code(std::string_view typed) {
  std::string out;
  for (char c : typed) {
    if (c == ' ' || c == '-' || (c >= '\t' && c <= '\r')) continue;  // also a line end pasted with it
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

bool same_secret(std::string_view a, std::string_view b) {
  return constant_time_equal(a, b);
}

bool codes_match(std::string_view code, std::string_view typed) {
  return same_secret(normalised_code(code), normalised_code(typed));
}

std::string sha256_hex(std::string_view text) {
  return hex(sha256(text));
}

}  // namespace attnmark
