// Scalar reference NTT and pointwise arithmetic for ML-DSA (FIPS 204 §7.5).
#include "mldsa/poly.hpp"

#include <array>

namespace pqsig::mldsa::detail {
namespace {

constexpr std::int64_t mod_pow(std::int64_t b, std::int64_t e) {
  std::int64_t r = 1;
  b %= Q;
  while (e > 0) {
    if (e & 1) r = r * b % Q;
    b = b * b % Q;
    e >>= 1;
  }
  return r;
}
constexpr unsigned brv8(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 8; ++i) r |= ((x >> i) & 1u) << (7 - i);
  return r;
}
constexpr std::int32_t centered(std::int64_t a) {
  a %= Q;
  if (a < 0) a += Q;
  return static_cast<std::int32_t>(a > Q / 2 ? a - Q : a);
}

constexpr std::int64_t kZeta = 1753;                       // FIPS 204 §7.5: 512th root of unity
constexpr std::int64_t kMont = (std::int64_t{1} << 32) % Q;  // 2^32 mod q

// FIPS 204 Appendix B: zetas[m] = ζ^BitRev8(m) mod q, stored multiplied by 2^32 (Montgomery form).
constexpr std::array<std::int32_t, kN> make_zetas() {
  std::array<std::int32_t, kN> z{};
  for (unsigned m = 0; m < kN; ++m) z[m] = centered(mod_pow(kZeta, brv8(m)) * kMont);
  return z;
}
constexpr auto kZetas = make_zetas();
// 2^64 / 256 mod q: the final scaling of NTT^-1 (256^-1), times 2^32 to undo one Montgomery
// factor of the pointwise product, times 2^32 for the Montgomery reduction itself.
constexpr std::int32_t kInvNttScale = centered(kMont * kMont % Q * mod_pow(256, Q - 2));

static_assert(mod_pow(kZeta, 256) == Q - 1, "ζ must be a primitive 512th root of unity");

// FIPS 204, Algorithm 41: NTT(w).
void ntt_scalar(std::int32_t w[kN]) noexcept {
  unsigned m = 0;
  for (unsigned len = 128; len >= 1; len >>= 1) {
    for (unsigned start = 0; start < kN; start += 2 * len) {
      const std::int64_t z = kZetas[++m];
      for (unsigned j = start; j < start + len; ++j) {
        const std::int32_t t = montgomery_reduce(z * w[j + len]);
        w[j + len] = w[j] - t;
        w[j] = w[j] + t;
      }
    }
  }
}

// FIPS 204, Algorithm 42: NTT^-1(ŵ) (with the extra 2^32 factor, see poly.hpp).
void invntt_scalar(std::int32_t w[kN]) noexcept {
  unsigned m = kN;
  for (unsigned len = 1; len < kN; len <<= 1) {
    for (unsigned start = 0; start < kN; start += 2 * len) {
      const std::int64_t z = -static_cast<std::int64_t>(kZetas[--m]);
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
void pointwise_scalar(std::int32_t c[kN], const std::int32_t a[kN], const std::int32_t b[kN]) noexcept {
  for (int i = 0; i < kN; ++i) c[i] = montgomery_reduce(static_cast<std::int64_t>(a[i]) * b[i]);
}

// FIPS 204, Algorithms 45 + 44: Σ MultiplyNTT(a_j, b_j), one Montgomery reduction per coefficient.
void pointwise_acc_scalar(std::int32_t c[kN], const Poly* a, const Poly* b, int n) noexcept {
  for (int i = 0; i < kN; ++i) {
    std::int64_t acc = 0;
    for (int j = 0; j < n; ++j) acc += static_cast<std::int64_t>(a[j].c[i]) * b[j].c[i];
    c[i] = montgomery_reduce(acc);
  }
}

constexpr PolyBackend kScalar{"scalar", &ntt_scalar, &invntt_scalar, &pointwise_scalar, &pointwise_acc_scalar};

}  // namespace

const PolyBackend& poly_backend_scalar() noexcept { return kScalar; }
const PolyBackend& poly_backend() noexcept { return kScalar; }

}  // namespace pqsig::mldsa::detail
