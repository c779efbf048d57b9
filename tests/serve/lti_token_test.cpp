// An LTI 1.3 launch's id_token (serve/lti_token.h): a platform's JWKS read,
// and every check of the IMS Security Framework refusing the token that
// fails it, with the words the launch page shows.
#include "serve/lti_token.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace attnmark;
using nlohmann::json;

namespace {

const std::string lti = "https://purl.imsglobal.org/spec/lti/claim/";
constexpr std::int64_t now = 1764583200;  // 2025-12-01T10:00:00Z

const RsaKey& platform_key() {
  static const RsaKey key = RsaKey::generate();
  return key;
}

json launch_claims() {
  return {{"iss", "https://canvas.example.edu"},
          {"aud", "10000000000042"},
          {"sub", "a6d5c443-1f51-4783-ba1a-7686ffe3b54a"},
          {"exp", now + 300},
          {"iat", now - 5},
          {"nonce", "n-0f9a"},
          {"name", "Ada Lovelace"},
          {"email", "ada@x.org"},
          {lti + "deployment_id", "1:deploy"},
          {lti + "message_type", "LtiResourceLinkRequest"},
          {lti + "version", "1.3.0"},
          {lti + "roles", {"http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"}},
          {lti + "resource_link", {{"id", "link-7"}}},
          {lti + "target_link_uri", "https://attnmark.example.edu/lti/launch"},
          {lti + "lis", {{"person_sourcedid", "20260001"}}}};
}

std::string part(const std::string& text) { return base64url(text); }

std::string token(const json& claims, json header = {{"alg", "RS256"}, {"kid", "k1"}}, const RsaKey& key = platform_key()) {
  const std::string input = part(header.dump()) + "." + part(claims.dump());
  return input + "." + base64url(key.sign_rs256(input));
}

PlatformKeys keys() { return {{"k1", RsaKey::from_public(platform_key().modulus(), platform_key().exponent())}}; }

LaunchExpected expected() {
  LaunchExpected e;
  e.issuer = "https://canvas.example.edu";
  e.client_id = "10000000000042";
  e.deployment_ids = {"1:deploy"};
  e.nonce = "n-0f9a";
  e.tool_url = "https://attnmark.example.edu/lti/";
  e.now = now;
  return e;
}

std::string problem(const json& claims) { return check_id_token(token(claims), keys(), expected()).problem; }

}  // namespace

TEST_CASE("lti: a launch that passes every check gives its claims") {
  const LaunchCheck c = check_id_token(token(launch_claims()), keys(), expected());
  REQUIRE(c.launch);
  CHECK(c.problem.empty());
  CHECK(c.launch->message_type == "LtiResourceLinkRequest");
  CHECK(c.launch->subject == "a6d5c443-1f51-4783-ba1a-7686ffe3b54a");
  CHECK(c.launch->roles == std::vector<std::string>{"http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"});
  CHECK(c.launch->resource_link_id == "link-7");
  CHECK(c.launch->deployment_id == "1:deploy");
  CHECK(c.launch->person_sourcedid == "20260001");
  CHECK(c.launch->email == "ada@x.org");
  CHECK(c.launch->name == "Ada Lovelace");
  CHECK(c.launch->expires == now + 300);
  // aud as a list with azp, and a deep-linking request without a resource link.
  json deep = launch_claims();
  deep["aud"] = {"10000000000042", "other"};
  deep["azp"] = "10000000000042";
  deep[lti + "message_type"] = "LtiDeepLinkingRequest";
  deep.erase(lti + "resource_link");
  CHECK(problem(deep).empty());
}

TEST_CASE("lti: the signature and its algorithm: RS256 with a published key, or refused") {
  const std::string claims = part(launch_claims().dump());
  // alg none: no signature at all.
  CHECK(check_id_token(part(R"({"alg":"none","kid":"k1"})") + "." + claims + ".", keys(), expected()).problem ==
        "the id_token is signed with 'none'; only RS256 is accepted");
  // HS256 keyed with what anyone can read (the public key): the classic confusion.
  const std::string hs = part(R"({"alg":"HS256","kid":"k1"})") + "." + claims;
  const Digest mac = hmac_sha256(platform_key().modulus(), hs);
  CHECK(check_id_token(hs + "." + base64url(std::string(mac.begin(), mac.end())), keys(), expected()).problem ==
        "the id_token is signed with 'HS256'; only RS256 is accepted");
  CHECK(check_id_token(token(launch_claims(), {{"kid", "k1"}}), keys(), expected()).problem ==
        "the id_token's header names no algorithm; only RS256 is accepted");
  CHECK(check_id_token(token(launch_claims(), {{"alg", "RS256"}}), keys(), expected()).problem ==
        "the id_token's header names no key (kid)");
  const LaunchCheck unknown = check_id_token(token(launch_claims(), {{"alg", "RS256"}, {"kid", "k2"}}), keys(), expected());
  CHECK(unknown.problem == "the id_token is signed with key 'k2', which the platform does not publish");
  CHECK(unknown.unknown_kid == "k2");
  // Signed by another key under the platform's kid.
  static const RsaKey forger = RsaKey::generate();
  CHECK(check_id_token(token(launch_claims(), {{"alg", "RS256"}, {"kid", "k1"}}, forger), keys(), expected()).problem ==
        "the id_token's signature does not verify with the platform's key");
  // A claim changed after signing.
  std::string good = token(launch_claims());
  const std::size_t dot = good.find('.');
  json changed = launch_claims();
  changed["sub"] = "someone-else";
  const std::string forged = good.substr(0, dot + 1) + part(changed.dump()) + good.substr(good.rfind('.'));
  CHECK(check_id_token(forged, keys(), expected()).problem == "the id_token's signature does not verify with the platform's key");
  CHECK(check_id_token("a.b", keys(), expected()).problem == "the id_token is not a signed JWT (three parts joined by '.')");
  CHECK(check_id_token("a.b.c.d", keys(), expected()).problem ==
        "the id_token is not a signed JWT (three parts joined by '.')");
  CHECK(check_id_token("a+.b.c", keys(), expected()).problem == "the id_token's parts are not base64url");
  CHECK(check_id_token(part("[]") + "." + claims + ".AA", keys(), expected()).problem ==
        "the id_token's header or claims are not a JSON object");
}

TEST_CASE("lti: each claim the Security Framework and LTI Core require, checked") {
  auto with = [](const std::string& key, const json& value) {
    json c = launch_claims();
    c[key] = value;
    return problem(c);
  };
  auto without = [](const std::string& key) {
    json c = launch_claims();
    c.erase(key);
    return problem(c);
  };
  CHECK(with("iss", "https://evil.example") ==
        "the id_token is from issuer 'https://evil.example', not 'https://canvas.example.edu'");
  CHECK(with("aud", "other-tool") == "the id_token is not for this tool (its aud does not hold client id '10000000000042')");
  CHECK(with("aud", json{"10000000000042", "other"}) == "the id_token's azp is not this tool's client id '10000000000042'");
  CHECK(with("azp", "other") == "the id_token's azp is not this tool's client id '10000000000042'");
  CHECK(with("exp", now - 61) == "the id_token expired 61 s ago; launch again from the course");
  CHECK(with("exp", now - 59).empty());  // within the clock skew
  CHECK(with("iat", now + 61) == "the id_token was issued in the future; the platform's clock or this server's is wrong");
  CHECK(with("exp", "soon") == "the id_token has no exp or iat time");
  CHECK(without("iat") == "the id_token has no exp or iat time");
  CHECK(with("nonce", "n-other") ==
        "the id_token's nonce is not the one this login was given (a replayed or mixed-up launch)");
  CHECK(with(lti + "deployment_id", "2:other") == "deployment '2:other' is not registered with this tool");
  CHECK(with(lti + "message_type", "LtiSubmissionReviewRequest") ==
        "message type 'LtiSubmissionReviewRequest' is not a launch this tool takes");
  CHECK(with(lti + "version", "1.1") == "LTI version '1.1' is not 1.3.0");
  CHECK(with("sub", "") == "the id_token names no user (sub)");
  CHECK(without(lti + "roles") == "the id_token has no roles claim");
  CHECK(without(lti + "resource_link") == "the launch has no resource link id");
  CHECK(with(lti + "target_link_uri", "https://evil.example/lti/launch") ==
        "the launch is for 'https://evil.example/lti/launch', not this tool");
  LaunchExpected no_nonce = expected();
  no_nonce.nonce.clear();  // a state whose nonce was used already
  CHECK(check_id_token(token(launch_claims()), keys(), no_nonce).problem ==
        "the id_token's nonce is not the one this login was given (a replayed or mixed-up launch)");
}

TEST_CASE("lti: a platform's JWKS: its RSA signing keys by kid, others passed over") {
  const RsaKey& k = platform_key();
  const json rsa = {{"kty", "RSA"}, {"kid", "k1"}, {"n", base64url(k.modulus())}, {"e", base64url(k.exponent())}};
  json enc = rsa;
  enc["kid"] = "k2";
  enc["use"] = "enc";
  json hs = rsa;
  hs["kid"] = "k3";
  hs["alg"] = "RS512";
  json twice = rsa;
  twice["kid"] = "k4";
  const json doc = {{"keys",
                     {rsa, enc, hs, twice, twice, {{"kty", "EC"}, {"kid", "k5"}, {"crv", "P-256"}},
                      {{"kty", "RSA"}, {"kid", "k6"}, {"n", "AQAB"}, {"e", "AQAB"}}}}};
  const PlatformKeys keys = parse_jwks(doc.dump());
  REQUIRE(keys.size() == 1);
  CHECK(keys.begin()->first == "k1");
  CHECK(keys.at("k1").thumbprint() == k.thumbprint());
  CHECK_THROWS_WITH(parse_jwks("[]"), "the platform's JWKS is not a JSON object with a \"keys\" list");
  CHECK_THROWS_WITH(parse_jwks("{\"keys\":"), "the platform's JWKS is not a JSON object with a \"keys\" list");
}
