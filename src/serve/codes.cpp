#include "serve/codes.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cstdint>
#include <vector>

#include "attnmark/base/error.h"

namespace attnmark {
namespace {

std::string hex(const unsigned char* data, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[data[i] >> 4];
    out += digits[data[i] & 15];
  }
  return out;
}

}  // namespace

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> buffer(bytes);
  if (RAND_bytes(buffer.data(), static_cast<int>(bytes)) != 1)
    throw Error("the system's random number generator failed");
  return hex(buffer.data(), bytes);
}

namespace {

// HMAC-SHA256(key, label + '\0' + text) into `mac` (32 bytes).
void labelled_mac(std::string_view key, std::string_view label, std::string_view text, unsigned char* mac) {
  std::string message(label);
  message += '\0';
  message += text;
  unsigned int length = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &length) ||
      length != 32)
    throw Error("HMAC-SHA256 failed");
}

}  // namespace

std::string labelled_hmac_hex(std::string_view key, std::string_view label, std::string_view text) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  labelled_mac(key, label, text, mac);
  return hex(mac, 32);
}

std::string access_code(std::string_view secret, std::string_view student) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  labelled_mac(secret, "attnmark access code", student, mac);
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
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool codes_match(std::string_view code, std::string_view typed) {
  return same_secret(normalised_code(code), normalised_code(typed));
}

std::string sha256_hex(std::string_view text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  return hex(digest, sizeof digest);
}

}  // namespace attnmark
