// Internal: X25519 (RFC 7748) through OpenSSL 3.0, for the hybrid KEMs in src/kem.
// Keys are raw 32-byte strings; the private key is used as given (OpenSSL clamps it).
#pragma once

#include <cstdint>

#include "pqsig/common.hpp"

namespace pqsig::classical::x25519 {

constexpr std::size_t kKeySize = 32;

/// RFC 7748 §6.1: public key X25519(sk, 9) from a 32-byte private key.
Status public_from_private(const std::uint8_t sk[32], std::uint8_t pk[32]);

/// RFC 7748 §6.1: shared secret X25519(sk, peer). An all-zero result (a small-order peer
/// point) is rejected with Errc::key_check_failed, as RFC 7748 §6.1 allows and
/// draft-ietf-tls-ecdhe-mlkem requires. `out` is zeroed on every failure.
Status dh(const std::uint8_t sk[32], const std::uint8_t peer[32], std::uint8_t out[32]);

}  // namespace pqsig::classical::x25519
