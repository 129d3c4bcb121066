// Internal: run-time selection of the SHA-256 compression backend.
#pragma once
#include <cstddef>
#include <cstdint>

namespace pqsig::hash::detail {
using Sha256CompressFn = void (*)(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t nblocks) noexcept;
/// Chosen once (CPUID) on first use: SHA-NI backend if present, else the scalar reference.
Sha256CompressFn sha256_compress_fn() noexcept;
}  // namespace pqsig::hash::detail
