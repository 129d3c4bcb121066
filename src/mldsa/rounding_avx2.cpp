// AVX2 per-coefficient steps of ML-DSA Sign / Verify (FIPS 204 §7.4, Algorithms 36–40 on eight
// coefficients at a time), bit-identical to the scalar reference in rounding.cpp (the same
// division-free Decompose). Selected at run time by CPUID, removed by PQSIG_PORTABLE, tested
// against the scalar code in tests/mldsa. Constant time: no data-dependent branches or indices.
#include "common/cpu.hpp"
#include "mldsa/rounding.hpp"

#if !defined(PQSIG_PORTABLE) && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define PQSIG_MLDSA_AVX2 1
#include <immintrin.h>
#endif

namespace pqsig::mldsa::detail {

#if defined(PQSIG_MLDSA_AVX2)
namespace {
#define PQSIG_AVX2 __attribute__((target("avx2,popcnt")))  // cpu::has_avx2() includes POPCNT
#define PQSIG_INL __attribute__((target("avx2"), always_inline)) inline

PQSIG_INL __m256i ld(const std::int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
PQSIG_INL void st(std::int32_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
PQSIG_INL __m256i set1(std::int32_t v) { return _mm256_set1_epi32(v); }

// caddq: a + q if a < 0.
PQSIG_INL __m256i v_caddq(__m256i a) { return _mm256_add_epi32(a, _mm256_and_si256(_mm256_srai_epi32(a, 31), set1(Q))); }
// reduce32: a − ⌊(a + 2^22) / 2^23⌋·q.
PQSIG_INL __m256i v_reduce32(__m256i a) {
  const __m256i t = _mm256_srai_epi32(_mm256_add_epi32(a, set1(1 << 22)), 23);
  return _mm256_sub_epi32(a, _mm256_mullo_epi32(t, set1(Q)));
}
PQSIG_INL __m256i v_freeze(__m256i a) { return v_caddq(v_reduce32(a)); }
// Subtract q from values above (q − 1)/2 (input in [0, q)).
PQSIG_INL __m256i v_center_from_std(__m256i f) {
  const __m256i m = _mm256_srai_epi32(_mm256_sub_epi32(set1((Q - 1) / 2), f), 31);
  return _mm256_sub_epi32(f, _mm256_and_si256(m, set1(Q)));
}
// All-ones lanes where |a| ≥ bound.
PQSIG_INL __m256i v_abs_ge(__m256i a, std::int32_t bound) { return _mm256_cmpgt_epi32(_mm256_abs_epi32(a), set1(bound - 1)); }

// FIPS 204, Algorithm 36: Decompose(r) for r in [0, q) (as Rounding<G2>::Decompose).
template <std::int32_t G2>
PQSIG_INL void v_decompose(__m256i r, __m256i& r1, __m256i& r0) {
  __m256i a1 = _mm256_srai_epi32(_mm256_add_epi32(r, set1(127)), 7);
  if constexpr (G2 == (kQ - 1) / 32) {
    a1 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(a1, set1(1025)), set1(1 << 21)), 22);
    a1 = _mm256_and_si256(a1, set1(15));
  } else {
    a1 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(a1, set1(11275)), set1(1 << 23)), 24);
    a1 = _mm256_xor_si256(a1, _mm256_and_si256(_mm256_srai_epi32(_mm256_sub_epi32(set1(43), a1), 31), a1));
  }
  __m256i a0 = _mm256_sub_epi32(r, _mm256_mullo_epi32(a1, set1(2 * G2)));
  a0 = _mm256_sub_epi32(a0, _mm256_and_si256(_mm256_srai_epi32(_mm256_sub_epi32(set1((Q - 1) / 2), a0), 31), set1(Q)));
  r1 = a1;
  r0 = a0;
}
template <std::int32_t G2>
PQSIG_INL __m256i v_highbits(__m256i r) {
  __m256i r1, r0;
  v_decompose<G2>(r, r1, r0);
  return r1;
}

template <std::int32_t G2>
struct Avx2Round {
  PQSIG_AVX2 static void caddq_highbits(std::int32_t w[kN], std::int32_t w1[kN]) noexcept {
    for (int j = 0; j < kN; j += 8) {
      const __m256i v = v_caddq(ld(w + j));
      st(w + j, v);
      st(w1 + j, v_highbits<G2>(v));
    }
  }
  PQSIG_AVX2 static std::uint32_t z_finish(std::int32_t z[kN], const std::int32_t y[kN], std::int32_t bound) noexcept {
    __m256i acc = _mm256_setzero_si256();
    for (int j = 0; j < kN; j += 8) {
      const __m256i v = v_center_from_std(v_freeze(_mm256_add_epi32(ld(y + j), ld(z + j))));
      st(z + j, v);
      acc = _mm256_or_si256(acc, v_abs_ge(v, bound));
    }
    return static_cast<std::uint32_t>(!_mm256_testz_si256(acc, acc));
  }
  PQSIG_AVX2 static std::uint32_t r_finish(std::int32_t r[kN], const std::int32_t w[kN], std::int32_t bound) noexcept {
    __m256i acc = _mm256_setzero_si256();
    for (int j = 0; j < kN; j += 8) {
      const __m256i v = v_freeze(_mm256_sub_epi32(ld(w + j), ld(r + j)));
      st(r + j, v);
      __m256i r1, r0;
      v_decompose<G2>(v, r1, r0);
      acc = _mm256_or_si256(acc, v_abs_ge(r0, bound));
    }
    return static_cast<std::uint32_t>(!_mm256_testz_si256(acc, acc));
  }
  PQSIG_AVX2 static std::uint32_t make_hints(std::int32_t h[kN], std::int32_t ct0[kN], const std::int32_t r[kN],
                                             std::uint32_t* reject) noexcept {
    __m256i acc = _mm256_setzero_si256(), cnt = _mm256_setzero_si256();
    for (int j = 0; j < kN; j += 8) {
      const __m256i c0 = v_center_from_std(v_freeze(ld(ct0 + j)));
      st(ct0 + j, c0);
      acc = _mm256_or_si256(acc, v_abs_ge(c0, G2));
      const __m256i rv = ld(r + j);
      const __m256i ne = _mm256_xor_si256(_mm256_cmpeq_epi32(v_highbits<G2>(v_freeze(_mm256_add_epi32(rv, c0))), v_highbits<G2>(rv)),
                                          _mm256_set1_epi32(-1));
      const __m256i hint = _mm256_and_si256(ne, set1(1));
      st(h + j, hint);
      cnt = _mm256_add_epi32(cnt, hint);
    }
    *reject |= static_cast<std::uint32_t>(!_mm256_testz_si256(acc, acc));
    // horizontal sum of the eight counters
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(cnt), _mm256_extracti128_si256(cnt, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(s));
  }
  PQSIG_AVX2 static void use_hint(std::int32_t w[kN], const std::int32_t h[kN]) noexcept {
    constexpr std::int32_t kM = (kQ - 1) / (2 * G2);
    for (int j = 0; j < kN; j += 8) {
      __m256i r1, r0;
      v_decompose<G2>(v_caddq(ld(w + j)), r1, r0);
      // δ = +1 if r0 > 0 else −1, applied where h = 1; then wrap into [0, m).
      const __m256i gt = _mm256_cmpgt_epi32(r0, _mm256_setzero_si256());
      const __m256i delta = _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_or_si256(gt, set1(1)));
      const __m256i hmask = _mm256_sub_epi32(_mm256_setzero_si256(), ld(h + j));
      __m256i v = _mm256_add_epi32(r1, _mm256_and_si256(delta, hmask));
      if constexpr (kM == 16) {
        v = _mm256_and_si256(v, set1(15));
      } else {
        v = _mm256_add_epi32(v, _mm256_and_si256(_mm256_srai_epi32(v, 31), set1(kM)));
        v = _mm256_sub_epi32(v, _mm256_and_si256(_mm256_cmpeq_epi32(v, set1(kM)), set1(kM)));
      }
      st(w + j, v);
    }
  }
  PQSIG_AVX2 static std::uint32_t power2round_check(const std::int32_t t[kN], const std::int32_t s2[kN],
                                                    const std::int32_t t0[kN], std::int32_t t1[kN]) noexcept {
    __m256i acc = _mm256_setzero_si256();
    for (int j = 0; j < kN; j += 8) {
      const __m256i r = v_freeze(_mm256_add_epi32(ld(t + j), ld(s2 + j)));
      // FIPS 204, Algorithm 35: r1 = ⌈(r − 2^(d−1) + 1) / 2^d⌉ as (r + 2^(d−1) − 1) >> d, r0 = r − r1·2^d.
      const __m256i r1 = _mm256_srai_epi32(_mm256_add_epi32(r, set1((1 << (kD - 1)) - 1)), kD);
      const __m256i r0 = _mm256_sub_epi32(r, _mm256_slli_epi32(r1, kD));
      st(t1 + j, r1);
      acc = _mm256_or_si256(acc, _mm256_xor_si256(r0, ld(t0 + j)));
    }
    return static_cast<std::uint32_t>(!_mm256_testz_si256(acc, acc));
  }
  static constexpr RoundBackend kTable{"avx2",      &caddq_highbits, &z_finish,         &r_finish,
                                       &make_hints, &use_hint,       &power2round_check};
};
}  // namespace

template <std::int32_t G2>
const RoundBackend* round_backend_avx2() noexcept {
  return cpu::has_avx2() ? &Avx2Round<G2>::kTable : nullptr;
}
#else
template <std::int32_t G2>
const RoundBackend* round_backend_avx2() noexcept {
  return nullptr;
}
#endif
template const RoundBackend* round_backend_avx2<(kQ - 1) / 88>() noexcept;
template const RoundBackend* round_backend_avx2<(kQ - 1) / 32>() noexcept;

}  // namespace pqsig::mldsa::detail
