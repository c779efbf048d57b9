// serve/codes.h: the secrets of a served class: students' access codes (an
// HMAC-SHA256 of the class secret, by base/crypto), random ids for
// sessions, CSRF tokens and the teacher's token, and the one-way hash the
// teacher's token is stored as.
//
//   std::string secret = random_hex(32);                  // 64 hex digits, kept in the database
//   std::string code = access_code(secret, "s001");       // "k7mq4-xh2pa"
//   codes_match(code, typed_by_student)                   // constant time; case, spaces, line ends, dashes ignored
#pragma once

#include <string>
#include <string_view>

namespace attnmark {

// The letters an access code is made of: digits and lower-case letters that
// read well aloud and cannot be taken for one another (no 0/o, 1/l/i).
inline constexpr std::string_view access_code_alphabet = "23456789abcdefghjkmnpqrstuvwxyz";

// `bytes` random bytes from the operating system's generator (OpenSSL's
// RAND_bytes), as 2 × bytes lower-case hex digits. Throws Error when the
// generator fails.
std::string random_hex(std::size_t bytes);

// The student's access code: 10 letters of access_code_alphabet drawn from
// HMAC-SHA256(secret, "attnmark access code\0" + student), written as two
// groups of five ("k7mq4-xh2pa"); about 49 bits.
std::string access_code(std::string_view secret, std::string_view student);

// HMAC-SHA256(key, label + '\0' + text) as 64 lower-case hex digits: each
// use names its own `label` ("attnmark access code", "attnmark anonymous
// form"), so no MAC made for one purpose is ever valid for another.
std::string labelled_hmac_hex(std::string_view key, std::string_view label, std::string_view text);

// A code as typed: lower case, spaces, tabs, line ends and dashes dropped
// ("K7MQ4 XH2PA" → "k7mq4xh2pa"; a code copied from access-codes' CSV
// with its "\r\n" matches too).
std::string normalised_code(std::string_view typed);

// Whether `typed` is `code` (both normalised), compared in constant time
// (CRYPTO_memcmp) once the lengths agree.
bool codes_match(std::string_view code, std::string_view typed);

// Constant-time equality of two strings of equal length; false otherwise.
bool same_secret(std::string_view a, std::string_view b);

// SHA-256 of `text` as 64 lower-case hex digits: how the teacher's token is
// stored, so a copy of the database does not open the teacher's page.
std::string sha256_hex(std::string_view text);

}  // namespace attnmark
