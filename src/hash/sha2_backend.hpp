// Internal: run-time selection of the SHA-256 compression backend and the 4-way SHA-512 one.
#pragma once
#include <cstddef>
#include <cstdint>

#if !defined(PQSIG_PORTABLE) && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define PQSIG_HAVE_SHANI_BACKEND 1
#endif

namespace pqsig::hash::detail {
using Sha256CompressFn = void (*)(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t nblocks) noexcept;
/// Per call (cheap: cached CPUID + an atomic flag): SHA-NI backend if present, else the scalar reference.
Sha256CompressFn sha256_compress_fn() noexcept;
/// Four independent single-block compressions (h[q] ← compress(h[q], blocks[q])).
using Sha256CompressX4Fn = void (*)(std::uint32_t* const h[4], const std::uint8_t* const blocks[4]) noexcept;
Sha256CompressX4Fn sha256_compress_x4_fn() noexcept;
/// The portable x4 reference: four scalar compressions one after another.
void sha256_compress_x4_scalar(std::uint32_t* const h[4], const std::uint8_t* const blocks[4]) noexcept;
/// True when the CPU offers the SHA extensions (and SSSE3 / SSE4.1) and the build has the
/// SHA-NI backend (always false under PQSIG_PORTABLE).
bool cpu_has_shani() noexcept;
/// Four independent SHA-512 compressions of nblocks blocks each (h[q] ← compress(h[q],
/// blocks[q] .. blocks[q] + 128·nblocks)).
using Sha512CompressX4Fn = void (*)(std::uint64_t* const h[4], const std::uint8_t* const blocks[4],
                                    std::size_t nblocks) noexcept;
/// The AVX-512VL 4-way kernel when the CPU has it, else the AVX2 one, else the scalar reference.
Sha512CompressX4Fn sha512_compress_x4_fn() noexcept;
void sha512_compress_x4_scalar(std::uint64_t* const h[4], const std::uint8_t* const blocks[4],
                               std::size_t nblocks) noexcept;
/// FIPS 180-4 §4.2.2 and §4.2.3 constants.
extern const std::uint32_t kSha256K[64];
extern const std::uint64_t kSha512K[80];
#if defined(PQSIG_HAVE_SHANI_BACKEND)
/// The 4-way SHA-512 kernels (sha512_x4_avx512.cpp, sha512_x4_avx2.cpp). Call only when the CPU
/// has AVX-512F + AVX-512VL (cpu::has_avx512vl) / AVX2 (cpu::has_avx2).
void sha512_compress_x4_avx512vl(std::uint64_t* const h[4], const std::uint8_t* const blocks[4],
                                 std::size_t nblocks) noexcept;
void sha512_compress_x4_avx2(std::uint64_t* const h[4], const std::uint8_t* const blocks[4],
                             std::size_t nblocks) noexcept;
/// SHA-NI backend (sha256_shani.cpp). Call only when cpu_has_shani().
void sha256_compress_shani(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t nblocks) noexcept;
void sha256_compress_shani_x4(std::uint32_t* const h[4], const std::uint8_t* const blocks[4]) noexcept;
#endif
}  // namespace pqsig::hash::detail
