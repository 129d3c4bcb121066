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
  /// F_x4 costs about one F here (4-way Keccak), so verification batches independent WOTS+ chains.
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

  // ---- four independent calls at once (4-way Keccak: AVX2 when available, else four scalar
  // permutations). Lane q uses adrs[q]; all lanes have the same input length.
  void F_x4(const Adrs* adrs, std::uint8_t* const* io) const noexcept { one_block_x4<n>(adrs, io, io); }
  /// F_x4 on public values (chains recomputed from a signature): the state is not wiped.
  void F_x4_public(const Adrs* adrs, std::uint8_t* const* io) const noexcept { one_block_x4<n, std::uint8_t*, false>(adrs, io, io); }
  void PRF_x4(const Adrs* adrs, std::uint8_t* const* out) const noexcept {
    const std::uint8_t* in[4] = {sk_seed_, sk_seed_, sk_seed_, sk_seed_};
    one_block_x4<n>(adrs, in, out);
  }
  /// T_l for four lanes; l ≤ max_l (the WOTS+ len or FORS k).
  void T_x4(const Adrs* adrs, const std::uint8_t* const* in, std::size_t l, std::uint8_t* const* out) const noexcept {
    constexpr std::size_t max_l = P::len > P::k ? P::len : P::k;
    std::uint8_t buf[4][n + 32 + max_l * n];
    const std::uint8_t* lanes[4];
    for (int q = 0; q < 4; ++q) {
      std::memcpy(buf[q], pk_seed_, n);
      std::memcpy(buf[q] + n, adrs[q].b, 32);
      std::memcpy(buf[q] + n + 32, in[q], l * n);
      lanes[q] = buf[q];
    }
    hash::Shake256x4 s;
    s.absorb_once(lanes, n + 32 + l * n);
    std::uint8_t blk[4][hash::kShake256Rate];
    std::uint8_t* outs[4] = {blk[0], blk[1], blk[2], blk[3]};
    s.squeeze_blocks(outs, 1);
    for (int q = 0; q < 4; ++q) std::memcpy(out[q], blk[q], n);
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

  // Four lanes at once: the padded states are written directly in the interleaved layout of the
  // 4-way Keccak backend (lane i of state q at st[i][q]; n, 32 and the input are whole lanes).
  template <std::size_t InBytes, class In, bool kWipe = true>
  void one_block_x4(const Adrs* adrs, const In* in, std::uint8_t* const* out) const noexcept {
    static_assert(n + 32 + InBytes < hash::kShake256Rate);
    static_assert(n % 8 == 0 && InBytes % 8 == 0);
    constexpr std::size_t kSeedLanes = n / 8, kInLane = kSeedLanes + 4, kPadLane = kInLane + InBytes / 8;
    alignas(32) std::uint64_t st[25][4];
    std::memset(st, 0, sizeof st);
    for (int q = 0; q < 4; ++q) {
      for (std::size_t i = 0; i < kSeedLanes; ++i) std::memcpy(&st[i][q], pk_seed_ + 8 * i, 8);
      for (std::size_t i = 0; i < 4; ++i) std::memcpy(&st[kSeedLanes + i][q], adrs[q].b + 8 * i, 8);
      const std::uint8_t* src = in[q];
      for (std::size_t i = 0; i < InBytes / 8; ++i) std::memcpy(&st[kInLane + i][q], src + 8 * i, 8);
      st[kPadLane][q] = 0x1F;                                     // SHAKE suffix + first pad bit
      st[hash::kShake256Rate / 8 - 1][q] ^= std::uint64_t{0x80} << 56;  // last pad bit (byte 135)
    }
    hash::detail::keccak_x4_backend().permute(st);
    for (int q = 0; q < 4; ++q)
      for (std::size_t i = 0; i < kSeedLanes; ++i) std::memcpy(out[q] + 8 * i, &st[i][q], 8);
    if constexpr (kWipe) wipe(st, sizeof st);  // may hold SK.seed (PRF) or secret chain values
  }

  std::uint8_t pk_seed_[n];
  std::uint8_t sk_seed_[n]{};
};

}  // namespace pqsig::slhdsa::detail
