// pqsig — classical algorithms (OpenSSL 3.0 libcrypto / libsodium), their key forms and the
// helpers the JOSE and HTTP layers need: PEM/DER import and export, JWK members, ECDSA
// signature format conversion, HMAC-SHA256, and engine-specific Ed25519 keys for benchmarks.
//
// The suite API (pqsig/suite.hpp) is the way to sign and verify. The raw key forms of the
// classical suites (what SigningKey::from_private / VerifyingKey::from_public take) are:
//
//   suite               private (canonical)            public
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
#include <string>
#include <string_view>

#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::classical {

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

/// JWK members of a public key in the suite's raw form (see the table above).
Result<JwkMembers> jwk_members_public(const SuiteInfo& suite, byte_span pub);
/// JWK members of a private key in the suite's canonical form (public members included).
Result<JwkMembers> jwk_members_private(const SuiteInfo& suite, byte_span priv);
/// The suite's raw public key from JWK members (x/y, n/e). Validates the point / key.
Result<bytes> public_from_jwk_members(const SuiteInfo& suite, const JwkMembers& m);
/// The suite's canonical private key from JWK members (d, or RSA n/e/d/p/q/dp/dq/qi, or k).
/// When public members are present they must match the private key (else key_check_failed).
/// RSA: p/q/dp/dq/qi may be absent together (n, e, d only; slower signing), never partly.
Result<SecretBytes> private_from_jwk_members(const SuiteInfo& suite, const JwkMembers& m);

/// The classical suite for a JWK (kty/crv/alg): OKP Ed25519 → ed25519, OKP Ed448 → ed448,
/// EC P-256 → ecdsa-p256-sha256, EC P-384 → ecdsa-p384-sha384, RSA + alg PS512 → rsa-pss-sha512,
/// RSA + alg RS256 → rsa-v1_5-sha256, oct + HS256 → hmac-sha256. RSA/oct without alg →
/// Errc::invalid_argument (the caller must supply a suite hint).
Result<const SuiteInfo*> suite_for_jwk(std::string_view kty, std::string_view crv, std::string_view alg);

// ---------------------------------------------------------------- PEM / DER import & export

/// A key imported from PEM or DER, converted to the suite's raw forms.
struct ImportedKey {
  const SuiteInfo* suite = nullptr;
  bytes public_key;          ///< raw public form (always set for signature suites)
  SecretBytes private_key;   ///< canonical private form; empty for a public key
  bool has_private() const noexcept { return !private_key.empty(); }
};

/// Import a PEM document ("PUBLIC KEY" = SPKI, "PRIVATE KEY" = PKCS#8, "RSA PUBLIC KEY" /
/// "RSA PRIVATE KEY" = PKCS#1, "EC PRIVATE KEY" = SEC1). The suite is inferred from the key
/// type (Ed25519, Ed448, P-256, P-384, RSA-PSS → rsa-pss-sha512); plain RSA keys need
/// `suite_hint` ("rsa-pss-sha512" or "rsa-v1_5-sha256"). A hint that contradicts the key
/// type → Errc::invalid_argument. Encrypted PEM is refused (Errc::unsupported).
Result<ImportedKey> import_pem(std::string_view pem, std::string_view suite_hint = {});
/// Import DER: SPKI, PKCS#8, PKCS#1 (RSA public / private) or SEC1 (EC private), auto-detected.
Result<ImportedKey> import_der(byte_span der, std::string_view suite_hint = {});

/// SubjectPublicKeyInfo DER / PEM of a classical public key (raw form in).
Result<bytes> export_spki_der(const SuiteInfo& suite, byte_span pub);
Result<std::string> export_spki_pem(const SuiteInfo& suite, byte_span pub);
/// PKCS#8 (unencrypted) DER / PEM of a classical private key (canonical form in).
Result<SecretBytes> export_pkcs8_der(const SuiteInfo& suite, byte_span priv);
Result<std::string> export_pkcs8_pem(const SuiteInfo& suite, byte_span priv);

/// Derive the raw public key from a canonical private key (every signature suite here).
Result<bytes> public_from_private(const SuiteInfo& suite, byte_span priv);

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
/// engine is kept for the benchmark comparison and as a cross-check in the tests.
enum class Ed25519Engine { libsodium, openssl };
/// Suite-API keys bound to one engine (suite = ed25519; same key and signature encodings).
Result<SigningKey> ed25519_signing_key(byte_span seed32, Ed25519Engine engine);
Result<VerifyingKey> ed25519_verifying_key(byte_span pub32, Ed25519Engine engine);

}  // namespace pqsig::classical
