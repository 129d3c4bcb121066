// Run-time dispatch for SHA-256 compression. The SHA-NI backend (sha256_shani.cpp) is added
// beside the scalar reference; until then, scalar is used everywhere.
#include "hash/sha2_backend.hpp"
#include "pqsig/hash.hpp"

namespace pqsig::hash {
namespace detail {
Sha256CompressFn sha256_compress_fn() noexcept { return &sha256_compress_scalar; }
}  // namespace detail
bool sha256_uses_shani() noexcept { return false; }
}  // namespace pqsig::hash
