// Scalar reference for the per-coefficient steps of ML-DSA Sign / Verify (FIPS 204 §7.4,
// Algorithms 35–40, applied to whole polynomials). See RoundBackend in rounding.hpp.
#include "mldsa/rounding.hpp"

namespace pqsig::mldsa::detail {
namespace {
template <std::int32_t G2>
struct ScalarRound {
  using Rnd = Rounding<G2>;
  // Algorithm 7 line 12: w1 = HighBits(w) (Algorithm 37), w reduced to [0, q) first.
  static void caddq_highbits(std::int32_t w[kN], std::int32_t w1[kN]) noexcept {
    for (int j = 0; j < kN; ++j) {
      w[j] = caddq(w[j]);
      w1[j] = Rnd::HighBits(w[j]);
    }
  }
  // Algorithm 7 lines 22, 24: z = y + ⟨⟨cs1⟩⟩, ‖z‖∞ ≥ γ1 − β.
  static std::uint32_t z_finish(std::int32_t z[kN], const std::int32_t y[kN], std::int32_t bound) noexcept {
    std::uint32_t reject = 0;
    for (int j = 0; j < kN; ++j) {
      z[j] = center(y[j] + z[j]);
      reject |= abs_ge(z[j], bound);
    }
    return reject;
  }
  // Algorithm 7 lines 23, 24: r0 = LowBits(w − ⟨⟨cs2⟩⟩) (Algorithm 38), ‖r0‖∞ ≥ γ2 − β.
  static std::uint32_t r_finish(std::int32_t r[kN], const std::int32_t w[kN], std::int32_t bound) noexcept {
    std::uint32_t reject = 0;
    for (int j = 0; j < kN; ++j) {
      r[j] = freeze(w[j] - r[j]);
      reject |= abs_ge(Rnd::LowBits(r[j]), bound);
    }
    return reject;
  }
  // Algorithm 7 lines 25–28: h = MakeHint(−⟨⟨ct0⟩⟩, w − ⟨⟨cs2⟩⟩ + ⟨⟨ct0⟩⟩) (Algorithm 39), ‖ct0‖∞ ≥ γ2.
  static std::uint32_t make_hints(std::int32_t h[kN], std::int32_t ct0[kN], const std::int32_t r[kN],
                                  std::uint32_t* reject) noexcept {
    std::uint32_t count = 0, rej = 0;
    for (int j = 0; j < kN; ++j) {
      ct0[j] = center(ct0[j]);
      rej |= abs_ge(ct0[j], G2);
      const std::uint32_t hint = Rnd::MakeHint(freeze(r[j] + ct0[j]), r[j]);
      h[j] = static_cast<std::int32_t>(hint);
      count += hint;
    }
    *reject |= rej;
    return count;
  }
  // Algorithm 8 line 10: w1′ = UseHint(h, w′Approx) (Algorithm 40).
  static void use_hint(std::int32_t w[kN], const std::int32_t h[kN]) noexcept {
    for (int j = 0; j < kN; ++j) w[j] = Rnd::UseHint(static_cast<std::uint32_t>(h[j]), caddq(w[j]));
  }
  // Algorithm 6 lines 5–6 (the key check's row): t1 = Power2Round(t + s2).r1, r0 compared with t0.
  static std::uint32_t power2round_check(const std::int32_t t[kN], const std::int32_t s2[kN], const std::int32_t t0[kN],
                                         std::int32_t t1[kN]) noexcept {
    std::uint32_t diff = 0;
    for (int j = 0; j < kN; ++j) {
      std::int32_t r0;
      Power2Round(freeze(t[j] + s2[j]), t1[j], r0);
      diff |= static_cast<std::uint32_t>(r0 ^ t0[j]);
    }
    return diff;
  }
  static constexpr RoundBackend kTable{"scalar", &caddq_highbits, &z_finish,         &r_finish,
                                       &make_hints, &use_hint,    &power2round_check};
};
}  // namespace

template <std::int32_t G2>
const RoundBackend& round_backend_scalar() noexcept {
  return ScalarRound<G2>::kTable;
}
template const RoundBackend& round_backend_scalar<(kQ - 1) / 88>() noexcept;
template const RoundBackend& round_backend_scalar<(kQ - 1) / 32>() noexcept;

}  // namespace pqsig::mldsa::detail
