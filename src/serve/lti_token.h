// serve/lti_token.h: an LTI 1.3 launch's id_token, checked as the IMS
// Security Framework 1.0 (section 5.1.3, "Authentication Response
// Validation") and LTI Core 1.3 (section 5.3) require, before any session
// exists: a token that fails any check is refused with the check it failed.
//
//   PlatformKeys keys = parse_jwks(platform_jwks_json);
//   LaunchCheck c = check_id_token(form["id_token"], keys, expected);
//   if (!c.launch) return page(400, c.problem);   // "the id_token expired at ..."
//   c.launch->roles, c.launch->subject, c.launch->resource_link_id
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/crypto.h"

namespace attnmark {

// A platform's signing keys, by key id (JWK "kid").
using PlatformKeys = std::map<std::string, RsaKey>;

// The RSA signing keys of a JWKS document (RFC 7517: {"keys": [...]}): each
// with "kty" RSA, a "kid", "n" and "e", and "use" sig and "alg" RS256 when
// given. Other keys (EC, encryption keys, a repeated kid) are passed over.
// Throws Error for text that is not a JWKS document.
PlatformKeys parse_jwks(std::string_view json);

// What a launch must be for this tool.
struct LaunchExpected {
  std::string issuer;                       // the platform's "iss"
  std::string client_id;                    // the tool's client id at the platform: "aud" (and "azp")
  std::vector<std::string> deployment_ids;  // the deployments registered for it
  std::string nonce;                        // the one the login gave this state (single use: the caller's)
  std::string tool_url;                     // "https://host/lti/": the target_link_uri must start with it
  std::int64_t now = 0;                     // seconds since 1970 (UTC)
  std::int64_t skew = 60;                   // seconds of clock difference allowed either way
};

// The claims of a launch that passed every check.
struct Launch {
  std::string message_type;  // LtiResourceLinkRequest or LtiDeepLinkingRequest
  std::string subject;       // "sub": the user at the platform
  std::string deployment_id;
  std::string target_link_uri;
  std::string resource_link_id;  // "" for a deep-linking request
  std::vector<std::string> roles;
  std::string name, email;
  std::string person_sourcedid;  // the LIS person_sourcedid (the SIS id), or ""
  std::int64_t expires = 0;      // "exp"
};

struct LaunchCheck {
  std::optional<Launch> launch;  // set when every check passed
  std::string problem;           // otherwise the first that failed, one line for the page
  std::string unknown_kid;       // set when the token's key id is not in the keys (re-fetch the JWKS)
};

// Checks `id_token` (a compact JWS) in this order: three base64url parts of
// JSON objects; "alg" exactly RS256 ("none" and HS256 refused: the platform
// signs with its private key); a "kid" found in `keys`; the signature; "iss";
// "aud" holding the client id, and "azp" equal to it when "aud" holds several
// or "azp" is given; "exp" not past and "iat" not in the future (each within
// the skew); "nonce"; the deployment id; message type; version "1.3.0";
// "sub"; "roles"; the resource link's id (for a resource link request); and
// the target_link_uri. Never throws.
LaunchCheck check_id_token(std::string_view id_token, const PlatformKeys& keys, const LaunchExpected& expected);

}  // namespace attnmark
