// FIPS 203 §4: arithmetic in R_q = Z_q[X]/(X^256 + 1), q = 3329 — field reduction, the NTT,
// MultiplyNTTs, ByteEncode/ByteDecode, Compress/Decompress, SamplePolyCBD.
// Internal to src/mlkem (PQ core: no OpenSSL). Every routine here is constant time in the
// coefficient values: no branch, index or division depends on them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace pqsig::mlkem::detail {

constexpr std::uint32_t kQ = 3329;
constexpr int kN = 256;

/// Coefficients in [0, q) in normal (coefficient) representation.
struct alignas(32) Poly {
  std::uint16_t c[kN];
};
/// The same ring element in the NTT domain (FIPS 203 §4.3): a distinct type so that the two
/// representations cannot be mixed up.
struct alignas(32) NttPoly {
  std::uint16_t c[kN];
};

// ---------------------------------------------------------------- Z_q arithmetic
/// a mod q for a in [0, 2q): one masked conditional subtraction.
inline std::uint16_t csubq(std::uint32_t a) noexcept {
  std::uint32_t r = a - kQ;
  r += (0u - (r >> 31)) & kQ;
  return static_cast<std::uint16_t>(r);
}
/// x mod q for x < 2^24 (Barrett reduction in 32-bit arithmetic, so loops vectorize; no
/// division instruction). t = ((x >> 8) · floor(2^24/q)) >> 16 underestimates floor(x/q) by at
/// most 2, so x − t·q lies in [0, 3q) and two masked subtractions finish.
inline std::uint16_t barrett(std::uint32_t x) noexcept {
  constexpr std::uint32_t kM = (1u << 24) / kQ;  // 5039
  const std::uint32_t t = ((x >> 8) * kM) >> 16;
  return csubq(csubq(x - t * kQ));
}
/// a · zeta mod q with zeta_shoup = floor(zeta · 2^16 / q) precomputed (Shoup multiplication):
/// for a < 2^12, (a · zeta_shoup) >> 16 is floor(a·zeta/q) or one less, so one subtraction finishes.
inline std::uint16_t fmul_shoup(std::uint16_t a, std::uint16_t zeta, std::uint16_t zeta_shoup) noexcept {
  const std::uint32_t qe = (std::uint32_t{a} * zeta_shoup) >> 16;
  return csubq(std::uint32_t{a} * zeta - qe * kQ);
}
inline std::uint16_t fadd(std::uint16_t a, std::uint16_t b) noexcept { return csubq(std::uint32_t{a} + b); }
inline std::uint16_t fsub(std::uint16_t a, std::uint16_t b) noexcept { return csubq(std::uint32_t{a} + kQ - b); }
inline std::uint16_t fmul(std::uint16_t a, std::uint16_t b) noexcept { return barrett(std::uint32_t{a} * b); }

// ---------------------------------------------------------------- NTT tables (FIPS 203 §4.3)
constexpr std::uint32_t powmod17(std::uint32_t e) {
  std::uint32_t r = 1, b = 17;
  while (e) {
    if (e & 1) r = r * b % kQ;
    b = b * b % kQ;
    e >>= 1;
  }
  return r;
}
constexpr std::uint32_t bitrev7(std::uint32_t i) {
  std::uint32_t r = 0;
  for (int b = 0; b < 7; ++b) r |= ((i >> b) & 1u) << (6 - b);
  return r;
}
/// zetas[i] = 17^BitRev7(i) mod q (FIPS 203 Appendix A).
constexpr std::array<std::uint16_t, 128> make_zetas() {
  std::array<std::uint16_t, 128> z{};
  for (std::uint32_t i = 0; i < 128; ++i) z[i] = static_cast<std::uint16_t>(powmod17(bitrev7(i)));
  return z;
}
/// gammas[i] = 17^(2·BitRev7(i)+1) mod q (FIPS 203 Appendix A, used by MultiplyNTTs).
constexpr std::array<std::uint16_t, 128> make_gammas() {
  std::array<std::uint16_t, 128> g{};
  for (std::uint32_t i = 0; i < 128; ++i) g[i] = static_cast<std::uint16_t>(powmod17(2 * bitrev7(i) + 1));
  return g;
}
inline constexpr auto kZetas = make_zetas();
constexpr std::array<std::uint16_t, 128> make_shoup(const std::array<std::uint16_t, 128>& z) {
  std::array<std::uint16_t, 128> r{};
  for (std::size_t i = 0; i < 128; ++i) r[i] = static_cast<std::uint16_t>((std::uint32_t{z[i]} << 16) / kQ);
  return r;
}
inline constexpr auto kZetasShoup = make_shoup(kZetas);
inline constexpr auto kGammas = make_gammas();
static_assert(kZetas[1] == 1729 && kZetas[2] == 2580 && kZetas[3] == 3289, "FIPS 203 Appendix A zeta table");

// Signed Montgomery constants for the SIMD backends (R = 2^16): mont(c) = c·2^16 mod q,
// centered in (−q/2, q/2], and mont_qinv(c) = mont(c)·q^-1 mod 2^16 (q^-1 = 62209).
constexpr std::int16_t mont(std::uint32_t c) {
  std::int32_t m = static_cast<std::int32_t>((c * 65536u) % kQ);
  if (m > static_cast<std::int32_t>(kQ / 2)) m -= static_cast<std::int32_t>(kQ);
  return static_cast<std::int16_t>(m);
}
constexpr std::int16_t mont_qinv(std::uint32_t c) {
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(static_cast<std::uint32_t>(mont(c)) * 62209u));
}
static_assert(kGammas[0] == 17 && kGammas[1] == 3312, "FIPS 203 Appendix A gamma table");

// FIPS 203, Algorithm 9: NTT(f).
inline NttPoly ntt(const Poly& f) noexcept {
  NttPoly r;
  for (int i = 0; i < kN; ++i) r.c[i] = f.c[i];
  int i = 1;
  for (int len = 128; len >= 2; len >>= 1) {
    for (int start = 0; start < kN; start += 2 * len) {
      const std::uint16_t zeta = kZetas[i], zs = kZetasShoup[i];
      ++i;
      for (int j = start; j < start + len; ++j) {
        std::uint16_t t = fmul_shoup(r.c[j + len], zeta, zs);
        r.c[j + len] = fsub(r.c[j], t);
        r.c[j] = fadd(r.c[j], t);
      }
    }
  }
  return r;
}

// FIPS 203, Algorithm 10: NTT^-1(f̂).
inline Poly ntt_inverse(const NttPoly& fh) noexcept {
  Poly r;
  for (int i = 0; i < kN; ++i) r.c[i] = fh.c[i];
  int i = 127;
  for (int len = 2; len <= 128; len <<= 1) {
    for (int start = 0; start < kN; start += 2 * len) {
      const std::uint16_t zeta = kZetas[i], zs = kZetasShoup[i];
      --i;
      for (int j = start; j < start + len; ++j) {
        std::uint16_t t = r.c[j];
        r.c[j] = fadd(t, r.c[j + len]);
        r.c[j + len] = fmul_shoup(fsub(r.c[j + len], t), zeta, zs);
      }
    }
  }
  constexpr std::uint16_t kInv128 = 3303, kInv128Shoup = static_cast<std::uint16_t>((3303u << 16) / kQ);
  for (int j = 0; j < kN; ++j) r.c[j] = fmul_shoup(r.c[j], kInv128, kInv128Shoup);  // 3303 = 128^-1 mod q
  return r;
}

// FIPS 203, Algorithm 11: MultiplyNTTs(f̂, ĝ), accumulated into acc (acc += f̂ × ĝ), using
// FIPS 203, Algorithm 12: BaseCaseMultiply for each of the 128 degree-one pairs.
inline void multiply_ntts_acc(NttPoly& acc, const NttPoly& f, const NttPoly& g) noexcept {
  for (int i = 0; i < 128; ++i) {
    const std::uint32_t a0 = f.c[2 * i], a1 = f.c[2 * i + 1];
    const std::uint32_t b0 = g.c[2 * i], b1 = g.c[2 * i + 1];
    // c0 = a0·b0 + a1·b1·γ ; c1 = a0·b1 + a1·b0
    std::uint32_t c0 = std::uint32_t{barrett(a0 * b0)} + fmul(barrett(a1 * b1), kGammas[i]);
    std::uint32_t c1 = std::uint32_t{barrett(a0 * b1)} + barrett(a1 * b0);
    acc.c[2 * i] = csubq(acc.c[2 * i] + std::uint32_t{csubq(c0)});
    acc.c[2 * i + 1] = csubq(acc.c[2 * i + 1] + std::uint32_t{csubq(c1)});
  }
}

// Coefficient-wise fadd / fsub for coefficients in [0, q), in 16-bit arithmetic (a + b − q and
// a − b lie in (−q, q)), so the loops vectorize without widening; same results as fadd / fsub.
inline std::uint16_t fadd16(std::uint16_t a, std::uint16_t b) noexcept {
  const auto r = static_cast<std::int16_t>(a + b - static_cast<int>(kQ));
  return static_cast<std::uint16_t>(r + ((r >> 15) & static_cast<int>(kQ)));
}
inline std::uint16_t fsub16(std::uint16_t a, std::uint16_t b) noexcept {
  const auto r = static_cast<std::int16_t>(a - b);
  return static_cast<std::uint16_t>(r + ((r >> 15) & static_cast<int>(kQ)));
}
inline void poly_add(Poly& a, const Poly& b) noexcept {
  for (int i = 0; i < kN; ++i) a.c[i] = fadd16(a.c[i], b.c[i]);
}
inline void poly_sub(Poly& a, const Poly& b) noexcept {  // a = a - b
  for (int i = 0; i < kN; ++i) a.c[i] = fsub16(a.c[i], b.c[i]);
}
inline void ntt_add(NttPoly& a, const NttPoly& b) noexcept {
  for (int i = 0; i < kN; ++i) a.c[i] = fadd16(a.c[i], b.c[i]);
}

// ---------------------------------------------------------------- encodings (FIPS 203 §4.2.1)
// FIPS 203, Algorithm 5: ByteEncode_d(F), F an array of 256 d-bit integers (d ≤ 12).
template <int D>
inline void byte_encode(const std::uint16_t* f, std::uint8_t* out) noexcept {
  std::uint32_t acc = 0;
  int bits = 0;
  std::size_t o = 0;
  for (int i = 0; i < kN; ++i) {
    acc |= static_cast<std::uint32_t>(f[i]) << bits;
    bits += D;
    while (bits >= 8) {
      out[o++] = static_cast<std::uint8_t>(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
}
// FIPS 203, Algorithm 6: ByteDecode_d(B). For d = 12 the result is reduced mod q (the
// caller uses byte_decode_raw<12> when it needs the unreduced values).
template <int D>
inline void byte_decode_raw(const std::uint8_t* in, std::uint16_t* f) noexcept {
  std::uint32_t acc = 0;
  int bits = 0;
  std::size_t p = 0;
  for (int i = 0; i < kN; ++i) {
    while (bits < D) {
      acc |= static_cast<std::uint32_t>(in[p++]) << bits;
      bits += 8;
    }
    f[i] = static_cast<std::uint16_t>(acc & ((1u << D) - 1));
    acc >>= D;
    bits -= D;
  }
}
template <int D>
inline void byte_decode(const std::uint8_t* in, std::uint16_t* f) noexcept {
  byte_decode_raw<D>(in, f);
  if constexpr (D == 12) {
    for (int i = 0; i < kN; ++i) f[i] = csubq(f[i]);  // 12-bit value < 2q: one subtraction
  }
}

// ---------------------------------------------------------------- compression (FIPS 203 §4.2.1)
// Compress_d(x) = round(2^d/q · x) mod 2^d for x in [0, q). Computed as
// floor((x·2^d + 1664) / q) with a multiply-and-shift instead of a division (KyberSlash):
// for y < 2^23, floor(y / q) == (y · ceil(2^35/q)) >> 35 exactly, since the error
// y · (ceil(2^35/q) − 2^35/q) / 2^35 < 2^-12 < 1/q.
template <int D>
inline std::uint16_t compress(std::uint16_t x) noexcept {
  static_assert(D >= 1 && D <= 11);
  constexpr std::uint64_t kM = ((std::uint64_t{1} << 35) + kQ - 1) / kQ;
  const std::uint64_t y = (static_cast<std::uint64_t>(x) << D) + (kQ / 2);
  return static_cast<std::uint16_t>(((y * kM) >> 35) & ((1u << D) - 1));
}
// Decompress_d(y) = round(q/2^d · y).
template <int D>
inline std::uint16_t decompress(std::uint16_t y) noexcept {
  return static_cast<std::uint16_t>((static_cast<std::uint32_t>(y) * kQ + (1u << (D - 1))) >> D);
}

// ---------------------------------------------------------------- sampling
// FIPS 203, Algorithm 8: SamplePolyCBD_η(B), B of 64η bytes.
template <int Eta>
inline Poly sample_poly_cbd(const std::uint8_t* b) noexcept {
  Poly f;
  for (int i = 0; i < kN; ++i) {
    std::uint32_t x = 0, y = 0;
    for (int j = 0; j < Eta; ++j) {
      const int bx = 2 * i * Eta + j;
      const int by = 2 * i * Eta + Eta + j;
      x += (b[bx >> 3] >> (bx & 7)) & 1u;
      y += (b[by >> 3] >> (by & 7)) & 1u;
    }
    f.c[i] = csubq(x + kQ - y);  // x − y mod q, in [0, 2q) before the subtraction
  }
  return f;
}

// ---------------------------------------------------------------- backends
/// The arithmetic kernels of K-PKE, behind one seam: the scalar reference above, or a SIMD
/// backend selected at run time (src/mlkem/poly_avx2.cpp). Every function takes and returns
/// coefficients in [0, q), in the standard (FIPS 203) order, so backends are bit-for-bit
/// interchangeable; tests/mlkem compares them on random inputs. All are constant time.
struct PolyOps {
  const char* name;
  /// FIPS 203, Algorithm 9: NTT(f), in place.
  void (*ntt)(std::uint16_t c[kN]) noexcept;
  /// FIPS 203, Algorithm 10: NTT^-1(f̂), in place.
  void (*ntt_inverse)(std::uint16_t c[kN]) noexcept;
  /// FIPS 203, Algorithms 11–12: out = Σ_{j<n} MultiplyNTTs(a[j·stride], b[j]), n ≤ 4.
  void (*multiply_ntts_sum)(NttPoly& out, const NttPoly* a, int stride, const NttPoly* b, int n) noexcept;
  /// FIPS 203, Algorithm 7 (the parsing loop): appends to out[count..256) the candidates
  /// d < q read from buf (len bytes, a multiple of 3); returns the new count. buf is public (ρ).
  int (*sample_ntt_parse)(std::uint16_t out[kN], int count, const std::uint8_t* buf, std::size_t len) noexcept;
  /// FIPS 203, Algorithm 8: SamplePolyCBD_η(B), η ∈ {2, 3}, B of 64η bytes.
  void (*sample_poly_cbd)(int eta, const std::uint8_t* b, std::uint16_t c[kN]) noexcept;
  /// FIPS 203, Algorithm 5 after Compress_d (§4.2.1): ByteEncode_d(Compress_d(c)), d ∈ {1, 4, 5, 10,
  /// 11}; d = 12 is ByteEncode_12(c) without compression. Writes 32d bytes.
  void (*compress_encode)(int d, const std::uint16_t c[kN], std::uint8_t* out) noexcept;
  /// FIPS 203, Algorithm 6 then Decompress_d: Decompress_d(ByteDecode_d(B)), d ∈ {1, 4, 5, 10, 11};
  /// d = 12 is ByteDecode_12(B) reduced mod q. Reads 32d bytes.
  void (*decode_decompress)(int d, const std::uint8_t* in, std::uint16_t c[kN]) noexcept;
};
/// The backend for this CPU (AVX-512, else AVX2, unless PQSIG_PORTABLE or cpu::force_portable), else scalar.
const PolyOps& poly_ops() noexcept;
/// The scalar reference backend.
const PolyOps& poly_ops_scalar() noexcept;
/// The AVX2 backend, or nullptr when it is not compiled in or the CPU lacks AVX2.
const PolyOps* poly_ops_avx2() noexcept;
/// The AVX-512 backend (the AVX2 kernels with AVX-512 VBMI2 ones where they are faster), or
/// nullptr when it is not compiled in or the CPU lacks AVX-512 VBMI2.
const PolyOps* poly_ops_avx512() noexcept;

namespace avx512 {  // kernels in poly_avx512.cpp, used by the AVX-512 table
bool available() noexcept;
void ntt(std::uint16_t c[kN]) noexcept;
void ntt_inverse(std::uint16_t c[kN]) noexcept;
void sample_poly_cbd(int eta, const std::uint8_t* b, std::uint16_t c[kN]) noexcept;
void multiply_ntts_sum(NttPoly& out, const NttPoly* a, int stride, const NttPoly* b, int n) noexcept;
int sample_ntt_parse(std::uint16_t out[kN], int count, const std::uint8_t* buf, std::size_t len) noexcept;
}  // namespace avx512

}  // namespace pqsig::mlkem::detail
