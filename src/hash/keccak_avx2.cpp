// FIPS 202 §3.3 Keccak-p[1600,24], four states at once with AVX2 (one 64-bit lane of each
// state per 256-bit register). Selected at run time by keccak_x4_backend(); tested against the
// scalar reference (tests/hash). No data-dependent branches or memory indices.
#include <cstring>

#include "hash/keccak_backend.hpp"

#if defined(PQSIG_HAVE_AVX2_BACKENDS)
#include <immintrin.h>

namespace pqsig::hash::detail {
namespace {
#define KX_ATTR __attribute__((target("avx2")))
// Rotations by whole bytes (ρ's offsets 8 and 56) are one byte shuffle instead of two shifts
// and an OR; the others shift. The 4-way permutation is bound by vector ALU operations here.
template <int N>
KX_ATTR __attribute__((always_inline)) inline __m256i kx_rol(__m256i x) {
  if constexpr (N == 8) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14,  //
                                                   7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14));
  } else if constexpr (N == 56) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,  //
                                                   1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8));
  } else {
    return _mm256_or_si256(_mm256_slli_epi64(x, N), _mm256_srli_epi64(x, 64 - N));
  }
}
KX_ATTR __attribute__((always_inline)) inline __m256i kx_xor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
KX_ATTR __attribute__((always_inline)) inline __m256i kx_xor5(__m256i a, __m256i b, __m256i c, __m256i d, __m256i e) {
  return _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d)), e);
}
KX_ATTR __attribute__((always_inline)) inline __m256i kx_chi(__m256i a, __m256i b, __m256i c) {
  return _mm256_xor_si256(a, _mm256_andnot_si256(b, c));  // a ^ (~b & c)
}
}  // namespace

#include "hash/keccak_x4_body.inc"

// The [4][25] entry point (states one after another): rearranged here, once per call.
KX_ATTR void keccak_f1600_x4_avx2(std::uint64_t st[4][25]) noexcept {
  __m256i A[25];
  for (int i = 0; i < 25; ++i)
    A[i] = _mm256_set_epi64x(static_cast<long long>(st[3][i]), static_cast<long long>(st[2][i]),
                             static_cast<long long>(st[1][i]), static_cast<long long>(st[0][i]));
  kx_permute(A);
  alignas(32) std::uint64_t tmp[4];
  for (int i = 0; i < 25; ++i) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(tmp), A[i]);
    for (int j = 0; j < 4; ++j) st[j][i] = tmp[j];
  }
}
#undef KX_ATTR

const KeccakX4Backend kKeccakX4Avx2{"avx2", &kx_permute_mem, &kx_squeeze_mem, &kx_squeeze_half8};
}  // namespace pqsig::hash::detail
#endif
