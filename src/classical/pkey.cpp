// Classical keys as OpenSSL EVP_PKEYs: building them from the registry's raw forms and back.
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <sodium.h>

#include <cstring>
#include <mutex>
#include <string>

#include "classical/internal.hpp"
#include "classical/ossl_ptr.hpp"

namespace pqsig::classical::internal {

namespace {
const char* group_name(Kind k) { return k == Kind::ecdsa_p384 ? "secp384r1" : "prime256v1"; }
int curve_nid(Kind k) { return k == Kind::ecdsa_p384 ? NID_secp384r1 : NID_X9_62_prime256v1; }

Result<Pkey> fromdata(const char* type, OSSL_PARAM* params, int selection) {
  std::unique_ptr<EVP_PKEY_CTX, CtxFree> ctx(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
  if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1) return ossl_error("EVP_PKEY_fromdata_init");
  EVP_PKEY* out = nullptr;
  if (EVP_PKEY_fromdata(ctx.get(), &out, selection, params) != 1) return ossl_error("EVP_PKEY_fromdata");
  return Pkey(out);
}

// Fixed-width big-endian export of a BIGNUM (secret-safe padding).
bool bn_fixed(const BIGNUM* b, std::uint8_t* out, std::size_t len) {
  return BN_bn2binpad(b, out, static_cast<int>(len)) == static_cast<int>(len);
}

// EC public key (x, y) of an EC EVP_PKEY as the uncompressed point.
Result<bytes> ec_point(Kind k, EVP_PKEY* p) {
  BIGNUM* x = nullptr;
  BIGNUM* y = nullptr;
  if (EVP_PKEY_get_bn_param(p, OSSL_PKEY_PARAM_EC_PUB_X, &x) != 1 ||
      EVP_PKEY_get_bn_param(p, OSSL_PKEY_PARAM_EC_PUB_Y, &y) != 1) {
    BN_free(x);
    BN_free(y);
    return ossl_error("EC public key coordinates");
  }
  Bn bx(x), by(y);
  const std::size_t n = ec_len(k);
  bytes out(1 + 2 * n);
  out[0] = 0x04;
  if (!bn_fixed(bx.get(), out.data() + 1, n) || !bn_fixed(by.get(), out.data() + 1 + n, n))
    return Error{Errc::invalid_encoding, "EC coordinate too large"};
  return out;
}

Result<void> check_group(Kind k, EVP_PKEY* p) {
  char name[64] = {0};
  std::size_t len = 0;
  if (EVP_PKEY_get_utf8_string_param(p, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof name, &len) != 1)
    return ossl_error("EC group name");
  if (std::string_view(name, len) != group_name(k))
    return Error{Errc::invalid_argument, std::string("EC key is on curve ") + name + ", expected " + group_name(k)};
  return {};
}
}  // namespace

void ensure_init() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (sodium_init() < 0) {
      // libsodium could not initialise (no randomness); its functions will not be used.
    }
  });
}

Error ossl_error(std::string_view what) {
  std::string msg(what);
  unsigned long e;
  bool first = true;
  while ((e = ERR_get_error()) != 0) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    msg += first ? ": " : "; ";
    msg += buf;
    first = false;
  }
  return Error{Errc::crypto_backend, msg};
}

}  // namespace pqsig::classical::internal

namespace pqsig::classical {
namespace {
struct ClassicalKindRow {
  Kind kind;
  std::string_view id;
  std::string_view jose_alg;
};
constexpr ClassicalKindRow kClassicalKinds[] = {
    {Kind::ed25519, "ed25519", "EdDSA"},
    {Kind::ed448, "ed448", "Ed448"},
    {Kind::ecdsa_p256, "ecdsa-p256-sha256", "ES256"},
    {Kind::ecdsa_p384, "ecdsa-p384-sha384", "ES384"},
    {Kind::rsa_pss_sha512, "rsa-pss-sha512", "PS512"},
    {Kind::rsa_v15_sha256, "rsa-v1_5-sha256", "RS256"},
    {Kind::hmac_sha256, "hmac-sha256", "HS256"},
};
}  // namespace

std::string_view kind_id(Kind k) noexcept {
  for (const auto& r : kClassicalKinds)
    if (r.kind == k) return r.id;
  return "?";
}

std::string_view kind_jose_alg(Kind k) noexcept {
  for (const auto& r : kClassicalKinds)
    if (r.kind == k) return r.jose_alg;
  return {};
}

Result<Kind> kind_from_id(std::string_view id) {
  for (const auto& r : kClassicalKinds)
    if (r.id == id) return r.kind;
  return Error{Errc::unknown_suite, "not a classical suite: " + std::string(id)};
}
}  // namespace pqsig::classical

namespace pqsig::classical::internal {

Result<Pkey> pkey_from_private(Kind k, byte_span priv) {
  switch (k) {
    case Kind::ed25519:
    case Kind::ed448: {
      const std::size_t n = k == Kind::ed25519 ? 32 : 57;
      if (priv.size() != n)
        return Error{Errc::invalid_length, std::string(k == Kind::ed25519 ? "Ed25519" : "Ed448") +
                                               " private key must be " + std::to_string(n) + " bytes"};
      EVP_PKEY* p = EVP_PKEY_new_raw_private_key(k == Kind::ed25519 ? EVP_PKEY_ED25519 : EVP_PKEY_ED448, nullptr,
                                                 priv.data(), priv.size());
      if (!p) return ossl_error("EdDSA private key");
      return Pkey(p);
    }
    case Kind::ecdsa_p256:
    case Kind::ecdsa_p384: {
      const std::size_t n = ec_len(k);
      if (priv.size() != n)
        return Error{Errc::invalid_length, "ECDSA private scalar must be " + std::to_string(n) + " bytes"};
      std::unique_ptr<EC_GROUP, GroupFree> g(EC_GROUP_new_by_curve_name(curve_nid(k)));
      Bn d(BN_secure_new());
      if (!g || !d || !BN_bin2bn(priv.data(), static_cast<int>(n), d.get())) return ossl_error("EC scalar");
      // 1 <= d < order (SEC 1 §3.2.1); the range check on a secret is a validity check that
      // rejects only invalid keys, so its outcome may be public.
      if (BN_is_zero(d.get()) || BN_cmp(d.get(), EC_GROUP_get0_order(g.get())) >= 0)
        return Error{Errc::key_check_failed, "ECDSA private scalar out of range [1, n-1]"};
      std::unique_ptr<EC_POINT, PointFree> q(EC_POINT_new(g.get()));
      if (!q || EC_POINT_mul(g.get(), q.get(), d.get(), nullptr, nullptr, nullptr) != 1)
        return ossl_error("EC public point");
      unsigned char pub[97];
      std::size_t plen = EC_POINT_point2oct(g.get(), q.get(), POINT_CONVERSION_UNCOMPRESSED, pub, sizeof pub, nullptr);
      if (plen != 1 + 2 * n) return ossl_error("EC point encoding");
      std::unique_ptr<OSSL_PARAM_BLD, BldFree> bld(OSSL_PARAM_BLD_new());
      if (!bld || OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, group_name(k), 0) != 1 ||
          OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_PRIV_KEY, d.get()) != 1 ||
          OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, pub, plen) != 1)
        return ossl_error("EC params");
      std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld.get()));
      if (!params) return ossl_error("EC params");
      return fromdata("EC", params.get(), EVP_PKEY_KEYPAIR);
    }
    case Kind::rsa_pss_sha512:
    case Kind::rsa_v15_sha256: {
      if (priv.empty()) return Error{Errc::invalid_length, "empty RSA private key"};
      const unsigned char* in = priv.data();
      PKCS8_PRIV_KEY_INFO* p8 = d2i_PKCS8_PRIV_KEY_INFO(nullptr, &in, static_cast<long>(priv.size()));
      if (!p8) return Error{Errc::invalid_encoding, "RSA private key is not PKCS#8 DER"};
      std::unique_ptr<PKCS8_PRIV_KEY_INFO, P8Free> g8(p8);
      if (in != priv.data() + priv.size()) return Error{Errc::invalid_encoding, "trailing bytes after PKCS#8"};
      EVP_PKEY* p = EVP_PKCS82PKEY(p8);
      if (!p) return ossl_error("PKCS#8 RSA key");
      Pkey pk(p);
      const int id = EVP_PKEY_get_base_id(p);
      if (id != EVP_PKEY_RSA && id != EVP_PKEY_RSA_PSS) return Error{Errc::invalid_argument, "PKCS#8 key is not RSA"};
      const int bits = EVP_PKEY_get_bits(p);
      if (bits < 2048 || bits > 4096)
        return Error{Errc::invalid_argument, "RSA modulus must be 2048..4096 bits, got " + std::to_string(bits)};
      return pk;
    }
    case Kind::hmac_sha256:
      return Error{Errc::unsupported, "HMAC keys have no EVP_PKEY form here"};
  }
  return Error{Errc::internal, "unreachable"};
}

namespace {
// Verification cost of an RSA key grows with its public exponent (one modular squaring per bit)
// and modulus: a key is only loaded with a 2048..4096-bit modulus and an odd exponent
// 3 <= e < 2^32 (e = 65537 in practice), so a stranger's key cannot make a garbage label dear.
Status rsa_cost_bounds(EVP_PKEY* p) {
  const int bits = EVP_PKEY_get_bits(p);
  if (bits < 2048 || bits > 4096)
    return Error{Errc::invalid_argument, "RSA modulus must be 2048..4096 bits, got " + std::to_string(bits)};
  BIGNUM* e = nullptr;
  if (EVP_PKEY_get_bn_param(p, OSSL_PKEY_PARAM_RSA_E, &e) != 1 || !e) {
    ERR_clear_error();
    return Error{Errc::invalid_encoding, "RSA key without a public exponent"};
  }
  const int ebits = BN_num_bits(e);
  const bool odd = BN_is_odd(e) == 1;
  const bool small = BN_is_word(e, 1) == 1 || BN_is_zero(e) == 1;
  BN_free(e);
  if (!odd || small || ebits > 32)
    return Error{Errc::invalid_argument, "RSA public exponent must be odd, at least 3 and below 2^32"};
  return {};
}
}  // namespace

Result<Pkey> pkey_from_public(Kind k, byte_span pub) {
  switch (k) {
    case Kind::ed25519:
    case Kind::ed448: {
      const std::size_t n = k == Kind::ed25519 ? 32 : 57;
      if (pub.size() != n)
        return Error{Errc::invalid_length, std::string(k == Kind::ed25519 ? "Ed25519" : "Ed448") +
                                               " public key must be " + std::to_string(n) + " bytes"};
      EVP_PKEY* p = EVP_PKEY_new_raw_public_key(k == Kind::ed25519 ? EVP_PKEY_ED25519 : EVP_PKEY_ED448, nullptr,
                                                pub.data(), pub.size());
      if (!p) return ossl_error("EdDSA public key");
      return Pkey(p);
    }
    case Kind::ecdsa_p256:
    case Kind::ecdsa_p384: {
      const std::size_t n = ec_len(k);
      if (pub.size() != 1 + 2 * n || pub[0] != 0x04)
        return Error{Errc::invalid_encoding,
                     "ECDSA public key must be the " + std::to_string(1 + 2 * n) + "-byte uncompressed point 04||X||Y"};
      std::unique_ptr<OSSL_PARAM_BLD, BldFree> bld(OSSL_PARAM_BLD_new());
      if (!bld || OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, group_name(k), 0) != 1 ||
          OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, pub.data(), pub.size()) != 1)
        return ossl_error("EC params");
      std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld.get()));
      if (!params) return ossl_error("EC params");
      auto r = fromdata("EC", params.get(), EVP_PKEY_PUBLIC_KEY);
      if (!r) return Error{Errc::invalid_encoding, "ECDSA public key is not a valid curve point"};
      // Explicit public key check (point on curve, not infinity, in the prime-order group).
      std::unique_ptr<EVP_PKEY_CTX, CtxFree> c(EVP_PKEY_CTX_new_from_pkey(nullptr, r->get(), nullptr));
      if (!c || EVP_PKEY_public_check(c.get()) != 1) {
        ERR_clear_error();
        return Error{Errc::key_check_failed, "ECDSA public key failed the point check"};
      }
      return r;
    }
    case Kind::rsa_pss_sha512:
    case Kind::rsa_v15_sha256: {
      if (pub.empty()) return Error{Errc::invalid_length, "empty RSA public key"};
      const unsigned char* in = pub.data();
      EVP_PKEY* p = d2i_PUBKEY(nullptr, &in, static_cast<long>(pub.size()));
      if (!p) {
        ERR_clear_error();
        return Error{Errc::invalid_encoding, "RSA public key is not SubjectPublicKeyInfo DER"};
      }
      Pkey pk(p);
      if (in != pub.data() + pub.size()) return Error{Errc::invalid_encoding, "trailing bytes after SPKI"};
      const int id = EVP_PKEY_get_base_id(p);
      if (id != EVP_PKEY_RSA && id != EVP_PKEY_RSA_PSS) return Error{Errc::invalid_argument, "SPKI key is not RSA"};
      if (auto st = rsa_cost_bounds(p); !st) return st.error();
      return pk;
    }
    case Kind::hmac_sha256:
      return Error{Errc::unsupported, "HMAC has no public key"};
  }
  return Error{Errc::internal, "unreachable"};
}

namespace {
// Rebuild an RSA key (possibly of type RSA-PSS with restrictions) as a plain rsaEncryption key.
Result<Pkey> rsa_plain(EVP_PKEY* p, bool with_private) {
  static const char* const pub_names[] = {OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E};
  static const char* const priv_names[] = {OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
                                           OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
                                           OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
  std::unique_ptr<OSSL_PARAM_BLD, BldFree> bld(OSSL_PARAM_BLD_new());
  if (!bld) return ossl_error("param builder");
  std::vector<Bn> keep;
  for (const char* nm : pub_names) {
    BIGNUM* b = nullptr;
    if (EVP_PKEY_get_bn_param(p, nm, &b) != 1) return ossl_error("RSA public parameter");
    keep.emplace_back(b);
    if (OSSL_PARAM_BLD_push_BN(bld.get(), nm, b) != 1) return ossl_error("RSA params");
  }
  if (with_private) {
    for (const char* nm : priv_names) {
      BIGNUM* b = nullptr;
      if (EVP_PKEY_get_bn_param(p, nm, &b) != 1) {
        ERR_clear_error();
        if (nm == priv_names[0]) return Error{Errc::invalid_argument, "RSA key has no private exponent"};
        continue;  // CRT members are optional
      }
      keep.emplace_back(b);
      if (OSSL_PARAM_BLD_push_BN(bld.get(), nm, b) != 1) return ossl_error("RSA params");
    }
  }
  std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld.get()));
  if (!params) return ossl_error("RSA params");
  return fromdata("RSA", params.get(), with_private ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY);
}
}  // namespace

Result<bytes> raw_public(Kind k, EVP_PKEY* p) {
  switch (k) {
    case Kind::ed25519:
    case Kind::ed448: {
      std::size_t n = k == Kind::ed25519 ? 32 : 57;
      bytes out(n);
      if (EVP_PKEY_get_raw_public_key(p, out.data(), &n) != 1 || n != out.size()) return ossl_error("EdDSA public key");
      return out;
    }
    case Kind::ecdsa_p256:
    case Kind::ecdsa_p384: {
      auto g = check_group(k, p);
      if (!g) return g.error();
      return ec_point(k, p);
    }
    case Kind::rsa_pss_sha512:
    case Kind::rsa_v15_sha256: {
      Pkey plain;
      if (EVP_PKEY_get_base_id(p) == EVP_PKEY_RSA_PSS) {
        auto r = rsa_plain(p, false);
        if (!r) return r.error();
        plain = std::move(r.value());
        p = plain.get();
      }
      int len = i2d_PUBKEY(p, nullptr);
      if (len <= 0) return ossl_error("SPKI encoding");
      bytes out(static_cast<std::size_t>(len));
      unsigned char* w = out.data();
      if (i2d_PUBKEY(p, &w) != len) return ossl_error("SPKI encoding");
      return out;
    }
    case Kind::hmac_sha256:
      return Error{Errc::unsupported, "HMAC has no public key"};
  }
  return Error{Errc::internal, "unreachable"};
}

Result<SecretBytes> pkcs8_der(EVP_PKEY* p) {
  std::unique_ptr<PKCS8_PRIV_KEY_INFO, P8Free> p8(EVP_PKEY2PKCS8(p));
  if (!p8) return ossl_error("PKCS#8 encoding");
  int len = i2d_PKCS8_PRIV_KEY_INFO(p8.get(), nullptr);
  if (len <= 0) return ossl_error("PKCS#8 encoding");
  SecretBytes out(static_cast<std::size_t>(len));
  unsigned char* w = out.data();
  if (i2d_PKCS8_PRIV_KEY_INFO(p8.get(), &w) != len) return ossl_error("PKCS#8 encoding");
  return out;
}

Result<SecretBytes> raw_private(Kind k, EVP_PKEY* p) {
  switch (k) {
    case Kind::ed25519:
    case Kind::ed448: {
      std::size_t n = k == Kind::ed25519 ? 32 : 57;
      SecretBytes out(n);
      if (EVP_PKEY_get_raw_private_key(p, out.data(), &n) != 1 || n != out.size()) return ossl_error("EdDSA private key");
      return out;
    }
    case Kind::ecdsa_p256:
    case Kind::ecdsa_p384: {
      auto g = check_group(k, p);
      if (!g) return g.error();
      BIGNUM* d = nullptr;
      if (EVP_PKEY_get_bn_param(p, OSSL_PKEY_PARAM_PRIV_KEY, &d) != 1) return ossl_error("EC private scalar");
      Bn bd(d);
      SecretBytes out(ec_len(k));
      if (!bn_fixed(bd.get(), out.data(), out.size())) return Error{Errc::invalid_encoding, "EC scalar too large"};
      return out;
    }
    case Kind::rsa_pss_sha512:
    case Kind::rsa_v15_sha256: {
      auto plain = rsa_plain(p, true);
      if (!plain) return plain.error();
      return pkcs8_der(plain->get());
    }
    case Kind::hmac_sha256:
      return Error{Errc::unsupported, "HMAC keys have no EVP_PKEY form here"};
  }
  return Error{Errc::internal, "unreachable"};
}

bool pkey_has_private(EVP_PKEY* p) {
  const int id = EVP_PKEY_get_base_id(p);
  bool has = false;
  if (id == EVP_PKEY_ED25519 || id == EVP_PKEY_ED448) {
    std::size_t n = 0;
    has = EVP_PKEY_get_raw_private_key(p, nullptr, &n) == 1 && n > 0;
  } else if (id == EVP_PKEY_EC) {
    BIGNUM* d = nullptr;
    has = EVP_PKEY_get_bn_param(p, OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1;
    BN_clear_free(d);
  } else if (id == EVP_PKEY_RSA || id == EVP_PKEY_RSA_PSS) {
    BIGNUM* d = nullptr;
    has = EVP_PKEY_get_bn_param(p, OSSL_PKEY_PARAM_RSA_D, &d) == 1;
    BN_clear_free(d);
  }
  ERR_clear_error();
  return has;
}

Result<Kind> kind_of_pkey(EVP_PKEY* p, std::string_view hint) {
  Result<Kind> hinted = Error{Errc::internal, ""};
  if (!hint.empty()) {
    hinted = kind_from_id(hint);
    if (!hinted) return hinted.error();
  }
  Kind k;
  const int id = EVP_PKEY_get_base_id(p);
  if (id == EVP_PKEY_ED25519) {
    k = Kind::ed25519;
  } else if (id == EVP_PKEY_ED448) {
    k = Kind::ed448;
  } else if (id == EVP_PKEY_EC) {
    char name[64] = {0};
    std::size_t len = 0;
    if (EVP_PKEY_get_utf8_string_param(p, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof name, &len) != 1)
      return ossl_error("EC group name");
    std::string_view g(name, len);
    if (g == "prime256v1" || g == "P-256") k = Kind::ecdsa_p256;
    else if (g == "secp384r1" || g == "P-384") k = Kind::ecdsa_p384;
    else return Error{Errc::unsupported, "EC curve " + std::string(g) + " is not supported (P-256, P-384 only)"};
  } else if (id == EVP_PKEY_RSA_PSS) {
    k = Kind::rsa_pss_sha512;
    if (hinted.ok() && *hinted != Kind::rsa_pss_sha512)
      return Error{Errc::invalid_argument, "an RSA-PSS key cannot be used as " + std::string(hint)};
  } else if (id == EVP_PKEY_RSA) {
    if (!hinted.ok())
      return Error{Errc::invalid_argument, "RSA key: give the suite (rsa-pss-sha512 or rsa-v1_5-sha256)"};
    if (!is_rsa(*hinted)) return Error{Errc::invalid_argument, "an RSA key cannot be used as " + std::string(hint)};
    k = *hinted;
  } else {
    return Error{Errc::unsupported, "unsupported key type"};
  }
  if (hinted.ok() && *hinted != k)
    return Error{Errc::invalid_argument, "key type does not match suite " + std::string(hint)};
  return k;
}

Result<SecretBytes> generate_private(Kind k) {
  switch (k) {
    case Kind::ed25519:
    case Kind::ed448:
    case Kind::hmac_sha256: {
      SecretBytes s(k == Kind::ed448 ? 57 : 32);
      if (!random_bytes(s.mut_span())) return Error{Errc::rng_failure, "OS random source failed"};
      return s;
    }
    case Kind::ecdsa_p256:
    case Kind::ecdsa_p384: {
      EVP_PKEY* p = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", k == Kind::ecdsa_p384 ? "P-384" : "P-256");
      if (!p) return ossl_error("EC key generation");
      Pkey pk(p);
      return raw_private(k, p);
    }
    case Kind::rsa_pss_sha512:
    case Kind::rsa_v15_sha256:
      return generate_rsa_private(3072);
  }
  return Error{Errc::internal, "unreachable"};
}

// The same steps a classical signer / verifier of src/suites/classical_sign.cpp takes to load a
// key (OpenSSL path), without building one.
Result<DerivedKey> derive_key(Kind k, byte_span priv) {
  ensure_init();
  DerivedKey out;
  if (k == Kind::hmac_sha256) {
    if (priv.size() < 16 || priv.size() > 1024)
      return Error{Errc::invalid_length, "HMAC-SHA256 key must be 16..1024 bytes"};
    out.priv = SecretBytes(priv);
    return out;
  }
  auto key = pkey_from_private(k, priv);
  if (!key) return key.error();
  auto canon = raw_private(k, key->get());
  if (!canon) return canon.error();
  out.priv = std::move(canon.value());
  if (is_rsa(k) && EVP_PKEY_get_base_id(key->get()) != EVP_PKEY_RSA) {
    // Re-load from the canonical rsaEncryption form (drops RSA-PSS key restrictions).
    auto again = pkey_from_private(k, out.priv.span());
    if (!again) return again.error();
    key = std::move(again);
  }
  auto pub = raw_public(k, key->get());
  if (!pub) return pub.error();
  out.pub = std::move(pub.value());
  return out;
}

Status check_public(Kind k, byte_span pub) {
  ensure_init();
  if (k == Kind::hmac_sha256)
    return Error{Errc::unsupported, "hmac-sha256 is a MAC: verify with the SigningKey (shared secret)"};
  auto key = pkey_from_public(k, pub);
  if (!key) return key.error();
  if (is_rsa(k)) {
    auto canon = raw_public(k, key->get());  // canonical SPKI (rsaEncryption)
    if (!canon) return canon.error();
    if (EVP_PKEY_get_base_id(key->get()) != EVP_PKEY_RSA) {
      auto again = pkey_from_public(k, *canon);
      if (!again) return again.error();
    }
  }
  return {};
}

}  // namespace pqsig::classical::internal

namespace pqsig::classical {
Result<SecretBytes> generate_rsa_private(unsigned bits) {
  if (bits < 2048 || bits > 4096 || bits % 8 != 0)
    return Error{Errc::invalid_argument, "RSA key size must be 2048..4096 bits (multiple of 8)"};
  EVP_PKEY* p = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<std::size_t>(bits));
  if (!p) return internal::ossl_error("RSA key generation");
  internal::Pkey pk(p);
  return internal::raw_private(internal::Kind::rsa_v15_sha256, p);
}
}  // namespace pqsig::classical
