#include "base/crypto.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>

#include <climits>
#include <utility>

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

namespace {

std::string encode(const unsigned char* data, std::size_t n, const char* alphabet, bool pad) {
  std::string out;
  out.reserve((n + 2) / 3 * 4);
  for (std::size_t i = 0; i < n; i += 3) {
    const unsigned b = static_cast<unsigned>(data[i]) << 16 | (i + 1 < n ? data[i + 1] << 8 : 0u) | (i + 2 < n ? data[i + 2] : 0u);
    out += alphabet[b >> 18 & 63];
    out += alphabet[b >> 12 & 63];
    if (i + 1 < n || pad) out += i + 1 < n ? alphabet[b >> 6 & 63] : '=';
    if (i + 2 < n || pad) out += i + 2 < n ? alphabet[b & 63] : '=';
  }
  return out;
}

constexpr char base64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char base64url_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

}  // namespace

std::string base64(const unsigned char* data, std::size_t n) { return encode(data, n, base64_alphabet, true); }

std::string base64url(std::string_view bytes) {
  return encode(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), base64url_alphabet, false);
}

std::optional<std::string> from_base64url(std::string_view text) {
  if (text.size() % 4 == 0 && text.ends_with("==")) text.remove_suffix(2);
  else if (text.size() % 4 == 0 && text.ends_with('=')) text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  unsigned bits = 0, count = 0;
  for (const char c : text) {
    const char* at = c == '\0' ? nullptr : std::char_traits<char>::find(base64url_alphabet, 64, c);
    if (!at) return std::nullopt;
    bits = bits << 6 | static_cast<unsigned>(at - base64url_alphabet);
    if ((count += 6) >= 8) {
      count -= 8;
      out += static_cast<char>(bits >> count & 0xFF);
    }
  }
  if (bits & ((1u << count) - 1)) return std::nullopt;  // leftover bits must be zero
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

// ---- RSA ----

namespace {

std::shared_ptr<EVP_PKEY> owned(EVP_PKEY* key) { return std::shared_ptr<EVP_PKEY>(key, EVP_PKEY_free); }

// A number of the key, big-endian bytes.
std::string number(const EVP_PKEY* key, const char* name) {
  BIGNUM* bn = nullptr;
  if (EVP_PKEY_get_bn_param(key, name, &bn) != 1) throw Error(std::string("the RSA key has no ") + name);
  std::string out(static_cast<std::size_t>(BN_num_bytes(bn)), '\0');
  BN_bn2bin(bn, reinterpret_cast<unsigned char*>(out.data()));
  BN_free(bn);
  return out;
}

// Never asks for a passphrase: an encrypted key is refused, not prompted for.
int no_passphrase(char*, int, int, void*) { return 0; }

}  // namespace

RsaKey::RsaKey(std::shared_ptr<evp_pkey_st> key, bool has_private) : key_(std::move(key)), private_(has_private) {}

RsaKey RsaKey::generate(unsigned bits) {
  EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<std::size_t>(bits));
  if (!key) {
    ERR_clear_error();
    throw Error("RSA key generation failed");
  }
  return RsaKey(owned(key), true);
}

RsaKey RsaKey::from_private_pem(std::string_view pem) {
  if (pem.size() > (1 << 20)) throw Error("the key file is too large for a PEM private key");
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  if (!bio) throw Error("out of memory reading a key");
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, no_passphrase, nullptr);
  BIO_free(bio);
  ERR_clear_error();
  if (!key) throw Error("not a PEM private key (an unencrypted \"PRIVATE KEY\" or \"RSA PRIVATE KEY\")");
  std::shared_ptr<EVP_PKEY> held = owned(key);
  if (EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA) throw Error("the private key is not an RSA key");
  if (EVP_PKEY_get_bits(key) < 2048) throw Error("the RSA key has fewer than 2048 bits");
  return RsaKey(std::move(held), true);
}

RsaKey RsaKey::from_public(std::string_view n, std::string_view e) {
  if (n.size() > 1024 || e.size() > 1024) throw Error("the RSA key's numbers are too long");
  const auto bignum = [](std::string_view bytes) {
    BIGNUM* bn = BN_bin2bn(reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()), nullptr);
    if (!bn) throw Error("out of memory reading an RSA key");
    return std::unique_ptr<BIGNUM, void (*)(BIGNUM*)>(bn, BN_free);
  };
  const auto modulus = bignum(n), exponent = bignum(e);
  if (BN_num_bits(modulus.get()) < 2048 || BN_num_bits(modulus.get()) > 8192)
    throw Error("the RSA key's modulus has " + std::to_string(BN_num_bits(modulus.get())) +
                " bits; expected 2048 to 8192");
  if (!BN_is_odd(exponent.get()) || BN_is_one(exponent.get()) || BN_num_bits(exponent.get()) > 64)
    throw Error("the RSA key's exponent is not an odd number from 3 to 2^64");
  OSSL_PARAM_BLD* build = OSSL_PARAM_BLD_new();
  OSSL_PARAM* params = nullptr;
  EVP_PKEY_CTX* context = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  EVP_PKEY* key = nullptr;
  const bool made = build && context && OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_RSA_N, modulus.get()) == 1 &&
                    OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_RSA_E, exponent.get()) == 1 &&
                    (params = OSSL_PARAM_BLD_to_param(build)) != nullptr && EVP_PKEY_fromdata_init(context) == 1 &&
                    EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) == 1;
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(build);
  EVP_PKEY_CTX_free(context);
  ERR_clear_error();
  if (!made || !key) {
    EVP_PKEY_free(key);
    throw Error("libcrypto could not make the RSA public key");
  }
  return RsaKey(owned(key), false);
}

bool RsaKey::has_private() const { return private_; }

std::string RsaKey::private_pem() const {
  BIO* bio = BIO_new(BIO_s_mem());
  if (!bio || PEM_write_bio_PKCS8PrivateKey(bio, key_.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    BIO_free(bio);
    ERR_clear_error();
    throw Error("libcrypto could not write the private key");
  }
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<std::size_t>(length));
  BIO_free(bio);
  return pem;
}

std::string RsaKey::modulus() const { return number(key_.get(), OSSL_PKEY_PARAM_RSA_N); }

std::string RsaKey::exponent() const { return number(key_.get(), OSSL_PKEY_PARAM_RSA_E); }

int RsaKey::bits() const { return EVP_PKEY_get_bits(key_.get()); }

std::string RsaKey::thumbprint() const {
  const Digest d = sha256("{\"e\":\"" + base64url(exponent()) + "\",\"kty\":\"RSA\",\"n\":\"" + base64url(modulus()) + "\"}");
  return base64url(std::string_view(reinterpret_cast<const char*>(d.data()), d.size()));
}

std::string RsaKey::sign_rs256(std::string_view message) const {
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  std::size_t length = 0;
  std::string signature;
  const auto data = reinterpret_cast<const unsigned char*>(message.data());
  bool signed_ = context && EVP_DigestSignInit(context, nullptr, EVP_sha256(), nullptr, key_.get()) == 1 &&
                 EVP_DigestSign(context, nullptr, &length, data, message.size()) == 1;
  if (signed_) {
    signature.resize(length);
    signed_ = EVP_DigestSign(context, reinterpret_cast<unsigned char*>(signature.data()), &length, data,
                             message.size()) == 1;
    signature.resize(length);
  }
  EVP_MD_CTX_free(context);
  ERR_clear_error();
  if (!signed_) throw Error("RS256 signing failed");
  return signature;
}

bool RsaKey::verify_rs256(std::string_view message, std::string_view signature) const {
  // RFC 8017 section 8.2.2: a signature is exactly as long as the modulus.
  if (signature.size() != static_cast<std::size_t>(EVP_PKEY_get_size(key_.get()))) return false;
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  const bool good =
      context && EVP_DigestVerifyInit(context, nullptr, EVP_sha256(), nullptr, key_.get()) == 1 &&
      EVP_DigestVerify(context, reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                       reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
  EVP_MD_CTX_free(context);
  ERR_clear_error();
  return good;
}

}  // namespace attnmark
