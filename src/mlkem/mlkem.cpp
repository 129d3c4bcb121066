// FIPS 203: ML-KEM. One implementation, templated over the parameter set (k, η1, η2, du, dv);
// instantiated for ML-KEM-512, ML-KEM-768 and ML-KEM-1024. PQ core: no OpenSSL.
#include "pqsig/mlkem.hpp"

#include <cstring>

#include "common/aligned_new.hpp"
#include "common/ct.hpp"
#include "hash/keccak_backend.hpp"
#include "mlkem/poly.hpp"
#include "pqsig/hash.hpp"

namespace pqsig::mlkem {

namespace {
using namespace detail;

// FIPS 203 Table 2.
struct P512 {
  static constexpr int k = 2, eta1 = 3, eta2 = 2, du = 10, dv = 4;
  static constexpr const Params& pub = kMlKem512;
};
struct P768 {
  static constexpr int k = 3, eta1 = 2, eta2 = 2, du = 10, dv = 4;
  static constexpr const Params& pub = kMlKem768;
};
struct P1024 {
  static constexpr int k = 4, eta1 = 2, eta2 = 2, du = 11, dv = 5;
  static constexpr const Params& pub = kMlKem1024;
};

// ---------------------------------------------------------------- hash functions (FIPS 203 §4.1)
// H(s) = SHA3-256(s)
inline void H(std::uint8_t out[32], byte_span a) noexcept {
  hash::Sha3_256 h;
  h.absorb(a);
  h.squeeze(out, 32);
}
// G(c) = SHA3-512(c), split into two 32-byte halves.
inline void G(std::uint8_t out[64], byte_span a, byte_span b) noexcept {
  hash::Sha3_512 h;
  h.absorb(a);
  h.absorb(b);
  h.squeeze(out, 64);
}
// J(s) = SHAKE256(s, 8·32)
inline void J(std::uint8_t out[32], byte_span z, byte_span c) noexcept {
  hash::Shake256 h;
  h.absorb(z);
  h.absorb(c);
  h.squeeze(out, 32);
}
// PRF_η(s, b) = SHAKE256(s ‖ b, 8·64·η)
template <int Eta>
inline void PRF(std::uint8_t out[64 * Eta], const std::uint8_t s[32], std::uint8_t b) noexcept {
  hash::Shake256 h;
  h.absorb(s, 32);
  h.absorb(&b, 1);
  h.squeeze(out, 64 * Eta);
}

// ---------------------------------------------------------------- batched XOF calls
constexpr std::size_t kSampleNttFirst = 3;  // 504 bytes = 336 candidates; ~99% of samples finish here

// FIPS 203, Algorithm 7: SampleNTT(ρ ‖ j ‖ i) with the single-state SHAKE128 (a lone entry).
void sample_ntt_1(const PolyOps& ops, const std::uint8_t rho[32], std::uint8_t j, std::uint8_t i,
                  std::uint16_t* out) noexcept {
  constexpr std::size_t kRate = hash::kShake128Rate;
  hash::Shake128 xof;
  const std::uint8_t idx[2] = {j, i};
  xof.absorb(rho, 32);
  xof.absorb(idx, 2);
  alignas(32) std::uint8_t buf[kSampleNttFirst * kRate];
  xof.squeeze(buf, sizeof buf);  // squeeze(), not squeeze_blocks(): no permutation ahead of need
  int count = ops.sample_ntt_parse(out, 0, buf, sizeof buf);
  while (count < kN) {
    xof.squeeze(buf, kRate);
    count = ops.sample_ntt_parse(out, count, buf, kRate);
  }
}

// One XOF call of K-PKE: an Â entry SampleNTT(ρ ‖ j ‖ i) (Algorithm 7, SHAKE128; public) or a
// noise polynomial SamplePolyCBD_η(PRF_η(σ, N)) (Algorithms 8 and §4.1's PRF, SHAKE256; secret).
struct XofJob {
  std::uint16_t* out;
  const std::uint8_t* seed;  // 32 bytes: ρ (SampleNTT) or σ (PRF)
  std::uint8_t eta;          // 0: SampleNTT; 2 or 3: PRF_η then SamplePolyCBD_η
  std::uint8_t b0;           // SampleNTT: j; PRF: N
  std::uint8_t b1;           // SampleNTT: i
};
inline XofJob matrix_job(std::uint16_t* out, const std::uint8_t rho[32], int j, int i) noexcept {
  return XofJob{out, rho, 0, static_cast<std::uint8_t>(j), static_cast<std::uint8_t>(i)};
}
inline XofJob noise_job(std::uint16_t* out, const std::uint8_t sigma[32], int eta, int N) noexcept {
  return XofJob{out, sigma, static_cast<std::uint8_t>(eta), static_cast<std::uint8_t>(N), 0};
}

// Runs the jobs eight at a time on hash::ShakeX8 (SHAKE128 and SHAKE256 lanes side by side:
// one 8-way permutation per block with AVX-512F, two 4-way ones otherwise); a group of one runs
// on the single-state sponge. SampleNTT lanes read the XOF block after block until 256
// coefficients are accepted (no fixed cut-off; ρ is public, so its rejection branches are fine);
// PRF lanes read 64η bytes. With h_in (count ≤ 7, SampleNTT jobs only), the eighth lane absorbs
// the first kSampleNttFirst SHAKE256-rate blocks of h_in — the start of a SHA3-256 sponge — and
// leaves its state in h_state: a hash of public data riding on the batch's permutations.
// With h_continue, the eighth lane resumes from h_state (blocks already absorbed) instead of
// starting empty, and h_in points at its next block.
void run_xof_jobs(const PolyOps& ops, const XofJob* jobs, int count, const std::uint8_t* h_in = nullptr,
                  std::uint64_t* h_state = nullptr, bool h_continue = false) noexcept {
  constexpr std::size_t kBuf = kSampleNttFirst * hash::kShake128Rate;  // ≥ 2 SHAKE256 blocks (PRF_3)
  static_assert(kBuf >= 2 * hash::kShake256Rate);
  alignas(32) std::uint8_t buf[8][kBuf];
  std::size_t secret_bytes[8] = {};  // how much of buf[l] has held PRF output (wiped at the end)
  // Without the 8-way backend a group of four lanes costs one 4-way permutation per block and
  // eight cost two: groups of four, so that a lone fifth job (ML-KEM-512's e2) runs on the
  // single-state sponge instead of a second 4-way call. With h_in, one group of eight.
  const int group = (h_in || hash::ShakeX8::eight_way()) ? 8 : 4;
  for (int g = 0; g < count; g += group) {
    const int n = count - g < group ? count - g : group;
    const XofJob* J = jobs + g;
    bool any_prf = false;
    for (int l = 0; l < n; ++l) {
      if (J[l].eta == 0) continue;
      any_prf = true;
      const std::size_t b = (64 * std::size_t{J[l].eta} + hash::kShake256Rate - 1) / hash::kShake256Rate;
      if (b * hash::kShake256Rate > secret_bytes[l]) secret_bytes[l] = b * hash::kShake256Rate;
    }
    if (n == 1 && !h_in) {
      if (J[0].eta == 0) {
        sample_ntt_1(ops, J[0].seed, J[0].b0, J[0].b1, J[0].out);
      } else {
        if (J[0].eta == 3) PRF<3>(buf[0], J[0].seed, J[0].b0);
        else PRF<2>(buf[0], J[0].seed, J[0].b0);
        ops.sample_poly_cbd(J[0].eta, buf[0], J[0].out);
      }
      continue;
    }
    hash::ShakeX8 x(any_prf);  // wiped when a lane holds σ
    std::uint8_t in[34];
    std::uint8_t* outs[8] = {};
    std::size_t blocks = 1;
    for (int l = 0; l < n; ++l) {
      if (J[l].eta == 0) {
        std::memcpy(in, J[l].seed, 32);
        in[32] = J[l].b0;
        in[33] = J[l].b1;
        x.absorb_once(l, hash::kShake128Rate, in, 34);
        blocks = kSampleNttFirst;
      } else {
        std::memcpy(in, J[l].seed, 32);
        in[32] = J[l].b0;
        x.absorb_once(l, hash::kShake256Rate, in, 33);
        const std::size_t b = (64 * std::size_t{J[l].eta} + hash::kShake256Rate - 1) / hash::kShake256Rate;
        if (b > blocks) blocks = b;
      }
      outs[l] = buf[l];
    }
    secure_zero(in, sizeof in);
    // A PRF lane squeezes as many blocks as the longest lane of its group (three beside SampleNTT
    // lanes): all of them are wiped.
    for (int l = 0; l < n; ++l)
      if (J[l].eta != 0 && blocks * hash::kShake256Rate > secret_bytes[l]) secret_bytes[l] = blocks * hash::kShake256Rate;
    if (h_in) {  // count ≤ 7, so this is the only group; blocks == kSampleNttFirst
      x.start_long(7, hash::kShake256Rate);
      if (h_continue) x.load_lane(7, h_state);
      x.squeeze_blocks_absorbing(outs, blocks, 7, h_in);
      x.save_lane(7, h_state);
    } else {
      x.squeeze_blocks(outs, blocks);
    }
    int cnt[8];
    bool more = false;
    for (int l = 0; l < n; ++l) {
      if (J[l].eta == 0) {
        cnt[l] = ops.sample_ntt_parse(J[l].out, 0, buf[l], kBuf);
      } else {
        ops.sample_poly_cbd(J[l].eta, buf[l], J[l].out);
        cnt[l] = kN;
      }
      more |= cnt[l] < kN;
    }
    while (more) {  // rare: one more SHAKE128 block for the unfinished entries
      for (int l = 0; l < n; ++l) outs[l] = cnt[l] < kN ? buf[l] : nullptr;
      x.squeeze_blocks(outs, 1);
      more = false;
      for (int l = 0; l < n; ++l) {
        if (cnt[l] < kN) cnt[l] = ops.sample_ntt_parse(J[l].out, cnt[l], buf[l], hash::kShake128Rate);
        more |= cnt[l] < kN;
      }
    }
  }
  for (int l = 0; l < 8; ++l)
    if (secret_bytes[l]) secure_zero(buf[l], secret_bytes[l]);
}

// Matrix Â, with Â[i][j] = SampleNTT(ρ ‖ j ‖ i) (FIPS 203 Algorithm 13 lines 3–7), row-major:
// a[i·k + j]; appends the jobs for entries 0 .. kk − 1 to `jobs`.
template <int K>
int matrix_jobs(XofJob* jobs, NttPoly* a, const std::uint8_t rho[32], int kk = K * K) noexcept {
  for (int e = 0; e < kk; ++e) jobs[e] = matrix_job(a[e].c, rho, e % K, e / K);
  return kk;
}

inline std::uint64_t load64(const std::uint8_t* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);  // little-endian targets (see hash/keccak.cpp)
  return v;
}

// H(ek) = SHA3-256(ek) (FIPS 203 §4.1, FIPS 202 Algorithm 8 with rate 136 and suffix 01) over
// an ek whose first `ready` bytes are known before its last row, with the lone last matrix entry
// Â[k−1][k−1] = SampleNTT(ρ ‖ k−1 ‖ k−1) (Algorithm 7) sampled beside the first three H blocks on
// the two-way permutation: lane 0 is the SHAKE128 sponge of the entry, lane 1 the SHA3-256 sponge
// of ek. start() runs the shared part; finish() absorbs the rest of ek once it is complete.
// Only public data: ρ, Â and ek.
struct LoneEntryAndHek {
  static constexpr std::size_t kHRate = 136, kXRate = hash::kShake128Rate, kShared = 3;
  std::uint64_t st[25][2] = {};
  std::uint64_t h[25];
  std::size_t hb = 0;  // H blocks absorbed

  // ek[0 .. (hb0 + kShared)·kHRate) must be final (the caller static_asserts it). H starts
  // empty, or from h0 after hb0 blocks.
  void start(const PolyOps& ops, const std::uint8_t rho[32], int k, const std::uint8_t* ek, NttPoly& entry,
             const std::uint64_t* h0 = nullptr, std::size_t hb0 = 0) noexcept {
    if (h0) {
      for (int l = 0; l < 25; ++l) st[l][1] = h0[l];
      hb = hb0;
    }
    std::uint8_t in[kXRate] = {};  // ρ ‖ j ‖ i, padded (SHAKE suffix 1111, pad10*1)
    std::memcpy(in, rho, 32);
    in[32] = static_cast<std::uint8_t>(k - 1);
    in[33] = static_cast<std::uint8_t>(k - 1);
    in[34] = 0x1F;
    in[kXRate - 1] |= 0x80;
    for (std::size_t l = 0; l < kXRate / 8; ++l) st[l][0] = load64(in + 8 * l);
    alignas(32) std::uint8_t buf[kShared * kXRate];
    for (std::size_t b = 0; b < kShared; ++b) {
      for (std::size_t l = 0; l < kHRate / 8; ++l) st[l][1] ^= load64(ek + kHRate * hb + 8 * l);
      ++hb;
      hash::detail::keccak_f1600_x2(st);
      for (std::size_t l = 0; l < kXRate / 8; ++l) std::memcpy(buf + kXRate * b + 8 * l, &st[l][0], 8);
    }
    int count = ops.sample_ntt_parse(entry.c, 0, buf, sizeof buf);
    if (count < kN) {  // rare: more SHAKE128 blocks, on the single-state permutation
      std::uint64_t x[25];
      for (int l = 0; l < 25; ++l) x[l] = st[l][0];
      while (count < kN) {
        hash::keccak_f1600(x);
        std::uint8_t blk[kXRate];
        for (std::size_t l = 0; l < kXRate / 8; ++l) std::memcpy(blk + 8 * l, &x[l], 8);
        count = ops.sample_ntt_parse(entry.c, count, blk, kXRate);
      }
    }
    for (int l = 0; l < 25; ++l) h[l] = st[l][1];
  }
  void finish(const std::uint8_t* ek, std::size_t len, std::uint8_t out[32]) noexcept {
    for (; (hb + 1) * kHRate <= len; ++hb) {
      for (std::size_t l = 0; l < kHRate / 8; ++l) h[l] ^= load64(ek + kHRate * hb + 8 * l);
      hash::keccak_f1600(h);
    }
    std::uint8_t last[kHRate] = {};  // the last, partial block with the SHA3 suffix 01 and pad10*1
    const std::size_t rem = len - kHRate * hb;
    std::memcpy(last, ek + kHRate * hb, rem);
    last[rem] ^= 0x06;
    last[kHRate - 1] ^= 0x80;
    for (std::size_t l = 0; l < kHRate / 8; ++l) h[l] ^= load64(last + 8 * l);
    hash::keccak_f1600(h);
    std::memcpy(out, h, 32);
  }
};

// Block i (rate R) of the message p0 ‖ p1 (len bytes in all) into blk, with the domain suffix
// and pad10*1 (FIPS 202 §5.1) when it is the last, partial block. Depends on lengths only.
void padded_block(std::uint8_t* blk, std::size_t R, byte_span p0, byte_span p1, std::size_t len, std::size_t i,
                  std::uint8_t suffix) noexcept {
  std::memset(blk, 0, R);
  const std::size_t off = i * R, n = len - off < R ? len - off : R;
  for (std::size_t j = 0; j < n;) {  // copy [off, off + n) out of p0 ‖ p1
    const std::size_t pos = off + j;
    std::size_t take;
    if (pos < p0.size()) {
      take = p0.size() - pos < n - j ? p0.size() - pos : n - j;
      std::memcpy(blk + j, p0.data() + pos, take);
    } else {
      take = n - j;
      std::memcpy(blk + j, p1.data() + (pos - p0.size()), take);
    }
    j += take;
  }
  if (n < R) {
    blk[n] ^= suffix;
    blk[R - 1] ^= 0x80;
  }
}

// Two rate-136 sponges side by side on the two-way permutation (one AVX-512VL permutation for
// both; two single ones otherwise): lane 0 = SHA3-256(a) (suffix 01), lane 1 = SHAKE256(b0 ‖ b1)
// (suffix 1111), 32 bytes out each (FIPS 202 Algorithm 8). Decaps uses it for the §7.3 check
// H(ek) and K̄ = J(z ‖ c), whose inputs are about as long. Lane 1 may hold a secret (z): the state
// and the block buffer are wiped.
// With `entry` (and a 4-way AVX-512VL permutation, whose cost is about that of the two-way one),
// a third lane samples Â[i][j] = SampleNTT(ρ ‖ j ‖ i) (Algorithm 7; public) during the first
// kSampleNttFirst permutations (the messages are longer than that), finishing on the single-state
// permutation in the rare case it needs more: ML-KEM-768's lone ninth Â entry rides for free.
// Returns true when it sampled the entry; false (nothing sampled) without one or when it cannot.
bool sha3_256_and_shake256(byte_span a, byte_span b0, byte_span b1, std::uint8_t out_a[32],
                           std::uint8_t out_b[32], const PolyOps* ops = nullptr, NttPoly* entry = nullptr,
                           const std::uint8_t* rho = nullptr, std::uint8_t ej = 0, std::uint8_t ei = 0) noexcept {
  constexpr std::size_t R = 136;
  const hash::detail::KeccakX4Backend* x4 = entry ? hash::detail::keccak_x4_backend_avx512() : nullptr;
  if (x4 && (a.size() / R + 1 < kSampleNttFirst || (b0.size() + b1.size()) / R + 1 < kSampleNttFirst))
    x4 = nullptr;  // too short to carry the entry: the two-way path below, no entry
  if (x4) {
    constexpr std::size_t XR = hash::kShake128Rate;
    std::uint64_t st[25][4] = {};
    alignas(8) std::uint8_t blk[R];
    alignas(32) std::uint8_t ebuf[kSampleNttFirst * XR];
    {
      std::uint8_t in[XR] = {};  // ρ ‖ j ‖ i, padded (SHAKE suffix 1111, pad10*1)
      std::memcpy(in, rho, 32);
      in[32] = ej;
      in[33] = ei;
      in[34] = 0x1F;
      in[XR - 1] |= 0x80;
      for (std::size_t w = 0; w < XR / 8; ++w) st[w][2] = load64(in + 8 * w);
    }
    const std::size_t la = a.size(), lb = b0.size() + b1.size();
    const std::size_t na = la / R + 1, nb = lb / R + 1;
    const auto block = [&](byte_span p0, byte_span p1, std::size_t len, std::size_t i, std::uint8_t suffix) {
      padded_block(blk, R, p0, p1, len, i, suffix);
    };
    const std::size_t nmax = na > nb ? na : nb;
    for (std::size_t i = 0; i < nmax; ++i) {
      if (i < na) {
        block(a, byte_span{}, la, i, 0x06);
        for (std::size_t w = 0; w < R / 8; ++w) st[w][0] ^= load64(blk + 8 * w);
      }
      if (i < nb) {
        block(b0, b1, lb, i, 0x1F);
        for (std::size_t w = 0; w < R / 8; ++w) st[w][1] ^= load64(blk + 8 * w);
      }
      x4->permute(st);  // a lane already finished is permuted for nothing (its output was read)
      if (i < kSampleNttFirst)
        for (std::size_t w = 0; w < XR / 8; ++w) std::memcpy(ebuf + XR * i + 8 * w, &st[w][2], 8);
      if (i + 1 == na)
        for (int w = 0; w < 4; ++w) std::memcpy(out_a + 8 * w, &st[w][0], 8);
      if (i + 1 == nb)
        for (int w = 0; w < 4; ++w) std::memcpy(out_b + 8 * w, &st[w][1], 8);
      if (i + 1 == kSampleNttFirst) {
        int count = ops->sample_ntt_parse(entry->c, 0, ebuf, sizeof ebuf);
        if (count < kN) {  // rare: more SHAKE128 blocks, on the single-state permutation
          std::uint64_t x[25];
          for (int w = 0; w < 25; ++w) x[w] = st[w][2];
          while (count < kN) {
            hash::keccak_f1600(x);
            std::uint8_t eb[XR];
            for (std::size_t w = 0; w < XR / 8; ++w) std::memcpy(eb + 8 * w, &x[w], 8);
            count = ops->sample_ntt_parse(entry->c, count, eb, XR);
          }
        }
      }
    }
    secure_zero(st, sizeof st);
    secure_zero(blk, sizeof blk);
    return true;
  }
  std::uint64_t st[25][2] = {};
  alignas(8) std::uint8_t blk[R];
  const std::size_t la = a.size(), lb = b0.size() + b1.size();
  const std::size_t na = la / R + 1, nb = lb / R + 1;  // blocks, the padded last one included
  const auto block = [&](byte_span p0, byte_span p1, std::size_t len, std::size_t i, std::uint8_t suffix) {
    padded_block(blk, R, p0, p1, len, i, suffix);
  };
  const std::size_t nmax = na > nb ? na : nb;
  for (std::size_t i = 0; i < nmax; ++i) {
    if (i < na) {
      block(a, byte_span{}, la, i, 0x06);
      for (std::size_t w = 0; w < R / 8; ++w) st[w][0] ^= load64(blk + 8 * w);
    }
    if (i < nb) {
      block(b0, b1, lb, i, 0x1F);
      for (std::size_t w = 0; w < R / 8; ++w) st[w][1] ^= load64(blk + 8 * w);
    }
    if (i < na && i < nb) {
      hash::detail::keccak_f1600_x2(st);
    } else {  // one message is longer: its remaining blocks on the single-state permutation
      const int l = i < na ? 0 : 1;
      std::uint64_t one[25];
      for (int w = 0; w < 25; ++w) one[w] = st[w][l];
      hash::keccak_f1600(one);
      for (int w = 0; w < 25; ++w) st[w][l] = one[w];
      secure_zero(one, sizeof one);
    }
  }
  for (int w = 0; w < 4; ++w) {
    std::memcpy(out_a + 8 * w, &st[w][0], 8);
    std::memcpy(out_b + 8 * w, &st[w][1], 8);
  }
  secure_zero(st, sizeof st);
  secure_zero(blk, sizeof blk);
  return false;  // no entry sampled here
}

// ---------------------------------------------------------------- the cold 4-way schedule
// Without the 8-way backend, the cold paths run Â's SampleNTT calls (Algorithm 7, SHAKE128) and
// the long hashes they need from the encoded key — H(ek) (SHA3-256) and, for Decaps, K̄ = J(z ‖ c)
// (SHAKE256) — side by side on the 4-way permutation: each hash keeps one lane for as long as it
// has blocks to absorb, the other lanes sample Â entries, kSampleNttFirst blocks per batch. On a
// SIMD 4-way backend a permutation of four states costs far less than four single ones (about
// 1.5 single ones on AVX2), and H(ek) / J are what the cold path adds to the prepared one.
struct HashLaneX4 {
  byte_span p0, p1;         // the message p0 ‖ p1
  std::uint8_t suffix = 0;  // FIPS 202 domain bits: 0x06 (SHA3) or 0x1F (SHAKE)
  std::uint8_t* out = nullptr;  // 32 bytes
  std::size_t blocks = 0, next = 0;
  void init(byte_span a, byte_span b, std::uint8_t sfx, std::uint8_t* o) noexcept {
    p0 = a;
    p1 = b;
    suffix = sfx;
    out = o;
    blocks = (a.size() + b.size()) / 136 + 1;  // the padded last block included
    next = 0;
  }
  bool done() const noexcept { return next >= blocks; }
};

// True when the 4-way schedule is the faster one: a SIMD 4-way backend without the 8-way one.
bool use_cold_x4_schedule() noexcept {
  return !hash::ShakeX8::eight_way() && &hash::detail::keccak_x4_backend() != &hash::detail::kKeccakX4Scalar;
}

// Â[i][j] = SampleNTT(ρ ‖ j ‖ i) for the row-major entries 0 .. ne − 1 of a k×k matrix, with the
// nh ≤ 2 hash lanes absorbing their blocks on lanes 0 .. nh − 1 meanwhile. The hash lanes may hold
// secrets (J's z): the states and block buffer are wiped. Â and ρ are public.
void sample_matrix_x4_with_hashes(const PolyOps& ops, NttPoly* a, int k, int ne, const std::uint8_t rho[32],
                                  HashLaneX4* hl, int nh) noexcept {
  constexpr std::size_t XR = hash::kShake128Rate, R = 136;
  const hash::detail::KeccakX4Backend& be = hash::detail::keccak_x4_backend();
  alignas(32) std::uint64_t st[25][4] = {};
  alignas(32) std::uint8_t buf[4][kSampleNttFirst * XR];
  alignas(8) std::uint8_t blk[R];
  int e = 0;
  for (;;) {
    bool hashing = false;
    for (int h = 0; h < nh; ++h) hashing |= !hl[h].done();
    const int hs = hashing ? nh : 0;  // lanes 0 .. hs − 1 keep the hashes
    const int n = ne - e < 4 - hs ? ne - e : 4 - hs;
    if (n <= 0 && !hashing) break;
    for (int l = 0; l < n; ++l) {  // ρ ‖ j ‖ i, padded (SHAKE suffix 1111, pad10*1)
      const int idx = e + l;
      std::uint8_t in[XR] = {};
      std::memcpy(in, rho, 32);
      in[32] = static_cast<std::uint8_t>(idx % k);
      in[33] = static_cast<std::uint8_t>(idx / k);
      in[34] = 0x1F;
      in[XR - 1] |= 0x80;
      for (std::size_t w = 0; w < 25; ++w) st[w][hs + l] = w < XR / 8 ? load64(in + 8 * w) : 0;
    }
    for (std::size_t b = 0; b < kSampleNttFirst; ++b) {
      bool any = n > 0;
      for (int h = 0; h < hs; ++h) {
        HashLaneX4& H = hl[h];
        if (H.done()) continue;
        any = true;
        const std::size_t len = H.p0.size() + H.p1.size(), off = H.next * R;
        if (off + R <= len && off + R <= H.p0.size()) {
          for (std::size_t w = 0; w < R / 8; ++w) st[w][h] ^= load64(H.p0.data() + off + 8 * w);
        } else if (off >= H.p0.size() && off + R <= len) {
          for (std::size_t w = 0; w < R / 8; ++w) st[w][h] ^= load64(H.p1.data() + (off - H.p0.size()) + 8 * w);
        } else {
          padded_block(blk, R, H.p0, H.p1, len, H.next, H.suffix);
          for (std::size_t w = 0; w < R / 8; ++w) st[w][h] ^= load64(blk + 8 * w);
        }
      }
      if (!any) break;
      be.permute(st);
      for (int h = 0; h < hs; ++h) {
        HashLaneX4& H = hl[h];
        if (H.done()) continue;
        if (++H.next == H.blocks)
          for (int w = 0; w < 4; ++w) std::memcpy(H.out + 8 * w, &st[w][h], 8);
      }
      for (int l = 0; l < n; ++l)
        for (std::size_t w = 0; w < XR / 8; ++w) std::memcpy(buf[l] + XR * b + 8 * w, &st[w][hs + l], 8);
    }
    for (int l = 0; l < n; ++l) {
      NttPoly& out = a[e + l];
      int count = ops.sample_ntt_parse(out.c, 0, buf[l], sizeof buf[l]);
      if (count < kN) {  // rare: more SHAKE128 blocks, on the single-state permutation
        std::uint64_t x[25];
        for (int w = 0; w < 25; ++w) x[w] = st[w][hs + l];
        while (count < kN) {
          hash::keccak_f1600(x);
          std::uint8_t eb[XR];
          for (std::size_t w = 0; w < XR / 8; ++w) std::memcpy(eb + 8 * w, &x[w], 8);
          count = ops.sample_ntt_parse(out.c, count, eb, XR);
        }
      }
    }
    e += n;
  }
  secure_zero(st, sizeof st);
  secure_zero(blk, sizeof blk);
}

template <class T>
struct Wiped {  // a stack secret wiped on scope exit
  T v;
  Wiped() = default;
  Wiped(const Wiped&) = delete;
  Wiped& operator=(const Wiped&) = delete;
  ~Wiped() { secure_zero(&v, sizeof v); }
};

constexpr int kMaxK = 4;
constexpr std::size_t kMaxEk = 384 * kMaxK + 32;             // ML-KEM-1024 ek (FIPS 203 Table 3)
constexpr std::size_t kMaxDk = 384 * kMaxK + kMaxEk + 64;    // ML-KEM-1024 dk
}  // namespace

// ---------------------------------------------------------------- expanded keys
// The public half: ek and what every Encaps derives from it (t̂, Â, H(ek)).
struct EncapsKey::State : ::pqsig::detail::MallocAligned {
  ParameterSet ps{};
  std::uint8_t ek[kMaxEk];  // inline (no separate allocation); ek_len bytes used
  std::size_t ek_len = 0;
  NttPoly t_hat[kMaxK];
  NttPoly a[kMaxK * kMaxK];  // Â row-major (k·k entries used)
  std::uint8_t hek[32];
};
// The private half: ŝ decoded (secret), z (secret), dk (secret), and the public state.
struct DecapsKey::State : ::pqsig::detail::MallocAligned {
  EncapsKey::State pub;
  NttPoly s_hat[kMaxK];
  std::uint8_t z[32];
  std::uint8_t dk[kMaxDk];  // the expanded dk (secret), inline; dk_len bytes used
  std::size_t dk_len = 0;
  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    // ŝ fills k = (|ek| − 32) / 384 entries (all of them if ek was never set)
    const std::size_t used = pub.ek_len ? (pub.ek_len - 32) / 384 : kMaxK;
    secure_zero(s_hat, sizeof(NttPoly) * used);
    secure_zero(z, sizeof z);
    secure_zero(dk, dk_len);
  }
};

namespace {
using EkState = EncapsKey::State;
using DkState = DecapsKey::State;

// ---------------------------------------------------------------- the scheme
template <class P>
struct Scheme {
  static constexpr int k = P::k;
  static constexpr std::size_t kPolyBytes = 384;
  static constexpr std::size_t kEkPke = 384 * k + 32;
  static constexpr std::size_t kDkPke = 384 * k;
  static constexpr std::size_t kEk = kEkPke;
  static constexpr std::size_t kDk = kDkPke + kEk + 32 + 32;
  static constexpr std::size_t kC1 = 32 * P::du * k;
  static constexpr std::size_t kC2 = 32 * P::dv;
  static constexpr std::size_t kCt = kC1 + kC2;
  static_assert(kEk == P::pub.ek_size, "ek size (FIPS 203 Table 3)");
  static_assert(kDk == P::pub.dk_size, "dk size (FIPS 203 Table 3)");
  static_assert(kEk <= kMaxEk && kDk <= kMaxDk, "inline key buffers");
  static_assert(kCt == P::pub.ct_size, "ciphertext size (FIPS 203 Table 3)");
  static_assert(k == P::pub.k && P::eta1 == P::pub.eta1 && P::eta2 == P::pub.eta2 && P::du == P::pub.du &&
                P::dv == P::pub.dv);
  static_assert(k <= kMaxK);

  // FIPS 203, Algorithm 13: K-PKE.KeyGen(d). Writes ek_PKE (kEkPke bytes), dk_PKE (kDkPke
  // bytes) and H(ek_PKE) (Algorithm 16 line 3's hash, computed here so that ML-KEM-768's lone
  // last Â entry can share permutations with it); `keep` receives t̂, Â (public), s_hat (k
  // polynomials, the caller's: wiped with the key) receives ŝ.
  static void kpke_keygen(const std::uint8_t d[32], std::uint8_t* ek, std::uint8_t* dk, std::uint8_t hek[32],
                          EkState& keep, NttPoly* s_hat) noexcept {
    const PolyOps& ops = poly_ops();
    Wiped<std::uint8_t[64]> rs;  // (ρ, σ) = G(d ‖ k)
    const std::uint8_t kbyte = static_cast<std::uint8_t>(k);
    G(rs.v, byte_span(d, 32), byte_span(&kbyte, 1));
    const std::uint8_t* rho = rs.v;
    const std::uint8_t* sigma = rs.v + 32;
    // ρ is the public half of the seed: it is published in ek.
    CT_DECLASSIFY(rs.v, 32);
    // k = 3: Â has 9 entries, sampled eight at once, the ninth beside H(ek) below (kLone).
    // k = 4 (kRowsFirst): Â rows 0–1 and the noise first, so that t̂ rows 0–1 (ek[0, 768)) exist
    // when entries 8–14 are sampled: their batch absorbs H(ek)'s first three blocks on its
    // eighth lane, and the last entry Â[3][3] shares the next three with H (LoneEntryAndHek).
    constexpr bool kLone = (k * k) % 8 == 1;
    constexpr bool kRowsFirst = k == 4;
    // Â (all entries but those sampled later), then s (k polys) and e (k polys) from
    // N = 0 .. 2k−1, batched eight XOF calls at a time (ML-KEM-512: all eight in one batch),
    // then NTT(s), NTT(e).
    // s goes straight into s_hat (the key's ŝ), e into a wiped local.
    Wiped<NttPoly[k]> noise_e;
    {
      XofJob jobs[k * k + 2 * k];
      int n = matrix_jobs<k>(jobs, keep.a, rho, kLone ? k * k - 1 : kRowsFirst ? 2 * k : k * k);
      for (int i = 0; i < k; ++i) jobs[n++] = noise_job(s_hat[i].c, sigma, P::eta1, i);
      for (int i = 0; i < k; ++i) jobs[n++] = noise_job(noise_e.v[i].c, sigma, P::eta1, k + i);
      run_xof_jobs(ops, jobs, n);
    }
    for (int i = 0; i < k; ++i) ops.ntt(s_hat[i].c);
    for (int i = 0; i < k; ++i) ops.ntt(noise_e.v[i].c);
    const NttPoly* e_hat = noise_e.v;
    // t̂ = Â ∘ ŝ + ê, row by row; t̂ is the public key.
    const auto row = [&](int i) {
      NttPoly& t = keep.t_hat[i];
      ops.multiply_ntts_sum(t, keep.a + i * k, 1, s_hat, k);
      ntt_add(t, e_hat[i]);
      CT_DECLASSIFY(&t, sizeof t);
      ops.compress_encode(12, t.c, ek + 384 * i);
    };
    if constexpr (kLone) {
      static_assert(384 * (k - 1) >= LoneEntryAndHek::kShared * LoneEntryAndHek::kHRate);
      for (int i = 0; i < k - 1; ++i) row(i);
      LoneEntryAndHek x;
      x.start(ops, rho, k, ek, keep.a[k * k - 1]);
      row(k - 1);
      std::memcpy(ek + 384 * k, rho, 32);
      x.finish(ek, kEkPke, hek);
    } else if constexpr (kRowsFirst) {
      constexpr std::size_t kHRate = LoneEntryAndHek::kHRate, kFirst = kSampleNttFirst;
      static_assert(384 * 2 >= kFirst * kHRate, "H's first blocks lie in t̂ rows 0-1");
      static_assert(384 * 3 >= (kFirst + LoneEntryAndHek::kShared) * kHRate, "and the next in rows 0-2");
      row(0);
      row(1);
      std::uint64_t h[25];
      {
        XofJob jobs[2 * k - 1];  // Â[2][0] .. Â[3][2]
        for (int e = 2 * k; e < k * k - 1; ++e) jobs[e - 2 * k] = matrix_job(keep.a[e].c, rho, e % k, e / k);
        run_xof_jobs(ops, jobs, 2 * k - 1, ek, h);
      }
      row(2);
      LoneEntryAndHek x;
      x.start(ops, rho, k, ek, keep.a[k * k - 1], h, kFirst);
      row(3);
      std::memcpy(ek + 384 * k, rho, 32);
      x.finish(ek, kEkPke, hek);
    } else {
      for (int i = 0; i < k; ++i) row(i);
      std::memcpy(ek + 384 * k, rho, 32);
      H(hek, byte_span(ek, kEkPke));
    }
    for (int i = 0; i < k; ++i) ops.compress_encode(12, s_hat[i].c, dk + 384 * i);
  }

  // ML-KEM-512's noise for K-PKE.Encrypt (Algorithm 14 lines 9–17): y0, y1 = SamplePolyCBD_3(PRF_3(r, 0/1))
  // (two SHAKE256 blocks each), e1 = SamplePolyCBD_2(PRF_2(r, 2/3)) and e2 = SamplePolyCBD_2(PRF_2(r, 4))
  // (one block each) on two 4-way permutations: e2 starts on e1[0]'s lane once that lane has its
  // block, instead of a single permutation of its own. Secret (r): states and buffers wiped.
  static void noise_512_x4(const std::uint8_t r[32], NttPoly* y, Poly* e) noexcept {
    constexpr std::size_t R = hash::kShake256Rate;
    const PolyOps& ops = poly_ops();
    const hash::detail::KeccakX4Backend& be = hash::detail::keccak_x4_backend();
    alignas(32) std::uint64_t st[25][4] = {};
    alignas(32) std::uint8_t buf[5][2 * R];
    const auto start = [&](int lane, std::uint8_t N) {
      std::uint8_t in[R] = {};  // r ‖ N, padded (SHAKE suffix 1111, pad10*1)
      std::memcpy(in, r, 32);
      in[32] = N;
      in[33] = 0x1F;
      in[R - 1] |= 0x80;
      for (std::size_t w = 0; w < 25; ++w) st[w][lane] = w < R / 8 ? load64(in + 8 * w) : 0;
      secure_zero(in, sizeof in);
    };
    const auto take = [&](int lane, std::uint8_t* out) {
      for (std::size_t w = 0; w < R / 8; ++w) std::memcpy(out + 8 * w, &st[w][lane], 8);
    };
    for (int l = 0; l < 4; ++l) start(l, static_cast<std::uint8_t>(l));
    be.permute(st);
    for (int l = 0; l < 4; ++l) take(l, buf[l]);
    start(2, 4);
    be.permute(st);
    take(0, buf[0] + R);
    take(1, buf[1] + R);
    take(2, buf[4]);
    static_assert(k == 2 && P::eta1 == 3 && P::eta2 == 2, "ML-KEM-512 only");
    ops.sample_poly_cbd(3, buf[0], y[0].c);
    ops.sample_poly_cbd(3, buf[1], y[1].c);
    ops.sample_poly_cbd(2, buf[2], e[0].c);
    ops.sample_poly_cbd(2, buf[3], e[1].c);
    ops.sample_poly_cbd(2, buf[4], e[2].c);
    secure_zero(st, sizeof st);
    secure_zero(buf, sizeof buf);
  }

  // FIPS 203, Algorithm 14: K-PKE.Encrypt(ek_PKE, m, r), with ek_PKE already decoded (t̂).
  // Â (row-major, k·k entries) is `a` when expanded already (a prepared EkState), or is sampled
  // here from ρ into a_fill (the cold path; a == nullptr) — for k = 2 in the same XOF batch as
  // the noise (4 + 5 jobs: one 8-way batch and a lone e2, or two 4-way batches and a lone e2).
  static void kpke_encrypt(const NttPoly* t_hat, const NttPoly* a, NttPoly* a_fill, const std::uint8_t* rho,
                           const std::uint8_t m[32], const std::uint8_t r[32], std::uint8_t* c) noexcept {
    const PolyOps& ops = poly_ops();
    Wiped<NttPoly[k]> y;   // y, then ŷ
    Wiped<Poly[k + 1]> e;  // e1 (k polys), e2
    Wiped<Poly> mu, v, u;
    bool noise_done = false;
    if constexpr (k == 2) {
      if (a && use_cold_x4_schedule()) {
        noise_512_x4(r, y.v, e.v);
        noise_done = true;
      }
    }
    if (!noise_done) {
      constexpr bool kJoint = k == 2;
      XofJob jobs[k * k + 2 * k + 1];
      int n = 0;
      if (!a) {
        if (kJoint) n = matrix_jobs<k>(jobs, a_fill, rho);
        else run_xof_jobs(ops, jobs, matrix_jobs<k>(jobs, a_fill, rho));
        a = a_fill;
      }
      // y: η1 (N = 0 .. k−1); e1, e2: η2 (N = k .. 2k)
      for (int i = 0; i < k; ++i) jobs[n++] = noise_job(y.v[i].c, r, P::eta1, i);
      for (int i = 0; i <= k; ++i) jobs[n++] = noise_job(e.v[i].c, r, P::eta2, k + i);
      run_xof_jobs(ops, jobs, n);
    }
    for (int i = 0; i < k; ++i) ops.ntt(y.v[i].c);
    const NttPoly* y_hat = y.v;
    // u = NTT^-1(Âᵀ ∘ ŷ) + e1 ; c1 = ByteEncode_du(Compress_du(u))
    for (int i = 0; i < k; ++i) {
      Wiped<NttPoly> acc;
      ops.multiply_ntts_sum(acc.v, a + i, k, y_hat, k);
      ops.ntt_inverse(acc.v.c);
      std::memcpy(u.v.c, acc.v.c, sizeof u.v.c);
      poly_add(u.v, e.v[i]);
      ops.compress_encode(P::du, u.v.c, c + 32 * P::du * i);
    }
    // μ = Decompress_1(ByteDecode_1(m))
    ops.decode_decompress(1, m, mu.v.c);
    // v = NTT^-1(t̂ᵀ ∘ ŷ) + e2 + μ ; c2 = ByteEncode_dv(Compress_dv(v))
    {
      Wiped<NttPoly> acc;
      ops.multiply_ntts_sum(acc.v, t_hat, 1, y_hat, k);
      ops.ntt_inverse(acc.v.c);
      std::memcpy(v.v.c, acc.v.c, sizeof v.v.c);
    }
    poly_add(v.v, e.v[k]);
    poly_add(v.v, mu.v);
    ops.compress_encode(P::dv, v.v.c, c + kC1);
  }

  // FIPS 203, Algorithm 15: K-PKE.Decrypt(dk_PKE, c) → m (32 bytes), with ŝ decoded.
  static void kpke_decrypt(const NttPoly* s_hat, const std::uint8_t* c, std::uint8_t m[32]) noexcept {
    const PolyOps& ops = poly_ops();
    NttPoly u_hat[k];
    for (int i = 0; i < k; ++i) {
      // u' = Decompress_du(ByteDecode_du(c1)), then NTT
      ops.decode_decompress(P::du, c + 32 * P::du * i, u_hat[i].c);
      ops.ntt(u_hat[i].c);
    }
    Wiped<NttPoly> acc;
    ops.multiply_ntts_sum(acc.v, s_hat, 1, u_hat, k);
    ops.ntt_inverse(acc.v.c);
    Wiped<Poly> v, w;
    std::memcpy(w.v.c, acc.v.c, sizeof w.v.c);
    ops.decode_decompress(P::dv, c + kC1, v.v.c);  // v' = Decompress_dv(ByteDecode_dv(c2))
    poly_sub(v.v, w.v);                             // w = v' − NTT^-1(ŝᵀ ∘ NTT(u'))
    ops.compress_encode(1, v.v.c, m);               // m = ByteEncode_1(Compress_1(w))
  }

  // ek (already modulus-checked) → t̂, Â; H(ek) is computed unless given.
  static void expand_ek(byte_span ek, EkState& st, const std::uint8_t* hek) noexcept {
    std::memcpy(st.ek, ek.data(), kEk);  // ek.size() == kEk (checked by the callers)
    st.ek_len = kEk;
    const PolyOps& ops = poly_ops();
    for (int i = 0; i < k; ++i) ops.decode_decompress(12, ek.data() + 384 * i, st.t_hat[i].c);
    {
      XofJob jobs[k * k];
      run_xof_jobs(ops, jobs, matrix_jobs<k>(jobs, st.a, ek.data() + 384 * k));
    }
    if (hek) std::memcpy(st.hek, hek, 32);
    else H(st.hek, ek);
  }
  // Expanded dk (hash-checked) → ŝ, z and the public state (H(ek) taken from dk).
  static void expand_dk(byte_span dk, DkState& st) noexcept {
    std::memcpy(st.dk, dk.data(), kDk);  // dk.size() == kDk (checked by the callers)
    st.dk_len = kDk;
    for (int i = 0; i < k; ++i) poly_ops().decode_decompress(12, dk.data() + 384 * i, st.s_hat[i].c);
    std::memcpy(st.z, dk.data() + kDkPke + kEk + 32, 32);
    expand_ek(dk.subspan(kDkPke, kEk), st.pub, dk.data() + kDkPke + kEk);
  }

  // FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal(d, z); fills the expanded key too.
  static void keygen_internal(const std::uint8_t d[32], const std::uint8_t z[32], std::uint8_t* ek,
                              std::uint8_t* dk, DkState& st) noexcept {
    kpke_keygen(d, ek, dk, dk + kDkPke + kEk, st.pub, st.s_hat);  // H(ek) into dk
    // ek is the public output (t̂ ‖ ρ), H(ek) a hash of it.
    CT_DECLASSIFY(ek, kEk);
    CT_DECLASSIFY(dk + kDkPke + kEk, 32);
    std::memcpy(dk + kDkPke, ek, kEk);
    std::memcpy(dk + kDkPke + kEk + 32, z, 32);
    if (ek != st.pub.ek) std::memcpy(st.pub.ek, ek, kEk);
    st.pub.ek_len = kEk;
    std::memcpy(st.pub.hek, dk + kDkPke + kEk, 32);
    std::memcpy(st.z, z, 32);
  }

  // ---------------------------------------------------------------- the cold path (from bytes)
  // FIPS 203 §7.2's modulus check fused with the decoding Encaps needs anyway: t̂[i] =
  // ByteDecode_12(ek[384i, 384i+384)) (reduced mod q by the kernel), re-encoded and compared with
  // ek: equal iff every 12-bit value was < q. One decode, not two; ek is public.
  static bool decode_ek_checked(const PolyOps& ops, const std::uint8_t* ek, NttPoly* t_hat) noexcept {
    bool ok = true;
    alignas(32) std::uint8_t re[384];
    for (int i = 0; i < k; ++i) {
      ops.decode_decompress(12, ek + 384 * i, t_hat[i].c);
      ops.compress_encode(12, t_hat[i].c, re);
      ok &= std::memcmp(re, ek + 384 * i, 384) == 0;
    }
    return ok;
  }

  // FIPS 203, Algorithm 17 from the encoded ek (Algorithm 20's key, the §7.2 check included):
  // nothing is kept, so nothing is allocated or wiped beyond the stack secrets; Â is sampled
  // into a stack array (public) beside the noise. False when the modulus check fails.
  static bool encaps_cold(const std::uint8_t* ek, const std::uint8_t m[32], std::uint8_t K[32],
                          std::uint8_t* c) noexcept {
    const PolyOps& ops = poly_ops();
    NttPoly t_hat[k];
    if (!decode_ek_checked(ops, ek, t_hat)) return false;
    std::uint8_t hek[32];
    NttPoly a[k * k];
    const std::uint8_t* rho = ek + 384 * k;
    if (use_cold_x4_schedule()) {
      // Â and H(ek) together on the 4-way permutation (H on one lane, Â on the other three), then
      // G, then the noise (kpke_encrypt).
      HashLaneX4 hl;
      hl.init(byte_span(ek, kEk), byte_span{}, 0x06, hek);
      sample_matrix_x4_with_hashes(ops, a, k, k * k, rho, &hl, 1);
      Wiped<std::uint8_t[64]> kr;  // (K, r) = G(m ‖ H(ek))
      G(kr.v, byte_span(m, 32), byte_span(hek, 32));
      kpke_encrypt(t_hat, a, nullptr, nullptr, m, kr.v + 32, c);
      std::memcpy(K, kr.v, 32);
      CT_DECLASSIFY(c, kCt);
      return true;
    }
    if (hash::ShakeX8::eight_way()) {
      // Â first, seven entries per 8-way batch, with H(ek) absorbing three blocks on the eighth
      // lane of each batch (its permutations are free there) while full blocks remain; the rest
      // of H on the single-state permutation. Then G, then the noise (kpke_encrypt).
      constexpr std::size_t kHRate = LoneEntryAndHek::kHRate, kRide = kSampleNttFirst;
      LoneEntryAndHek h;  // only its H half: h.h (state), h.hb (blocks absorbed), finish()
      int e = 0;
      while (e < k * k) {
        XofJob jobs[7];
        const int n = k * k - e < 7 ? k * k - e : 7;
        for (int j = 0; j < n; ++j) jobs[j] = matrix_job(a[e + j].c, rho, (e + j) % k, (e + j) / k);
        if ((h.hb + kRide) * kHRate <= kEk) {
          run_xof_jobs(ops, jobs, n, ek + h.hb * kHRate, h.h, h.hb > 0);
          h.hb += kRide;
        } else {
          run_xof_jobs(ops, jobs, n);
        }
        e += n;
      }
      if (h.hb == 0) H(hek, byte_span(ek, kEk));
      else h.finish(ek, kEk, hek);
      Wiped<std::uint8_t[64]> kr;  // (K, r) = G(m ‖ H(ek))
      G(kr.v, byte_span(m, 32), byte_span(hek, 32));
      kpke_encrypt(t_hat, a, nullptr, nullptr, m, kr.v + 32, c);
      std::memcpy(K, kr.v, 32);
      CT_DECLASSIFY(c, kCt);
      return true;
    }
    H(hek, byte_span(ek, kEk));
    Wiped<std::uint8_t[64]> kr;  // (K, r) = G(m ‖ H(ek))
    G(kr.v, byte_span(m, 32), byte_span(hek, 32));
    kpke_encrypt(t_hat, nullptr, a, rho, m, kr.v + 32, c);
    std::memcpy(K, kr.v, 32);
    CT_DECLASSIFY(c, kCt);
    return true;
  }

  // FIPS 203, Algorithm 18 from the encoded dk (hash-checked by the caller): ŝ decoded into a
  // wiped stack array, H(ek) and z read from dk (H(ek) is not recomputed), t̂ decoded and Â
  // sampled for the re-encryption; no heap object, nothing wiped but what held secrets.
  // With check_hash, FIPS 203 §7.3's hash check H(ek) == dk's H(ek) runs here, beside K̄ = J(z ‖ c)
  // on the two-way permutation; false when it fails (K is then not written).
  static bool decaps_cold(const std::uint8_t* dk, const std::uint8_t* c, std::uint8_t K[32],
                          bool check_hash) noexcept {
    const PolyOps& ops = poly_ops();
    const std::uint8_t* ek = dk + kDkPke;
    const std::uint8_t* hek = ek + kEk;
    const std::uint8_t* z = hek + 32;
    Wiped<std::uint8_t[32]> k_bar;  // K̄ = J(z ‖ c)
    NttPoly a[k * k];
    const std::uint8_t* rho = ek + 384 * k;
    // k = 3 (Â's nine entries: eight per 8-way batch and a lone one): the lone last entry rides
    // beside H(ek) and J on the 4-way AVX-512VL permutation when there is one.
    constexpr bool kLone = (k * k) % 8 == 1;
    bool lone_done = false, a_done = false;
    if (use_cold_x4_schedule()) {
      // H(ek) (the §7.3 check) and K̄ = J(z ‖ c) on two lanes of the 4-way permutation, Â on the
      // other two (and on all four once the hashes are done).
      std::uint8_t h[32];
      HashLaneX4 hl[2];
      hl[0].init(byte_span(ek, kEk), byte_span{}, 0x06, h);
      hl[1].init(byte_span(z, 32), byte_span(c, kCt), 0x1F, k_bar.v);
      sample_matrix_x4_with_hashes(ops, a, k, k * k, rho, check_hash ? hl : hl + 1, check_hash ? 2 : 1);
      if (check_hash && !ct_equal(byte_span(h, 32), byte_span(hek, 32))) return false;  // public
      a_done = true;
    } else if (check_hash) {
      std::uint8_t h[32];
      lone_done = sha3_256_and_shake256(byte_span(ek, kEk), byte_span(z, 32), byte_span(c, kCt), h, k_bar.v,
                                        kLone ? &ops : nullptr, kLone ? &a[k * k - 1] : nullptr, rho,
                                        static_cast<std::uint8_t>(k - 1), static_cast<std::uint8_t>(k - 1));
      if (!ct_equal(byte_span(h, 32), byte_span(hek, 32))) return false;  // public: H of the public ek
    } else {
      J(k_bar.v, byte_span(z, 32), byte_span(c, kCt));
    }
    if (lone_done) {
      XofJob jobs[k * k];
      run_xof_jobs(ops, jobs, matrix_jobs<k>(jobs, a, rho, k * k - 1));
      a_done = true;
    }
    Wiped<std::uint8_t[32]> m_prime;
    {
      Wiped<NttPoly[k]> s_hat;
      for (int i = 0; i < k; ++i) ops.decode_decompress(12, dk + 384 * i, s_hat.v[i].c);
      kpke_decrypt(s_hat.v, c, m_prime.v);
    }
    Wiped<std::uint8_t[64]> kr;  // (K', r') = G(m' ‖ h)
    G(kr.v, byte_span(m_prime.v, 32), byte_span(hek, 32));
    NttPoly t_hat[k];
    for (int i = 0; i < k; ++i) ops.decode_decompress(12, ek + 384 * i, t_hat[i].c);
    Wiped<std::uint8_t[kCt]> c_prime;  // c' = K-PKE.Encrypt(ek_PKE, m', r')
    if (a_done) kpke_encrypt(t_hat, a, nullptr, nullptr, m_prime.v, kr.v + 32, c_prime.v);
    else kpke_encrypt(t_hat, nullptr, a, rho, m_prime.v, kr.v + 32, c_prime.v);
    const std::uint8_t differ = ct::neq_mask(c, c_prime.v, kCt);
    std::memcpy(K, kr.v, 32);
    ct::cmov(K, k_bar.v, 32, differ);
    return true;
  }

  // FIPS 203 §7.2: modulus check — ByteEncode_12(ByteDecode_12(t̂ part)) == t̂ part.
  static bool ek_modulus_ok(const std::uint8_t* ek) noexcept {
    std::uint16_t f[kN];
    std::uint8_t re[384];
    for (int i = 0; i < k; ++i) {
      byte_decode<12>(ek + 384 * i, f);  // decode and reduce mod q
      byte_encode<12>(f, re);
      if (std::memcmp(re, ek + 384 * i, 384) != 0) return false;  // ek is public
    }
    return true;
  }

  // FIPS 203 §7.3: hash check — H(dk[384k : 768k+32]) == dk[768k+32 : 768k+64].
  static bool dk_hash_ok(const std::uint8_t* dk) noexcept {
    std::uint8_t h[32];
    H(h, byte_span(dk + kDkPke, kEk));
    return ct_equal(byte_span(h, 32), byte_span(dk + kDkPke + kEk, 32));
  }

  // FIPS 203, Algorithm 17: ML-KEM.Encaps_internal(ek, m) → (K, c).
  static void encaps_internal(const EkState& ek, const std::uint8_t m[32], std::uint8_t K[32], std::uint8_t* c) noexcept {
    Wiped<std::uint8_t[64]> kr;  // (K, r) = G(m ‖ H(ek))
    G(kr.v, byte_span(m, 32), byte_span(ek.hek, 32));
    kpke_encrypt(ek.t_hat, ek.a, nullptr, nullptr, m, kr.v + 32, c);
    std::memcpy(K, kr.v, 32);
    // The ciphertext is the public output of encapsulation.
    CT_DECLASSIFY(c, kCt);
  }

  // FIPS 203, Algorithm 18: ML-KEM.Decaps_internal(dk, c) → K, with implicit rejection in
  // constant time: the re-encryption is compared over all bytes and K vs K̄ is selected with
  // a mask, never a branch.
  static void decaps_internal(const DkState& dk, const std::uint8_t* c, std::uint8_t K[32]) noexcept {
    Wiped<std::uint8_t[32]> m_prime;
    kpke_decrypt(dk.s_hat, c, m_prime.v);
    Wiped<std::uint8_t[64]> kr;  // (K', r') = G(m' ‖ h)
    G(kr.v, byte_span(m_prime.v, 32), byte_span(dk.pub.hek, 32));
    Wiped<std::uint8_t[32]> k_bar;  // K̄ = J(z ‖ c)
    J(k_bar.v, byte_span(dk.z, 32), byte_span(c, kCt));
    Wiped<std::uint8_t[kCt]> c_prime;  // c' = K-PKE.Encrypt(ek_PKE, m', r')
    kpke_encrypt(dk.pub.t_hat, dk.pub.a, nullptr, nullptr, m_prime.v, kr.v + 32, c_prime.v);
    // if c ≠ c' then K' ← K̄ (branch-free, all bytes compared)
    const std::uint8_t differ = ct::neq_mask(c, c_prime.v, kCt);
    std::memcpy(K, kr.v, 32);
    ct::cmov(K, k_bar.v, 32, differ);
  }
};

template <class P>
Result<KeyPair> do_keygen(byte_span d, byte_span z) {
  using S = Scheme<P>;
  if (d.size() != 32 || z.size() != 32)
    return Error{Errc::invalid_length, "ML-KEM KeyGen: d and z must be 32 bytes each"};
  KeyPair kp;
  kp.ek.resize(S::kEk);
  kp.dk = SecretBytes(S::kDk);
  auto st = std::unique_ptr<DkState>(new DkState);
  S::keygen_internal(d.data(), z.data(), kp.ek.data(), kp.dk.data(), *st);
  return kp;
}

template <class P>
Status do_check_ek(byte_span ek) {
  using S = Scheme<P>;
  if (ek.size() != S::kEk)
    return Error{Errc::invalid_length, "ML-KEM encapsulation key must be " + std::to_string(S::kEk) +
                                           " bytes, got " + std::to_string(ek.size())};
  if (!S::ek_modulus_ok(ek.data()))
    return Error{Errc::key_check_failed, "ML-KEM encapsulation key fails the FIPS 203 §7.2 modulus check"};
  return {};
}

template <class P>
Status do_check_dk(byte_span dk) {
  using S = Scheme<P>;
  if (dk.size() != S::kDk)
    return Error{Errc::invalid_length, "ML-KEM decapsulation key must be " + std::to_string(S::kDk) +
                                           " bytes, got " + std::to_string(dk.size())};
  if (!S::dk_hash_ok(dk.data()))
    return Error{Errc::key_check_failed, "ML-KEM decapsulation key fails the FIPS 203 §7.3 hash check"};
  return {};
}

template <class P>
Result<Encapsulated> encaps_with(const EkState& st, byte_span m) {
  using S = Scheme<P>;
  if (m.size() != 32) return Error{Errc::invalid_length, "ML-KEM Encaps: m must be 32 bytes"};
  Encapsulated out;
  out.c.resize(S::kCt);
  out.k = SecretBytes(32);
  S::encaps_internal(st, m.data(), out.k.data(), out.c.data());
  return out;
}

// The cold path: from the encoded ek, §7.2 check fused with the decoding (Scheme::encaps_cold).
template <class P>
Result<Encapsulated> do_encaps(byte_span ek, byte_span m) {
  using S = Scheme<P>;
  if (ek.size() != S::kEk)
    return Error{Errc::invalid_length, "ML-KEM encapsulation key must be " + std::to_string(S::kEk) +
                                           " bytes, got " + std::to_string(ek.size())};
  if (m.size() != 32) return Error{Errc::invalid_length, "ML-KEM Encaps: m must be 32 bytes"};
  Encapsulated out;
  out.c.resize(S::kCt);
  out.k = SecretBytes(32);
  if (!S::encaps_cold(ek.data(), m.data(), out.k.data(), out.c.data()))
    return Error{Errc::key_check_failed, "ML-KEM encapsulation key fails the FIPS 203 §7.2 modulus check"};
  return out;
}

template <class P>
Status check_ct(byte_span c) {
  using S = Scheme<P>;
  if (c.size() != S::kCt)
    return Error{Errc::invalid_length, "ML-KEM ciphertext must be " + std::to_string(S::kCt) + " bytes, got " +
                                           std::to_string(c.size())};
  return {};
}

template <class P>
Result<SecretBytes> decaps_with(const DkState& st, byte_span c) {
  using S = Scheme<P>;
  if (auto ok = check_ct<P>(c); !ok) return ok.error();
  SecretBytes K(32);
  S::decaps_internal(st, c.data(), K.data());
  return K;
}

template <class P>
Result<SecretBytes> do_decaps(byte_span dk, byte_span c, bool check_hash) {
  using S = Scheme<P>;
  if (dk.size() != S::kDk)
    return Error{Errc::invalid_length, "ML-KEM decapsulation key must be " + std::to_string(S::kDk) +
                                           " bytes, got " + std::to_string(dk.size())};
  if (auto ok = check_ct<P>(c); !ok) return ok.error();
  // The embedded ek and H(ek) are public (ek is the public key, H(ek) a hash of it).
  CT_DECLASSIFY(dk.data() + S::kDkPke, S::kEk + 32);
  SecretBytes K(32);
  if (!S::decaps_cold(dk.data(), c.data(), K.data(), check_hash))  // the cold path: no prepared key
    return Error{Errc::key_check_failed, "ML-KEM decapsulation key fails the FIPS 203 §7.3 hash check"};
  return K;
}

// Dispatch one call over the three parameter sets.
// An out-of-range enum value is a typed error, never a fall-through to a default set.
template <class F>
auto dispatch(ParameterSet ps, F&& f) -> decltype(f(P512{})) {
  switch (ps) {
    case ParameterSet::ml_kem_512: return f(P512{});
    case ParameterSet::ml_kem_768: return f(P768{});
    case ParameterSet::ml_kem_1024: return f(P1024{});
  }
  return Error{Errc::unknown_suite, "unknown ML-KEM parameter set " + std::to_string(static_cast<int>(ps))};
}
}  // namespace

const Params& params(ParameterSet ps) noexcept {
  switch (ps) {
    case ParameterSet::ml_kem_512: return kMlKem512;
    case ParameterSet::ml_kem_768: return kMlKem768;
    case ParameterSet::ml_kem_1024: break;
  }
  return kMlKem1024;
}

std::string_view name(ParameterSet ps) noexcept {
  switch (ps) {
    case ParameterSet::ml_kem_512: return "ML-KEM-512";
    case ParameterSet::ml_kem_768: return "ML-KEM-768";
    case ParameterSet::ml_kem_1024: break;
  }
  return "ML-KEM-1024";
}

Result<KeyPair> keygen_internal(ParameterSet ps, byte_span d, byte_span z) {
  return dispatch(ps, [&](auto p) { return do_keygen<decltype(p)>(d, z); });
}

Result<KeyPair> keygen_from_seed(ParameterSet ps, byte_span seed) {
  if (seed.size() != kSeedSize)
    return Error{Errc::invalid_length, "ML-KEM seed (d ‖ z) must be 64 bytes, got " + std::to_string(seed.size())};
  return keygen_internal(ps, seed.subspan(0, 32), seed.subspan(32, 32));
}

// FIPS 203, Algorithm 19: ML-KEM.KeyGen().
Result<KeyPair> keygen(ParameterSet ps, SecretBytes* seed_out) {
  SecretBytes seed(kSeedSize);
  if (!random_bytes(seed.mut_span())) return Error{Errc::rng_failure, "ML-KEM KeyGen: OS random source failed"};
  auto kp = keygen_from_seed(ps, seed.span());
  if (kp && seed_out) *seed_out = std::move(seed);
  return kp;
}

Status check_encaps_key(ParameterSet ps, byte_span ek) {
  return dispatch(ps, [&](auto p) { return do_check_ek<decltype(p)>(ek); });
}

Status check_decaps_key(ParameterSet ps, byte_span dk) {
  return dispatch(ps, [&](auto p) { return do_check_dk<decltype(p)>(dk); });
}

Result<Encapsulated> encaps_internal(ParameterSet ps, byte_span ek, byte_span m) {
  return dispatch(ps, [&](auto p) { return do_encaps<decltype(p)>(ek, m); });
}

// FIPS 203, Algorithm 20: ML-KEM.Encaps(ek).
Result<Encapsulated> encaps(ParameterSet ps, byte_span ek) {
  std::uint8_t m[32];
  ScopedWipe<std::uint8_t[32]> wipe(m);
  if (!random_bytes(mut_byte_span(m, 32))) return Error{Errc::rng_failure, "ML-KEM Encaps: OS random source failed"};
  return encaps_internal(ps, ek, byte_span(m, 32));
}

// FIPS 203, Algorithm 21: ML-KEM.Decaps(dk, c).
Result<SecretBytes> decaps(ParameterSet ps, byte_span dk, byte_span c) {
  return dispatch(ps, [&](auto p) { return do_decaps<decltype(p)>(dk, c, true); });
}

Result<SecretBytes> decaps_checked_key(ParameterSet ps, byte_span dk, byte_span c) {
  return dispatch(ps, [&](auto p) { return do_decaps<decltype(p)>(dk, c, false); });
}

// ---------------------------------------------------------------- expanded keys
EncapsKey::EncapsKey(std::unique_ptr<State> s) noexcept : st_(std::move(s)) {}
EncapsKey::EncapsKey(EncapsKey&&) noexcept = default;
EncapsKey& EncapsKey::operator=(EncapsKey&&) noexcept = default;
EncapsKey::~EncapsKey() = default;
ParameterSet EncapsKey::parameter_set() const noexcept { return st_->ps; }
byte_span EncapsKey::bytes() const noexcept { return byte_span(st_->ek, st_->ek_len); }

Result<EncapsKey> EncapsKey::from_bytes(ParameterSet ps, byte_span ek) {
  return dispatch(ps, [&](auto p) -> Result<EncapsKey> {
    using P = decltype(p);
    if (auto ok = do_check_ek<P>(ek); !ok) return ok.error();
    auto st = std::unique_ptr<State>(new State);  // default-initialized: no 13 KB memset
    st->ps = ps;
    Scheme<P>::expand_ek(ek, *st, nullptr);
    return EncapsKey(std::move(st));
  });
}

Result<Encapsulated> EncapsKey::encaps_internal(byte_span m) const {
  return dispatch(st_->ps, [&](auto p) { return encaps_with<decltype(p)>(*st_, m); });
}

Result<Encapsulated> EncapsKey::encaps() const {
  std::uint8_t m[32];
  ScopedWipe<std::uint8_t[32]> wipe(m);
  if (!random_bytes(mut_byte_span(m, 32))) return Error{Errc::rng_failure, "ML-KEM Encaps: OS random source failed"};
  return encaps_internal(byte_span(m, 32));
}

DecapsKey::DecapsKey(std::unique_ptr<State> s) noexcept : st_(std::move(s)) {}
DecapsKey::DecapsKey(DecapsKey&&) noexcept = default;
DecapsKey& DecapsKey::operator=(DecapsKey&&) noexcept = default;
DecapsKey::~DecapsKey() = default;
ParameterSet DecapsKey::parameter_set() const noexcept { return st_->pub.ps; }
byte_span DecapsKey::encaps_key() const noexcept { return byte_span(st_->pub.ek, st_->pub.ek_len); }
byte_span DecapsKey::expanded() const noexcept { return byte_span(st_->dk, st_->dk_len); }

Result<DecapsKey> DecapsKey::from_seed(ParameterSet ps, byte_span seed) {
  if (seed.size() != kSeedSize)
    return Error{Errc::invalid_length, "ML-KEM seed (d ‖ z) must be 64 bytes, got " + std::to_string(seed.size())};
  return dispatch(ps, [&](auto p) -> Result<DecapsKey> {
    using S = Scheme<decltype(p)>;
    auto st = std::unique_ptr<State>(new State);  // default-initialized: no 13 KB memset
    st->pub.ps = ps;
    st->dk_len = S::kDk;
    S::keygen_internal(seed.data(), seed.data() + 32, st->pub.ek, st->dk, *st);
    return DecapsKey(std::move(st));
  });
}

Result<DecapsKey> DecapsKey::from_expanded(ParameterSet ps, byte_span dk) {
  return dispatch(ps, [&](auto p) -> Result<DecapsKey> {
    using P = decltype(p);
    using S = Scheme<P>;
    if (auto ok = do_check_dk<P>(dk); !ok) return ok.error();
    // The embedded ek and H(ek) are public (ek is the public key, H(ek) a hash of it).
    CT_DECLASSIFY(dk.data() + S::kDkPke, S::kEk + 32);
    auto st = std::unique_ptr<State>(new State);  // default-initialized: no 13 KB memset
    st->pub.ps = ps;
    S::expand_dk(dk, *st);
    return DecapsKey(std::move(st));
  });
}

Result<SecretBytes> DecapsKey::decaps(byte_span c) const {
  return dispatch(st_->pub.ps, [&](auto p) { return decaps_with<decltype(p)>(*st_, c); });
}

}  // namespace pqsig::mlkem
