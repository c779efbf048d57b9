// base/crypto: libcrypto's primitives as attnmark uses them, against their
// published test vectors (FIPS 180-2, RFC 4231, RFC 7914, RFC 4648, RFC 7515 A.2, RFC 7638).
#include "base/crypto.h"

#include "support/test_support.h"

using namespace attnmark;

TEST_CASE("crypto: SHA-256, HMAC-SHA256 and PBKDF2-HMAC-SHA256 give their published vectors") {
  CHECK(hex(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex(hmac_sha256("Jefe", "what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(hex(pbkdf2_hmac_sha256("password", "salt", 1)) ==
        "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b");
  CHECK(hex(pbkdf2_hmac_sha256("password", "salt", 4096)) ==
        "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a");
  CHECK_THROWS_WITH(pbkdf2_hmac_sha256("password", "salt", 0), "PBKDF2-HMAC-SHA256 failed");
  // A NUL inside a message is part of it.
  CHECK(hmac_sha256("k", std::string_view("a\0b", 3)) != hmac_sha256("k", "a"));
}

TEST_CASE("crypto: random bytes, constant-time equality and hex") {
  CHECK(random_bytes(16).size() == 16);
  CHECK(random_bytes(16) != random_bytes(16));
  CHECK(constant_time_equal("abc", "abc"));
  CHECK_FALSE(constant_time_equal("abc", "abd"));
  CHECK_FALSE(constant_time_equal("abc", "ab"));
  const unsigned char bytes[] = {0x00, 0x0f, 0xa0, 0xff};
  CHECK(hex(bytes, 4) == "000fa0ff");
}

TEST_CASE("base64 is RFC 4648's, padded") {
  const auto b64 = [](std::string_view s) { return base64(reinterpret_cast<const unsigned char*>(s.data()), s.size()); };
  // RFC 4648 section 10's test vectors.
  CHECK(b64("") == "");
  CHECK(b64("f") == "Zg==");
  CHECK(b64("fo") == "Zm8=");
  CHECK(b64("foo") == "Zm9v");
  CHECK(b64("foob") == "Zm9vYg==");
  CHECK(b64("fooba") == "Zm9vYmE=");
  CHECK(b64("foobar") == "Zm9vYmFy");
  CHECK(base64(sha256("abc")) == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
  const unsigned char high[] = {0xFF, 0xFE, 0xFD};
  CHECK(base64(high, 3) == "//79");
}

TEST_CASE("base64url: RFC 4648's vectors in the URL alphabet, no padding, and one encoding per byte string") {
  using attnmark::base64url;
  using attnmark::from_base64url;
  const std::vector<std::pair<std::string, std::string>> vectors = {
      {"", ""}, {"f", "Zg"}, {"fo", "Zm8"}, {"foo", "Zm9v"}, {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"},
      {"foobar", "Zm9vYmFy"}, {"\xfb\xff", "-_8"}, {std::string("\0\0", 2), "AAA"}};
  for (const auto& [bytes, text] : vectors) {
    CHECK(base64url(bytes) == text);
    CHECK(from_base64url(text) == bytes);
  }
  CHECK(from_base64url("Zg==") == "f");  // padding is allowed
  CHECK(from_base64url("Zm8=") == "fo");
  CHECK_FALSE(from_base64url("Z"));      // no encoding is 1 character longer than a multiple of 4
  CHECK_FALSE(from_base64url("Zh"));     // leftover bits: "Zg" is the encoding of "f"
  CHECK_FALSE(from_base64url("Zg="));    // padding only to a multiple of 4
  CHECK_FALSE(from_base64url("+/8"));    // base64's alphabet, not base64url's
  CHECK_FALSE(from_base64url("Zm 9v"));
  CHECK_FALSE(from_base64url(std::string("Zm\0v", 4)));
}

namespace {

// RFC 7515 appendix A.2: the RS256 example's public key, signing input and signature.
const char* const rfc7515_n =
    "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-"
    "pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg"
    "665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRW"
    "yuXpoQ";
const char* const rfc7515_input =
    "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ";
const char* const rfc7515_signature =
    "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZ"
    "cAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-"
    "eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw";

// RFC 7638 section 3.1: a JWK's modulus and the thumbprint it gives.
const char* const rfc7638_n =
    "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhM"
    "stn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5"
    "hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";

attnmark::RsaKey public_key(const char* n) {
  return attnmark::RsaKey::from_public(*attnmark::from_base64url(n), *attnmark::from_base64url("AQAB"));
}

}  // namespace

TEST_CASE("RS256: RFC 7515's example signature verifies with its public key, and nothing else does") {
  const attnmark::RsaKey key = public_key(rfc7515_n);
  CHECK_FALSE(key.has_private());
  CHECK(key.bits() == 2048);
  CHECK(attnmark::base64url(key.modulus()) == rfc7515_n);
  CHECK(attnmark::base64url(key.exponent()) == "AQAB");
  const std::string signature = *attnmark::from_base64url(rfc7515_signature);
  CHECK(key.verify_rs256(rfc7515_input, signature));
  std::string tampered = rfc7515_input;
  tampered.back() = 'R';
  CHECK_FALSE(key.verify_rs256(tampered, signature));
  std::string flipped = signature;
  flipped[100] = static_cast<char>(flipped[100] ^ 1);
  CHECK_FALSE(key.verify_rs256(rfc7515_input, flipped));
  CHECK_FALSE(key.verify_rs256(rfc7515_input, signature.substr(1)));  // one byte short
  CHECK_FALSE(key.verify_rs256(rfc7515_input, ""));
  CHECK_FALSE(public_key(rfc7638_n).verify_rs256(rfc7515_input, signature));
}

TEST_CASE("RFC 7638's JWK thumbprint: the RFC's example, the tool key's id") {
  CHECK(public_key(rfc7638_n).thumbprint() == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
}

TEST_CASE("an RSA key pair signs what its public half verifies, and survives PEM") {
  const attnmark::RsaKey tool = attnmark::RsaKey::generate();
  CHECK(tool.has_private());
  CHECK(tool.bits() == 2048);
  const std::string signature = tool.sign_rs256("header.payload");
  CHECK(signature.size() == 256);
  const attnmark::RsaKey published = attnmark::RsaKey::from_public(tool.modulus(), tool.exponent());
  CHECK(published.verify_rs256("header.payload", signature));
  CHECK_FALSE(published.verify_rs256("header.payload2", signature));
  CHECK(published.thumbprint() == tool.thumbprint());
  const std::string pem = tool.private_pem();
  CHECK(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
  const attnmark::RsaKey again = attnmark::RsaKey::from_private_pem(pem);
  CHECK(again.sign_rs256("header.payload") == signature);  // PKCS#1 v1.5 signatures are deterministic
  CHECK(again.thumbprint() == tool.thumbprint());
  CHECK(attnmark::RsaKey::generate().thumbprint() != tool.thumbprint());
}

TEST_CASE("RSA keys that are refused, with why") {
  using attnmark::RsaKey;
  const std::string e = *attnmark::from_base64url("AQAB");
  CHECK_THROWS_WITH(RsaKey::from_public(std::string(128, '\xff'), e),
                    "the RSA key's modulus has 1024 bits; expected 2048 to 8192");
  const std::string n = *attnmark::from_base64url(rfc7515_n);
  CHECK_THROWS_WITH(RsaKey::from_public(n, "\x01"), "the RSA key's exponent is not an odd number from 3 to 2^64");
  CHECK_THROWS_WITH(RsaKey::from_public(n, "\x01\x00\x00"), "the RSA key's exponent is not an odd number from 3 to 2^64");
  CHECK_THROWS_WITH(RsaKey::from_private_pem("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
                    "not a PEM private key (an unencrypted \"PRIVATE KEY\" or \"RSA PRIVATE KEY\")");
  CHECK_THROWS_WITH(RsaKey::from_private_pem(""),
                    "not a PEM private key (an unencrypted \"PRIVATE KEY\" or \"RSA PRIVATE KEY\")");
}
