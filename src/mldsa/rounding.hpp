// ML-DSA rounding and hints (FIPS 204 §7.4, Algorithms 35–40). Internal header (tests use it).
// Decompose avoids division: r1 is computed with the multiply-shift trick (exact for every r in
// [0, q), checked exhaustively by tests/mldsa), so secret inputs take constant time.
#pragma once

#include <cstdint>

#include "mldsa/poly.hpp"

namespace pqsig::mldsa::detail {

/// FIPS 204, Algorithm 35: Power2Round(r) for r in [0, q): r = r1·2^d + r0, r0 in (−2^12, 2^12].
inline void Power2Round(std::int32_t r, std::int32_t& r1, std::int32_t& r0) noexcept {
  r1 = (r + (1 << (kD - 1)) - 1) >> kD;
  r0 = r - (r1 << kD);
}

template <std::int32_t G2>
struct Rounding {
  static_assert(G2 == (kQ - 1) / 88 || G2 == (kQ - 1) / 32);
  static constexpr std::int32_t kM = (kQ - 1) / (2 * G2);  ///< number of high-bit values (44 or 16)

  /// FIPS 204, Algorithm 36: Decompose(r) for r in [0, q): r ≡ r1·2γ2 + r0, r0 in (−γ2, γ2],
  /// with the r − r0 = q − 1 case mapped to r1 = 0, r0 − 1. Constant time, no division.
  static void Decompose(std::int32_t r, std::int32_t& r1, std::int32_t& r0) noexcept {
    std::int32_t a1 = (r + 127) >> 7;  // ⌈r / 128⌉; 2γ2 is a multiple of 128
    if constexpr (G2 == (kQ - 1) / 32) {
      // 2γ2/128 = 4092; 1025/2^22 ≈ 1/4092: a1 = round(r / 2γ2), and 16 wraps to 0.
      a1 = (a1 * 1025 + (1 << 21)) >> 22;
      a1 &= 15;
    } else {
      // 2γ2/128 = 1488; 11275/2^24 ≈ 1/1488: a1 = round(r / 2γ2); 44 maps to 0.
      a1 = (a1 * 11275 + (1 << 23)) >> 24;
      a1 ^= ((43 - a1) >> 31) & a1;
    }
    std::int32_t a0 = r - a1 * 2 * G2;
    a0 -= (((kQ - 1) / 2 - a0) >> 31) & kQ;  // r0 in (−(q−1)/2, (q−1)/2]
    r1 = a1;
    r0 = a0;
  }
  /// FIPS 204, Algorithm 37: HighBits(r).
  static std::int32_t HighBits(std::int32_t r) noexcept {
    std::int32_t r1, r0;
    Decompose(r, r1, r0);
    return r1;
  }
  /// FIPS 204, Algorithm 38: LowBits(r).
  static std::int32_t LowBits(std::int32_t r) noexcept {
    std::int32_t r1, r0;
    Decompose(r, r1, r0);
    return r0;
  }
  /// FIPS 204, Algorithm 39: MakeHint(z, r) = [HighBits(r) ≠ HighBits(r + z)]; arguments given
  /// as the two values r and r + z, both in [0, q). Returns 0 or 1, constant time.
  static std::uint32_t MakeHint(std::int32_t r, std::int32_t r_plus_z) noexcept {
    const std::uint32_t d = static_cast<std::uint32_t>(HighBits(r) ^ HighBits(r_plus_z));
    return (d | (0u - d)) >> 31;
  }
  /// FIPS 204, Algorithm 40: UseHint(h, r) for r in [0, q) (public data: verification only).
  static std::int32_t UseHint(std::uint32_t h, std::int32_t r) noexcept {
    std::int32_t r1, r0;
    Decompose(r, r1, r0);
    if (h == 0) return r1;
    if (r0 > 0) return r1 == kM - 1 ? 0 : r1 + 1;
    return r1 == 0 ? kM - 1 : r1 - 1;
  }
};

/// Exact centered representative r mod± q in (−(q−1)/2, (q−1)/2] of any |a| < 2^31 − 2^22.
inline std::int32_t center(std::int32_t a) noexcept {
  const std::int32_t f = freeze(a);
  return f - ((((Q - 1) / 2) - f) >> 31 & Q);
}
/// 1 if |a| ≥ bound else 0 (a centered), constant time.
inline std::uint32_t abs_ge(std::int32_t a, std::int32_t bound) noexcept {
  const std::int32_t m = a >> 31;
  const std::int32_t abs = (a ^ m) - m;
  return static_cast<std::uint32_t>(bound - 1 - abs) >> 31;
}

/// The per-coefficient steps of Sign (FIPS 204 Algorithm 7 lines 12, 22–28) and Verify
/// (Algorithm 8 line 10) over whole polynomials, one table per γ2. The scalar reference is
/// round_backend_scalar<G2>(); an AVX2 table sits beside it (same results bit for bit, tested in
/// tests/mldsa). Every function is constant time; the returned reject bits and hint counts are
/// declassified by the caller.
struct RoundBackend {
  const char* name;
  /// w ← w mod q in [0, q) (w = NTT^-1 output, |w| < q); w1 ← HighBits(w) (Algorithm 37).
  void (*caddq_highbits)(std::int32_t w[kN], std::int32_t w1[kN]) noexcept;
  /// z ← (y + z) mod± q; returns 1 if some |z| ≥ bound, else 0 (Algorithm 7 lines 22, 24).
  std::uint32_t (*z_finish)(std::int32_t z[kN], const std::int32_t y[kN], std::int32_t bound) noexcept;
  /// r ← (w − r) mod q in [0, q); returns 1 if some |LowBits(r)| ≥ bound (Algorithm 7 lines 23, 24).
  std::uint32_t (*r_finish)(std::int32_t r[kN], const std::int32_t w[kN], std::int32_t bound) noexcept;
  /// ct0 ← ct0 mod± q; h ← MakeHint(−ct0, r + ct0) (Algorithm 39, Algorithm 7 line 26);
  /// *reject |= 1 if some |ct0| ≥ γ2. Returns the number of hints set.
  std::uint32_t (*make_hints)(std::int32_t h[kN], std::int32_t ct0[kN], const std::int32_t r[kN],
                              std::uint32_t* reject) noexcept;
  /// w ← UseHint(h, w mod q) (Algorithm 40; w = NTT^-1 output, |w| < q; h in {0, 1}).
  void (*use_hint)(std::int32_t w[kN], const std::int32_t h[kN]) noexcept;
  /// One row of the secret-key check (FIPS 204, Algorithm 6 lines 5–6 recomputed from skDecode's
  /// s2 and t0): r = (t + s2) mod q in [0, q) (t = NTT^-1 output, |t| < q; |s2| ≤ η),
  /// (t1, r0) = Power2Round(r) (Algorithm 35), t1 ← r1. Returns nonzero iff some r0 ≠ t0[j];
  /// constant time (the caller folds the result into the key's validity bit).
  std::uint32_t (*power2round_check)(const std::int32_t t[kN], const std::int32_t s2[kN], const std::int32_t t0[kN],
                                     std::int32_t t1[kN]) noexcept;
};
template <std::int32_t G2>
const RoundBackend& round_backend_scalar() noexcept;
/// The AVX2 table for γ2 = G2, or nullptr when not compiled in / the CPU lacks AVX2 / forced portable.
template <std::int32_t G2>
const RoundBackend* round_backend_avx2() noexcept;
/// The table selected at run time.
template <std::int32_t G2>
const RoundBackend& round_backend() noexcept {
  if (const RoundBackend* b = round_backend_avx2<G2>()) return *b;
  return round_backend_scalar<G2>();
}

}  // namespace pqsig::mldsa::detail
