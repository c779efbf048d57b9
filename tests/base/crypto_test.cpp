// base/crypto: libcrypto's primitives as attnmark uses them, against their
// published test vectors (FIPS 180-2, RFC 4231, RFC 7914's PBKDF2 vectors).
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
