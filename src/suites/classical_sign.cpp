// The suite adapters of the classical primitives (src/classical/): signers and verifiers behind
// the suite API for Ed25519 (libsodium, or OpenSSL EVP), Ed448, ECDSA P-256/P-384 (raw r||s),
// RSA-PSS SHA-512, RSA PKCS#1 v1.5 SHA-256 (OpenSSL 3.0), and HMAC-SHA256 (classical::internal::
// HmacState, src/classical/hmac.cpp).
// Keys are parsed and prepared once (EVP_PKEY / libsodium secret key / HMAC pad states);
// sign() and verify() only allocate the per-call OpenSSL digest context.
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/rsa.h>
#include <sodium.h>

#include <cstring>
#include <string>

#include "classical/ed25519_rule.hpp"
#include "classical/internal.hpp"
#include "common/ct.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/classical_suites.hpp"
#include "suites/classical_adapter.hpp"

namespace pqsig::classical {

namespace internal {
namespace {

struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const noexcept { EVP_MD_CTX_free(c); }
};
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

// Digests fetched once (explicit fetch keeps the provider lookup out of the hot path).
const EVP_MD* md_for(Kind k) {
  static EVP_MD* sha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  static EVP_MD* sha384 = EVP_MD_fetch(nullptr, "SHA384", nullptr);
  static EVP_MD* sha512 = EVP_MD_fetch(nullptr, "SHA512", nullptr);
  switch (k) {
    case Kind::ecdsa_p256:
    case Kind::rsa_v15_sha256: return sha256;
    case Kind::ecdsa_p384: return sha384;
    case Kind::rsa_pss_sha512: return sha512;
    default: return nullptr;  // EdDSA: no digest
  }
}

Status check_options(Kind k, const SignOptions& o, bool signing) {
  if (!o.ctx.empty())
    return Error{Errc::invalid_context, std::string(kind_id(k)) + " takes no context string"};
  if (o.prehash) return Error{Errc::unsupported, std::string(kind_id(k)) + " has no pre-hash variant"};
  if (signing && o.deterministic && (is_ecdsa(k) || k == Kind::rsa_pss_sha512))
    return Error{Errc::unsupported,
                 std::string(kind_id(k)) + ": deterministic signing is not available (randomised by design)"};
  return {};
}

// Configure RSA padding on a digest-sign/verify context.
bool set_rsa_padding(Kind k, EVP_PKEY_CTX* pctx) {
  if (k == Kind::rsa_v15_sha256) return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) == 1;
  // RFC 9421 §3.3.1: RSASSA-PSS, SHA-512, MGF1 with SHA-512, salt length 64.
  return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1 &&
         EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, md_for(k)) == 1 && EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, 64) == 1;
}

Result<bytes> evp_sign(Kind k, EVP_PKEY* key, byte_span msg) {
  MdCtx ctx(EVP_MD_CTX_new());
  EVP_PKEY_CTX* pctx = nullptr;
  if (!ctx || EVP_DigestSignInit(ctx.get(), &pctx, md_for(k), nullptr, key) != 1) return ossl_error("DigestSignInit");
  if (is_rsa(k) && !set_rsa_padding(k, pctx)) return ossl_error("RSA padding");
  std::size_t len = 0;
  if (EVP_DigestSign(ctx.get(), nullptr, &len, msg.data(), msg.size()) != 1) return ossl_error("DigestSign");
  bytes sig(len);
  if (EVP_DigestSign(ctx.get(), sig.data(), &len, msg.data(), msg.size()) != 1) return ossl_error("DigestSign");
  sig.resize(len);
  if (is_ecdsa(k)) return ecdsa_der_to_raw(sig, ec_len(k));  // RFC 9421 §3.3.4: raw r||s
  return sig;
}

// The one Ed25519 rule (classical/ed25519_rule.hpp) refused the input before either engine ran.
Error ed25519_refused() {
  return Error{Errc::verify_failed,
               "ed25519 signature did not verify (non-canonical or small-order point, or S >= L)"};
}

Status evp_verify(Kind k, EVP_PKEY* key, byte_span msg, byte_span sig) {
  bytes der;
  if (is_ecdsa(k)) {
    if (sig.size() != 2 * ec_len(k))
      return Error{Errc::invalid_length, "ECDSA signature must be " + std::to_string(2 * ec_len(k)) + " bytes (r||s)"};
    auto d = ecdsa_raw_to_der(sig);
    if (!d) return d.error();
    der = std::move(d.value());
    sig = der;
  } else if (k == Kind::ed25519 && sig.size() != 64) {
    return Error{Errc::invalid_length, "Ed25519 signature must be 64 bytes"};
  } else if (k == Kind::ed25519) {
    std::uint8_t pub[32];
    std::size_t n = sizeof pub;
    if (EVP_PKEY_get_raw_public_key(key, pub, &n) != 1 || n != 32) return ossl_error("Ed25519 public key");
    if (!ed25519_precheck(byte_span(pub, 32), sig)) return ed25519_refused();
  } else if (k == Kind::ed448 && sig.size() != 114) {
    return Error{Errc::invalid_length, "Ed448 signature must be 114 bytes"};
  } else if (is_rsa(k) && sig.size() != static_cast<std::size_t>(EVP_PKEY_get_size(key))) {
    return Error{Errc::invalid_length, "RSA signature must be the modulus length"};
  }
  MdCtx ctx(EVP_MD_CTX_new());
  EVP_PKEY_CTX* pctx = nullptr;
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), &pctx, md_for(k), nullptr, key) != 1)
    return ossl_error("DigestVerifyInit");
  if (is_rsa(k) && !set_rsa_padding(k, pctx)) return ossl_error("RSA padding");
  const int r = EVP_DigestVerify(ctx.get(), sig.data(), sig.size(), msg.data(), msg.size());
  ERR_clear_error();
  if (r == 1) return {};
  return Error{Errc::verify_failed, std::string(kind_id(k)) + " signature did not verify"};
}

// ------------------------------------------------------------------ EVP (OpenSSL) keys
struct EvpSigner final : pqsig::detail::SignerImpl {
  Kind kind;
  Pkey key;
  SecretBytes priv;
  bytes pub;
  byte_span public_key() const noexcept override { return pub; }
  byte_span private_key() const noexcept override { return priv.span(); }
  Result<bytes> sign(byte_span msg, const SignOptions& opt) const override {
    auto st = check_options(kind, opt, true);
    if (!st) return st.error();
    return evp_sign(kind, key.get(), msg);
  }
};

struct EvpVerifier final : pqsig::detail::VerifierImpl {
  Kind kind;
  Pkey key;
  bytes pub;
  byte_span public_key() const noexcept override { return pub; }
  Status verify(byte_span msg, byte_span sig, const SignOptions& opt) const override {
    auto st = check_options(kind, opt, false);
    if (!st) return st;
    return evp_verify(kind, key.get(), msg, sig);
  }
};

// ------------------------------------------------------------------ Ed25519 (libsodium)
struct SodiumSigner final : pqsig::detail::SignerImpl {
  SecretBytes seed;
  SecretBytes sk{crypto_sign_SECRETKEYBYTES};  // seed || A, as libsodium keeps it
  bytes pub = bytes(crypto_sign_PUBLICKEYBYTES);
  byte_span public_key() const noexcept override { return pub; }
  byte_span private_key() const noexcept override { return seed.span(); }
  Result<bytes> sign(byte_span msg, const SignOptions& opt) const override {
    auto st = check_options(Kind::ed25519, opt, true);
    if (!st) return st.error();
    bytes sig(crypto_sign_BYTES);
    if (crypto_sign_detached(sig.data(), nullptr, msg.data(), msg.size(), sk.data()) != 0)
      return Error{Errc::crypto_backend, "crypto_sign_detached failed"};
    return sig;
  }
};

struct SodiumVerifier final : pqsig::detail::VerifierImpl {
  bytes pub;
  byte_span public_key() const noexcept override { return pub; }
  Status verify(byte_span msg, byte_span sig, const SignOptions& opt) const override {
    auto st = check_options(Kind::ed25519, opt, false);
    if (!st) return st;
    if (sig.size() != crypto_sign_BYTES) return Error{Errc::invalid_length, "Ed25519 signature must be 64 bytes"};
    if (!ed25519_precheck(pub, sig)) return ed25519_refused();
    if (crypto_sign_verify_detached(sig.data(), msg.data(), msg.size(), pub.data()) != 0)
      return Error{Errc::verify_failed, "ed25519 signature did not verify"};
    return {};
  }
};

// ------------------------------------------------------------------ HMAC-SHA256
struct HmacSigner final : pqsig::detail::SignerImpl {
  SecretBytes key;
  HmacState st;
  ~HmacSigner() override { secure_zero(&st, sizeof st); }
  byte_span public_key() const noexcept override { return {}; }
  byte_span private_key() const noexcept override { return key.span(); }
  Result<bytes> sign(byte_span msg, const SignOptions& opt) const override {
    auto s = check_options(Kind::hmac_sha256, opt, true);
    if (!s) return s.error();
    bytes tag(32);
    st.tag(msg, tag.data());
    return tag;
  }
  Status verify(byte_span msg, byte_span sig, const SignOptions& opt) const override {
    auto s = check_options(Kind::hmac_sha256, opt, false);
    if (!s) return s;
    if (sig.size() != 32) return Error{Errc::invalid_length, "HMAC-SHA256 tag must be 32 bytes"};
    std::uint8_t t[32];
    st.tag(msg, t);
    bool ok = ct_equal(byte_span(t, 32), sig);
    CT_DECLASSIFY(&ok, sizeof ok);  // the verdict is the (public) result
    secure_zero(t, sizeof t);
    if (!ok) return Error{Errc::verify_failed, "hmac-sha256 tag did not verify"};
    return {};
  }
};

}  // namespace

Result<std::unique_ptr<pqsig::detail::SignerImpl>> make_signer(Kind k, byte_span priv, Ed25519Engine eng) {
  ensure_init();
  if (k == Kind::hmac_sha256) {
    if (priv.size() < 16 || priv.size() > 1024)
      return Error{Errc::invalid_length, "HMAC-SHA256 key must be 16..1024 bytes"};
    auto s = std::make_unique<HmacSigner>();
    s->key = SecretBytes(priv);
    s->st.init(priv);
    return std::unique_ptr<pqsig::detail::SignerImpl>(std::move(s));
  }
  if (k == Kind::ed25519 && eng == Ed25519Engine::libsodium) {
    if (priv.size() != crypto_sign_SEEDBYTES) return Error{Errc::invalid_length, "Ed25519 private key must be 32 bytes"};
    auto s = std::make_unique<SodiumSigner>();
    s->seed = SecretBytes(priv);
    if (crypto_sign_seed_keypair(s->pub.data(), s->sk.data(), priv.data()) != 0)
      return Error{Errc::crypto_backend, "crypto_sign_seed_keypair failed"};
    CT_DECLASSIFY(s->pub.data(), s->pub.size());  // A = [s]B is the public key (compared, published)
    return std::unique_ptr<pqsig::detail::SignerImpl>(std::move(s));
  }
  auto key = pkey_from_private(k, priv);
  if (!key) return key.error();
  auto s = std::make_unique<EvpSigner>();
  s->kind = k;
  auto canon = raw_private(k, key->get());
  if (!canon) return canon.error();
  s->priv = std::move(canon.value());
  if (is_rsa(k) && EVP_PKEY_get_base_id(key->get()) != EVP_PKEY_RSA) {
    // Re-load from the canonical rsaEncryption form (drops RSA-PSS key restrictions).
    auto again = pkey_from_private(k, s->priv.span());
    if (!again) return again.error();
    key = std::move(again);
  }
  auto pub = raw_public(k, key->get());
  if (!pub) return pub.error();
  s->pub = std::move(pub.value());
  s->key = std::move(key.value());
  return std::unique_ptr<pqsig::detail::SignerImpl>(std::move(s));
}

Result<std::unique_ptr<pqsig::detail::VerifierImpl>> make_verifier(Kind k, byte_span pub, Ed25519Engine eng) {
  ensure_init();
  if (k == Kind::hmac_sha256)
    return Error{Errc::unsupported, "hmac-sha256 is a MAC: verify with the SigningKey (shared secret)"};
  if (k == Kind::ed25519 && eng == Ed25519Engine::libsodium) {
    if (pub.size() != crypto_sign_PUBLICKEYBYTES) return Error{Errc::invalid_length, "Ed25519 public key must be 32 bytes"};
    auto v = std::make_unique<SodiumVerifier>();
    v->pub.assign(pub.begin(), pub.end());
    return std::unique_ptr<pqsig::detail::VerifierImpl>(std::move(v));
  }
  auto key = pkey_from_public(k, pub);
  if (!key) return key.error();
  auto v = std::make_unique<EvpVerifier>();
  v->kind = k;
  if (is_rsa(k)) {
    auto canon = raw_public(k, key->get());  // canonical SPKI (rsaEncryption)
    if (!canon) return canon.error();
    v->pub = std::move(canon.value());
    if (EVP_PKEY_get_base_id(key->get()) != EVP_PKEY_RSA) {
      auto again = pkey_from_public(k, v->pub);
      if (!again) return again.error();
      key = std::move(again);
    }
  } else {
    v->pub.assign(pub.begin(), pub.end());
  }
  v->key = std::move(key.value());
  return std::unique_ptr<pqsig::detail::VerifierImpl>(std::move(v));
}

}  // namespace internal

Result<SigningKey> ed25519_signing_key(byte_span seed32, Ed25519Engine engine) {
  auto s = internal::make_signer(internal::Kind::ed25519, seed32, engine);
  if (!s) return s.error();
  (*s)->info = &suite_of(Kind::ed25519);
  return SigningKey(std::move(s.value()));
}

Result<VerifyingKey> ed25519_verifying_key(byte_span pub32, Ed25519Engine engine) {
  auto v = internal::make_verifier(internal::Kind::ed25519, pub32, engine);
  if (!v) return v.error();
  (*v)->info = &suite_of(Kind::ed25519);
  return VerifyingKey(std::move(v.value()));
}

}  // namespace pqsig::classical
