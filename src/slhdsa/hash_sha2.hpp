// FIPS 205 §11.2: the SHA2 family's tweakable hash functions. §11.2.1 (category 1: SHA-256
// throughout) and §11.2.2 (categories 3 and 5: SHA-512 for H, T_l, H_msg, PRF_msg).
// The first block PK.seed || toByte(0, 64 − n) (SHA-512: 128 − n) is the same for every call,
// so its compressed state is computed once per operation and reused (FIPS 205 §11.2 note).
#pragma once
#include <cstdint>
#include <cstring>

#include "hash/sha2_backend.hpp"
#include "pqsig/hash.hpp"
#include "slhdsa/address.hpp"
#include "slhdsa/params.hpp"

namespace pqsig::slhdsa::detail {

namespace sha2util {
inline void store_be32(std::uint8_t* p, std::uint32_t v) noexcept {
  p[0] = std::uint8_t(v >> 24); p[1] = std::uint8_t(v >> 16); p[2] = std::uint8_t(v >> 8); p[3] = std::uint8_t(v);
}
inline void store_be64(std::uint8_t* p, std::uint64_t v) noexcept {
  store_be32(p, std::uint32_t(v >> 32));
  store_be32(p + 4, std::uint32_t(v));
}

// HMAC (FIPS 198-1) over SHA-256 / SHA-512 with a key shorter than the block; message in pieces.
inline void hmac_sha256(const std::uint8_t* key, std::size_t keylen, const std::uint8_t* prefix, std::size_t plen,
                        const Msg& m, std::uint8_t out[32]) noexcept {
  std::uint8_t k0[64] = {};
  std::memcpy(k0, key, keylen);
  std::uint8_t pad[64];
  for (int i = 0; i < 64; ++i) pad[i] = k0[i] ^ 0x36;
  hash::Sha256 in;
  in.update(pad, 64);
  in.update(prefix, plen);
  for (std::size_t i = 0; i < m.count; ++i) in.update(m.part[i]);
  std::uint8_t inner[32];
  in.final(inner);
  for (int i = 0; i < 64; ++i) pad[i] = k0[i] ^ 0x5c;
  hash::Sha256 o;
  o.update(pad, 64);
  o.update(inner, 32);
  o.final(out);
  secure_zero(k0, sizeof k0);
  secure_zero(pad, sizeof pad);
}
inline void hmac_sha512(const std::uint8_t* key, std::size_t keylen, const std::uint8_t* prefix, std::size_t plen,
                        const Msg& m, std::uint8_t out[64]) noexcept {
  std::uint8_t k0[128] = {};
  std::memcpy(k0, key, keylen);
  std::uint8_t pad[128];
  for (int i = 0; i < 128; ++i) pad[i] = k0[i] ^ 0x36;
  hash::Sha512 in;
  in.update(pad, 128);
  in.update(prefix, plen);
  for (std::size_t i = 0; i < m.count; ++i) in.update(m.part[i]);
  std::uint8_t inner[64];
  in.final(inner);
  for (int i = 0; i < 128; ++i) pad[i] = k0[i] ^ 0x5c;
  hash::Sha512 o;
  o.update(pad, 128);
  o.update(inner, 64);
  o.final(out);
  secure_zero(k0, sizeof k0);
  secure_zero(pad, sizeof pad);
}
}  // namespace sha2util

template <class P>
class Sha2Hash {
 public:
  static constexpr std::size_t n = P::n;
  static constexpr bool big = P::sha512;  // SHA-512 for H, T_l, H_msg, PRF_msg
  /// Lanes of the batched calls F_xw / PRF_xw / T_xw (4-way SHA-256 backend).
  static constexpr std::size_t kWidth = 4;

  Sha2Hash(const std::uint8_t* pk_seed, const std::uint8_t* sk_seed) noexcept
      : c256_(hash::detail::sha256_compress_fn()),
        c256x4_(hash::detail::sha256_compress_x4_fn()),
        c512x4_(hash::detail::sha512_compress_x4_fn()) {
    std::memcpy(pk_seed_, pk_seed, n);
    if (sk_seed) std::memcpy(sk_seed_, sk_seed, n);
    // State after the block PK.seed || toByte(0, 64 − n).
    hash::Sha256 s;
    std::uint8_t blk[128] = {};
    std::memcpy(blk, pk_seed, n);
    s.update(blk, 64);
    std::memcpy(st256_, s.h, sizeof st256_);
    if constexpr (big) {
      hash::Sha512 t;
      t.update(blk, 128);
      std::memcpy(st512_, t.h, sizeof st512_);
    }
  }
  ~Sha2Hash() { secure_zero(sk_seed_, sizeof sk_seed_); }
  Sha2Hash(const Sha2Hash&) = delete;
  Sha2Hash& operator=(const Sha2Hash&) = delete;

  /// F(PK.seed, ADRS, M1) = Trunc_n(SHA-256(PK.seed || toByte(0, 64 − n) || ADRS^c || M1)).
  void F(const Adrs& adrs, const std::uint8_t* in, std::uint8_t* out) const noexcept {
    sha256_one_block<n>(adrs, in, out);
  }
  /// H(PK.seed, ADRS, M2): SHA-256 (category 1) or SHA-512 (categories 3, 5), M2 of 2n bytes.
  void H(const Adrs& adrs, const std::uint8_t* in, std::uint8_t* out) const noexcept {
    if constexpr (big)
      sha512_one_block<2 * n>(adrs, in, out);
    else
      sha256_one_block<2 * n>(adrs, in, out);
  }
  /// PRF(PK.seed, SK.seed, ADRS) = Trunc_n(SHA-256(PK.seed || toByte(0, 64 − n) || ADRS^c || SK.seed)).
  void PRF(const Adrs& adrs, std::uint8_t* out) const noexcept { sha256_one_block<n>(adrs, sk_seed_, out); }
  /// T_l(PK.seed, ADRS, M_l): SHA-256 (category 1) or SHA-512 (categories 3, 5).
  void T(const Adrs& adrs, const std::uint8_t* in, std::size_t l, std::uint8_t* out) const noexcept {
    std::uint8_t ac[22];
    adrs.compress(ac);
    if constexpr (big) {
      hash::Sha512 s;
      std::memcpy(s.h, st512_, sizeof st512_);
      s.total = 128;
      s.update(ac, 22);
      s.update(in, l * n);
      std::uint8_t d[64];
      s.final(d);
      std::memcpy(out, d, n);
    } else {
      hash::Sha256 s;
      std::memcpy(s.h, st256_, sizeof st256_);
      s.total = 64;
      s.update(ac, 22);
      s.update(in, l * n);
      std::uint8_t d[32];
      s.final(d);
      std::memcpy(out, d, n);
    }
  }

  // ---- four independent calls: F and PRF as four interleaved SHA-256 compressions (SHA-NI
  // when available, else four scalar ones); T_l one after another.
  void F_xw(const Adrs* adrs, std::uint8_t* const* io) const noexcept { sha256_one_block_x4<n>(adrs, io, io); }
  void PRF_xw(const Adrs* adrs, std::uint8_t* const* out) const noexcept {
    const std::uint8_t* in[4] = {sk_seed_, sk_seed_, sk_seed_, sk_seed_};
    sha256_one_block_x4<n>(adrs, in, out);
  }
  /// T_l for four lanes: categories 3 and 5 run the four SHA-512 sponges together (the 4-way
  /// compression: AVX-512VL when the CPU has it); category 1 one after another.
  void T_xw(const Adrs* adrs, const std::uint8_t* const* in, std::size_t l, std::uint8_t* const* out) const noexcept {
    if constexpr (big) {
      if (l <= kMaxTl) return sha512_multi_block_x4<kMaxTl * n>(adrs, in, l * n, out);
    }
    for (int q = 0; q < 4; ++q) T(adrs[q], in[q], l, out[q]);
  }

  // ---- H for four lanes: the 4-way SHA-512 compression (categories 3, 5) or the 4-way SHA-256
  // one (category 1). The treehash and FORS verification batch their tree nodes through these
  // (slhdsa_impl.hpp detects them).
  /// H for four lanes (inner nodes of a signing / key generation treehash); out may alias in.
  void H_xw(const Adrs* adrs, std::uint8_t* const* in, std::uint8_t* const* out) const noexcept {
    if constexpr (big)
      sha512_multi_block_x4<2 * n>(adrs, in, 2 * n, out);  // one block
    else
      sha256_one_block_x4<2 * n>(adrs, in, out);
  }
  /// H on public values (FORS verification climbs four trees at once).
  void H_xw_public(const Adrs* adrs, const std::uint8_t* const* in, std::uint8_t* const* out) const noexcept {
    if constexpr (big)
      sha512_multi_block_x4<2 * n>(adrs, in, 2 * n, out);  // one block
    else
      sha256_one_block_x4<2 * n>(adrs, in, out);
  }
  /// F on public values, four lanes: the WOTS+ chains recomputed from a signature run four at a
  /// time (kParallelChains), and the FORS leaves of verification beside H_xw_public.
  static constexpr bool kParallelChains = true;
  void F_xw_public(const Adrs* adrs, const std::uint8_t* const* in, std::uint8_t* const* out) const noexcept {
    sha256_one_block_x4<n>(adrs, in, out);
  }

  /// PRF_msg(SK.prf, opt_rand, M) = Trunc_n(HMAC-SHA-256/512(SK.prf, opt_rand || M)).
  static void PRF_msg(const std::uint8_t* sk_prf, const std::uint8_t* opt_rand, const Msg& m,
                      std::uint8_t* out) noexcept {
    std::uint8_t d[64];
    if constexpr (big)
      sha2util::hmac_sha512(sk_prf, n, opt_rand, n, m, d);
    else
      sha2util::hmac_sha256(sk_prf, n, opt_rand, n, m, d);
    std::memcpy(out, d, n);
  }
  /// H_msg(R, PK.seed, PK.root, M) = MGF1-SHA-x(R || PK.seed || SHA-x(R || PK.seed || PK.root || M), m).
  static void H_msg(const std::uint8_t* r, const std::uint8_t* pk_seed, const std::uint8_t* pk_root, const Msg& m,
                    std::uint8_t* out) noexcept {
    constexpr std::size_t hl = big ? 64 : 32;
    std::uint8_t seed[2 * n + hl + 4];
    std::memcpy(seed, r, n);
    std::memcpy(seed + n, pk_seed, n);
    if constexpr (big) {
      hash::Sha512 s;
      s.update(r, n); s.update(pk_seed, n); s.update(pk_root, n);
      for (std::size_t i = 0; i < m.count; ++i) s.update(m.part[i]);
      s.final(seed + 2 * n);
    } else {
      hash::Sha256 s;
      s.update(r, n); s.update(pk_seed, n); s.update(pk_root, n);
      for (std::size_t i = 0; i < m.count; ++i) s.update(m.part[i]);
      s.final(seed + 2 * n);
    }
    // MGF1 (RFC 8017 B.2.1): T = Hash(seed || C) for C = 0, 1, ...
    std::size_t done = 0;
    for (std::uint32_t c = 0; done < P::m; ++c) {
      sha2util::store_be32(seed + 2 * n + hl, c);
      std::uint8_t blk[64];
      if constexpr (big) {
        hash::Sha512 s;
        s.update(seed, sizeof seed);
        s.final(blk);
      } else {
        hash::Sha256 s;
        s.update(seed, sizeof seed);
        s.final(blk);
      }
      std::size_t take = P::m - done < hl ? P::m - done : hl;
      std::memcpy(out + done, blk, take);
      done += take;
    }
  }

 private:
  // Second (and last) block ADRS^c || in || padding, from the precomputed first-block state.
  template <std::size_t InBytes>
  void sha256_one_block(const Adrs& adrs, const std::uint8_t* in, std::uint8_t* out) const noexcept {
    static_assert(22 + InBytes + 9 <= 64);
    alignas(16) std::uint8_t blk[64];
    adrs.compress(blk);
    std::memcpy(blk + 22, in, InBytes);
    blk[22 + InBytes] = 0x80;
    std::memset(blk + 23 + InBytes, 0, 64 - 8 - (23 + InBytes));
    sha2util::store_be64(blk + 56, std::uint64_t(64 + 22 + InBytes) * 8);
    std::uint32_t s[8];
    std::memcpy(s, st256_, sizeof s);
    c256_(s, blk, 1);
    for (std::size_t i = 0; i < n / 4; ++i) sha2util::store_be32(out + 4 * i, s[i]);
    wipe(blk, sizeof blk);  // may hold SK.seed (PRF) or a secret chain value
    wipe(s, sizeof s);      // PRF output = a WOTS+ / FORS secret
  }
  // The blocks after the precomputed first one, for four lanes: ADRS^c ‖ in[q] (bytes) ‖ 0x80 ‖
  // zeros ‖ the bit length of the whole message (FIPS 180-4 §5.1.1 / §5.1.2: 8 / 16 length bytes
  // for B = 64 / 128, the upper 8 zero here), lane q at blk + q·stride. Returns the block count.
  template <std::size_t B, class In>
  static std::size_t pad_tail_x4(const Adrs* adrs, const In* in, std::size_t bytes, std::uint8_t* blk,
                                 std::size_t stride) noexcept {
    const std::size_t nblocks = (22 + bytes + 1 + B / 8 + B - 1) / B;
    for (int q = 0; q < 4; ++q) {
      std::uint8_t* b = blk + q * stride;
      adrs[q].compress(b);
      std::memcpy(b + 22, in[q], bytes);
      b[22 + bytes] = 0x80;
      std::memset(b + 23 + bytes, 0, nblocks * B - 8 - (23 + bytes));
      sha2util::store_be64(b + nblocks * B - 8, std::uint64_t(B + 22 + bytes) * 8);
    }
    return nblocks;
  }
  template <std::size_t InBytes, class In>
  void sha256_one_block_x4(const Adrs* adrs, const In* in, std::uint8_t* const* out) const noexcept {
    static_assert(22 + InBytes + 9 <= 64);
    alignas(16) std::uint8_t blk[4][64];
    pad_tail_x4<64>(adrs, in, InBytes, blk[0], 64);
    std::uint32_t s[4][8];
    for (int q = 0; q < 4; ++q) std::memcpy(s[q], st256_, sizeof s[q]);
    std::uint32_t* const hs[4] = {s[0], s[1], s[2], s[3]};
    const std::uint8_t* const bs[4] = {blk[0], blk[1], blk[2], blk[3]};
    c256x4_(hs, bs);
    for (int q = 0; q < 4; ++q)
      for (std::size_t i = 0; i < n / 4; ++i) sha2util::store_be32(out[q] + 4 * i, s[q][i]);
    wipe(blk, sizeof blk);  // SK.seed (PRF) or secret chain values
    wipe(s, sizeof s);
  }
  template <std::size_t InBytes>
  void sha512_one_block(const Adrs& adrs, const std::uint8_t* in, std::uint8_t* out) const noexcept {
    static_assert(22 + InBytes + 17 <= 128);
    alignas(16) std::uint8_t blk[128];
    adrs.compress(blk);
    std::memcpy(blk + 22, in, InBytes);
    blk[22 + InBytes] = 0x80;
    std::memset(blk + 23 + InBytes, 0, 128 - 8 - (23 + InBytes));
    sha2util::store_be64(blk + 120, std::uint64_t(128 + 22 + InBytes) * 8);
    std::uint64_t s[8];
    std::memcpy(s, st512_, sizeof s);
    hash::sha512_compress(s, blk, 1);
    for (std::size_t i = 0; i < n / 8; ++i) sha2util::store_be64(out + 8 * i, s[i]);
    wipe(blk, sizeof blk);
    wipe(s, sizeof s);
  }

  // SHA-512 of the precomputed first block followed by ADRS^c ‖ in[q] (bytes ≤ MaxBytes) for
  // four lanes: the tail blocks built per lane, then one 4-way compression over all of them.
  static constexpr std::size_t kMaxTl = P::len > P::k ? P::len : P::k;  // T_l's l: len (WOTS+) or k (FORS)
  template <std::size_t MaxBytes>
  void sha512_multi_block_x4(const Adrs* adrs, const std::uint8_t* const* in, std::size_t bytes,
                             std::uint8_t* const* out) const noexcept {
    constexpr std::size_t kMaxBlocks = (22 + MaxBytes + 17 + 127) / 128;
    alignas(32) std::uint8_t blk[4][kMaxBlocks * 128];
    const std::size_t nblocks = pad_tail_x4<128>(adrs, in, bytes, blk[0], kMaxBlocks * 128);
    std::uint64_t s[4][8];
    for (int q = 0; q < 4; ++q) std::memcpy(s[q], st512_, sizeof s[q]);
    std::uint64_t* const hs[4] = {s[0], s[1], s[2], s[3]};
    const std::uint8_t* const bs[4] = {blk[0], blk[1], blk[2], blk[3]};
    c512x4_(hs, bs, nblocks);
    for (int q = 0; q < 4; ++q)
      for (std::size_t i = 0; i < n / 8; ++i) sha2util::store_be64(out[q] + 8 * i, s[q][i]);
    for (int q = 0; q < 4; ++q) wipe(blk[q], nblocks * 128);  // the blocks used
    wipe(s, sizeof s);
  }

  hash::detail::Sha256CompressFn c256_;
  hash::detail::Sha256CompressX4Fn c256x4_;
  hash::detail::Sha512CompressX4Fn c512x4_;
  std::uint32_t st256_[8];
  std::uint64_t st512_[8]{};
  std::uint8_t pk_seed_[n];
  std::uint8_t sk_seed_[n]{};
};

}  // namespace pqsig::slhdsa::detail
