// FIPS 180-4 §6.4.2: four SHA-512 compressions at once with AVX2 (rotates as two shifts and an
// or), for CPUs without AVX-512VL; valgrind runs this one, so the constant-time tests cover the
// vector kernel too. Selected at run time (sha2_dispatch.cpp); tested against the scalar
// compression (tests/slhdsa/test_sha2_backend.cpp). The kernel: sha512_x4_body.inc.
#include <cstring>

#include "hash/sha2_backend.hpp"
#include "pqsig/hash.hpp"

#if defined(PQSIG_HAVE_SHANI_BACKEND)
#include <immintrin.h>

namespace pqsig::hash::detail {
#define SX4_ATTR __attribute__((target("avx2")))
#define SX4_NAME sha512_compress_x4_avx2
namespace {
template <int N>
SX4_ATTR inline __m256i ror(__m256i x) {
  return _mm256_or_si256(_mm256_srli_epi64(x, N), _mm256_slli_epi64(x, 64 - N));
}
SX4_ATTR inline __m256i add(__m256i a, __m256i b) { return _mm256_add_epi64(a, b); }
SX4_ATTR inline __m256i xor3(__m256i a, __m256i b, __m256i c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
// Ch(e, f, g) = g ^ (e & (f ^ g)); Maj(a, b, c) = (a & b) | (c & (a | b))
SX4_ATTR inline __m256i sx_ch(__m256i e, __m256i f, __m256i g) {
  return _mm256_xor_si256(g, _mm256_and_si256(e, _mm256_xor_si256(f, g)));
}
SX4_ATTR inline __m256i sx_maj(__m256i a, __m256i b, __m256i c) {
  return _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(c, _mm256_or_si256(a, b)));
}
SX4_ATTR inline __m256i big_sigma0(__m256i a) { return xor3(ror<28>(a), ror<34>(a), ror<39>(a)); }
SX4_ATTR inline __m256i big_sigma1(__m256i e) { return xor3(ror<14>(e), ror<18>(e), ror<41>(e)); }
SX4_ATTR inline __m256i small_sigma0(__m256i w) { return xor3(ror<1>(w), ror<8>(w), _mm256_srli_epi64(w, 7)); }
SX4_ATTR inline __m256i small_sigma1(__m256i w) { return xor3(ror<19>(w), ror<61>(w), _mm256_srli_epi64(w, 6)); }
}  // namespace
#include "hash/sha512_x4_body.inc"
#undef SX4_NAME
#undef SX4_ATTR
}  // namespace pqsig::hash::detail
#endif
