// pqsig — classical algorithms (OpenSSL 3.0 libcrypto / libsodium), their key forms and the
// helpers the JOSE and HTTP layers need: PEM/DER import and export, JWK members, ECDSA
// signature format conversion, HMAC-SHA256. A primitive layer: keyed by classical::Kind, it knows
// no suite. The suite-level wrappers (SuiteInfo in, registry rows out) and the engine-specific
// Ed25519 keys are in pqsig/classical_suites.hpp.
//
// The suite API (pqsig/suite.hpp) is the way to sign and verify. The raw key forms of the
// classical kinds (what SigningKey::from_private / VerifyingKey::from_public take for their
// suites, whose registry ids are kind_id(k)) are:
//
//   kind / suite        private (canonical)            public
//   ed25519             32-byte seed (RFC 8032)        32-byte A
//   ed448               57-byte seed (RFC 8032)        57-byte A
//   ecdsa-p256-sha256   32-byte scalar d (big-endian)  65-byte uncompressed point 04||X||Y
//   ecdsa-p384-sha384   48-byte scalar d               97-byte uncompressed point
//   rsa-pss-sha512      PKCS#8 DER (rsaEncryption)     SubjectPublicKeyInfo DER (rsaEncryption)
//   rsa-v1_5-sha256     PKCS#8 DER (rsaEncryption)     SubjectPublicKeyInfo DER (rsaEncryption)
//   hmac-sha256         the shared secret (16..1024 B) none (MAC: SigningKey::verify)
//
// Signatures: Ed25519 64 B, Ed448 114 B, ECDSA raw r||s (64 / 96 B, RFC 9421 §3.3.4/§3.3.5),
// RSA = modulus length, HMAC tag 32 B.
// This header never includes OpenSSL or libsodium.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "pqsig/common.hpp"

namespace pqsig::classical {

/// The classical algorithms of the registry (SuiteInfo::params.classical of their suites).
enum class Kind : std::uint8_t { ed25519, ed448, ecdsa_p256, ecdsa_p384, rsa_pss_sha512, rsa_v15_sha256, hmac_sha256 };
/// "ed25519", "ed448", "ecdsa-p256-sha256", "ecdsa-p384-sha384", "rsa-pss-sha512",
/// "rsa-v1_5-sha256", "hmac-sha256" (the registry ids of their suites).
std::string_view kind_id(Kind k) noexcept;
/// The inverse of kind_id; anything else → Errc::unknown_suite.
Result<Kind> kind_from_id(std::string_view id);
/// The JOSE "alg" of a kind (EdDSA, Ed448, ES256, ES384, PS512, RS256, HS256).
std::string_view kind_jose_alg(Kind k) noexcept;
/// Signature kinds (everything but hmac-sha256).
inline bool is_signature(Kind k) noexcept { return k != Kind::hmac_sha256; }

// ---------------------------------------------------------------- JWK members

/// The members of a classical key as a JWK carries them (RFC 7518 §6, RFC 8037 §2), as raw
/// unsigned big-endian bytes (before base64url). Move-only (private members are secrets).
///   OKP: crv ("Ed25519"/"Ed448"), x, d
///   EC : crv ("P-256"/"P-384"), x, y (fixed width: 32 / 48 bytes), d (fixed width)
///   RSA: n, e (no leading zero bytes), d, p, q, dp, dq, qi
///   oct: k
/// Private members are empty for a public key.
struct JwkMembers {
  std::string kty;  ///< "OKP" | "EC" | "RSA" | "oct"
  std::string crv;  ///< "Ed25519" | "Ed448" | "P-256" | "P-384"; empty for RSA / oct
  bytes x, y;       ///< OKP x; EC x, y
  bytes n, e;       ///< RSA
  SecretBytes d;    ///< OKP / EC / RSA private exponent or scalar
  SecretBytes p, q, dp, dq, qi;  ///< RSA CRT members
  SecretBytes k;    ///< oct

  bool has_private() const noexcept { return !d.empty() || !k.empty(); }
};

/// JWK members of a public key in the kind's raw form (see the table above).
Result<JwkMembers> jwk_members_public(Kind kind, byte_span pub);
/// JWK members of a private key in the kind's canonical form (public members included).
Result<JwkMembers> jwk_members_private(Kind kind, byte_span priv);
/// The kind's raw public key from JWK members (x/y, n/e). Validates the point / key.
Result<bytes> public_from_jwk_members(Kind kind, const JwkMembers& m);
/// The kind's canonical private key from JWK members (d, or RSA n/e/d/p/q/dp/dq/qi, or k).
/// When public members are present they must match the private key (else key_check_failed).
/// RSA: p/q/dp/dq/qi may be absent together (n, e, d only; slower signing), never partly.
Result<SecretBytes> private_from_jwk_members(Kind kind, const JwkMembers& m);

/// The classical kind for a JWK (kty/crv/alg): OKP Ed25519 → ed25519, OKP Ed448 → ed448,
/// EC P-256 → ecdsa-p256-sha256, EC P-384 → ecdsa-p384-sha384, RSA + alg PS512 → rsa-pss-sha512,
/// RSA + alg RS256 → rsa-v1_5-sha256, oct + HS256 → hmac-sha256. RSA/oct without alg →
/// Errc::invalid_argument (the caller must supply a suite hint).
Result<Kind> kind_for_jwk(std::string_view kty, std::string_view crv, std::string_view alg);

// ---------------------------------------------------------------- PEM / DER import & export

/// A key imported from PEM or DER, converted to its kind's raw forms.
struct RawKey {
  Kind kind{};
  bytes public_key;          ///< raw public form (always set for signature kinds)
  SecretBytes private_key;   ///< canonical private form; empty for a public key
  bool has_private() const noexcept { return !private_key.empty(); }
};

/// Import a PEM document ("PUBLIC KEY" = SPKI, "PRIVATE KEY" = PKCS#8, "RSA PUBLIC KEY" /
/// "RSA PRIVATE KEY" = PKCS#1, "EC PRIVATE KEY" = SEC1). The kind is inferred from the key
/// type (Ed25519, Ed448, P-256, P-384, RSA-PSS → rsa-pss-sha512); plain RSA keys need
/// `kind_hint` (a kind_id: "rsa-pss-sha512" or "rsa-v1_5-sha256"). A hint that contradicts the
/// key type → Errc::invalid_argument. Encrypted PEM is refused (Errc::unsupported).
Result<RawKey> import_pem_raw(std::string_view pem, std::string_view kind_hint = {});
/// Import DER: SPKI, PKCS#8, PKCS#1 (RSA public / private) or SEC1 (EC private), auto-detected.
Result<RawKey> import_der_raw(byte_span der, std::string_view kind_hint = {});

/// SubjectPublicKeyInfo DER / PEM of a classical public key (raw form in).
Result<bytes> export_spki_der(Kind kind, byte_span pub);
Result<std::string> export_spki_pem(Kind kind, byte_span pub);
/// PKCS#8 (unencrypted) DER / PEM of a classical private key (canonical form in).
Result<SecretBytes> export_pkcs8_der(Kind kind, byte_span priv);
Result<std::string> export_pkcs8_pem(Kind kind, byte_span priv);

/// Derive the raw public key from a canonical private key (every signature kind).
Result<bytes> public_from_private(Kind kind, byte_span priv);

/// Fresh RSA private key (PKCS#8 DER) of `bits` (2048..4096), e = 65537.
/// SigningKey::generate uses 3072 bits for the RSA suites.
Result<SecretBytes> generate_rsa_private(unsigned bits);

// ---------------------------------------------------------------- ECDSA signature formats

/// ECDSA-Sig-Value DER (RFC 3279 §2.2.3) → raw r||s, each left-padded to `scalar_len`
/// (32 for P-256, 48 for P-384). Strict DER (minimal INTEGERs, no trailing bytes).
Result<bytes> ecdsa_der_to_raw(byte_span der, std::size_t scalar_len);
/// raw r||s (even length) → ECDSA-Sig-Value DER (minimal INTEGERs).
Result<bytes> ecdsa_raw_to_der(byte_span raw);

// ---------------------------------------------------------------- HMAC

/// HMAC-SHA256 (RFC 2104 / FIPS 198-1), any key length. One-shot.
std::array<std::uint8_t, 32> hmac_sha256(byte_span key, byte_span msg) noexcept;

// ---------------------------------------------------------------- Ed25519 engines

/// Which library computes Ed25519. The ed25519 suite uses libsodium (faster); the OpenSSL EVP
/// engine is kept for the benchmark comparison and as a cross-check in the tests
/// (ed25519_signing_key / ed25519_verifying_key in pqsig/classical_suites.hpp).
enum class Ed25519Engine { libsodium, openssl };

}  // namespace pqsig::classical
