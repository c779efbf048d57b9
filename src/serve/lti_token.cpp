#include "serve/lti_token.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "attnmark/base/error.h"
#include "base/text.h"

namespace attnmark {

namespace {

using nlohmann::json;

constexpr const char* claim = "https://purl.imsglobal.org/spec/lti/claim/";

std::optional<json> json_object(std::string_view text) {
  json value = json::parse(text.begin(), text.end(), nullptr, false);
  if (value.is_discarded() || !value.is_object()) return std::nullopt;
  return value;
}

std::string string_at(const json& object, const std::string& key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A NumericDate (RFC 7519 section 2): seconds, possibly fractional.
std::optional<std::int64_t> date_at(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  const double seconds = it->get<double>();
  if (!std::isfinite(seconds) || std::fabs(seconds) > 1e15) return std::nullopt;
  return static_cast<std::int64_t>(std::floor(seconds));
}

LaunchCheck refused(std::string problem) {
  LaunchCheck c;
  c.problem = std::move(problem);
  return c;
}

// A claim's value for the page: quoted, printable, short.
std::string shown(const std::string& value) { return quoted_printable(value.substr(0, 200)); }

}  // namespace

PlatformKeys parse_jwks(std::string_view text) {
  const std::optional<json> document = json_object(text);
  if (!document || !document->contains("keys") || !(*document)["keys"].is_array())
    throw Error("the platform's JWKS is not a JSON object with a \"keys\" list");
  PlatformKeys keys;
  std::vector<std::string> repeated;
  for (const json& jwk : (*document)["keys"]) {
    if (!jwk.is_object() || string_at(jwk, "kty") != "RSA") continue;
    if (jwk.contains("use") && string_at(jwk, "use") != "sig") continue;
    if (jwk.contains("alg") && string_at(jwk, "alg") != "RS256") continue;
    const std::string kid = string_at(jwk, "kid");
    const std::optional<std::string> n = from_base64url(string_at(jwk, "n")), e = from_base64url(string_at(jwk, "e"));
    if (kid.empty() || !n || !e || n->empty() || e->empty()) continue;
    try {
      if (!keys.try_emplace(kid, RsaKey::from_public(*n, *e)).second) repeated.push_back(kid);
    } catch (const Error&) {
      // A key too short to trust, or an odd one: as if it were not there.
    }
  }
  for (const std::string& kid : repeated) keys.erase(kid);  // which of two is meant cannot be known
  return keys;
}

LaunchCheck check_id_token(std::string_view token, const PlatformKeys& keys, const LaunchExpected& expected) {
  if (token.size() > (64 << 10)) return refused("the id_token is longer than 64 KiB");
  const std::size_t dot1 = token.find('.');
  const std::size_t dot2 = dot1 == std::string_view::npos ? dot1 : token.find('.', dot1 + 1);
  if (dot2 == std::string_view::npos || token.find('.', dot2 + 1) != std::string_view::npos)
    return refused("the id_token is not a signed JWT (three parts joined by '.')");
  const std::optional<std::string> header_text = from_base64url(token.substr(0, dot1));
  const std::optional<std::string> payload_text = from_base64url(token.substr(dot1 + 1, dot2 - dot1 - 1));
  const std::optional<std::string> signature = from_base64url(token.substr(dot2 + 1));
  if (!header_text || !payload_text || !signature) return refused("the id_token's parts are not base64url");
  const std::optional<json> header = json_object(*header_text);
  const std::optional<json> claims = json_object(*payload_text);
  if (!header || !claims) return refused("the id_token's header or claims are not a JSON object");

  const std::string alg = string_at(*header, "alg");
  if (alg.empty()) return refused("the id_token's header names no algorithm; only RS256 is accepted");
  if (alg != "RS256") return refused(fmt::format("the id_token is signed with {}; only RS256 is accepted", shown(alg)));
  const std::string kid = string_at(*header, "kid");
  if (kid.empty()) return refused("the id_token's header names no key (kid)");
  const auto key = keys.find(kid);
  if (key == keys.end()) {
    LaunchCheck c = refused(fmt::format("the id_token is signed with key {}, which the platform does not publish", shown(kid)));
    c.unknown_kid = kid;
    return c;
  }
  if (!key->second.verify_rs256(token.substr(0, dot2), *signature))
    return refused("the id_token's signature does not verify with the platform's key");

  if (const std::string iss = string_at(*claims, "iss"); iss != expected.issuer)
    return refused(fmt::format("the id_token is from issuer {}, not {}", shown(iss), shown(expected.issuer)));
  std::vector<std::string> audiences;
  if (const auto aud = claims->find("aud"); aud != claims->end()) {
    if (aud->is_string()) audiences.push_back(aud->get<std::string>());
    else if (aud->is_array())
      for (const json& a : *aud)
        if (a.is_string()) audiences.push_back(a.get<std::string>());
  }
  if (std::find(audiences.begin(), audiences.end(), expected.client_id) == audiences.end())
    return refused(fmt::format("the id_token is not for this tool (its aud does not hold client id {})", shown(expected.client_id)));
  if ((audiences.size() > 1 || claims->contains("azp")) && string_at(*claims, "azp") != expected.client_id)
    return refused(fmt::format("the id_token's azp is not this tool's client id {}", shown(expected.client_id)));
  const std::optional<std::int64_t> exp = date_at(*claims, "exp"), iat = date_at(*claims, "iat");
  if (!exp || !iat) return refused("the id_token has no exp or iat time");
  if (*exp + expected.skew <= expected.now)
    return refused(fmt::format("the id_token expired {} s ago; launch again from the course", expected.now - *exp));
  if (*iat - expected.skew > expected.now)
    return refused("the id_token was issued in the future; the platform's clock or this server's is wrong");
  if (expected.nonce.empty() || string_at(*claims, "nonce") != expected.nonce)
    return refused("the id_token's nonce is not the one this login was given (a replayed or mixed-up launch)");

  Launch launch;
  launch.deployment_id = string_at(*claims, std::string(claim) + "deployment_id");
  if (std::find(expected.deployment_ids.begin(), expected.deployment_ids.end(), launch.deployment_id) ==
      expected.deployment_ids.end())
    return refused(fmt::format("deployment {} is not registered with this tool", shown(launch.deployment_id)));
  launch.message_type = string_at(*claims, std::string(claim) + "message_type");
  if (launch.message_type != "LtiResourceLinkRequest" && launch.message_type != "LtiDeepLinkingRequest")
    return refused(fmt::format("message type {} is not a launch this tool takes", shown(launch.message_type)));
  if (const std::string version = string_at(*claims, std::string(claim) + "version"); version != "1.3.0")
    return refused(fmt::format("LTI version {} is not 1.3.0", shown(version)));
  launch.subject = string_at(*claims, "sub");
  if (launch.subject.empty() || launch.subject.size() > 255) return refused("the id_token names no user (sub)");
  const auto roles = claims->find(std::string(claim) + "roles");
  if (roles == claims->end() || !roles->is_array()) return refused("the id_token has no roles claim");
  for (const json& role : *roles)
    if (role.is_string()) launch.roles.push_back(role.get<std::string>());
  if (launch.message_type == "LtiResourceLinkRequest") {
    const auto link = claims->find(std::string(claim) + "resource_link");
    if (link != claims->end() && link->is_object()) launch.resource_link_id = string_at(*link, "id");
    if (launch.resource_link_id.empty()) return refused("the launch has no resource link id");
    launch.target_link_uri = string_at(*claims, std::string(claim) + "target_link_uri");
    if (expected.tool_url.empty() || !launch.target_link_uri.starts_with(expected.tool_url))
      return refused(fmt::format("the launch is for {}, not this tool", shown(launch.target_link_uri)));
  }
  launch.name = string_at(*claims, "name");
  launch.email = string_at(*claims, "email");
  if (const auto lis = claims->find("https://purl.imsglobal.org/spec/lti/claim/lis");
      lis != claims->end() && lis->is_object())
    launch.person_sourcedid = string_at(*lis, "person_sourcedid");
  launch.expires = *exp;
  LaunchCheck c;
  c.launch = std::move(launch);
  return c;
}

}  // namespace attnmark
