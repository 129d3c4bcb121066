// pqsig — JOSE: JWK / JWKS for every key type (OKP, EC, RSA, oct, AKP), RFC 7638 thumbprints,
// JWS compact serialization. Key files of the CLI are JWKs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::jose {

/// A key loaded from a JWK: its suite, its RFC 7638 thumbprint, and the key objects it yields
/// (a private JWK yields both the private object and the public one).
struct LoadedKey {
  const SuiteInfo* suite = nullptr;
  std::string kid;         ///< the JWK's "kid" member if present, else empty
  std::string thumbprint;  ///< RFC 7638 SHA-256 thumbprint, base64url
  std::optional<SigningKey> signing;      ///< signature / MAC suites, private JWK
  std::optional<VerifyingKey> verifying;  ///< signature suites (public part)
  std::optional<KemPrivateKey> kem_private;
  std::optional<KemPublicKey> kem_public;
};

/// JWK JSON for a key. `include_private` adds the private members (AKP "priv" = seed).
/// "kid" is set to the RFC 7638 thumbprint.
Result<std::string> to_jwk(const SigningKey& key, bool include_private);
Result<std::string> to_jwk(const VerifyingKey& key);
Result<std::string> to_jwk(const KemPrivateKey& key, bool include_private);
Result<std::string> to_jwk(const KemPublicKey& key);

/// Parse a JWK. The suite comes from "alg" (and "kty"/"crv"); `suite_hint` (a registry id)
/// resolves keys whose JWK does not name a single suite (e.g. RSA without "alg", oct).
Result<LoadedKey> load_jwk(std::string_view json, std::string_view suite_hint = {});
/// Parse a JWKS ({"keys":[...]}). Keys of unknown types are reported as errors by index.
Result<std::vector<LoadedKey>> load_jwks(std::string_view json);

/// RFC 7638 thumbprint (SHA-256, base64url) of a JWK given as JSON text.
Result<std::string> thumbprint(std::string_view jwk_json);

/// The RFC 7638 members of a JWK in canonical form (the SHA-256 input), e.g.
/// {"alg":"ML-DSA-44","kty":"AKP","pub":"..."}. Required members per kty: AKP alg,kty,pub
/// (draft-ietf-cose-dilithium); EC crv,kty,x,y; RSA e,kty,n; oct k,kty (RFC 7638 §3.2);
/// OKP crv,kty,x (RFC 8037 §2).
Result<std::string> thumbprint_input(std::string_view jwk_json);

/// The public JWK of a (private or public) JWK: private members removed, kid = thumbprint.
/// MAC (oct) keys have no public form → Errc::unsupported.
Result<std::string> public_jwk(std::string_view jwk_json, std::string_view suite_hint = {});
/// JWK JSON of a loaded key (private members when `include_private` and the key has them).
Result<std::string> to_jwk(const LoadedKey& key, bool include_private);
/// {"keys":[...]} from JWK JSON texts (each validated by load_jwk first).
Result<std::string> make_jwks(const std::vector<std::string>& jwks);

/// JWS compact serialization (RFC 7515 §7.1) with the suite's JOSE "alg"; protected header
/// {"alg":…[,"kid":…]}. ML-DSA is pure ML-DSA with an empty context (RFC 9964 / draft-ietf-cose-
/// dilithium §4); `deterministic` selects FIPS 204 deterministic signing (rnd = 0^32).
Result<std::string> jws_sign_compact(const SigningKey& key, byte_span payload, std::string_view kid = {},
                                     bool deterministic = false);
/// Verifies and returns the payload. The header's "alg" must equal the key's JOSE alg exactly
/// (no "none", no alg substitution); "crit" and "b64" are refused; strict base64url.
Result<bytes> jws_verify_compact(const VerifyingKey& key, std::string_view jws);
/// MAC suites (HS256): verify with the shared key.
Result<bytes> jws_verify_compact(const SigningKey& mac_key, std::string_view jws);
/// The decoded protected header of a compact JWS (no verification).
Result<std::string> jws_protected_header(std::string_view jws);

// ---------------------------------------------------------------- SPKI / PKCS#8
// SLH-DSA keys as RFC 9909 specifies (OIDs 2.16.840.1.101.3.4.3.20..31, pk and the 4n-byte SK raw)
// and ML-KEM keys as RFC 9935 does (seed / expandedKey / both, like ML-DSA; FIPS 203 §7.2/§7.3
// checks on import). ML-DSA keys in X.509 SubjectPublicKeyInfo and PKCS#8 OneAsymmetricKey form as RFC 9881
// (draft-ietf-lamps-dilithium-certificates) specifies: AlgorithmIdentifier = the NIST OID
// id-ml-dsa-44/65/87 (2.16.840.1.101.3.4.3.17/18/19) with parameters absent; the public key is
// the raw FIPS 204 pk in the BIT STRING; the private key is the seed-only CHOICE
// `seed [0] IMPLICIT OCTET STRING (SIZE (32))`. On import the `expandedKey` and `both` forms
// are accepted too (`both` is checked for consistency). Decoding is strict DER.

/// The registry suite for an AlgorithmIdentifier OID (dotted), or Errc::unknown_suite.
Result<const SuiteInfo*> suite_for_oid(std::string_view dotted_oid);
/// The OID (dotted) of a suite with an X.509 form, or Errc::unsupported.
Result<std::string> oid_for_suite(const SuiteInfo& suite);

Result<bytes> to_spki_der(const SuiteInfo& suite, byte_span public_key);
Result<bytes> to_pkcs8_der(const SigningKey& key);  ///< seed-only form
Result<std::string> to_spki_pem(const SuiteInfo& suite, byte_span public_key);  ///< "PUBLIC KEY"
Result<std::string> to_pkcs8_pem(const SigningKey& key);                        ///< "PRIVATE KEY"
/// ML-KEM private keys (RFC 9935): the seed-only CHOICE; a key imported from the expanded dk
/// alone has no seed to write (Errc::unsupported).
Result<bytes> to_pkcs8_der(const KemPrivateKey& key);
Result<std::string> to_pkcs8_pem(const KemPrivateKey& key);

/// Parse SPKI DER → a key with `verifying` set.
Result<LoadedKey> load_spki_der(byte_span der);
/// Parse PKCS#8 DER → a key with `signing` and `verifying` set.
Result<LoadedKey> load_pkcs8_der(byte_span der);
/// PEM "PUBLIC KEY" or "PRIVATE KEY".
Result<LoadedKey> load_pem(std::string_view pem);

/// Any key file the CLI accepts: a JWK (text starting with '{'), or PEM.
Result<LoadedKey> load_key_text(std::string_view text, std::string_view suite_hint = {});

}  // namespace pqsig::jose
