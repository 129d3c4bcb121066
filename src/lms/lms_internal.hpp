// Internal: the hashing and tree pieces of LMS / HSS shared by lms.cpp and the tests.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "hash/sha2_backend.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/lms.hpp"

namespace pqsig::lms::detail {

// RFC 8554 §3.1: u32str, u16str (big-endian).
inline void put_u32(std::uint8_t* p, std::uint32_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
}
inline void put_u16(std::uint8_t* p, std::uint16_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}
inline std::uint32_t get_u32(const std::uint8_t* p) noexcept {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

// The level list of our key encodings (HssPrivateKey, DelegatedKey): u32 LMS type || u32 LM-OTS
// type per level. put_level_types writes 8·levels.size() bytes at p and returns the end;
// get_level_types reads L levels from p (the caller checked the length) and is false on an
// unknown type.
inline std::uint8_t* put_level_types(std::uint8_t* p, const std::vector<Level>& levels) noexcept {
  for (const auto& lv : levels) {
    put_u32(p, lv.lms->type);
    put_u32(p + 4, lv.ots->type);
    p += 8;
  }
  return p;
}
inline bool get_level_types(const std::uint8_t* p, std::uint32_t L, std::vector<Level>& levels) {
  for (std::uint32_t i = 0; i < L; ++i) {
    Level lv{find_lms(get_u32(p + 8 * i)), find_lmots(get_u32(p + 4 + 8 * i))};
    if (!lv.lms || !lv.ots) return false;
    levels.push_back(lv);
  }
  return true;
}

// RFC 8554 §4.3 / §5.3: domain separation constants D_PBLC, D_MESG, D_LEAF, D_INTR.
constexpr std::uint16_t kDPblc = 0x8080;
constexpr std::uint16_t kDMesg = 0x8181;
constexpr std::uint16_t kDLeaf = 0x8282;
constexpr std::uint16_t kDIntr = 0x8383;
// Our derivation indices in the Appendix A layout (i ≥ p never names a chain: p ≤ 265).
constexpr std::uint16_t kSeedC = 0xFFFD;          // the LM-OTS randomizer C
constexpr std::uint16_t kSeedChildSeed = 0xFFFE;  // a child tree's SEED
constexpr std::uint16_t kSeedChildI = 0xFFFF;     // a child tree's I

// Trees taller than this are kept as their upper part plus one cached bottom subtree of this
// height (rebuilt when the signing index leaves it): memory 2^(h−k+1)·m + 2^(k+1)·m.
constexpr unsigned kSubtreeHeight = 10;

/// H: SHA-256 (truncated to n) or SHAKE256 (n bytes), incremental.
class Hx {
 public:
  explicit Hx(HashFamily f) noexcept : f_(f) {}
  void update(const void* p, std::size_t n) noexcept;
  /// update(I || u32str(q) || u16str(d)): the 22-byte prefix of the keyed hashes of RFC 8554.
  void update_prefix(const std::uint8_t* I, std::uint32_t q, std::uint16_t d) noexcept;
  void final(std::uint8_t* out, std::size_t n) noexcept;

 private:
  HashFamily f_;
  hash::Sha256 s_;
  hash::Shake256 k_;
};

/// One-block hashes H(I || u32str(q) || u16str(i) || u8str(j) || tmp) with a prepared block.
class ChainHasher {
 public:
  ChainHasher(HashFamily f, std::size_t n, const std::uint8_t* I, std::uint32_t q) noexcept;
  ~ChainHasher();
  ChainHasher(const ChainHasher&) = delete;
  ChainHasher& operator=(const ChainHasher&) = delete;
  std::size_t n() const noexcept { return n_; }
  /// tmp ← H(I || q || i || j || tmp)
  void hash(std::uint16_t i, std::uint8_t j, std::uint8_t* tmp) noexcept;
  /// Chain steps j = from .. to−1 on tmp.
  void chain(std::uint16_t i, unsigned from, unsigned to, std::uint8_t* tmp) noexcept;
  /// Four chains (indices i[0..3]) of steps j = 0 .. to−1 at once (4-way SHA-256 / Keccak).
  void chain_x4(const std::uint16_t i[4], unsigned to, std::uint8_t* const tmp[4]) noexcept;

 private:
  HashFamily f_;
  std::size_t n_;
  alignas(16) std::uint8_t blk_[64];
  hash::detail::Sha256CompressFn c_ = nullptr;
};

unsigned coef(const std::uint8_t* S, unsigned i, unsigned w) noexcept;
std::uint16_t cksm(const LmotsParams& p, const std::uint8_t* Q) noexcept;
void ots_public_key(const LmotsParams& p, const std::uint8_t* I, std::uint32_t q, const std::uint8_t* seed,
                    std::uint8_t* K) noexcept;
void ots_sign(const LmotsParams& p, const std::uint8_t* I, std::uint32_t q, const std::uint8_t* seed,
              byte_span message, std::uint8_t* sig, const std::uint8_t* given_C = nullptr) noexcept;
bool ots_candidate(const LmotsParams& p, const std::uint8_t* I, std::uint32_t q, byte_span message,
                   byte_span sig, std::uint8_t* Kc) noexcept;

/// One LMS tree (I, SEED) with its nodes: the upper part (heights ≥ k) and one bottom subtree.
struct Tree {
  Level lv;
  std::array<std::uint8_t, kIdBytes> I{};
  SecretBytes seed;
  unsigned k = 0;
  std::vector<std::uint8_t> top;  // global nodes r < 2^(h−k+1), r·m
  std::vector<std::uint8_t> sub;  // the cached subtree, local heap order
  std::int64_t sub_index = -1;
  bytes pub;                      // LMS public key

  void build(unsigned threads);
  /// The upper part as a cache file body (public data): "PQLMST1" || u32 lms || u32 ots || I ||
  /// u32 k || top || SHA-256 of all before. load_top() accepts only a body for this tree's
  /// parameters and I with a correct checksum, and sets top, k and pub (no subtree cached).
  bytes save_top() const;
  bool load_top(byte_span body);
  void set_pub();
  void build_subtree(std::uint64_t s, unsigned threads);
  const std::uint8_t* node(std::uint64_t r, unsigned threads);
  /// given_C: the LM-OTS randomizer to use instead of the derived one (known-answer tests only).
  bytes sign(std::uint32_t q, byte_span message, unsigned threads, const std::uint8_t* given_C = nullptr);
};

/// Small whole-file helpers for the tree cache (public data; empty on any error).
bytes read_small_file(const std::string& path);
bool write_small_file(const std::string& path, byte_span data);

void derive_child(const Tree& parent, std::uint32_t q, std::uint8_t* child_I, std::uint8_t* child_seed) noexcept;

}  // namespace pqsig::lms::detail
