// pqsig — JOSE: JWK / JWKS for every key type (OKP, EC, RSA, oct, AKP), RFC 7638 thumbprints,
// JWS compact serialization. Key files of the CLI are JWKs.
#pragma once

#include <cstdint>
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

// ---------------------------------------------------------------- stateful hash-based keys
// HSS/LMS (RFC 8554) and XMSS / XMSS^MT (RFC 8391) public keys are not registry suites here:
// they are verify-only key forms (signing goes through lms::StatefulSigner / xmss::StatefulSigner,
// never through a stateless SigningKey).
//  - X.509 SPKI, RFC 9802 §3 and §4 (HSS also RFC 9708 §4, which obsoletes RFC 8708):
//    id-alg-hss-lms-hashsig 1.2.840.113549.1.9.16.3.17, id-alg-xmss-hashsig 1.3.6.1.5.5.7.6.34,
//    id-alg-xmssmt-hashsig 1.3.6.1.5.5.7.6.35; parameters absent; the subjectPublicKey BIT STRING
//    holds the raw RFC 8554 §6.1 / RFC 8391 Appendix B.3 / C.3 public key ("no ASN.1 wrapping").
//  - COSE_Key, RFC 8778 §4 (HSS-LMS only; no COSE form for XMSS is published): kty HSS-LMS (5),
//    key type parameter pub (-1, bstr: the RFC 8554 HSS public key), optional alg HSS-LMS (-46),
//    optional kid (2, bstr). Strict deterministic CBOR (RFC 8949 §4.2.1), nothing else accepted.
//  - JWK: no JOSE registration exists for HSS-LMS or XMSS (RFC 8778 is COSE only). pqsig uses
//    the AKP key type of draft-ietf-cose-dilithium with its own alg names, documented as ours:
//    {"kty":"AKP","alg":"HSS-LMS"|"XMSS"|"XMSSMT","pub":base64url(raw public key)}; the RFC 7638
//    thumbprint is over alg, kty, pub like every AKP key.
enum class HbsKind : std::uint8_t { hss, xmss, xmssmt };
std::string_view hbs_kind_name(HbsKind k) noexcept;  ///< "HSS-LMS", "XMSS", "XMSSMT" (our JWK alg)

inline constexpr std::string_view kOidHssLmsHashsig = "1.2.840.113549.1.9.16.3.17";
inline constexpr std::string_view kOidXmssHashsig = "1.3.6.1.5.5.7.6.34";
inline constexpr std::string_view kOidXmssMtHashsig = "1.3.6.1.5.5.7.6.35";
inline constexpr std::int64_t kCoseKtyHssLms = 5;   ///< RFC 8778 §4
inline constexpr std::int64_t kCoseAlgHssLms = -46; ///< RFC 8778 §3

struct HbsPublicKey {
  HbsKind kind = HbsKind::hss;
  bytes key;  ///< the raw public key: HSS u32str(L) || LMS public key; XMSS u32str(oid) || root || SEED
};

/// Structure check of a raw public key: HSS — L in 1..8, known LMS and LM-OTS typecodes of one
/// hash and length, exact length; XMSS / XMSS^MT — a known OID and exact length.
/// Errc::invalid_length / unknown_suite / invalid_encoding.
Status check_hbs_public_key(const HbsPublicKey& k);
/// Verifies a signature with the key (lms::hss_verify, xmss::xmss_verify / xmssmt_verify).
Status hbs_verify(const HbsPublicKey& k, byte_span message, byte_span signature);
/// Signature length a key's signatures have (HSS: every level like the top one, as pqsig signs;
/// XMSS: fixed by the OID). 0 when the key does not pass check_hbs_public_key.
std::size_t hbs_signature_bytes(const HbsPublicKey& k) noexcept;

Result<bytes> hbs_to_spki_der(const HbsPublicKey& k);
Result<std::string> hbs_to_spki_pem(const HbsPublicKey& k);  ///< "PUBLIC KEY"
/// Strict: one SEQUENCE, AlgorithmIdentifier with one of the three OIDs and no parameters, a BIT
/// STRING with zero unused bits, nothing after; the key must pass check_hbs_public_key.
/// Errc::unknown_suite for another OID.
Result<HbsPublicKey> hbs_from_spki_der(byte_span der);
Result<HbsPublicKey> hbs_from_spki_pem(std::string_view pem);

/// Our JWK (see above), kid = RFC 7638 thumbprint.
Result<std::string> hbs_to_jwk(const HbsPublicKey& k);
/// Parses our JWK through the strict JSON reader: kty AKP, alg one of the three names, pub (a
/// key passing check_hbs_public_key), "kid" a string when present, "use" "sig" when present;
/// private members ("priv", "d") are refused (a stateful private key never travels as a JWK);
/// other members are ignored (RFC 7517 §4). `thumbprint` receives the RFC 7638 thumbprint,
/// `kid` the "kid" member (empty when absent).
Result<HbsPublicKey> hbs_from_jwk(std::string_view json, std::string* thumbprint = nullptr, std::string* kid = nullptr);
/// True when a JWK text names one of our three HBS alg values (cheap pre-check for key sets).
bool is_hbs_jwk(std::string_view json);

/// RFC 8778 COSE_Key of an HSS public key: {1: 5, 3: -46, -1: pub} (+ 2: kid when given),
/// deterministic CBOR.
Result<bytes> hss_to_cose_key(byte_span hss_public_key, byte_span kid = {});
/// Strict parse of such a COSE_Key: a definite-length map of unique integer labels in
/// deterministic order, kty = 5, pub present and a valid HSS key, alg (if present) = -46, kid (if
/// present) a bstr, key_ops (4) an array of ints; any other label or a private parameter is
/// refused. `kid` receives the kid when present.
Result<bytes> hss_from_cose_key(byte_span cbor, bytes* kid = nullptr);

}  // namespace pqsig::jose
