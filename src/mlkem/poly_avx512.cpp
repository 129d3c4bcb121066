// AVX-512 kernels for the ML-KEM backend (FIPS 203 §4.2.2): the SampleNTT candidate filter on
// 32 sixteen-bit lanes with VBMI's byte permute and VBMI2's in-register compress. The table
// that selects them (the AVX2 kernels plus these) is built in poly_avx2.cpp. Inputs and outputs
// are the scalar reference's, bit for bit (tests/mlkem/test_backend.cpp). Only public bytes
// (ρ's XOF stream) reach these kernels.
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
}  // namespace

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
int sample_ntt_parse(std::uint16_t*, int count, const std::uint8_t*, std::size_t) noexcept { return count; }
bool available() noexcept { return false; }
#endif

}  // namespace pqsig::mlkem::detail::avx512
