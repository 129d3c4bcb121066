// Scalar reference NTT and pointwise arithmetic for ML-DSA (FIPS 204 §7.5).
#include "mldsa/poly.hpp"

#include <array>

#include "common/ct.hpp"

namespace pqsig::mldsa::detail {
namespace {

// FIPS 204, Algorithm 41: NTT(w).
void NTT_scalar(std::int32_t w[kN]) noexcept {
  unsigned m = 0;
  for (unsigned len = 128; len >= 1; len >>= 1) {
    for (unsigned start = 0; start < kN; start += 2 * len) {
      const std::int64_t z = kZetas.z[++m];
      for (unsigned j = start; j < start + len; ++j) {
        const std::int32_t t = montgomery_reduce(z * w[j + len]);
        w[j + len] = w[j] - t;
        w[j] = w[j] + t;
      }
    }
  }
}

// FIPS 204, Algorithm 42: NTT^-1(ŵ) (with the extra 2^32 factor, see poly.hpp).
void NTT_inverse_scalar(std::int32_t w[kN]) noexcept {
  unsigned m = kN;
  for (unsigned len = 1; len < kN; len <<= 1) {
    for (unsigned start = 0; start < kN; start += 2 * len) {
      const std::int64_t z = -static_cast<std::int64_t>(kZetas.z[--m]);
      for (unsigned j = start; j < start + len; ++j) {
        const std::int32_t t = w[j];
        w[j] = t + w[j + len];
        w[j + len] = montgomery_reduce(z * (t - w[j + len]));
      }
    }
  }
  for (unsigned j = 0; j < kN; ++j) w[j] = montgomery_reduce(static_cast<std::int64_t>(kInvNttScale) * w[j]);
}

// FIPS 204, Algorithm 45: MultiplyNTT (Montgomery form).
void MultiplyNTT_scalar(std::int32_t c[kN], const std::int32_t a[kN], const std::int32_t b[kN]) noexcept {
  for (int i = 0; i < kN; ++i) c[i] = montgomery_reduce(static_cast<std::int64_t>(a[i]) * b[i]);
}

// FIPS 204, Algorithms 45 + 44: Σ MultiplyNTT(a_j, b_j), one Montgomery reduction per coefficient.
void MultiplyNTT_acc_scalar(std::int32_t c[kN], const Poly* a, const Poly* b, int n) noexcept {
  for (int i = 0; i < kN; ++i) {
    std::int64_t acc = 0;
    for (int j = 0; j < n; ++j) acc += static_cast<std::int64_t>(a[j].c[i]) * b[j].c[i];
    c[i] = montgomery_reduce(acc);
  }
}

// FIPS 204, Algorithm 15: CoeffFromHalfByte, inside Algorithm 31: RejBoundedPoly (secret data).
template <int ETA>
int RejBoundedPoly(std::int32_t* a, int ctr, const std::uint8_t* buf, std::size_t len) noexcept {
  static_assert(ETA == 2 || ETA == 4);
  for (std::size_t pos = 0; ctr < kN && pos < len; ++pos) {
    const std::uint32_t z[2] = {buf[pos] & 15u, static_cast<std::uint32_t>(buf[pos] >> 4)};
    for (int h = 0; h < 2 && ctr < kN; ++h) {
      const std::uint32_t b = z[h];
      std::uint32_t accept = ct::mask_lt_u32(b, ETA == 2 ? 15u : 9u) & 1u;
      // Declassified: whether a uniformly random half-byte is rejected is independent of the
      // value of every accepted coefficient (rejection sampling leaks only the attempt count).
      CT_DECLASSIFY(&accept, sizeof accept);
      // Branch-free: the candidate is always written at a[ctr] (ctr < 256 here) and kept only
      // if accepted (no misprediction on the ~44% rejections of η = 4).
      if constexpr (ETA == 2) {
        const std::uint32_t q5 = (b * 205) >> 10;  // ⌊b/5⌋ for b < 15, no division
        a[ctr] = 2 - static_cast<std::int32_t>(b - 5 * q5);
      } else {
        a[ctr] = 4 - static_cast<std::int32_t>(b);
      }
      ctr += static_cast<int>(accept);
    }
  }
  return ctr;
}

constexpr bool check_div5() {
  for (std::uint32_t b = 0; b < 15; ++b)
    if (((b * 205) >> 10) != b / 5) return false;
  return true;
}
static_assert(check_div5());

}  // namespace

// FIPS 204, Algorithm 31 (RejBoundedPoly) inner loop, η = 2 or 4.
int RejBoundedPoly_scalar(int eta, std::int32_t* a, int ctr, const std::uint8_t* buf, std::size_t len) noexcept {
  return eta == 2 ? RejBoundedPoly<2>(a, ctr, buf, len) : RejBoundedPoly<4>(a, ctr, buf, len);
}

// FIPS 204, Algorithm 14: CoeffFromThreeBytes, inside Algorithm 30: RejNTTPoly (public data).
int RejNTTPoly_scalar(std::int32_t* a, int ctr, const std::uint8_t* buf, std::size_t len) noexcept {
  for (std::size_t pos = 0; ctr < kN && pos + 3 <= len; pos += 3) {
    const std::uint32_t t = static_cast<std::uint32_t>(buf[pos]) | static_cast<std::uint32_t>(buf[pos + 1]) << 8 |
                            static_cast<std::uint32_t>(buf[pos + 2] & 0x7F) << 16;
    if (t < static_cast<std::uint32_t>(Q)) a[ctr++] = static_cast<std::int32_t>(t);
  }
  return ctr;
}

// FIPS 204, Algorithm 19 (BitUnpack) for skDecode (Algorithm 25) and ExpandMask (Algorithm 34), reference: coefficient i is the
// `bits`-bit little-endian field at bit i·bits of in (32·bits bytes); raw values to a.
namespace {
void BitUnpackSk_scalar(std::int32_t a[kN], const std::uint8_t* in, int bits) noexcept {
  const std::size_t len = static_cast<std::size_t>(32 * bits);
  for (int i = 0; i < kN; ++i) {
    const std::size_t bit = static_cast<std::size_t>(i * bits), byte = bit / 8;
    std::uint32_t w = 0;
    for (std::size_t k = 0; k < 3 && byte + k < len; ++k) w |= static_cast<std::uint32_t>(in[byte + k]) << (8 * k);
    a[i] = static_cast<std::int32_t>((w >> (bit % 8)) & ((1u << bits) - 1));
  }
}
}  // namespace
// skDecode's t0: BitUnpack(·, 2^12 − 1, 2^12).
void UnpackT0_scalar(std::int32_t a[kN], const std::uint8_t* in) noexcept {
  BitUnpackSk_scalar(a, in, kD);
  for (int i = 0; i < kN; ++i) a[i] = (1 << (kD - 1)) - a[i];
}
// skDecode's s1 / s2: BitUnpack(·, η, η); nonzero if some field exceeds 2η (constant time).
std::uint32_t UnpackEta_scalar(int eta, std::int32_t a[kN], const std::uint8_t* in) noexcept {
  BitUnpackSk_scalar(a, in, eta == 2 ? 3 : 4);
  std::uint32_t bad = 0;
  for (int i = 0; i < kN; ++i) {
    bad |= static_cast<std::uint32_t>(2 * eta - a[i]) >> 31;  // a > 2η
    a[i] = eta - a[i];
  }
  return bad;
}
// ExpandMask's BitUnpack(·, γ1 − 1, γ1), bits = 18 or 20 (reads only the 32·bits input bytes).
void UnpackMask_scalar(std::int32_t a[kN], const std::uint8_t* in, int bits) noexcept {
  BitUnpackSk_scalar(a, in, bits);
  for (int i = 0; i < kN; ++i) a[i] = (1 << (bits - 1)) - a[i];
}

namespace {
constexpr PolyBackend kScalar{"scalar", &NTT_scalar, &NTT_inverse_scalar, &MultiplyNTT_scalar, &MultiplyNTT_acc_scalar,
                               &RejNTTPoly_scalar, &RejBoundedPoly_scalar, &UnpackT0_scalar, &UnpackEta_scalar, &UnpackMask_scalar};

}  // namespace

const PolyBackend& poly_backend_scalar() noexcept { return kScalar; }
const PolyBackend& poly_backend() noexcept {
  if (const PolyBackend* b = poly_backend_avx2()) return *b;
  return kScalar;
}

}  // namespace pqsig::mldsa::detail
