// FIPS 202: Keccak-f[1600], the sponge construction, SHA-3 and SHAKE.
#include <cstring>

#include "common/cpu.hpp"
#include "hash/keccak_backend.hpp"
#include "pqsig/hash.hpp"

namespace pqsig::hash {

namespace {
inline std::uint64_t rol(std::uint64_t x, unsigned n) noexcept { return (x << n) | (x >> ((64 - n) & 63)); }

inline std::uint64_t load64(const std::uint8_t* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);  // x86-64 / little-endian targets only (checked in CMake)
  return v;
}
}  // namespace

// FIPS 202 §3.3 Keccak-p[1600, 24]: theta, rho, pi, chi, iota; lanes A[x + 5y].
void keccak_f1600_scalar(std::uint64_t A[25]) noexcept {
  std::uint64_t a00 = A[0], a01 = A[1], a02 = A[2], a03 = A[3], a04 = A[4];
  std::uint64_t a05 = A[5], a06 = A[6], a07 = A[7], a08 = A[8], a09 = A[9];
  std::uint64_t a10 = A[10], a11 = A[11], a12 = A[12], a13 = A[13], a14 = A[14];
  std::uint64_t a15 = A[15], a16 = A[16], a17 = A[17], a18 = A[18], a19 = A[19];
  std::uint64_t a20 = A[20], a21 = A[21], a22 = A[22], a23 = A[23], a24 = A[24];
  for (int round = 0; round < 24; ++round) {
    // theta
    std::uint64_t c0 = a00 ^ a05 ^ a10 ^ a15 ^ a20;
    std::uint64_t c1 = a01 ^ a06 ^ a11 ^ a16 ^ a21;
    std::uint64_t c2 = a02 ^ a07 ^ a12 ^ a17 ^ a22;
    std::uint64_t c3 = a03 ^ a08 ^ a13 ^ a18 ^ a23;
    std::uint64_t c4 = a04 ^ a09 ^ a14 ^ a19 ^ a24;
    std::uint64_t d0 = c4 ^ rol(c1, 1), d1 = c0 ^ rol(c2, 1), d2 = c1 ^ rol(c3, 1);
    std::uint64_t d3 = c2 ^ rol(c4, 1), d4 = c3 ^ rol(c0, 1);
    a00 ^= d0; a05 ^= d0; a10 ^= d0; a15 ^= d0; a20 ^= d0;
    a01 ^= d1; a06 ^= d1; a11 ^= d1; a16 ^= d1; a21 ^= d1;
    a02 ^= d2; a07 ^= d2; a12 ^= d2; a17 ^= d2; a22 ^= d2;
    a03 ^= d3; a08 ^= d3; a13 ^= d3; a18 ^= d3; a23 ^= d3;
    a04 ^= d4; a09 ^= d4; a14 ^= d4; a19 ^= d4; a24 ^= d4;
    // rho + pi: B[y, 2x+3y] = rot(A[x,y], r[x,y])
    std::uint64_t b00 = a00;
    std::uint64_t b10 = rol(a01, 1);
    std::uint64_t b20 = rol(a02, 62);
    std::uint64_t b05 = rol(a03, 28);
    std::uint64_t b15 = rol(a04, 27);
    std::uint64_t b16 = rol(a05, 36);
    std::uint64_t b01 = rol(a06, 44);
    std::uint64_t b11 = rol(a07, 6);
    std::uint64_t b21 = rol(a08, 55);
    std::uint64_t b06 = rol(a09, 20);
    std::uint64_t b07 = rol(a10, 3);
    std::uint64_t b17 = rol(a11, 10);
    std::uint64_t b02 = rol(a12, 43);
    std::uint64_t b12 = rol(a13, 25);
    std::uint64_t b22 = rol(a14, 39);
    std::uint64_t b23 = rol(a15, 41);
    std::uint64_t b08 = rol(a16, 45);
    std::uint64_t b18 = rol(a17, 15);
    std::uint64_t b03 = rol(a18, 21);
    std::uint64_t b13 = rol(a19, 8);
    std::uint64_t b14 = rol(a20, 18);
    std::uint64_t b24 = rol(a21, 2);
    std::uint64_t b09 = rol(a22, 61);
    std::uint64_t b19 = rol(a23, 56);
    std::uint64_t b04 = rol(a24, 14);
    // chi
    a00 = b00 ^ (~b01 & b02); a01 = b01 ^ (~b02 & b03); a02 = b02 ^ (~b03 & b04);
    a03 = b03 ^ (~b04 & b00); a04 = b04 ^ (~b00 & b01);
    a05 = b05 ^ (~b06 & b07); a06 = b06 ^ (~b07 & b08); a07 = b07 ^ (~b08 & b09);
    a08 = b08 ^ (~b09 & b05); a09 = b09 ^ (~b05 & b06);
    a10 = b10 ^ (~b11 & b12); a11 = b11 ^ (~b12 & b13); a12 = b12 ^ (~b13 & b14);
    a13 = b13 ^ (~b14 & b10); a14 = b14 ^ (~b10 & b11);
    a15 = b15 ^ (~b16 & b17); a16 = b16 ^ (~b17 & b18); a17 = b17 ^ (~b18 & b19);
    a18 = b18 ^ (~b19 & b15); a19 = b19 ^ (~b15 & b16);
    a20 = b20 ^ (~b21 & b22); a21 = b21 ^ (~b22 & b23); a22 = b22 ^ (~b23 & b24);
    a23 = b23 ^ (~b24 & b20); a24 = b24 ^ (~b20 & b21);
    // iota
    a00 ^= detail::kKeccakRC[round];
  }
  A[0] = a00; A[1] = a01; A[2] = a02; A[3] = a03; A[4] = a04;
  A[5] = a05; A[6] = a06; A[7] = a07; A[8] = a08; A[9] = a09;
  A[10] = a10; A[11] = a11; A[12] = a12; A[13] = a13; A[14] = a14;
  A[15] = a15; A[16] = a16; A[17] = a17; A[18] = a18; A[19] = a19;
  A[20] = a20; A[21] = a21; A[22] = a22; A[23] = a23; A[24] = a24;
}

namespace {
inline std::uint64_t andn(std::uint64_t b, std::uint64_t c) noexcept { return ~b & c; }

// One round of FIPS 202 §3.3 Keccak-p[1600, 24] (θ, ρ, π, χ, ι), plane by plane, from A into E:
// each output row's five B lanes are formed (θ's D, ρ, π) and consumed by χ at once, so few
// values are live (little register spilling). c0..c4 hold θ's column parities C[x] of A on entry
// and are left holding those of E: they are accumulated as E's lanes are produced, so θ never
// re-reads the 25 lanes (the parity of the last round's output is dead code once unrolled).
__attribute__((always_inline)) inline void keccak_round_planes(const std::uint64_t* A, std::uint64_t* E,
                                                               std::uint64_t& c0, std::uint64_t& c1,
                                                               std::uint64_t& c2, std::uint64_t& c3,
                                                               std::uint64_t& c4, std::uint64_t rc) noexcept {
  const std::uint64_t d0 = c4 ^ rol(c1, 1);
  const std::uint64_t d1 = c0 ^ rol(c2, 1);
  const std::uint64_t d2 = c1 ^ rol(c3, 1);
  const std::uint64_t d3 = c2 ^ rol(c4, 1);
  const std::uint64_t d4 = c3 ^ rol(c0, 1);
  std::uint64_t n0, n1, n2, n3, n4;
  {  // output plane y = 0
    const std::uint64_t b0 = A[0] ^ d0;
    const std::uint64_t b1 = rol(A[6] ^ d1, 44);
    const std::uint64_t b2 = rol(A[12] ^ d2, 43);
    const std::uint64_t b3 = rol(A[18] ^ d3, 21);
    const std::uint64_t b4 = rol(A[24] ^ d4, 14);
    n0 = E[0] = b0 ^ andn(b1, b2) ^ rc;
    n1 = E[1] = b1 ^ andn(b2, b3);
    n2 = E[2] = b2 ^ andn(b3, b4);
    n3 = E[3] = b3 ^ andn(b4, b0);
    n4 = E[4] = b4 ^ andn(b0, b1);
  }
  {  // y = 1
    const std::uint64_t b0 = rol(A[3] ^ d3, 28);
    const std::uint64_t b1 = rol(A[9] ^ d4, 20);
    const std::uint64_t b2 = rol(A[10] ^ d0, 3);
    const std::uint64_t b3 = rol(A[16] ^ d1, 45);
    const std::uint64_t b4 = rol(A[22] ^ d2, 61);
    n0 ^= E[5] = b0 ^ andn(b1, b2);
    n1 ^= E[6] = b1 ^ andn(b2, b3);
    n2 ^= E[7] = b2 ^ andn(b3, b4);
    n3 ^= E[8] = b3 ^ andn(b4, b0);
    n4 ^= E[9] = b4 ^ andn(b0, b1);
  }
  {  // y = 2
    const std::uint64_t b0 = rol(A[1] ^ d1, 1);
    const std::uint64_t b1 = rol(A[7] ^ d2, 6);
    const std::uint64_t b2 = rol(A[13] ^ d3, 25);
    const std::uint64_t b3 = rol(A[19] ^ d4, 8);
    const std::uint64_t b4 = rol(A[20] ^ d0, 18);
    n0 ^= E[10] = b0 ^ andn(b1, b2);
    n1 ^= E[11] = b1 ^ andn(b2, b3);
    n2 ^= E[12] = b2 ^ andn(b3, b4);
    n3 ^= E[13] = b3 ^ andn(b4, b0);
    n4 ^= E[14] = b4 ^ andn(b0, b1);
  }
  {  // y = 3
    const std::uint64_t b0 = rol(A[4] ^ d4, 27);
    const std::uint64_t b1 = rol(A[5] ^ d0, 36);
    const std::uint64_t b2 = rol(A[11] ^ d1, 10);
    const std::uint64_t b3 = rol(A[17] ^ d2, 15);
    const std::uint64_t b4 = rol(A[23] ^ d3, 56);
    n0 ^= E[15] = b0 ^ andn(b1, b2);
    n1 ^= E[16] = b1 ^ andn(b2, b3);
    n2 ^= E[17] = b2 ^ andn(b3, b4);
    n3 ^= E[18] = b3 ^ andn(b4, b0);
    n4 ^= E[19] = b4 ^ andn(b0, b1);
  }
  {  // y = 4
    const std::uint64_t b0 = rol(A[2] ^ d2, 62);
    const std::uint64_t b1 = rol(A[8] ^ d3, 55);
    const std::uint64_t b2 = rol(A[14] ^ d4, 39);
    const std::uint64_t b3 = rol(A[15] ^ d0, 41);
    const std::uint64_t b4 = rol(A[21] ^ d1, 2);
    n0 ^= E[20] = b0 ^ andn(b1, b2);
    n1 ^= E[21] = b1 ^ andn(b2, b3);
    n2 ^= E[22] = b2 ^ andn(b3, b4);
    n3 ^= E[23] = b3 ^ andn(b4, b0);
    n4 ^= E[24] = b4 ^ andn(b0, b1);
  }
  c0 = n0; c1 = n1; c2 = n2; c3 = n3; c4 = n4;
}

// FIPS 202 §3.3 Keccak-p[1600, 24]: 24 plane-by-plane rounds alternating between the caller's
// state and a local copy (no copy in or out), two rounds per loop iteration (unrolling further measured no faster here).
// Same result as keccak_f1600_scalar (tested).
__attribute__((always_inline)) inline void keccak_f1600_planes(std::uint64_t st[25]) noexcept {
  std::uint64_t E[25];
  std::uint64_t c0 = st[0] ^ st[5] ^ st[10] ^ st[15] ^ st[20];
  std::uint64_t c1 = st[1] ^ st[6] ^ st[11] ^ st[16] ^ st[21];
  std::uint64_t c2 = st[2] ^ st[7] ^ st[12] ^ st[17] ^ st[22];
  std::uint64_t c3 = st[3] ^ st[8] ^ st[13] ^ st[18] ^ st[23];
  std::uint64_t c4 = st[4] ^ st[9] ^ st[14] ^ st[19] ^ st[24];
#pragma GCC unroll 1
  for (int round = 0; round < 24; round += 2) {
    keccak_round_planes(st, E, c0, c1, c2, c3, c4, detail::kKeccakRC[round]);
    keccak_round_planes(E, st, c0, c1, c2, c3, c4, detail::kKeccakRC[round + 1]);
  }
}
}  // namespace

void detail::keccak_f1600_planes_generic(std::uint64_t st[25]) noexcept { keccak_f1600_planes(st); }
#if defined(PQSIG_HAVE_AVX2_BACKENDS)
// The same code compiled with BMI1/BMI2 (andn for χ, rorx for the rotations), chosen at run time.
__attribute__((target("bmi,bmi2"))) void detail::keccak_f1600_planes_bmi2(std::uint64_t st[25]) noexcept {
  keccak_f1600_planes(st);
}
#endif

#if defined(PQSIG_HAVE_AVX2_BACKENDS)
bool detail::keccak_single_avx512vl_ok() noexcept {
  return cpu::has_avx512vl();  // false when forced portable
}
#endif

namespace {
using KeccakFn = void (*)(std::uint64_t*) noexcept;
KeccakFn select_keccak() noexcept {
#if defined(PQSIG_HAVE_AVX2_BACKENDS)
  if (detail::keccak_single_avx512vl_ok()) return &detail::keccak_f1600_avx512vl;
  static const bool bmi = __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  if (bmi && cpu::has_bmi2()) return &detail::keccak_f1600_planes_bmi2;  // has_bmi2(): false when forced portable
#endif
  return &detail::keccak_f1600_planes_generic;
}
}  // namespace

// Run-time dispatch point for the single-state permutation.
void keccak_f1600(std::uint64_t st[25]) noexcept { select_keccak()(st); }

void detail::keccak_f1600_x2(std::uint64_t st[25][2]) noexcept {
#if defined(PQSIG_HAVE_AVX2_BACKENDS)
  if (keccak_single_avx512vl_ok()) return keccak_f1600_x2_avx512vl(st);
#endif
  for (int j = 0; j < 2; ++j) {
    std::uint64_t s[25];
    for (int i = 0; i < 25; ++i) s[i] = st[i][j];
    keccak_f1600(s);
    for (int i = 0; i < 25; ++i) st[i][j] = s[i];
  }
}

void detail::keccak_f1600_x4_scalar(std::uint64_t st[4][25]) noexcept {
  for (int i = 0; i < 4; ++i) keccak_f1600_scalar(st[i]);
}

namespace detail {
namespace {
// The scalar 4-way backend on interleaved states: gather each state, permute, scatter.
void x4i_permute_scalar(std::uint64_t st[25][4]) noexcept {
  for (int j = 0; j < 4; ++j) {
    std::uint64_t s[25];
    for (int i = 0; i < 25; ++i) s[i] = st[i][j];
    keccak_f1600_scalar(s);
    for (int i = 0; i < 25; ++i) st[i][j] = s[i];
  }
}
void x4i_squeeze_scalar(std::uint64_t st[25][4], std::uint8_t* const out[4], std::size_t rate_lanes,
                        std::size_t nblocks) noexcept {
  for (std::size_t b = 0; b < nblocks; ++b) {
    x4i_permute_scalar(st);
    for (int j = 0; j < 4; ++j)
      for (std::size_t i = 0; i < rate_lanes; ++i) std::memcpy(out[j] + 8 * (rate_lanes * b + i), &st[i][j], 8);
  }
}
}  // namespace
const KeccakX4Backend kKeccakX4Scalar{"scalar", &x4i_permute_scalar, &x4i_squeeze_scalar, nullptr};

const KeccakX4Backend* keccak_x4_backend_avx512() noexcept {
#if defined(PQSIG_HAVE_AVX512_BACKENDS)
  if (cpu::has_avx512vl()) return &kKeccakX4Avx512;  // false when forced portable
#endif
  return nullptr;
}
const KeccakX4Backend* keccak_x4_backend_avx2() noexcept {
#if defined(PQSIG_HAVE_AVX2_BACKENDS)
  if (cpu::has_avx2()) return &kKeccakX4Avx2;
#endif
  return nullptr;
}
const KeccakX4Backend& keccak_x4_backend() noexcept {
  if (const KeccakX4Backend* b = keccak_x4_backend_avx512()) return *b;
  if (const KeccakX4Backend* b = keccak_x4_backend_avx2()) return *b;
  return kKeccakX4Scalar;
}
}  // namespace detail

// 4-way permutation on four states stored one after another: interleaved for the vector
// backends (the Shake128x4 / Shake256x4 classes keep their states interleaved and skip this).
void keccak_f1600_x4(std::uint64_t st[4][25]) noexcept {
  const detail::KeccakX4Backend& be = detail::keccak_x4_backend();
  if (&be == &detail::kKeccakX4Scalar) {
    detail::keccak_f1600_x4_scalar(st);
    return;
  }
  alignas(32) std::uint64_t t[25][4];
  for (int i = 0; i < 25; ++i)
    for (int j = 0; j < 4; ++j) t[i][j] = st[j][i];
  be.permute(t);
  for (int i = 0; i < 25; ++i)
    for (int j = 0; j < 4; ++j) st[j][i] = t[i][j];
}

void Keccak::reset() noexcept {
  std::memset(st_, 0, sizeof st_);
  pos_ = 0;
  squeezing_ = false;
}

void Keccak::absorb(byte_span in) noexcept {
  const std::uint8_t* p = in.data();
  std::size_t n = in.size();
  auto* s = reinterpret_cast<std::uint8_t*>(st_);
  if (pos_ != 0) {  // finish the partial block: whole lanes when aligned to one, then bytes
    std::size_t take = rate_ - pos_;
    if (take > n) take = n;
    std::size_t i = 0;
    if (pos_ % 8 == 0)
      for (; i + 8 <= take; i += 8) st_[(pos_ + i) / 8] ^= load64(p + i);
    for (; i < take; ++i) s[pos_ + i] ^= p[i];
    pos_ += take;
    p += take;
    n -= take;
    if (pos_ == rate_) {
      keccak_f1600(st_);
      pos_ = 0;
    }
  }
#if defined(PQSIG_HAVE_AVX2_BACKENDS)
  if (n >= rate_ && detail::keccak_single_avx512vl_ok()) {
    const std::size_t nb = n / rate_;
    if (detail::keccak_absorb_blocks_avx512vl(st_, p, nb, rate_ / 8)) {
      p += nb * rate_;
      n -= nb * rate_;
    }
  }
#endif
  while (n >= rate_) {
    for (std::size_t i = 0; i < rate_ / 8; ++i) st_[i] ^= load64(p + 8 * i);
    keccak_f1600(st_);
    p += rate_;
    n -= rate_;
  }
  std::size_t i = 0;
  if (pos_ % 8 == 0)  // whole lanes first, then the last bytes
    for (; i + 8 <= n; i += 8) st_[(pos_ + i) / 8] ^= load64(p + i);
  for (; i < n; ++i) s[pos_ + i] ^= p[i];
  pos_ += n;
}

void Keccak::finalize() noexcept {
  auto* s = reinterpret_cast<std::uint8_t*>(st_);
  s[pos_] ^= ds_;
  s[rate_ - 1] ^= 0x80;
  keccak_f1600(st_);
  pos_ = 0;
  squeezing_ = true;
}

void Keccak::squeeze(mut_byte_span out) noexcept {
  if (!squeezing_) finalize();
  auto* s = reinterpret_cast<const std::uint8_t*>(st_);
  std::uint8_t* o = out.data();
  std::size_t n = out.size();
  while (n > 0) {
    if (pos_ == rate_) {
      keccak_f1600(st_);
      pos_ = 0;
    }
    std::size_t take = rate_ - pos_;
    if (take > n) take = n;
    std::memcpy(o, s + pos_, take);
    pos_ += take;
    o += take;
    n -= take;
  }
}

void Keccak::squeeze_blocks(std::uint8_t* out, std::size_t nblocks) noexcept {
  if (!squeezing_) finalize();
  // A block boundary is required: if a partial squeeze happened, continue byte-wise.
  if (pos_ != 0) {
    squeeze(mut_byte_span(out, nblocks * rate_));
    return;
  }
  for (std::size_t b = 0; b < nblocks; ++b) {
    // After finalize() the first block is ready; subsequent blocks need a permutation.
    std::memcpy(out + b * rate_, st_, rate_);
    keccak_f1600(st_);
  }
  // State is one permutation ahead: mark it as "fresh block ready".
  pos_ = 0;
}

namespace {
// The last, partial block of a SHAKE input (rem < rate bytes at p) and pad10*1 with the SHAKE
// suffix (FIPS 202 §6.2, §B.2), XORed into instance j of an interleaved state (lane i of
// instance j at st[i][j]): whole words, the word holding the tail bytes and the suffix, the
// final bit in the rate's last word.
template <std::size_t W>
void xor_shake_final_block(std::uint64_t (*st)[W], int j, const std::uint8_t* p, std::size_t rem,
                           std::size_t rate) noexcept {
  const std::size_t whole = rem / 8, tail = rem % 8;
  for (std::size_t i = 0; i < whole; ++i) st[i][j] ^= load64(p + 8 * i);
  std::uint64_t t = std::uint64_t{0x1F} << (8 * tail);
  for (std::size_t b = 0; b < tail; ++b) t |= std::uint64_t{p[8 * whole + b]} << (8 * b);
  st[whole][j] ^= t;
  st[rate / 8 - 1][j] ^= std::uint64_t{0x80} << 56;
}

// FIPS 202 Algorithm 8 (SPONGE) lines 1–6 for four equal-length inputs, states interleaved.
template <std::size_t kRate>
void x4_absorb_once(std::uint64_t st[25][4], const std::uint8_t* in[4], std::size_t len) noexcept {
  std::memset(st, 0, sizeof(std::uint64_t) * 100);
  std::size_t off = 0;
  if (len >= kRate) {
    const detail::KeccakX4Backend& be = detail::keccak_x4_backend();
    while (len - off >= kRate) {
      for (std::size_t i = 0; i < kRate / 8; ++i)
        for (int j = 0; j < 4; ++j) st[i][j] ^= load64(in[j] + off + 8 * i);
      be.permute(st);
      off += kRate;
    }
  }
  const std::size_t rem = len - off;
  for (int j = 0; j < 4; ++j)  // in[j] may be null when len == 0
    xor_shake_final_block(st, j, rem != 0 ? in[j] + off : nullptr, rem, kRate);
}
}  // namespace

void Shake128x4::absorb_once(const std::uint8_t* in[4], std::size_t len) noexcept {
  x4_absorb_once<kShake128Rate>(st_, in, len);
}
void Shake128x4::squeeze_blocks(std::uint8_t* out[4], std::size_t nblocks) noexcept {
  detail::keccak_x4_backend().squeeze(st_, out, kShake128Rate / 8, nblocks);
}
void Shake256x4::absorb_once(const std::uint8_t* in[4], std::size_t len) noexcept {
  x4_absorb_once<kShake256Rate>(st_, in, len);
}
void Shake256x4::squeeze_blocks(std::uint8_t* out[4], std::size_t nblocks) noexcept {
  detail::keccak_x4_backend().squeeze(st_, out, kShake256Rate / 8, nblocks);
}

namespace detail {
void keccak_x8_permute(std::uint64_t st[25][8], unsigned halves) noexcept {
  if (const KeccakX8Backend* b = keccak_x8_backend()) {
    b->permute(st);
    return;
  }
  const KeccakX4Backend& b4 = keccak_x4_backend();
  alignas(32) std::uint64_t h[25][4];
  for (std::size_t half = 0; half < 2; ++half) {
    if (!(halves >> half & 1u)) continue;
    for (int i = 0; i < 25; ++i) std::memcpy(h[i], &st[i][4 * half], 32);
    b4.permute(h);
    for (int i = 0; i < 25; ++i) std::memcpy(&st[i][4 * half], h[i], 32);
  }
  secure_zero(h, sizeof h);  // the states may be secret
}
}  // namespace detail

bool ShakeX8::eight_way() noexcept { return detail::keccak_x8_backend() != nullptr; }
// No memset here: every lane is written in full when started (absorb_once, start_long), and
// the first squeeze zeroes the lanes never started (a full batch of eight has none).
ShakeX8::ShakeX8(bool wipe) noexcept : wipe_(wipe) {}
void ShakeX8::zero_unstarted() noexcept {
  for (int j = 0; j < kLanes; ++j)
    if (!(started_ >> j & 1u))
      for (int i = 0; i < 25; ++i) st_[i][j] = 0;
  started_ = 0xFF;
}
ShakeX8::~ShakeX8() {
  if (wipe_) secure_zero(st_, sizeof st_);
}
// FIPS 202 Algorithm 8 lines 1–6 for one short input (len < rate: no permutation yet) with
// pad10*1 and the SHAKE suffix 1111 (§6.2, §B.2), written into lane `lane` of the interleave.
void ShakeX8::absorb_once(int lane, std::size_t rate, const std::uint8_t* in, std::size_t len) noexcept {
  for (int i = 0; i < 25; ++i) st_[i][lane] = 0;  // a lane is written in full when started
  xor_shake_final_block(st_, lane, in, len, rate);
  rate_lanes_[lane] = static_cast<std::uint8_t>(rate / 8);
  started_ |= static_cast<std::uint8_t>(1u << lane);
}
void ShakeX8::start_long(int lane, std::size_t rate) noexcept {
  for (int i = 0; i < 25; ++i) st_[i][lane] = 0;
  rate_lanes_[lane] = static_cast<std::uint8_t>(rate / 8);
  started_ |= static_cast<std::uint8_t>(1u << lane);
}
void ShakeX8::save_lane(int lane, std::uint64_t out[25]) const noexcept {
  for (int i = 0; i < 25; ++i) out[i] = st_[i][lane];
}
void ShakeX8::load_lane(int lane, const std::uint64_t in[25]) noexcept {
  for (int i = 0; i < 25; ++i) st_[i][lane] = in[i];
  started_ |= static_cast<std::uint8_t>(1u << lane);
}
// FIPS 202 Algorithm 8 lines 7–10, one block per lane per permutation (and line 6 for the
// absorbing lane, when there is one).
void ShakeX8::squeeze_blocks(std::uint8_t* out[kLanes], std::size_t nblocks) noexcept {
  squeeze_blocks_absorbing(out, nblocks, -1, nullptr);
}
void ShakeX8::squeeze_blocks_absorbing(std::uint8_t* out[kLanes], std::size_t nblocks, int lane,
                                       const std::uint8_t* in) noexcept {
  if (started_ != 0xFF) zero_unstarted();
  if (const detail::KeccakX8Backend* b = detail::keccak_x8_backend()) {
    std::uint8_t* o[kLanes];
    for (int j = 0; j < kLanes; ++j) o[j] = rate_lanes_[j] ? out[j] : nullptr;
    b->squeeze(st_, o, rate_lanes_, nblocks, in ? lane : 0, in);
    for (int j = 0; j < kLanes; ++j)
      if (o[j]) out[j] = o[j];
    return;
  }
  unsigned halves = 0;
  for (int j = 0; j < kLanes; ++j)
    if (rate_lanes_[j]) halves |= 1u << (j / 4);
  const detail::KeccakX4Backend& b4 = detail::keccak_x4_backend();
  if (b4.squeeze_half8) {  // each half on its own for all blocks, in place, state in registers
    std::uint8_t* o[kLanes];
    for (int j = 0; j < kLanes; ++j) o[j] = rate_lanes_[j] ? out[j] : nullptr;
    for (int half = 0; half < 2; ++half)
      if (halves >> half & 1u) b4.squeeze_half8(st_, half, o, rate_lanes_, nblocks, in ? lane : -1, in);
    for (int j = 0; j < kLanes; ++j)
      if (o[j]) out[j] = o[j];
    return;
  }
  for (std::size_t b = 0; b < nblocks; ++b) {
    if (in) {
      for (std::size_t i = 0; i < rate_lanes_[lane]; ++i) st_[i][lane] ^= load64(in + 8 * i);
      in += 8 * std::size_t{rate_lanes_[lane]};
    }
    detail::keccak_x8_permute(st_, halves);
    for (int j = 0; j < kLanes; ++j) {
      if (!out[j] || !rate_lanes_[j]) continue;
      for (std::size_t i = 0; i < rate_lanes_[j]; ++i) std::memcpy(out[j] + 8 * i, &st_[i][j], 8);
      out[j] += 8 * rate_lanes_[j];
    }
  }
}

void shake128(mut_byte_span out, byte_span in) noexcept {
  Shake128 h;
  h.absorb(in);
  h.squeeze(out);
}
void shake256(mut_byte_span out, byte_span in) noexcept {
  Shake256 h;
  h.absorb(in);
  h.squeeze(out);
}

namespace {
template <class H, std::size_t N>
std::array<std::uint8_t, N> sha3_oneshot(byte_span in) noexcept {
  H h;
  h.absorb(in);
  std::array<std::uint8_t, N> out{};
  h.squeeze(mut_byte_span(out.data(), N));
  return out;
}
}  // namespace

std::array<std::uint8_t, 28> sha3_224(byte_span in) noexcept { return sha3_oneshot<Sha3_224, 28>(in); }
std::array<std::uint8_t, 32> sha3_256(byte_span in) noexcept { return sha3_oneshot<Sha3_256, 32>(in); }
std::array<std::uint8_t, 48> sha3_384(byte_span in) noexcept { return sha3_oneshot<Sha3_384, 48>(in); }
std::array<std::uint8_t, 64> sha3_512(byte_span in) noexcept { return sha3_oneshot<Sha3_512, 64>(in); }

}  // namespace pqsig::hash
