// FIPS 202 §3.3 Keccak-p[1600,24], four states at once with AVX2 (one 64-bit lane of each
// state per 256-bit register). Selected at run time by keccak_f1600_x4(); tested against the
// scalar reference (tests/hash).
#include "hash/keccak_backend.hpp"

#if defined(PQSIG_HAVE_AVX2_BACKENDS)
#include <immintrin.h>

namespace pqsig::hash::detail {
namespace {
constexpr std::uint64_t kRC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

template <int N>
__attribute__((target("avx2"), always_inline)) inline __m256i rol(__m256i x) {
  return _mm256_or_si256(_mm256_slli_epi64(x, N), _mm256_srli_epi64(x, 64 - N));
}
__attribute__((target("avx2"), always_inline)) inline __m256i andnot_xor(__m256i a, __m256i b, __m256i c) {
  // a ^ (~b & c)
  return _mm256_xor_si256(a, _mm256_andnot_si256(b, c));
}
}  // namespace

__attribute__((target("avx2"))) void keccak_f1600_x4_avx2(std::uint64_t st[4][25]) noexcept {
  __m256i A[25];
  for (int i = 0; i < 25; ++i)
    A[i] = _mm256_set_epi64x(static_cast<long long>(st[3][i]), static_cast<long long>(st[2][i]),
                             static_cast<long long>(st[1][i]), static_cast<long long>(st[0][i]));
  for (int round = 0; round < 24; ++round) {
    __m256i C0 = _mm256_xor_si256(_mm256_xor_si256(A[0], A[5]), _mm256_xor_si256(_mm256_xor_si256(A[10], A[15]), A[20]));
    __m256i C1 = _mm256_xor_si256(_mm256_xor_si256(A[1], A[6]), _mm256_xor_si256(_mm256_xor_si256(A[11], A[16]), A[21]));
    __m256i C2 = _mm256_xor_si256(_mm256_xor_si256(A[2], A[7]), _mm256_xor_si256(_mm256_xor_si256(A[12], A[17]), A[22]));
    __m256i C3 = _mm256_xor_si256(_mm256_xor_si256(A[3], A[8]), _mm256_xor_si256(_mm256_xor_si256(A[13], A[18]), A[23]));
    __m256i C4 = _mm256_xor_si256(_mm256_xor_si256(A[4], A[9]), _mm256_xor_si256(_mm256_xor_si256(A[14], A[19]), A[24]));
    __m256i D0 = _mm256_xor_si256(C4, rol<1>(C1));
    __m256i D1 = _mm256_xor_si256(C0, rol<1>(C2));
    __m256i D2 = _mm256_xor_si256(C1, rol<1>(C3));
    __m256i D3 = _mm256_xor_si256(C2, rol<1>(C4));
    __m256i D4 = _mm256_xor_si256(C3, rol<1>(C0));
    // theta + rho + pi (B[y, 2x+3y] = rot(A[x,y] ^ D[x], r[x,y]))
    __m256i B00 = _mm256_xor_si256(A[0], D0);
    __m256i B10 = rol<1>(_mm256_xor_si256(A[1], D1));
    __m256i B20 = rol<62>(_mm256_xor_si256(A[2], D2));
    __m256i B05 = rol<28>(_mm256_xor_si256(A[3], D3));
    __m256i B15 = rol<27>(_mm256_xor_si256(A[4], D4));
    __m256i B16 = rol<36>(_mm256_xor_si256(A[5], D0));
    __m256i B01 = rol<44>(_mm256_xor_si256(A[6], D1));
    __m256i B11 = rol<6>(_mm256_xor_si256(A[7], D2));
    __m256i B21 = rol<55>(_mm256_xor_si256(A[8], D3));
    __m256i B06 = rol<20>(_mm256_xor_si256(A[9], D4));
    __m256i B07 = rol<3>(_mm256_xor_si256(A[10], D0));
    __m256i B17 = rol<10>(_mm256_xor_si256(A[11], D1));
    __m256i B02 = rol<43>(_mm256_xor_si256(A[12], D2));
    __m256i B12 = rol<25>(_mm256_xor_si256(A[13], D3));
    __m256i B22 = rol<39>(_mm256_xor_si256(A[14], D4));
    __m256i B23 = rol<41>(_mm256_xor_si256(A[15], D0));
    __m256i B08 = rol<45>(_mm256_xor_si256(A[16], D1));
    __m256i B18 = rol<15>(_mm256_xor_si256(A[17], D2));
    __m256i B03 = rol<21>(_mm256_xor_si256(A[18], D3));
    __m256i B13 = rol<8>(_mm256_xor_si256(A[19], D4));
    __m256i B14 = rol<18>(_mm256_xor_si256(A[20], D0));
    __m256i B24 = rol<2>(_mm256_xor_si256(A[21], D1));
    __m256i B09 = rol<61>(_mm256_xor_si256(A[22], D2));
    __m256i B19 = rol<56>(_mm256_xor_si256(A[23], D3));
    __m256i B04 = rol<14>(_mm256_xor_si256(A[24], D4));
    // chi + iota
    A[0] = _mm256_xor_si256(andnot_xor(B00, B01, B02), _mm256_set1_epi64x(static_cast<long long>(kRC[round])));
    A[1] = andnot_xor(B01, B02, B03); A[2] = andnot_xor(B02, B03, B04);
    A[3] = andnot_xor(B03, B04, B00); A[4] = andnot_xor(B04, B00, B01);
    A[5] = andnot_xor(B05, B06, B07); A[6] = andnot_xor(B06, B07, B08); A[7] = andnot_xor(B07, B08, B09);
    A[8] = andnot_xor(B08, B09, B05); A[9] = andnot_xor(B09, B05, B06);
    A[10] = andnot_xor(B10, B11, B12); A[11] = andnot_xor(B11, B12, B13); A[12] = andnot_xor(B12, B13, B14);
    A[13] = andnot_xor(B13, B14, B10); A[14] = andnot_xor(B14, B10, B11);
    A[15] = andnot_xor(B15, B16, B17); A[16] = andnot_xor(B16, B17, B18); A[17] = andnot_xor(B17, B18, B19);
    A[18] = andnot_xor(B18, B19, B15); A[19] = andnot_xor(B19, B15, B16);
    A[20] = andnot_xor(B20, B21, B22); A[21] = andnot_xor(B21, B22, B23); A[22] = andnot_xor(B22, B23, B24);
    A[23] = andnot_xor(B23, B24, B20); A[24] = andnot_xor(B24, B20, B21);
  }
  alignas(32) std::uint64_t tmp[4];
  for (int i = 0; i < 25; ++i) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(tmp), A[i]);
    st[0][i] = tmp[0];
    st[1][i] = tmp[1];
    st[2][i] = tmp[2];
    st[3][i] = tmp[3];
  }
}
}  // namespace pqsig::hash::detail
#endif
