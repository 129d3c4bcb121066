// FIPS 202 §3.3 Keccak-p[1600,24], four states at once with AVX-512VL on 256-bit registers:
// native 64-bit rotates (vprolq), three-input logic (vpternlogq) for θ's column parities and
// χ, and 32 vector registers (the whole state and the B lanes stay in registers). Selected at
// run time when the CPU has AVX-512F + AVX-512VL; tested against the scalar reference (tests/hash).
// The single-state permutation keccak_f1600_avx512vl reuses the round code on 128-bit registers.
// No data-dependent branches or memory indices.
#include <cstring>

#include "hash/keccak_backend.hpp"

#if defined(PQSIG_HAVE_AVX512_BACKENDS)
#include <immintrin.h>

namespace pqsig::hash::detail {
namespace {
#define KX_ATTR __attribute__((target("avx2,avx512f,avx512vl")))
template <int N>
KX_ATTR __attribute__((always_inline)) inline __m256i kx_rol(__m256i x) {
  return _mm256_rol_epi64(x, N);
}
KX_ATTR __attribute__((always_inline)) inline __m256i kx_xor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
KX_ATTR __attribute__((always_inline)) inline __m256i kx_xor5(__m256i a, __m256i b, __m256i c, __m256i d, __m256i e) {
  return _mm256_ternarylogic_epi64(_mm256_ternarylogic_epi64(a, b, c, 0x96), d, e, 0x96);  // a ^ b ^ c ^ d ^ e
}
KX_ATTR __attribute__((always_inline)) inline __m256i kx_chi(__m256i a, __m256i b, __m256i c) {
  return _mm256_ternarylogic_epi64(a, b, c, 0xD2);  // a ^ (~b & c)
}
}  // namespace

#include "hash/keccak_x4_body.inc"

const KeccakX4Backend kKeccakX4Avx512{"avx512vl", &kx_permute_mem, &kx_squeeze_mem, &kx_squeeze_half8};

// The single-state permutation with the same round code on 128-bit registers, one lane per
// register (the upper halves unused): 32 registers hold the state and the B lanes without
// spilling, vprolq and vpternlogq replace the scalar rotate/and-not/xor sequences.
namespace x1 {
namespace {
template <int N>
KX_ATTR __attribute__((always_inline)) inline __m128i kx_rol(__m128i x) {
  return _mm_rol_epi64(x, N);
}
KX_ATTR __attribute__((always_inline)) inline __m128i kx_xor(__m128i a, __m128i b) { return _mm_xor_si128(a, b); }
KX_ATTR __attribute__((always_inline)) inline __m128i kx_xor5(__m128i a, __m128i b, __m128i c, __m128i d, __m128i e) {
  return _mm_ternarylogic_epi64(_mm_ternarylogic_epi64(a, b, c, 0x96), d, e, 0x96);  // a ^ b ^ c ^ d ^ e
}
KX_ATTR __attribute__((always_inline)) inline __m128i kx_chi(__m128i a, __m128i b, __m128i c) {
  return _mm_ternarylogic_epi64(a, b, c, 0xD2);  // a ^ (~b & c)
}
}  // namespace
#define KX_V __m128i
#define KX_SET1 _mm_set1_epi64x
#define KX_PERMUTE_ONLY
#include "hash/keccak_x4_body.inc"
#undef KX_PERMUTE_ONLY
}  // namespace x1

KX_ATTR void keccak_f1600_avx512vl(std::uint64_t st[25]) noexcept {
  __m128i A[25];
  for (int i = 0; i < 25; ++i) A[i] = _mm_cvtsi64_si128(static_cast<long long>(st[i]));
  x1::kx_permute(A);
  for (int i = 0; i < 25; ++i) st[i] = static_cast<std::uint64_t>(_mm_cvtsi128_si64(A[i]));
}
KX_ATTR void keccak_f1600_x2_avx512vl(std::uint64_t st[25][2]) noexcept {
  __m128i A[25];
  for (int i = 0; i < 25; ++i) A[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(st[i]));
  x1::kx_permute(A);
  for (int i = 0; i < 25; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(st[i]), A[i]);
}

// FIPS 202 Algorithm 8 lines 5–6 for whole blocks: S = f(S ⊕ (P_i ‖ 0^c)), with the state kept in
// registers from one block to the next (R = rate in lanes, a compile-time constant so the
// lanes stay in registers).
template <std::size_t R>
KX_ATTR void absorb_blocks_x1(std::uint64_t st[25], const std::uint8_t* in, std::size_t nblocks) noexcept {
  __m128i A[25];
  for (int i = 0; i < 25; ++i) A[i] = _mm_cvtsi64_si128(static_cast<long long>(st[i]));
  for (std::size_t b = 0; b < nblocks; ++b, in += 8 * R) {
    for (std::size_t i = 0; i < R; ++i) A[i] = _mm_xor_si128(A[i], _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + 8 * i)));
    x1::kx_permute(A);
  }
  for (int i = 0; i < 25; ++i) st[i] = static_cast<std::uint64_t>(_mm_cvtsi128_si64(A[i]));
}
bool keccak_absorb_blocks_avx512vl(std::uint64_t st[25], const std::uint8_t* in, std::size_t nblocks,
                                   std::size_t rate_lanes) noexcept {
  switch (rate_lanes) {
    case 17: absorb_blocks_x1<17>(st, in, nblocks); return true;  // SHAKE256, SHA3-256
    case 21: absorb_blocks_x1<21>(st, in, nblocks); return true;  // SHAKE128
    default: return false;
  }
}
#undef KX_ATTR
}  // namespace pqsig::hash::detail
#endif
