// Classical key formats: JWK members (RFC 7518 §6, RFC 8037 §2), PEM/DER import (SPKI, PKCS#8,
// PKCS#1, SEC1) and export (SPKI, PKCS#8), all converted to and from the registry's raw forms.
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>

#include <string>

#include "classical/internal.hpp"
#include "classical/ossl_ptr.hpp"

namespace pqsig::classical {

namespace {
using internal::Kind;
using internal::Pkey;
using internal::ossl_error;
using internal::Bn;
using internal::BldFree;
using internal::ParamFree;
using internal::CtxFree;
using internal::DecFree;

// Minimal big-endian bytes of an RSA parameter.
template <class Out>
Result<Out> rsa_param(EVP_PKEY* p, const char* name) {
  BIGNUM* b = nullptr;
  if (EVP_PKEY_get_bn_param(p, name, &b) != 1) return ossl_error(std::string("RSA parameter ") + name);
  Bn g(b);
  Out out(static_cast<std::size_t>(BN_num_bytes(b)));
  BN_bn2bin(b, out.data());
  return out;
}

Status fill_rsa(JwkMembers& m, EVP_PKEY* p, bool priv) {
  auto n = rsa_param<bytes>(p, OSSL_PKEY_PARAM_RSA_N);
  auto e = rsa_param<bytes>(p, OSSL_PKEY_PARAM_RSA_E);
  if (!n) return n.error();
  if (!e) return e.error();
  m.n = std::move(n.value());
  m.e = std::move(e.value());
  if (!priv) return {};
  struct {
    SecretBytes* dst;
    const char* name;
  } fields[] = {{&m.d, OSSL_PKEY_PARAM_RSA_D},         {&m.p, OSSL_PKEY_PARAM_RSA_FACTOR1},
                {&m.q, OSSL_PKEY_PARAM_RSA_FACTOR2},   {&m.dp, OSSL_PKEY_PARAM_RSA_EXPONENT1},
                {&m.dq, OSSL_PKEY_PARAM_RSA_EXPONENT2}, {&m.qi, OSSL_PKEY_PARAM_RSA_COEFFICIENT1}};
  for (auto& f : fields) {
    auto v = rsa_param<SecretBytes>(p, f.name);
    if (!v) {
      if (f.dst == &m.d) return v.error();
      ERR_clear_error();
      continue;
    }
    *f.dst = std::move(v.value());
  }
  return {};
}

Result<Pkey> rsa_from_members(const JwkMembers& m, bool priv) {
  if (m.n.empty() || m.e.empty()) return Error{Errc::invalid_encoding, "RSA JWK needs n and e"};
  std::unique_ptr<OSSL_PARAM_BLD, BldFree> bld(OSSL_PARAM_BLD_new());
  if (!bld) return ossl_error("param builder");
  std::vector<Bn> keep;
  auto push = [&](const char* name, byte_span v) -> bool {
    BIGNUM* b = BN_bin2bn(v.data(), static_cast<int>(v.size()), nullptr);
    if (!b) return false;
    keep.emplace_back(b);
    return OSSL_PARAM_BLD_push_BN(bld.get(), name, b) == 1;
  };
  if (!push(OSSL_PKEY_PARAM_RSA_N, m.n) || !push(OSSL_PKEY_PARAM_RSA_E, m.e)) return ossl_error("RSA params");
  if (priv) {
    if (m.d.empty()) return Error{Errc::invalid_encoding, "RSA private JWK needs d"};
    const bool any_crt = !m.p.empty() || !m.q.empty() || !m.dp.empty() || !m.dq.empty() || !m.qi.empty();
    const bool all_crt = !m.p.empty() && !m.q.empty() && !m.dp.empty() && !m.dq.empty() && !m.qi.empty();
    if (any_crt && !all_crt) return Error{Errc::invalid_encoding, "RSA JWK: p, q, dp, dq, qi must be given together"};
    if (!push(OSSL_PKEY_PARAM_RSA_D, m.d.span())) return ossl_error("RSA params");
    if (all_crt && (!push(OSSL_PKEY_PARAM_RSA_FACTOR1, m.p.span()) || !push(OSSL_PKEY_PARAM_RSA_FACTOR2, m.q.span()) ||
                    !push(OSSL_PKEY_PARAM_RSA_EXPONENT1, m.dp.span()) ||
                    !push(OSSL_PKEY_PARAM_RSA_EXPONENT2, m.dq.span()) ||
                    !push(OSSL_PKEY_PARAM_RSA_COEFFICIENT1, m.qi.span())))
      return ossl_error("RSA params");
  }
  std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld.get()));
  std::unique_ptr<EVP_PKEY_CTX, CtxFree> ctx(EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr));
  EVP_PKEY* out = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &out, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params.get()) != 1)
    return Error{Errc::invalid_encoding, "RSA JWK members do not form a key"};
  Pkey pk(out);
  if (priv) {
    std::unique_ptr<EVP_PKEY_CTX, CtxFree> c(EVP_PKEY_CTX_new_from_pkey(nullptr, out, nullptr));
    if (!c || EVP_PKEY_pairwise_check(c.get()) != 1) {
      ERR_clear_error();
      return Error{Errc::key_check_failed, "RSA JWK private members are inconsistent"};
    }
  }
  return pk;
}

std::string pem_armor(std::string_view label, byte_span der) {
  std::string b64 = base64_encode(der);
  std::string out = "-----BEGIN " + std::string(label) + "-----\n";
  for (std::size_t i = 0; i < b64.size(); i += 64) out += b64.substr(i, 64) + "\n";
  out += "-----END " + std::string(label) + "-----\n";
  secure_zero(b64.data(), b64.size());
  return out;
}

Result<RawKey> import_pkey(Pkey key, std::string_view hint) {
  auto k = internal::kind_of_pkey(key.get(), hint);
  if (!k) return k.error();
  RawKey out;
  out.kind = *k;
  if (internal::pkey_has_private(key.get())) {
    auto priv = internal::raw_private(*k, key.get());
    if (!priv) return priv.error();
    // Re-derive everything from the canonical private form (validates it, fills the public key).
    auto derived = internal::derive_key(*k, priv->span());
    if (!derived) return derived.error();
    out.public_key = std::move(derived->pub);
    out.private_key = std::move(priv.value());
    return out;
  }
  auto pub = internal::raw_public(*k, key.get());
  if (!pub) return pub.error();
  auto check = internal::check_public(*k, *pub);
  if (!check) return check.error();
  out.public_key = std::move(pub.value());
  return out;
}

Result<Pkey> decode(byte_span data, const char* input_type) {
  for (int selection : {EVP_PKEY_KEYPAIR, EVP_PKEY_PUBLIC_KEY}) {
    EVP_PKEY* pkey = nullptr;
    std::unique_ptr<OSSL_DECODER_CTX, DecFree> dctx(
        OSSL_DECODER_CTX_new_for_pkey(&pkey, input_type, nullptr, nullptr, selection, nullptr, nullptr));
    if (!dctx) return ossl_error("decoder");
    const unsigned char* p = data.data();
    std::size_t len = data.size();
    if (OSSL_DECODER_from_data(dctx.get(), &p, &len) == 1 && pkey) {
      Pkey out(pkey);
      if (std::string_view(input_type) == "DER" && len != 0)
        return Error{Errc::invalid_encoding, "trailing bytes after the DER key"};
      ERR_clear_error();
      return out;
    }
    EVP_PKEY_free(pkey);
    ERR_clear_error();
  }
  return Error{Errc::invalid_encoding, std::string("not a supported ") + input_type +
                                           " key (SPKI, PKCS#8, PKCS#1 or SEC1; Ed25519, Ed448, P-256, P-384, RSA)"};
}
}  // namespace

// ---------------------------------------------------------------- JWK members

Result<JwkMembers> jwk_members_public(Kind kind, byte_span pub) {
  JwkMembers m;
  switch (kind) {
    case Kind::ed25519:
    case Kind::ed448: {
      auto key = internal::pkey_from_public(kind, pub);
      if (!key) return key.error();
      m.kty = "OKP";
      m.crv = kind == Kind::ed25519 ? "Ed25519" : "Ed448";
      m.x.assign(pub.begin(), pub.end());
      return m;
    }
    case Kind::ecdsa_p256:
    case Kind::ecdsa_p384: {
      auto key = internal::pkey_from_public(kind, pub);
      if (!key) return key.error();
      const std::size_t n = internal::ec_len(kind);
      m.kty = "EC";
      m.crv = kind == Kind::ecdsa_p256 ? "P-256" : "P-384";
      m.x.assign(pub.begin() + 1, pub.begin() + 1 + static_cast<std::ptrdiff_t>(n));
      m.y.assign(pub.begin() + 1 + static_cast<std::ptrdiff_t>(n), pub.end());
      return m;
    }
    case Kind::rsa_pss_sha512:
    case Kind::rsa_v15_sha256: {
      auto key = internal::pkey_from_public(kind, pub);
      if (!key) return key.error();
      m.kty = "RSA";
      auto st = fill_rsa(m, key->get(), false);
      if (!st) return st.error();
      return m;
    }
    case Kind::hmac_sha256:
      return Error{Errc::unsupported, "hmac-sha256 has no public key (oct JWKs are private)"};
  }
  return Error{Errc::internal, "unreachable"};
}

Result<JwkMembers> jwk_members_private(Kind kind, byte_span priv) {
  if (kind == Kind::hmac_sha256) {
    if (priv.size() < 16 || priv.size() > 1024) return Error{Errc::invalid_length, "HMAC-SHA256 key must be 16..1024 bytes"};
    JwkMembers m;
    m.kty = "oct";
    m.k = SecretBytes(priv);
    return m;
  }
  auto derived = internal::derive_key(kind, priv);
  if (!derived) return derived.error();
  auto m = jwk_members_public(kind, derived->pub);
  if (!m) return m.error();
  switch (kind) {
    case Kind::ed25519:
    case Kind::ed448:
    case Kind::ecdsa_p256:
    case Kind::ecdsa_p384:
      m->d = SecretBytes(priv);
      return m;
    case Kind::rsa_pss_sha512:
    case Kind::rsa_v15_sha256: {
      auto key = internal::pkey_from_private(kind, derived->priv.span());
      if (!key) return key.error();
      auto st = fill_rsa(*m, key->get(), true);
      if (!st) return st.error();
      return m;
    }
    case Kind::hmac_sha256:
      break;
  }
  return Error{Errc::internal, "unreachable"};
}

Result<bytes> public_from_jwk_members(Kind kind, const JwkMembers& m) {
  switch (kind) {
    case Kind::ed25519:
    case Kind::ed448: {
      if (m.kty != "OKP" || m.crv != (kind == Kind::ed25519 ? "Ed25519" : "Ed448"))
        return Error{Errc::invalid_argument, "JWK kty/crv do not match " + std::string(kind_id(kind))};
      auto key = internal::pkey_from_public(kind, m.x);
      if (!key) return key.error();
      return m.x;
    }
    case Kind::ecdsa_p256:
    case Kind::ecdsa_p384: {
      const std::size_t n = internal::ec_len(kind);
      if (m.kty != "EC" || m.crv != (kind == Kind::ecdsa_p256 ? "P-256" : "P-384"))
        return Error{Errc::invalid_argument, "JWK kty/crv do not match " + std::string(kind_id(kind))};
      if (m.x.size() != n || m.y.size() != n)
        return Error{Errc::invalid_length, "EC JWK x and y must be " + std::to_string(n) + " bytes (RFC 7518 §6.2.1)"};
      bytes pub{0x04};
      pub.insert(pub.end(), m.x.begin(), m.x.end());
      pub.insert(pub.end(), m.y.begin(), m.y.end());
      auto key = internal::pkey_from_public(kind, pub);
      if (!key) return key.error();
      return pub;
    }
    case Kind::rsa_pss_sha512:
    case Kind::rsa_v15_sha256: {
      if (m.kty != "RSA") return Error{Errc::invalid_argument, "JWK kty does not match " + std::string(kind_id(kind))};
      auto key = rsa_from_members(m, false);
      if (!key) return key.error();
      auto pub = internal::raw_public(kind, key->get());
      if (!pub) return pub.error();
      auto check = internal::pkey_from_public(kind, *pub);  // size limits
      if (!check) return check.error();
      return pub;
    }
    case Kind::hmac_sha256:
      return Error{Errc::unsupported, "hmac-sha256 has no public key"};
  }
  return Error{Errc::internal, "unreachable"};
}

Result<SecretBytes> private_from_jwk_members(Kind kind, const JwkMembers& m) {
  SecretBytes priv;
  if (kind == Kind::hmac_sha256) {
    if (m.kty != "oct") return Error{Errc::invalid_argument, "JWK kty does not match hmac-sha256"};
    if (m.k.size() < 16 || m.k.size() > 1024) return Error{Errc::invalid_length, "HMAC-SHA256 key must be 16..1024 bytes"};
    return m.k.clone();
  }
  if (internal::is_rsa(kind)) {
    if (m.kty != "RSA") return Error{Errc::invalid_argument, "JWK kty does not match " + std::string(kind_id(kind))};
    auto key = rsa_from_members(m, true);
    if (!key) return key.error();
    auto p = internal::raw_private(kind, key->get());
    if (!p) return p.error();
    priv = std::move(p.value());
  } else {
    priv = m.d.clone();
  }
  auto derived = internal::derive_key(kind, priv.span());
  if (!derived) return derived.error();
  // Public members, when present, must belong to this private key.
  const bool has_pub = !m.x.empty() || !m.n.empty();
  if (has_pub) {
    auto pub = public_from_jwk_members(kind, m);
    if (!pub) return pub.error();
    byte_span mine = derived->pub;
    if (pub->size() != mine.size() || !ct_equal(*pub, mine))
      return Error{Errc::key_check_failed, "JWK public members do not match the private key"};
  } else if (!internal::is_rsa(kind)) {
    // fine: public key derived from d
  }
  return priv;
}

Result<Kind> kind_for_jwk(std::string_view kty, std::string_view crv, std::string_view alg) {
  auto pick = [&](Kind k) -> Result<Kind> {
    if (!alg.empty() && alg != kind_jose_alg(k))
      return Error{Errc::invalid_argument, "JWK alg '" + std::string(alg) + "' does not fit kty " + std::string(kty)};
    return k;
  };
  if (kty == "OKP") {
    if (crv == "Ed25519") return pick(Kind::ed25519);
    if (crv == "Ed448") {
      // RFC 8037 uses "EdDSA" for both curves; the JOSE alg of ed448 here is "Ed448".
      if (alg == "EdDSA") return Kind::ed448;
      return pick(Kind::ed448);
    }
    return Error{Errc::unsupported, "OKP curve '" + std::string(crv) + "' is not a signature curve here"};
  }
  if (kty == "EC") {
    if (crv == "P-256") return pick(Kind::ecdsa_p256);
    if (crv == "P-384") return pick(Kind::ecdsa_p384);
    return Error{Errc::unsupported, "EC curve '" + std::string(crv) + "' is not supported"};
  }
  if (kty == "RSA") {
    if (alg == "PS512") return Kind::rsa_pss_sha512;
    if (alg == "RS256") return Kind::rsa_v15_sha256;
    if (alg.empty()) return Error{Errc::invalid_argument, "RSA JWK without alg: give the suite"};
    return Error{Errc::unsupported, "RSA JWK alg '" + std::string(alg) + "' is not supported (PS512, RS256)"};
  }
  if (kty == "oct") {
    if (alg == "HS256") return Kind::hmac_sha256;
    if (alg.empty()) return Error{Errc::invalid_argument, "oct JWK without alg: give the suite"};
    return Error{Errc::unsupported, "oct JWK alg '" + std::string(alg) + "' is not supported (HS256)"};
  }
  return Error{Errc::unsupported, "JWK kty '" + std::string(kty) + "' is not a classical key type"};
}

// ---------------------------------------------------------------- PEM / DER

Result<RawKey> import_pem_raw(std::string_view pem, std::string_view hint) {
  if (pem.find("-----BEGIN ") == std::string_view::npos) return Error{Errc::invalid_encoding, "no PEM block found"};
  if (pem.find("ENCRYPTED") != std::string_view::npos)
    return Error{Errc::unsupported, "encrypted PEM keys are not supported (decrypt first)"};
  auto key = decode(as_bytes(pem), "PEM");
  if (!key) return key.error();
  return import_pkey(std::move(key.value()), hint);
}

Result<RawKey> import_der_raw(byte_span der, std::string_view hint) {
  if (der.empty()) return Error{Errc::invalid_length, "empty DER"};
  auto key = decode(der, "DER");
  if (!key) return key.error();
  return import_pkey(std::move(key.value()), hint);
}

Result<bytes> export_spki_der(Kind kind, byte_span pub) {
  auto key = internal::pkey_from_public(kind, pub);
  if (!key) return key.error();
  int len = i2d_PUBKEY(key->get(), nullptr);
  if (len <= 0) return ossl_error("SPKI encoding");
  bytes out(static_cast<std::size_t>(len));
  unsigned char* w = out.data();
  if (i2d_PUBKEY(key->get(), &w) != len) return ossl_error("SPKI encoding");
  return out;
}

Result<std::string> export_spki_pem(Kind kind, byte_span pub) {
  auto der = export_spki_der(kind, pub);
  if (!der) return der.error();
  return pem_armor("PUBLIC KEY", *der);
}

Result<SecretBytes> export_pkcs8_der(Kind kind, byte_span priv) {
  if (internal::is_rsa(kind)) {
    auto key = internal::pkey_from_private(kind, priv);
    if (!key) return key.error();
    return internal::raw_private(kind, key->get());  // canonical PKCS#8 already
  }
  auto key = internal::pkey_from_private(kind, priv);
  if (!key) return key.error();
  return internal::pkcs8_der(key->get());
}

Result<std::string> export_pkcs8_pem(Kind kind, byte_span priv) {
  auto der = export_pkcs8_der(kind, priv);
  if (!der) return der.error();
  return pem_armor("PRIVATE KEY", der->span());
}

Result<bytes> public_from_private(Kind kind, byte_span priv) {
  if (!is_signature(kind)) return Error{Errc::invalid_argument, std::string(kind_id(kind)) + " is not a signature suite"};
  auto derived = internal::derive_key(kind, priv);
  if (!derived) return derived.error();
  return std::move(derived->pub);
}

}  // namespace pqsig::classical
