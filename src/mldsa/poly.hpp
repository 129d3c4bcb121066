// ML-DSA polynomial arithmetic over R_q = Z_q[X]/(X^256 + 1), q = 8380417 (FIPS 204 §2.3, §7.5).
// Internal header. Coefficients are int32 in a signed representation; Montgomery arithmetic
// with R = 2^32 (no division anywhere, constant time for secret inputs).
//
// The NTT and pointwise products sit behind a small function table (PolyBackend) so that a
// SIMD backend (e.g. AVX2) can slot in beside the scalar reference without touching callers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pqsig/mldsa.hpp"

namespace pqsig::mldsa::detail {

inline constexpr int kN = 256;
inline constexpr std::int32_t Q = kQ;

/// q^-1 mod 2^32 (Newton iteration at compile time).
constexpr std::uint32_t compute_qinv() {
  std::uint32_t x = 1;
  for (int i = 0; i < 5; ++i) x *= 2u - static_cast<std::uint32_t>(Q) * x;
  return x;
}
inline constexpr std::uint32_t kQinv = compute_qinv();
static_assert(static_cast<std::uint32_t>(Q) * kQinv == 1u);

/// Montgomery reduction: for |a| < q·2^31 returns r ≡ a·2^-32 (mod q) with |r| < q.
inline std::int32_t montgomery_reduce(std::int64_t a) noexcept {
  const std::int32_t t = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(a)) * kQinv);
  return static_cast<std::int32_t>((a - static_cast<std::int64_t>(t) * Q) >> 32);
}
/// For |a| ≤ 2^31 − 2^22 − 1 returns r ≡ a (mod q) with −6283009 ≤ r ≤ 6283008.
inline std::int32_t reduce32(std::int32_t a) noexcept {
  const std::int32_t t = (a + (1 << 22)) >> 23;
  return a - t * Q;
}
/// Adds q if a is negative (branch-free).
inline std::int32_t caddq(std::int32_t a) noexcept { return a + ((a >> 31) & Q); }
/// Standard representative in [0, q).
inline std::int32_t freeze(std::int32_t a) noexcept { return caddq(reduce32(a)); }

struct alignas(32) Poly {
  std::int32_t c[kN];
};

// ---- FIPS 204 Appendix B: zetas[m] = ζ^BitRev8(m) mod q (ζ = 1753), stored multiplied by 2^32
// (Montgomery form) in the centered representation. Computed at compile time.
namespace zeta_gen {
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
static_assert(mod_pow(kZeta, 256) == Q - 1, "ζ must be a primitive 512th root of unity");
struct Zetas {
  std::int32_t z[kN];
};
constexpr Zetas make_zetas() {
  Zetas t{};
  for (unsigned m = 0; m < kN; ++m) t.z[m] = centered(mod_pow(kZeta, brv8(m)) * kMont);
  return t;
}
}  // namespace zeta_gen
inline constexpr zeta_gen::Zetas kZetas = zeta_gen::make_zetas();
/// Final factor of NTT^-1: 256^-1 (FIPS 204 Algorithm 42, f = 8347681), times 2^32 to undo the
/// Montgomery factor of the pointwise product, times 2^32 for the Montgomery reduction itself.
inline constexpr std::int32_t kInvNttScale =
    zeta_gen::centered(zeta_gen::kMont * zeta_gen::kMont % Q * zeta_gen::mod_pow(256, Q - 2));

/// NTT / pointwise backend. All functions are constant time.
struct PolyBackend {
  const char* name;
  /// FIPS 204, Algorithm 41: NTT(w), in place. Input |w| < q, output |ŵ| < 9q.
  void (*ntt)(std::int32_t w[kN]) noexcept;
  /// FIPS 204, Algorithm 42: NTT^-1(ŵ), in place, with an extra factor 2^32 (cancels the
  /// Montgomery factor of the pointwise product). Input |ŵ| < q, output |w| < q.
  void (*invntt)(std::int32_t w[kN]) noexcept;
  /// FIPS 204, Algorithm 45 (MultiplyNTT) in Montgomery form: c = a∘b·2^-32, |c| < q.
  void (*pointwise)(std::int32_t c[kN], const std::int32_t a[kN], const std::int32_t b[kN]) noexcept;
  /// c = Σ_j a[j]∘b[j]·2^-32 over n pairs (a, b are arrays of n polys), |c| < q.
  /// Requires Σ|a·b| < q·2^31 per coefficient (true for Â·ŷ with n ≤ 7).
  void (*pointwise_acc)(std::int32_t c[kN], const Poly* a, const Poly* b, int n) noexcept;
  /// FIPS 204, Algorithm 30 (RejNTTPoly) inner loop with Algorithm 14 (CoeffFromThreeBytes): parse
  /// 3-byte candidates of buf[0..len) into a[ctr..256) while ctr < 256, keeping those < q;
  /// returns the new ctr. Public data only (the matrix Â).
  int (*rej_ntt_poly)(std::int32_t* a, int ctr, const std::uint8_t* buf, std::size_t len) noexcept;
  /// FIPS 204, Algorithm 31 (RejBoundedPoly) inner loop with Algorithm 15 (CoeffFromHalfByte),
  /// η = 2 or 4: half-bytes of buf[0..len) into a[ctr..256); returns the new ctr. Secret data:
  /// only the accept bit of each half-byte is declassified (it is independent of the kept values).
  int (*rej_bounded_poly)(int eta, std::int32_t* a, int ctr, const std::uint8_t* buf, std::size_t len) noexcept;
  /// FIPS 204, Algorithm 25 (skDecode) for one t0 polynomial: BitUnpack(in, 2^12 − 1, 2^12) of
  /// the 416 bytes at in. Secret data, constant time.
  void (*unpack_t0)(std::int32_t a[kN], const std::uint8_t* in) noexcept;
  /// skDecode for one s1 / s2 polynomial: BitUnpack(in, η, η), η = 2 or 4 (96 or 128 bytes).
  /// Returns nonzero if some field exceeds 2η (coefficient out of [−η, η]); constant time.
  std::uint32_t (*unpack_eta)(int eta, std::int32_t a[kN], const std::uint8_t* in) noexcept;
  /// FIPS 204, Algorithm 34 (ExpandMask) for one polynomial: BitUnpack(in, γ1 − 1, γ1) with
  /// bits = 18 (γ1 = 2^17) or 20 (γ1 = 2^19). `in` must have 8 readable bytes past its 32·bits
  /// (the SIMD loads read them; ExpandMask's squeeze buffer does). Secret data, constant time.
  void (*unpack_mask)(std::int32_t a[kN], const std::uint8_t* in, int bits) noexcept;
};
/// The scalar skDecode unpacking (reference for the SIMD ones).
void UnpackT0_scalar(std::int32_t a[kN], const std::uint8_t* in) noexcept;
std::uint32_t UnpackEta_scalar(int eta, std::int32_t a[kN], const std::uint8_t* in) noexcept;
void UnpackMask_scalar(std::int32_t a[kN], const std::uint8_t* in, int bits) noexcept;

/// The scalar RejBoundedPoly loop (η = 2 or 4; also the tail of the AVX2 one).
int RejBoundedPoly_scalar(int eta, std::int32_t* a, int ctr, const std::uint8_t* buf, std::size_t len) noexcept;
/// The scalar RejNTTPoly loop (also the tail of the AVX2 one).
int RejNTTPoly_scalar(std::int32_t* a, int ctr, const std::uint8_t* buf, std::size_t len) noexcept;

/// The backend selected at run time: AVX2 when the CPU has it (and neither PQSIG_PORTABLE nor
/// cpu::force_portable is in effect), else the scalar reference.
const PolyBackend& poly_backend() noexcept;
/// The AVX2 backend, or nullptr when it is not compiled in or the CPU lacks AVX2.
const PolyBackend* poly_backend_avx2() noexcept;
/// The portable reference backend (SIMD backends are tested against it).
const PolyBackend& poly_backend_scalar() noexcept;

}  // namespace pqsig::mldsa::detail
