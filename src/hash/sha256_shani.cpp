// SHA-256 compression (FIPS 180-4 §6.2.2) with the x86 SHA extensions (SHA-NI). Selected at run
// time by sha2_dispatch.cpp; tested against sha256_compress_scalar. Absent under PQSIG_PORTABLE.
#include "hash/sha2_backend.hpp"

#if defined(PQSIG_HAVE_SHANI_BACKEND)
#include <immintrin.h>

namespace pqsig::hash::detail {

namespace {
const std::uint32_t* const K256 = kSha256K;  // FIPS 180-4 §4.2.2 (sha2.cpp), 64-byte aligned

// Four rounds 4g..4g+3 with message words m (W[4g..4g+3]); state in the ABEF / CDGH layout.
__attribute__((target("sha,sse4.1"), always_inline)) inline void rounds4(__m128i& abef, __m128i& cdgh, __m128i m,
                                                                         int g) noexcept {
  __m128i wk = _mm_add_epi32(m, _mm_load_si128(reinterpret_cast<const __m128i*>(K256 + 4 * g)));
  cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);   // rounds 4g, 4g+1: cdgh now holds the new ABEF
  wk = _mm_shuffle_epi32(wk, 0x0E);
  abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);   // rounds 4g+2, 4g+3
}

// W[4g..4g+3] from the previous 16 words (FIPS 180-4 §6.2.2 step 1): m0..m3 = groups g-4..g-1.
__attribute__((target("sha,sse4.1"), always_inline)) inline __m128i schedule(__m128i m0, __m128i m1, __m128i m2,
                                                                             __m128i m3) noexcept {
  __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(m0, m1), _mm_alignr_epi8(m3, m2, 4));
  return _mm_sha256msg2_epu32(t, m3);
}
}  // namespace

__attribute__((target("sha,sse4.1"))) void sha256_compress_shani(std::uint32_t h[8], const std::uint8_t* blocks,
                                                                 std::size_t nblocks) noexcept {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  // h[0..3] = A B C D, h[4..7] = E F G H  →  ABEF = (A,B,E,F) in lanes 3..0, CDGH likewise.
  __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h));
  __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4));
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

  for (std::size_t blk = 0; blk < nblocks; ++blk, blocks += 64) {
    const __m128i abef0 = abef, cdgh0 = cdgh;
    __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks)), bswap);
    __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 16)), bswap);
    __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 32)), bswap);
    __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 48)), bswap);
    rounds4(abef, cdgh, m0, 0);
    rounds4(abef, cdgh, m1, 1);
    rounds4(abef, cdgh, m2, 2);
    rounds4(abef, cdgh, m3, 3);
    for (int g = 4; g < 16; g += 4) {
      m0 = schedule(m0, m1, m2, m3);
      rounds4(abef, cdgh, m0, g);
      m1 = schedule(m1, m2, m3, m0);
      rounds4(abef, cdgh, m1, g + 1);
      m2 = schedule(m2, m3, m0, m1);
      rounds4(abef, cdgh, m2, g + 2);
      m3 = schedule(m3, m0, m1, m2);
      rounds4(abef, cdgh, m3, g + 3);
    }
    abef = _mm_add_epi32(abef, abef0);
    cdgh = _mm_add_epi32(cdgh, cdgh0);
  }

  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  dcba = _mm_blend_epi16(feba, dchg, 0xF0);
  hgfe = _mm_alignr_epi8(dchg, feba, 8);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), dcba);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), hgfe);
}

// Four independent single-block compressions, interleaved so that the SHA-NI round latency of
// one state is hidden behind the others (SLH-DSA hashes millions of independent short inputs).
__attribute__((target("sha,sse4.1"))) void sha256_compress_shani_x4(std::uint32_t* const h[4],
                                                                    const std::uint8_t* const blocks[4]) noexcept {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  __m128i abef[4], cdgh[4], abef0[4], cdgh0[4], m[4][4];
  for (int q = 0; q < 4; ++q) {
    __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h[q]));
    __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h[q] + 4));
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    abef[q] = abef0[q] = _mm_alignr_epi8(cdab, efgh, 8);
    cdgh[q] = cdgh0[q] = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (int i = 0; i < 4; ++i)
      m[q][i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks[q] + 16 * i)), bswap);
  }
  for (int g = 0; g < 16; ++g) {
    for (int q = 0; q < 4; ++q) {
      if (g >= 4) m[q][g & 3] = schedule(m[q][g & 3], m[q][(g + 1) & 3], m[q][(g + 2) & 3], m[q][(g + 3) & 3]);
      rounds4(abef[q], cdgh[q], m[q][g & 3], g);
    }
  }
  for (int q = 0; q < 4; ++q) {
    abef[q] = _mm_add_epi32(abef[q], abef0[q]);
    cdgh[q] = _mm_add_epi32(cdgh[q], cdgh0[q]);
    __m128i feba = _mm_shuffle_epi32(abef[q], 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh[q], 0xB1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h[q]), _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h[q] + 4), _mm_alignr_epi8(dchg, feba, 8));
  }
}

}  // namespace pqsig::hash::detail
#endif
