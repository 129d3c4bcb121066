// Internal to src/classical and src/suites: OpenSSL/libsodium plumbing shared by the classical
// suite backend (src/suites/classical_sign.cpp), the composite backend and the key import/export
// helpers. Primitives only: the suite adapters (SignerImpl / VerifierImpl) live in src/suites/.
#pragma once

#include <openssl/evp.h>

#include <memory>
#include <string_view>

#include "pqsig/classical.hpp"
#include "pqsig/common.hpp"
#include "pqsig/hash.hpp"

namespace pqsig::classical::internal {

using Kind = classical::Kind;

inline bool is_ecdsa(Kind k) { return k == Kind::ecdsa_p256 || k == Kind::ecdsa_p384; }
inline bool is_rsa(Kind k) { return k == Kind::rsa_pss_sha512 || k == Kind::rsa_v15_sha256; }
/// ECDSA scalar / coordinate length (32 or 48).
inline std::size_t ec_len(Kind k) { return k == Kind::ecdsa_p384 ? 48 : 32; }

struct PkeyFree {
  void operator()(EVP_PKEY* p) const noexcept { EVP_PKEY_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

/// An OpenSSL failure as a typed error (drains the OpenSSL error queue into the message).
Error ossl_error(std::string_view what);

/// EVP_PKEY from the suite's raw private / public form (validated).
Result<Pkey> pkey_from_private(Kind k, byte_span priv);
Result<Pkey> pkey_from_public(Kind k, byte_span pub);
/// The suite's raw forms of an EVP_PKEY of the right type.
Result<bytes> raw_public(Kind k, EVP_PKEY* p);
Result<SecretBytes> raw_private(Kind k, EVP_PKEY* p);
/// The PKCS#8 PrivateKeyInfo DER (RFC 5208) of an EVP_PKEY holding a private key.
Result<SecretBytes> pkcs8_der(EVP_PKEY* p);
/// Which kind an EVP_PKEY can be (RSA needs the hint; RSA-PSS keys → rsa_pss_sha512).
Result<Kind> kind_of_pkey(EVP_PKEY* p, std::string_view suite_hint);
bool pkey_has_private(EVP_PKEY* p);

/// Fresh canonical private key for a classical kind.
Result<SecretBytes> generate_private(Kind k);

/// A private key re-derived from the suite's canonical private form (validated on the way): its
/// canonical form again and its raw public key (hmac-sha256: the key itself, no public key).
struct DerivedKey {
  SecretBytes priv;
  bytes pub;
};
Result<DerivedKey> derive_key(Kind k, byte_span priv);
/// Validates a raw public key (hmac-sha256: Errc::unsupported, a MAC has no public key).
Status check_public(Kind k, byte_span pub);

/// RFC 2104 / FIPS 198-1 HMAC-SHA256 with the padded key states prepared once.
struct HmacState {
  hash::Sha256 inner, outer;
  void init(byte_span key) noexcept;
  void tag(byte_span msg, std::uint8_t out[32]) const noexcept;
};

/// One-time library initialisation (libsodium); idempotent, thread-safe.
void ensure_init();

}  // namespace pqsig::classical::internal
