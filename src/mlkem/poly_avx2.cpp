// AVX2 backend for the ML-KEM arithmetic (FIPS 203 §4.3): NTT, NTT^-1 and MultiplyNTTs on
// sixteen int16 lanes with signed Montgomery multiplication (R = 2^16) and lazy reduction,
// and the SampleNTT candidate filter. Inputs and outputs are the scalar reference's: values in
// [0, q) in the standard order, so the two backends are interchangeable bit for bit
// (tests/mlkem/test_backend.cpp). Selected at run time by CPUID, removed by PQSIG_PORTABLE.
// Constant time: no branch or memory index depends on a coefficient (only the public
// SampleNTT bytes index the compaction table).
#include "common/cpu.hpp"
#include "mlkem/poly.hpp"

#include <cstring>
#include <type_traits>

#if !defined(PQSIG_PORTABLE) && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define PQSIG_MLKEM_AVX2 1
#include <immintrin.h>
#endif

namespace pqsig::mlkem::detail {

#if defined(PQSIG_MLKEM_AVX2)
namespace {

#define PQSIG_AVX2 __attribute__((target("avx2,popcnt")))  // cpu::has_avx2() includes POPCNT

constexpr std::int16_t kQi = 3329;
constexpr std::int16_t kQinv = -3327;  // q^-1 mod 2^16 (signed)
constexpr std::int16_t kBarrettV = 20159;  // round(2^26 / q)

// Zeta vectors for the three layers that run inside one register pair (vectors 2m, 2m+1),
// laid out as the shuffles shuffle8/4/2 below leave the coefficients (see ntt_avx2):
//   len 8: lanes 0–7 use group 2m, lanes 8–15 group 2m+1          (zeta index 16 + group)
//   len 4: lane l uses group 4m + l/4                              (zeta index 32 + group)
//   len 2: lane l uses group 8m + l/2                              (zeta index 64 + group)
// The inverse uses zeta index (256/len − 1) − group (FIPS 203 Algorithm 10 counts i down).
struct Tables {
  alignas(32) std::int16_t f8[8][16], f8q[8][16], f4[8][16], f4q[8][16], f2[8][16], f2q[8][16];
  alignas(32) std::int16_t i8[8][16], i8q[8][16], i4[8][16], i4q[8][16], i2[8][16], i2q[8][16];
  // MultiplyNTTs: γ for the pair of lane l of block b: gammas[8b + l/2].
  alignas(32) std::int16_t g[16][16], gq[16][16];
  // Every zeta in Montgomery form, for the layers that broadcast one zeta.
  std::int16_t zm[128], zq[128];
};
constexpr Tables make_tables() {
  Tables t{};
  for (int m = 0; m < 8; ++m) {
    for (int l = 0; l < 16; ++l) {
      const int g8 = 2 * m + l / 8, g4 = 4 * m + l / 4, g2 = 8 * m + l / 2;
      t.f8[m][l] = mont(kZetas[16 + g8]);
      t.f8q[m][l] = mont_qinv(kZetas[16 + g8]);
      t.f4[m][l] = mont(kZetas[32 + g4]);
      t.f4q[m][l] = mont_qinv(kZetas[32 + g4]);
      t.f2[m][l] = mont(kZetas[64 + g2]);
      t.f2q[m][l] = mont_qinv(kZetas[64 + g2]);
      t.i8[m][l] = mont(kZetas[31 - g8]);
      t.i8q[m][l] = mont_qinv(kZetas[31 - g8]);
      t.i4[m][l] = mont(kZetas[63 - g4]);
      t.i4q[m][l] = mont_qinv(kZetas[63 - g4]);
      t.i2[m][l] = mont(kZetas[127 - g2]);
      t.i2q[m][l] = mont_qinv(kZetas[127 - g2]);
    }
  }
  for (int i = 0; i < 128; ++i) {
    t.zm[i] = mont(kZetas[i]);
    t.zq[i] = mont_qinv(kZetas[i]);
  }
  for (int b = 0; b < 16; ++b)
    for (int l = 0; l < 16; ++l) {
      t.g[b][l] = mont(kGammas[8 * b + l / 2]);
      t.gq[b][l] = mont_qinv(kGammas[8 * b + l / 2]);
    }
  return t;
}
alignas(32) constexpr Tables kT = make_tables();

PQSIG_AVX2 inline __m256i load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
PQSIG_AVX2 inline __m256i loadu(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
PQSIG_AVX2 inline void store(void* p, __m256i v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
PQSIG_AVX2 inline void storeu(void* p, __m256i v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }

// a·z mod q for z given in Montgomery form (zm = z·2^16 mod q, zq = zm·q^-1 mod 2^16):
// result in (−q, q) whenever |a·zm| < q·2^15.
PQSIG_AVX2 inline __m256i fqmul(__m256i a, __m256i zm, __m256i zq) {
  const __m256i lo = _mm256_mullo_epi16(a, zq);
  const __m256i hi = _mm256_mulhi_epi16(a, zm);
  return _mm256_sub_epi16(hi, _mm256_mulhi_epi16(lo, _mm256_set1_epi16(kQi)));
}
// Barrett reduction of any int16: a − floor(a·v / 2^26)·q, in [0, q].
PQSIG_AVX2 inline __m256i barrett(__m256i a) {
  __m256i t = _mm256_srai_epi16(_mm256_mulhi_epi16(a, _mm256_set1_epi16(kBarrettV)), 10);
  return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(kQi)));
}
// (−q, q) → [0, q): add q to negative lanes (fqmul's output range).
PQSIG_AVX2 inline __m256i caddq(__m256i a) {
  return _mm256_add_epi16(a, _mm256_and_si256(_mm256_set1_epi16(kQi), _mm256_srai_epi16(a, 15)));
}
// [0, q] → [0, q): subtract q from lanes equal to q (barrett's output range).
PQSIG_AVX2 inline __m256i csubq(__m256i a) {
  const __m256i q = _mm256_set1_epi16(kQi);
  a = _mm256_sub_epi16(a, q);
  return _mm256_add_epi16(a, _mm256_and_si256(q, _mm256_srai_epi16(a, 15)));
}

// Cooley–Tukey (Algorithm 9 lines 7–9) and Gentleman–Sande (Algorithm 10 lines 7–9) butterflies.
PQSIG_AVX2 inline void ct_bfly(__m256i& a, __m256i& b, __m256i zm, __m256i zq) {
  const __m256i t = fqmul(b, zm, zq);
  b = _mm256_sub_epi16(a, t);
  a = _mm256_add_epi16(a, t);
}
PQSIG_AVX2 inline void gs_bfly(__m256i& a, __m256i& b, __m256i zm, __m256i zq) {
  const __m256i t = a;
  a = _mm256_add_epi16(t, b);
  b = fqmul(_mm256_sub_epi16(b, t), zm, zq);
}

// Register-pair shuffles, each an involution. For x = c[0..15], y = c[16..31]:
//   shuffle8: x = c[0..7 | 16..23],            y = c[8..15 | 24..31]
//   shuffle4: then x = c[0..3,8..11 | 16..19,24..27], y = c[4..7,12..15 | 20..23,28..31]
//   shuffle2: then x pairs (0,1)(4,5)(8,9)(12,13) | +16, y pairs (2,3)(6,7)(10,11)(14,15) | +16
PQSIG_AVX2 inline void shuffle8(__m256i& x, __m256i& y) {
  const __m256i a = _mm256_permute2x128_si256(x, y, 0x20), b = _mm256_permute2x128_si256(x, y, 0x31);
  x = a;
  y = b;
}
PQSIG_AVX2 inline void shuffle4(__m256i& x, __m256i& y) {
  const __m256i a = _mm256_unpacklo_epi64(x, y), b = _mm256_unpackhi_epi64(x, y);
  x = a;
  y = b;
}
PQSIG_AVX2 inline void shuffle2(__m256i& x, __m256i& y) {
  const __m256i a = _mm256_blend_epi32(x, _mm256_slli_epi64(y, 32), 0xAA);
  const __m256i b = _mm256_blend_epi32(_mm256_srli_epi64(x, 32), y, 0xAA);
  x = a;
  y = b;
}

// Broadcast zeta i in Montgomery form (the layers that use one zeta per register pair).
PQSIG_AVX2 inline void ct_bfly_z(__m256i& a, __m256i& b, int i) {
  ct_bfly(a, b, _mm256_set1_epi16(kT.zm[i]), _mm256_set1_epi16(kT.zq[i]));
}
PQSIG_AVX2 inline void gs_bfly_z(__m256i& a, __m256i& b, int i) {
  gs_bfly(a, b, _mm256_set1_epi16(kT.zm[i]), _mm256_set1_epi16(kT.zq[i]));
}

// FIPS 203, Algorithm 9: NTT(f) (AVX2). The 256 coefficients are 16 registers v[0..15] of 16
// lanes. len = 128, 64, 32 pair registers of equal parity (v[j], v[j + 8/4/2]), so they run in
// two passes over the eight even and the eight odd registers; len = 16 pairs v[2m] with
// v[2m + 1], and len = 8, 4, 2 run inside that pair after shuffles. Each pass keeps its
// registers live (no spills even with AVX2's sixteen). Coefficients grow by < q per layer
// (|·| < 8q after seven layers, no overflow) and are reduced once at the end.
PQSIG_AVX2 void ntt_avx2(std::uint16_t c[kN]) noexcept {
  for (int p = 0; p < 2; ++p) {
    __m256i u0 = load(c + 16 * p), u1 = load(c + 16 * (p + 2)), u2 = load(c + 16 * (p + 4)),
            u3 = load(c + 16 * (p + 6)), u4 = load(c + 16 * (p + 8)), u5 = load(c + 16 * (p + 10)),
            u6 = load(c + 16 * (p + 12)), u7 = load(c + 16 * (p + 14));
    // len = 128: zeta index 1
    ct_bfly_z(u0, u4, 1);
    ct_bfly_z(u1, u5, 1);
    ct_bfly_z(u2, u6, 1);
    ct_bfly_z(u3, u7, 1);
    // len = 64: zeta indices 2, 3
    ct_bfly_z(u0, u2, 2);
    ct_bfly_z(u1, u3, 2);
    ct_bfly_z(u4, u6, 3);
    ct_bfly_z(u5, u7, 3);
    // len = 32: zeta indices 4 .. 7
    ct_bfly_z(u0, u1, 4);
    ct_bfly_z(u2, u3, 5);
    ct_bfly_z(u4, u5, 6);
    ct_bfly_z(u6, u7, 7);
    store(c + 16 * p, u0);
    store(c + 16 * (p + 2), u1);
    store(c + 16 * (p + 4), u2);
    store(c + 16 * (p + 6), u3);
    store(c + 16 * (p + 8), u4);
    store(c + 16 * (p + 10), u5);
    store(c + 16 * (p + 12), u6);
    store(c + 16 * (p + 14), u7);
  }
  for (int m = 0; m < 8; ++m) {
    __m256i x = load(c + 32 * m), y = load(c + 32 * m + 16);
    ct_bfly_z(x, y, 8 + m);  // len = 16: zeta index 8 + m
    // len = 8, 4, 2 inside the register pair.
    shuffle8(x, y);
    ct_bfly(x, y, load(kT.f8[m]), load(kT.f8q[m]));
    shuffle4(x, y);
    ct_bfly(x, y, load(kT.f4[m]), load(kT.f4q[m]));
    shuffle2(x, y);
    ct_bfly(x, y, load(kT.f2[m]), load(kT.f2q[m]));
    shuffle2(x, y);
    shuffle4(x, y);
    shuffle8(x, y);
    store(c + 32 * m, csubq(barrett(x)));
    store(c + 32 * m + 16, csubq(barrett(y)));
  }
}

// FIPS 203, Algorithm 10: NTT^-1(f̂) (AVX2), the passes of ntt_avx2 in reverse. Sums double per
// layer, so every coefficient is Barrett-reduced after the len = 8 and len = 64 layers (|·| ≤ 8q
// before each).
PQSIG_AVX2 void ntt_inverse_avx2(std::uint16_t c[kN]) noexcept {
  for (int m = 0; m < 8; ++m) {
    __m256i x = load(c + 32 * m), y = load(c + 32 * m + 16);
    shuffle8(x, y);
    shuffle4(x, y);
    shuffle2(x, y);
    gs_bfly(x, y, load(kT.i2[m]), load(kT.i2q[m]));
    shuffle2(x, y);
    gs_bfly(x, y, load(kT.i4[m]), load(kT.i4q[m]));
    shuffle4(x, y);
    gs_bfly(x, y, load(kT.i8[m]), load(kT.i8q[m]));
    shuffle8(x, y);
    x = barrett(x);
    y = barrett(y);
    gs_bfly_z(x, y, 15 - m);  // len = 16: zeta index 15 − m
    store(c + 32 * m, x);
    store(c + 32 * m + 16, y);
  }
  // Multiply by 128^-1 = 3303 (Algorithm 10 line 14).
  constexpr std::int16_t kFm = mont(3303), kFq = mont_qinv(3303);
  const __m256i fm = _mm256_set1_epi16(kFm), fq = _mm256_set1_epi16(kFq);
  for (int p = 0; p < 2; ++p) {
    __m256i u0 = load(c + 16 * p), u1 = load(c + 16 * (p + 2)), u2 = load(c + 16 * (p + 4)),
            u3 = load(c + 16 * (p + 6)), u4 = load(c + 16 * (p + 8)), u5 = load(c + 16 * (p + 10)),
            u6 = load(c + 16 * (p + 12)), u7 = load(c + 16 * (p + 14));
    // len = 32: zeta indices 7 .. 4
    gs_bfly_z(u0, u1, 7);
    gs_bfly_z(u2, u3, 6);
    gs_bfly_z(u4, u5, 5);
    gs_bfly_z(u6, u7, 4);
    // len = 64: zeta indices 3, 2; then reduce
    gs_bfly_z(u0, u2, 3);
    gs_bfly_z(u1, u3, 3);
    gs_bfly_z(u4, u6, 2);
    gs_bfly_z(u5, u7, 2);
    u0 = barrett(u0);
    u1 = barrett(u1);
    u2 = barrett(u2);
    u3 = barrett(u3);
    u4 = barrett(u4);
    u5 = barrett(u5);
    u6 = barrett(u6);
    u7 = barrett(u7);
    // len = 128: zeta index 1
    gs_bfly_z(u0, u4, 1);
    gs_bfly_z(u1, u5, 1);
    gs_bfly_z(u2, u6, 1);
    gs_bfly_z(u3, u7, 1);
    store(c + 16 * p, caddq(fqmul(u0, fm, fq)));
    store(c + 16 * (p + 2), caddq(fqmul(u1, fm, fq)));
    store(c + 16 * (p + 4), caddq(fqmul(u2, fm, fq)));
    store(c + 16 * (p + 6), caddq(fqmul(u3, fm, fq)));
    store(c + 16 * (p + 8), caddq(fqmul(u4, fm, fq)));
    store(c + 16 * (p + 10), caddq(fqmul(u5, fm, fq)));
    store(c + 16 * (p + 12), caddq(fqmul(u6, fm, fq)));
    store(c + 16 * (p + 14), caddq(fqmul(u7, fm, fq)));
  }
}

// FIPS 203, Algorithms 11–12 (AVX2): out = Σ_j MultiplyNTTs(a[j·stride], b[j]). For each
// pair, c0 = a0·b0 + a1·(b1·γ) and c1 = a0·b1 + a1·b0 are exact 32-bit dot products
// (vpmaddwd), summed over j (|Σ| < 4·2q² < q·2^15), then Montgomery-reduced once and
// multiplied by 2^32 mod q to undo the reduction's 2^-16.
PQSIG_AVX2 void multiply_ntts_sum_avx2(NttPoly& out, const NttPoly* a, int stride, const NttPoly* b, int n) noexcept {
  const __m256i q = _mm256_set1_epi16(kQi), qinv = _mm256_set1_epi16(kQinv);
  constexpr std::int16_t kR2m = mont(65536u % kQ), kR2q = mont_qinv(65536u % kQ);
  const __m256i r2m = _mm256_set1_epi16(kR2m), r2q = _mm256_set1_epi16(kR2q);
  for (int blk = 0; blk < 16; ++blk) {
    const __m256i gm = load(kT.g[blk]), gq = load(kT.gq[blk]);
    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
    for (int j = 0; j < n; ++j) {
      const __m256i av = load(a[j * stride].c + 16 * blk);
      const __m256i bv = load(b[j].c + 16 * blk);
      const __m256i bsw = _mm256_or_si256(_mm256_slli_epi32(bv, 16), _mm256_srli_epi32(bv, 16));
      const __m256i bg = _mm256_blend_epi16(bv, fqmul(bv, gm, gq), 0xAA);  // (b0, b1·γ)
      acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(av, bg));
      acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(av, bsw));
    }
    // Interleave (c0, c1) as int16 pairs: low halves L, high halves H; Montgomery: H − ⌊t·q/2^16⌋.
    const __m256i L = _mm256_blend_epi16(acc0, _mm256_slli_epi32(acc1, 16), 0xAA);
    const __m256i H = _mm256_blend_epi16(_mm256_srli_epi32(acc0, 16), acc1, 0xAA);
    const __m256i t = _mm256_mullo_epi16(L, qinv);
    const __m256i r = _mm256_sub_epi16(H, _mm256_mulhi_epi16(t, q));
    store(out.c + 16 * blk, caddq(fqmul(r, r2m, r2q)));
  }
}

// FIPS 203, Algorithm 7 lines 5–13 (AVX2): twelve bytes → eight 12-bit candidates per step;
// those < q are compacted with a shuffle chosen by the 8-bit acceptance mask (the bytes come
// from the XOF on the public ρ, so the table index is public).
struct CompactTable {
  alignas(16) std::uint8_t idx[256][16];
};
constexpr CompactTable make_compact() {
  CompactTable t{};
  for (int m = 0; m < 256; ++m) {
    int k = 0;
    for (int l = 0; l < 8; ++l)
      if ((m >> l) & 1) {
        t.idx[m][2 * k] = static_cast<std::uint8_t>(2 * l);
        t.idx[m][2 * k + 1] = static_cast<std::uint8_t>(2 * l + 1);
        ++k;
      }
    for (int r = 2 * k; r < 16; ++r) t.idx[m][r] = 0x80;
  }
  return t;
}
alignas(64) constexpr CompactTable kCompact = make_compact();

// The number of accepted candidates per half is a popcount of its mask (POPCNT comes with
// cpu::has_avx2()), not a table load: the running count then carries a one-cycle dependency
// from step to step instead of a load's latency.
PQSIG_AVX2 int sample_ntt_parse_avx2(std::uint16_t out[kN], int count,
                                 const std::uint8_t* buf, std::size_t len) noexcept {
  std::size_t p = 0;
  // Bytes 3i..3i+2 of a 24-byte group → 16-bit words (b0 | b1<<8) and (b1 | b2<<8).
  const __m256i spread = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,  //
                                          4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
  const __m256i mask12 = _mm256_set1_epi16(0x0FFF);
  const __m256i bound = _mm256_set1_epi16(kQi);
  // A 32-byte load at p reads bytes p..p+31; 24 of them are consumed. Stop while 32 remain,
  // and while 16 output slots remain (one step writes up to 16 words).
  while (p + 32 <= len && count <= kN - 16) {
    __m256i v = loadu(buf + p);
    v = _mm256_permute4x64_epi64(v, 0x94);  // lanes: bytes 0..15 | 8..23 (so the high half starts at byte 12)
    v = _mm256_shuffle_epi8(v, spread);
    const __m256i lo = _mm256_and_si256(v, mask12);
    const __m256i hi = _mm256_srli_epi16(v, 4);
    const __m256i d = _mm256_blend_epi16(lo, hi, 0xAA);  // d1, d2 alternating
    const __m256i good = _mm256_cmpgt_epi16(bound, d);
    const unsigned bits = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_packs_epi16(good, good)));
    const unsigned m0 = bits & 0xFF, m1 = (bits >> 16) & 0xFF;
    const __m128i d0 = _mm256_castsi256_si128(d), d1 = _mm256_extracti128_si256(d, 1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + count),
                     _mm_shuffle_epi8(d0, _mm_load_si128(reinterpret_cast<const __m128i*>(kCompact.idx[m0]))));
    const int n0 = __builtin_popcount(m0);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + count + n0),
                     _mm_shuffle_epi8(d1, _mm_load_si128(reinterpret_cast<const __m128i*>(kCompact.idx[m1]))));
    count += n0 + __builtin_popcount(m1);
    p += 24;
  }
  // The tail (and the last few coefficients) with the scalar loop.
  for (; p + 3 <= len && count < kN; p += 3) {
    const std::uint16_t d1 = static_cast<std::uint16_t>(buf[p] | ((buf[p + 1] & 0x0F) << 8));
    const std::uint16_t d2 = static_cast<std::uint16_t>((buf[p + 1] >> 4) | (buf[p + 2] << 4));
    if (d1 < kQ) out[count++] = d1;
    if (d2 < kQ && count < kN) out[count++] = d2;
  }
  return count;
}

// FIPS 203, Algorithm 8: SamplePolyCBD_2(B) (AVX2): 32 bytes → 64 coefficients. In every nibble
// x = b0 + b1 and y = b2 + b3 are counted with masks, x − y + 3 ∈ [1, 5] is formed without borrow,
// and the result is mapped to [0, q) with a masked addition.
PQSIG_AVX2 void cbd2_avx2(const std::uint8_t* b, std::uint16_t c[kN]) noexcept {
  const __m256i m55 = _mm256_set1_epi8(0x55), m33 = _mm256_set1_epi8(0x33), m0f = _mm256_set1_epi8(0x0F);
  const __m256i three = _mm256_set1_epi16(3), q = _mm256_set1_epi16(kQi);
  for (int i = 0; i < 4; ++i) {
    __m256i f = loadu(b + 32 * i);
    f = _mm256_add_epi8(_mm256_and_si256(f, m55), _mm256_and_si256(_mm256_srli_epi16(f, 1), m55));
    const __m256i x = _mm256_and_si256(f, m33), y = _mm256_and_si256(_mm256_srli_epi16(f, 2), m33);
    const __m256i v = _mm256_sub_epi8(_mm256_add_epi8(x, m33), y);  // per nibble x − y + 3
    const __m256i lo = _mm256_and_si256(v, m0f), hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m0f);
    const __m256i t0 = _mm256_unpacklo_epi8(lo, hi), t1 = _mm256_unpackhi_epi8(lo, hi);
    __m256i w[4] = {_mm256_cvtepu8_epi16(_mm256_castsi256_si128(t0)), _mm256_cvtepu8_epi16(_mm256_castsi256_si128(t1)),
                    _mm256_cvtepu8_epi16(_mm256_extracti128_si256(t0, 1)),
                    _mm256_cvtepu8_epi16(_mm256_extracti128_si256(t1, 1))};
    for (int k = 0; k < 4; ++k) {
      __m256i r = _mm256_sub_epi16(w[k], three);
      r = _mm256_add_epi16(r, _mm256_and_si256(q, _mm256_srai_epi16(r, 15)));
      storeu(c + 64 * i + 16 * k, r);
    }
  }
}

// x − y + 3 ∈ [0, 6] for coefficient K of each 32-bit lane of 3-bit counts d.
template <int K>
PQSIG_AVX2 inline __m256i cbd3_coef(__m256i d) {
  const __m256i m7 = _mm256_set1_epi32(7);
  const __m256i xx = _mm256_and_si256(_mm256_srli_epi32(d, 6 * K), m7);
  const __m256i yy = _mm256_and_si256(_mm256_srli_epi32(d, 6 * K + 3), m7);
  return _mm256_sub_epi32(_mm256_add_epi32(xx, _mm256_set1_epi32(3)), yy);
}

// FIPS 203, Algorithm 8: SamplePolyCBD_3(B) (AVX2): 24 bytes → 32 coefficients, three bytes per
// 32-bit lane; every 3-bit group is counted with masks, then x − y + 3 ∈ [0, 6] per coefficient.
PQSIG_AVX2 void cbd3_avx2(const std::uint8_t* b, std::uint16_t c[kN]) noexcept {
  const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,  //
                                          0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
  const __m256i m249 = _mm256_set1_epi32(0x249249);
  const __m256i three = _mm256_set1_epi16(3), q = _mm256_set1_epi16(kQi);
  for (int i = 0; i < 8; ++i) {
    const std::uint8_t* p = b + 24 * i;
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));                   // bytes 0..15
    const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + 16));              // bytes 16..23
    const __m256i v = _mm256_shuffle_epi8(_mm256_set_m128i(_mm_alignr_epi8(hi, lo, 12), lo), spread);
    const __m256i d = _mm256_add_epi32(
        _mm256_add_epi32(_mm256_and_si256(v, m249), _mm256_and_si256(_mm256_srli_epi32(v, 1), m249)),
        _mm256_and_si256(_mm256_srli_epi32(v, 2), m249));
    const __m256i p01 = _mm256_or_si256(cbd3_coef<0>(d), _mm256_slli_epi32(cbd3_coef<1>(d), 16));
    const __m256i p23 = _mm256_or_si256(cbd3_coef<2>(d), _mm256_slli_epi32(cbd3_coef<3>(d), 16));
    const __m256i A = _mm256_unpacklo_epi32(p01, p23), B = _mm256_unpackhi_epi32(p01, p23);
    __m256i o0 = _mm256_permute2x128_si256(A, B, 0x20), o1 = _mm256_permute2x128_si256(A, B, 0x31);
    o0 = _mm256_sub_epi16(o0, three);
    o1 = _mm256_sub_epi16(o1, three);
    o0 = _mm256_add_epi16(o0, _mm256_and_si256(q, _mm256_srai_epi16(o0, 15)));
    o1 = _mm256_add_epi16(o1, _mm256_and_si256(q, _mm256_srai_epi16(o1, 15)));
    storeu(c + 32 * i, o0);
    storeu(c + 32 * i + 16, o1);
  }
}

PQSIG_AVX2 void sample_poly_cbd_avx2(int eta, const std::uint8_t* b, std::uint16_t c[kN]) noexcept {
  if (eta == 3) cbd3_avx2(b, c);  // η is a public parameter
  else cbd2_avx2(b, c);
}

// ByteEncode_d / ByteDecode_d (FIPS 203 Algorithms 5, 6) a group of G coefficients (G·d bits, a
// whole number of bytes) at a time.
__extension__ typedef unsigned __int128 u128;
template <int D>
constexpr int kGroup = D == 10 ? 4 : (D == 12 || D == 4) ? 2 : 8;
template <int D>
using Acc = std::conditional_t<(kGroup<D> * D > 64), u128, std::uint64_t>;

// d = 11 (ML-KEM-1024's u): eight 11-bit values = 88 bits as a 64-bit word and a 24-bit one
// (bits 64–87), not a 128-bit accumulator shifted byte by byte.
PQSIG_AVX2 inline void pack11(const std::uint16_t* t, std::uint8_t* out) {
  for (int i = 0; i < kN; i += 8, out += 11) {
    const std::uint64_t lo = std::uint64_t{t[i]} | std::uint64_t{t[i + 1]} << 11 | std::uint64_t{t[i + 2]} << 22 |
                             std::uint64_t{t[i + 3]} << 33 | std::uint64_t{t[i + 4]} << 44 |
                             std::uint64_t{t[i + 5]} << 55;
    const std::uint32_t hi = std::uint32_t{t[i + 5]} >> 9 | std::uint32_t{t[i + 6]} << 2 | std::uint32_t{t[i + 7]} << 13;
    std::memcpy(out, &lo, 8);  // little-endian targets (x86-64)
    out[8] = static_cast<std::uint8_t>(hi);
    out[9] = static_cast<std::uint8_t>(hi >> 8);
    out[10] = static_cast<std::uint8_t>(hi >> 16);
  }
}
PQSIG_AVX2 inline void unpack11(const std::uint8_t* in, std::uint16_t* t) {
  constexpr std::uint64_t m = 0x7FF;
  for (int i = 0; i < kN; i += 8, in += 11) {
    std::uint64_t lo;
    std::memcpy(&lo, in, 8);
    const std::uint64_t hi = std::uint64_t{in[8]} | std::uint64_t{in[9]} << 8 | std::uint64_t{in[10]} << 16;
    t[i] = static_cast<std::uint16_t>(lo & m);
    t[i + 1] = static_cast<std::uint16_t>((lo >> 11) & m);
    t[i + 2] = static_cast<std::uint16_t>((lo >> 22) & m);
    t[i + 3] = static_cast<std::uint16_t>((lo >> 33) & m);
    t[i + 4] = static_cast<std::uint16_t>((lo >> 44) & m);
    t[i + 5] = static_cast<std::uint16_t>(((lo >> 55) | (hi << 9)) & m);
    t[i + 6] = static_cast<std::uint16_t>((hi >> 2) & m);
    t[i + 7] = static_cast<std::uint16_t>((hi >> 13) & m);
  }
}
template <int D>
PQSIG_AVX2 inline void pack(const std::uint16_t* t, std::uint8_t* out) {
  if constexpr (D == 11) {
    pack11(t, out);
    return;
  }
  constexpr int G = kGroup<D>, B = G * D / 8;
  for (int i = 0; i < kN; i += G, out += B) {
    Acc<D> a = 0;
    for (int j = 0; j < G; ++j) a |= static_cast<Acc<D>>(t[i + j]) << (D * j);
    for (int k = 0; k < B; ++k) out[k] = static_cast<std::uint8_t>(a >> (8 * k));
  }
}
template <int D>
PQSIG_AVX2 inline void unpack(const std::uint8_t* in, std::uint16_t* t) {
  if constexpr (D == 11) {
    unpack11(in, t);
    return;
  }
  constexpr int G = kGroup<D>, B = G * D / 8;
  for (int i = 0; i < kN; i += G, in += B) {
    Acc<D> a = 0;
    for (int k = 0; k < B; ++k) a |= static_cast<Acc<D>>(in[k]) << (8 * k);
    for (int j = 0; j < G; ++j) t[i + j] = static_cast<std::uint16_t>((a >> (D * j)) & ((1u << D) - 1));
  }
}

// Compress_d (§4.2.1) of sixteen values in [0, q): ⌊(x·2^d + ⌊q/2⌋)/q⌋ mod 2^d, in 32-bit lanes.
// The quotient estimate (y·315) >> 20 (315 = ⌈2^20/q⌉, y < 2^23) is ⌊y/q⌋ or one more, fixed by
// one masked decrement when y − estimate·q < 0. No division (KyberSlash).
template <int D>
PQSIG_AVX2 inline __m256i compress32(__m256i x) {
  const __m256i y = _mm256_add_epi32(_mm256_slli_epi32(x, D), _mm256_set1_epi32(kQ / 2));
  __m256i e = _mm256_srli_epi32(_mm256_mullo_epi32(y, _mm256_set1_epi32(315)), 20);
  const __m256i r = _mm256_sub_epi32(y, _mm256_mullo_epi32(e, _mm256_set1_epi32(kQi)));
  e = _mm256_add_epi32(e, _mm256_srai_epi32(r, 31));
  return _mm256_and_si256(e, _mm256_set1_epi32((1 << D) - 1));
}
template <int D>
PQSIG_AVX2 void compress_encode_d(const std::uint16_t c[kN], std::uint8_t* out) {
  alignas(32) std::uint16_t t[kN];
  for (int i = 0; i < kN; i += 16) {
    const __m256i x = load(c + i);
    const __m256i lo = compress32<D>(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(x)));
    const __m256i hi = compress32<D>(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(x, 1)));
    store(t + i, _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xD8));
  }
  pack<D>(t, out);
}
// ByteEncode_12 (FIPS 203, Algorithm 5) of values in [0, q): sixteen coefficients → 24 bytes.
// Pairs are joined into 24-bit words (x_2i + 2^12·x_2i+1, one vpmaddwd), the three low bytes of
// each 32-bit word are gathered per 128-bit half (vpshufb) and written as 8 + 4 bytes.
PQSIG_AVX2 void byte_encode12(const std::uint16_t c[kN], std::uint8_t* out) {
  const __m256i mul = _mm256_set1_epi32((1 << 12) << 16 | 1);
  const __m256i sh = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,  //
                                      0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  for (int i = 0; i < kN; i += 16, out += 24) {
    const __m256i v = _mm256_shuffle_epi8(_mm256_madd_epi16(load(c + i), mul), sh);
    const __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), lo);
    const std::uint32_t lo2 = static_cast<std::uint32_t>(_mm_extract_epi32(lo, 2));
    std::memcpy(out + 8, &lo2, 4);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 12), hi);
    const std::uint32_t hi2 = static_cast<std::uint32_t>(_mm_extract_epi32(hi, 2));
    std::memcpy(out + 20, &hi2, 4);
  }
}
PQSIG_AVX2 void compress_encode_avx2(int d, const std::uint16_t c[kN], std::uint8_t* out) noexcept {
  switch (d) {  // d is a public parameter
    case 1: return compress_encode_d<1>(c, out);
    case 4: return compress_encode_d<4>(c, out);
    case 5: return compress_encode_d<5>(c, out);
    case 10: return compress_encode_d<10>(c, out);
    case 11: return compress_encode_d<11>(c, out);
    default: return byte_encode12(c, out);
  }
}

// Decompress_d (§4.2.1): ⌊(y·q + 2^(d−1)) / 2^d⌋ = vpmulhrsw(y·2^(15−d), q), exact.
template <int D>
PQSIG_AVX2 void decode_decompress_d(const std::uint8_t* in, std::uint16_t c[kN]) {
  unpack<D>(in, c);
  const __m256i q = _mm256_set1_epi16(kQi);
  for (int i = 0; i < kN; i += 16) store(c + i, _mm256_mulhrs_epi16(_mm256_slli_epi16(load(c + i), 15 - D), q));
}
PQSIG_AVX2 void decode_decompress_avx2(int d, const std::uint8_t* in, std::uint16_t c[kN]) noexcept {
  switch (d) {  // d is a public parameter
    case 1: return decode_decompress_d<1>(in, c);
    case 4: return decode_decompress_d<4>(in, c);
    case 5: return decode_decompress_d<5>(in, c);
    case 10: return decode_decompress_d<10>(in, c);
    case 11: return decode_decompress_d<11>(in, c);
    default: break;
  }
  unpack<12>(in, c);  // ByteDecode_12, then mod q (a 12-bit value is < 2q)
  const __m256i q = _mm256_set1_epi16(kQi);
  for (int i = 0; i < kN; i += 16) {
    __m256i v = _mm256_sub_epi16(load(c + i), q);
    store(c + i, _mm256_add_epi16(v, _mm256_and_si256(q, _mm256_srai_epi16(v, 15))));
  }
}

constexpr PolyOps kAvx2{"avx2",
                        &ntt_avx2,
                        &ntt_inverse_avx2,
                        &multiply_ntts_sum_avx2,
                        &sample_ntt_parse_avx2,
                        &sample_poly_cbd_avx2,
                        &compress_encode_avx2,
                        &decode_decompress_avx2};

// The AVX-512 table: these kernels where poly_avx512.cpp has none faster.
constexpr PolyOps kAvx512{"avx512",
                          &avx512::ntt,
                          &avx512::ntt_inverse,
                          &avx512::multiply_ntts_sum,
                          &avx512::sample_ntt_parse,
                          &avx512::sample_poly_cbd,
                          &compress_encode_avx2,
                          &decode_decompress_avx2};

}  // namespace

const PolyOps* poly_ops_avx2() noexcept { return cpu::has_avx2() ? &kAvx2 : nullptr; }
const PolyOps* poly_ops_avx512() noexcept { return avx512::available() ? &kAvx512 : nullptr; }
#else
const PolyOps* poly_ops_avx2() noexcept { return nullptr; }
const PolyOps* poly_ops_avx512() noexcept { return nullptr; }
#endif

}  // namespace pqsig::mlkem::detail
