// ML-DSA (FIPS 204): one implementation, instantiated per parameter set (Impl<kMLDSA44/65/87>).
//
// Constant-time discipline: secret data (ξ, ρ′, K, s1, s2, t0, rnd, ρ″, y, w, c·s, hints before
// acceptance) never reaches a branch, a memory index or a division. Declassified values, each
// with its reason at the CT_DECLASSIFY site: ρ (part of pk), the accept bit of each RejBoundedPoly
// candidate (scalar and AVX2 samplers, poly.cpp / poly_avx2.cpp), c̃ of each attempt, the
// reject bit of each checked polynomial in the signing loop (early abort, as the Dilithium
// reference code does), the accepted (z, h) (published in σ), and the validity bit of an
// imported secret key. Vector backends (poly_avx2.cpp, rounding_avx2.cpp) follow the same rules
// and are covered by tests/ct_mldsa.
//
// No heap allocation: all state lives in fixed-size work structs on the stack, wiped on return.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstddef>
#include <cstring>
#include <thread>
#include <type_traits>

#include "common/aligned_new.hpp"
#include "common/ct.hpp"
#include "mldsa/poly.hpp"
#include "mldsa/rounding.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/mldsa.hpp"

namespace pqsig::mldsa {
namespace detail {
namespace {

using hash::Shake128;
using hash::ShakeX8;
using hash::Shake256;
using std::int32_t;
using std::int64_t;
using std::size_t;
using std::uint32_t;
using std::uint64_t;
using std::uint8_t;

constexpr int bitlen(uint32_t x) {
  int n = 0;
  while (x) {
    ++n;
    x >>= 1;
  }
  return n;
}

// ---- FIPS 204, Algorithms 16–19: SimpleBitPack / BitPack / SimpleBitUnpack / BitUnpack
// (bits little-endian within bytes, coefficient 0 first). `map` converts coefficient ↔ field value.
// Coefficients go in groups of G, the smallest count whose G·BITS bits are whole bytes; a group
// is assembled in one 64-bit (or 128-bit) integer and moved with one memcpy.
constexpr int pack_group(int bits) {
  int g = 1;
  while ((g * bits) % 8 != 0) ++g;
  return g;
}
template <int BITS>
using PackWord = std::conditional_t<(pack_group(BITS) * BITS <= 64), uint64_t, unsigned __int128>;

// The N (≤ 8) low bytes of v, little-endian, as stores of exactly 8/4/2/1 bytes from the register
// (copying a prefix of a wider stack variable reloads across its halves and stalls forwarding).
template <int N>
inline void store_le(uint8_t* out, uint64_t v) noexcept {
  static_assert(N >= 0 && N <= 8);
  if constexpr (N == 8) {
    std::memcpy(out, &v, 8);
  } else {
    int off = 0;
    if constexpr ((N & 4) != 0) {
      const uint32_t w = static_cast<uint32_t>(v);
      std::memcpy(out, &w, 4);
      off = 4;
    }
    if constexpr ((N & 2) != 0) {
      const uint16_t w = static_cast<uint16_t>(v >> (8 * off));
      std::memcpy(out + off, &w, 2);
      off += 2;
    }
    if constexpr ((N & 1) != 0) out[off] = static_cast<uint8_t>(v >> (8 * off));
  }
}
template <int BITS, class F>
inline void BitPack(uint8_t* out, const Poly& p, F map) noexcept {
  constexpr int G = pack_group(BITS), kBytes = G * BITS / 8;
  using W = PackWord<BITS>;
  for (int i = 0; i < kN; i += G, out += kBytes) {
    W acc = 0;
    for (int k = 0; k < G; ++k) acc |= static_cast<W>(static_cast<uint32_t>(map(p.c[i + k]))) << (k * BITS);
    if constexpr (kBytes > 8) {  // little-endian (x86-64, see keccak.cpp)
      store_le<8>(out, static_cast<uint64_t>(acc));
      store_le<kBytes - 8>(out + 8, static_cast<uint64_t>(acc >> 64));
    } else {
      store_le<kBytes>(out, static_cast<uint64_t>(acc));
    }
  }
}
// N little-endian bytes (N ≤ 8) assembled in a register from loads of exactly 8/4/2/1 bytes:
// a short memcpy into a zeroed wider variable is a partial store followed by a wide load, which
// stalls store-to-load forwarding on every group.
template <int N>
inline uint64_t load_le(const uint8_t* in) noexcept {
  static_assert(N >= 0 && N <= 8);
  uint64_t v = 0;
  int off = 0;
  if constexpr (N >= 8) {
    std::memcpy(&v, in, 8);
    off = 8;
  }
  if constexpr ((N & 4) != 0 && N < 8) {
    uint32_t w;
    std::memcpy(&w, in + off, 4);
    v |= static_cast<uint64_t>(w) << (8 * off);
    off += 4;
  }
  if constexpr ((N & 2) != 0 && N < 8) {
    uint16_t w;
    std::memcpy(&w, in + off, 2);
    v |= static_cast<uint64_t>(w) << (8 * off);
    off += 2;
  }
  if constexpr ((N & 1) != 0 && N < 8) v |= static_cast<uint64_t>(in[off]) << (8 * off);
  return v;
}
template <int BITS, class F>
inline void BitUnpack(const uint8_t* in, Poly& p, F map) noexcept {
  constexpr int G = pack_group(BITS), kBytes = G * BITS / 8;
  using W = PackWord<BITS>;
  constexpr W kMask = (W{1} << BITS) - 1;
  for (int i = 0; i < kN; i += G, in += kBytes) {
    W acc;
    if constexpr (kBytes > 8) acc = (static_cast<W>(load_le<kBytes - 8>(in + 8)) << 64) | load_le<8>(in);
    else acc = load_le<kBytes>(in);
    for (int k = 0; k < G; ++k) p.c[i + k] = map(static_cast<uint32_t>((acc >> (k * BITS)) & kMask));
  }
}
static_assert(kN % pack_group(13) == 0 && kN % pack_group(18) == 0 && kN % pack_group(3) == 0);

template <const Params& P>
struct Impl {
  static constexpr int K = P.k, L = P.l, ETA = P.eta, TAU = P.tau, BETA = P.beta, OMEGA = P.omega;
  static constexpr int32_t G1 = P.gamma1, G2 = P.gamma2;
  static constexpr int kEtaBits = bitlen(2 * ETA);
  static constexpr int kZBits = 1 + bitlen(static_cast<uint32_t>(G1 - 1));
  static constexpr int kW1Bits = bitlen(static_cast<uint32_t>((Q - 1) / (2 * G2) - 1));
  static constexpr size_t kCtilde = static_cast<size_t>(P.lambda) / 4;
  static constexpr size_t kPolyEta = 32 * kEtaBits, kPolyT0 = 32 * kD, kPolyT1 = 32 * 10;
  static constexpr size_t kPolyZ = 32 * kZBits, kPolyW1 = 32 * kW1Bits;
  static constexpr size_t kPk = 32 + K * kPolyT1;
  static constexpr size_t kSk = 128 + (K + L) * kPolyEta + K * kPolyT0;
  static constexpr size_t kSig = kCtilde + L * kPolyZ + OMEGA + K;
  static_assert(kPk == P.pk_bytes && kSk == P.sk_bytes && kSig == P.sig_bytes, "sizes vs FIPS 204 Table 2");
  static_assert(P.beta == P.tau * P.eta);
  using Rnd = Rounding<G2>;

  // ------------------------------------------------------------------ sampling (§7.3)

  // FIPS 204, Algorithm 32: ExpandA(ρ) → Â, entries sampled eight at a time (hash::ShakeX8: one
  // 8-way permutation per block with AVX-512F, two 4-way ones otherwise). With `pk`, the last
  // lane of the first runs computes tr = H(pk, 64) (Algorithm 8 line 6) instead, absorbing one
  // block of pk per permutation of the run: its permutations ride on ExpandA's instead of
  // running one after another. ρ, Â, pk and tr are public.
  static void ExpandA(Poly (&A)[K][L], const uint8_t rho[32], const uint8_t* pk = nullptr,
                      uint8_t* tr = nullptr) noexcept {
    constexpr int kTotal = K * L;
    constexpr int kLanes = ShakeX8::kLanes, kH = kLanes - 1;
    constexpr size_t kBlocks = 5;  // 840 bytes = 280 candidates, enough for 256 with high probability
    constexpr size_t kHRate = hash::kShake256Rate;
    constexpr size_t kHBlocks = (kPk + kHRate) / kHRate;  // pk and its padding (at least one byte)
    static_assert(kHBlocks % kBlocks == 0, "H(pk) ends with a run of ExpandA (true for all three sets)");
    alignas(32) uint8_t buf[kLanes][kBlocks * hash::kShake128Rate];
    alignas(32) uint8_t hbuf[kBlocks * kHRate];  // lane kH's output blocks during its last run
    // The runs before the last absorb whole blocks of pk in place; the last run's blocks are the
    // rest of pk ‖ SHAKE256 padding (FIPS 202 §6.2, pad10*1 with suffix 1111).
    constexpr size_t kTail = (kHBlocks - kBlocks) * kHRate;
    static_assert(kTail <= kPk && kPk < kHBlocks * kHRate);
    alignas(32) uint8_t htail[kBlocks * kHRate];
    size_t hb = 0;  // H blocks absorbed
    ShakeX8 x(false);  // all inputs public: no wipe
    if (pk) {
      std::memcpy(htail, pk + kTail, kPk - kTail);
      std::memset(htail + (kPk - kTail), 0, sizeof htail - (kPk - kTail));
      htail[kPk - kTail] = 0x1F;
      htail[sizeof htail - 1] |= 0x80;
      x.start_long(kH, kHRate);
    }
    uint8_t in[34];
    std::memcpy(in, rho, 32);
    for (int e = 0; e < kTotal;) {
      const bool hashing = pk && hb < kHBlocks;
      const int width = hashing ? kLanes - 1 : kLanes;
      const int n = kTotal - e < width ? kTotal - e : width;
      int32_t* dst[kLanes];
      uint8_t* outs[kLanes] = {};
      int ctr[kLanes];
      for (int j = 0; j < n; ++j) {
        const int r = (e + j) / L, c = (e + j) % L;
        in[32] = static_cast<uint8_t>(c);  // ρ ‖ IntegerToBytes(s, 1) ‖ IntegerToBytes(r, 1)
        in[33] = static_cast<uint8_t>(r);
        x.absorb_once(j, hash::kShake128Rate, in, 34);
        outs[j] = buf[j];
        dst[j] = A[r][c].c;
      }
      for (int j = n; j < width; ++j) x.retire(j);
      if (!hashing) {
        x.squeeze_blocks(outs, kBlocks);
      } else {
        const bool last = hb + kBlocks == kHBlocks;
        if (last) outs[kH] = hbuf;
        x.squeeze_blocks_absorbing(outs, kBlocks, kH, last ? htail : pk + kHRate * hb);
        hb += kBlocks;
        if (last) std::memcpy(tr, hbuf + (kBlocks - 1) * kHRate, 64);  // the block after the last absorb
      }
      bool more = false;
      for (int j = 0; j < n; ++j) {
        ctr[j] = poly_backend().rej_ntt_poly(dst[j], 0, buf[j], sizeof buf[j]);
        more |= ctr[j] < kN;
      }
      if (more) {  // rare: more blocks for the unfinished entries, with lane kH stepped out
        std::uint64_t keep[25];
        if (hashing) x.save_lane(kH, keep);
        while (more) {
          for (int j = 0; j < kLanes; ++j) outs[j] = j < n && ctr[j] < kN ? buf[j] : nullptr;
          x.squeeze_blocks(outs, 1);
          more = false;
          for (int j = 0; j < n; ++j) {
            if (ctr[j] < kN) ctr[j] = poly_backend().rej_ntt_poly(dst[j], ctr[j], buf[j], hash::kShake128Rate);
            more |= ctr[j] < kN;
          }
        }
        if (hashing) x.load_lane(kH, keep);
      }
      e += n;
    }
  }

  // FIPS 204, Algorithm 33: ExpandS(ρ′) → (s1, s2), polynomials sampled eight at a time.
  static void ExpandS(Poly (&s1)[L], Poly (&s2)[K], const uint8_t rhop[64]) noexcept {
    constexpr int kTotal = K + L;
    constexpr size_t kBlocks = 2;
    uint8_t in[66];
    alignas(32) uint8_t buf[8][kBlocks * hash::kShake256Rate];
    std::memcpy(in, rhop, 64);
    auto target = [&](int r) -> int32_t* { return r < L ? s1[r].c : s2[r - L].c; };
    for (int e = 0; e < kTotal; e += 8) {
      const int n = kTotal - e < 8 ? kTotal - e : 8;
      ShakeX8 x;
      uint8_t* outs[8] = {};
      int ctr[8];
      for (int j = 0; j < n; ++j) {
        in[64] = static_cast<uint8_t>(e + j);  // IntegerToBytes(r, 2)
        in[65] = 0;
        x.absorb_once(j, hash::kShake256Rate, in, 66);
        outs[j] = buf[j];
      }
      x.squeeze_blocks(outs, kBlocks);
      bool more = false;
      for (int j = 0; j < n; ++j) {
        ctr[j] = poly_backend().rej_bounded_poly(ETA, target(e + j), 0, buf[j], sizeof buf[j]);
        more |= ctr[j] < kN;
      }
      while (more) {
        for (int j = 0; j < n; ++j) outs[j] = ctr[j] < kN ? buf[j] : nullptr;
        x.squeeze_blocks(outs, 1);
        more = false;
        for (int j = 0; j < n; ++j) {
          if (ctr[j] < kN) ctr[j] = poly_backend().rej_bounded_poly(ETA, target(e + j), ctr[j], buf[j], hash::kShake256Rate);
          more |= ctr[j] < kN;
        }
      }
    }
    secure_zero(in, sizeof in);
    secure_zero(buf, sizeof buf);
  }

  // FIPS 204, Algorithm 34: ExpandMask(ρ″, κ) → y, with BitUnpack(·, γ1 − 1, γ1), all L ≤ 7
  // polynomials at once on the eight-lane SHAKE256.
  static void ExpandMask(Poly (&y)[L], const uint8_t rhopp[64], int kappa) noexcept {
    static_assert(L <= ShakeX8::kLanes);
    constexpr size_t kBytes = 32 * kZBits;
    constexpr size_t kBlocks = (kBytes + hash::kShake256Rate - 1) / hash::kShake256Rate;
    uint8_t in[66];
    alignas(32) uint8_t buf[L][kBlocks * hash::kShake256Rate];
    std::memcpy(in, rhopp, 64);
    ShakeX8 x;
    uint8_t* outs[8] = {};
    for (int r = 0; r < L; ++r) {
      in[64] = static_cast<uint8_t>(kappa + r);  // IntegerToBytes(κ + r, 2)
      in[65] = static_cast<uint8_t>((kappa + r) >> 8);
      x.absorb_once(r, hash::kShake256Rate, in, 66);
      outs[r] = buf[r];
    }
    x.squeeze_blocks(outs, kBlocks);
    static_assert(sizeof buf[0] >= kBytes + 8, "unpack_mask reads 8 bytes past the field bytes");
    for (int r = 0; r < L; ++r) be().unpack_mask(y[r].c, buf[r], kZBits);  // BitUnpack(·, γ1 − 1, γ1)
    secure_zero(in, sizeof in);
    secure_zero(buf, sizeof buf);
  }

  // ExpandMask(ρ″, κ) and ExpandMask(ρ″, κ + ℓ) (the masks of this attempt and of the next) at
  // once, for ℓ = 5 without the 8-way backend: one attempt's five lanes cost two 4-way runs (the
  // second for a single lane), two attempts' ten cost three. The next attempt's mask is secret
  // like this one's and is wiped with the signing work (unused if this attempt is accepted).
  static constexpr bool kPairMask = L == 5;
  static constexpr int kNextMask = kPairMask ? L : 1;  // SignWork::ynext (unused, one poly, otherwise)
  static void ExpandMask2(Poly (&y)[L], Poly (&ynext)[kNextMask], const uint8_t rhopp[64], int kappa) noexcept {
    static_assert(kPairMask);
    constexpr size_t kBytes = 32 * kZBits;
    constexpr size_t kBlocks = (kBytes + hash::kShake256Rate - 1) / hash::kShake256Rate;
    constexpr int kTotal = 2 * L;
    uint8_t in[66];
    alignas(32) uint8_t buf[ShakeX8::kLanes][kBlocks * hash::kShake256Rate];
    std::memcpy(in, rhopp, 64);
    static_assert(sizeof buf[0] >= kBytes + 8, "unpack_mask reads 8 bytes past the field bytes");
    for (int e = 0; e < kTotal; e += ShakeX8::kLanes) {
      const int n = kTotal - e < ShakeX8::kLanes ? kTotal - e : ShakeX8::kLanes;
      ShakeX8 x;
      uint8_t* outs[ShakeX8::kLanes] = {};
      for (int j = 0; j < n; ++j) {
        const int nonce = kappa + e + j;  // IntegerToBytes(κ + r, 2)
        in[64] = static_cast<uint8_t>(nonce);
        in[65] = static_cast<uint8_t>(nonce >> 8);
        x.absorb_once(j, hash::kShake256Rate, in, 66);
        outs[j] = buf[j];
      }
      x.squeeze_blocks(outs, kBlocks);
      for (int j = 0; j < n; ++j) {
        const int r = e + j;
        be().unpack_mask((r < L ? y[r] : ynext[r - L]).c, buf[j], kZBits);  // BitUnpack(·, γ1 − 1, γ1)
      }
    }
    secure_zero(in, sizeof in);
    secure_zero(buf, sizeof buf);
  }

  // FIPS 204, Algorithm 29: SampleInBall(ρ) with ρ = c̃ (public: declassified by the caller).
  static void SampleInBall(Poly& c, const uint8_t* ctilde) noexcept {
    Shake256 h;
    h.absorb(ctilde, kCtilde);
    uint8_t buf[hash::kShake256Rate];
    h.squeeze(buf, sizeof buf);
    uint64_t signs = 0;
    for (int i = 0; i < 8; ++i) signs |= static_cast<uint64_t>(buf[i]) << (8 * i);
    size_t pos = 8;
    std::memset(c.c, 0, sizeof c.c);
    for (int i = kN - TAU; i < kN; ++i) {
      uint32_t j;
      do {
        if (pos == sizeof buf) {
          h.squeeze(buf, sizeof buf);
          pos = 0;
        }
        j = buf[pos++];
      } while (j > static_cast<uint32_t>(i));
      c.c[i] = c.c[j];
      c.c[j] = 1 - 2 * static_cast<int32_t>(signs & 1);
      signs >>= 1;
    }
  }

  // ------------------------------------------------------------------ encodings (§7.2)

  // FIPS 204, Algorithm 22: pkEncode(ρ, t1).
  static void pkEncode(uint8_t* pk, const uint8_t rho[32], const Poly (&t1)[K]) noexcept {
    std::memcpy(pk, rho, 32);
    for (int i = 0; i < K; ++i) BitPack<10>(pk + 32 + i * kPolyT1, t1[i], [](int32_t v) { return v; });
  }
  // FIPS 204, Algorithm 23: pkDecode(pk).
  static void pkDecode(const uint8_t* pk, uint8_t rho[32], Poly (&t1)[K]) noexcept {
    std::memcpy(rho, pk, 32);
    for (int i = 0; i < K; ++i)
      BitUnpack<10>(pk + 32 + i * kPolyT1, t1[i], [](uint32_t v) { return static_cast<int32_t>(v); });
  }
  // FIPS 204, Algorithm 24: skEncode(ρ, K, tr, s1, s2, t0).
  static void skEncode(uint8_t* sk, const uint8_t rho[32], const uint8_t key[32], const uint8_t tr[64],
                        const Poly (&s1)[L], const Poly (&s2)[K], const Poly (&t0)[K]) noexcept {
    std::memcpy(sk, rho, 32);
    std::memcpy(sk + 32, key, 32);
    std::memcpy(sk + 64, tr, 64);
    uint8_t* p = sk + 128;
    auto eta = [](int32_t v) { return ETA - v; };  // BitPack(s, η, η)
    for (int i = 0; i < L; ++i, p += kPolyEta) BitPack<kEtaBits>(p, s1[i], eta);
    for (int i = 0; i < K; ++i, p += kPolyEta) BitPack<kEtaBits>(p, s2[i], eta);
    for (int i = 0; i < K; ++i, p += kPolyT0)  // BitPack(t0, 2^(d−1) − 1, 2^(d−1))
      BitPack<kD>(p, t0[i], [](int32_t v) { return (1 << (kD - 1)) - v; });
  }
  // FIPS 204, Algorithm 25: skDecode(sk). Returns 0 if every s1/s2 coefficient is in [−η, η]
  // (a valid encoding), nonzero otherwise; constant time (the caller declassifies the result).
  static uint32_t skDecode(const uint8_t* sk, uint8_t rho[32], uint8_t key[32], uint8_t tr[64], Poly (&s1)[L],
                            Poly (&s2)[K], Poly (&t0)[K]) noexcept {
    std::memcpy(rho, sk, 32);
    std::memcpy(key, sk + 32, 32);
    std::memcpy(tr, sk + 64, 64);
    // Declassified: ρ is the public seed of Â (it is also the first 32 bytes of pk).
    CT_DECLASSIFY(rho, 32);
    // BitUnpack(s, η, η) / BitUnpack(t0, 2^12 − 1, 2^12) on the poly backend (AVX2 or scalar).
    static_assert(kPolyEta == (ETA == 2 ? 96 : 128) && kPolyT0 == 416);
    uint32_t bad = 0;
    const uint8_t* p = sk + 128;
    for (int i = 0; i < L; ++i, p += kPolyEta) bad |= be().unpack_eta(ETA, s1[i].c, p);
    for (int i = 0; i < K; ++i, p += kPolyEta) bad |= be().unpack_eta(ETA, s2[i].c, p);
    for (int i = 0; i < K; ++i, p += kPolyT0) be().unpack_t0(t0[i].c, p);
    return bad;
  }
  // FIPS 204, Algorithm 28: w1Encode(w1) (one polynomial, w1 = HighBits already taken).
  static void w1Encode(uint8_t* out, const Poly& w1) noexcept {
    BitPack<kW1Bits>(out, w1, [](int32_t v) { return v; });
  }
  // FIPS 204, Algorithm 20: HintBitPack(h) (h public: the accepted hint).
  static void HintBitPack(uint8_t* y, const Poly (&h)[K]) noexcept {
    std::memset(y, 0, OMEGA + K);
    int index = 0;
    for (int i = 0; i < K; ++i) {
      for (int j = 0; j < kN; j += 8) {  // at most ω of K·256 are set: skip empty runs of eight
        int32_t any = 0;
        for (int k = 0; k < 8; ++k) any |= h[i].c[j + k];
        if (any == 0) continue;
        for (int k = 0; k < 8; ++k)
          if (h[i].c[j + k] != 0) y[index++] = static_cast<uint8_t>(j + k);
      }
      y[OMEGA + i] = static_cast<uint8_t>(index);
    }
  }
  // FIPS 204, Algorithm 21: HintBitUnpack(y). False (⊥) on any malformed encoding: counts
  // decreasing or > ω, indices not strictly increasing within a polynomial, unused bytes nonzero.
  static bool HintBitUnpack(const uint8_t* y, Poly (&h)[K]) noexcept {
    for (auto& p : h) std::memset(p.c, 0, sizeof p.c);
    int index = 0;
    for (int i = 0; i < K; ++i) {
      const int end = y[OMEGA + i];
      if (end < index || end > OMEGA) return false;
      const int first = index;
      while (index < end) {
        if (index > first && y[index - 1] >= y[index]) return false;
        h[i].c[y[index]] = 1;
        ++index;
      }
    }
    for (int i = index; i < OMEGA; ++i)
      if (y[i] != 0) return false;
    return true;
  }
  // FIPS 204, Algorithm 26: sigEncode(c̃, z mod± q, h) (z centered).
  static void sigEncode(uint8_t* sig, const uint8_t* ctilde, const Poly (&z)[L], const Poly (&h)[K]) noexcept {
    std::memcpy(sig, ctilde, kCtilde);
    uint8_t* p = sig + kCtilde;
    for (int i = 0; i < L; ++i, p += kPolyZ) BitPack<kZBits>(p, z[i], [](int32_t v) { return G1 - v; });
    HintBitPack(p, h);
  }
  // FIPS 204, Algorithm 27: sigDecode(σ). False if the hint encoding is malformed.
  static bool sigDecode(const uint8_t* sig, uint8_t* ctilde, Poly (&z)[L], Poly (&h)[K]) noexcept {
    std::memcpy(ctilde, sig, kCtilde);
    const uint8_t* p = sig + kCtilde;
    for (int i = 0; i < L; ++i, p += kPolyZ)
      BitUnpack<kZBits>(p, z[i], [](uint32_t v) { return G1 - static_cast<int32_t>(v); });
    return HintBitUnpack(p, h);
  }

  // ------------------------------------------------------------------ helpers

  static const PolyBackend& be() noexcept { return poly_backend(); }
  static const RoundBackend& rb() noexcept { return round_backend<G2>(); }

  // t = NTT^-1(Â ∘ ŝ1) + s2 in [0, q) (shared by KeyGen and the secret-key check).
  static void ComputeT(Poly (&t)[K], const Poly (&A)[K][L], const Poly (&s1hat)[L], const Poly (&s2)[K]) noexcept {
    for (int i = 0; i < K; ++i) {
      be().pointwise_acc(t[i].c, A[i], s1hat, L);
      be().invntt(t[i].c);
      for (int j = 0; j < kN; ++j) t[i].c[j] = freeze(t[i].c[j] + s2[i].c[j]);
    }
  }

  // ------------------------------------------------------------------ KeyGen

  /// A decoded secret key ready for signing: NTT(s1), NTT(s2), NTT(t0), K, tr (FIPS 204
  /// Algorithm 7 lines 1–4) and Â (line 5). Kept on the stack by sign(), or in a
  /// PreparedSigningKey. Â is public and sits last: wipe_secret() clears the fields before it.
  /// s2 and t0 are stored as decoded and taken to the NTT domain by the first signature
  /// (CompleteSecret, once per state, thread-safe): generating or importing a key that is never
  /// used to sign does not pay for their 2k NTTs.
  struct SecretState : ::pqsig::detail::MallocAligned {
    Poly s1[L];                 // NTT domain
    mutable Poly s2[K], t0[K];  // normal domain until ntt_state == kNttDone, then NTT domain
    uint8_t rho[32], key[32], tr[64];
    mutable std::atomic<int> ntt_state{kNttPending};
    Poly A[K][L];
  };
  static constexpr int kNttPending = 0, kNttBusy = 1, kNttDone = 2;
  // FIPS 204, Algorithm 7 lines 2–3 for s2 and t0: NTT(s2), NTT(t0), run by the first caller;
  // concurrent callers wait for it (a few microseconds, once per key).
  static void CompleteSecret(const SecretState& s) noexcept {
    if (s.ntt_state.load(std::memory_order_acquire) == kNttDone) return;
    int expected = kNttPending;
    if (s.ntt_state.compare_exchange_strong(expected, kNttBusy, std::memory_order_acq_rel)) {
      for (int i = 0; i < K; ++i) {
        be().ntt(s.s2[i].c);
        be().ntt(s.t0[i].c);
      }
      s.ntt_state.store(kNttDone, std::memory_order_release);
      return;
    }
    while (s.ntt_state.load(std::memory_order_acquire) != kNttDone) std::this_thread::yield();
  }
  static void wipe_secret(SecretState& s) noexcept { secure_zero(&s, offsetof(SecretState, A)); }
  struct SecretWipe {
    SecretState& s;
    ~SecretWipe() { wipe_secret(s); }
  };

  struct KeyGenWork {  // secret intermediates of KeyGen_internal (s2, t0 and tr go to the state)
    Poly s1[L], t[K];
    uint8_t seedbuf[128];  // ρ ‖ ρ′ ‖ K
  };
  struct CheckWork {  // CheckInto's recomputed t row, t1 row and tr
    Poly t, t1;
    uint8_t tr[64];
  };

  // FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(ξ). Â and NTT(s1) are left in s; with
  // `prepare` the rest of the signing state (NTT(s2), NTT(t0), ρ, K, tr) is filled in too, so a
  // prepared key needs no second skDecode / ExpandA.
  static void KeyGen_internal(const uint8_t xi[32], uint8_t* pk, uint8_t* sk, SecretState& s, bool prepare) noexcept {
    KeyGenWork w;
    ScopedWipe<KeyGenWork> wipe(w);
    {
      Shake256 h;  // (ρ, ρ′, K) = H(ξ ‖ IntegerToBytes(k, 1) ‖ IntegerToBytes(l, 1), 128)
      const uint8_t kl[2] = {static_cast<uint8_t>(K), static_cast<uint8_t>(L)};
      h.absorb(xi, 32);
      h.absorb(kl, 2);
      h.squeeze(w.seedbuf, 128);
    }
    const uint8_t* rho = w.seedbuf;
    const uint8_t* rhop = w.seedbuf + 32;
    const uint8_t* key = w.seedbuf + 96;
    // Declassified: ρ is published as the first 32 bytes of pk.
    CT_DECLASSIFY(w.seedbuf, 32);
    ExpandA(s.A, rho);
    ExpandS(w.s1, s.s2, rhop);  // s2 stays in the state as decoded (CompleteSecret takes its NTT)
    for (int i = 0; i < L; ++i) {
      s.s1[i] = w.s1[i];
      be().ntt(s.s1[i].c);
    }
    ComputeT(w.t, s.A, s.s1, s.s2);
    Poly t1[K];  // public
    for (int i = 0; i < K; ++i)
      for (int j = 0; j < kN; ++j) Power2Round(w.t[i].c[j], t1[i].c[j], s.t0[i].c[j]);
    // Declassified: t1 is published in pk.
    CT_DECLASSIFY(t1, sizeof t1);
    pkEncode(pk, rho, t1);
    ComputeTr(pk, s.tr);  // tr = H(pk, 64)
    skEncode(sk, rho, key, s.tr, w.s1, s.s2, s.t0);
    if (!prepare) return;
    // FIPS 204, Algorithm 7 lines 1–4 from the values skDecode(sk) would return: NTT(s1) is
    // in s already, s2 and t0 as decoded (NTT(s2), NTT(t0) deferred to the first signature:
    // CompleteSecret), tr in s.
    std::memcpy(s.rho, rho, 32);
    std::memcpy(s.key, key, 32);
  }
  static void KeyGen(const uint8_t xi[32], uint8_t* pk, uint8_t* sk) noexcept {
    SecretState s;
    SecretWipe wipe{s};
    KeyGen_internal(xi, pk, sk, s, false);
  }

  // Checks an expanded secret key and recomputes its public key (see mldsa.hpp: sk_check),
  // decoding it into s as PrepareSecret does (NTT(s1) and Â, s2 and t0 left for CompleteSecret):
  // the check and the prepared key share one skDecode and one ExpandA. s is wiped by the caller.
  static bool CheckInto(const uint8_t* sk, uint8_t* pk, SecretState& s) noexcept {
    CheckWork w;
    ScopedWipe<CheckWork> wipe(w);
    uint32_t bad = skDecode(sk, s.rho, s.key, s.tr, s.s1, s.s2, s.t0);
    ExpandA(s.A, s.rho);
    for (int i = 0; i < L; ++i) be().ntt(s.s1[i].c);
    // Row by row (no full t kept): t_i = NTT^-1(Â_i ∘ ŝ1) + s2_i (ComputeT), Power2Round, t0_i
    // compared with sk's, t1_i packed into pk (pkEncode) and absorbed into tr = H(pk, 64) at once.
    Shake256 h;
    std::memcpy(pk, s.rho, 32);
    h.absorb(pk, 32);
    uint32_t diff = 0;
    for (int i = 0; i < K; ++i) {
      be().pointwise_acc(w.t.c, s.A[i], s.s1, L);
      be().invntt(w.t.c);
      diff |= rb().power2round_check(w.t.c, s.s2[i].c, s.t0[i].c, w.t1.c);
      // Declassified: t1 is the public key being recomputed.
      CT_DECLASSIFY(&w.t1, sizeof w.t1);
      uint8_t* row = pk + 32 + i * kPolyT1;
      BitPack<10>(row, w.t1, [](int32_t v) { return v; });  // pkEncode (Algorithm 22), row i
      h.absorb(row, kPolyT1);
    }
    h.squeeze(w.tr, 64);
    diff |= ct::neq_mask(w.tr, s.tr, 64);
    uint32_t ok = ~ct::mask_nonzero_u32(bad | diff) & 1u;
    // Declassified: whether an imported key is well formed is not secret (it is rejected).
    CT_DECLASSIFY(&ok, sizeof ok);
    return ok != 0;
  }
  static bool CheckSecretKey(const uint8_t* sk, uint8_t* pk) noexcept {
    SecretState s;
    SecretWipe wipe_s{s};
    return CheckInto(sk, pk, s);
  }

  // ------------------------------------------------------------------ Sign

  struct SignWork {
    Poly y[L], z[L];
    Poly ynext[kNextMask];  // the next attempt's mask when computed ahead (ExpandMask2; ℓ = 5 only)
    Poly w[K], r[K], ct0[K], h[K];
    Poly c;
    uint8_t rhopp[64];
    uint8_t w1enc[K * kPolyW1];
    uint8_t ctilde[kCtilde];
  };

  // FIPS 204, Algorithm 7 lines 1–5: skDecode, NTT(s1), ExpandA (NTT(s2), NTT(t0): CompleteSecret).
  // False if the secret key encoding is invalid (s1/s2 out of range).
  static bool PrepareSecret(SecretState& s, const uint8_t* sk) noexcept {
    uint32_t bad = skDecode(sk, s.rho, s.key, s.tr, s.s1, s.s2, s.t0);
    // Declassified: whether the secret key encoding is valid is not secret (it is rejected).
    CT_DECLASSIFY(&bad, sizeof bad);
    if (bad) return false;
    for (int i = 0; i < L; ++i) be().ntt(s.s1[i].c);
    ExpandA(s.A, s.rho);
    return true;
  }

  // FIPS 204, Algorithm 7: ML-DSA.Sign_internal(sk, M′, rnd), from line 7 on (μ given).
  // Returns 1 on success, 0 if sk is malformed, −1 if the loop bound was hit.
  static int Sign_internal(const uint8_t* sk, const uint8_t mu[64], const uint8_t rnd[32], uint8_t* sig) noexcept {
    SecretState s;
    SecretWipe wipe{s};
    if (!PrepareSecret(s, sk)) return 0;
    return SignCore(s, mu, rnd, sig);
  }

  // FIPS 204, Algorithm 7 lines 7–33 on a prepared key.
  static int SignCore(const SecretState& s, const uint8_t mu[64], const uint8_t rnd[32], uint8_t* sig) noexcept {
    CompleteSecret(s);
    SignWork w;
    ScopedWipe<SignWork> wipe(w);
    {
      Shake256 h;  // ρ″ = H(K ‖ rnd ‖ μ, 64)
      h.absorb(s.key, 32);
      h.absorb(rnd, 32);
      h.absorb(mu, 64);
      h.squeeze(w.rhopp, 64);
    }
    const bool pair_mask = kPairMask && !ShakeX8::eight_way();
    bool have_next = false;
    for (int attempt = 0, kappa = 0; attempt < kMaxSignAttempts; ++attempt, kappa += L) {
      const Poly* y = w.y;  // this attempt's mask: w.y, or w.ynext when computed ahead (no copy)
      if (have_next) {
        y = w.ynext;
        have_next = false;
      } else if (pair_mask) {
        if constexpr (kPairMask) ExpandMask2(w.y, w.ynext, w.rhopp, kappa);
        have_next = true;
      } else {
        ExpandMask(w.y, w.rhopp, kappa);
      }
      // w = NTT^-1(Â ∘ NTT(y)), in [0, q)
      for (int i = 0; i < L; ++i) {
        w.z[i] = y[i];
        be().ntt(w.z[i].c);
      }
      // c̃ = H(μ ‖ w1Encode(w1), λ/4) with w1 = HighBits(w) (Algorithm 28, w1 staged in h)
      for (int i = 0; i < K; ++i) {
        be().pointwise_acc(w.w[i].c, s.A[i], w.z, L);
        be().invntt(w.w[i].c);
        rb().caddq_highbits(w.w[i].c, w.h[i].c);
        w1Encode(w.w1enc + i * kPolyW1, w.h[i]);
      }
      {
        Shake256 h;
        h.absorb(mu, 64);
        h.absorb(w.w1enc, sizeof w.w1enc);
        h.squeeze(w.ctilde, kCtilde);
      }
      // Declassified: c̃ = H(μ ‖ w1) is a function of public μ, Â and this attempt's mask y
      // only (w1 = HighBits(Â·y)), never of s1, s2 or t0; an accepted c̃ is published in σ and a
      // rejected attempt's y is discarded (Dilithium round-3 specification, §5.5).
      CT_DECLASSIFY(w.ctilde, kCtilde);
      SampleInBall(w.c, w.ctilde);
      be().ntt(w.c.c);
      // Rejection checks (Algorithm 7 lines 23–28), each polynomial checked as soon as it is
      // computed so a rejected attempt stops early. Declassified at each check: whether this
      // polynomial exceeds its bound. As in the Dilithium reference code (poly_chknorm), which
      // check and which polynomial rejects an attempt depends on that attempt's discarded mask y;
      // no coefficient value or sign is revealed, and accepted signatures are independent of it.
      uint32_t reject = 0;
      // z = y + NTT^-1(ĉ ∘ ŝ1) (centered); ‖z‖∞ ≥ γ1 − β rejects.
      for (int i = 0; i < L && !reject; ++i) {
        be().pointwise(w.z[i].c, w.c.c, s.s1[i].c);
        be().invntt(w.z[i].c);
        reject |= rb().z_finish(w.z[i].c, y[i].c, G1 - BETA);
        CT_DECLASSIFY(&reject, sizeof reject);
      }
      if (reject) continue;
      // r = w − NTT^-1(ĉ ∘ ŝ2) in [0, q); ‖LowBits(r)‖∞ ≥ γ2 − β rejects.
      for (int i = 0; i < K && !reject; ++i) {
        be().pointwise(w.r[i].c, w.c.c, s.s2[i].c);
        be().invntt(w.r[i].c);
        reject |= rb().r_finish(w.r[i].c, w.w[i].c, G2 - BETA);
        CT_DECLASSIFY(&reject, sizeof reject);
      }
      if (reject) continue;
      // ct0 = NTT^-1(ĉ ∘ t̂0) (centered); ‖ct0‖∞ ≥ γ2 or more than ω hints rejects.
      uint32_t count = 0;
      for (int i = 0; i < K; ++i) {
        be().pointwise(w.ct0[i].c, w.c.c, s.t0[i].c);
        be().invntt(w.ct0[i].c);
        count += rb().make_hints(w.h[i].c, w.ct0[i].c, w.r[i].c, &reject);  // h = MakeHint(−ct0, w − cs2 + ct0)
      }
      reject |= static_cast<uint32_t>(OMEGA - static_cast<int32_t>(count)) >> 31;
      // Declassified: the accept/reject decision of the rejection loop (FIPS 204 §3.6.3; the
      // distribution of accepted signatures is independent of the secret key).
      CT_DECLASSIFY(&reject, sizeof reject);
      if (reject) continue;
      // Declassified: the accepted z and h are published in σ.
      CT_DECLASSIFY(w.z, sizeof w.z);
      CT_DECLASSIFY(w.h, sizeof w.h);
      sigEncode(sig, w.ctilde, w.z, w.h);
      return 1;
    }
    return -1;
  }

  // ------------------------------------------------------------------ Verify

  /// A decoded public key ready for verification: Â, NTT(t1·2^d) and tr = H(pk)
  /// (FIPS 204 Algorithm 8 lines 1, 5, 6 and the t1 half of line 9).
  struct PublicState : ::pqsig::detail::MallocAligned {
    Poly A[K][L];
    Poly t1[K];  // NTT(t1 · 2^d)
    uint8_t tr[64];
  };
  struct VerifyWork {
    Poly z[L], h[K], w[K], tmp;
    Poly c;
    uint8_t ctilde[kCtilde], ctilde2[kCtilde];
    uint8_t w1enc[K * kPolyW1];
  };

  // FIPS 204, Algorithm 8 lines 1, 5, 6: pkDecode, ExpandA, tr = H(pk) (tr only with `with_tr`).
  static void PreparePublic(PublicState& p, const uint8_t* pk, bool with_tr = true) noexcept {
    uint8_t rho[32];
    pkDecode(pk, rho, p.t1);
    // tr = H(pk, 64) beside ExpandA when eight lanes cost one permutation; otherwise the lane
    // it takes would cost an extra 4-way run at the end, more than hashing pk on its own.
    if (with_tr && ShakeX8::eight_way()) {
      ExpandA(p.A, rho, pk, p.tr);
    } else {
      ExpandA(p.A, rho);
      if (with_tr) ComputeTr(pk, p.tr);
    }
    for (int i = 0; i < K; ++i) {
      for (int j = 0; j < kN; ++j) p.t1[i].c[j] <<= kD;
      be().ntt(p.t1[i].c);
    }
  }

  // FIPS 204, Algorithm 8: ML-DSA.Verify_internal(pk, M′, σ), from line 7 on (μ given).
  // 1 = valid, 0 = invalid (c̃ mismatch), −1 = malformed hint, −2 = z out of bound.
  static int Verify_internal(const uint8_t* pk, const uint8_t mu[64], const uint8_t* sig) noexcept {
    PublicState p;
    PreparePublic(p, pk, false);
    return VerifyCore(p, mu, sig);
  }

  // FIPS 204, Algorithm 8 lines 2–4 and 8–13 on a prepared key.
  static int VerifyCore(const PublicState& p, const uint8_t mu[64], const uint8_t* sig) noexcept {
    VerifyWork w;
    if (!sigDecode(sig, w.ctilde, w.z, w.h)) return -1;
    uint32_t z_out = 0;  // ‖z‖∞ ≥ γ1 − β, accumulated without an early exit (the loop vectorizes)
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < kN; ++j) z_out |= abs_ge(w.z[i].c[j], G1 - BETA);
    if (z_out) return -2;
    SampleInBall(w.c, w.ctilde);
    be().ntt(w.c.c);
    for (int i = 0; i < L; ++i) be().ntt(w.z[i].c);
    // w′Approx = NTT^-1(Â ∘ NTT(z) − NTT(c) ∘ NTT(t1 · 2^d)); w1′ = UseHint(h, w′Approx)
    for (int i = 0; i < K; ++i) {
      be().pointwise(w.tmp.c, w.c.c, p.t1[i].c);
      be().pointwise_acc(w.w[i].c, p.A[i], w.z, L);
      for (int j = 0; j < kN; ++j) w.w[i].c[j] = reduce32(w.w[i].c[j] - w.tmp.c[j]);
      be().invntt(w.w[i].c);
      rb().use_hint(w.w[i].c, w.h[i].c);
      w1Encode(w.w1enc + i * kPolyW1, w.w[i]);
    }
    Shake256 h;  // c̃′ = H(μ ‖ w1Encode(w1′), λ/4)
    h.absorb(mu, 64);
    h.absorb(w.w1enc, sizeof w.w1enc);
    h.squeeze(w.ctilde2, kCtilde);
    return std::memcmp(w.ctilde, w.ctilde2, kCtilde) == 0 ? 1 : 0;
  }

  // tr = H(pk, 64)
  static void ComputeTr(const uint8_t* pk, uint8_t tr[64]) noexcept {
    Shake256 h;
    h.absorb(pk, kPk);
    h.squeeze(tr, 64);
  }
};

using I44 = Impl<kMLDSA44>;
using I65 = Impl<kMLDSA65>;
using I87 = Impl<kMLDSA87>;

template <class F>
decltype(auto) dispatch(Level lv, F&& f) {
  switch (lv) {
    case Level::ml_dsa_44: return f(I44{});
    case Level::ml_dsa_65: return f(I65{});
    case Level::ml_dsa_87: break;
  }
  return f(I87{});
}

}  // namespace
}  // namespace detail

// ====================================================================== public API

namespace {
using detail::dispatch;

Status check_level(Level lv) {
  if (lv != Level::ml_dsa_44 && lv != Level::ml_dsa_65 && lv != Level::ml_dsa_87)
    return Error{Errc::unknown_suite, "unknown ML-DSA parameter set"};
  return {};
}
Status check_len(std::string_view what, std::size_t got, std::size_t want) {
  if (got != want)
    return Error{Errc::invalid_length, std::string(what) + " must be " + std::to_string(want) + " bytes, got " +
                                           std::to_string(got)};
  return {};
}

/// M′ of FIPS 204 Algorithm 2 line 10 / Algorithm 4 line 23 (and Algorithms 3 / 5): (0 | 1) ‖ |ctx| ‖ ctx ‖ [OID ‖ PH(M) | M], absorbed in pieces.
struct MPrime {
  std::uint8_t hdr[2];
  byte_span ctx;
  const std::uint8_t* oid = nullptr;  // 11 bytes when pre-hashing
  std::uint8_t ph[64];
  byte_span body;
};
Status format_mprime(MPrime& m, byte_span msg, const Options& opt) {
  if (opt.ctx.size() > kMaxContext)
    return Error{Errc::invalid_context, "context must be at most 255 bytes, got " + std::to_string(opt.ctx.size())};
  m.hdr[0] = opt.prehash ? 1 : 0;
  m.hdr[1] = static_cast<std::uint8_t>(opt.ctx.size());
  m.ctx = opt.ctx;
  if (opt.prehash) {
    const auto& info = hash::prehash_info(*opt.prehash);
    m.oid = info.oid_der.data();
    hash::prehash_compute(*opt.prehash, msg, mut_byte_span(m.ph, info.out_len));
    m.body = byte_span(m.ph, info.out_len);
  } else {
    m.body = msg;
  }
  return {};
}
// μ = H(tr ‖ M′, 64) (FIPS 204, Algorithm 7 line 6 / Algorithm 8 line 7)
void mu_from_tr(const std::uint8_t tr[64], const MPrime* m, byte_span raw, std::uint8_t mu[64]) {
  hash::Shake256 h;
  h.absorb(tr, 64);
  if (m) {
    h.absorb(m->hdr, 2);
    h.absorb(m->ctx);
    if (m->oid) h.absorb(m->oid, 11);
    h.absorb(m->body);
  } else {
    h.absorb(raw);
  }
  h.squeeze(mu, 64);
}

Status sign_result(int rc) {
  if (rc == 1) return {};
  if (rc == 0) return Error{Errc::invalid_encoding, "ML-DSA secret key: s1/s2 coefficient out of range"};
  return Error{Errc::internal, "ML-DSA signing loop exceeded the FIPS 204 Appendix C bound"};
}
Status verify_result(int rc) {
  switch (rc) {
    case 1: return {};
    case -1: return Error{Errc::invalid_encoding, "ML-DSA signature: malformed hint encoding"};
    case -2: return Error{Errc::verify_failed, "ML-DSA signature: z exceeds the norm bound"};
    default: return Error{Errc::verify_failed, "ML-DSA signature does not verify"};
  }
}

struct RndBuf {
  std::uint8_t b[kRndBytes];
  ~RndBuf() { secure_zero(b, sizeof b); }
};
Status choose_rnd(const Options& opt, RndBuf& r) {
  if (opt.rnd) {
    std::memcpy(r.b, opt.rnd, kRndBytes);
  } else if (opt.deterministic) {
    std::memset(r.b, 0, kRndBytes);
  } else if (!random_bytes(mut_byte_span(r.b, kRndBytes))) {
    return Error{Errc::rng_failure, "OS random source failed"};
  }
  return {};
}
}  // namespace

std::optional<Level> level_from_name(std::string_view name) noexcept {
  std::string_view n = name;
  auto ieq = [](std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
  };
  if (ieq(n, "ml-dsa-44")) return Level::ml_dsa_44;
  if (ieq(n, "ml-dsa-65")) return Level::ml_dsa_65;
  if (ieq(n, "ml-dsa-87")) return Level::ml_dsa_87;
  return std::nullopt;
}

std::string_view level_name(Level lv) noexcept {
  switch (lv) {
    case Level::ml_dsa_44: return "ML-DSA-44";
    case Level::ml_dsa_65: return "ML-DSA-65";
    case Level::ml_dsa_87: return "ML-DSA-87";
  }
  return "ML-DSA-?";
}

// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal (length checks, then Impl<P>::KeyGen_internal).
Status keygen_internal(Level lv, byte_span seed, mut_byte_span pk, mut_byte_span sk) {
  if (auto s = check_level(lv); !s) return s;
  const Params& p = params(lv);
  if (auto s = check_len("ML-DSA seed", seed.size(), kSeedBytes); !s) return s;
  if (auto s = check_len("ML-DSA public key buffer", pk.size(), p.pk_bytes); !s) return s;
  if (auto s = check_len("ML-DSA secret key buffer", sk.size(), p.sk_bytes); !s) return s;
  dispatch(lv, [&](auto impl) { decltype(impl)::KeyGen(seed.data(), pk.data(), sk.data()); });
  return {};
}

// FIPS 204, Algorithm 1: ML-DSA.KeyGen (ξ from the OS random source).
Status keygen(Level lv, mut_byte_span seed_out, mut_byte_span pk, mut_byte_span sk) {
  if (auto s = check_len("ML-DSA seed buffer", seed_out.size(), kSeedBytes); !s) return s;
  if (!random_bytes(seed_out)) return Error{Errc::rng_failure, "OS random source failed"};
  return keygen_internal(lv, seed_out, pk, sk);
}

Status sk_check(Level lv, byte_span sk, mut_byte_span pk) {
  if (auto s = check_level(lv); !s) return s;
  const Params& p = params(lv);
  if (auto s = check_len("ML-DSA secret key", sk.size(), p.sk_bytes); !s) return s;
  if (auto s = check_len("ML-DSA public key buffer", pk.size(), p.pk_bytes); !s) return s;
  const bool ok = dispatch(lv, [&](auto impl) { return decltype(impl)::CheckSecretKey(sk.data(), pk.data()); });
  if (!ok) {
    secure_zero(pk.data(), pk.size());
    return Error{Errc::key_check_failed, "ML-DSA secret key is malformed or inconsistent (s1/s2 range, t0, tr)"};
  }
  return {};
}

Status sign_mu(Level lv, byte_span sk, byte_span mu, byte_span rnd, mut_byte_span sig) {
  if (auto s = check_level(lv); !s) return s;
  const Params& p = params(lv);
  if (auto s = check_len("ML-DSA secret key", sk.size(), p.sk_bytes); !s) return s;
  if (auto s = check_len("ML-DSA mu", mu.size(), kMuBytes); !s) return s;
  if (auto s = check_len("ML-DSA rnd", rnd.size(), kRndBytes); !s) return s;
  if (auto s = check_len("ML-DSA signature buffer", sig.size(), p.sig_bytes); !s) return s;
  const int rc = dispatch(lv, [&](auto impl) { return decltype(impl)::Sign_internal(sk.data(), mu.data(), rnd.data(), sig.data()); });
  if (rc != 1) secure_zero(sig.data(), sig.size());
  return sign_result(rc);
}

// FIPS 204, Algorithm 7: ML-DSA.Sign_internal on M′ (μ = H(tr ‖ M′, 64), then Impl<P>::Sign_internal).
Status sign_internal(Level lv, byte_span sk, byte_span mprime, byte_span rnd, mut_byte_span sig) {
  if (auto s = check_level(lv); !s) return s;
  if (auto s = check_len("ML-DSA secret key", sk.size(), params(lv).sk_bytes); !s) return s;
  std::uint8_t mu[kMuBytes];
  mu_from_tr(sk.data() + 64, nullptr, mprime, mu);
  return sign_mu(lv, sk, byte_span(mu, kMuBytes), rnd, sig);
}

// FIPS 204, Algorithm 2: ML-DSA.Sign, or Algorithm 4: HashML-DSA.Sign when opt.prehash is set.
Status sign(Level lv, byte_span sk, byte_span msg, mut_byte_span sig, const Options& opt) {
  if (auto s = check_level(lv); !s) return s;
  if (auto s = check_len("ML-DSA secret key", sk.size(), params(lv).sk_bytes); !s) return s;
  MPrime m;
  if (auto s = format_mprime(m, msg, opt); !s) return s;
  RndBuf rnd;
  if (auto s = choose_rnd(opt, rnd); !s) return s;
  std::uint8_t mu[kMuBytes];
  mu_from_tr(sk.data() + 64, &m, {}, mu);
  return sign_mu(lv, sk, byte_span(mu, kMuBytes), byte_span(rnd.b, kRndBytes), sig);
}

Status external_mu(Level lv, byte_span pk, byte_span msg, mut_byte_span mu, const Options& opt) {
  if (auto s = check_level(lv); !s) return s;
  if (auto s = check_len("ML-DSA public key", pk.size(), params(lv).pk_bytes); !s) return s;
  if (auto s = check_len("ML-DSA mu buffer", mu.size(), kMuBytes); !s) return s;
  MPrime m;
  if (auto s = format_mprime(m, msg, opt); !s) return s;
  std::uint8_t tr[kTrBytes];
  dispatch(lv, [&](auto impl) { decltype(impl)::ComputeTr(pk.data(), tr); });
  mu_from_tr(tr, &m, {}, mu.data());
  return {};
}

Status verify_mu(Level lv, byte_span pk, byte_span mu, byte_span sig) {
  if (auto s = check_level(lv); !s) return s;
  const Params& p = params(lv);
  if (auto s = check_len("ML-DSA public key", pk.size(), p.pk_bytes); !s) return s;
  if (auto s = check_len("ML-DSA mu", mu.size(), kMuBytes); !s) return s;
  if (auto s = check_len("ML-DSA signature", sig.size(), p.sig_bytes); !s) return s;
  return verify_result(dispatch(lv, [&](auto impl) { return decltype(impl)::Verify_internal(pk.data(), mu.data(), sig.data()); }));
}

// FIPS 204, Algorithm 8: ML-DSA.Verify_internal on M′ (pk decoded and hashed once).
Status verify_internal(Level lv, byte_span pk, byte_span mprime, byte_span sig) {
  if (auto s = check_level(lv); !s) return s;
  const Params& p = params(lv);
  if (auto s = check_len("ML-DSA public key", pk.size(), p.pk_bytes); !s) return s;
  if (auto s = check_len("ML-DSA signature", sig.size(), p.sig_bytes); !s) return s;
  return verify_result(dispatch(lv, [&](auto impl) {
    using I = decltype(impl);
    typename I::PublicState st;
    I::PreparePublic(st, pk.data());
    std::uint8_t mu[kMuBytes];
    mu_from_tr(st.tr, nullptr, mprime, mu);
    return I::VerifyCore(st, mu, sig.data());
  }));
}

// FIPS 204, Algorithm 3: ML-DSA.Verify, or Algorithm 5: HashML-DSA.Verify when opt.prehash is set
// (pk decoded, expanded and hashed once: tr = H(pk) serves μ and the check).
Status verify(Level lv, byte_span pk, byte_span msg, byte_span sig, const Options& opt) {
  if (auto s = check_level(lv); !s) return s;
  const Params& p = params(lv);
  if (auto s = check_len("ML-DSA public key", pk.size(), p.pk_bytes); !s) return s;
  MPrime m;
  if (auto s = format_mprime(m, msg, opt); !s) return s;
  if (auto s = check_len("ML-DSA signature", sig.size(), p.sig_bytes); !s) return s;
  return verify_result(dispatch(lv, [&](auto impl) {
    using I = decltype(impl);
    typename I::PublicState st;
    I::PreparePublic(st, pk.data());
    std::uint8_t mu[kMuBytes];
    mu_from_tr(st.tr, &m, {}, mu);
    return I::VerifyCore(st, mu, sig.data());
  }));
}

// ---------------------------------------------------------------------- prepared keys

namespace {
template <class I>
void destroy_secret_state(void* p) noexcept {
  auto* s = static_cast<typename I::SecretState*>(p);
  I::wipe_secret(*s);
  delete s;
}
template <class I>
void destroy_public_state(void* p) noexcept {
  delete static_cast<typename I::PublicState*>(p);
}
}  // namespace

Result<PreparedSigningKey> PreparedSigningKey::create(Level lv, byte_span sk) {
  if (auto s = check_level(lv); !s) return s.error();
  if (auto s = check_len("ML-DSA secret key", sk.size(), params(lv).sk_bytes); !s) return s.error();
  return dispatch(lv, [&](auto impl) -> Result<PreparedSigningKey> {
    using I = decltype(impl);
    Holder h(new typename I::SecretState, &destroy_secret_state<I>);
    if (!I::PrepareSecret(*static_cast<typename I::SecretState*>(h.get()), sk.data()))
      return Error{Errc::invalid_encoding, "ML-DSA secret key: s1/s2 coefficient out of range"};
    return PreparedSigningKey(lv, std::move(h));
  });
}

Result<PreparedSigningKey> PreparedSigningKey::create_checked(Level lv, byte_span sk, mut_byte_span pk) {
  if (auto s = check_level(lv); !s) return s.error();
  const Params& p = params(lv);
  if (auto s = check_len("ML-DSA secret key", sk.size(), p.sk_bytes); !s) return s.error();
  if (auto s = check_len("ML-DSA public key buffer", pk.size(), p.pk_bytes); !s) return s.error();
  return dispatch(lv, [&](auto impl) -> Result<PreparedSigningKey> {
    using I = decltype(impl);
    Holder h(new typename I::SecretState, &destroy_secret_state<I>);  // wiped when dropped
    if (!I::CheckInto(sk.data(), pk.data(), *static_cast<typename I::SecretState*>(h.get()))) {
      secure_zero(pk.data(), pk.size());
      return Error{Errc::key_check_failed, "ML-DSA secret key is malformed or inconsistent (s1/s2 range, t0, tr)"};
    }
    return PreparedSigningKey(lv, std::move(h));
  });
}

// FIPS 204, Algorithm 6 (KeyGen_internal), keeping the prepared signing state it computes.
Result<PreparedSigningKey> PreparedSigningKey::keygen_internal(Level lv, byte_span seed, mut_byte_span pk,
                                                               mut_byte_span sk) {
  if (auto s = check_level(lv); !s) return s.error();
  const Params& p = params(lv);
  if (auto s = check_len("ML-DSA seed", seed.size(), kSeedBytes); !s) return s.error();
  if (auto s = check_len("ML-DSA public key buffer", pk.size(), p.pk_bytes); !s) return s.error();
  if (auto s = check_len("ML-DSA secret key buffer", sk.size(), p.sk_bytes); !s) return s.error();
  return dispatch(lv, [&](auto impl) -> Result<PreparedSigningKey> {
    using I = decltype(impl);
    Holder h(new typename I::SecretState, &destroy_secret_state<I>);
    I::KeyGen_internal(seed.data(), pk.data(), sk.data(), *static_cast<typename I::SecretState*>(h.get()), true);
    return PreparedSigningKey(lv, std::move(h));
  });
}

Status PreparedSigningKey::sign_mu(byte_span mu, byte_span rnd, mut_byte_span sig) const {
  if (!st_) return Error{Errc::invalid_argument, "ML-DSA: prepared signing key is empty (moved from)"};
  if (auto s = check_len("ML-DSA mu", mu.size(), kMuBytes); !s) return s;
  if (auto s = check_len("ML-DSA rnd", rnd.size(), kRndBytes); !s) return s;
  if (auto s = check_len("ML-DSA signature buffer", sig.size(), params(lv_).sig_bytes); !s) return s;
  const int rc = dispatch(lv_, [&](auto impl) {
    using I = decltype(impl);
    return I::SignCore(*static_cast<const typename I::SecretState*>(st_.get()), mu.data(), rnd.data(), sig.data());
  });
  if (rc != 1) secure_zero(sig.data(), sig.size());
  return sign_result(rc);
}

Status PreparedSigningKey::sign(byte_span msg, mut_byte_span sig, const Options& opt) const {
  if (!st_) return Error{Errc::invalid_argument, "ML-DSA: prepared signing key is empty (moved from)"};
  MPrime m;
  if (auto s = format_mprime(m, msg, opt); !s) return s;
  RndBuf rnd;
  if (auto s = choose_rnd(opt, rnd); !s) return s;
  std::uint8_t mu[kMuBytes];
  dispatch(lv_, [&](auto impl) {
    using I = decltype(impl);
    mu_from_tr(static_cast<const typename I::SecretState*>(st_.get())->tr, &m, {}, mu);
  });
  return sign_mu(byte_span(mu, kMuBytes), byte_span(rnd.b, kRndBytes), sig);
}

Result<PreparedVerifyingKey> PreparedVerifyingKey::create(Level lv, byte_span pk) {
  if (auto s = check_level(lv); !s) return s.error();
  if (auto s = check_len("ML-DSA public key", pk.size(), params(lv).pk_bytes); !s) return s.error();
  return dispatch(lv, [&](auto impl) -> Result<PreparedVerifyingKey> {
    using I = decltype(impl);
    Holder h(new typename I::PublicState, &destroy_public_state<I>);
    I::PreparePublic(*static_cast<typename I::PublicState*>(h.get()), pk.data());
    return PreparedVerifyingKey(lv, std::move(h));
  });
}

Status PreparedVerifyingKey::verify_mu(byte_span mu, byte_span sig) const {
  if (!st_) return Error{Errc::invalid_argument, "ML-DSA: prepared verifying key is empty (moved from)"};
  if (auto s = check_len("ML-DSA mu", mu.size(), kMuBytes); !s) return s;
  if (auto s = check_len("ML-DSA signature", sig.size(), params(lv_).sig_bytes); !s) return s;
  return verify_result(dispatch(lv_, [&](auto impl) {
    using I = decltype(impl);
    return I::VerifyCore(*static_cast<const typename I::PublicState*>(st_.get()), mu.data(), sig.data());
  }));
}

Status PreparedVerifyingKey::verify(byte_span msg, byte_span sig, const Options& opt) const {
  if (!st_) return Error{Errc::invalid_argument, "ML-DSA: prepared verifying key is empty (moved from)"};
  MPrime m;
  if (auto s = format_mprime(m, msg, opt); !s) return s;
  std::uint8_t mu[kMuBytes];
  dispatch(lv_, [&](auto impl) {
    using I = decltype(impl);
    mu_from_tr(static_cast<const typename I::PublicState*>(st_.get())->tr, &m, {}, mu);
  });
  return verify_mu(byte_span(mu, kMuBytes), sig);
}

}  // namespace pqsig::mldsa
