// LM-OTS, LMS and HSS (RFC 8554; SP 800-208; RFC 9858). One implementation for every parameter
// set: the sets differ in the hash (SHA-256, SHA-256/192, SHAKE256/256, SHAKE256/192), n, w and h,
// carried by LmotsParams / LmsParams at run time; the hash calls that dominate (the Winternitz
// chains, RFC 8554 §4.3/§4.5/§4.6, each one input block) go through ChainHasher, which keeps
// a prepared, padded block and uses the SHA-256 compression (SHA-NI) or the 4-way kernels
// (SHA-256 ×4, Keccak ×4) for key generation.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>

#include <unistd.h>

#include "hash/sha2_backend.hpp"
#include "lms/lms_internal.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/lms.hpp"

namespace pqsig::lms {
namespace detail {

// ---------------------------------------------------------------- hashing

void Hx::update(const void* p, std::size_t n) noexcept {
  if (f_ == HashFamily::sha256)
    s_.update(p, n);
  else
    k_.absorb(p, n);
}
void Hx::update_prefix(const std::uint8_t* I, std::uint32_t q, std::uint16_t d) noexcept {
  std::uint8_t pre[22];
  std::memcpy(pre, I, 16);
  put_u32(pre + 16, q);
  put_u16(pre + 20, d);
  update(pre, sizeof pre);
}
void Hx::final(std::uint8_t* out, std::size_t n) noexcept {
  if (f_ == HashFamily::sha256) {
    std::uint8_t d[32];
    s_.final(d);
    std::memcpy(out, d, n);  // SP 800-208 / RFC 9858: SHA-256/192 = the first 24 bytes of SHA-256
    secure_zero(d, sizeof d);
  } else {
    k_.squeeze(out, n);      // SP 800-208 / RFC 9858: SHAKE256 with n bytes of output
  }
}

namespace {
constexpr std::uint32_t kSha256Iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
void store_words(const std::uint32_t h[8], std::uint8_t* out, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n / 4; ++i) put_u32(out + 4 * i, h[i]);
}
}  // namespace

ChainHasher::ChainHasher(HashFamily f, std::size_t n, const std::uint8_t* I, std::uint32_t q) noexcept
    : f_(f), n_(n) {
  std::memset(blk_, 0, sizeof blk_);
  std::memcpy(blk_, I, kIdBytes);
  put_u32(blk_ + 16, q);
  // FIPS 180-4 §5.1.1 padding of the 23 + n byte message, done once.
  blk_[23 + n] = 0x80;
  const std::uint64_t bits = (23 + n) * 8;
  for (int i = 0; i < 8; ++i) blk_[63 - i] = static_cast<std::uint8_t>(bits >> (8 * i));
  if (f_ == HashFamily::sha256) c_ = hash::detail::sha256_compress_fn();
}
ChainHasher::~ChainHasher() { secure_zero(blk_, sizeof blk_); }

void ChainHasher::hash(std::uint16_t i, std::uint8_t j, std::uint8_t* tmp) noexcept {
  put_u16(blk_ + 20, i);
  blk_[22] = j;
  std::memcpy(blk_ + 23, tmp, n_);
  if (f_ == HashFamily::sha256) {
    std::uint32_t h[8];
    std::memcpy(h, kSha256Iv, sizeof h);
    c_(h, blk_, 1);
    store_words(h, tmp, n_);
    secure_zero(h, sizeof h);
  } else {
    hash::Shake256 k;
    k.absorb(blk_, 23 + n_);
    k.squeeze(tmp, n_);
  }
}

void ChainHasher::chain(std::uint16_t i, unsigned from, unsigned to, std::uint8_t* tmp) noexcept {
  // RFC 8554 §4.3 / §4.5 / §4.6: tmp = H(I || u32str(q) || u16str(i) || u8str(j) || tmp), j = from .. to-1.
  for (unsigned j = from; j < to; ++j) hash(i, static_cast<std::uint8_t>(j), tmp);
}

void ChainHasher::chain_x4(const std::uint16_t i[4], unsigned to, std::uint8_t* const tmp[4]) noexcept {
  alignas(32) std::uint8_t blks[4][64];
  for (int l = 0; l < 4; ++l) {
    std::memcpy(blks[l], blk_, 64);
    put_u16(blks[l] + 20, i[l]);
  }
  if (f_ == HashFamily::sha256) {
    const auto cx4 = hash::detail::sha256_compress_x4_fn();
    std::uint32_t hs[4][8];
    std::uint32_t* hp[4] = {hs[0], hs[1], hs[2], hs[3]};
    const std::uint8_t* bp[4] = {blks[0], blks[1], blks[2], blks[3]};
    for (unsigned j = 0; j < to; ++j) {
      for (int l = 0; l < 4; ++l) {
        blks[l][22] = static_cast<std::uint8_t>(j);
        std::memcpy(blks[l] + 23, tmp[l], n_);
        std::memcpy(hs[l], kSha256Iv, sizeof kSha256Iv);
      }
      cx4(hp, bp);
      for (int l = 0; l < 4; ++l) store_words(hs[l], tmp[l], n_);
    }
    secure_zero(hs, sizeof hs);
  } else {
    alignas(32) std::uint8_t outs[4][hash::kShake256Rate];
    std::uint8_t* op[4] = {outs[0], outs[1], outs[2], outs[3]};
    const std::uint8_t* ip[4] = {blks[0], blks[1], blks[2], blks[3]};
    for (unsigned j = 0; j < to; ++j) {
      for (int l = 0; l < 4; ++l) {
        blks[l][22] = static_cast<std::uint8_t>(j);
        std::memcpy(blks[l] + 23, tmp[l], n_);
      }
      hash::Shake256x4 k;
      k.absorb_once(ip, 23 + n_);
      k.squeeze_blocks(op, 1);
      for (int l = 0; l < 4; ++l) std::memcpy(tmp[l], outs[l], n_);
    }
    secure_zero(outs, sizeof outs);
  }
  secure_zero(blks, sizeof blks);
}

// ---------------------------------------------------------------- LM-OTS

// RFC 8554 §3.1.3 (Algorithm 0 "coef"): the i-th w-bit digit of S, most significant first.
unsigned coef(const std::uint8_t* S, unsigned i, unsigned w) noexcept {
  const unsigned mask = (1u << w) - 1;
  return (S[(i * w) / 8] >> (8 - (w * (i % (8 / w)) + w))) & mask;
}

// RFC 8554 §4.4 (Algorithm 2 "Cksm"): sum of (2^w - 1 - digit) over the n*8/w digits of Q, << ls.
std::uint16_t cksm(const LmotsParams& p, const std::uint8_t* Q) noexcept {
  unsigned sum = 0;
  const unsigned mx = (1u << p.w) - 1;
  for (unsigned i = 0; i < p.n * 8 / p.w; ++i) sum += mx - coef(Q, i, p.w);
  return static_cast<std::uint16_t>(sum << p.ls);
}

// The digits a_0 .. a_{p-1} of Q || Cksm(Q) (RFC 8554 §4.5 step 5 / §4.6 Algorithm 4b step 3).
void digits(const LmotsParams& p, const std::uint8_t* Q, unsigned* a) noexcept {
  std::uint8_t qc[34];
  std::memcpy(qc, Q, p.n);
  put_u16(qc + p.n, cksm(p, Q));
  for (unsigned i = 0; i < p.p; ++i) a[i] = coef(qc, i, p.w);
}

// RFC 8554 Appendix A: x_q[i] = H(I || u32str(q) || u16str(i) || u8str(0xff) || SEED) — the same
// one-block layout as a chain step with j = 0xff.
void ots_private_element(ChainHasher& ch, std::uint16_t i, const std::uint8_t* seed, std::uint8_t* out) noexcept {
  std::memcpy(out, seed, ch.n());
  ch.hash(i, 0xff, out);
}

// RFC 8554 §4.3 (Algorithm 1): K = H(I || u32str(q) || u16str(D_PBLC) || y[0] || ... || y[p-1]),
// y[i] the end of chain i (2^w - 1 steps from x_q[i]). Chains run four at a time.
void ots_public_key(const LmotsParams& p, const std::uint8_t* I, std::uint32_t q, const std::uint8_t* seed,
                    std::uint8_t* K) noexcept {
  ChainHasher ch(p.hash, p.n, I, q);
  std::uint8_t y[265 * 32];
  const unsigned top = (1u << p.w) - 1;
  unsigned i = 0;
  for (; i + 4 <= p.p; i += 4) {
    std::uint16_t idx[4];
    std::uint8_t* t[4];
    for (unsigned l = 0; l < 4; ++l) {
      idx[l] = static_cast<std::uint16_t>(i + l);
      t[l] = y + (i + l) * p.n;
      ots_private_element(ch, idx[l], seed, t[l]);
    }
    ch.chain_x4(idx, top, t);
  }
  for (; i < p.p; ++i) {
    ots_private_element(ch, static_cast<std::uint16_t>(i), seed, y + i * p.n);
    ch.chain(static_cast<std::uint16_t>(i), 0, top, y + i * p.n);
  }
  Hx hx(p.hash);
  hx.update_prefix(I, q, kDPblc);
  hx.update(y, p.p * p.n);  // public values (they are the one-time public key)
  hx.final(K, p.n);
  secure_zero(y, sizeof y);
}

// RFC 8554 §4.5 / §4.6: the message hash Q = H(I || u32str(q) || u16str(D_MESG) || C || message)
// (n bytes), then its Winternitz digits with the checksum appended, a[0 .. p-1].
void ots_message_digits(const LmotsParams& p, const std::uint8_t* I, std::uint32_t q, const std::uint8_t* C,
                        byte_span message, unsigned* a) noexcept {
  std::uint8_t Q[32];
  Hx hq(p.hash);
  hq.update_prefix(I, q, kDMesg);
  hq.update(C, p.n);
  hq.update(message.data(), message.size());
  hq.final(Q, p.n);
  digits(p, Q, a);
}

// RFC 8554 §4.5 (Algorithm 3): LM-OTS signature u32str(type) || C || y[0] || ... || y[p-1].
// C is derived pseudorandomly from the SEED in the Appendix A layout (unpredictable without the
// SEED): C = H(I || u32str(q) || u16str(0xFFFD) || u8str(0xff) || SEED).
void ots_sign(const LmotsParams& p, const std::uint8_t* I, std::uint32_t q, const std::uint8_t* seed,
              byte_span message, std::uint8_t* sig, const std::uint8_t* given_C) noexcept {
  ChainHasher ch(p.hash, p.n, I, q);
  put_u32(sig, p.type);
  std::uint8_t* C = sig + 4;
  if (given_C)
    std::memcpy(C, given_C, p.n);
  else
    ots_private_element(ch, kSeedC, seed, C);
  unsigned a[265];
  ots_message_digits(p, I, q, C, message, a);
  for (unsigned i = 0; i < p.p; ++i) {
    std::uint8_t* y = sig + 4 + p.n * (1 + i);
    ots_private_element(ch, static_cast<std::uint16_t>(i), seed, y);
    // The chain length is a digit of the public message hash Q: no secret-dependent branch.
    ch.chain(static_cast<std::uint16_t>(i), 0, a[i], y);
  }
}

// RFC 8554 §4.6 (Algorithm 4b): the candidate public key Kc from an LM-OTS signature, or false
// when the signature is malformed (length, or type not the expected one).
bool ots_candidate(const LmotsParams& p, const std::uint8_t* I, std::uint32_t q, byte_span message,
                   byte_span sig, std::uint8_t* Kc) noexcept {
  if (sig.size() != p.sig_bytes || get_u32(sig.data()) != p.type) return false;
  const std::uint8_t* C = sig.data() + 4;
  unsigned a[265];
  ots_message_digits(p, I, q, C, message, a);
  ChainHasher ch(p.hash, p.n, I, q);
  Hx hk(p.hash);
  hk.update_prefix(I, q, kDPblc);
  const unsigned top = (1u << p.w) - 1;
  std::uint8_t z[32];
  for (unsigned i = 0; i < p.p; ++i) {
    std::memcpy(z, sig.data() + 4 + p.n * (1 + i), p.n);
    ch.chain(static_cast<std::uint16_t>(i), a[i], top, z);
    hk.update(z, p.n);
  }
  hk.final(Kc, p.n);
  return true;
}

// ---------------------------------------------------------------- LMS tree

// RFC 8554 §5.3: leaf T[r] = H(I || u32str(r) || u16str(D_LEAF) || OTS_PUB_HASH[r - 2^h]).
void leaf_node(HashFamily f, std::size_t m, const std::uint8_t* I, std::uint32_t r, const std::uint8_t* K,
               std::uint8_t* out) noexcept {
  Hx hx(f);
  hx.update_prefix(I, r, kDLeaf);
  hx.update(K, m);
  hx.final(out, m);
}
// RFC 8554 §5.3: interior T[r] = H(I || u32str(r) || u16str(D_INTR) || T[2r] || T[2r+1]).
void interior_node(HashFamily f, std::size_t m, const std::uint8_t* I, std::uint32_t r, const std::uint8_t* left,
                   const std::uint8_t* right, std::uint8_t* out) noexcept {
  Hx hx(f);
  hx.update_prefix(I, r, kDIntr);
  hx.update(left, m);
  hx.update(right, m);
  hx.final(out, m);
}

namespace {
unsigned worker_count(unsigned threads) {
  if (threads) return threads;
  const unsigned hc = std::thread::hardware_concurrency();
  return hc ? std::min(hc, 64u) : 1u;
}
}  // namespace

void Tree::build_subtree(std::uint64_t s, unsigned threads) {
  const std::size_t m = lv.lms->m;
  const unsigned h = lv.lms->h;
  const std::uint64_t nleaves = std::uint64_t{1} << k;
  sub.assign(static_cast<std::size_t>(2 * nleaves) * m, 0);
  // Leaves (the cost: one LM-OTS key generation each), spread over worker threads.
  std::atomic<std::uint64_t> next{0};
  auto work = [&] {
    std::uint8_t K[32];
    for (;;) {
      const std::uint64_t t0 = next.fetch_add(8);
      if (t0 >= nleaves) break;
      for (std::uint64_t t = t0; t < std::min(t0 + 8, nleaves); ++t) {
        const std::uint32_t q = static_cast<std::uint32_t>((s << k) + t);
        ots_public_key(*lv.ots, I.data(), q, seed.data(), K);
        leaf_node(lv.lms->hash, m, I.data(), static_cast<std::uint32_t>((std::uint64_t{1} << h) + q), K,
                  sub.data() + (nleaves + t) * m);
      }
    }
  };
  const unsigned nt = static_cast<unsigned>(std::min<std::uint64_t>(worker_count(threads), (nleaves + 7) / 8));
  if (nt <= 1) {
    work();
  } else {
    std::vector<std::thread> ts;
    for (unsigned i = 0; i < nt; ++i) ts.emplace_back(work);
    for (auto& t : ts) t.join();
  }
  // Interior nodes of the subtree: local j ↔ global node R·2^d + (j − 2^d), R = 2^(h−k) + s.
  const std::uint64_t R = (std::uint64_t{1} << (h - k)) + s;
  for (std::uint64_t j = nleaves - 1; j >= 1; --j) {
    unsigned d = 0;
    while ((std::uint64_t{2} << d) <= j) ++d;
    const std::uint64_t r = (R << d) + (j - (std::uint64_t{1} << d));
    interior_node(lv.lms->hash, m, I.data(), static_cast<std::uint32_t>(r), sub.data() + 2 * j * m,
                  sub.data() + (2 * j + 1) * m, sub.data() + j * m);
  }
  sub_index = static_cast<std::int64_t>(s);
}

void Tree::build(unsigned threads) {
  const std::size_t m = lv.lms->m;
  const unsigned h = lv.lms->h;
  k = std::min(h, kSubtreeHeight);
  const std::uint64_t nsub = std::uint64_t{1} << (h - k);
  top.assign(static_cast<std::size_t>(2 * nsub) * m, 0);
  // Subtrees from the last to the first, so that subtree 0 (the first to sign) stays cached.
  for (std::uint64_t s = nsub; s-- > 0;) {
    build_subtree(s, threads);
    std::memcpy(top.data() + (nsub + s) * m, sub.data() + m, m);
  }
  for (std::uint64_t r = nsub - 1; r >= 1; --r)
    interior_node(lv.lms->hash, m, I.data(), static_cast<std::uint32_t>(r), top.data() + 2 * r * m,
                  top.data() + (2 * r + 1) * m, top.data() + r * m);
  set_pub();
}

// RFC 8554 §5.3: the LMS public key u32str(type) || u32str(otstype) || I || T[1].
void Tree::set_pub() {
  const std::size_t m = lv.lms->m;
  pub.assign(8 + kIdBytes + m, 0);
  put_u32(pub.data(), lv.lms->type);
  put_u32(pub.data() + 4, lv.ots->type);
  std::memcpy(pub.data() + 8, I.data(), kIdBytes);
  std::memcpy(pub.data() + 8 + kIdBytes, top.data() + m, m);
}

namespace {
constexpr char kTopMagic[7] = {'P', 'Q', 'L', 'M', 'S', 'T', '1'};
}

bytes Tree::save_top() const {
  bytes out(35 + top.size() + 32);
  std::memcpy(out.data(), kTopMagic, 7);
  put_u32(out.data() + 7, lv.lms->type);
  put_u32(out.data() + 11, lv.ots->type);
  std::memcpy(out.data() + 15, I.data(), kIdBytes);
  put_u32(out.data() + 31, k);
  std::memcpy(out.data() + 35, top.data(), top.size());
  const auto d = hash::sha256(byte_span(out).first(35 + top.size()));
  std::memcpy(out.data() + 35 + top.size(), d.data(), d.size());
  return out;
}

bool Tree::load_top(byte_span b) {
  const std::size_t m = lv.lms->m;
  const unsigned h = lv.lms->h;
  const unsigned kk = std::min(h, kSubtreeHeight);
  const std::size_t top_bytes = (std::size_t{2} << (h - kk)) * m;
  if (b.size() != 35 + top_bytes + 32 || std::memcmp(b.data(), kTopMagic, 7) != 0) return false;
  if (get_u32(b.data() + 7) != lv.lms->type || get_u32(b.data() + 11) != lv.ots->type) return false;
  if (std::memcmp(b.data() + 15, I.data(), kIdBytes) != 0 || get_u32(b.data() + 31) != kk) return false;
  const auto d = hash::sha256(b.first(b.size() - 32));
  if (!ct_equal(d, b.last(32))) return false;
  k = kk;
  top.assign(b.begin() + 35, b.begin() + 35 + static_cast<std::ptrdiff_t>(top_bytes));
  sub.clear();
  sub_index = -1;
  set_pub();
  return true;
}

const std::uint8_t* Tree::node(std::uint64_t r, unsigned threads) {
  const std::size_t m = lv.lms->m;
  const unsigned h = lv.lms->h;
  unsigned depth = 0;
  while ((std::uint64_t{2} << depth) <= r) ++depth;
  if (depth <= h - k) return top.data() + r * m;
  const unsigned d = depth - (h - k);             // depth inside the subtree
  const std::uint64_t R = r >> d;                 // its subtree root
  const std::uint64_t s = R - (std::uint64_t{1} << (h - k));
  if (sub_index != static_cast<std::int64_t>(s)) build_subtree(s, threads);
  const std::uint64_t j = (std::uint64_t{1} << d) + (r - (R << d));
  return sub.data() + j * m;
}

// RFC 8554 §5.4.1: LMS signature u32str(q) || lmots_signature || u32str(type) || path[0..h-1],
// path[i] = T[(2^h + q) / 2^i XOR 1].
bytes Tree::sign(std::uint32_t q, byte_span message, unsigned threads, const std::uint8_t* given_C) {
  const std::size_t m = lv.lms->m;
  const unsigned h = lv.lms->h;
  bytes sig(lms_signature_bytes(lv));
  put_u32(sig.data(), q);
  ots_sign(*lv.ots, I.data(), q, seed.data(), message, sig.data() + 4, given_C);
  std::uint8_t* p = sig.data() + 4 + lv.ots->sig_bytes;
  put_u32(p, lv.lms->type);
  p += 4;
  const std::uint64_t node_num = (std::uint64_t{1} << h) + q;
  for (unsigned i = 0; i < h; ++i) std::memcpy(p + i * m, node(((node_num >> i) ^ 1), threads), m);
  return sig;
}

// A child tree derived in the RFC 8554 Appendix A layout (our choice of indices, not hash-sigs'):
// SEED' = H(I || u32str(q) || u16str(0xFFFE) || u8str(0xff) || SEED),
// I'    = first 16 bytes of H(I || u32str(q) || u16str(0xFFFF) || u8str(0xff) || SEED).
void derive_child(const Tree& parent, std::uint32_t q, std::uint8_t* child_I, std::uint8_t* child_seed) noexcept {
  ChainHasher ch(parent.lv.lms->hash, parent.lv.lms->m, parent.I.data(), q);
  ots_private_element(ch, kSeedChildSeed, parent.seed.data(), child_seed);
  std::uint8_t t[32];
  ots_private_element(ch, kSeedChildI, parent.seed.data(), t);
  std::memcpy(child_I, t, kIdBytes);
  secure_zero(t, sizeof t);
}

}  // namespace detail

using namespace detail;

// ---------------------------------------------------------------- verification

namespace {
// RFC 8554 §5.4.2 (Algorithm 6a): Tc from an LMS public key's parameters and a signature, or an error.
Status lms_verify_impl(byte_span pub, byte_span message, byte_span sig) {
  if (pub.size() < 8) return Error{Errc::invalid_length, "lms: public key too short"};
  const LmsParams* lp = find_lms(get_u32(pub.data()));
  const LmotsParams* op = find_lmots(get_u32(pub.data() + 4));
  if (!lp || !op) return Error{Errc::unknown_suite, "lms: unknown LMS or LM-OTS type in public key"};
  if (lp->hash != op->hash || lp->m != op->n)
    return Error{Errc::invalid_encoding, "lms: public key mixes hash functions or lengths"};
  const Level lv{lp, op};
  if (pub.size() != lms_public_key_bytes(lv)) return Error{Errc::invalid_length, "lms: public key length"};
  const std::uint8_t* I = pub.data() + 8;
  const std::uint8_t* T1 = pub.data() + 8 + kIdBytes;
  // Algorithm 6a step 2: parse q, the LM-OTS signature, the LMS type and the path.
  if (sig.size() < 8) return Error{Errc::verify_failed, "lms: signature too short"};
  const std::uint32_t q = get_u32(sig.data());
  if (get_u32(sig.data() + 4) != op->type) return Error{Errc::verify_failed, "lms: LM-OTS type mismatch"};
  if (sig.size() < 4 + op->sig_bytes + 4) return Error{Errc::verify_failed, "lms: signature too short"};
  if (get_u32(sig.data() + 4 + op->sig_bytes) != lp->type)
    return Error{Errc::verify_failed, "lms: LMS type mismatch"};
  if (sig.size() != lms_signature_bytes(lv)) return Error{Errc::verify_failed, "lms: signature length"};
  if (q >= (std::uint64_t{1} << lp->h)) return Error{Errc::verify_failed, "lms: leaf index out of range"};
  std::uint8_t Kc[32];
  if (!ots_candidate(*op, I, q, message, sig.subspan(4, op->sig_bytes), Kc))
    return Error{Errc::verify_failed, "lms: malformed LM-OTS signature"};
  // Steps 3–4: climb from the leaf to the root.
  const std::size_t m = lp->m;
  const std::uint8_t* path = sig.data() + 4 + op->sig_bytes + 4;
  std::uint64_t node_num = (std::uint64_t{1} << lp->h) + q;
  std::uint8_t tmp[32];
  leaf_node(lp->hash, m, I, static_cast<std::uint32_t>(node_num), Kc, tmp);
  for (unsigned i = 0; node_num > 1; ++i, node_num >>= 1) {
    const auto parent = static_cast<std::uint32_t>(node_num / 2);
    if (node_num & 1)
      interior_node(lp->hash, m, I, parent, path + i * m, tmp, tmp);
    else
      interior_node(lp->hash, m, I, parent, tmp, path + i * m, tmp);
  }
  if (!ct_equal({tmp, m}, {T1, m})) return Error{Errc::verify_failed, "lms: signature does not verify"};
  return {};
}
}  // namespace

Status lms_verify(byte_span public_key, byte_span message, byte_span signature) {
  return lms_verify_impl(public_key, message, signature);
}

// RFC 8554 §6.3: HSS verification — each level's LMS signature of the next public key, then the
// last level's of the message.
Status hss_verify(byte_span pub, byte_span message, byte_span sig) {
  if (pub.size() < 4) return Error{Errc::invalid_length, "hss: public key too short"};
  const std::uint32_t L = get_u32(pub.data());
  if (L < 1 || L > kMaxLevels) return Error{Errc::invalid_encoding, "hss: L must be 1..8"};
  if (sig.size() < 4) return Error{Errc::verify_failed, "hss: signature too short"};
  const std::uint32_t nspk = get_u32(sig.data());
  if (nspk + 1 != L) return Error{Errc::verify_failed, "hss: Nspk + 1 != L"};
  byte_span key = pub.subspan(4);
  byte_span rest = sig.subspan(4);
  // Sizes come from the types inside the signature; each is checked before it is used.
  auto lms_sig_len = [](byte_span s, const LmsParams*& lp) -> std::size_t {
    if (s.size() < 8) return 0;
    const LmotsParams* op = find_lmots(get_u32(s.data() + 4));
    if (!op || s.size() < 4 + op->sig_bytes + 4) return 0;
    lp = find_lms(get_u32(s.data() + 4 + op->sig_bytes));
    if (!lp) return 0;
    return 4 + op->sig_bytes + 4 + static_cast<std::size_t>(lp->h) * lp->m;
  };
  for (std::uint32_t i = 0; i < nspk; ++i) {
    const LmsParams* lp = nullptr;
    const std::size_t sl = lms_sig_len(rest, lp);
    if (sl == 0 || rest.size() < sl + 8) return Error{Errc::verify_failed, "hss: truncated signed public key"};
    const LmsParams* nlp = find_lms(get_u32(rest.data() + sl));
    if (!nlp) return Error{Errc::verify_failed, "hss: unknown LMS type in signed public key"};
    const std::size_t pl = 8 + kIdBytes + nlp->m;
    if (rest.size() < sl + pl) return Error{Errc::verify_failed, "hss: truncated signed public key"};
    const byte_span s = rest.subspan(0, sl), next = rest.subspan(sl, pl);
    if (auto st = lms_verify_impl(key, next, s); !st)
      return Error{st.error().code, "hss: level " + std::to_string(i) + ": " + st.error().message};
    key = next;
    rest = rest.subspan(sl + pl);
  }
  if (auto st = lms_verify_impl(key, message, rest); !st)
    return Error{st.error().code, "hss: " + st.error().message};
  return {};
}

// ---------------------------------------------------------------- keys

Result<bytes> lms_public_key_from_seed(const Level& lv, byte_span I, byte_span seed) {
  const Level one[1] = {lv};
  if (auto st = check_levels(one); !st) return st.error();
  if (I.size() != kIdBytes) return Error{Errc::invalid_length, "lms: I must be 16 bytes"};
  if (seed.size() != lv.lms->m) return Error{Errc::invalid_length, "lms: SEED must be m bytes"};
  Tree t;
  t.lv = lv;
  std::memcpy(t.I.data(), I.data(), kIdBytes);
  t.seed = SecretBytes(seed);
  t.build(0);
  return t.pub;
}

Result<HssPrivateKey> HssPrivateKey::from_seed(std::span<const Level> levels, byte_span I, byte_span seed) {
  if (auto st = check_levels(levels); !st) return st.error();
  if (I.size() != kIdBytes) return Error{Errc::invalid_length, "lms: I must be 16 bytes"};
  if (seed.size() != levels.front().lms->m) return Error{Errc::invalid_length, "lms: SEED must be m bytes"};
  HssPrivateKey k;
  k.levels_.assign(levels.begin(), levels.end());
  std::memcpy(k.id_.data(), I.data(), kIdBytes);
  k.seed_ = SecretBytes(seed);
  return k;
}

Result<HssPrivateKey> HssPrivateKey::generate(std::span<const Level> levels) {
  if (auto st = check_levels(levels); !st) return st.error();
  std::uint8_t I[kIdBytes];
  SecretBytes seed(levels.front().lms->m);
  if (!random_bytes(I) || !random_bytes(seed.mut_span()))
    return Error{Errc::rng_failure, "lms: the OS random source failed"};
  return from_seed(levels, I, seed.span());
}

std::uint64_t HssPrivateKey::max_signatures() const noexcept {
  unsigned total = 0;
  for (const auto& lv : levels_) total += lv.lms->h;
  return std::uint64_t{1} << total;
}

std::uint64_t hss_subtree_size(std::span<const Level> levels) noexcept {
  unsigned below = 0;
  for (std::size_t i = 1; i < levels.size(); ++i) below += levels[i].lms ? levels[i].lms->h : 0;
  return below >= 64 ? 0 : std::uint64_t{1} << below;
}

namespace {
constexpr char kKeyMagic[6] = {'P', 'Q', 'H', 'S', 'S', '1'};
}

SecretBytes HssPrivateKey::serialize() const {
  SecretBytes out(6 + 4 + 8 * levels_.size() + kIdBytes + seed_.size());
  std::uint8_t* p = out.data();
  std::memcpy(p, kKeyMagic, 6);
  put_u32(p + 6, static_cast<std::uint32_t>(levels_.size()));
  p = put_level_types(p + 10, levels_);
  std::memcpy(p, id_.data(), kIdBytes);
  std::memcpy(p + kIdBytes, seed_.data(), seed_.size());
  return out;
}

Result<HssPrivateKey> HssPrivateKey::parse(byte_span e) {
  if (e.size() < 10 || std::memcmp(e.data(), kKeyMagic, 6) != 0)
    return Error{Errc::invalid_encoding, "lms: not an HSS private key (PQHSS1)"};
  const std::uint32_t L = get_u32(e.data() + 6);
  if (L < 1 || L > kMaxLevels) return Error{Errc::invalid_encoding, "lms: private key L must be 1..8"};
  if (e.size() < 10 + 8 * L + kIdBytes) return Error{Errc::invalid_length, "lms: private key truncated"};
  std::vector<Level> levels;
  if (!get_level_types(e.data() + 10, L, levels))
    return Error{Errc::invalid_encoding, "lms: private key has an unknown type"};
  if (auto st = check_levels(levels); !st) return Error{Errc::invalid_encoding, st.error().message};
  const std::size_t off = 10 + 8 * L;
  if (e.size() != off + kIdBytes + levels.front().lms->m) return Error{Errc::invalid_length, "lms: private key length"};
  return from_seed(levels, e.subspan(off, kIdBytes), e.subspan(off + kIdBytes));
}

// ---------------------------------------------------------------- HSS signer

namespace detail {
bytes read_small_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return {};
  bytes out;
  std::uint8_t buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && out.size() < (std::size_t{1} << 30))
    out.insert(out.end(), buf, buf + n);
  std::fclose(f);
  return out;
}
bool write_small_file(const std::string& path, byte_span data) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

struct SignerCache {
  std::vector<Level> levels;
  std::vector<Tree> trees;                // one per level: the tree that signs the current index
  std::vector<std::uint64_t> tree_id;     // index >> (sum of heights at and below the level)
  std::vector<bytes> child_sig;           // child_sig[i]: tree i's LMS signature of tree i+1's key
  std::vector<unsigned> shift;            // sum of heights strictly below level i
  bytes hss_pub;
  std::uint64_t max = 0;
  unsigned threads = 0;
  // A delegated key (docs/lms.md, "HSS subtrees"): no top tree; level-1 trees and their top
  // signatures come from it, and only indices in [first, max) can be signed.
  std::unique_ptr<DelegatedKey> delegated;
  std::uint64_t first = 0;

  // A fresh signer for `key_levels` signing up to index `end`: the per-level vectors sized (no
  // tree loaded yet) and the index shifts set.
  void start(const std::vector<Level>& key_levels, unsigned thread_count, std::uint64_t end) {
    levels = key_levels;
    threads = thread_count;
    max = end;
    const std::size_t L = levels.size();
    trees.resize(L);
    tree_id.assign(L, ~std::uint64_t{0});
    child_sig.resize(L ? L - 1 : 0);
    shift.assign(L, 0);
    for (std::size_t i = L; i-- > 1;) shift[i - 1] = shift[i] + levels[i].lms->h;
  }
};
}  // namespace detail

HssSigner::HssSigner() = default;
HssSigner::HssSigner(HssSigner&&) noexcept = default;
HssSigner& HssSigner::operator=(HssSigner&&) noexcept = default;
HssSigner::~HssSigner() = default;

Result<HssSigner> HssSigner::create(HssPrivateKey key, unsigned threads, const std::string& tree_cache) {
  HssSigner s;
  s.c_ = std::make_unique<SignerCache>();
  auto& c = *s.c_;
  c.start(key.levels(), threads, key.max_signatures());
  const std::size_t L = c.levels.size();
  // RFC 8554 §6.1: the top tree from (I, SEED); its public key is the HSS key's.
  Tree& t0 = c.trees[0];
  t0.lv = c.levels[0];
  t0.I = key.id();
  t0.seed = SecretBytes(key.seed());
  if (!tree_cache.empty()) {
    if (auto body = read_small_file(tree_cache); body.empty() || !t0.load_top(body)) {
      t0.build(threads);
      (void)write_small_file(tree_cache, t0.save_top());  // a cache: failing to write it is not an error
    }
  } else {
    t0.build(threads);
  }
  c.tree_id[0] = 0;
  c.hss_pub.assign(4, 0);
  put_u32(c.hss_pub.data(), static_cast<std::uint32_t>(L));
  c.hss_pub.insert(c.hss_pub.end(), t0.pub.begin(), t0.pub.end());
  return s;
}

Result<HssSigner> HssSigner::create(DelegatedKey key, unsigned threads) {
  HssSigner s;
  s.c_ = std::make_unique<SignerCache>();
  auto& c = *s.c_;
  c.start(key.levels(), threads, key.end_index());
  c.first = key.first_index();
  if (c.levels.size() < 2) return Error{Errc::invalid_argument, "hss: a delegated key needs at least two levels"};
  c.hss_pub = key.public_key();
  c.delegated = std::make_unique<DelegatedKey>(std::move(key));
  return s;
}

const bytes& HssSigner::public_key() const noexcept { return c_->hss_pub; }
std::uint64_t HssSigner::max_signatures() const noexcept { return c_->max; }

Result<bytes> HssSigner::sign_at(std::uint64_t index, byte_span message) {
  auto& c = *c_;
  if (c.delegated && (index < c.first || index >= c.max))
    return Error{Errc::policy, "hss: index " + std::to_string(index) + " is outside the delegated subtrees [" +
                                   std::to_string(c.delegated->first_subtree()) + ", " +
                                   std::to_string(c.delegated->end_subtree()) +
                                   ") — this key holds no material for it"};
  if (index >= c.max) return Error{Errc::key_exhausted, "hss: index beyond the key's last signature"};
  const std::size_t L = c.levels.size();
  // RFC 8554 §6.1/§6.2: make sure the tree of every level is the one on index's path; a lower
  // tree is derived from its parent's SEED and leaf, and signed by that leaf.
  for (std::size_t i = 1; i < L; ++i) {
    const std::uint64_t id = index >> (c.shift[i - 1]);  // identifies tree i (parent id and leaf)
    if (c.tree_id[i] == id) continue;
    if (i == 1 && c.delegated) {
      // The level-1 tree from the delegated material (its I and SEED are the ones derive_child
      // gives the full key), signed by the top tree at export time.
      const DelegatedKey::Subtree* d = c.delegated->subtree(id);
      if (!d) return Error{Errc::internal, "hss: delegated subtree missing"};
      Tree& t = c.trees[1];
      t.lv = c.levels[1];
      t.I = d->id;
      t.seed = d->seed.clone();
      t.build(c.threads);
      if (t.pub != d->public_key)
        return Error{Errc::state_rejected, "hss: the delegated key's SEED for subtree " + std::to_string(id) +
                                               " does not give its signed public key (corrupt key)"};
      c.child_sig[0] = d->top_signature;
      c.tree_id[1] = id;
      for (std::size_t j = 2; j < L; ++j) c.tree_id[j] = ~std::uint64_t{0};
      continue;
    }
    Tree& parent = c.trees[i - 1];
    const auto q = static_cast<std::uint32_t>(id & ((std::uint64_t{1} << c.levels[i - 1].lms->h) - 1));
    Tree& t = c.trees[i];
    t.lv = c.levels[i];
    t.seed = SecretBytes(t.lv.lms->m);
    derive_child(parent, q, t.I.data(), t.seed.data());
    t.build(c.threads);
    c.child_sig[i - 1] = parent.sign(q, t.pub, c.threads);
    c.tree_id[i] = id;
    for (std::size_t j = i + 1; j < L; ++j) c.tree_id[j] = ~std::uint64_t{0};  // below: rebuild
  }
  Tree& last = c.trees[L - 1];
  const auto q = static_cast<std::uint32_t>(index & ((std::uint64_t{1} << c.levels[L - 1].lms->h) - 1));
  bytes out(4, 0);
  put_u32(out.data(), static_cast<std::uint32_t>(L - 1));
  for (std::size_t i = 0; i + 1 < L; ++i) {
    out.insert(out.end(), c.child_sig[i].begin(), c.child_sig[i].end());
    out.insert(out.end(), c.trees[i + 1].pub.begin(), c.trees[i + 1].pub.end());
  }
  const bytes s = last.sign(q, message, c.threads);
  out.insert(out.end(), s.begin(), s.end());
  return out;
}

}  // namespace pqsig::lms
