// The one Ed25519 acceptance rule of pqsig, applied in front of both engines (libsodium and
// OpenSSL), so every path gives the same verdict (a ledger cannot afford a consensus split).
//
// Rule ("strict", RFC 8032 §5.1.7 plus libsodium's small-order refusal), checked before the
// engine's cofactorless equation [S]B = R + [k]A:
//   - A and R are canonical encodings: y < p, and x = 0 (y = 1 or y = p - 1) has sign bit 0
//     (RFC 8032 §5.1.3 decoding steps 1 and 4);
//   - A and R are not of small order (the 8 torsion points: y in {0, 1, p-1, ±y8});
//   - S < L (RFC 8032 §5.1.7 step 1).
// Why this and not ZIP-215: ZIP-215 needs the cofactored equation [8][S]B = [8]R + [8][k]A and
// accepts non-canonical encodings; neither engine implements it, so it would need a third curve
// implementation. The strict rule is what libsodium already enforces, OpenSSL differs only on
// the inputs the pre-check refuses, and both engines then run the same cofactorless equation:
// one verdict everywhere, checked by tests/classical against the "Taming the many EdDSAs" vectors.
#pragma once

#include "pqsig/common.hpp"

namespace pqsig::classical::internal {

/// True when a 32-byte encoded point is canonical and not of small order.
bool ed25519_point_acceptable(const std::uint8_t* enc32) noexcept;
/// The pre-check of a (public key, signature) pair under the rule above. Public data only.
bool ed25519_precheck(byte_span pub, byte_span sig) noexcept;

}  // namespace pqsig::classical::internal
