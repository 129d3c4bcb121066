// pqsig — composite ML-DSA signatures (draft-ietf-lamps-pq-composite-sigs-19):
//   MLDSA44-Ed25519-SHA512   = "ml-dsa-44+ed25519"
//   MLDSA65-Ed25519-SHA512   = "ml-dsa-65+ed25519"
//   MLDSA44-ECDSA-P256-SHA256 = "ml-dsa-44+ecdsa-p256"
//   MLDSA65-ECDSA-P256-SHA512 = "ml-dsa-65+ecdsa-p256"
//   MLDSA87-Ed448-SHAKE256   = "ml-dsa-87+ed448"
// Sign/verify through the suite API (SigningKey / VerifyingKey); SignOptions::ctx is the
// composite's application context (0..255 bytes). Encodings (exactly the draft's):
//   pk  = ML-DSA pk || trad pk       (Ed25519/Ed448 raw A; ECDSA uncompressed point 04||X||Y)
//   sk  = ML-DSA seed (32) || trad sk (Ed25519/Ed448 seed; ECDSA ECPrivateKey DER, RFC 5915,
//                                      with the curve parameters and without the public key)
//   sig = ML-DSA sig || trad sig     (EdDSA raw; ECDSA Ecdsa-Sig-Value DER, RFC 3279)
// Message representative: M' = Prefix || Label || len(ctx) || ctx || PH(M); the ML-DSA
// component signs M' with ctx = Label, the traditional component signs M'.
#pragma once

#include <string>
#include <string_view>

#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::composite {

/// "CompositeAlgorithmSignatures2025" (32 bytes), draft §2.2 / §3.2.
inline constexpr std::string_view kPrefix = "CompositeAlgorithmSignatures2025";

/// The parameters of one composite suite.
struct CompositeInfo {
  std::string_view suite_id;   ///< registry id, e.g. "ml-dsa-65+ed25519"
  std::string_view name;       ///< draft name, e.g. "MLDSA65-Ed25519-SHA512"
  std::string_view label;      ///< e.g. "COMPSIG-MLDSA65-Ed25519-SHA512"
  std::string_view mldsa_id;   ///< "ml-dsa-44" | "ml-dsa-65" | "ml-dsa-87"
  std::string_view trad_id;    ///< "ed25519" | "ed448" | "ecdsa-p256-sha256"
  std::string_view prehash;    ///< "SHA-256" | "SHA-512" | "SHAKE256/512"
};

/// Composite parameters of a registry suite; Errc::unknown_suite if not a composite.
Result<const CompositeInfo*> composite_info(const SuiteInfo& suite);

/// The message representative M' (draft §3.2) for a composite suite.
Result<bytes> message_representative(const SuiteInfo& suite, byte_span msg, byte_span ctx);

/// An application context that binds purpose and suite: "pqsig/v1/<purpose>/<suite id>".
/// Use it as SignOptions::ctx so a signature made for one purpose (e.g. "settlement") never
/// verifies under another ("governance") or another suite. Purpose: 1..64 chars [a-z0-9._-].
Result<bytes> application_context(std::string_view purpose, const SuiteInfo& suite);

/// Split a composite public key / signature into its components (no cryptographic checks).
struct Parts {
  byte_span mldsa;
  byte_span trad;
};
Result<Parts> split_public_key(const SuiteInfo& suite, byte_span pk);
Result<Parts> split_signature(const SuiteInfo& suite, byte_span sig);

}  // namespace pqsig::composite
