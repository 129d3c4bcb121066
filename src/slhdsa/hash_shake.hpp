// FIPS 205 §11.1: the SHAKE family's tweakable hash functions H_msg, PRF, PRF_msg, F, H, T_l.
#pragma once
#include <cstdint>
#include <cstring>

#include "hash/keccak_backend.hpp"
#include "pqsig/hash.hpp"
#include "slhdsa/address.hpp"
#include "slhdsa/params.hpp"

namespace pqsig::slhdsa::detail {

template <class P>
class ShakeHash {
 public:
  static constexpr std::size_t n = P::n;
  /// F_xw costs about one or two F here (8-way Keccak), so verification batches independent WOTS+ chains.
  static constexpr bool kParallelChains = true;

  /// Per-operation state: PK.seed and (signing / key generation only) SK.seed.
  ShakeHash(const std::uint8_t* pk_seed, const std::uint8_t* sk_seed) noexcept {
    std::memcpy(pk_seed_, pk_seed, n);
    if (sk_seed) std::memcpy(sk_seed_, sk_seed, n);
  }
  ~ShakeHash() { secure_zero(sk_seed_, sizeof sk_seed_); }
  ShakeHash(const ShakeHash&) = delete;
  ShakeHash& operator=(const ShakeHash&) = delete;

  /// F(PK.seed, ADRS, M1) = SHAKE256(PK.seed || ADRS || M1, 8n). `in` and `out` may alias.
  void F(const Adrs& adrs, const std::uint8_t* in, std::uint8_t* out) const noexcept { one_block<n>(adrs, in, out); }
  /// H(PK.seed, ADRS, M2) = SHAKE256(PK.seed || ADRS || M2, 8n), M2 of 2n bytes.
  void H(const Adrs& adrs, const std::uint8_t* in, std::uint8_t* out) const noexcept {
    one_block<2 * n>(adrs, in, out);
  }
  /// PRF(PK.seed, SK.seed, ADRS) = SHAKE256(PK.seed || ADRS || SK.seed, 8n).
  void PRF(const Adrs& adrs, std::uint8_t* out) const noexcept { one_block<n>(adrs, sk_seed_, out); }
  /// T_l(PK.seed, ADRS, M_l) = SHAKE256(PK.seed || ADRS || M_l, 8n), M_l of l·n bytes.
  void T(const Adrs& adrs, const std::uint8_t* in, std::size_t l, std::uint8_t* out) const noexcept {
    hash::Shake256 s;
    s.absorb(pk_seed_, n);
    s.absorb(adrs.b, 32);
    s.absorb(in, l * n);
    s.squeeze(out, n);
  }

  // ---- kWidth = 8 independent calls at once: the 8-way AVX-512F Keccak when the CPU has it,
  // else two 4-way calls (AVX-512VL / AVX2 / scalar). Lane q uses adrs[q]; all lanes have the
  // same input length.
  static constexpr std::size_t kWidth = 8;
  void F_xw(const Adrs* adrs, std::uint8_t* const* io) const noexcept { one_block_xw<n>(adrs, io, io); }
  /// F_xw on public values (chains recomputed from a signature): the state is not wiped.
  void F_xw_public(const Adrs* adrs, const std::uint8_t* const* in, std::uint8_t* const* out) const noexcept {
    one_block_xw<n, const std::uint8_t*, false>(adrs, in, out);
  }
  /// H for kWidth lanes (inner Merkle nodes of a signing / key generation treehash); in[q] holds
  /// left || right (2n bytes); in and out may alias.
  void H_xw(const Adrs* adrs, std::uint8_t* const* in, std::uint8_t* const* out) const noexcept {
    one_block_xw<2 * n>(adrs, in, out);
  }
  /// H on public values (FORS verification climbs kWidth trees at once).
  void H_xw_public(const Adrs* adrs, const std::uint8_t* const* in, std::uint8_t* const* out) const noexcept {
    one_block_xw<2 * n, const std::uint8_t*, false>(adrs, in, out);
  }
  void PRF_xw(const Adrs* adrs, std::uint8_t* const* out) const noexcept {
    const std::uint8_t* in[kWidth];
    for (auto& p : in) p = sk_seed_;
    one_block_xw<n>(adrs, in, out);
  }
  /// T_l for kWidth lanes (FIPS 202 sponge, Algorithm 8, absorbing whole lanes); l ≤ max(len, k).
  /// The inputs are WOTS+ public keys (public once the leaf is computed).
  void T_xw(const Adrs* adrs, const std::uint8_t* const* in, std::size_t l, std::uint8_t* const* out) const noexcept {
    constexpr std::size_t kRateLanes = hash::kShake256Rate / 8, kSeedLanes = n / 8;
    const std::size_t total_lanes = kSeedLanes + 4 + l * n / 8;  // n, 32 and l·n are whole lanes
    alignas(64) std::uint64_t st[25][kWidth];
    std::memset(st, 0, sizeof st);
    // Lane t of the message PK.seed || ADRS || M_l of state q.
    auto lane = [&](std::size_t t, std::size_t q) {
      std::uint64_t v;
      if (t < kSeedLanes) std::memcpy(&v, pk_seed_ + 8 * t, 8);
      else if (t < kSeedLanes + 4) std::memcpy(&v, adrs[q].b + 8 * (t - kSeedLanes), 8);
      else std::memcpy(&v, in[q] + 8 * (t - kSeedLanes - 4), 8);
      return v;
    };
    std::size_t t = 0;
    for (; t + kRateLanes <= total_lanes; t += kRateLanes) {
      for (std::size_t i = 0; i < kRateLanes; ++i)
        for (std::size_t q = 0; q < kWidth; ++q) st[i][q] ^= lane(t + i, q);
      permute_xw(st);
    }
    const std::size_t rest = total_lanes - t;
    for (std::size_t i = 0; i < rest; ++i)
      for (std::size_t q = 0; q < kWidth; ++q) st[i][q] ^= lane(t + i, q);
    for (std::size_t q = 0; q < kWidth; ++q) {
      st[rest][q] ^= 0x1F;
      st[kRateLanes - 1][q] ^= std::uint64_t{0x80} << 56;
    }
    permute_xw(st);
    for (std::size_t q = 0; q < kWidth; ++q)
      for (std::size_t i = 0; i < kSeedLanes; ++i) std::memcpy(out[q] + 8 * i, &st[i][q], 8);
  }

  /// PRF_msg(SK.prf, opt_rand, M) = SHAKE256(SK.prf || opt_rand || M, 8n).
  static void PRF_msg(const std::uint8_t* sk_prf, const std::uint8_t* opt_rand, const Msg& m,
                      std::uint8_t* out) noexcept {
    hash::Shake256 s;
    s.absorb(sk_prf, n);
    s.absorb(opt_rand, n);
    for (std::size_t i = 0; i < m.count; ++i) s.absorb(m.part[i]);
    s.squeeze(out, n);
  }
  /// H_msg(R, PK.seed, PK.root, M) = SHAKE256(R || PK.seed || PK.root || M, 8m).
  static void H_msg(const std::uint8_t* r, const std::uint8_t* pk_seed, const std::uint8_t* pk_root, const Msg& m,
                    std::uint8_t* out) noexcept {
    hash::Shake256 s;
    s.absorb(r, n);
    s.absorb(pk_seed, n);
    s.absorb(pk_root, n);
    for (std::size_t i = 0; i < m.count; ++i) s.absorb(m.part[i]);
    s.squeeze(out, P::m);
  }

 private:
  // PK.seed || ADRS || in fits one SHAKE256 block (rate 136): build the padded state directly
  // and run one permutation (n, 32 and the input are whole lanes).
  template <std::size_t InBytes>
  void one_block(const Adrs& adrs, const std::uint8_t* in, std::uint8_t* out) const noexcept {
    static_assert(n + 32 + InBytes < hash::kShake256Rate);
    std::uint64_t st[25] = {};
    auto* p = reinterpret_cast<std::uint8_t*>(st);  // little-endian lanes (x86-64, see keccak.cpp)
    std::memcpy(p, pk_seed_, n);
    std::memcpy(p + n, adrs.b, 32);
    std::memcpy(p + n + 32, in, InBytes);
    p[n + 32 + InBytes] = 0x1F;
    p[hash::kShake256Rate - 1] ^= 0x80;
    hash::keccak_f1600(st);
    std::memcpy(out, p, n);
    wipe(st, sizeof st);  // may hold SK.seed (PRF) or a secret chain value
  }

  // Keccak-p[1600,24] on kWidth interleaved states (FIPS 202 §3.3): one 8-way AVX-512F call, or
  // two calls of the 4-way backend on the halves (hash::detail::keccak_x8_permute).
  static void permute_xw(std::uint64_t st[25][kWidth]) noexcept { hash::detail::keccak_x8_permute(st); }

  // kWidth lanes at once: the padded states are written directly in the interleaved layout
  // (lane i of state q at st[i][q]; n, 32 and the input are whole lanes).
  template <std::size_t InBytes, class In = std::uint8_t*, bool kWipe = true>
  void one_block_xw(const Adrs* adrs, const In* in, std::uint8_t* const* out) const noexcept {
    static_assert(n + 32 + InBytes < hash::kShake256Rate);
    static_assert(n % 8 == 0 && InBytes % 8 == 0);
    constexpr std::size_t kSeedLanes = n / 8, kInLane = kSeedLanes + 4, kPadLane = kInLane + InBytes / 8;
    alignas(64) std::uint64_t st[25][kWidth];
    for (std::size_t i = 0; i < kSeedLanes; ++i) {
      std::uint64_t v;
      std::memcpy(&v, pk_seed_ + 8 * i, 8);
      for (std::size_t q = 0; q < kWidth; ++q) st[i][q] = v;
    }
    for (std::size_t q = 0; q < kWidth; ++q) {
      for (std::size_t i = 0; i < 4; ++i) std::memcpy(&st[kSeedLanes + i][q], adrs[q].b + 8 * i, 8);
      const std::uint8_t* src = in[q];
      for (std::size_t i = 0; i < InBytes / 8; ++i) std::memcpy(&st[kInLane + i][q], src + 8 * i, 8);
    }
    for (std::size_t i = kPadLane; i < 25; ++i)
      for (std::size_t q = 0; q < kWidth; ++q) st[i][q] = 0;
    for (std::size_t q = 0; q < kWidth; ++q) {
      st[kPadLane][q] = 0x1F;                                          // SHAKE suffix + first pad bit
      st[hash::kShake256Rate / 8 - 1][q] ^= std::uint64_t{0x80} << 56;  // last pad bit (byte 135; may share the lane)
    }
    permute_xw(st);
    for (std::size_t q = 0; q < kWidth; ++q)
      for (std::size_t i = 0; i < kSeedLanes; ++i) std::memcpy(out[q] + 8 * i, &st[i][q], 8);
    if constexpr (kWipe) wipe(st, sizeof st);  // may hold SK.seed (PRF) or secret chain values
  }

  std::uint8_t pk_seed_[n];
  std::uint8_t sk_seed_[n]{};
};

}  // namespace pqsig::slhdsa::detail
