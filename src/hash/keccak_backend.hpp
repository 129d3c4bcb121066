// Internal: Keccak backends beside the scalar reference.
//
// The 4-way backends work on four states interleaved lane by lane (st[i][j] = lane i of state
// j), the layout they keep in vector registers, so no per-permutation rearrangement is needed.
// Squeezing whole blocks runs inside the backend: the state stays in registers across blocks.
#pragma once
#include <cstddef>
#include <cstdint>

#if !defined(PQSIG_PORTABLE) && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define PQSIG_HAVE_AVX2_BACKENDS 1
#define PQSIG_HAVE_AVX512_BACKENDS 1
#endif

namespace pqsig::hash::detail {

/// FIPS 202 §3.2.5 (ι): the round constants RC[ir] of Keccak-f[1600], ir = 0..23, shared by every backend.
inline constexpr std::uint64_t kKeccakRC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

/// One 4-way backend: the permutation and "permute, then write the first rate_lanes lanes of
/// each state to out[j] + 8·rate_lanes·b" for b < nblocks (FIPS 202 §4, Algorithm 8 lines 8–10).
struct KeccakX4Backend {
  const char* name;
  void (*permute)(std::uint64_t st[25][4]) noexcept;
  void (*squeeze)(std::uint64_t st[25][4], std::uint8_t* const out[4], std::size_t rate_lanes,
                  std::size_t nblocks) noexcept;
  /// ShakeX8's squeeze (KeccakX8Backend::squeeze) for the four states of one half of an
  /// eight-state interleave (states 4·half … 4·half+3, in place: no copy of the half), with the
  /// states kept in registers between blocks; absorb_lane is used only if it is in this half.
  /// nullptr for backends without it (ShakeX8 then permutes the half through a copy).
  void (*squeeze_half8)(std::uint64_t st[25][8], int half, std::uint8_t* out[8], const std::uint8_t rate_lanes[8],
                        std::size_t nblocks, int absorb_lane, const std::uint8_t* absorb_in) noexcept;
};

#if defined(PQSIG_HAVE_AVX2_BACKENDS)
extern const KeccakX4Backend kKeccakX4Avx2;
extern const KeccakX4Backend kKeccakX4Avx512;
void keccak_f1600_x4_avx2(std::uint64_t st[4][25]) noexcept;
#endif
extern const KeccakX4Backend kKeccakX4Scalar;

/// The backend selected at run time: AVX-512VL (native 64-bit rotates, ternary logic, 32
/// registers) when the CPU has it, else AVX2, else scalar; cpu::force_portable selects scalar.
const KeccakX4Backend& keccak_x4_backend() noexcept;
/// The AVX-512VL backend when compiled in and supported by this CPU (and not forced off), else nullptr.
const KeccakX4Backend* keccak_x4_backend_avx512() noexcept;
/// The AVX2 backend when compiled in and supported by this CPU (and not forced off), else nullptr.
const KeccakX4Backend* keccak_x4_backend_avx2() noexcept;

/// Single-state permutation, plane-by-plane form (portable), and the same code built for BMI1/2.
/// keccak_f1600() dispatches to one of them; both are tested against keccak_f1600_scalar.
void keccak_f1600_planes_generic(std::uint64_t st[25]) noexcept;
#if defined(PQSIG_HAVE_AVX2_BACKENDS)
void keccak_f1600_planes_bmi2(std::uint64_t st[25]) noexcept;
/// The single-state permutation on AVX-512VL registers (one lane per 128-bit register); run only
/// when keccak_single_avx512vl_ok(). Also tested against keccak_f1600_scalar.
void keccak_f1600_avx512vl(std::uint64_t st[25]) noexcept;
bool keccak_single_avx512vl_ok() noexcept;
/// Absorb nblocks whole blocks of rate_lanes lanes into st with the state kept in registers
/// (rates of 17 and 21 lanes; false, with nothing done, for other rates). Only when
/// keccak_single_avx512vl_ok().
bool keccak_absorb_blocks_avx512vl(std::uint64_t st[25], const std::uint8_t* in, std::size_t nblocks,
                                   std::size_t rate_lanes) noexcept;
#endif

/// Two independent permutations on interleaved states (st[i][j] = lane i of state j): one pass of
/// the AVX-512VL single-state code on both 64-bit halves of its 128-bit registers (the cost of
/// one permutation) when keccak_single_avx512vl_ok(), else two dispatched single permutations.
void keccak_f1600_x2(std::uint64_t st[25][2]) noexcept;
#if defined(PQSIG_HAVE_AVX2_BACKENDS)
void keccak_f1600_x2_avx512vl(std::uint64_t st[25][2]) noexcept;
#endif

/// 8-way backend (AVX-512F on zmm registers, keccak_x8_avx512.cpp): eight states interleaved
/// lane by lane (st[i][j] = lane i of state j). keccak_x8_backend() is it when compiled in and
/// supported by this CPU (and not forced off), else nullptr (callers then run two 4-way calls).
struct KeccakX8Backend {
  const char* name;
  void (*permute)(std::uint64_t st[25][8]) noexcept;
  /// nblocks times: if absorb_in, XOR its next rate_lanes[absorb_lane] words into state
  /// absorb_lane (advancing absorb_in); permute; then append the first rate_lanes[j] lanes of
  /// state j (byte order) to out[j] and advance it; a null out[j] is skipped (rate_lanes[j] ≤ 21).
  void (*squeeze)(std::uint64_t st[25][8], std::uint8_t* out[8], const std::uint8_t rate_lanes[8],
                  std::size_t nblocks, int absorb_lane, const std::uint8_t* absorb_in) noexcept;
};
const KeccakX8Backend* keccak_x8_backend() noexcept;
/// Keccak-p[1600,24] on eight interleaved states (st[i][j] = lane i of state j): the 8-way
/// backend when there is one, else the 4-way backend on each half whose bit is set in `halves`
/// (bit 0: states 0–3, bit 1: states 4–7; a half left out is not permuted).
void keccak_x8_permute(std::uint64_t st[25][8], unsigned halves = 3) noexcept;

/// The 4-way scalar fallback (one permutation after another), states one after another.
void keccak_f1600_x4_scalar(std::uint64_t st[4][25]) noexcept;
}  // namespace pqsig::hash::detail
