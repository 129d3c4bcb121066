// Scalar reference NTT and pointwise arithmetic for ML-DSA (FIPS 204 §7.5).
#include "mldsa/poly.hpp"

#include <array>

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

}  // namespace

// FIPS 204, Algorithm 14: CoeffFromThreeBytes, inside Algorithm 30: RejNTTPoly (public data).
int RejNTTPoly_scalar(std::int32_t* a, int ctr, const std::uint8_t* buf, std::size_t len) noexcept {
  for (std::size_t pos = 0; ctr < kN && pos + 3 <= len; pos += 3) {
    const std::uint32_t t = static_cast<std::uint32_t>(buf[pos]) | static_cast<std::uint32_t>(buf[pos + 1]) << 8 |
                            static_cast<std::uint32_t>(buf[pos + 2] & 0x7F) << 16;
    if (t < static_cast<std::uint32_t>(Q)) a[ctr++] = static_cast<std::int32_t>(t);
  }
  return ctr;
}

namespace {
constexpr PolyBackend kScalar{"scalar", &NTT_scalar, &NTT_inverse_scalar, &MultiplyNTT_scalar, &MultiplyNTT_acc_scalar,
                               &RejNTTPoly_scalar};

}  // namespace

const PolyBackend& poly_backend_scalar() noexcept { return kScalar; }
const PolyBackend& poly_backend() noexcept {
  if (const PolyBackend* b = poly_backend_avx2()) return *b;
  return kScalar;
}

}  // namespace pqsig::mldsa::detail
