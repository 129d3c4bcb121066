// XMSS / XMSS^MT (RFC 8391): WOTS+, L-trees, the Merkle trees, signing and verification, and
// the encodings of RFC 8391 Appendix B / C. One implementation for every parameter set (the
// Params table in params.cpp); SP 800-208 §7.2.1 for the WOTS+ secret keys.
#include <algorithm>
#include <cstring>
#include <thread>

#include "hash/sha2_backend.hpp"
#include "lms/lms_internal.hpp"
#include "xmss/xmss_internal.hpp"

namespace pqsig::xmss {
namespace detail {

// ---------------------------------------------------------------- hash functions (RFC 8391 §5.1)

Hasher::Hasher(const Params& p, const std::uint8_t* pub_seed) noexcept : p_(p) {
  std::memcpy(pub_seed_, pub_seed, p.n);
  // SHA-256 with n = 32: toByte(3, 32) || PUB_SEED fills exactly one block; keep the state.
  if (p.func == HashFunc::sha2_256 && p.padding + p.n == 64) {
    std::uint8_t pad[32];
    to_byte(pad, 3, 32);
    prf_state_.update(pad, 32);
    prf_state_.update(pub_seed_, p.n);
    prf_cached_ = true;
  }
}

Hasher::~Hasher() = default;

namespace {
// H(toByte(dom) || key || m1 || m2) with a SHA-2 function, truncated to n bytes (RFC 8391 §5.1;
// SP 800-208 §5 for the n = 24 truncation).
template <class Sha, std::size_t kDigest>
void xmss_sha2_core(std::uint8_t* out, std::size_t n, const std::uint8_t* pad, std::size_t padlen,
                    const std::uint8_t* key, std::size_t keylen, const std::uint8_t* m1, std::size_t l1,
                    const std::uint8_t* m2, std::size_t l2) noexcept {
  Sha s;
  s.update(pad, padlen);
  s.update(key, keylen);
  s.update(m1, l1);
  if (l2) s.update(m2, l2);
  std::uint8_t d[kDigest];
  s.final(d);
  std::memcpy(out, d, n);
  secure_zero(d, sizeof d);
}
}  // namespace

void Hasher::core(std::uint8_t* out, std::uint32_t dom, const std::uint8_t* key, std::size_t keylen,
                  const std::uint8_t* m1, std::size_t l1, const std::uint8_t* m2, std::size_t l2) const noexcept {
  std::uint8_t pad[64];
  to_byte(pad, dom, p_.padding);
  switch (p_.func) {
    case HashFunc::sha2_256:
      xmss_sha2_core<hash::Sha256, 32>(out, p_.n, pad, p_.padding, key, keylen, m1, l1, m2, l2);
      break;
    case HashFunc::sha2_512:
      xmss_sha2_core<hash::Sha512, 64>(out, p_.n, pad, p_.padding, key, keylen, m1, l1, m2, l2);
      break;
    case HashFunc::shake128:
    case HashFunc::shake256: {
      hash::Keccak k(p_.func == HashFunc::shake128 ? hash::kShake128Rate : hash::kShake256Rate, 0x1F);
      k.absorb(pad, p_.padding);
      k.absorb(key, keylen);
      k.absorb(m1, l1);
      if (l2) k.absorb(m2, l2);
      k.squeeze(out, p_.n);
      break;
    }
  }
}

void Hasher::prf(std::uint8_t* out, const std::uint8_t* key, const std::uint8_t m32[32]) const noexcept {
  core(out, 3, key, p_.n, m32, 32, nullptr, 0);
}

void Hasher::prf_adrs(std::uint8_t* out, const Adrs& a) const noexcept {
  std::uint8_t ab[32];
  a.to_bytes(ab);
  if (prf_cached_) {
    hash::Sha256 s = prf_state_;
    s.update(ab, 32);
    std::uint8_t d[32];
    s.final(d);
    std::memcpy(out, d, p_.n);
    return;
  }
  core(out, 3, pub_seed_, p_.n, ab, 32, nullptr, 0);
}

void Hasher::prf_keygen(std::uint8_t* out, const std::uint8_t* sk_seed, const Adrs& a) const noexcept {
  std::uint8_t ab[32];
  a.to_bytes(ab);
  core(out, 4, sk_seed, p_.n, pub_seed_, p_.n, ab, 32);
}

void Hasher::f(std::uint8_t* out, const std::uint8_t* key, const std::uint8_t* m) const noexcept {
  core(out, 0, key, p_.n, m, p_.n, nullptr, 0);
}

void Hasher::h(std::uint8_t* out, const std::uint8_t* key, const std::uint8_t* m) const noexcept {
  core(out, 1, key, p_.n, m, 2 * p_.n, nullptr, 0);
}

void Hasher::h_msg(std::uint8_t* out, const std::uint8_t* key3n, byte_span m) const noexcept {
  core(out, 2, key3n, 3 * p_.n, m.data(), m.size(), nullptr, 0);
}

// RFC 8391 Algorithm 2: chain(X, i, s, SEED, ADRS).
void Hasher::chain(std::uint8_t* x, unsigned i, unsigned s, Adrs& a) const noexcept {
  std::uint8_t key[kMaxN], bm[kMaxN];
  for (unsigned j = i; j < i + s && j < kW; ++j) {
    a.set_hash(j);
    a.set_key_and_mask(0);
    prf_adrs(key, a);
    a.set_key_and_mask(1);
    prf_adrs(bm, a);
    for (std::size_t b = 0; b < p_.n; ++b) bm[b] ^= x[b];
    f(x, key, bm);
  }
  secure_zero(bm, sizeof bm);  // held chain values below the signed position
}

namespace {
// The last block of a 96-byte SHA-256 input: 32 data bytes, 0x80, zeros, bit length 768.
void xmss_tail_block(std::uint8_t blk[64]) noexcept {
  std::memset(blk + 32, 0, 32);
  blk[32] = 0x80;
  blk[62] = 0x03;
}
void xmss_store_be(const std::uint32_t h[8], std::uint8_t* out) noexcept {
  for (int i = 0; i < 8; ++i) put_u32(out + 4 * i, h[i]);
}
}  // namespace

// Algorithm 2 for four chains in lock-step: per step PRF(SEED, ADRS) twice (one compression each
// after the cached PUB_SEED block) and F = SHA-256(toByte(0, 32) || KEY || M) (two blocks).
void Hasher::chains_x4(std::uint8_t* const x[4], const Adrs a[4], unsigned steps) const noexcept {
  const auto cx4 = hash::detail::sha256_compress_x4_fn();
  const hash::Sha256 iv;
  alignas(16) std::uint8_t blk[4][64];
  std::uint32_t st[4][8];
  std::uint8_t key[4][32], bm[4][32];
  std::uint32_t* hp[4] = {st[0], st[1], st[2], st[3]};
  const std::uint8_t* bp[4] = {blk[0], blk[1], blk[2], blk[3]};
  for (unsigned j = 0; j < steps && j < kW; ++j) {
    for (std::uint32_t km = 0; km < 2; ++km) {
      for (int q = 0; q < 4; ++q) {
        Adrs b = a[q];
        b.set_hash(j);
        b.set_key_and_mask(km);
        b.to_bytes(blk[q]);
        xmss_tail_block(blk[q]);
        std::memcpy(st[q], prf_state_.h, sizeof st[q]);
      }
      cx4(hp, bp);
      for (int q = 0; q < 4; ++q) xmss_store_be(st[q], km == 0 ? key[q] : bm[q]);
    }
    for (int q = 0; q < 4; ++q) {
      std::memset(blk[q], 0, 32);  // toByte(0, 32)
      std::memcpy(blk[q] + 32, key[q], 32);
      std::memcpy(st[q], iv.h, sizeof st[q]);
    }
    cx4(hp, bp);
    for (int q = 0; q < 4; ++q) {
      for (int b = 0; b < 32; ++b) blk[q][b] = static_cast<std::uint8_t>(x[q][b] ^ bm[q][b]);
      xmss_tail_block(blk[q]);
    }
    cx4(hp, bp);
    for (int q = 0; q < 4; ++q) xmss_store_be(st[q], x[q]);
  }
  secure_zero(blk, sizeof blk);  // chain values below the top are secret
  secure_zero(bm, sizeof bm);
  secure_zero(st, sizeof st);
}

// RFC 8391 Algorithm 7: RAND_HASH(LEFT, RIGHT, SEED, ADRS).
void Hasher::rand_hash(std::uint8_t* out, const std::uint8_t* left, const std::uint8_t* right,
                       Adrs& a) const noexcept {
  std::uint8_t key[kMaxN], m[2 * kMaxN];
  a.set_key_and_mask(0);
  prf_adrs(key, a);
  a.set_key_and_mask(1);
  prf_adrs(m, a);
  a.set_key_and_mask(2);
  prf_adrs(m + p_.n, a);
  for (std::size_t b = 0; b < p_.n; ++b) {
    m[b] ^= left[b];
    m[p_.n + b] ^= right[b];
  }
  h(out, key, m);
}

// ---------------------------------------------------------------- WOTS+ (RFC 8391 §3.1)

// Algorithm 1 (base_w) for the message, then the checksum of Algorithm 5:
// csum = Σ (w − 1 − msg[i]); csum <<= 8 − ((len_2 · lg(w)) mod 8); base_w(toByte(csum, 2), len_2).
void wots_digits(const Params& p, const std::uint8_t* msg, unsigned* digits) noexcept {
  const unsigned len1 = static_cast<unsigned>(2 * p.n), len2 = 3;
  for (unsigned i = 0; i < len1; ++i) digits[i] = (msg[i / 2] >> (i % 2 == 0 ? 4 : 0)) & 0xF;
  std::uint32_t csum = 0;
  for (unsigned i = 0; i < len1; ++i) csum += kW - 1 - digits[i];
  csum <<= 8 - ((len2 * kLogW) % 8);
  std::uint8_t cb[2];
  to_byte(cb, csum, 2);
  for (unsigned i = 0; i < len2; ++i) digits[len1 + i] = (cb[i / 2] >> (i % 2 == 0 ? 4 : 0)) & 0xF;
}

namespace {
// SP 800-208 §7.2.1: sk[i] = PRF_keygen(SK_SEED, PUB_SEED || ADRS) with the chain address i and
// hash address and keyAndMask 0.
void xmss_wots_sk_elem(const Hasher& hs, const std::uint8_t* sk_seed, Adrs& a, unsigned i, std::uint8_t* out) noexcept {
  a.set_chain(i);
  a.set_hash(0);
  a.set_key_and_mask(0);
  hs.prf_keygen(out, sk_seed, a);
}
}  // namespace

// Algorithm 4: WOTS_genPK.
void wots_gen_pk(const Hasher& hs, const std::uint8_t* sk_seed, Adrs a, std::uint8_t* pk) noexcept {
  const Params& p = hs.params();
  if (hs.has_x4()) {
    // Every chain runs the full w − 1 steps: four at a time on the 4-way compression.
    const unsigned len = p.wots_len();
    for (unsigned i = 0; i < len; ++i) xmss_wots_sk_elem(hs, sk_seed, a, i, pk + i * p.n);
    std::uint8_t spare[3][32] = {};
    for (unsigned i = 0; i < len; i += 4) {
      std::uint8_t* x[4];
      Adrs ad[4];
      for (unsigned q = 0; q < 4; ++q) {
        ad[q] = a;
        ad[q].set_chain(i + q < len ? i + q : i);
        x[q] = i + q < len ? pk + (i + q) * p.n : spare[q - 1];
      }
      hs.chains_x4(x, ad, kW - 1);
    }
    secure_zero(spare, sizeof spare);
    return;
  }
  for (unsigned i = 0; i < p.wots_len(); ++i) {
    std::uint8_t* x = pk + i * p.n;
    xmss_wots_sk_elem(hs, sk_seed, a, i, x);
    a.set_chain(i);
    hs.chain(x, 0, kW - 1, a);
  }
}

// Algorithm 5: WOTS_sign.
void wots_sign(const Hasher& hs, const std::uint8_t* msg, const std::uint8_t* sk_seed, Adrs a,
               std::uint8_t* sig) noexcept {
  const Params& p = hs.params();
  unsigned digits[kMaxLen];
  wots_digits(p, msg, digits);
  for (unsigned i = 0; i < p.wots_len(); ++i) {
    std::uint8_t* x = sig + i * p.n;
    xmss_wots_sk_elem(hs, sk_seed, a, i, x);
    a.set_chain(i);
    hs.chain(x, 0, digits[i], a);
  }
}

// Algorithm 6: WOTS_pkFromSig.
void wots_pk_from_sig(const Hasher& hs, const std::uint8_t* sig, const std::uint8_t* msg, Adrs a,
                      std::uint8_t* pk) noexcept {
  const Params& p = hs.params();
  unsigned digits[kMaxLen];
  wots_digits(p, msg, digits);
  for (unsigned i = 0; i < p.wots_len(); ++i) {
    std::memcpy(pk + i * p.n, sig + i * p.n, p.n);
    a.set_chain(i);
    hs.chain(pk + i * p.n, digits[i], kW - 1 - digits[i], a);
  }
}

// ---------------------------------------------------------------- trees (RFC 8391 §4.1)

// Algorithm 8: ltree.
void ltree(const Hasher& hs, std::uint8_t* pk, Adrs a, std::uint8_t* out) noexcept {
  const std::size_t n = hs.params().n;
  unsigned len = hs.params().wots_len();
  a.set_tree_height(0);
  while (len > 1) {
    for (unsigned i = 0; i < len / 2; ++i) {
      a.set_tree_index(i);
      hs.rand_hash(pk + i * n, pk + 2 * i * n, pk + (2 * i + 1) * n, a);
    }
    if (len % 2 == 1) std::memmove(pk + (len / 2) * n, pk + (len - 1) * n, n);
    len = (len + 1) / 2;
    a.set_tree_height(a.w[5] + 1);
  }
  std::memcpy(out, pk, n);
}

void gen_leaf(const Hasher& hs, const std::uint8_t* sk_seed, std::uint32_t layer, std::uint64_t tree,
              std::uint32_t leaf, std::uint8_t* out) noexcept {
  std::uint8_t pk[kMaxLen * kMaxN];
  Adrs a;
  a.set_layer(layer);
  a.set_tree(tree);
  a.set_type(kTypeOts);
  a.set_ots(leaf);
  wots_gen_pk(hs, sk_seed, a, pk);
  a.set_type(kTypeLtree);
  a.set_ltree(leaf);
  ltree(hs, pk, a, out);
}

// Algorithm 13: XMSS_rootFromSig (sig = sig_ots || auth).
void root_from_sig(const Hasher& hs, std::uint32_t layer, std::uint64_t tree, std::uint32_t leaf,
                   const std::uint8_t* sig, const std::uint8_t* msg, std::uint8_t* root) noexcept {
  const Params& p = hs.params();
  const std::size_t n = p.n;
  std::uint8_t pk[kMaxLen * kMaxN];
  Adrs a;
  a.set_layer(layer);
  a.set_tree(tree);
  a.set_type(kTypeOts);
  a.set_ots(leaf);
  wots_pk_from_sig(hs, sig, msg, a, pk);
  a.set_type(kTypeLtree);
  a.set_ltree(leaf);
  std::uint8_t node[kMaxN];
  ltree(hs, pk, a, node);
  a.set_type(kTypeHashTree);
  a.set_tree_index(leaf);
  const std::uint8_t* auth = sig + p.wots_len() * n;
  for (unsigned k = 0; k < p.tree_height(); ++k) {
    a.set_tree_height(k);
    if (((leaf >> k) & 1) == 0) {
      a.set_tree_index(a.w[6] / 2);
      hs.rand_hash(node, node, auth + k * n, a);
    } else {
      a.set_tree_index((a.w[6] - 1) / 2);
      hs.rand_hash(node, auth + k * n, node, a);
    }
  }
  std::memcpy(root, node, n);
}

const std::uint8_t* Tree::node(unsigned level, std::uint64_t i) const noexcept {
  std::size_t off = 0;
  for (unsigned k = 0; k < level; ++k) off += std::size_t{1} << (t - k);
  return nodes.data() + (off + i) * n;
}

void Tree::auth(std::uint32_t leaf, std::uint8_t* out) const noexcept {
  for (unsigned k = 0; k < t; ++k) std::memcpy(out + k * n, node(k, (leaf >> k) ^ 1u), n);
}

// Algorithm 9 (treeHash), keeping every node: leaves first (in parallel), then level by level.
// A parent at level k+1, index i, is RAND_HASH(children) with tree height k and tree index i.
Tree build_tree(const Hasher& hs, const std::uint8_t* sk_seed, std::uint32_t layer, std::uint64_t tree,
                unsigned threads) {
  Tree tr;
  tr.t = hs.params().tree_height();
  tr.n = hs.params().n;
  const std::size_t leaves = std::size_t{1} << tr.t;
  tr.nodes.assign((2 * leaves - 1) * tr.n, 0);
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, leaves / 4 + 1));
  auto work = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i)
      gen_leaf(hs, sk_seed, layer, tree, static_cast<std::uint32_t>(i), tr.nodes.data() + i * tr.n);
  };
  if (threads <= 1) {
    work(0, leaves);
  } else {
    std::vector<std::thread> pool;
    const std::size_t step = (leaves + threads - 1) / threads;
    for (unsigned w = 0; w < threads; ++w) {
      const std::size_t a = w * step, b = std::min(leaves, a + step);
      if (a < b) pool.emplace_back(work, a, b);
    }
    for (auto& th : pool) th.join();
  }
  Adrs a;
  a.set_layer(layer);
  a.set_tree(tree);
  a.set_type(kTypeHashTree);
  std::size_t child_off = 0;
  for (unsigned k = 0; k < tr.t; ++k) {
    const std::size_t cnt = std::size_t{1} << (tr.t - k), parent_off = child_off + cnt;
    a.set_tree_height(k);
    for (std::size_t i = 0; i < cnt / 2; ++i) {
      a.set_tree_index(static_cast<std::uint32_t>(i));
      hs.rand_hash(tr.nodes.data() + (parent_off + i) * tr.n, tr.nodes.data() + (child_off + 2 * i) * tr.n,
                   tr.nodes.data() + (child_off + 2 * i + 1) * tr.n, a);
    }
    child_off = parent_off;
  }
  return tr;
}

namespace {
constexpr char kXmssTreeMagic[8] = {'P', 'Q', 'X', 'M', 'S', 'S', 'T', '1'};
constexpr std::size_t kXmssTreeHeader = 8 + 1 + 4 + 4;  // magic, mt, oid, t
}  // namespace

bytes save_tree_cache(const Params& p, const std::uint8_t* pub_seed, const Tree& tr) {
  const std::size_t body = kXmssTreeHeader + p.n + tr.nodes.size();
  bytes out(body + 32);
  std::memcpy(out.data(), kXmssTreeMagic, 8);
  out[8] = p.mt ? 1 : 0;
  put_u32(out.data() + 9, p.oid);
  put_u32(out.data() + 13, tr.t);
  std::memcpy(out.data() + kXmssTreeHeader, pub_seed, p.n);
  std::memcpy(out.data() + kXmssTreeHeader + p.n, tr.nodes.data(), tr.nodes.size());
  const auto d = hash::sha256(byte_span(out).first(body));
  std::memcpy(out.data() + body, d.data(), d.size());
  return out;
}

bool load_tree_cache(const Hasher& hs, const std::uint8_t* root, std::uint32_t layer, byte_span b, Tree& out) {
  const Params& p = hs.params();
  const unsigned t = p.tree_height();
  const std::size_t node_bytes = ((std::size_t{2} << t) - 1) * p.n;
  const std::size_t body = kXmssTreeHeader + p.n + node_bytes;
  if (b.size() != body + 32 || std::memcmp(b.data(), kXmssTreeMagic, 8) != 0) return false;
  if (b[8] != (p.mt ? 1 : 0) || from_bytes(b.data() + 9, 4) != p.oid || from_bytes(b.data() + 13, 4) != t) return false;
  const auto d = hash::sha256(b.first(body));
  if (!ct_equal(d, b.last(32))) return false;
  Tree tr;
  tr.t = t;
  tr.n = p.n;
  // The cache is public data: compare it to this key's PUB_SEED and root in the clear.
  std::uint8_t seed_check[kMaxN];
  hs.pub_seed_copy(seed_check);
  if (std::memcmp(b.data() + kXmssTreeHeader, seed_check, p.n) != 0) return false;
  tr.nodes.assign(b.begin() + static_cast<std::ptrdiff_t>(kXmssTreeHeader + p.n), b.begin() + static_cast<std::ptrdiff_t>(body));
  // Every interior node is recomputed from the cached leaves (2^t RAND_HASH, no WOTS+ key
  // generation) and must equal the cached one, up to the key's root: a cache that passes is the
  // tree of these leaves under this root. A wrong leaf can only give a signature that does not
  // verify, which StatefulSigner checks before any signature leaves.
  Adrs a;
  a.set_layer(layer);
  a.set_tree(0);
  a.set_type(kTypeHashTree);
  std::size_t child_off = 0;
  std::uint8_t node[kMaxN];
  for (unsigned k = 0; k < t; ++k) {
    const std::size_t cnt = std::size_t{1} << (t - k), parent_off = child_off + cnt;
    a.set_tree_height(k);
    for (std::size_t i = 0; i < cnt / 2; ++i) {
      a.set_tree_index(static_cast<std::uint32_t>(i));
      hs.rand_hash(node, tr.nodes.data() + (child_off + 2 * i) * p.n, tr.nodes.data() + (child_off + 2 * i + 1) * p.n, a);
      if (std::memcmp(node, tr.nodes.data() + (parent_off + i) * p.n, p.n) != 0) return false;
    }
    child_off = parent_off;
  }
  if (std::memcmp(tr.root(), root, p.n) != 0) return false;
  out = std::move(tr);
  return true;
}

}  // namespace detail

using detail::Adrs;
using detail::Hasher;

// ---------------------------------------------------------------- verification

Result<const Params*> parse_public_key(bool mt, byte_span pk) {
  if (pk.size() < 4) return Error{Errc::invalid_length, "xmss: public key too short"};
  const auto oid = static_cast<std::uint32_t>(detail::from_bytes(pk.data(), 4));
  const Params* p = mt ? find_xmssmt(oid) : find_xmss(oid);
  if (!p) return Error{Errc::unknown_suite, mt ? "xmss: unknown XMSS^MT OID in public key" : "xmss: unknown XMSS OID in public key"};
  if (pk.size() != p->public_key_bytes()) return Error{Errc::invalid_length, "xmss: public key length"};
  return p;
}

// RFC 8391 Algorithm 14 (XMSS_verify) and Algorithm 17 (XMSSMT_verify): with d = 1 the loop
// below is Algorithm 14.
Status verify(const Params& p, byte_span pk, byte_span msg, byte_span sig) {
  if (pk.size() != p.public_key_bytes()) return Error{Errc::invalid_length, "xmss: public key length"};
  if (detail::from_bytes(pk.data(), 4) != p.oid) return Error{Errc::invalid_encoding, "xmss: public key OID is not " + std::string(p.name)};
  if (sig.size() != p.signature_bytes()) return Error{Errc::verify_failed, "xmss: signature length"};
  const std::size_t n = p.n;
  const std::uint8_t* root = pk.data() + 4;
  const std::uint8_t* seed = pk.data() + 4 + n;
  const std::uint64_t idx = detail::from_bytes(sig.data(), p.index_bytes());
  if (p.h < 64 && idx >= p.max_signatures()) return Error{Errc::verify_failed, "xmss: signature index out of range"};
  const std::uint8_t* r = sig.data() + p.index_bytes();
  // M' = H_msg(r || getRoot(PK) || toByte(idx_sig, n), M).
  std::uint8_t key[3 * detail::kMaxN];
  std::memcpy(key, r, n);
  std::memcpy(key + n, root, n);
  detail::to_byte(key + 2 * n, idx, n);
  std::uint8_t node[detail::kMaxN];
  Hasher hs(p, seed);
  hs.h_msg(node, key, msg);
  const unsigned t = p.tree_height();
  const std::uint64_t leaf_mask = (std::uint64_t{1} << t) - 1;
  std::uint64_t tree = idx >> t;
  std::uint32_t leaf = static_cast<std::uint32_t>(idx & leaf_mask);
  const std::uint8_t* part = r + n;
  const std::size_t part_bytes = (p.wots_len() + t) * n;
  for (unsigned j = 0; j < p.d; ++j) {
    detail::root_from_sig(hs, j, tree, leaf, part, node, node);
    leaf = static_cast<std::uint32_t>(tree & leaf_mask);
    tree >>= t;
    part += part_bytes;
  }
  if (!ct_equal({node, n}, {root, n})) return Error{Errc::verify_failed, "xmss: signature does not verify"};
  return {};
}

Status xmss_verify(byte_span pk, byte_span msg, byte_span sig) {
  auto p = parse_public_key(false, pk);
  if (!p) return p.error();
  return verify(**p, pk, msg, sig);
}

Status xmssmt_verify(byte_span pk, byte_span msg, byte_span sig) {
  auto p = parse_public_key(true, pk);
  if (!p) return p.error();
  return verify(**p, pk, msg, sig);
}

// ---------------------------------------------------------------- keys

namespace {
constexpr char kXmssKeyMagic[] = "PQXMSS1";  // 7 bytes
constexpr std::size_t kXmssKeyMagicLen = 7;

unsigned xmss_threads(unsigned threads) noexcept {
  return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}
}  // namespace

Result<PrivateKey> PrivateKey::from_seeds(const Params& p, byte_span sk_seed, byte_span sk_prf, byte_span pub_seed,
                                          byte_span root, unsigned threads) {
  if (sk_seed.size() != p.n || sk_prf.size() != p.n || pub_seed.size() != p.n)
    return Error{Errc::invalid_length, "xmss: seeds must be n bytes each"};
  if (!root.empty() && root.size() != p.n) return Error{Errc::invalid_length, "xmss: root must be n bytes"};
  PrivateKey k;
  k.p_ = &p;
  k.secret_ = SecretBytes(2 * p.n);
  std::memcpy(k.secret_.data(), sk_seed.data(), p.n);
  std::memcpy(k.secret_.data() + p.n, sk_prf.data(), p.n);
  k.pub_seed_.assign(pub_seed.begin(), pub_seed.end());
  if (!root.empty()) {
    k.root_.assign(root.begin(), root.end());
  } else {
    // RFC 8391 Algorithm 10 / 15: the root of the top tree (layer d − 1, tree 0).
    Hasher hs(p, k.pub_seed_.data());
    const auto tr = detail::build_tree(hs, k.secret_.data(), p.d - 1, 0, xmss_threads(threads));
    k.root_.assign(tr.root(), tr.root() + p.n);
  }
  return k;
}

Result<PrivateKey> PrivateKey::generate(const Params& p, unsigned threads) {
  SecretBytes seeds(3 * p.n);
  if (!random_bytes(seeds.mut_span())) return Error{Errc::rng_failure, "xmss: OS random source failed"};
  return from_seeds(p, seeds.span().subspan(0, p.n), seeds.span().subspan(p.n, p.n),
                    seeds.span().subspan(2 * p.n, p.n), {}, threads);
}

bytes PrivateKey::public_key() const {
  bytes pk(p_->public_key_bytes());
  detail::put_u32(pk.data(), p_->oid);
  std::memcpy(pk.data() + 4, root_.data(), p_->n);
  std::memcpy(pk.data() + 4 + p_->n, pub_seed_.data(), p_->n);
  return pk;
}

SecretBytes PrivateKey::serialize() const {
  const std::size_t n = p_->n;
  SecretBytes out(kXmssKeyMagicLen + 1 + 4 + 4 * n);
  std::uint8_t* o = out.data();
  std::memcpy(o, kXmssKeyMagic, kXmssKeyMagicLen);
  o[kXmssKeyMagicLen] = p_->mt ? 1 : 0;
  detail::put_u32(o + kXmssKeyMagicLen + 1, p_->oid);
  o += kXmssKeyMagicLen + 5;
  std::memcpy(o, secret_.data(), 2 * n);
  std::memcpy(o + 2 * n, pub_seed_.data(), n);
  std::memcpy(o + 3 * n, root_.data(), n);
  return out;
}

Result<PrivateKey> PrivateKey::parse(byte_span e) {
  if (e.size() < kXmssKeyMagicLen + 5 || std::memcmp(e.data(), kXmssKeyMagic, kXmssKeyMagicLen) != 0)
    return Error{Errc::invalid_encoding, "xmss: not an XMSS private key"};
  const std::uint8_t mt = e[kXmssKeyMagicLen];
  if (mt > 1) return Error{Errc::invalid_encoding, "xmss: private key flags"};
  const auto oid = static_cast<std::uint32_t>(detail::from_bytes(e.data() + kXmssKeyMagicLen + 1, 4));
  const Params* p = mt ? find_xmssmt(oid) : find_xmss(oid);
  if (!p) return Error{Errc::unknown_suite, "xmss: unknown OID in private key"};
  const std::size_t n = p->n;
  if (e.size() != kXmssKeyMagicLen + 5 + 4 * n) return Error{Errc::invalid_length, "xmss: private key length"};
  const auto b = e.subspan(kXmssKeyMagicLen + 5);
  return from_seeds(*p, b.subspan(0, n), b.subspan(n, n), b.subspan(2 * n, n), b.subspan(3 * n, n));
}

// ---------------------------------------------------------------- signing

namespace detail {
struct XmssSignerCache {
  PrivateKey key;
  bytes pk;
  unsigned threads = 1;
  std::unique_ptr<Hasher> hs;
  // One tree per layer: the one the last signature used (tree index, nodes).
  struct Layer {
    bool valid = false;
    std::uint64_t tree = 0;
    Tree nodes;
  };
  std::vector<Layer> layers;
  explicit XmssSignerCache(PrivateKey k) : key(std::move(k)) {}
};
}  // namespace detail

Signer::Signer() = default;
Signer::Signer(Signer&&) noexcept = default;
Signer& Signer::operator=(Signer&&) noexcept = default;
Signer::~Signer() = default;

Result<Signer> Signer::create(PrivateKey key, unsigned threads, const std::string& tree_cache) {
  Signer s;
  const Params& p = key.params();
  s.c_ = std::make_unique<detail::XmssSignerCache>(std::move(key));
  auto& c = *s.c_;
  c.pk = c.key.public_key();
  c.threads = xmss_threads(threads);
  c.hs = std::make_unique<Hasher>(p, c.key.pub_seed().data());
  c.layers.resize(p.d);
  // The top tree is needed by every signature: build it now and check it against the key's root.
  // From the cache file when it holds this key's tree (checked), else built and written there.
  auto& top = c.layers[p.d - 1];
  bool cached = false;
  if (!tree_cache.empty()) {
    const bytes body = lms::detail::read_small_file(tree_cache);
    cached = !body.empty() &&
             detail::load_tree_cache(*c.hs, c.key.root().data(), p.d - 1, body, top.nodes);
  }
  if (!cached) top.nodes = detail::build_tree(*c.hs, c.key.sk_seed().data(), p.d - 1, 0, c.threads);
  top.tree = 0;
  top.valid = true;
  if (std::memcmp(top.nodes.root(), c.key.root().data(), p.n) != 0)
    return Error{Errc::key_check_failed, "xmss: the private key's root does not match its seeds"};
  if (!cached && !tree_cache.empty())  // a cache: failing to write it is not an error
    (void)lms::detail::write_small_file(tree_cache,
                                        detail::save_tree_cache(p, c.key.pub_seed().data(), top.nodes));
  return s;
}

const bytes& Signer::public_key() const noexcept { return c_->pk; }
const Params& Signer::params() const noexcept { return c_->key.params(); }
std::uint64_t Signer::max_signatures() const noexcept { return c_->key.params().max_signatures(); }

// RFC 8391 Algorithm 12 (XMSS_sign, with Algorithm 11 treeSig) and Algorithm 16 (XMSSMT_sign).
Result<bytes> Signer::sign_at(std::uint64_t idx, byte_span msg) {
  auto& c = *c_;
  const Params& p = c.key.params();
  if (idx >= p.max_signatures()) return Error{Errc::key_exhausted, "xmss: index beyond the key"};
  const std::size_t n = p.n;
  const unsigned t = p.tree_height();
  const std::uint64_t leaf_mask = (std::uint64_t{1} << t) - 1;
  bytes sig(p.signature_bytes());
  std::uint8_t* o = sig.data();
  detail::to_byte(o, idx, p.index_bytes());
  o += p.index_bytes();
  // r = PRF(getSK_PRF(SK), toByte(idx_sig, 32)).
  std::uint8_t idx32[32];
  detail::to_byte(idx32, idx, 32);
  c.hs->prf(o, c.key.sk_prf().data(), idx32);
  // M' = H_msg(r || getRoot(SK) || toByte(idx_sig, n), M).
  std::uint8_t key[3 * detail::kMaxN];
  std::memcpy(key, o, n);
  std::memcpy(key + n, c.key.root().data(), n);
  detail::to_byte(key + 2 * n, idx, n);
  std::uint8_t node[detail::kMaxN];
  c.hs->h_msg(node, key, msg);
  o += n;
  std::uint64_t tree = idx >> t;
  std::uint32_t leaf = static_cast<std::uint32_t>(idx & leaf_mask);
  for (unsigned j = 0; j < p.d; ++j) {
    auto& L = c.layers[j];
    if (!L.valid || L.tree != tree) {
      L.nodes = detail::build_tree(*c.hs, c.key.sk_seed().data(), j, tree, c.threads);
      L.tree = tree;
      L.valid = true;
    }
    // Algorithm 11 (treeSig): WOTS_sign of the node, then the authentication path.
    Adrs a;
    a.set_layer(j);
    a.set_tree(tree);
    a.set_type(detail::kTypeOts);
    a.set_ots(leaf);
    detail::wots_sign(*c.hs, node, c.key.sk_seed().data(), a, o);
    o += p.wots_len() * n;
    L.nodes.auth(leaf, o);
    o += t * n;
    std::memcpy(node, L.nodes.root(), n);  // the message of the next layer
    leaf = static_cast<std::uint32_t>(tree & leaf_mask);
    tree >>= t;
  }
  return sig;
}

}  // namespace pqsig::xmss
