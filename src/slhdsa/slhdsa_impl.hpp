// SLH-DSA (FIPS 205): the one implementation of WOTS+, XMSS, the hypertree, FORS and the
// internal key generation / signing / verification, templated over a parameter set P
// (params.hpp) and its tweakable-hash family Hs (hash_shake.hpp §11.1, hash_sha2.hpp §11.2).
//
// Signing builds each Merkle tree once with a stack-based treehash that captures the
// authentication path, the root and (for the signed WOTS+ leaf) the chain values on the way;
// this yields exactly the bytes of FIPS 205 Algorithms 10, 12 and 16 while computing every
// node once. All hashing goes through Hs::F/H/PRF/T with an explicit ADRS, so a multi-way
// (4x Keccak / SHA-NI) leaf backend can later batch independent leaves or chains here.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>

#include "common/ct.hpp"
#include "slhdsa/address.hpp"
#include "slhdsa/params.hpp"

namespace pqsig::slhdsa::detail {

template <class P, class Hs>
struct Slh {
  using u8 = std::uint8_t;
  static constexpr std::size_t n = P::n, hp = P::hp, d = P::d, a = P::a, k = P::k;
  static constexpr std::size_t w = P::w, lg_w = P::lg_w, len = P::len, len1 = P::len1, len2 = P::len2;
  static constexpr std::size_t max_height = hp > a ? hp : a;
  /// Lanes of Hs's batched calls (F_xw, PRF_xw, T_xw): 8 for SHAKE (8-way Keccak), 4 for SHA2.
  static constexpr std::size_t W = Hs::kWidth;
  static_assert(W >= 2 && (W & (W - 1)) == 0 && (std::size_t{1} << hp) >= W && (std::size_t{1} << a) >= W,
                "leaves are produced W at a time");

  // FIPS 205, Algorithm 4: base_2^b(X, b, out_len).
  static void base_2b(const u8* x, unsigned b, std::size_t out_len, std::uint32_t* out) noexcept {
    std::size_t in = 0;
    unsigned bits = 0;
    std::uint64_t total = 0;
    for (std::size_t o = 0; o < out_len; ++o) {
      while (bits < b) {
        total = (total << 8) | x[in++];
        bits += 8;
      }
      bits -= b;
      out[o] = std::uint32_t((total >> bits) & ((std::uint64_t{1} << b) - 1));
      total &= (std::uint64_t{1} << bits) - 1;
    }
  }

  // FIPS 205, Algorithm 7 lines 1–9 (= Algorithm 8 lines 1–9): base-w digits of M and its checksum.
  static void wots_digits(const u8* m, std::uint32_t msg[len]) noexcept {
    base_2b(m, lg_w, len1, msg);
    std::uint32_t csum = 0;
    for (std::size_t i = 0; i < len1; ++i) csum += std::uint32_t(w - 1) - msg[i];
    csum <<= (8 - ((len2 * lg_w) % 8)) % 8;
    constexpr std::size_t cbytes = (len2 * lg_w + 7) / 8;
    u8 cb[cbytes];
    for (std::size_t i = 0; i < cbytes; ++i) cb[i] = u8(csum >> (8 * (cbytes - 1 - i)));  // toByte (Algorithm 3)
    base_2b(cb, lg_w, len2, msg + len1);
  }

  // FIPS 205, Algorithm 5: chain(X, i, s, PK.seed, ADRS), in place on x.
  static void chain(const Hs& hs, u8* x, std::uint32_t i, std::uint32_t s, Adrs& adrs) noexcept {
    for (std::uint32_t j = i; j < i + s; ++j) {
      adrs.setHashAddress(j);
      hs.F(adrs, x, x);
    }
  }

  // FIPS 205, Algorithm 6: wots_pkGen(SK.seed, PK.seed, ADRS), for the W consecutive key
  // pairs kp0..kp0+W−1 of one XMSS tree at once (their chains run in lock-step through Hs::*_xw).
  // When signed_lane >= 0 this is also Algorithm 7 (wots_sign) for key pair kp0 + signed_lane:
  // sig[i] = chain(sk_i, 0, digits[i]) is captured on the way up.
  static void wots_pkGen(const Hs& hs, const Adrs& adrs, std::uint32_t kp0, u8* pkw, const std::uint32_t* digits,
                         int signed_lane, u8* sig) noexcept {
    Adrs ch[W], sk_adrs[W];
    for (std::uint32_t q = 0; q < W; ++q) {
      ch[q] = adrs;
      ch[q].setKeyPairAddress(kp0 + q);
      sk_adrs[q] = ch[q];
      sk_adrs[q].setTypeAndClear(WOTS_PRF);
      sk_adrs[q].setKeyPairAddress(kp0 + q);
    }
    u8 tmp[W][len * n];
    for (std::uint32_t i = 0; i < len; ++i) {
      u8* x[W];
      for (std::size_t q = 0; q < W; ++q) x[q] = tmp[q] + i * n;
      for (std::size_t q = 0; q < W; ++q) {
        sk_adrs[q].setChainAddress(i);
        ch[q].setChainAddress(i);
      }
      hs.PRF_xw(sk_adrs, x);  // sk_i
      // chain(sk_i, 0, w − 1) (Algorithm 5), all W lanes together.
      for (std::uint32_t j = 0; j < w - 1; ++j) {
        if (signed_lane >= 0 && digits[i] == j) std::memcpy(sig + i * n, x[signed_lane], n);
        for (std::size_t q = 0; q < W; ++q) ch[q].setHashAddress(j);
        hs.F_xw(ch, x);
      }
      if (signed_lane >= 0 && digits[i] == w - 1) std::memcpy(sig + i * n, x[signed_lane], n);
    }
    Adrs pk_adrs[W];
    for (std::uint32_t q = 0; q < W; ++q) {
      pk_adrs[q] = ch[q];
      pk_adrs[q].setTypeAndClear(WOTS_PK);
      pk_adrs[q].setKeyPairAddress(kp0 + q);
    }
    const u8* in[W];
    u8* out[W];
    for (std::size_t q = 0; q < W; ++q) {
      in[q] = tmp[q];
      out[q] = pkw + q * n;
    }
    hs.T_xw(pk_adrs, in, len, out);
  }

  // FIPS 205, Algorithm 5 for all len chains of one WOTS+ signature, W chains at a time
  // (public data: the chains start from signature values; used by verification and by ht_sign's
  // xmss_pkFromSig on the signature just produced). Each of the W lanes runs one chain and takes the next
  // unfinished chain when its own ends, so the F_xw calls number about ⌈Σ steps / W⌉; an idle
  // lane hashes a scratch value that is discarded.
  static void chains_xw(const Hs& hs, u8* tmp, const std::uint32_t* msg, const Adrs& adrs) noexcept {
    std::uint32_t next = 0;
    int chain_of[W];
    std::uint32_t j[W], end[W];
    Adrs a4[W];
    u8 scratch[W][n] = {};
    auto take = [&](std::size_t q) {
      while (next < len && msg[next] == w - 1) ++next;  // chains with no step left
      if (next == len) {
        chain_of[q] = -1;
        return;
      }
      chain_of[q] = static_cast<int>(next);
      j[q] = msg[next];
      end[q] = std::uint32_t(w - 1);
      a4[q] = adrs;
      a4[q].setChainAddress(next);
      ++next;
    };
    for (std::size_t q = 0; q < W; ++q) take(q);
    for (;;) {
      u8* io[W];
      bool any = false;
      for (std::size_t q = 0; q < W; ++q) {
        if (chain_of[q] < 0) {
          io[q] = scratch[q];
          a4[q] = adrs;
          continue;
        }
        any = true;
        a4[q].setHashAddress(j[q]);
        io[q] = tmp + static_cast<std::size_t>(chain_of[q]) * n;
      }
      if (!any) break;
      hs.F_xw_public(a4, io, io);  // chain values recomputed from a signature are public
      for (std::size_t q = 0; q < W; ++q)
        if (chain_of[q] >= 0 && ++j[q] == end[q]) take(q);
    }
  }

  // FIPS 205, Algorithm 8: wots_pkFromSig(sig, M, PK.seed, ADRS).
  static void wots_pkFromSig(const Hs& hs, const u8* sig, const u8* m, Adrs& adrs, u8* pk) noexcept {
    std::uint32_t msg[len];
    wots_digits(m, msg);
    u8 tmp[len * n];
    if constexpr (requires { Hs::kParallelChains; }) {
      std::memcpy(tmp, sig, len * n);
      chains_xw(hs, tmp, msg, adrs);
    } else {
      for (std::uint32_t i = 0; i < len; ++i) {
        adrs.setChainAddress(i);
        std::memcpy(tmp + i * n, sig + i * n, n);
        chain(hs, tmp + i * n, msg[i], std::uint32_t(w - 1) - msg[i], adrs);
      }
    }
    Adrs pk_adrs = adrs;
    pk_adrs.setTypeAndClear(WOTS_PK);
    pk_adrs.setKeyPairAddress(adrs.getKeyPairAddress());
    hs.T(pk_adrs, tmp, len, pk);
  }

  // The stack step of treehash (FIPS 205, Algorithms 9 and 15, computed bottom-up): push `node`
  // (height ht, index idx at that height) and, while the two top entries have equal heights, replace
  // them by their parent H(PK.seed, ADRS(height, (offset >> height) + index), left || right), copying
  // each new node on target's authentication path into auth (auth[h] = node (h, (target >> h) ^ 1)).
  [[gnu::always_inline]] static inline void treehash_push(const Hs& hs, unsigned z, std::uint32_t offset,
                                                          std::uint32_t target, Adrs& node_adrs, const u8* node,
                                                          unsigned ht, std::uint32_t idx, u8* stack,
                                                          unsigned* heights, std::size_t& sp, u8* auth) noexcept {
    std::memcpy(stack + sp * n, node, n);
    heights[sp] = ht;
    ++sp;
    while (sp >= 2 && heights[sp - 1] == heights[sp - 2]) {
      ht = heights[sp - 1] + 1;
      idx >>= 1;
      node_adrs.setTreeHeight(ht);
      node_adrs.setTreeIndex((offset >> ht) + idx);
      hs.H(node_adrs, stack + (sp - 2) * n, stack + (sp - 2) * n);
      heights[sp - 2] = ht;
      --sp;
      if (auth && ht < z && (idx ^ 1u) == (target >> ht)) std::memcpy(auth + ht * n, stack + (sp - 1) * n, n);
    }
  }

  // The tree computation of FIPS 205 Algorithms 9 (xmss_node) and 15 (fors_node), done once per
  // tree with a stack: the root of the height-z tree whose leaves j..j+3 are leaf4(j, out[4n]),
  // and, if auth is given, the authentication path of leaf `target` (auth[h] = node (h, (target >> h) ^ 1)).
  // Inner node (height h, index i) is H(PK.seed, ADRS(height h, index (offset >> h) + i), left || right).
  template <class Leaf4Fn>
  static void treehash(const Hs& hs, unsigned z, std::uint32_t offset, std::uint32_t target, Adrs& node_adrs,
                       Leaf4Fn&& leaf4, u8* auth, u8* root) noexcept {
    if constexpr (requires(const Hs& h, const Adrs* ad, u8* const* io) { h.H_xw(ad, io, io); }) {
      treehash_chunked(hs, z, offset, target, node_adrs, leaf4, auth, root);
      return;
    }
    u8 stack[(max_height + 1) * n];
    unsigned heights[max_height + 1];
    u8 leaves[W * n];
    std::size_t sp = 0;
    for (std::uint32_t i0 = 0; i0 < (std::uint32_t{1} << z); i0 += W) {
      leaf4(i0, leaves);
      for (std::uint32_t q = 0; q < W; ++q) {
        const std::uint32_t i = i0 + q;
        if (auth && (i ^ 1u) == target) std::memcpy(auth, leaves + q * n, n);
        treehash_push(hs, z, offset, target, node_adrs, leaves + q * n, 0, i, stack, heights, sp, auth);
      }
    }
    std::memcpy(root, stack, n);
  }

  // treehash for a family with a batched H (H_xw): the leaves come in chunks of up to 8·W (a
  // whole subtree of height cz); each chunk is reduced level by level with the W-lane H (a level
  // with fewer than W/2 nodes uses the single H), and its root enters the stack at height cz.
  // Same nodes, addresses and authentication path as the one-leaf-at-a-time form above.
  template <class LeafFn>
  static void treehash_chunked(const Hs& hs, unsigned z, std::uint32_t offset, std::uint32_t target,
                               Adrs& node_adrs, LeafFn&& leafw, u8* auth, u8* root) noexcept {
    constexpr unsigned kMaxChunkLog = std::countr_zero(W) + 3;
    const unsigned cz = z < kMaxChunkLog ? z : kMaxChunkLog;
    const std::uint32_t chunk = std::uint32_t{1} << cz;
    u8 nodes[(std::size_t{1} << kMaxChunkLog) * n];
    u8 stack[(max_height + 1) * n];
    unsigned heights[max_height + 1];
    std::size_t sp = 0;
    Adrs aw[W];
    u8 scratch[W][2 * n] = {};  // idle lanes hash zeros
    for (std::uint32_t c0 = 0; c0 < (std::uint32_t{1} << z); c0 += chunk) {
      for (std::uint32_t i0 = 0; i0 < chunk; i0 += W) leafw(c0 + i0, nodes + i0 * n);
      if (auth && (target ^ 1u) >= c0 && (target ^ 1u) < c0 + chunk)  // target is public (in the signature)
        std::memcpy(auth, nodes + ((target ^ 1u) - c0) * n, n);
      std::uint32_t cnt = chunk;
      for (unsigned h = 1; h <= cz; ++h) {
        cnt >>= 1;
        const std::uint32_t base = c0 >> h;  // index of the chunk's first node at height h
        for (std::uint32_t j0 = 0; j0 < cnt; j0 += W) {
          const std::uint32_t lanes = cnt - j0 < W ? cnt - j0 : std::uint32_t(W);
          if (lanes >= W / 2) {
            // Node j from children 2j, 2j+1, written over node j: one H_xw reads every input
            // before it writes an output, and later batches read only positions ≥ 2(j0 + W).
            u8* io[W];
            for (std::uint32_t q = 0; q < W; ++q) {
              aw[q] = node_adrs;
              aw[q].setTreeHeight(h);
              if (q < lanes) {
                aw[q].setTreeIndex((offset >> h) + base + j0 + q);
                io[q] = nodes + 2 * (j0 + q) * n;
              } else {
                io[q] = scratch[q];  // idle lane: result discarded
              }
            }
            u8* out[W];
            for (std::uint32_t q = 0; q < W; ++q) out[q] = q < lanes ? nodes + (j0 + q) * n : scratch[q];
            hs.H_xw(aw, io, out);
          } else {
            for (std::uint32_t q = 0; q < lanes; ++q) {
              node_adrs.setTreeHeight(h);
              node_adrs.setTreeIndex((offset >> h) + base + j0 + q);
              hs.H(node_adrs, nodes + 2 * (j0 + q) * n, nodes + (j0 + q) * n);
            }
          }
        }
        if (auth && h < z) {
          const std::uint32_t sib = (target >> h) ^ 1u;
          if (sib >= base && sib < base + cnt) std::memcpy(auth + h * n, nodes + (sib - base) * n, n);
        }
      }
      // The chunk root at height cz, index c0 >> cz, joins the stack (the form above, from height cz).
      treehash_push(hs, z, offset, target, node_adrs, nodes, cz, c0 >> cz, stack, heights, sp, auth);
    }
    std::memcpy(root, stack, n);
  }

  // Algorithm 11 lines 5–15 / Algorithm 17 lines 6–18: climb from a leaf to the root along an
  // authentication path. `idx` is the leaf's index in the ADRS tree-index space.
  static void compute_root(const Hs& hs, u8* node, std::uint32_t idx, const u8* auth, std::size_t height,
                           Adrs& adrs) noexcept {
    u8 buf[2 * n];
    for (std::size_t j = 0; j < height; ++j) {
      adrs.setTreeHeight(std::uint32_t(j + 1));
      if ((idx & 1) == 0) {
        std::memcpy(buf, node, n);
        std::memcpy(buf + n, auth + j * n, n);
      } else {
        std::memcpy(buf, auth + j * n, n);
        std::memcpy(buf + n, node, n);
      }
      idx >>= 1;
      adrs.setTreeIndex(idx);
      hs.H(adrs, buf, node);
    }
  }

  // FIPS 205, Algorithm 10: xmss_sign(M, SK.seed, idx, PK.seed, ADRS) → SIG_XMSS = sig || AUTH.
  // Also returns the tree root (= xmss_pkFromSig(idx, SIG_XMSS, M, ...), which ht_sign needs).
  // With m == nullptr it only computes the root (FIPS 205, Algorithm 9: xmss_node(SK.seed, 0, h', ...)).
  static void xmss_sign(const Hs& hs, const u8* m, std::uint32_t idx, const Adrs& adrs, u8* sig_xmss,
                        u8* root) noexcept {
    std::uint32_t digits[len] = {};
    if (m) wots_digits(m, digits);
    // M is PK_FORS or a subtree root: every verifier recomputes it from the signature (public).
    CT_DECLASSIFY(digits, sizeof digits);
    Adrs leaf_adrs = adrs;
    leaf_adrs.setTypeAndClear(WOTS_HASH);
    Adrs node_adrs = adrs;
    node_adrs.setTypeAndClear(TREE);
    auto leaf4 = [&](std::uint32_t i0, u8* out) {
      // idx is public (it is part of the signature)
      const int signed_lane = (m && idx >= i0 && idx < i0 + W) ? int(idx - i0) : -1;
      wots_pkGen(hs, leaf_adrs, i0, out, digits, signed_lane, sig_xmss);
    };
    treehash(hs, unsigned(hp), 0, m ? idx : ~std::uint32_t{0}, node_adrs, leaf4, m ? sig_xmss + len * n : nullptr,
             root);
  }

  // FIPS 205, Algorithm 11: xmss_pkFromSig(idx, SIG_XMSS, M, PK.seed, ADRS).
  static void xmss_pkFromSig(const Hs& hs, std::uint32_t idx, const u8* sig_xmss, const u8* m, const Adrs& adrs_in,
                             u8* root) noexcept {
    Adrs adrs = adrs_in;
    adrs.setTypeAndClear(WOTS_HASH);
    adrs.setKeyPairAddress(idx);
    u8 node[n];
    wots_pkFromSig(hs, sig_xmss, m, adrs, node);
    adrs.setTypeAndClear(TREE);
    adrs.setTreeIndex(idx);
    compute_root(hs, node, idx, sig_xmss + len * n, hp, adrs);
    std::memcpy(root, node, n);
  }

  // FIPS 205, Algorithm 12: ht_sign(M, SK.seed, PK.seed, idx_tree, idx_leaf).
  static void ht_sign(const Hs& hs, const u8* m, std::uint64_t idx_tree, std::uint32_t idx_leaf, u8* sig_ht) noexcept {
    Adrs adrs;
    adrs.setTreeAddress(idx_tree);
    u8 root[n], next[n];
    xmss_sign(hs, m, idx_leaf, adrs, sig_ht, root);
    for (std::uint32_t j = 1; j < d; ++j) {
      idx_leaf = std::uint32_t(idx_tree & ((std::uint64_t{1} << hp) - 1));
      idx_tree >>= hp;
      adrs.setLayerAddress(j);
      adrs.setTreeAddress(idx_tree);
      xmss_sign(hs, root, idx_leaf, adrs, sig_ht + j * P::xmss_sig_bytes, next);
      std::memcpy(root, next, n);
    }
  }

  // FIPS 205, Algorithm 13: ht_verify(M, SIG_HT, PK.seed, idx_tree, idx_leaf, PK.root).
  static bool ht_verify(const Hs& hs, const u8* m, const u8* sig_ht, std::uint64_t idx_tree, std::uint32_t idx_leaf,
                        const u8* pk_root) noexcept {
    Adrs adrs;
    adrs.setTreeAddress(idx_tree);
    u8 node[n], next[n];
    xmss_pkFromSig(hs, idx_leaf, sig_ht, m, adrs, node);
    for (std::uint32_t j = 1; j < d; ++j) {
      idx_leaf = std::uint32_t(idx_tree & ((std::uint64_t{1} << hp) - 1));
      idx_tree >>= hp;
      adrs.setLayerAddress(j);
      adrs.setTreeAddress(idx_tree);
      xmss_pkFromSig(hs, idx_leaf, sig_ht + j * P::xmss_sig_bytes, node, adrs, next);
      std::memcpy(node, next, n);
    }
    return std::memcmp(node, pk_root, n) == 0;  // public values
  }

  // FIPS 205, Algorithm 14: fors_skGen(SK.seed, PK.seed, ADRS, idx).
  static void fors_skGen(const Hs& hs, const Adrs& adrs, std::uint32_t idx, u8* out) noexcept {
    Adrs sk_adrs = adrs;
    sk_adrs.setTypeAndClear(FORS_PRF);
    sk_adrs.setKeyPairAddress(adrs.getKeyPairAddress());
    sk_adrs.setTreeIndex(idx);
    hs.PRF(sk_adrs, out);
  }

  // FIPS 205, Algorithm 16: fors_sign(md, SK.seed, PK.seed, ADRS) with Algorithm 15 (fors_node) as
  // a treehash per tree. Also returns PK_FORS (= fors_pkFromSig of the result, Algorithm 17).
  static void fors_sign(const Hs& hs, const u8* md, const Adrs& adrs, u8* sig_fors, u8* pk_fors) noexcept {
    std::uint32_t indices[k];
    base_2b(md, unsigned(a), k, indices);
    u8 roots[k * n];
    Adrs node_adrs = adrs;
    for (std::uint32_t i = 0; i < k; ++i) {
      const std::uint32_t offset = i << a;
      u8* s = sig_fors + i * (1 + a) * n;
      fors_skGen(hs, adrs, offset + indices[i], s);
      // Leaves j..j+W−1: F(PK.seed, ADRS(height 0, index), fors_skGen(index)) (Algorithm 15 lines 1–5).
      auto leaf4 = [&](std::uint32_t j, u8* out) {
        Adrs sk_adrs[W], leaf_adrs[W];
        u8* o[W];
        for (std::uint32_t q = 0; q < W; ++q) {
          sk_adrs[q] = adrs;
          sk_adrs[q].setTypeAndClear(FORS_PRF);
          sk_adrs[q].setKeyPairAddress(adrs.getKeyPairAddress());
          sk_adrs[q].setTreeIndex(offset + j + q);
          leaf_adrs[q] = adrs;
          leaf_adrs[q].setTreeHeight(0);
          leaf_adrs[q].setTreeIndex(offset + j + q);
          o[q] = out + q * n;
        }
        hs.PRF_xw(sk_adrs, o);
        hs.F_xw(leaf_adrs, o);
      };
      treehash(hs, unsigned(a), offset, indices[i], node_adrs, leaf4, s + n, roots + i * n);
    }
    Adrs pk_adrs = adrs;
    pk_adrs.setTypeAndClear(FORS_ROOTS);
    pk_adrs.setKeyPairAddress(adrs.getKeyPairAddress());
    hs.T(pk_adrs, roots, k, pk_fors);
  }

  // FIPS 205, Algorithm 17: fors_pkFromSig(SIG_FORS, md, PK.seed, ADRS).
  static void fors_pkFromSig(const Hs& hs, const u8* sig_fors, const u8* md, const Adrs& adrs_in,
                             u8* pk_fors) noexcept {
    std::uint32_t indices[k];
    base_2b(md, unsigned(a), k, indices);
    u8 roots[k * n];
    Adrs adrs = adrs_in;
    std::uint32_t i = 0;
    if constexpr (requires(const Hs& h, const Adrs* ad, const u8* const* in, u8* const* out) {
                    h.H_xw_public(ad, in, out);
                  }) {
      // W trees at a time: their leaves with one F_xw, then each height with one H_xw (all public).
      for (; i + W <= k; i += W) {
        Adrs aw[W];
        const u8* in[W];
        u8* out[W];
        u8 buf[W][2 * n];
        std::uint32_t idx[W];
        for (std::size_t q = 0; q < W; ++q) {
          const u8* s = sig_fors + (i + q) * (1 + a) * n;
          idx[q] = ((i + std::uint32_t(q)) << a) + indices[i + q];
          aw[q] = adrs;
          aw[q].setTreeHeight(0);
          aw[q].setTreeIndex(idx[q]);
          in[q] = s;
          out[q] = roots + (i + q) * n;
        }
        hs.F_xw_public(aw, in, out);
        for (std::size_t j = 0; j < a; ++j) {
          for (std::size_t q = 0; q < W; ++q) {
            const u8* auth = sig_fors + (i + q) * (1 + a) * n + n + j * n;
            const bool right = (idx[q] & 1) != 0;  // public (from the message digest)
            std::memcpy(buf[q] + (right ? n : 0), out[q], n);
            std::memcpy(buf[q] + (right ? 0 : n), auth, n);
            idx[q] >>= 1;
            aw[q].setTreeHeight(std::uint32_t(j + 1));
            aw[q].setTreeIndex(idx[q]);
            in[q] = buf[q];
          }
          hs.H_xw_public(aw, in, out);
        }
      }
    }
    for (; i < k; ++i) {
      const u8* s = sig_fors + i * (1 + a) * n;
      const std::uint32_t idx = (i << a) + indices[i];
      adrs.setTreeHeight(0);
      adrs.setTreeIndex(idx);
      u8* node = roots + i * n;
      hs.F(adrs, s, node);
      compute_root(hs, node, idx, s + n, a, adrs);
    }
    Adrs pk_adrs = adrs;
    pk_adrs.setTypeAndClear(FORS_ROOTS);
    pk_adrs.setKeyPairAddress(adrs.getKeyPairAddress());
    hs.T(pk_adrs, roots, k, pk_fors);
  }

  // FIPS 205, Algorithm 19 lines 6–12: split the digest into md, idx_tree, idx_leaf.
  static void split_digest(const u8* digest, std::uint64_t& idx_tree, std::uint32_t& idx_leaf) noexcept {
    std::uint64_t t = 0;
    for (std::size_t i = 0; i < P::tree_bytes; ++i) t = (t << 8) | digest[P::md_bytes + i];  // toInt (Algorithm 2)
    if constexpr (P::tree_bits < 64) t &= (std::uint64_t{1} << P::tree_bits) - 1;
    std::uint32_t l = 0;
    for (std::size_t i = 0; i < P::leaf_bytes; ++i) l = (l << 8) | digest[P::md_bytes + P::tree_bytes + i];
    l &= (std::uint32_t{1} << hp) - 1;
    idx_tree = t;
    idx_leaf = l;
  }

  // FIPS 205, Algorithm 18: slh_keygen_internal(SK.seed, SK.prf, PK.seed).
  static void keygen_internal(const u8* sk_seed, const u8* sk_prf, const u8* pk_seed, u8* sk, u8* pk) noexcept {
    Hs hs(pk_seed, sk_seed);
    Adrs adrs;
    adrs.setLayerAddress(std::uint32_t(d - 1));
    u8 root[n];
    xmss_sign(hs, nullptr, 0, adrs, nullptr, root);  // PK.root = xmss_node(SK.seed, 0, h', PK.seed, ADRS)
    std::memmove(sk, sk_seed, n);
    std::memmove(sk + n, sk_prf, n);
    std::memmove(sk + 2 * n, pk_seed, n);
    std::memcpy(sk + 3 * n, root, n);
    std::memcpy(pk, pk_seed, n);
    std::memcpy(pk + n, root, n);
  }

  // FIPS 205, Algorithms 19 and 20 (their common steps): digest ← H_msg(R, PK.seed, PK.root, M), split
  // into md, idx_tree and idx_leaf, and the ADRS of the FORS tree that signs md.
  struct MsgDigest {
    u8 digest[P::m];
    std::uint64_t idx_tree;
    std::uint32_t idx_leaf;
    Adrs adrs;
  };
  static void message_digest(const u8* r, const u8* pk_seed, const u8* pk_root, const Msg& m, MsgDigest& out) noexcept {
    Hs::H_msg(r, pk_seed, pk_root, m, out.digest);
    split_digest(out.digest, out.idx_tree, out.idx_leaf);
    out.adrs.setTreeAddress(out.idx_tree);
    out.adrs.setTypeAndClear(FORS_TREE);
    out.adrs.setKeyPairAddress(out.idx_leaf);
  }

  // FIPS 205, Algorithm 19: slh_sign_internal(M, SK, addrnd).
  static void sign_internal(const Msg& m, const u8* sk, const u8* addrnd, u8* sig) noexcept {
    const u8* sk_seed = sk;
    const u8* sk_prf = sk + n;
    const u8* pk_seed = sk + 2 * n;
    const u8* pk_root = sk + 3 * n;
    Hs hs(pk_seed, sk_seed);
    Hs::PRF_msg(sk_prf, addrnd, m, sig);  // R
    CT_DECLASSIFY(sig, n);  // R is the first n bytes of the signature (public; FIPS 205 §9.2)
    MsgDigest dig;
    message_digest(sig, pk_seed, pk_root, m, dig);
    u8 pk_fors[n];
    fors_sign(hs, dig.digest, dig.adrs, sig + n, pk_fors);
    ht_sign(hs, pk_fors, dig.idx_tree, dig.idx_leaf, sig + n + P::fors_sig_bytes);
  }

  // FIPS 205, Algorithm 20: slh_verify_internal(M, SIG, PK) (the caller checked |SIG|).
  static bool verify_internal(const Msg& m, const u8* sig, const u8* pk) noexcept {
    const u8* pk_seed = pk;
    const u8* pk_root = pk + n;
    Hs hs(pk_seed, nullptr);
    MsgDigest dig;
    message_digest(sig, pk_seed, pk_root, m, dig);
    u8 pk_fors[n];
    fors_pkFromSig(hs, sig + n, dig.digest, dig.adrs, pk_fors);
    return ht_verify(hs, pk_fors, sig + n + P::fors_sig_bytes, dig.idx_tree, dig.idx_leaf, pk_root);
  }

  static constexpr Ops ops() noexcept { return Ops{&keygen_internal, &sign_internal, &verify_internal}; }
};

}  // namespace pqsig::slhdsa::detail
