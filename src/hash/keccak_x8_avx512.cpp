// FIPS 202 §3.3 Keccak-p[1600,24], eight states at once with AVX-512F on 512-bit registers (one
// 64-bit lane of each of eight states per zmm register): native 64-bit rotates (vprolq),
// three-input logic (vpternlogq) for θ's column parities and χ, and 32 registers. Selected at run
// time when the CPU (and OS) has AVX-512F; callers fall back to two 4-way calls otherwise
// (keccak_x8_permute). Tested against the scalar reference (tests/hash/test_keccak_x8.cpp).
// No data-dependent branches or memory indices.
#include "hash/keccak_backend.hpp"

#if defined(PQSIG_HAVE_AVX512_BACKENDS)
#include <immintrin.h>

#include <cstring>

#include "common/cpu.hpp"

namespace pqsig::hash::detail {
namespace {
#define KX8_ATTR __attribute__((target("avx512f")))
template <int N>
KX8_ATTR __attribute__((always_inline)) inline __m512i kx_rol(__m512i x) {
  // (the zero-masked form with a full mask is the same vprolq; GCC 12's _mm512_rol_epi64 trips
  // -Wuninitialized on its _mm512_undefined_epi32 pass-through)
  return _mm512_maskz_rol_epi64(static_cast<__mmask8>(0xFF), x, N);
}
KX8_ATTR __attribute__((always_inline)) inline __m512i kx_xor(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
KX8_ATTR __attribute__((always_inline)) inline __m512i kx_xor5(__m512i a, __m512i b, __m512i c, __m512i d, __m512i e) {
  return _mm512_ternarylogic_epi64(_mm512_ternarylogic_epi64(a, b, c, 0x96), d, e, 0x96);  // a ^ b ^ c ^ d ^ e
}
KX8_ATTR __attribute__((always_inline)) inline __m512i kx_chi(__m512i a, __m512i b, __m512i c) {
  return _mm512_ternarylogic_epi64(a, b, c, 0xD2);  // a ^ (~b & c)
}

// FIPS 202 §3.3: Rnd(A, ir) = ι(χ(π(ρ(θ(A)))), ir) for ir = 0..23 (Algorithm 7), plane by plane:
// each output row's five B lanes (θ, ρ, π) are consumed by χ at once, two rounds per iteration
// alternating between A and E, so few values are live (the state stays in registers).
KX8_ATTR __attribute__((always_inline)) inline void kx_permute(__m512i A[25]) noexcept {
  __m512i E[25];
  for (int round = 0; round < 24; round += 2) {
    {
      const __m512i C0 = kx_xor5(A[0], A[5], A[10], A[15], A[20]);
      const __m512i C1 = kx_xor5(A[1], A[6], A[11], A[16], A[21]);
      const __m512i C2 = kx_xor5(A[2], A[7], A[12], A[17], A[22]);
      const __m512i C3 = kx_xor5(A[3], A[8], A[13], A[18], A[23]);
      const __m512i C4 = kx_xor5(A[4], A[9], A[14], A[19], A[24]);
      const __m512i D0 = kx_xor(C4, kx_rol<1>(C1));
      const __m512i D1 = kx_xor(C0, kx_rol<1>(C2));
      const __m512i D2 = kx_xor(C1, kx_rol<1>(C3));
      const __m512i D3 = kx_xor(C2, kx_rol<1>(C4));
      const __m512i D4 = kx_xor(C3, kx_rol<1>(C0));
      const __m512i B00 = kx_xor(A[0], D0);
      const __m512i B01 = kx_rol<44>(kx_xor(A[6], D1));
      const __m512i B02 = kx_rol<43>(kx_xor(A[12], D2));
      const __m512i B03 = kx_rol<21>(kx_xor(A[18], D3));
      const __m512i B04 = kx_rol<14>(kx_xor(A[24], D4));
      E[0] = kx_xor(kx_chi(B00, B01, B02), _mm512_set1_epi64(static_cast<long long>(kKeccakRC[round])));
      E[1] = kx_chi(B01, B02, B03);
      E[2] = kx_chi(B02, B03, B04);
      E[3] = kx_chi(B03, B04, B00);
      E[4] = kx_chi(B04, B00, B01);
      const __m512i B10 = kx_rol<28>(kx_xor(A[3], D3));
      const __m512i B11 = kx_rol<20>(kx_xor(A[9], D4));
      const __m512i B12 = kx_rol<3>(kx_xor(A[10], D0));
      const __m512i B13 = kx_rol<45>(kx_xor(A[16], D1));
      const __m512i B14 = kx_rol<61>(kx_xor(A[22], D2));
      E[5] = kx_chi(B10, B11, B12);
      E[6] = kx_chi(B11, B12, B13);
      E[7] = kx_chi(B12, B13, B14);
      E[8] = kx_chi(B13, B14, B10);
      E[9] = kx_chi(B14, B10, B11);
      const __m512i B20 = kx_rol<1>(kx_xor(A[1], D1));
      const __m512i B21 = kx_rol<6>(kx_xor(A[7], D2));
      const __m512i B22 = kx_rol<25>(kx_xor(A[13], D3));
      const __m512i B23 = kx_rol<8>(kx_xor(A[19], D4));
      const __m512i B24 = kx_rol<18>(kx_xor(A[20], D0));
      E[10] = kx_chi(B20, B21, B22);
      E[11] = kx_chi(B21, B22, B23);
      E[12] = kx_chi(B22, B23, B24);
      E[13] = kx_chi(B23, B24, B20);
      E[14] = kx_chi(B24, B20, B21);
      const __m512i B30 = kx_rol<27>(kx_xor(A[4], D4));
      const __m512i B31 = kx_rol<36>(kx_xor(A[5], D0));
      const __m512i B32 = kx_rol<10>(kx_xor(A[11], D1));
      const __m512i B33 = kx_rol<15>(kx_xor(A[17], D2));
      const __m512i B34 = kx_rol<56>(kx_xor(A[23], D3));
      E[15] = kx_chi(B30, B31, B32);
      E[16] = kx_chi(B31, B32, B33);
      E[17] = kx_chi(B32, B33, B34);
      E[18] = kx_chi(B33, B34, B30);
      E[19] = kx_chi(B34, B30, B31);
      const __m512i B40 = kx_rol<62>(kx_xor(A[2], D2));
      const __m512i B41 = kx_rol<55>(kx_xor(A[8], D3));
      const __m512i B42 = kx_rol<39>(kx_xor(A[14], D4));
      const __m512i B43 = kx_rol<41>(kx_xor(A[15], D0));
      const __m512i B44 = kx_rol<2>(kx_xor(A[21], D1));
      E[20] = kx_chi(B40, B41, B42);
      E[21] = kx_chi(B41, B42, B43);
      E[22] = kx_chi(B42, B43, B44);
      E[23] = kx_chi(B43, B44, B40);
      E[24] = kx_chi(B44, B40, B41);
    }
    {
      const __m512i C0 = kx_xor5(E[0], E[5], E[10], E[15], E[20]);
      const __m512i C1 = kx_xor5(E[1], E[6], E[11], E[16], E[21]);
      const __m512i C2 = kx_xor5(E[2], E[7], E[12], E[17], E[22]);
      const __m512i C3 = kx_xor5(E[3], E[8], E[13], E[18], E[23]);
      const __m512i C4 = kx_xor5(E[4], E[9], E[14], E[19], E[24]);
      const __m512i D0 = kx_xor(C4, kx_rol<1>(C1));
      const __m512i D1 = kx_xor(C0, kx_rol<1>(C2));
      const __m512i D2 = kx_xor(C1, kx_rol<1>(C3));
      const __m512i D3 = kx_xor(C2, kx_rol<1>(C4));
      const __m512i D4 = kx_xor(C3, kx_rol<1>(C0));
      const __m512i B00 = kx_xor(E[0], D0);
      const __m512i B01 = kx_rol<44>(kx_xor(E[6], D1));
      const __m512i B02 = kx_rol<43>(kx_xor(E[12], D2));
      const __m512i B03 = kx_rol<21>(kx_xor(E[18], D3));
      const __m512i B04 = kx_rol<14>(kx_xor(E[24], D4));
      A[0] = kx_xor(kx_chi(B00, B01, B02), _mm512_set1_epi64(static_cast<long long>(kKeccakRC[round + 1])));
      A[1] = kx_chi(B01, B02, B03);
      A[2] = kx_chi(B02, B03, B04);
      A[3] = kx_chi(B03, B04, B00);
      A[4] = kx_chi(B04, B00, B01);
      const __m512i B10 = kx_rol<28>(kx_xor(E[3], D3));
      const __m512i B11 = kx_rol<20>(kx_xor(E[9], D4));
      const __m512i B12 = kx_rol<3>(kx_xor(E[10], D0));
      const __m512i B13 = kx_rol<45>(kx_xor(E[16], D1));
      const __m512i B14 = kx_rol<61>(kx_xor(E[22], D2));
      A[5] = kx_chi(B10, B11, B12);
      A[6] = kx_chi(B11, B12, B13);
      A[7] = kx_chi(B12, B13, B14);
      A[8] = kx_chi(B13, B14, B10);
      A[9] = kx_chi(B14, B10, B11);
      const __m512i B20 = kx_rol<1>(kx_xor(E[1], D1));
      const __m512i B21 = kx_rol<6>(kx_xor(E[7], D2));
      const __m512i B22 = kx_rol<25>(kx_xor(E[13], D3));
      const __m512i B23 = kx_rol<8>(kx_xor(E[19], D4));
      const __m512i B24 = kx_rol<18>(kx_xor(E[20], D0));
      A[10] = kx_chi(B20, B21, B22);
      A[11] = kx_chi(B21, B22, B23);
      A[12] = kx_chi(B22, B23, B24);
      A[13] = kx_chi(B23, B24, B20);
      A[14] = kx_chi(B24, B20, B21);
      const __m512i B30 = kx_rol<27>(kx_xor(E[4], D4));
      const __m512i B31 = kx_rol<36>(kx_xor(E[5], D0));
      const __m512i B32 = kx_rol<10>(kx_xor(E[11], D1));
      const __m512i B33 = kx_rol<15>(kx_xor(E[17], D2));
      const __m512i B34 = kx_rol<56>(kx_xor(E[23], D3));
      A[15] = kx_chi(B30, B31, B32);
      A[16] = kx_chi(B31, B32, B33);
      A[17] = kx_chi(B32, B33, B34);
      A[18] = kx_chi(B33, B34, B30);
      A[19] = kx_chi(B34, B30, B31);
      const __m512i B40 = kx_rol<62>(kx_xor(E[2], D2));
      const __m512i B41 = kx_rol<55>(kx_xor(E[8], D3));
      const __m512i B42 = kx_rol<39>(kx_xor(E[14], D4));
      const __m512i B43 = kx_rol<41>(kx_xor(E[15], D0));
      const __m512i B44 = kx_rol<2>(kx_xor(E[21], D1));
      A[20] = kx_chi(B40, B41, B42);
      A[21] = kx_chi(B41, B42, B43);
      A[22] = kx_chi(B42, B43, B44);
      A[23] = kx_chi(B43, B44, B40);
      A[24] = kx_chi(B44, B40, B41);
    }
  }
}

KX8_ATTR void kx8_permute_mem(std::uint64_t st[25][8]) noexcept {
  __m512i A[25];
  for (int i = 0; i < 25; ++i) A[i] = _mm512_loadu_si512(st[i]);
  kx_permute(A);
  for (int i = 0; i < 25; ++i) _mm512_storeu_si512(st[i], A[i]);
}

// Transposes the 8×8 block of 64-bit words r[0..7] (row i = Keccak lane base + i of the eight
// states) into c[0..7] (c[j] = lanes base .. base + 7 of state j): unpack within 128-bit pairs,
// then two rounds of 128-bit block shuffles.
// (zero-masked forms with a full mask, as kx_rol: GCC 12's plain intrinsics pass
// _mm512_undefined_epi32 through and trip -Wmaybe-uninitialized)
KX8_ATTR __attribute__((always_inline)) inline __m512i kx_unpacklo(__m512i a, __m512i b) {
  return _mm512_maskz_unpacklo_epi64(static_cast<__mmask8>(0xFF), a, b);
}
KX8_ATTR __attribute__((always_inline)) inline __m512i kx_unpackhi(__m512i a, __m512i b) {
  return _mm512_maskz_unpackhi_epi64(static_cast<__mmask8>(0xFF), a, b);
}
#define KX_SHUF128(a, b, imm) _mm512_maskz_shuffle_i64x2(static_cast<__mmask8>(0xFF), a, b, imm)
KX8_ATTR __attribute__((always_inline)) inline void kx_transpose8(const __m512i r[8], __m512i c[8]) noexcept {
  const __m512i t0 = kx_unpacklo(r[0], r[1]), t1 = kx_unpackhi(r[0], r[1]);
  const __m512i t2 = kx_unpacklo(r[2], r[3]), t3 = kx_unpackhi(r[2], r[3]);
  const __m512i t4 = kx_unpacklo(r[4], r[5]), t5 = kx_unpackhi(r[4], r[5]);
  const __m512i t6 = kx_unpacklo(r[6], r[7]), t7 = kx_unpackhi(r[6], r[7]);
  constexpr int kEven = _MM_SHUFFLE(2, 0, 2, 0), kOdd = _MM_SHUFFLE(3, 1, 3, 1);
  const __m512i u0 = KX_SHUF128(t0, t2, kEven), u1 = KX_SHUF128(t0, t2, kOdd);
  const __m512i u2 = KX_SHUF128(t1, t3, kEven), u3 = KX_SHUF128(t1, t3, kOdd);
  const __m512i u4 = KX_SHUF128(t4, t6, kEven), u5 = KX_SHUF128(t4, t6, kOdd);
  const __m512i u6 = KX_SHUF128(t5, t7, kEven), u7 = KX_SHUF128(t5, t7, kOdd);
  c[0] = KX_SHUF128(u0, u4, kEven);
  c[4] = KX_SHUF128(u0, u4, kOdd);
  c[2] = KX_SHUF128(u1, u5, kEven);
  c[6] = KX_SHUF128(u1, u5, kOdd);
  c[1] = KX_SHUF128(u2, u6, kEven);
  c[5] = KX_SHUF128(u2, u6, kOdd);
  c[3] = KX_SHUF128(u3, u7, kEven);
  c[7] = KX_SHUF128(u3, u7, kOdd);
}
#undef KX_SHUF128

// FIPS 202 Algorithm 8 lines 7–10 for eight sponges with the state kept in registers: per block,
// one permutation, then the first rate_lanes[j] lanes of state j (in byte order) appended to
// out[j] (skipped when out[j] is null), transposed from the interleave 8×8 words at a time.
KX8_ATTR void kx8_squeeze_mem(std::uint64_t st[25][8], std::uint8_t* out[8], const std::uint8_t rate_lanes[8],
                              std::size_t nblocks, int absorb_lane, const std::uint8_t* absorb_in) noexcept {
  __m512i A[25];
  for (int i = 0; i < 25; ++i) A[i] = _mm512_loadu_si512(st[i]);
  const __mmask8 amask = static_cast<__mmask8>(1u << (absorb_lane & 7));
  for (std::size_t b = 0; b < nblocks; ++b) {
    if (absorb_in) {  // FIPS 202 Algorithm 8 line 6 for one lane: S ⊕ (P_i ‖ 0^c)
      for (int i = 0; i < rate_lanes[absorb_lane & 7]; ++i) {
        std::uint64_t w;
        std::memcpy(&w, absorb_in + 8 * i, 8);
        A[i] = _mm512_mask_xor_epi64(A[i], amask, A[i], _mm512_set1_epi64(static_cast<long long>(w)));
      }
      absorb_in += 8 * std::size_t{rate_lanes[absorb_lane & 7]};
    }
    kx_permute(A);
    for (int base = 0; base < 24; base += 8) {
      __m512i c[8];
      kx_transpose8(A + base, c);
      for (int j = 0; j < 8; ++j) {
        if (!out[j] || rate_lanes[j] <= base) continue;
        const int n = rate_lanes[j] - base;
        if (n >= 8) _mm512_storeu_si512(out[j] + 8 * base, c[j]);
        else _mm512_mask_storeu_epi64(out[j] + 8 * base, static_cast<__mmask8>((1u << n) - 1), c[j]);
      }
    }
    for (int j = 0; j < 8; ++j)
      if (out[j]) out[j] += 8 * std::size_t{rate_lanes[j]};
  }
  for (int i = 0; i < 25; ++i) _mm512_storeu_si512(st[i], A[i]);
}
#undef KX8_ATTR
}  // namespace

const KeccakX8Backend kKeccakX8Avx512{"avx512f", &kx8_permute_mem, &kx8_squeeze_mem};

const KeccakX8Backend* keccak_x8_backend() noexcept {
  // Valgrind hides AVX-512, so the constant-time tests run the 4-way fallback.
  if (cpu::has_avx512f()) return &kKeccakX8Avx512;  // false when forced portable
  return nullptr;
}
}  // namespace pqsig::hash::detail
#else
namespace pqsig::hash::detail {
const KeccakX8Backend* keccak_x8_backend() noexcept { return nullptr; }
}  // namespace pqsig::hash::detail
#endif

