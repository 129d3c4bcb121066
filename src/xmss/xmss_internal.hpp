// Internal: the hash functions, addresses, WOTS+ and tree pieces of XMSS / XMSS^MT shared by
// xmss.cpp and the tests (RFC 8391 §2–§4; SP 800-208 §7.2.1 for PRF_keygen).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "pqsig/hash.hpp"
#include "pqsig/xmss.hpp"

namespace pqsig::xmss::detail {

constexpr std::size_t kMaxN = 64;
constexpr std::size_t kMaxLen = 2 * kMaxN + 3;  // WOTS+ len for n = 64
constexpr unsigned kW = 16;                     // RFC 8391 §5.2: every set uses w = 16
constexpr unsigned kLogW = 4;

// RFC 8391 §2.4: toByte(x, y), big-endian in y bytes.
inline void to_byte(std::uint8_t* out, std::uint64_t x, std::size_t y) noexcept {
  for (std::size_t i = 0; i < y; ++i) out[y - 1 - i] = i < 8 ? static_cast<std::uint8_t>(x >> (8 * i)) : 0;
}
inline void put_u32(std::uint8_t* p, std::uint32_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
}
inline std::uint64_t from_bytes(const std::uint8_t* p, std::size_t y) noexcept {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < y; ++i) v = (v << 8) | p[i];
  return v;
}

/// RFC 8391 §2.5: a hash address, eight 32-bit words (layer, tree (2 words), type, then
/// type-specific words, keyAndMask). set_type() zeroes the type-specific words.
struct Adrs {
  std::uint32_t w[8] = {};
  void set_layer(std::uint32_t v) noexcept { w[0] = v; }
  void set_tree(std::uint64_t v) noexcept {
    w[1] = static_cast<std::uint32_t>(v >> 32);
    w[2] = static_cast<std::uint32_t>(v);
  }
  void set_type(std::uint32_t t) noexcept {
    w[3] = t;
    w[4] = w[5] = w[6] = w[7] = 0;
  }
  void set_ots(std::uint32_t v) noexcept { w[4] = v; }          // type 0: OTS address
  void set_chain(std::uint32_t v) noexcept { w[5] = v; }        // type 0: chain address
  void set_hash(std::uint32_t v) noexcept { w[6] = v; }         // type 0: hash address
  void set_ltree(std::uint32_t v) noexcept { w[4] = v; }        // type 1: L-tree address
  void set_tree_height(std::uint32_t v) noexcept { w[5] = v; }  // types 1, 2
  void set_tree_index(std::uint32_t v) noexcept { w[6] = v; }   // types 1, 2
  void set_key_and_mask(std::uint32_t v) noexcept { w[7] = v; }
  void to_bytes(std::uint8_t out[32]) const noexcept {
    for (int i = 0; i < 8; ++i) to_byte(out + 4 * i, w[i], 4);
  }
};
constexpr std::uint32_t kTypeOts = 0, kTypeLtree = 1, kTypeHashTree = 2;

/// The keyed hash functions of RFC 8391 §5.1 (SP 800-208 §5 for the 192-bit and SHAKE256
/// sets), all as core(toByte(x, padding) || KEY || M) truncated to n, for one PUB_SEED.
/// Immutable after construction, so one instance serves several threads.
class Hasher {
 public:
  Hasher(const Params& p, const std::uint8_t* pub_seed) noexcept;
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;

  const Params& params() const noexcept { return p_; }
  /// PRF(KEY, M) with a 32-byte M: toByte(3, padding).
  void prf(std::uint8_t* out, const std::uint8_t* key, const std::uint8_t m32[32]) const noexcept;
  /// PRF(SEED, ADRS) for this PUB_SEED (the keys and bitmasks of Algorithms 2 and 7).
  void prf_adrs(std::uint8_t* out, const Adrs& a) const noexcept;
  /// SP 800-208 §7.2.1: PRF_keygen(SK_SEED, PUB_SEED || ADRS): toByte(4, padding).
  void prf_keygen(std::uint8_t* out, const std::uint8_t* sk_seed, const Adrs& a) const noexcept;
  /// F(KEY, M), M of n bytes: toByte(0, padding).
  void f(std::uint8_t* out, const std::uint8_t* key, const std::uint8_t* m) const noexcept;
  /// H(KEY, M), M of 2n bytes: toByte(1, padding).
  void h(std::uint8_t* out, const std::uint8_t* key, const std::uint8_t* m) const noexcept;
  /// H_msg(KEY, M), KEY of 3n bytes: toByte(2, padding).
  void h_msg(std::uint8_t* out, const std::uint8_t* key3n, byte_span m) const noexcept;

  /// RFC 8391 Algorithm 2 (chain): s steps of F from position i; a's chain address is set.
  void chain(std::uint8_t* x, unsigned i, unsigned s, Adrs& a) const noexcept;
  /// True when chains_x4() may be used: SHA-256 with n = 32 (padding 32).
  bool has_x4() const noexcept { return prf_cached_; }
  /// Algorithm 2 on four chains at once, each from position 0 for `steps` steps (WOTS+ key
  /// generation), on the 4-way SHA-256 compression (SHA-NI or scalar). a[q] has its chain
  /// address set. Only when has_x4().
  void chains_x4(std::uint8_t* const x[4], const Adrs a[4], unsigned steps) const noexcept;
  /// PUB_SEED (n bytes, public) into out.
  void pub_seed_copy(std::uint8_t* out) const noexcept { std::memcpy(out, pub_seed_, p_.n); }
  /// RFC 8391 Algorithm 7 (RAND_HASH).
  void rand_hash(std::uint8_t* out, const std::uint8_t* left, const std::uint8_t* right, Adrs& a) const noexcept;

 private:
  void core(std::uint8_t* out, std::uint32_t dom, const std::uint8_t* key, std::size_t keylen,
            const std::uint8_t* m1, std::size_t l1, const std::uint8_t* m2, std::size_t l2) const noexcept;
  const Params& p_;
  std::uint8_t pub_seed_[kMaxN];
  bool prf_cached_ = false;
  hash::Sha256 prf_state_;  // SHA-256 after toByte(3, 32) || PUB_SEED (one block), when n = 32
};

/// RFC 8391 Algorithm 1 (base_w) with w = 16 over out_len digits, and the checksum of
/// Algorithm 5: the len digits WOTS+ signs for an n-byte message.
void wots_digits(const Params& p, const std::uint8_t* msg, unsigned* digits) noexcept;
/// RFC 8391 Algorithm 4 (WOTS_genPK) with the secret key of SP 800-208 §7.2.1; a is an OTS
/// address (layer, tree, OTS address set).
void wots_gen_pk(const Hasher& hs, const std::uint8_t* sk_seed, Adrs a, std::uint8_t* pk) noexcept;
/// RFC 8391 Algorithm 5 (WOTS_sign).
void wots_sign(const Hasher& hs, const std::uint8_t* msg, const std::uint8_t* sk_seed, Adrs a,
               std::uint8_t* sig) noexcept;
/// RFC 8391 Algorithm 6 (WOTS_pkFromSig).
void wots_pk_from_sig(const Hasher& hs, const std::uint8_t* sig, const std::uint8_t* msg, Adrs a,
                      std::uint8_t* pk) noexcept;
/// RFC 8391 Algorithm 8 (ltree): compresses pk (len·n bytes, overwritten) to one n-byte node.
void ltree(const Hasher& hs, std::uint8_t* pk, Adrs a, std::uint8_t* out) noexcept;
/// The leaf `leaf` of tree (layer, tree): ltree(WOTS_genPK(...)) (Algorithm 9's inner step).
void gen_leaf(const Hasher& hs, const std::uint8_t* sk_seed, std::uint32_t layer, std::uint64_t tree,
              std::uint32_t leaf, std::uint8_t* out) noexcept;
/// RFC 8391 Algorithm 13 (XMSS_rootFromSig) over one (reduced) XMSS signature sig_ots || auth.
void root_from_sig(const Hasher& hs, std::uint32_t layer, std::uint64_t tree, std::uint32_t leaf,
                   const std::uint8_t* sig, const std::uint8_t* msg, std::uint8_t* root) noexcept;

/// A whole tree of height t (Algorithm 9 treeHash, every node kept): level k holds 2^(t-k)
/// nodes. Leaves are computed on `threads` threads.
struct Tree {
  unsigned t = 0;
  std::size_t n = 0;
  std::vector<std::uint8_t> nodes;
  const std::uint8_t* node(unsigned level, std::uint64_t i) const noexcept;
  const std::uint8_t* root() const noexcept { return node(t, 0); }
  /// Auth path of leaf (t nodes of n bytes).
  void auth(std::uint32_t leaf, std::uint8_t* out) const noexcept;
};
Tree build_tree(const Hasher& hs, const std::uint8_t* sk_seed, std::uint32_t layer, std::uint64_t tree,
                unsigned threads);

/// The top-layer tree cache (`<state>.tree`, public data): "PQXMSST1" || u8 mt || u32 oid ||
/// u32 t || PUB_SEED || every node of the tree (Tree::nodes) || SHA-256 of all before.
bytes save_tree_cache(const Params& p, const std::uint8_t* pub_seed, const Tree& tr);
/// Accepts a cache body only for this set and PUB_SEED, with a correct checksum, every interior
/// node equal to RAND_HASH of its children and the root equal to `root`; then sets `out`.
bool load_tree_cache(const Hasher& hs, const std::uint8_t* root, std::uint32_t layer, byte_span body, Tree& out);

}  // namespace pqsig::xmss::detail
