// Internal: HKDF-SHA256 (RFC 5869) through OpenSSL 3.0, for the settlement KEM combiner.
#pragma once

#include <cstdint>

#include "pqsig/common.hpp"

namespace pqsig::classical::hkdf {

/// RFC 5869 §2.2: PRK = HKDF-Extract(salt, IKM) with SHA-256 (32 bytes).
Status extract_sha256(byte_span salt, byte_span ikm, std::uint8_t prk[32]);
/// RFC 5869 §2.3: OKM = HKDF-Expand(PRK, info, L) with SHA-256, L = out.size() ≤ 255·32.
Status expand_sha256(const std::uint8_t prk[32], byte_span info, mut_byte_span out);

}  // namespace pqsig::classical::hkdf
