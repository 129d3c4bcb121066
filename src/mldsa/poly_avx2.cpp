// AVX2 backend for the ML-DSA NTT and pointwise products (FIPS 204 Algorithms 41, 42, 45).
// Bit-identical to the scalar reference (same Montgomery arithmetic, eight lanes at a time);
// selected at run time by CPUID, removed by PQSIG_PORTABLE, tested against the scalar code in
// tests/mldsa (MldsaArith.Avx2MatchesScalar). Constant time: no data-dependent branches or indices.
#include <cstring>

#include "common/cpu.hpp"
#include "common/ct.hpp"
#include "mldsa/poly.hpp"

#if !defined(PQSIG_PORTABLE) && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define PQSIG_MLDSA_AVX2 1
#include <immintrin.h>
#endif

namespace pqsig::mldsa::detail {

#if defined(PQSIG_MLDSA_AVX2)
namespace {

#define PQSIG_AVX2 __attribute__((target("avx2,popcnt")))  // cpu::has_avx2() includes POPCNT

// Per-block zeta tables for the three lowest layers, which run on 8×8 transposed blocks:
// block b (coefficients 8b .. 8b+7) uses, in the forward NTT, zetas[32+b] (len 4),
// zetas[64+2b+g] (len 2, group g) and zetas[128+4b+g] (len 1); the inverse uses the negated
// zetas[63−b], zetas[127−(2b+g)], zetas[255−(4b+g)].
struct Tables {
  alignas(32) std::int32_t z4[32];
  alignas(32) std::int32_t z2[2][32];
  alignas(32) std::int32_t z1[4][32];
  alignas(32) std::int32_t iz4[32];
  alignas(32) std::int32_t iz2[2][32];
  alignas(32) std::int32_t iz1[4][32];
};
constexpr Tables make_tables() {
  Tables t{};
  for (int b = 0; b < 32; ++b) {
    t.z4[b] = kZetas.z[32 + b];
    t.iz4[b] = -kZetas.z[63 - b];
    for (int g = 0; g < 2; ++g) {
      t.z2[g][b] = kZetas.z[64 + 2 * b + g];
      t.iz2[g][b] = -kZetas.z[127 - (2 * b + g)];
    }
    for (int g = 0; g < 4; ++g) {
      t.z1[g][b] = kZetas.z[128 + 4 * b + g];
      t.iz1[g][b] = -kZetas.z[255 - (4 * b + g)];
    }
  }
  return t;
}
constexpr Tables kT = make_tables();

PQSIG_AVX2 inline __m256i load(const std::int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
PQSIG_AVX2 inline void store(std::int32_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }

// Montgomery reduction of 64-bit values held in the even (e) and odd (o) 32-bit lane pairs:
// the same function as montgomery_reduce(), result lanes 0..7.
PQSIG_AVX2 inline __m256i mont_reduce(__m256i e, __m256i o) {
  const __m256i q = _mm256_set1_epi32(Q);
  const __m256i qinv = _mm256_set1_epi32(static_cast<std::int32_t>(kQinv));
  __m256i te = _mm256_mul_epi32(_mm256_mul_epi32(e, qinv), q);  // t = (int32)(a·q^-1); t·q
  __m256i to = _mm256_mul_epi32(_mm256_mul_epi32(o, qinv), q);
  e = _mm256_srli_epi64(_mm256_sub_epi64(e, te), 32);
  o = _mm256_sub_epi64(o, to);
  return _mm256_blend_epi32(e, o, 0xAA);
}
// montgomery_reduce(a·b) lane-wise.
PQSIG_AVX2 inline __m256i montmul(__m256i a, __m256i b) {
  const __m256i e = _mm256_mul_epi32(a, b);
  const __m256i o = _mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
  return mont_reduce(e, o);
}

// Cooley–Tukey butterfly (Algorithm 41 lines 8–10) and Gentleman–Sande butterfly (Algorithm 42).
PQSIG_AVX2 inline void ct_bfly(__m256i& a, __m256i& b, __m256i z) {
  const __m256i t = montmul(z, b);
  b = _mm256_sub_epi32(a, t);
  a = _mm256_add_epi32(a, t);
}
PQSIG_AVX2 inline void gs_bfly(__m256i& a, __m256i& b, __m256i z) {
  const __m256i t = a;
  a = _mm256_add_epi32(t, b);
  b = montmul(z, _mm256_sub_epi32(t, b));
}

// 8×8 transpose of 32-bit lanes (an involution).
PQSIG_AVX2 inline void transpose8(__m256i v[8]) {
  const __m256i t0 = _mm256_unpacklo_epi32(v[0], v[1]), t1 = _mm256_unpackhi_epi32(v[0], v[1]);
  const __m256i t2 = _mm256_unpacklo_epi32(v[2], v[3]), t3 = _mm256_unpackhi_epi32(v[2], v[3]);
  const __m256i t4 = _mm256_unpacklo_epi32(v[4], v[5]), t5 = _mm256_unpackhi_epi32(v[4], v[5]);
  const __m256i t6 = _mm256_unpacklo_epi32(v[6], v[7]), t7 = _mm256_unpackhi_epi32(v[6], v[7]);
  const __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
  const __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
  const __m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
  const __m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
  v[0] = _mm256_permute2x128_si256(u0, u4, 0x20);
  v[1] = _mm256_permute2x128_si256(u1, u5, 0x20);
  v[2] = _mm256_permute2x128_si256(u2, u6, 0x20);
  v[3] = _mm256_permute2x128_si256(u3, u7, 0x20);
  v[4] = _mm256_permute2x128_si256(u0, u4, 0x31);
  v[5] = _mm256_permute2x128_si256(u1, u5, 0x31);
  v[6] = _mm256_permute2x128_si256(u2, u6, 0x31);
  v[7] = _mm256_permute2x128_si256(u3, u7, 0x31);
}

// FIPS 204, Algorithm 41: NTT(w) (AVX2).
PQSIG_AVX2 void NTT_avx2(std::int32_t w[kN]) noexcept {
  unsigned m = 0;
  for (unsigned len = 128; len >= 8; len >>= 1) {
    for (unsigned start = 0; start < kN; start += 2 * len) {
      const __m256i z = _mm256_set1_epi32(kZetas.z[++m]);
      for (unsigned j = start; j < start + len; j += 8) {
        __m256i a = load(w + j), b = load(w + j + len);
        ct_bfly(a, b, z);
        store(w + j, a);
        store(w + j + len, b);
      }
    }
  }
  for (unsigned blk = 0; blk < 32; blk += 8) {  // len = 4, 2, 1 on transposed 8×8 blocks
    __m256i v[8];
    for (int i = 0; i < 8; ++i) v[i] = load(w + 8 * (blk + i));
    transpose8(v);  // v[j] lane i = coefficient j of block blk + i
    const __m256i z4 = load(kT.z4 + blk);
    for (int j = 0; j < 4; ++j) ct_bfly(v[j], v[j + 4], z4);
    const __m256i z20 = load(kT.z2[0] + blk), z21 = load(kT.z2[1] + blk);
    ct_bfly(v[0], v[2], z20);
    ct_bfly(v[1], v[3], z20);
    ct_bfly(v[4], v[6], z21);
    ct_bfly(v[5], v[7], z21);
    for (int g = 0; g < 4; ++g) ct_bfly(v[2 * g], v[2 * g + 1], load(kT.z1[g] + blk));
    transpose8(v);
    for (int i = 0; i < 8; ++i) store(w + 8 * (blk + i), v[i]);
  }
}

// FIPS 204, Algorithm 42: NTT^-1(ŵ) (AVX2, with the extra 2^32 factor, see poly.hpp).
PQSIG_AVX2 void NTT_inverse_avx2(std::int32_t w[kN]) noexcept {
  for (unsigned blk = 0; blk < 32; blk += 8) {  // len = 1, 2, 4 on transposed 8×8 blocks
    __m256i v[8];
    for (int i = 0; i < 8; ++i) v[i] = load(w + 8 * (blk + i));
    transpose8(v);
    for (int g = 0; g < 4; ++g) gs_bfly(v[2 * g], v[2 * g + 1], load(kT.iz1[g] + blk));
    const __m256i z20 = load(kT.iz2[0] + blk), z21 = load(kT.iz2[1] + blk);
    gs_bfly(v[0], v[2], z20);
    gs_bfly(v[1], v[3], z20);
    gs_bfly(v[4], v[6], z21);
    gs_bfly(v[5], v[7], z21);
    const __m256i z4 = load(kT.iz4 + blk);
    for (int j = 0; j < 4; ++j) gs_bfly(v[j], v[j + 4], z4);
    transpose8(v);
    for (int i = 0; i < 8; ++i) store(w + 8 * (blk + i), v[i]);
  }
  unsigned m = 32;  // 256 − 128 − 64 − 32 zetas used by the three layers above
  for (unsigned len = 8; len < kN; len <<= 1) {
    for (unsigned start = 0; start < kN; start += 2 * len) {
      const __m256i z = _mm256_set1_epi32(-kZetas.z[--m]);
      for (unsigned j = start; j < start + len; j += 8) {
        __m256i a = load(w + j), b = load(w + j + len);
        gs_bfly(a, b, z);
        store(w + j, a);
        store(w + j + len, b);
      }
    }
  }
  const __m256i f = _mm256_set1_epi32(kInvNttScale);
  for (unsigned j = 0; j < kN; j += 8) store(w + j, montmul(f, load(w + j)));
}

// FIPS 204, Algorithm 45: MultiplyNTT (AVX2, Montgomery form).
PQSIG_AVX2 void MultiplyNTT_avx2(std::int32_t c[kN], const std::int32_t a[kN], const std::int32_t b[kN]) noexcept {
  for (unsigned j = 0; j < kN; j += 8) store(c + j, montmul(load(a + j), load(b + j)));
}

// Σ MultiplyNTT(a_j, b_j) with 64-bit accumulation and one reduction (AVX2).
PQSIG_AVX2 void MultiplyNTT_acc_avx2(std::int32_t c[kN], const Poly* a, const Poly* b, int n) noexcept {
  for (unsigned i = 0; i < kN; i += 8) {
    __m256i e = _mm256_setzero_si256(), o = _mm256_setzero_si256();
    for (int j = 0; j < n; ++j) {
      const __m256i x = load(a[j].c + i), y = load(b[j].c + i);
      e = _mm256_add_epi64(e, _mm256_mul_epi32(x, y));
      o = _mm256_add_epi64(o, _mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(y, 32)));
    }
    store(c + i, mont_reduce(e, o));
  }
}

// FIPS 204, Algorithm 30 (RejNTTPoly) with Algorithm 14, eight 3-byte candidates per step: each
// candidate goes to a 32-bit lane (permute + byte shuffle), the top bit is cleared, and when all
// eight are < q and fit they are stored at once; otherwise (≈0.8% of steps) those eight are
// parsed by the scalar loop. Reads stay inside buf (32-byte loads only while pos + 32 ≤ len).
// Public data only (Â), so branching on the accept mask is fine.
PQSIG_AVX2 int RejNTTPoly_avx2(std::int32_t* a, int ctr, const std::uint8_t* buf, std::size_t len) noexcept {
  const __m256i perm = _mm256_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0);
  const __m256i shuf = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
  const __m256i mask = _mm256_set1_epi32(0x7FFFFF);
  const __m256i q = _mm256_set1_epi32(Q);
  std::size_t pos = 0;
  while (ctr < kN && pos + 32 <= len) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(buf + pos));
    v = _mm256_permutevar8x32_epi32(v, perm);
    v = _mm256_and_si256(_mm256_shuffle_epi8(v, shuf), mask);
    const int good = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, v)));
    if (good == 0xFF && ctr + 8 <= kN) {
      store(a + ctr, v);
      ctr += 8;
    } else {
      ctr = RejNTTPoly_scalar(a, ctr, buf + pos, 24);
    }
    pos += 24;
  }
  return RejNTTPoly_scalar(a, ctr, buf + pos, len - pos);
}

// Lane indices of the set bits of each 8-bit mask, in order (left-packing table for the
// rejection samplers; indexed only by declassified accept masks).
struct CompactTable {
  alignas(8) std::uint8_t idx[256][8];
};
constexpr CompactTable make_compact_table() {
  CompactTable t{};
  for (int m = 0; m < 256; ++m) {
    int k = 0;
    for (int i = 0; i < 8; ++i)
      if ((m >> i) & 1) t.idx[m][k++] = static_cast<std::uint8_t>(i);
  }
  return t;
}
constexpr CompactTable kCompact = make_compact_table();

// FIPS 204, Algorithm 31 (RejBoundedPoly) with Algorithm 15 (CoeffFromHalfByte), eight half-bytes
// (four bytes) per step: half-bytes to 32-bit lanes, accept = b < 15 (η = 2) or b < 9 (η = 4),
// coefficients η − (b mod 5) or η − b, accepted lanes left-packed with a permutation from a table
// indexed by the accept mask. The accept mask is declassified (as in the scalar loop: which
// half-bytes are rejected is independent of the kept values); no other secret reaches a branch
// or an index. Same output as RejBoundedPoly_scalar; its tail is finished by the scalar loop.
template <int ETA>
PQSIG_AVX2 int RejBoundedPoly_avx2(std::int32_t* a, int ctr, const std::uint8_t* buf, std::size_t len) noexcept {
  const __m128i dup = _mm_setr_epi8(0, 0, 1, 1, 2, 2, 3, 3, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i shifts = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
  const __m256i nib = _mm256_set1_epi32(15);
  const __m256i bound = _mm256_set1_epi32(ETA == 2 ? 15 : 9);
  const __m256i eta = _mm256_set1_epi32(ETA);
  std::size_t pos = 0;
  while (ctr + 8 <= kN && pos + 4 <= len) {
    std::uint32_t word;
    std::memcpy(&word, buf + pos, 4);
    __m256i v = _mm256_cvtepu8_epi32(_mm_shuffle_epi8(_mm_cvtsi32_si128(static_cast<int>(word)), dup));
    v = _mm256_and_si256(_mm256_srlv_epi32(v, shifts), nib);  // b0 lo, b0 hi, b1 lo, ...
    unsigned mask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(bound, v))));
    // Declassified: the accept bits of uniformly random half-bytes (see the scalar loop).
    CT_DECLASSIFY(&mask, sizeof mask);
    __m256i val;
    if constexpr (ETA == 2) {
      const __m256i q5 = _mm256_srli_epi32(_mm256_mullo_epi32(v, _mm256_set1_epi32(205)), 10);  // ⌊b/5⌋
      val = _mm256_sub_epi32(eta, _mm256_sub_epi32(v, _mm256_mullo_epi32(q5, _mm256_set1_epi32(5))));
    } else {
      val = _mm256_sub_epi32(eta, v);
    }
    const __m256i perm =
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(kCompact.idx[mask])));
    store(a + ctr, _mm256_permutevar8x32_epi32(val, perm));
    ctr += __builtin_popcount(mask);
    pos += 4;
  }
  return RejBoundedPoly_scalar(ETA, a, ctr, buf + pos, len - pos);
}
PQSIG_AVX2 int RejBoundedPoly_avx2_any(int eta, std::int32_t* a, int ctr, const std::uint8_t* buf,
                                       std::size_t len) noexcept {
  return eta == 2 ? RejBoundedPoly_avx2<2>(a, ctr, buf, len) : RejBoundedPoly_avx2<4>(a, ctr, buf, len);
}

// FIPS 204, Algorithm 25 (skDecode): BitUnpack(t0, 2^12 − 1, 2^12), eight coefficients (13 bytes)
// at a time: each 32-bit lane gathers the three bytes its coefficient starts in (byte shuffle of
// 16 loaded bytes), shifts by its bit offset and masks. The last group of the polynomial is
// copied first so the 16-byte load never reads past the 416 input bytes. Secret data: no branch
// or index depends on it.
__attribute__((target("avx2"), always_inline)) inline void UnpackT0Group_avx2(std::int32_t* out, const std::uint8_t* p, __m256i shuf,
                                                                          __m256i shifts, __m256i mask, __m256i top) {
  const __m256i b = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  const __m256i v = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(b, shuf), shifts), mask);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_sub_epi32(top, v));
}
PQSIG_AVX2 void UnpackT0_avx2(std::int32_t a[kN], const std::uint8_t* in) noexcept {
  const __m256i shuf = _mm256_setr_epi8(0, 1, 2, -1, 1, 2, 3, -1, 3, 4, 5, -1, 4, 5, 6, -1,  //
                                        6, 7, 8, -1, 8, 9, 10, -1, 9, 10, 11, -1, 11, 12, 13, -1);
  const __m256i shifts = _mm256_setr_epi32(0, 5, 2, 7, 4, 1, 6, 3);
  const __m256i mask = _mm256_set1_epi32((1 << 13) - 1), top = _mm256_set1_epi32(1 << 12);
  for (int g = 0; g < kN / 8 - 1; ++g) UnpackT0Group_avx2(a + 8 * g, in + 13 * g, shuf, shifts, mask, top);
  alignas(16) std::uint8_t last[16] = {};
  std::memcpy(last, in + 13 * (kN / 8 - 1), 13);
  UnpackT0Group_avx2(a + kN - 8, last, shuf, shifts, mask, top);
  secure_zero(last, sizeof last);
}
// FIPS 204, Algorithm 25 (skDecode): BitUnpack(s, η, η) for η = 2 (3 bits) or 4 (4 bits), eight
// coefficients (3 or 4 bytes) at a time: the group's bytes broadcast, shifted per lane, masked.
// Returns nonzero if some coefficient is out of range (a 3-bit value > 2η = 4). Secret data.
PQSIG_AVX2 std::uint32_t UnpackEta_avx2(int eta, std::int32_t a[kN], const std::uint8_t* in) noexcept {
  const int bits = eta == 2 ? 3 : 4;  // public parameter
  const __m256i shifts = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(bits));
  const __m256i mask = _mm256_set1_epi32((1 << bits) - 1), ev = _mm256_set1_epi32(eta), two_eta = _mm256_set1_epi32(2 * eta);
  __m256i bad = _mm256_setzero_si256();
  for (int g = 0; g < kN / 8; ++g) {
    const std::uint8_t* p = in + bits * g;
    std::uint32_t w;
    if (bits == 4) {
      std::memcpy(&w, p, 4);
    } else {
      std::uint16_t lo;
      std::memcpy(&lo, p, 2);
      w = lo | static_cast<std::uint32_t>(p[2]) << 16;
    }
    const __m256i v = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(static_cast<std::int32_t>(w)), shifts), mask);
    bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(v, two_eta));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + 8 * g), _mm256_sub_epi32(ev, v));
  }
  return static_cast<std::uint32_t>(!_mm256_testz_si256(bad, bad));
}

// FIPS 204, Algorithm 34 (ExpandMask): BitUnpack(v, γ1 − 1, γ1) of one polynomial, γ1 = 2^17
// (18-bit fields) or 2^19 (20-bit fields), eight coefficients (18 or 20 bytes) at a time: the
// low 128-bit lane holds the bytes of coefficients 0–3, the high lane those of 4–7; each 32-bit
// lane gathers the three bytes its field starts in, shifts by its bit offset and masks.
// Reads up to 8 bytes past the 32·bits input bytes (the caller's buffer has them). Secret data.
PQSIG_AVX2 void UnpackMask_avx2(std::int32_t a[kN], const std::uint8_t* in, int bits) noexcept {
  const bool b18 = bits == 18;  // public parameter
  const __m256i shuf = b18 ? _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 4, 5, 6, -1, 6, 7, 8, -1,  //
                                              0, 1, 2, -1, 2, 3, 4, -1, 4, 5, 6, -1, 6, 7, 8, -1)
                           : _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1, 7, 8, 9, -1,  //
                                              0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1, 7, 8, 9, -1);
  const __m256i shifts = b18 ? _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6) : _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
  const __m256i mask = _mm256_set1_epi32((1 << bits) - 1), g1 = _mm256_set1_epi32(1 << (bits - 1));
  const int step = bits, half = bits / 2;  // bytes per eight coefficients, offset of coefficient 4
  for (int g = 0; g < kN / 8; ++g) {
    const std::uint8_t* p = in + step * g;
    const __m256i b = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + half)), 1);
    const __m256i v = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(b, shuf), shifts), mask);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + 8 * g), _mm256_sub_epi32(g1, v));
  }
}

constexpr PolyBackend kAvx2{"avx2", &NTT_avx2, &NTT_inverse_avx2, &MultiplyNTT_avx2, &MultiplyNTT_acc_avx2,
                            &RejNTTPoly_avx2, &RejBoundedPoly_avx2_any, &UnpackT0_avx2, &UnpackEta_avx2, &UnpackMask_avx2};

}  // namespace

const PolyBackend* poly_backend_avx2() noexcept { return cpu::has_avx2() ? &kAvx2 : nullptr; }
#else
const PolyBackend* poly_backend_avx2() noexcept { return nullptr; }
#endif

}  // namespace pqsig::mldsa::detail
