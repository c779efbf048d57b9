#include "base/crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <climits>

#include "attnmark/base/error.h"

namespace attnmark {

Digest sha256(std::string_view text) {
  Digest d;
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), d.data());
  return d;
}

Digest hmac_sha256(std::string_view key, std::string_view message) {
  Digest d;
  unsigned int length = 0;
  if (key.size() > INT_MAX ||
      !HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), d.data(), &length) ||
      length != d.size())
    throw Error("HMAC-SHA256 failed");
  return d;
}

Digest pbkdf2_hmac_sha256(std::string_view password, std::string_view salt, unsigned iterations) {
  Digest d;
  if (password.size() > INT_MAX || salt.size() > INT_MAX || iterations == 0 || iterations > INT_MAX ||
      PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                        reinterpret_cast<const unsigned char*>(salt.data()), static_cast<int>(salt.size()),
                        static_cast<int>(iterations), EVP_sha256(), static_cast<int>(d.size()), d.data()) != 1)
    throw Error("PBKDF2-HMAC-SHA256 failed");
  return d;
}

std::string base64(const unsigned char* data, std::size_t n) {
  static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((n + 2) / 3 * 4);
  for (std::size_t i = 0; i < n; i += 3) {
    const unsigned b = static_cast<unsigned>(data[i]) << 16 | (i + 1 < n ? data[i + 1] << 8 : 0u) | (i + 2 < n ? data[i + 2] : 0u);
    out += alphabet[b >> 18 & 63];
    out += alphabet[b >> 12 & 63];
    out += i + 1 < n ? alphabet[b >> 6 & 63] : '=';
    out += i + 2 < n ? alphabet[b & 63] : '=';
  }
  return out;
}

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

std::string random_bytes(std::size_t n) {
  std::string buffer(n, '\0');
  if (n > INT_MAX || RAND_bytes(reinterpret_cast<unsigned char*>(buffer.data()), static_cast<int>(n)) != 1)
    throw Error("the system's random number generator failed");
  return buffer;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace attnmark
