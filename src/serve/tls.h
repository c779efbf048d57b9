// serve/tls.h: HTTPS for attnmark serve (OpenSSL): a server context with
// modern defaults from a certificate and key, and a self-signed certificate
// made for a class on a school network.
//
//   auto tls = std::make_shared<TlsContext>("cert.pem", "key.pem");   // serve --tls-cert/--tls-key
//   SelfSigned made = make_self_signed("class.sqlite.tls", {"laptop.local", "192.168.1.20"});
//   made.fingerprint   // "SHA-256 3A:9F:...": what the teacher checks in the browser's warning
#pragma once

#include <string>
#include <vector>

struct ssl_ctx_st;

namespace attnmark {

// An OpenSSL server context: TLS 1.2 or later, forward-secret AEAD ciphers
// only (ECDHE with AES-GCM or ChaCha20-Poly1305 for TLS 1.2; TLS 1.3's
// own), no renegotiation, no compression, no session tickets.
class TlsContext {
 public:
  // Throws Error naming the file when the certificate or key cannot be read,
  // or the key is not the certificate's.
  TlsContext(const std::string& certificate_file, const std::string& key_file);
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  ssl_ctx_st* get() const { return context_; }
  // The certificate's SHA-256 fingerprint, as browsers show it:
  // "3A:9F:...:0C" (32 pairs of upper-case hex digits).
  const std::string& fingerprint() const { return fingerprint_; }

 private:
  ssl_ctx_st* context_ = nullptr;
  std::string fingerprint_;
};

struct SelfSigned {
  std::string certificate_file, key_file;
  std::string fingerprint;  // as TlsContext::fingerprint
  bool made = false;        // false: the files were there already and are used again
};

// A self-signed certificate (ECDSA P-256, valid 825 days) for `names` (host
// names and IP addresses, the first its common name) at STEM.crt, with its
// key at STEM.key (created 0600). When both files exist they are kept, so the
// fingerprint a class was shown stays the same from start to start.
// Throws Error when they cannot be made or read.
SelfSigned make_self_signed(const std::string& stem, const std::vector<std::string>& names);

}  // namespace attnmark
