// base/crypto.h: the one home of attnmark's cryptography, on OpenSSL's
// libcrypto: SHA-256, HMAC-SHA256, PBKDF2-HMAC-SHA256, the operating
// system's random bytes, a constant-time comparison, base64url and RSA keys
// that sign and verify RS256 (RSASSA-PKCS1-v1_5 with SHA-256, as JWTs and
// LTI 1.3 use them). No other file of attnmark includes an OpenSSL header.
//
//   Digest mac = hmac_sha256(key, "attnmark access code" + '\0' + student);
//   hex(sha256("abc")) == "ba7816bf…"
//   base64(sha256("abc")) == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
//   Digest key = pbkdf2_hmac_sha256("2026", "attnmark variant key", 100000);
//   base64url("\xfb\xff") == "-_8";  *from_base64url("-_8") == "\xfb\xff"
//   RsaKey tool = RsaKey::generate();
//   RsaKey::from_public(tool.modulus(), tool.exponent()).verify_rs256("m", tool.sign_rs256("m")) == true
//
// All but random_bytes and RsaKey::generate are pure functions of their
// arguments (no I/O).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct evp_pkey_st;  // OpenSSL's EVP_PKEY

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

// `bytes` in base64url without padding (RFC 4648 section 5; RFC 7515's
// encoding of a JWT's parts and a JWK's numbers).
std::string base64url(std::string_view bytes);

// The bytes `text` encodes in base64url, with or without '=' padding;
// nullopt for any other character, a length no encoding has, or bits left
// over that are not zero (so each byte string has one encoding).
std::optional<std::string> from_base64url(std::string_view text);

// An RSA key: a key pair (the tool's, which signs) or a public key alone (a
// platform's, from its JWKS, which verifies). Copies share the key.
class RsaKey {
 public:
  // A new key pair of `bits` bits from the system's generator. Throws Error
  // if libcrypto fails. REQUIRES: 2048 <= bits <= 8192.
  static RsaKey generate(unsigned bits = 2048);
  // The key pair in `pem` (PKCS#8 "PRIVATE KEY", or "RSA PRIVATE KEY"), as
  // private_pem writes it. Throws Error for anything else, a key of another
  // type, or one under 2048 bits.
  static RsaKey from_private_pem(std::string_view pem);
  // The public key of modulus `n` and exponent `e` (big-endian bytes, as a
  // JWK's "n" and "e" decode). Throws Error for a modulus under 2048 or over
  // 8192 bits, or an exponent that is even, 1, or over 2^64.
  static RsaKey from_public(std::string_view n, std::string_view e);

  bool has_private() const;
  // The key pair as PKCS#8 PEM. REQUIRES: has_private().
  std::string private_pem() const;
  // The modulus and public exponent, big-endian bytes without leading zeros.
  std::string modulus() const;
  std::string exponent() const;
  int bits() const;
  // RFC 7638's JWK thumbprint: base64url of the SHA-256 of
  // {"e":"…","kty":"RSA","n":"…"}: a key id that names this key alone.
  std::string thumbprint() const;
  // The RS256 signature of `message` (RSASSA-PKCS1-v1_5, SHA-256): as many
  // bytes as the modulus. Throws Error if libcrypto fails.
  // REQUIRES: has_private().
  std::string sign_rs256(std::string_view message) const;
  // Whether `signature` is this key's RS256 signature of `message`. Never throws.
  bool verify_rs256(std::string_view message, std::string_view signature) const;

 private:
  explicit RsaKey(std::shared_ptr<evp_pkey_st> key, bool has_private);
  std::shared_ptr<evp_pkey_st> key_;
  bool private_ = false;
};

}  // namespace attnmark
