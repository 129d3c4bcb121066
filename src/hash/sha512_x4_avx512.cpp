// FIPS 180-4 §6.4.2: four independent SHA-512 compressions at once, one per 64-bit lane of a
// 256-bit register, with AVX-512VL's rotate (vprorq) and three-input logic (vpternlogq) for
// Σ0/Σ1/σ0/σ1, Ch and Maj. Each lane runs the same number of blocks from its own input. Selected
// at run time when the CPU has AVX-512F + AVX-512VL; tested against the scalar compression
// (tests/hash). No data-dependent branch or memory index.
#include <cstring>

#include "common/cpu.hpp"
#include "hash/sha2_backend.hpp"
#include "pqsig/hash.hpp"

#if defined(PQSIG_HAVE_SHANI_BACKEND)
#include <immintrin.h>

namespace pqsig::hash::detail {
namespace {
#define SX4_ATTR __attribute__((target("avx2,avx512f,avx512vl")))

SX4_ATTR inline __m256i add(__m256i a, __m256i b) { return _mm256_add_epi64(a, b); }
SX4_ATTR inline __m256i xor3(__m256i a, __m256i b, __m256i c) { return _mm256_ternarylogic_epi64(a, b, c, 0x96); }
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

// Words 4g .. 4g+3 of the current block of each lane, byte-swapped, as four registers
// (register j = word 4g + j of lanes 0..3): a 4×4 transpose of 64-bit words.
SX4_ATTR inline void load_words(const std::uint8_t* const p[4], std::size_t off, __m256i w[4]) {
  const __m256i bswap = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,  //
                                         7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  __m256i r[4];
  for (int l = 0; l < 4; ++l)
    r[l] = _mm256_shuffle_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p[l] + off)), bswap);
  const __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
  const __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
  w[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
  w[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
  w[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
  w[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}
}  // namespace

SX4_ATTR void sha512_compress_x4_avx512vl(std::uint64_t* const h[4], const std::uint8_t* const blocks[4],
                                          std::size_t nblocks) noexcept {
  __m256i s[8];
  for (int i = 0; i < 8; ++i)
    s[i] = _mm256_setr_epi64x(static_cast<long long>(h[0][i]), static_cast<long long>(h[1][i]),
                              static_cast<long long>(h[2][i]), static_cast<long long>(h[3][i]));
  for (std::size_t b = 0; b < nblocks; ++b) {
    __m256i w[16];
    for (int g = 0; g < 4; ++g) load_words(blocks, 128 * b + 32 * g, w + 4 * g);
    __m256i a = s[0], bb = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], hh = s[7];
    for (int t = 0; t < 80; ++t) {
      if (t >= 16)  // W_t = σ1(W_{t−2}) + W_{t−7} + σ0(W_{t−15}) + W_{t−16}, in a 16-word ring
        w[t & 15] = add(add(w[t & 15], small_sigma0(w[(t - 15) & 15])), add(w[(t - 7) & 15], small_sigma1(w[(t - 2) & 15])));
      const __m256i ch = _mm256_ternarylogic_epi64(e, f, g, 0xCA);  // e ? f : g
      const __m256i t1 = add(add(add(hh, big_sigma1(e)), add(ch, _mm256_set1_epi64x(static_cast<long long>(kSha512K[t])))), w[t & 15]);
      const __m256i t2 = add(big_sigma0(a), _mm256_ternarylogic_epi64(a, bb, c, 0xE8));  // Maj
      hh = g;
      g = f;
      f = e;
      e = add(d, t1);
      d = c;
      c = bb;
      bb = a;
      a = add(t1, t2);
    }
    s[0] = add(s[0], a);
    s[1] = add(s[1], bb);
    s[2] = add(s[2], c);
    s[3] = add(s[3], d);
    s[4] = add(s[4], e);
    s[5] = add(s[5], f);
    s[6] = add(s[6], g);
    s[7] = add(s[7], hh);
  }
  for (int i = 0; i < 8; ++i) {
    alignas(32) std::uint64_t v[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(v), s[i]);
    for (int q = 0; q < 4; ++q) h[q][i] = v[q];
  }
}
#undef SX4_ATTR
}  // namespace pqsig::hash::detail
#endif
