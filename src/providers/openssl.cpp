// The "openssl" provider: the loaded libcrypto's ML-DSA and SLH-DSA (OpenSSL >= 3.5), found at
// run time by algorithm name (EVP_SIGNATURE_fetch "ML-DSA-44", "SLH-DSA-SHA2-128s", ...).
// Written against the OpenSSL 3.0 API only (EVP_DigestVerifyInit_ex with OSSL_PARAMs by name),
// so it compiles here and works where libcrypto has the algorithms. On OpenSSL 3.0 / 3.4 it is
// reported unavailable with the reason, and every verification is Errc::unsupported.
//
// Interfaces (OpenSSL 3.5 parameters): pure and "context-string"; "message-encoding" = 0 is the
// internal interface (M′ as is); ML-DSA "mu" = 1 is external μ. OpenSSL has no HashML-DSA /
// HashSLH-DSA: pre-hash is unsupported. Operations besides verification (Backend::operations): key
// generation (EVP_PKEY_keygen, the FIPS 204 / 205 encodings out through EVP_PKEY_get_raw_*_key)
// and signing, external interface, pure or with a context, hedged, from the expanded secret key
// (EVP_PKEY_new_raw_private_key_ex, then EVP_DigestSign). Tested against Debian 13's OpenSSL 3.5
// on Debian 12 (scripts/openssl35.sh; tests/providers/test_openssl35.cpp, label openssl35).
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "providers/table.hpp"
#include "suites/backend.hpp"

namespace pqsig::detail {
namespace {

struct PkeyDeleter {
  void operator()(EVP_PKEY* p) const noexcept { EVP_PKEY_free(p); }
};
struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* p) const noexcept { EVP_MD_CTX_free(p); }
};

// The libcrypto algorithm name of a suite ("ML-DSA-44", "SLH-DSA-SHA2-128s"): its JOSE name.
std::string ossl_name(const SuiteInfo& s) {
  if (s.family != Family::ml_dsa && s.family != Family::slh_dsa) return {};
  return std::string(s.jose_alg);
}

// Whether the loaded libcrypto implements the suite (fetched once per suite).
bool has_algorithm(const SuiteInfo& s) {
  struct Entry {
    std::once_flag once;
    bool present = false;
  };
  static std::array<Entry, 64> table;
  const auto all = all_suites();
  std::size_t idx = 0;
  while (idx < all.size() && all[idx].id != s.id) ++idx;
  if (idx >= all.size() || idx >= table.size()) return false;
  Entry& e = table[idx];
  std::call_once(e.once, [&] {
    const std::string name = ossl_name(s);
    if (name.empty()) return;
    EVP_SIGNATURE* sig = EVP_SIGNATURE_fetch(nullptr, name.c_str(), nullptr);
    if (sig) {
      e.present = true;
      EVP_SIGNATURE_free(sig);
    } else {
      ERR_clear_error();  // an absent algorithm is an answer, not an error to leave queued
    }
  });
  return e.present;
}

unsigned openssl_interfaces(const SuiteInfo& s) noexcept {
  if (!has_algorithm(s)) return 0;
  unsigned m = provider::kPure | provider::kContext | provider::kInternal;
  if (s.family == Family::ml_dsa) m |= provider::kExternalMu;
  return m;
}

struct OsslVerifier final : VerifierImpl {
  std::unique_ptr<EVP_PKEY, PkeyDeleter> pkey;
  bytes pk;
  byte_span public_key() const noexcept override { return pk; }

  // One-shot EVP_DigestVerify with the given parameters (no digest: ML-DSA / SLH-DSA hash
  // internally). 1 → valid; anything else → rejected.
  Status run(byte_span msg, byte_span sig, byte_span ctx, int message_encoding, int mu) const {
    if (sig.size() != info->output_size)
      return Error{Errc::invalid_length, std::string(info->id) + ": signature must be " +
                                             std::to_string(info->output_size) + " bytes, got " +
                                             std::to_string(sig.size())};
    std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> md(EVP_MD_CTX_new());
    if (!md) return Error{Errc::crypto_backend, "EVP_MD_CTX_new failed"};
    OSSL_PARAM params[4];
    int n = 0;
    // OpenSSL 3.5 parameter names, spelled out so this compiles against 3.0 headers.
    // The context string only when there is one: OSSL_PARAM_get_octet_string refuses a
    // parameter whose data pointer is null, which an empty span may well have, and OpenSSL's
    // default context is the empty string anyway (FIPS 204 §5.2, FIPS 205 §10.2).
    if (!ctx.empty())
      params[n++] = OSSL_PARAM_construct_octet_string("context-string", const_cast<std::uint8_t*>(ctx.data()),
                                                      ctx.size());
    params[n++] = OSSL_PARAM_construct_int("message-encoding", &message_encoding);
    if (mu) params[n++] = OSSL_PARAM_construct_int("mu", &mu);
    params[n] = OSSL_PARAM_construct_end();
    if (EVP_DigestVerifyInit_ex(md.get(), nullptr, nullptr, nullptr, nullptr, pkey.get(), params) != 1) {
      ERR_clear_error();  // this thread's queue stays clean for the next caller
      return Error{Errc::crypto_backend, std::string(info->id) + ": libcrypto refused the verification parameters"};
    }
    if (EVP_DigestVerify(md.get(), sig.data(), sig.size(), msg.data(), msg.size()) == 1) return {};
    ERR_clear_error();
    return Error{Errc::verify_failed, std::string(info->id) + ": libcrypto rejected the signature"};
  }

  Status verify(byte_span msg, byte_span sig, const SignOptions& opt) const override {
    if (opt.prehash) return Error{Errc::unsupported, std::string(info->id) + ": OpenSSL has no pre-hash variant"};
    if (opt.ctx.size() > 255) return Error{Errc::invalid_context, "context longer than 255 bytes"};
    return run(msg, sig, opt.ctx, 1, 0);
  }
  Status verify_internal(byte_span mprime, byte_span sig) const override { return run(mprime, sig, {}, 0, 0); }
  Status verify_mu(byte_span mu, byte_span sig) const override {
    if (info->family != Family::ml_dsa) return VerifierImpl::verify_mu(mu, sig);
    return run(mu, sig, {}, 1, 1);
  }
};

Result<std::unique_ptr<VerifierImpl>> openssl_verifier_from_public(const SuiteInfo& s, byte_span pub) {
  if (!has_algorithm(s)) return Error{Errc::unsupported, std::string(s.id) + ": not in the loaded libcrypto"};
  if (pub.size() != s.public_key_size)
    return Error{Errc::invalid_length, std::string(s.id) + ": public key must be " +
                                           std::to_string(s.public_key_size) + " bytes, got " +
                                           std::to_string(pub.size())};
  auto impl = std::make_unique<OsslVerifier>();
  impl->info = &s;
  impl->pk.assign(pub.begin(), pub.end());
  impl->pkey.reset(EVP_PKEY_new_raw_public_key_ex(nullptr, ossl_name(s).c_str(), nullptr, pub.data(), pub.size()));
  if (!impl->pkey) ERR_clear_error();
  if (!impl->pkey) return Error{Errc::invalid_encoding, std::string(s.id) + ": libcrypto refused the public key"};
  return std::unique_ptr<VerifierImpl>(std::move(impl));
}

struct PkeyCtxDeleter {
  void operator()(EVP_PKEY_CTX* p) const noexcept { EVP_PKEY_CTX_free(p); }
};

// Signing through libcrypto from the FIPS 204 / 205 secret key encoding, imported once when the
// signer is made (libcrypto checks it: ML-DSA recomputes the public key and compares tr). No
// public_key(): the provider only signs with it.
struct OsslSigner final : SignerImpl {
  std::unique_ptr<EVP_PKEY, PkeyDeleter> pkey;  // EVP_PKEY_free cleanses the key material
  SecretBytes sk;
  byte_span public_key() const noexcept override { return {}; }
  byte_span private_key() const noexcept override { return sk.span(); }
  Result<bytes> sign(byte_span msg, const SignOptions& opt) const override {
    if (opt.prehash) return Error{Errc::unsupported, std::string(info->id) + ": OpenSSL has no pre-hash variant"};
    if (opt.deterministic) return Error{Errc::unsupported, std::string(info->id) + ": the openssl provider signs hedged only"};
    if (opt.ctx.size() > 255) return Error{Errc::invalid_context, "context longer than 255 bytes"};
    std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> md(EVP_MD_CTX_new());
    if (!md) return Error{Errc::crypto_backend, "EVP_MD_CTX_new failed"};
    OSSL_PARAM params[2];
    int n = 0;
    if (!opt.ctx.empty())  // (as in run(): no parameter for the empty default context)
      params[n++] = OSSL_PARAM_construct_octet_string("context-string", const_cast<std::uint8_t*>(opt.ctx.data()),
                                                      opt.ctx.size());
    params[n] = OSSL_PARAM_construct_end();
    if (EVP_DigestSignInit_ex(md.get(), nullptr, nullptr, nullptr, nullptr, pkey.get(), params) != 1) {
      ERR_clear_error();
      return Error{Errc::crypto_backend, std::string(info->id) + ": libcrypto refused the signing parameters"};
    }
    bytes out(info->output_size);
    std::size_t len = out.size();
    if (EVP_DigestSign(md.get(), out.data(), &len, msg.data(), msg.size()) != 1 || len != info->output_size) {
      ERR_clear_error();
      return Error{Errc::crypto_backend, std::string(info->id) + ": libcrypto signing failed"};
    }
    return out;
  }
};

Result<std::unique_ptr<SignerImpl>> openssl_signer_from_expanded(const SuiteInfo& s, byte_span sk) {
  if (!has_algorithm(s)) return Error{Errc::unsupported, std::string(s.id) + ": not in the loaded libcrypto"};
  if (sk.size() != s.expanded_key_size)
    return Error{Errc::invalid_length, std::string(s.id) + ": expanded secret key must be " +
                                           std::to_string(s.expanded_key_size) + " bytes, got " +
                                           std::to_string(sk.size())};
  auto impl = std::make_unique<OsslSigner>();
  impl->info = &s;
  impl->pkey.reset(EVP_PKEY_new_raw_private_key_ex(nullptr, ossl_name(s).c_str(), nullptr, sk.data(), sk.size()));
  if (!impl->pkey) {
    ERR_clear_error();
    return Error{Errc::invalid_encoding, std::string(s.id) + ": libcrypto refused the secret key"};
  }
  impl->sk = SecretBytes(sk);
  return std::unique_ptr<SignerImpl>(std::move(impl));
}

unsigned openssl_operations(const SuiteInfo& s) noexcept {
  return has_algorithm(s) ? provider::kKeygen | provider::kSign : 0u;
}

// FIPS 204, Algorithm 1 (ML-DSA.KeyGen) / FIPS 205, Algorithm 21 (slh_keygen) through libcrypto:
// the public key and the expanded secret key in their FIPS encodings.
Result<EncodedKeyPair> openssl_keypair(const SuiteInfo& s) {
  if (!has_algorithm(s)) return Error{Errc::unsupported, "openssl cannot generate keys for " + std::string(s.id) + " here"};
  const std::string name = ossl_name(s);
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxDeleter> ctx(EVP_PKEY_CTX_new_from_name(nullptr, name.c_str(), nullptr));
  EVP_PKEY* raw = nullptr;
  if (!ctx || EVP_PKEY_keygen_init(ctx.get()) != 1 || EVP_PKEY_keygen(ctx.get(), &raw) != 1) {
    ERR_clear_error();
    return Error{Errc::crypto_backend, std::string(s.id) + ": libcrypto key generation failed"};
  }
  std::unique_ptr<EVP_PKEY, PkeyDeleter> key(raw);
  EncodedKeyPair kp;
  kp.public_key.resize(s.public_key_size);
  kp.secret_key = SecretBytes(s.expanded_key_size);  // written in place: no temporary copy
  std::size_t pk_len = kp.public_key.size(), sk_len = kp.secret_key.size();
  if (EVP_PKEY_get_raw_public_key(key.get(), kp.public_key.data(), &pk_len) != 1 ||
      EVP_PKEY_get_raw_private_key(key.get(), kp.secret_key.data(), &sk_len) != 1 || pk_len != s.public_key_size ||
      sk_len != s.expanded_key_size) {
    ERR_clear_error();
    return Error{Errc::crypto_backend, std::string(s.id) + ": libcrypto did not export the key pair in the FIPS encodings"};
  }
  return kp;
}

constexpr Backend kOpensslBackend{.signer_from_expanded = &openssl_signer_from_expanded,
                                  .verifier_from_public = &openssl_verifier_from_public,
                                  .interfaces = &openssl_interfaces,
                                  .operations = &openssl_operations,
                                  .keypair = &openssl_keypair};
}  // namespace

const Backend* openssl_backend() noexcept { return &kOpensslBackend; }

provider::ProviderInfo openssl_info() {
  const std::string v = OpenSSL_version(OPENSSL_VERSION);
  const SuiteInfo* probe = find_suite("ml-dsa-44").value();
  if (has_algorithm(*probe)) return provider::ProviderInfo{"openssl", true, "", v};
  return provider::ProviderInfo{"openssl", false,
                                "OpenSSL < 3.5: the loaded libcrypto (" + v +
                                    ") implements no ML-DSA-44 (EVP_SIGNATURE_fetch failed)",
                                v};
}

}  // namespace pqsig::detail
