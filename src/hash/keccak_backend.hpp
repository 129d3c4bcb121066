// Internal: Keccak backends beside the scalar reference.
#pragma once
#include <cstdint>

#if !defined(PQSIG_PORTABLE) && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define PQSIG_HAVE_AVX2_BACKENDS 1
#endif

namespace pqsig::hash::detail {
#if defined(PQSIG_HAVE_AVX2_BACKENDS)
void keccak_f1600_x4_avx2(std::uint64_t st[4][25]) noexcept;
#endif
/// The 4-way scalar fallback (one permutation after another).
void keccak_f1600_x4_scalar(std::uint64_t st[4][25]) noexcept;
}  // namespace pqsig::hash::detail
