// base/crypto.h: the one home of attnmark's cryptography, on OpenSSL's
// libcrypto: SHA-256, HMAC-SHA256, PBKDF2-HMAC-SHA256, the operating
// system's random bytes and a constant-time comparison. No other file of
// attnmark includes an OpenSSL header.
//
//   Digest mac = hmac_sha256(key, "attnmark access code" + '\0' + student);
//   hex(sha256("abc")) == "ba7816bf…"
//   base64(sha256("abc")) == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
//   Digest key = pbkdf2_hmac_sha256("2026", "attnmark variant key", 100000);
//
// All but random_bytes are pure functions of their arguments (no I/O).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace attnmark {

// A SHA-256 digest or HMAC-SHA256 tag: 32 bytes.
using Digest = std::array<unsigned char, 32>;

// SHA-256 of `text`.
Digest sha256(std::string_view text);

// HMAC-SHA256 of `message` under `key` (RFC 2104). Throws Error if
// libcrypto fails.
Digest hmac_sha256(std::string_view key, std::string_view message);

// PBKDF2-HMAC-SHA256 (RFC 8018) of `password` with `salt`, `iterations`
// rounds, 32 bytes out. Its cost grows linearly with `iterations`: that is
// what makes trying many passwords slow. Throws Error if libcrypto fails.
// REQUIRES: iterations >= 1.
Digest pbkdf2_hmac_sha256(std::string_view password, std::string_view salt, unsigned iterations);

// `n` bytes as 2n lower-case hex digits.
std::string hex(const unsigned char* data, std::size_t n);
inline std::string hex(const Digest& d) { return hex(d.data(), d.size()); }

// `n` bytes in base64 (RFC 4648 section 4, with '=' padding).
std::string base64(const unsigned char* data, std::size_t n);
inline std::string base64(const Digest& d) { return base64(d.data(), d.size()); }

// `n` bytes from the operating system's generator (RAND_bytes). Throws Error
// when the generator fails.
std::string random_bytes(std::size_t n);

// Whether `a` and `b` are equal, in time that depends only on their length
// (CRYPTO_memcmp); false at once when the lengths differ.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace attnmark
