#include "serve/codes.h"

#include <set>

#include "support/test_support.h"

using attnmark::access_code;

TEST_CASE("serve: an access code is 10 letters that read well aloud, the same for the same secret and student") {
  const std::string secret = std::string(64, 'a');
  const std::string code = access_code(secret, "s001");
  CHECK(code == access_code(secret, "s001"));
  CHECK(code != access_code(secret, "s002"));
  CHECK(code != access_code(std::string(64, 'b'), "s001"));
  REQUIRE(code.size() == 11);
  CHECK(code[5] == '-');
  std::set<std::string> codes;
  for (int i = 0; i < 2000; ++i) {
    const std::string c = access_code(secret, "student" + std::to_string(i));
    for (std::size_t k = 0; k < c.size(); ++k) {
      if (k == 5) continue;
      INFO(c);
      CHECK(attnmark::access_code_alphabet.find(c[k]) != std::string_view::npos);
    }
    codes.insert(c);
  }
  CHECK(codes.size() == 2000);
  for (char c : std::string("01oOlIi")) CHECK(attnmark::access_code_alphabet.find(c) == std::string_view::npos);
}

TEST_CASE("serve: a code matches as typed, in capitals, with spaces, a line end or without its dash, and nothing else") {
  CHECK(attnmark::codes_match("k7mq4-xh2pa", "k7mq4-xh2pa"));
  CHECK(attnmark::codes_match("k7mq4-xh2pa", "K7MQ4 XH2PA"));
  CHECK(attnmark::codes_match("k7mq4-xh2pa", "k7mq4xh2pa"));
  CHECK(attnmark::codes_match("k7mq4-xh2pa", "k7mq4-xh2pa\r\n"));  // pasted from access-codes' CSV
  CHECK_FALSE(attnmark::codes_match("k7mq4-xh2pa", "k7mq4-xh2pa\x1b"));
  CHECK_FALSE(attnmark::codes_match("k7mq4-xh2pa", "k7mq4-xh2pb"));
  CHECK_FALSE(attnmark::codes_match("k7mq4-xh2pa", "k7mq4-xh2p"));
  CHECK_FALSE(attnmark::codes_match("k7mq4-xh2pa", ""));
  CHECK(attnmark::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(attnmark::random_hex(16).size() == 32);
  CHECK(attnmark::random_hex(16) != attnmark::random_hex(16));
}
