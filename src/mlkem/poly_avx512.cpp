// AVX-512 kernels for the ML-KEM backend: NTT, NTT^-1 and MultiplyNTTs (FIPS 203 §4.3) with
// the whole polynomial in eight zmm registers, SamplePolyCBD (§4.2.2) by bit-field shuffles,
// and the SampleNTT candidate filter on 32 sixteen-bit lanes with VBMI's byte permute and
// VBMI2's in-register compress. The table that selects them (the AVX2 kernels plus these) is
// built in poly_avx2.cpp. Inputs and outputs are the scalar reference's — values in [0, q),
// standard order — bit for bit (tests/mlkem/test_backend.cpp). Constant time: no branch or
// memory index depends on a coefficient (CBD's lookup is a register permute); only public bytes
// (ρ's XOF stream) reach the filter's compress. Valgrind does not run AVX-512, so the
// constant-time tests (tests/ct_mlkem) see the AVX2 kernels; these are straight-line code.
#include "common/cpu.hpp"
#include "mlkem/poly.hpp"

#if !defined(PQSIG_PORTABLE) && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define PQSIG_MLKEM_AVX512 1
#include <immintrin.h>
#endif

namespace pqsig::mlkem::detail::avx512 {

#if defined(PQSIG_MLKEM_AVX512)
#define PQSIG_AVX512 \
  __attribute__((target("avx2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")))

namespace {
// Word j of a 48-byte group (32 candidates, 3 bytes per pair): pair i = j/2 is bytes 3i..3i+2;
// the even word takes bytes (3i, 3i+1) and keeps the low 12 bits, the odd word takes
// (3i+1, 3i+2) and is shifted right by 4.
struct SpreadTable {
  alignas(64) std::uint8_t idx[64];
};
constexpr SpreadTable make_spread() {
  SpreadTable t{};
  for (int j = 0; j < 32; ++j) {
    const int b = 3 * (j / 2) + (j & 1);
    t.idx[2 * j] = static_cast<std::uint8_t>(b);
    t.idx[2 * j + 1] = static_cast<std::uint8_t>(b + 1);
  }
  return t;
}
alignas(64) constexpr SpreadTable kSpread = make_spread();

// The candidates of the n ≤ 48 bytes at buf (n a multiple of 3) and the mask of those < q.
PQSIG_AVX512 inline __m512i candidates(const std::uint8_t* buf, unsigned n, __mmask32& good) noexcept {
  const __mmask64 load = (std::uint64_t{1} << n) - 1;  // no byte past buf + n is read
  __m512i v = _mm512_maskz_loadu_epi8(load, buf);
  // (the maskz form: GCC 12 warns on the plain one's undefined pass-through operand)
  v = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, _mm512_load_si512(kSpread.idx), v);
  v = _mm512_mask_srli_epi16(v, 0xAAAAAAAAu, v, 4);
  v = _mm512_and_si512(v, _mm512_set1_epi16(0x0FFF));
  const __mmask32 words = static_cast<__mmask32>((std::uint64_t{1} << (n / 3 * 2)) - 1);
  good = _mm512_mask_cmplt_epu16_mask(words, v, _mm512_set1_epi16(static_cast<short>(kQ)));
  return v;
}

// ---------------------------------------------------------------- NTT
// Register layout. The polynomial is v[0..7], v[j] = c[32j .. 32j+31]. len = 128, 64, 32 pair
// whole registers. len = 16, 8, 4, 2 run inside the register pair (x, y) = (v[2m], v[2m+1]),
// i.e. C = c[64m .. 64m+63], after shuffles that bring the partners of one layer to the same
// lane of x and y; every shuffle is an involution, so the same shuffles undo them:
//   shuffle16: x = C[0..15 | 32..47],      y = C[16..31 | 48..63]         (256-bit halves)
//   shuffle8:  swaps 128-bit chunks so x, y lanes differ by 8;  shuffle4: by 4 (qwords);
//   shuffle2:  by 2 (dwords).
// The zeta of lane l is found by replaying the shuffles on lane indices (make_zetas512).
struct Layout {
  int x[32], y[32];
};
constexpr Layout shuffle16(const Layout& s) {
  Layout t{};
  for (int l = 0; l < 16; ++l) {
    t.x[l] = s.x[l], t.x[16 + l] = s.y[l];
    t.y[l] = s.x[16 + l], t.y[16 + l] = s.y[16 + l];
  }
  return t;
}
constexpr Layout shuffle8(const Layout& s) {
  Layout t{};
  for (int k = 0; k < 4; k += 2)  // chunks of 8 lanes: x' = [x0 y0 x2 y2], y' = [x1 y1 x3 y3]
    for (int l = 0; l < 8; ++l) {
      t.x[8 * k + l] = s.x[8 * k + l], t.x[8 * k + 8 + l] = s.y[8 * k + l];
      t.y[8 * k + l] = s.x[8 * k + 8 + l], t.y[8 * k + 8 + l] = s.y[8 * k + 8 + l];
    }
  return t;
}
constexpr Layout shuffle4(const Layout& s) {
  Layout t{};
  for (int k = 0; k < 4; ++k)  // per 128-bit chunk: unpacklo / unpackhi of qwords
    for (int l = 0; l < 4; ++l) {
      t.x[8 * k + l] = s.x[8 * k + l], t.x[8 * k + 4 + l] = s.y[8 * k + l];
      t.y[8 * k + l] = s.x[8 * k + 4 + l], t.y[8 * k + 4 + l] = s.y[8 * k + 4 + l];
    }
  return t;
}
constexpr Layout shuffle2(const Layout& s) {
  Layout t{};
  for (int k = 0; k < 8; ++k)  // per qword: dword blends
    for (int l = 0; l < 2; ++l) {
      t.x[4 * k + l] = s.x[4 * k + l], t.x[4 * k + 2 + l] = s.y[4 * k + l];
      t.y[4 * k + l] = s.x[4 * k + 2 + l], t.y[4 * k + 2 + l] = s.y[4 * k + 2 + l];
    }
  return t;
}

// Zetas (Montgomery form, and times q^-1) per lane, for pair m and the in-register layers
// len = 16, 8, 4, 2 (index 0..3). Forward (Algorithm 9): zeta index 128/len + group;
// inverse (Algorithm 10): 256/len − 1 − group; group = (64m + position) / (2·len).
struct Zetas512 {
  alignas(64) std::int16_t f[4][4][32], fq[4][4][32], i[4][4][32], iq[4][4][32];
};
constexpr Zetas512 make_zetas512() {
  Zetas512 z{};
  for (int m = 0; m < 4; ++m) {
    Layout s{};
    for (int l = 0; l < 32; ++l) s.x[l] = l, s.y[l] = 32 + l;
    for (int layer = 0; layer < 4; ++layer) {
      s = layer == 0 ? shuffle16(s) : layer == 1 ? shuffle8(s) : layer == 2 ? shuffle4(s) : shuffle2(s);
      const int len = 16 >> layer;
      for (int l = 0; l < 32; ++l) {
        const int group = (64 * m + s.x[l]) / (2 * len);
        const int fi = 128 / len + group, ii = 256 / len - 1 - group;
        z.f[m][layer][l] = mont(kZetas[static_cast<std::size_t>(fi)]);
        z.fq[m][layer][l] = mont_qinv(kZetas[static_cast<std::size_t>(fi)]);
        z.i[m][layer][l] = mont(kZetas[static_cast<std::size_t>(ii)]);
        z.iq[m][layer][l] = mont_qinv(kZetas[static_cast<std::size_t>(ii)]);
      }
    }
  }
  return z;
}
alignas(64) constexpr Zetas512 kZ = make_zetas512();

constexpr std::int16_t kQi = static_cast<std::int16_t>(kQ);
constexpr std::int16_t kBarrettV = 20159;  // round(2^26 / q)

PQSIG_AVX512 inline __m512i load(const void* p) { return _mm512_loadu_si512(p); }
PQSIG_AVX512 inline void store(void* p, __m512i v) { _mm512_storeu_si512(p, v); }
PQSIG_AVX512 inline __m512i set1(std::int16_t v) { return _mm512_set1_epi16(v); }

// a·z mod q for z in Montgomery form (zm, zq = zm·q^-1): result in (−q, q) if |a·zm| < q·2^15.
PQSIG_AVX512 inline __m512i fqmul(__m512i a, __m512i zm, __m512i zq) {
  const __m512i lo = _mm512_mullo_epi16(a, zq);
  return _mm512_sub_epi16(_mm512_mulhi_epi16(a, zm), _mm512_mulhi_epi16(lo, set1(kQi)));
}
// Barrett reduction of any int16 into [0, q].
PQSIG_AVX512 inline __m512i barrett(__m512i a) {
  const __m512i t = _mm512_srai_epi16(_mm512_mulhi_epi16(a, set1(kBarrettV)), 10);
  return _mm512_sub_epi16(a, _mm512_mullo_epi16(t, set1(kQi)));
}
// (−q, q) → [0, q)
PQSIG_AVX512 inline __m512i caddq(__m512i a) {
  return _mm512_mask_add_epi16(a, _mm512_movepi16_mask(a), a, set1(kQi));
}
// [0, q] → [0, q)
PQSIG_AVX512 inline __m512i csubq(__m512i a) {
  return _mm512_mask_sub_epi16(a, _mm512_cmpge_epi16_mask(a, set1(kQi)), a, set1(kQi));
}

PQSIG_AVX512 inline void ct_bfly(__m512i& a, __m512i& b, __m512i zm, __m512i zq) {
  const __m512i t = fqmul(b, zm, zq);
  b = _mm512_sub_epi16(a, t);
  a = _mm512_add_epi16(a, t);
}
PQSIG_AVX512 inline void gs_bfly(__m512i& a, __m512i& b, __m512i zm, __m512i zq) {
  const __m512i t = a;
  a = _mm512_add_epi16(t, b);
  b = fqmul(_mm512_sub_epi16(b, t), zm, zq);
}
PQSIG_AVX512 inline void ct_bfly_z(__m512i& a, __m512i& b, int i) {
  ct_bfly(a, b, set1(mont(kZetas[static_cast<std::size_t>(i)])), set1(mont_qinv(kZetas[static_cast<std::size_t>(i)])));
}
PQSIG_AVX512 inline void gs_bfly_z(__m512i& a, __m512i& b, int i) {
  gs_bfly(a, b, set1(mont(kZetas[static_cast<std::size_t>(i)])), set1(mont_qinv(kZetas[static_cast<std::size_t>(i)])));
}

// The shuffles of Layout, on registers. (Zero-masked forms with a full mask: GCC 12's plain
// intrinsics pass _mm512_undefined_epi32 through and trip -Wuninitialized.)
constexpr __mmask8 kAll8 = 0xFF;
PQSIG_AVX512 inline void shuffle16(__m512i& x, __m512i& y) {
  const __m512i a = _mm512_maskz_shuffle_i64x2(kAll8, x, y, 0x44), b = _mm512_maskz_shuffle_i64x2(kAll8, x, y, 0xEE);
  x = a, y = b;
}
PQSIG_AVX512 inline void shuffle8(__m512i& x, __m512i& y) {
  const __m512i a = _mm512_permutex2var_epi64(x, _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13), y);
  const __m512i b = _mm512_permutex2var_epi64(x, _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15), y);
  x = a, y = b;
}
PQSIG_AVX512 inline void shuffle4(__m512i& x, __m512i& y) {
  const __m512i a = _mm512_maskz_unpacklo_epi64(kAll8, x, y), b = _mm512_maskz_unpackhi_epi64(kAll8, x, y);
  x = a, y = b;
}
PQSIG_AVX512 inline void shuffle2(__m512i& x, __m512i& y) {
  const __m512i a = _mm512_mask_blend_epi32(0xAAAA, x, _mm512_maskz_slli_epi64(kAll8, y, 32));
  const __m512i b = _mm512_mask_blend_epi32(0xAAAA, _mm512_maskz_srli_epi64(kAll8, x, 32), y);
  x = a, y = b;
}

PQSIG_AVX512 inline __m512i zf(int m, int layer) { return _mm512_load_si512(kZ.f[m][layer]); }
PQSIG_AVX512 inline __m512i zfq(int m, int layer) { return _mm512_load_si512(kZ.fq[m][layer]); }
PQSIG_AVX512 inline __m512i zi(int m, int layer) { return _mm512_load_si512(kZ.i[m][layer]); }
PQSIG_AVX512 inline __m512i ziq(int m, int layer) { return _mm512_load_si512(kZ.iq[m][layer]); }

// NTT layers len = 16 .. 2 of pair m (C = x ‖ y), then the final reduction, stored at out.
PQSIG_AVX512 inline void ntt_pair(__m512i x, __m512i y, int m, std::uint16_t* out) {
  shuffle16(x, y);
  ct_bfly(x, y, zf(m, 0), zfq(m, 0));  // len = 16
  shuffle8(x, y);
  ct_bfly(x, y, zf(m, 1), zfq(m, 1));  // len = 8
  shuffle4(x, y);
  ct_bfly(x, y, zf(m, 2), zfq(m, 2));  // len = 4
  shuffle2(x, y);
  ct_bfly(x, y, zf(m, 3), zfq(m, 3));  // len = 2
  shuffle2(x, y);
  shuffle4(x, y);
  shuffle8(x, y);
  shuffle16(x, y);
  store(out, csubq(barrett(x)));
  store(out + 32, csubq(barrett(y)));
}
// ---------------------------------------------------------------- SamplePolyCBD
// 64 coefficients per step from 16η bytes: vpermb puts the 2η bytes of eight coefficients in
// each qword, vpmultishiftqb moves coefficient j's 2η bits to the low bits of byte j, and a
// second vpermb (a register lookup: no memory index) maps those bits to x − y ∈ [−η, η].
template <int Eta>
struct CbdTables {
  alignas(64) std::uint8_t spread[64], shift[64];
  alignas(64) std::int8_t value[64];
};
template <int Eta>
constexpr CbdTables<Eta> make_cbd_tables() {
  CbdTables<Eta> t{};
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 8; ++j) {
      t.spread[8 * k + j] = static_cast<std::uint8_t>(j < 2 * Eta ? 2 * Eta * k + j : 0);
      t.shift[8 * k + j] = static_cast<std::uint8_t>(2 * Eta * j);
    }
  for (int i = 0; i < 64; ++i) {
    int x = 0, y = 0;
    for (int j = 0; j < Eta; ++j) x += (i >> j) & 1, y += (i >> (Eta + j)) & 1;
    t.value[i] = static_cast<std::int8_t>(x - y);
  }
  return t;
}
alignas(64) constexpr CbdTables<2> kCbd2 = make_cbd_tables<2>();
alignas(64) constexpr CbdTables<3> kCbd3 = make_cbd_tables<3>();

template <int Eta>
PQSIG_AVX512 inline void cbd(const CbdTables<Eta>& t, const std::uint8_t* b, std::uint16_t c[kN]) {
  constexpr int kStep = 16 * Eta;  // bytes per 64 coefficients
  const __m512i spread = _mm512_load_si512(t.spread), shift = _mm512_load_si512(t.shift);
  const __m512i value = _mm512_load_si512(t.value), q = set1(kQi);
  for (int s = 0; s < 4; ++s) {
    __m512i v = _mm512_maskz_loadu_epi8((std::uint64_t{1} << kStep) - 1, b + kStep * s);
    v = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, spread, v);
    v = _mm512_maskz_multishift_epi64_epi8(~__mmask64{0}, shift, v);
    v = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, v, value);  // value[v & 63]
    // (the masked extract for both halves: GCC 12's plain cast and extract trip -Wuninitialized)
    const __m512i lo = _mm512_cvtepi8_epi16(_mm512_maskz_extracti64x4_epi64(static_cast<__mmask8>(0xF), v, 0));
    const __m512i hi = _mm512_cvtepi8_epi16(_mm512_maskz_extracti64x4_epi64(static_cast<__mmask8>(0xF), v, 1));
    store(c + 64 * s, _mm512_mask_add_epi16(lo, _mm512_movepi16_mask(lo), lo, q));
    store(c + 64 * s + 32, _mm512_mask_add_epi16(hi, _mm512_movepi16_mask(hi), hi, q));
  }
}
// ---------------------------------------------------------------- MultiplyNTTs
// γ for the pair of lane l of block b (32 coefficients): kGammas[16b + l/2], Montgomery form.
struct Gammas512 {
  alignas(64) std::int16_t g[8][32], gq[8][32];
};
constexpr Gammas512 make_gammas512() {
  Gammas512 t{};
  for (int b = 0; b < 8; ++b)
    for (int l = 0; l < 32; ++l) {
      t.g[b][l] = mont(kGammas[static_cast<std::size_t>(16 * b + l / 2)]);
      t.gq[b][l] = mont_qinv(kGammas[static_cast<std::size_t>(16 * b + l / 2)]);
    }
  return t;
}
alignas(64) constexpr Gammas512 kG = make_gammas512();
constexpr __mmask16 kAll16 = 0xFFFF;
constexpr __mmask32 kOdd16 = 0xAAAAAAAAu;  // the odd 16-bit lanes
}  // namespace

// FIPS 203, Algorithms 11–12: out = Σ_j MultiplyNTTs(a[j·stride], b[j]), as the AVX2 kernel on
// 32 lanes: per pair c0 = a0·b0 + a1·(b1·γ) and c1 = a0·b1 + a1·b0 as exact 32-bit dot products
// (vpmaddwd) summed over j (|Σ| < 4·2q² < q·2^15), one Montgomery reduction, then ·2^32 mod q.
PQSIG_AVX512 void multiply_ntts_sum(NttPoly& out, const NttPoly* a, int stride, const NttPoly* b, int n) noexcept {
  const __m512i q = set1(kQi), qinv = set1(-3327);  // q^-1 mod 2^16, signed
  const __m512i r2m = set1(mont(65536u % kQ)), r2q = set1(mont_qinv(65536u % kQ));
  for (int blk = 0; blk < 8; ++blk) {
    const __m512i gm = _mm512_load_si512(kG.g[blk]), gq = _mm512_load_si512(kG.gq[blk]);
    __m512i acc0 = _mm512_setzero_si512(), acc1 = _mm512_setzero_si512();
    for (int j = 0; j < n; ++j) {
      const __m512i av = load(a[j * stride].c + 32 * blk);
      const __m512i bv = load(b[j].c + 32 * blk);
      const __m512i bsw = _mm512_or_si512(_mm512_maskz_slli_epi32(kAll16, bv, 16), _mm512_maskz_srli_epi32(kAll16, bv, 16));
      const __m512i bg = _mm512_mask_blend_epi16(kOdd16, bv, fqmul(bv, gm, gq));  // (b0, b1·γ)
      acc0 = _mm512_add_epi32(acc0, _mm512_madd_epi16(av, bg));
      acc1 = _mm512_add_epi32(acc1, _mm512_madd_epi16(av, bsw));
    }
    // (c0, c1) as int16 pairs: low halves L, high halves H; Montgomery: H − ⌊t·q / 2^16⌋.
    const __m512i L = _mm512_mask_blend_epi16(kOdd16, acc0, _mm512_maskz_slli_epi32(kAll16, acc1, 16));
    const __m512i H = _mm512_mask_blend_epi16(kOdd16, _mm512_maskz_srli_epi32(kAll16, acc0, 16), acc1);
    const __m512i t = _mm512_mullo_epi16(L, qinv);
    const __m512i r = _mm512_sub_epi16(H, _mm512_mulhi_epi16(t, q));
    store(out.c + 32 * blk, caddq(fqmul(r, r2m, r2q)));
  }
}

// FIPS 203, Algorithm 8: SamplePolyCBD_η(B), η ∈ {2, 3} (B: 64η secret bytes).
PQSIG_AVX512 void sample_poly_cbd(int eta, const std::uint8_t* b, std::uint16_t c[kN]) noexcept {
  if (eta == 3) cbd(kCbd3, b, c);  // η is a public parameter
  else cbd(kCbd2, b, c);
}

// FIPS 203, Algorithm 9: NTT(f). Coefficients grow by < q per layer (|·| < 8q after seven
// layers: no int16 overflow) and are reduced once at the end, as in the AVX2 kernel.
PQSIG_AVX512 void ntt(std::uint16_t c[kN]) noexcept {
  __m512i v0 = load(c), v1 = load(c + 32), v2 = load(c + 64), v3 = load(c + 96), v4 = load(c + 128),
          v5 = load(c + 160), v6 = load(c + 192), v7 = load(c + 224);
  ct_bfly_z(v0, v4, 1);  // len = 128
  ct_bfly_z(v1, v5, 1);
  ct_bfly_z(v2, v6, 1);
  ct_bfly_z(v3, v7, 1);
  ct_bfly_z(v0, v2, 2);  // len = 64
  ct_bfly_z(v1, v3, 2);
  ct_bfly_z(v4, v6, 3);
  ct_bfly_z(v5, v7, 3);
  ct_bfly_z(v0, v1, 4);  // len = 32
  ct_bfly_z(v2, v3, 5);
  ct_bfly_z(v4, v5, 6);
  ct_bfly_z(v6, v7, 7);
  ntt_pair(v0, v1, 0, c);
  ntt_pair(v2, v3, 1, c + 64);
  ntt_pair(v4, v5, 2, c + 128);
  ntt_pair(v6, v7, 3, c + 192);
}

// FIPS 203, Algorithm 10: NTT^-1(f̂), the layers of ntt in reverse. Sums double per layer, so
// every coefficient is Barrett-reduced after len = 8 and len = 64 (|·| < 8q before each).
PQSIG_AVX512 void ntt_inverse(std::uint16_t c[kN]) noexcept {
  __m512i v[8];
  for (int m = 0; m < 4; ++m) {
    __m512i x = load(c + 64 * m), y = load(c + 64 * m + 32);
    shuffle16(x, y);
    shuffle8(x, y);
    shuffle4(x, y);
    shuffle2(x, y);
    gs_bfly(x, y, zi(m, 3), ziq(m, 3));  // len = 2
    shuffle2(x, y);
    gs_bfly(x, y, zi(m, 2), ziq(m, 2));  // len = 4
    shuffle4(x, y);
    gs_bfly(x, y, zi(m, 1), ziq(m, 1));  // len = 8
    x = barrett(x);
    y = barrett(y);
    shuffle8(x, y);
    gs_bfly(x, y, zi(m, 0), ziq(m, 0));  // len = 16
    shuffle16(x, y);
    v[2 * m] = x;
    v[2 * m + 1] = y;
  }
  gs_bfly_z(v[0], v[1], 7);  // len = 32
  gs_bfly_z(v[2], v[3], 6);
  gs_bfly_z(v[4], v[5], 5);
  gs_bfly_z(v[6], v[7], 4);
  gs_bfly_z(v[0], v[2], 3);  // len = 64
  gs_bfly_z(v[1], v[3], 3);
  gs_bfly_z(v[4], v[6], 2);
  gs_bfly_z(v[5], v[7], 2);
  for (auto& r : v) r = barrett(r);
  gs_bfly_z(v[0], v[4], 1);  // len = 128
  gs_bfly_z(v[1], v[5], 1);
  gs_bfly_z(v[2], v[6], 1);
  gs_bfly_z(v[3], v[7], 1);
  // Multiply by 128^-1 = 3303 (Algorithm 10 line 14).
  const __m512i fm = set1(mont(3303)), fq = set1(mont_qinv(3303));
  for (int j = 0; j < 8; ++j) store(c + 32 * j, caddq(fqmul(v[j], fm, fq)));
}

// FIPS 203, Algorithm 7 (the parsing loop of SampleNTT), 32 candidates per step.
PQSIG_AVX512 int sample_ntt_parse(std::uint16_t out[kN], int count, const std::uint8_t* buf,
                                  std::size_t len) noexcept {
  std::size_t p = 0;
  // Whole steps while a full 64-byte store stays inside out.
  while (p + 48 <= len && count <= kN - 32) {
    __mmask32 good;
    const __m512i v = candidates(buf + p, 48, good);
    _mm512_storeu_si512(out + count, _mm512_maskz_compress_epi16(good, v));
    count += __builtin_popcount(good);
    p += 48;
  }
  // The last steps: shorter groups at the end of buf, stores masked to the slots left.
  while (count < kN && p + 3 <= len) {
    const unsigned n = static_cast<unsigned>(len - p >= 48 ? 48 : (len - p) / 3 * 3);
    __mmask32 good;
    const __m512i v = candidates(buf + p, n, good);
    const int room = kN - count;
    while (__builtin_popcount(good) > room) good &= ~(1u << (31 - __builtin_clz(good)));  // public
    const int taken = __builtin_popcount(good);
    _mm512_mask_storeu_epi16(out + count, static_cast<__mmask32>((std::uint64_t{1} << taken) - 1),
                             _mm512_maskz_compress_epi16(good, v));
    count += taken;
    p += n;
  }
  return count;
}

bool available() noexcept { return cpu::has_avx512_vbmi2(); }
#else
void ntt(std::uint16_t*) noexcept {}
void sample_poly_cbd(int, const std::uint8_t*, std::uint16_t*) noexcept {}
void multiply_ntts_sum(NttPoly&, const NttPoly*, int, const NttPoly*, int) noexcept {}
void ntt_inverse(std::uint16_t*) noexcept {}
int sample_ntt_parse(std::uint16_t*, int count, const std::uint8_t*, std::size_t) noexcept { return count; }
bool available() noexcept { return false; }
#endif

}  // namespace pqsig::mlkem::detail::avx512
