// pqsig — ML-DSA (FIPS 204): ML-DSA-44 / ML-DSA-65 / ML-DSA-87.
//
// One implementation (src/mldsa/mldsa.cpp) instantiated per parameter set from the constexpr
// parameter structs below. This raw API writes into caller-provided buffers and never allocates
// on the heap on success paths (an Error carries a message string, so failures may allocate).
//
// Keys: the 32-byte seed ξ is the canonical private key; the expanded FIPS 204 secret key
// (skEncode) can be exported with keygen_internal() and imported (checked) with sk_check().
//
// Stack footprint (x86-64, g++ 12 -O3 Release; measured on a painted thread stack by
// tests/alloc_mldsa, which asserts every operation stays below 160 KiB; see docs/mldsa.md):
//              keygen    sign     verify
//   ML-DSA-44   52 KiB   66 KiB   46 KiB
//   ML-DSA-65   76 KiB   95 KiB   67 KiB
//   ML-DSA-87  114 KiB  139 KiB  102 KiB
// (dominated by the matrix Â, k·l KiB, kept on the stack for the whole operation).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "pqsig/common.hpp"
#include "pqsig/hash.hpp"

namespace pqsig::mldsa {

/// FIPS 204 §4, Table 1: the parameter sets. One constexpr struct per set.
struct Params {
  int level;         ///< 44, 65 or 87
  int k, l;          ///< matrix dimensions
  int eta;           ///< private key range η
  int tau;           ///< number of ±1 in the challenge c
  int beta;          ///< β = τ·η
  std::int32_t gamma1;  ///< y coefficient range γ1
  std::int32_t gamma2;  ///< low-order rounding range γ2
  int omega;         ///< max number of 1s in the hint h
  int lambda;        ///< collision strength of c̃ (bits)
  std::size_t pk_bytes, sk_bytes, sig_bytes;
};

inline constexpr std::int32_t kQ = 8380417;  ///< q = 2^23 − 2^13 + 1
inline constexpr int kD = 13;                ///< dropped bits from t

inline constexpr Params kMLDSA44{44, 4, 4, 2, 39, 78, 1 << 17, (kQ - 1) / 88, 80, 128, 1312, 2560, 2420};
inline constexpr Params kMLDSA65{65, 6, 5, 4, 49, 196, 1 << 19, (kQ - 1) / 32, 55, 192, 1952, 4032, 3309};
inline constexpr Params kMLDSA87{87, 8, 7, 2, 60, 120, 1 << 19, (kQ - 1) / 32, 75, 256, 2592, 4896, 4627};

enum class Level { ml_dsa_44 = 44, ml_dsa_65 = 65, ml_dsa_87 = 87 };

constexpr const Params& params(Level lv) noexcept {
  return lv == Level::ml_dsa_44 ? kMLDSA44 : lv == Level::ml_dsa_65 ? kMLDSA65 : kMLDSA87;
}
/// "ml-dsa-44" / "ML-DSA-44" (case-insensitive) → Level.
std::optional<Level> level_from_name(std::string_view name) noexcept;
std::string_view level_name(Level lv) noexcept;  ///< "ML-DSA-44" ...

inline constexpr std::size_t kSeedBytes = 32;   ///< ξ
inline constexpr std::size_t kRndBytes = 32;    ///< rnd of hedged signing
inline constexpr std::size_t kMuBytes = 64;     ///< μ
inline constexpr std::size_t kTrBytes = 64;     ///< tr = H(pk)
inline constexpr std::size_t kMaxContext = 255;
inline constexpr std::size_t kMaxPkBytes = kMLDSA87.pk_bytes;
inline constexpr std::size_t kMaxSkBytes = kMLDSA87.sk_bytes;
inline constexpr std::size_t kMaxSigBytes = kMLDSA87.sig_bytes;
/// FIPS 204 Appendix C: the signing loop may be bounded; 814 attempts is at least the minimum
/// Appendix C allows for every parameter set (failure probability < 2^-256). After the bound,
/// signing fails with Errc::internal.
inline constexpr int kMaxSignAttempts = 814;

/// How the external (pure / pre-hash) interface signs and verifies.
struct Options {
  byte_span ctx{};                         ///< context string, 0..255 bytes
  std::optional<hash::PreHash> prehash{};  ///< set → HashML-DSA (FIPS 204 Algorithms 4/5)
  bool deterministic = false;              ///< rnd = 0^32 (otherwise hedged: fresh OS randomness)
  const std::uint8_t* rnd = nullptr;       ///< explicit 32-byte rnd (tests / KATs); overrides the above
};

// ---- key generation
/// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(ξ) → (pk, sk). sk is the expanded encoding.
Status keygen_internal(Level lv, byte_span seed, mut_byte_span pk, mut_byte_span sk);
/// FIPS 204, Algorithm 1: ML-DSA.KeyGen with ξ from the OS random source (returned in seed_out).
Status keygen(Level lv, mut_byte_span seed_out, mut_byte_span pk, mut_byte_span sk);
/// Checks an expanded secret key (lengths, s1/s2 coefficients in [−η, η], t0 and tr consistent
/// with the public key recomputed from it) and writes that public key to pk.
Status sk_check(Level lv, byte_span sk, mut_byte_span pk);

// ---- external interface (FIPS 204 §5.2–§5.4)
/// FIPS 204, Algorithm 2 (ML-DSA.Sign) or Algorithm 4 (HashML-DSA.Sign) when opt.prehash is set.
Status sign(Level lv, byte_span sk, byte_span msg, mut_byte_span sig, const Options& opt = {});
/// FIPS 204, Algorithm 3 (ML-DSA.Verify) or Algorithm 5 (HashML-DSA.Verify).
/// Ok, Errc::verify_failed for a wrong signature, other codes for malformed input.
Status verify(Level lv, byte_span pk, byte_span msg, byte_span sig, const Options& opt = {});
/// External μ = H(H(pk) ‖ M′, 64) for the message as the external interface formats it
/// (pure or pre-hash, with context). Used for "external μ" signing.
Status external_mu(Level lv, byte_span pk, byte_span msg, mut_byte_span mu, const Options& opt = {});

// ---- internal interface (FIPS 204 §6)
/// FIPS 204, Algorithm 7: ML-DSA.Sign_internal(sk, M′, rnd).
Status sign_internal(Level lv, byte_span sk, byte_span mprime, byte_span rnd, mut_byte_span sig);
/// Algorithm 7 with μ supplied by the caller (external μ; line 6 skipped).
Status sign_mu(Level lv, byte_span sk, byte_span mu, byte_span rnd, mut_byte_span sig);
/// FIPS 204, Algorithm 8: ML-DSA.Verify_internal(pk, M′, σ).
Status verify_internal(Level lv, byte_span pk, byte_span mprime, byte_span sig);
/// Algorithm 8 with μ supplied by the caller.
Status verify_mu(Level lv, byte_span pk, byte_span mu, byte_span sig);

// ---- prepared keys (decode + ExpandA + NTTs once, for repeated use)
/// A secret key decoded and expanded once (Â, NTT(s1), NTT(s2), NTT(t0), K, tr). Creating one
/// allocates (k·l + l + 2k KiB); signing with it does not. Move-only, wiped on destruction.
class PreparedSigningKey {
 public:
  /// Decodes an expanded secret key (s1/s2 range checked; use sk_check for the full check).
  static Result<PreparedSigningKey> create(Level lv, byte_span sk);
  /// sk_check and create in one pass (one skDecode, one ExpandA): the full check of sk_check
  /// (same error), its recomputed public key written to pk, and the prepared key.
  static Result<PreparedSigningKey> create_checked(Level lv, byte_span sk, mut_byte_span pk);
  /// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(ξ) as mldsa::keygen_internal (same pk and sk
  /// bytes), returning the prepared key built from the same computation (Â expanded once).
  static Result<PreparedSigningKey> keygen_internal(Level lv, byte_span seed, mut_byte_span pk, mut_byte_span sk);
  PreparedSigningKey(PreparedSigningKey&&) noexcept = default;
  PreparedSigningKey& operator=(PreparedSigningKey&&) noexcept = default;
  PreparedSigningKey(const PreparedSigningKey&) = delete;
  PreparedSigningKey& operator=(const PreparedSigningKey&) = delete;
  ~PreparedSigningKey() = default;
  Level level() const noexcept { return lv_; }
  /// As mldsa::sign (FIPS 204 Algorithms 2 / 4), same bytes.
  Status sign(byte_span msg, mut_byte_span sig, const Options& opt = {}) const;
  /// As mldsa::sign_mu (Algorithm 7 with external μ).
  Status sign_mu(byte_span mu, byte_span rnd, mut_byte_span sig) const;

 private:
  using Holder = std::unique_ptr<void, void (*)(void*) noexcept>;
  PreparedSigningKey(Level lv, Holder st) noexcept : lv_(lv), st_(std::move(st)) {}
  Level lv_;
  Holder st_;
};

/// A public key decoded and expanded once (Â, NTT(t1·2^d), tr = H(pk)). Verifying with it does
/// not allocate.
class PreparedVerifyingKey {
 public:
  static Result<PreparedVerifyingKey> create(Level lv, byte_span pk);
  PreparedVerifyingKey(PreparedVerifyingKey&&) noexcept = default;
  PreparedVerifyingKey& operator=(PreparedVerifyingKey&&) noexcept = default;
  PreparedVerifyingKey(const PreparedVerifyingKey&) = delete;
  PreparedVerifyingKey& operator=(const PreparedVerifyingKey&) = delete;
  ~PreparedVerifyingKey() = default;
  Level level() const noexcept { return lv_; }
  /// As mldsa::verify (FIPS 204 Algorithms 3 / 5).
  Status verify(byte_span msg, byte_span sig, const Options& opt = {}) const;
  /// As mldsa::verify_mu (Algorithm 8 with external μ).
  Status verify_mu(byte_span mu, byte_span sig) const;

 private:
  using Holder = std::unique_ptr<void, void (*)(void*) noexcept>;
  PreparedVerifyingKey(Level lv, Holder st) noexcept : lv_(lv), st_(std::move(st)) {}
  Level lv_;
  Holder st_;
};

}  // namespace pqsig::mldsa
