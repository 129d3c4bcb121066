// FIPS 202 §3.3 Keccak-p[1600,24], four states at once with AVX-512VL on 256-bit registers:
// native 64-bit rotates (vprolq), three-input logic (vpternlogq) for θ's column parities and
// χ, and 32 vector registers (the whole state and the B lanes stay in registers). Selected at
// run time when the CPU has AVX-512F + AVX-512VL; tested against the scalar reference (tests/hash).
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
#undef KX_ATTR

const KeccakX4Backend kKeccakX4Avx512{"avx512vl", &kx_permute_mem, &kx_squeeze_mem};
}  // namespace pqsig::hash::detail
#endif
