// pqsig — hybrid KEMs built on ML-KEM-768 (FIPS 203) and X25519 (RFC 7748, via OpenSSL 3.0):
//  * X-Wing                     draft-connolly-cfrg-xwing-kem (-10/-11): SHA3-256 combiner with label
//  * X25519MLKEM768             draft-ietf-tls-ecdhe-mlkem: ss = ss_ML-KEM ‖ ss_X25519 (64 bytes)
//  * ml-kem-768+x25519-hkdf     pqsig settlement combiner v1 (docs/settlement-kem.md): HKDF-SHA256
//
// Byte layouts (all three share pk = ek_M(1184) ‖ pk_X(32) and ct = ct_M(1088) ‖ ct_X(32)):
//
// | kem                     | seed (private key)                 | eseed (derand encaps)   | ss |
// |-------------------------|------------------------------------|-------------------------|----|
// | x-wing                  | 32 bytes; SHAKE256(seed, 96) =     | m(32) ‖ ek_X(32)        | 32 |
// |                         |   d(32) ‖ z(32) ‖ sk_X(32)         |                         |    |
// | x25519-ml-kem-768       | d(32) ‖ z(32) ‖ sk_X(32) = 96      | m(32) ‖ ek_X(32)        | 64 |
// | ml-kem-768+x25519-hkdf  | d(32) ‖ z(32) ‖ sk_X(32) = 96      | m(32) ‖ ek_X(32)        | 32 |
//
// m is the ML-KEM-768 Encaps_internal randomness; ek_X the ephemeral X25519 private key,
// whose public key X25519(ek_X, 9) is ct_X. An all-zero X25519 shared secret is rejected
// with Errc::key_check_failed; ML-KEM input checks give the errors of pqsig/mlkem.hpp.
#pragma once

#include <cstddef>
#include <string_view>

#include "pqsig/common.hpp"
#include "pqsig/mlkem.hpp"

namespace pqsig::kem {

enum class Hybrid : int { x_wing, x25519_mlkem768, mlkem768_x25519_hkdf };

struct HybridSizes {
  std::size_t pk, seed, ct, ss, eseed;
};
const HybridSizes& sizes(Hybrid h) noexcept;
/// Registry id: "x-wing", "x25519-ml-kem-768", "ml-kem-768+x25519-hkdf".
std::string_view id(Hybrid h) noexcept;

/// The settlement combiner's suite identifier string, bound into every derived key.
constexpr std::string_view kSettlementSuiteId = "ml-kem-768+x25519-hkdf@v1";

/// A prepared decapsulation key: the seed, the public key and the expanded components
/// (ML-KEM-768 dk, X25519 private key). Move-only; secrets are wiped on destruction.
class HybridPrivateKey {
 public:
  /// From the seed (the canonical private key; see the layout table above).
  static Result<HybridPrivateKey> from_seed(Hybrid h, byte_span seed);
  /// Fresh seed from the OS random source.
  static Result<HybridPrivateKey> generate(Hybrid h);

  Hybrid kind() const noexcept { return kind_; }
  byte_span public_key() const noexcept { return pk_; }
  byte_span seed() const noexcept { return seed_.span(); }
  Result<SecretBytes> decaps(byte_span ct) const;

 private:
  HybridPrivateKey() = default;
  Hybrid kind_{};
  SecretBytes seed_;
  SecretBytes dk_m_;  // ML-KEM-768 expanded dk (hash-checked by construction)
  SecretBytes sk_x_;  // X25519 private key
  bytes pk_;
};

/// Public key check (lengths, ML-KEM §7.2 modulus check on ek_M).
Status check_public_key(Hybrid h, byte_span pk);
/// Encapsulation with OS randomness.
Result<mlkem::Encapsulated> encaps(Hybrid h, byte_span pk);
/// Deterministic encapsulation from the 64-byte eseed (tests / KATs).
Result<mlkem::Encapsulated> encaps_derand(Hybrid h, byte_span pk, byte_span eseed);

/// The settlement combiner (docs/settlement-kem.md, "Key derivation"): exposed for tests that
/// substitute single inputs. ct_x is the ephemeral X25519 public key.
Result<SecretBytes> settlement_combine(byte_span ss_m, byte_span ss_x, byte_span ct_m, byte_span ct_x,
                                       byte_span ek_m, byte_span pk_x);
/// The X-Wing combiner: SHA3-256(ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖ XWingLabel).
SecretBytes xwing_combine(byte_span ss_m, byte_span ss_x, byte_span ct_x, byte_span pk_x);

}  // namespace pqsig::kem
