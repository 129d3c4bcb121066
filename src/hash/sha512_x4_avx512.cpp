// FIPS 180-4 §6.4.2: four SHA-512 compressions at once with AVX-512VL — native 64-bit rotates
// (vprorq) and three-input logic (vpternlogq) for Σ0/Σ1/σ0/σ1, Ch and Maj — on 256-bit registers.
// Selected at run time when the CPU has AVX-512F + AVX-512VL (sha2_dispatch.cpp); tested against
// the scalar compression (tests/slhdsa/test_sha2_backend.cpp). The kernel: sha512_x4_body.inc.
#include <cstring>

#include "hash/sha2_backend.hpp"
#include "pqsig/hash.hpp"

#if defined(PQSIG_HAVE_SHANI_BACKEND)
#include <immintrin.h>

namespace pqsig::hash::detail {
#define SX4_ATTR __attribute__((target("avx2,avx512f,avx512vl")))
#define SX4_NAME sha512_compress_x4_avx512vl
namespace {
SX4_ATTR inline __m256i add(__m256i a, __m256i b) { return _mm256_add_epi64(a, b); }
SX4_ATTR inline __m256i xor3(__m256i a, __m256i b, __m256i c) { return _mm256_ternarylogic_epi64(a, b, c, 0x96); }
SX4_ATTR inline __m256i sx_ch(__m256i e, __m256i f, __m256i g) { return _mm256_ternarylogic_epi64(e, f, g, 0xCA); }
SX4_ATTR inline __m256i sx_maj(__m256i a, __m256i b, __m256i c) { return _mm256_ternarylogic_epi64(a, b, c, 0xE8); }
SX4_ATTR inline __m256i big_sigma0(__m256i a) {
  return xor3(_mm256_ror_epi64(a, 28), _mm256_ror_epi64(a, 34), _mm256_ror_epi64(a, 39));
}
SX4_ATTR inline __m256i big_sigma1(__m256i e) {
  return xor3(_mm256_ror_epi64(e, 14), _mm256_ror_epi64(e, 18), _mm256_ror_epi64(e, 41));
}
SX4_ATTR inline __m256i small_sigma0(__m256i w) {
  return xor3(_mm256_ror_epi64(w, 1), _mm256_ror_epi64(w, 8), _mm256_srli_epi64(w, 7));
}
SX4_ATTR inline __m256i small_sigma1(__m256i w) {
  return xor3(_mm256_ror_epi64(w, 19), _mm256_ror_epi64(w, 61), _mm256_srli_epi64(w, 6));
}
}  // namespace
#include "hash/sha512_x4_body.inc"
#undef SX4_NAME
#undef SX4_ATTR
}  // namespace pqsig::hash::detail
#endif
