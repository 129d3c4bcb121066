// Run-time dispatch for SHA-256 compression: SHA-NI (sha256_shani.cpp) when CPUID reports the
// SHA extensions, the scalar reference (sha2.cpp) otherwise, when cpu::force_portable(true) is
// set, or under PQSIG_PORTABLE. The same for the 4-way SHA-512 compression (AVX-512VL, else AVX2).
#include "common/cpu.hpp"
#include "hash/sha2_backend.hpp"
#include "pqsig/hash.hpp"

namespace pqsig::hash {
namespace detail {

bool cpu_has_shani() noexcept {
#if defined(PQSIG_HAVE_SHANI_BACKEND)
  return cpu::has_sha_ni();  // every CPU with the SHA extensions has SSSE3 / SSE4.1
#else
  return false;
#endif
}

Sha256CompressFn sha256_compress_fn() noexcept {
#if defined(PQSIG_HAVE_SHANI_BACKEND)
  if (cpu_has_shani()) return &sha256_compress_shani;
#endif
  return &sha256_compress_scalar;
}
void sha256_compress_x4_scalar(std::uint32_t* const h[4], const std::uint8_t* const blocks[4]) noexcept {
  for (int q = 0; q < 4; ++q) sha256_compress_scalar(h[q], blocks[q], 1);
}

Sha256CompressX4Fn sha256_compress_x4_fn() noexcept {
#if defined(PQSIG_HAVE_SHANI_BACKEND)
  if (cpu_has_shani()) return &sha256_compress_shani_x4;
#endif
  return &sha256_compress_x4_scalar;
}
void sha512_compress_x4_scalar(std::uint64_t* const h[4], const std::uint8_t* const blocks[4],
                               std::size_t nblocks) noexcept {
  for (int q = 0; q < 4; ++q) sha512_compress(h[q], blocks[q], nblocks);
}
Sha512CompressX4Fn sha512_compress_x4_fn() noexcept {
#if defined(PQSIG_HAVE_SHANI_BACKEND)
  if (cpu::has_avx512vl()) return &sha512_compress_x4_avx512vl;  // false when forced portable
  if (cpu::has_avx2()) return &sha512_compress_x4_avx2;
#endif
  return &sha512_compress_x4_scalar;
}
}  // namespace detail

bool sha256_uses_shani() noexcept { return detail::sha256_compress_fn() != &sha256_compress_scalar; }
}  // namespace pqsig::hash
