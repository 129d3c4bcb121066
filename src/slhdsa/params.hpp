// SLH-DSA parameter sets (FIPS 205 Table 2) as constexpr structs, plus the derived sizes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "pqsig/slhdsa.hpp"

namespace pqsig::slhdsa::detail {

enum class Family { sha2, shake };

/// Inline wipe of a small stack buffer in the hot hash paths (secure_zero is out of line):
/// the empty asm with a memory clobber keeps the compiler from eliding the stores.
inline void wipe(void* p, std::size_t len) noexcept {
  std::memset(p, 0, len);
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

template <ParamSet Id, Family Fam, std::size_t N, std::size_t H, std::size_t D, std::size_t HP, std::size_t A,
          std::size_t K, std::size_t M>
struct Params {
  static constexpr ParamSet id = Id;
  static constexpr Family family = Fam;
  static constexpr std::size_t n = N, h = H, d = D, hp = HP, a = A, k = K, m = M;
  static constexpr std::size_t lg_w = 4;
  static constexpr std::size_t w = std::size_t{1} << lg_w;
  // FIPS 205 §5 (Equations 5.1–5.4): len1 = 8n/lg_w, len2 = floor(log2(len1 (w-1)) / lg_w) + 1.
  static constexpr std::size_t len1 = (8 * n + lg_w - 1) / lg_w;
  static constexpr std::size_t len2 = 3;  // FIPS 205 Algorithm 1 (gen_len2) for lg_w = 4, n ≤ 32
  static constexpr std::size_t len = len1 + len2;
  // FIPS 205 §11.2: categories 3 and 5 of the SHA2 family use SHA-512 for H, T_l, H_msg, PRF_msg.
  static constexpr bool sha512 = (n > 16);
  // Signature layout (FIPS 205 Figure 17): R | SIG_FORS (k (1 + a) n) | SIG_HT ((h + d len) n).
  static constexpr std::size_t fors_sig_bytes = k * (1 + a) * n;
  static constexpr std::size_t xmss_sig_bytes = (hp + len) * n;
  static constexpr std::size_t ht_sig_bytes = d * xmss_sig_bytes;
  static constexpr std::size_t sig_bytes = n + fors_sig_bytes + ht_sig_bytes;
  static constexpr std::size_t pk_bytes = 2 * n;
  static constexpr std::size_t sk_bytes = 4 * n;
  // FIPS 205 Algorithm 19 lines 7–10: digest split.
  static constexpr std::size_t md_bytes = (k * a + 7) / 8;
  static constexpr std::size_t tree_bits = h - hp;
  static constexpr std::size_t tree_bytes = (tree_bits + 7) / 8;
  static constexpr std::size_t leaf_bytes = (hp + 7) / 8;

  static_assert(h == d * hp, "h = d h'");
  static_assert(m == md_bytes + tree_bytes + leaf_bytes, "m matches FIPS 205 Table 2");
  static_assert(tree_bits <= 64 && hp <= 32 && a <= 31);
};

using P_sha2_128s = Params<ParamSet::sha2_128s, Family::sha2, 16, 63, 7, 9, 12, 14, 30>;
using P_sha2_128f = Params<ParamSet::sha2_128f, Family::sha2, 16, 66, 22, 3, 6, 33, 34>;
using P_sha2_192s = Params<ParamSet::sha2_192s, Family::sha2, 24, 63, 7, 9, 14, 17, 39>;
using P_sha2_192f = Params<ParamSet::sha2_192f, Family::sha2, 24, 66, 22, 3, 8, 33, 42>;
using P_sha2_256s = Params<ParamSet::sha2_256s, Family::sha2, 32, 64, 8, 8, 14, 22, 47>;
using P_sha2_256f = Params<ParamSet::sha2_256f, Family::sha2, 32, 68, 17, 4, 9, 35, 49>;
using P_shake_128s = Params<ParamSet::shake_128s, Family::shake, 16, 63, 7, 9, 12, 14, 30>;
using P_shake_128f = Params<ParamSet::shake_128f, Family::shake, 16, 66, 22, 3, 6, 33, 34>;
using P_shake_192s = Params<ParamSet::shake_192s, Family::shake, 24, 63, 7, 9, 14, 17, 39>;
using P_shake_192f = Params<ParamSet::shake_192f, Family::shake, 24, 66, 22, 3, 8, 33, 42>;
using P_shake_256s = Params<ParamSet::shake_256s, Family::shake, 32, 64, 8, 8, 14, 22, 47>;
using P_shake_256f = Params<ParamSet::shake_256f, Family::shake, 32, 68, 17, 4, 9, 35, 49>;

// FIPS 205 Table 2 signature sizes.
static_assert(P_sha2_128s::sig_bytes == 7856 && P_sha2_128f::sig_bytes == 17088);
static_assert(P_sha2_192s::sig_bytes == 16224 && P_sha2_192f::sig_bytes == 35664);
static_assert(P_sha2_256s::sig_bytes == 29792 && P_sha2_256f::sig_bytes == 49856);
static_assert(P_sha2_128s::len == 35 && P_sha2_192s::len == 51 && P_sha2_256s::len == 67);

/// M' of the internal functions as up to four pieces, so that the external interfaces never
/// copy the (possibly large) message: 0x00 || |ctx| || ctx || M, or 0x01 || |ctx| || ctx || OID || PH(M).
struct Msg {
  byte_span part[4]{};
  std::size_t count = 0;
};

/// Type-erased entry points of one instantiated parameter set (sizes checked by the caller).
struct Ops {
  // FIPS 205, Algorithm 18
  void (*keygen_internal)(const std::uint8_t* sk_seed, const std::uint8_t* sk_prf, const std::uint8_t* pk_seed,
                          std::uint8_t* sk, std::uint8_t* pk);
  // FIPS 205, Algorithm 19
  void (*sign_internal)(const Msg& m, const std::uint8_t* sk, const std::uint8_t* addrnd, std::uint8_t* sig);
  // FIPS 205, Algorithm 20 (signature length already checked)
  bool (*verify_internal)(const Msg& m, const std::uint8_t* sig, const std::uint8_t* pk);
};

const Ops& sha2_ops(ParamSet p) noexcept;   // slhdsa_sha2.cpp
const Ops& shake_ops(ParamSet p) noexcept;  // slhdsa_shake.cpp

}  // namespace pqsig::slhdsa::detail
