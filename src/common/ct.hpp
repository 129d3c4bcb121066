// Constant-time helpers and secret-tainting macros, kept in one place.
// CT_SECRET(p,n) marks memory as secret; CT_DECLASSIFY(p,n) marks a value as public
// (every use must carry a comment saying why that value may be public).
// In the CT test build (PQSIG_CT_VALGRIND) they map to valgrind memcheck client
// requests, so any branch or memory index that depends on a secret is reported.
#pragma once
#include <cstddef>
#include <cstdint>

#if defined(PQSIG_CT_VALGRIND)
#include <valgrind/memcheck.h>
#define CT_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define CT_DECLASSIFY(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#else
#define CT_SECRET(p, n) ((void)(p), (void)(n))
#define CT_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

namespace pqsig::ct {

/// Optimisation barrier: the compiler cannot reason about the returned value,
/// so it cannot turn mask arithmetic back into a branch ("clangover").
template <class T>
inline T value_barrier(T x) noexcept {
  __asm__("" : "+r"(x));
  return x;
}

/// All-ones if x != 0 else 0.
inline std::uint32_t mask_nonzero_u32(std::uint32_t x) noexcept {
  x = value_barrier(x);
  return static_cast<std::uint32_t>(0) - ((x | (0u - x)) >> 31);
}
/// All-ones if a < b (unsigned) else 0.
inline std::uint32_t mask_lt_u32(std::uint32_t a, std::uint32_t b) noexcept {
  std::uint64_t d = static_cast<std::uint64_t>(value_barrier(a)) - b;
  return static_cast<std::uint32_t>(0) - static_cast<std::uint32_t>(d >> 63);
}
/// All-ones if x < 0 (signed) else 0.
inline std::int32_t mask_neg_i32(std::int32_t x) noexcept { return value_barrier(x) >> 31; }

/// Select a if mask is all-ones, b if mask is zero.
inline std::uint8_t select_u8(std::uint8_t mask, std::uint8_t a, std::uint8_t b) noexcept {
  return static_cast<std::uint8_t>(b ^ (value_barrier(mask) & (a ^ b)));
}
inline std::int32_t select_i32(std::int32_t mask, std::int32_t a, std::int32_t b) noexcept {
  return b ^ (value_barrier(mask) & (a ^ b));
}

/// Branch-free conditional copy: dst = src when mask==0xFF, unchanged when 0.
inline void cmov(std::uint8_t* dst, const std::uint8_t* src, std::size_t n, std::uint8_t mask) noexcept {
  mask = value_barrier(mask);
  for (std::size_t i = 0; i < n; ++i) dst[i] ^= mask & (dst[i] ^ src[i]);
}

/// 0 if equal, 0xFF otherwise; reads all bytes.
inline std::uint8_t neq_mask(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept {
  std::uint32_t r = 0;
  for (std::size_t i = 0; i < n; ++i) r |= static_cast<std::uint32_t>(a[i] ^ b[i]);
  return static_cast<std::uint8_t>(mask_nonzero_u32(r));
}

}  // namespace pqsig::ct
