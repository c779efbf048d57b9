#include "serve/tls.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <memory>

#include "attnmark/base/error.h"

namespace attnmark {

namespace {

std::string openssl_error() {
  const unsigned long code = ERR_get_error();
  if (code == 0) return "unknown error";
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  ERR_clear_error();
  return text;
}

std::string fingerprint_of(X509* certificate) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!X509_digest(certificate, EVP_sha256(), digest, &size)) return {};
  std::string out;
  for (unsigned int i = 0; i < size; ++i) out += fmt::format("{}{:02X}", i ? ":" : "", digest[i]);
  return out;
}

struct FileCloser {
  void operator()(FILE* f) const {
    if (f) std::fclose(f);
  }
};

}  // namespace

TlsContext::TlsContext(const std::string& certificate_file, const std::string& key_file) {
  context_ = SSL_CTX_new(TLS_server_method());
  if (!context_) throw Error("--tls-cert: cannot make a TLS context: " + openssl_error());
  SSL_CTX_set_min_proto_version(context_, TLS1_2_VERSION);
  SSL_CTX_set_options(context_, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_TICKET |
                                    SSL_OP_CIPHER_SERVER_PREFERENCE);
  SSL_CTX_set_mode(context_, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER |
                                 SSL_MODE_RELEASE_BUFFERS);
  SSL_CTX_set_cipher_list(context_, "ECDHE+AESGCM:ECDHE+CHACHA20");
  SSL_CTX_set_num_tickets(context_, 0);  // TLS 1.3's tickets: a resumed session is not worth the secret kept
  if (SSL_CTX_use_certificate_chain_file(context_, certificate_file.c_str()) != 1) {
    const std::string why = openssl_error();
    SSL_CTX_free(context_);
    throw Error(certificate_file, 0, 0, "--tls-cert: not a PEM certificate this machine can read (" + why + ")");
  }
  if (SSL_CTX_use_PrivateKey_file(context_, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    const std::string why = openssl_error();
    SSL_CTX_free(context_);
    throw Error(key_file, 0, 0, "--tls-key: not a PEM private key this machine can read (" + why + ")");
  }
  if (SSL_CTX_check_private_key(context_) != 1) {
    SSL_CTX_free(context_);
    throw Error(key_file, 0, 0, fmt::format("--tls-key: is not the key of the certificate {}", certificate_file));
  }
  fingerprint_ = fingerprint_of(SSL_CTX_get0_certificate(context_));
}

TlsContext::~TlsContext() { SSL_CTX_free(context_); }

SelfSigned make_self_signed(const std::string& stem, const std::vector<std::string>& names) {
  SelfSigned out{stem + ".crt", stem + ".key", "", false};
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(out.certificate_file, ec) && fs::exists(out.key_file, ec)) {
    out.fingerprint = TlsContext(out.certificate_file, out.key_file).fingerprint();
    return out;
  }
  const auto fail = [&](const std::string& what) {
    return Error(out.certificate_file, 0, 0, "--tls-self-signed: cannot make a certificate: " + what + " (" + openssl_error() + ")");
  };
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), EVP_PKEY_free);
  if (!key) throw fail("no key");
  std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), X509_free);
  if (!cert) throw fail("no certificate");
  X509_set_version(cert.get(), 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof serial);
  serial[0] &= 0x7f;
  std::unique_ptr<BIGNUM, decltype(&BN_free)> number(BN_bin2bn(serial, sizeof serial, nullptr), BN_free);
  BN_to_ASN1_INTEGER(number.get(), X509_get_serialNumber(cert.get()));
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 825L * 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  const std::string common = names.empty() ? std::string("localhost") : names.front();
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(common.c_str()), -1, -1, 0);
  X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>("attnmark serve"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  std::string alt;
  for (const std::string& n : names) {
    unsigned char ip[16];
    const bool is_ip = inet_pton(AF_INET, n.c_str(), ip) == 1 || inet_pton(AF_INET6, n.c_str(), ip) == 1;
    alt += (alt.empty() ? "" : ",") + std::string(is_ip ? "IP:" : "DNS:") + n;
  }
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert.get(), cert.get(), nullptr, nullptr, 0);
  for (const auto& [ext_name, value] : {std::pair<const char*, std::string>{"subjectAltName", alt},
                                        {"basicConstraints", "critical,CA:FALSE"},
                                        {"keyUsage", "critical,digitalSignature"},
                                        {"extendedKeyUsage", "serverAuth"}}) {
    if (value.empty()) continue;
    X509_EXTENSION* ext = X509V3_EXT_conf(nullptr, &v3, ext_name, value.c_str());
    if (!ext) throw fail(std::string("extension ") + ext_name);
    X509_add_ext(cert.get(), ext, -1);
    X509_EXTENSION_free(ext);
  }
  if (!X509_sign(cert.get(), key.get(), EVP_sha256())) throw fail("signing");

  // The key is created 0600, never through a planted link; the certificate is public.
  const int key_fd = ::open(out.key_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (key_fd < 0) throw Error(out.key_file, 0, 0, "--tls-self-signed: cannot write the key: " + std::string(std::strerror(errno)));
  fchmod(key_fd, 0600);
  std::unique_ptr<FILE, FileCloser> key_out(fdopen(key_fd, "w"));
  if (!key_out || !PEM_write_PrivateKey(key_out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr))
    throw fail("writing the key");
  key_out.reset();
  std::unique_ptr<FILE, FileCloser> cert_out(std::fopen(out.certificate_file.c_str(), "w"));
  if (!cert_out || !PEM_write_X509(cert_out.get(), cert.get())) throw fail("writing the certificate");
  cert_out.reset();
  out.fingerprint = fingerprint_of(cert.get());
  out.made = true;
  return out;
}

}  // namespace attnmark
