// Ed25519 pre-check shared by the libsodium and OpenSSL verifiers (see ed25519_rule.hpp).
// Inputs are public (public key and signature), so plain comparisons are fine here.
#include "classical/ed25519_rule.hpp"

#include <cstring>

namespace pqsig::classical::internal {
namespace {

// Little-endian 255-bit y-coordinates of the small-order points (sign bit cleared):
// 0 (order 4), 1 (identity), p - 1 (order 2) and the two order-8 y values.
constexpr std::uint8_t kSmallOrderY[5][32] = {
    {0},
    {1},
    {0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    {0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
     0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05},
    {0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
     0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a},
};

// L = 2^252 + 27742317777372353535851937790883648493, little-endian (RFC 8032 §5.1).
constexpr std::uint8_t kL[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                                 0xa2, 0xde, 0xf9, 0xde, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10};

// a < b for 32-byte little-endian integers.
bool lt_le256(const std::uint8_t* a, const std::uint8_t* b) noexcept {
  for (int i = 31; i >= 0; --i)
    if (a[i] != b[i]) return a[i] < b[i];
  return false;
}

}  // namespace

// RFC 8032 §5.1.3 steps 1 and 4 (canonical y, no "-0"), and not one of the 8 torsion points.
bool ed25519_point_acceptable(const std::uint8_t* enc32) noexcept {
  std::uint8_t y[32];
  std::memcpy(y, enc32, 32);
  y[31] &= 0x7f;  // the sign of x; x = 0 only for y = 1 or p - 1, both refused below as small order
  // y < p = 2^255 - 19: y >= p only for y in [p, 2^255 - 1], i.e. y[1..30] = 0xff, y[31] = 0x7f, y[0] >= 0xed.
  bool all_ff = y[31] == 0x7f;
  for (int i = 1; i < 31 && all_ff; ++i) all_ff = y[i] == 0xff;
  if (all_ff && y[0] >= 0xed) return false;
  for (const auto& s : kSmallOrderY)
    if (std::memcmp(y, s, 32) == 0) return false;  // small order (this also covers x = 0 with sign set)
  return true;
}

bool ed25519_precheck(byte_span pub, byte_span sig) noexcept {
  if (pub.size() != 32 || sig.size() != 64) return false;
  if (!ed25519_point_acceptable(pub.data())) return false;      // A
  if (!ed25519_point_acceptable(sig.data())) return false;      // R
  return lt_le256(sig.data() + 32, kL);                          // S < L
}

}  // namespace pqsig::classical::internal
