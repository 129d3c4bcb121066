// FIPS 203: ML-KEM. One implementation, templated over the parameter set (k, η1, η2, du, dv);
// instantiated for ML-KEM-512, ML-KEM-768 and ML-KEM-1024. PQ core: no OpenSSL.
#include "pqsig/mlkem.hpp"

#include <cstring>

#include "common/ct.hpp"
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

// ---------------------------------------------------------------- SampleNTT (4-way)
// FIPS 203, Algorithm 7: SampleNTT(B) for up to four seeds ρ‖j‖i at once. The XOF is read
// incrementally, one 168-byte block after another, until all 256 coefficients are accepted;
// there is no fixed cut-off. ρ is public, so rejection branches are fine.
struct SampleNttLane {
  NttPoly* out = nullptr;
  int count = 0;
};
inline void sample_ntt_parse(SampleNttLane& l, const std::uint8_t* buf, std::size_t len) noexcept {
  for (std::size_t p = 0; p + 3 <= len && l.count < kN; p += 3) {
    const std::uint16_t d1 = static_cast<std::uint16_t>(buf[p] | ((buf[p + 1] & 0x0F) << 8));
    const std::uint16_t d2 = static_cast<std::uint16_t>((buf[p + 1] >> 4) | (buf[p + 2] << 4));
    if (d1 < kQ) l.out->c[l.count++] = d1;
    if (d2 < kQ && l.count < kN) l.out->c[l.count++] = d2;
  }
}
// seeds[n] = (j, i) byte pair appended to ρ; outs[n] receives Â entry. n ≤ 4.
void sample_ntt_x4(const std::uint8_t rho[32], const std::uint8_t idx[][2], NttPoly* const outs[], int n) noexcept {
  constexpr std::size_t kRate = hash::kShake128Rate;
  constexpr std::size_t kFirst = 3;  // 504 bytes = 336 candidates; ~99% of samples finish here
  std::uint8_t in[4][34];
  const std::uint8_t* inp[4];
  SampleNttLane lanes[4];
  NttPoly dummy;
  for (int l = 0; l < 4; ++l) {
    const int src = l < n ? l : 0;
    std::memcpy(in[l], rho, 32);
    in[l][32] = idx[src][0];
    in[l][33] = idx[src][1];
    inp[l] = in[l];
    lanes[l].out = l < n ? outs[l] : &dummy;
    lanes[l].count = l < n ? 0 : kN;
  }
  hash::Shake128x4 xof;
  xof.absorb_once(inp, 34);
  std::uint8_t buf[4][kFirst * kRate];
  std::uint8_t* outp[4] = {buf[0], buf[1], buf[2], buf[3]};
  xof.squeeze_blocks(outp, kFirst);
  for (int l = 0; l < 4; ++l) sample_ntt_parse(lanes[l], buf[l], kFirst * kRate);
  for (;;) {
    bool done = true;
    for (int l = 0; l < 4; ++l) done = done && lanes[l].count == kN;
    if (done) break;
    xof.squeeze_blocks(outp, 1);
    for (int l = 0; l < 4; ++l) sample_ntt_parse(lanes[l], buf[l], kRate);
  }
}

// Matrix Â, with Â[i][j] = SampleNTT(ρ ‖ j ‖ i) (FIPS 203 Algorithm 13 lines 3–7).
template <class P>
struct Matrix {
  NttPoly a[P::k][P::k];
};
template <class P>
void expand_matrix(Matrix<P>& m, const std::uint8_t rho[32]) noexcept {
  constexpr int kk = P::k * P::k;
  for (int base = 0; base < kk; base += 4) {
    std::uint8_t idx[4][2];
    NttPoly* outs[4];
    const int n = kk - base < 4 ? kk - base : 4;
    for (int t = 0; t < n; ++t) {
      const int i = (base + t) / P::k, j = (base + t) % P::k;
      idx[t][0] = static_cast<std::uint8_t>(j);
      idx[t][1] = static_cast<std::uint8_t>(i);
      outs[t] = &m.a[i][j];
    }
    sample_ntt_x4(rho, idx, outs, n);
  }
}

template <class T>
struct Wiped {  // a stack secret wiped on scope exit
  T v;
  Wiped() = default;
  Wiped(const Wiped&) = delete;
  Wiped& operator=(const Wiped&) = delete;
  ~Wiped() { secure_zero(&v, sizeof v); }
};

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
  static_assert(kCt == P::pub.ct_size, "ciphertext size (FIPS 203 Table 3)");
  static_assert(k == P::pub.k && P::eta1 == P::pub.eta1 && P::eta2 == P::pub.eta2 && P::du == P::pub.du &&
                P::dv == P::pub.dv);

  using Vec = NttPoly[k];

  // FIPS 203, Algorithm 13: K-PKE.KeyGen(d). Writes ek_PKE (kEkPke bytes) and dk_PKE (kDkPke bytes).
  static void kpke_keygen(const std::uint8_t d[32], std::uint8_t* ek, std::uint8_t* dk) noexcept {
    Wiped<std::uint8_t[64]> rs;                      // (ρ, σ) = G(d ‖ k)
    const std::uint8_t kbyte = static_cast<std::uint8_t>(k);
    G(rs.v, byte_span(d, 32), byte_span(&kbyte, 1));
    const std::uint8_t* rho = rs.v;
    const std::uint8_t* sigma = rs.v + 32;
    // ρ is the public half of the seed: it is published in ek.
    CT_DECLASSIFY(rs.v, 32);
    Matrix<P> A;
    expand_matrix<P>(A, rho);
    std::uint8_t N = 0;
    Wiped<NttPoly[k]> s_hat, e_hat;
    {
      Wiped<std::uint8_t[64 * P::eta1]> prf;
      for (int i = 0; i < k; ++i) {
        PRF<P::eta1>(prf.v, sigma, N++);
        Wiped<Poly> s;
        s.v = sample_poly_cbd<P::eta1>(prf.v);
        s_hat.v[i] = ntt(s.v);
      }
      for (int i = 0; i < k; ++i) {
        PRF<P::eta1>(prf.v, sigma, N++);
        Wiped<Poly> e;
        e.v = sample_poly_cbd<P::eta1>(prf.v);
        e_hat.v[i] = ntt(e.v);
      }
    }
    // t̂ = Â ∘ ŝ + ê
    for (int i = 0; i < k; ++i) {
      NttPoly t = e_hat.v[i];
      for (int j = 0; j < k; ++j) multiply_ntts_acc(t, A.a[i][j], s_hat.v[j]);
      byte_encode<12>(t.c, ek + 384 * i);
    }
    std::memcpy(ek + 384 * k, rho, 32);
    for (int i = 0; i < k; ++i) byte_encode<12>(s_hat.v[i].c, dk + 384 * i);
  }

  // FIPS 203, Algorithm 14: K-PKE.Encrypt(ek_PKE, m, r). `t_hat`/`A` are the decoded ek
  // (ByteDecode_12 of ek and the matrix from its ρ), so decapsulation can reuse them.
  static void kpke_encrypt(const NttPoly (&t_hat)[k], const Matrix<P>& A, const std::uint8_t m[32],
                           const std::uint8_t r[32], std::uint8_t* c) noexcept {
    std::uint8_t N = 0;
    Wiped<NttPoly[k]> y_hat;
    Wiped<Poly[k]> e1;
    Wiped<Poly> e2, mu, v;
    {
      Wiped<std::uint8_t[64 * (P::eta1 > P::eta2 ? P::eta1 : P::eta2)]> prf;
      for (int i = 0; i < k; ++i) {
        PRF<P::eta1>(prf.v, r, N++);
        Wiped<Poly> y;
        y.v = sample_poly_cbd<P::eta1>(prf.v);
        y_hat.v[i] = ntt(y.v);
      }
      for (int i = 0; i < k; ++i) {
        PRF<P::eta2>(prf.v, r, N++);
        e1.v[i] = sample_poly_cbd<P::eta2>(prf.v);
      }
      PRF<P::eta2>(prf.v, r, N++);
      e2.v = sample_poly_cbd<P::eta2>(prf.v);
    }
    // u = NTT^-1(Âᵀ ∘ ŷ) + e1 ; c1 = ByteEncode_du(Compress_du(u))
    for (int i = 0; i < k; ++i) {
      Wiped<NttPoly> acc;
      std::memset(acc.v.c, 0, sizeof acc.v.c);
      for (int j = 0; j < k; ++j) multiply_ntts_acc(acc.v, A.a[j][i], y_hat.v[j]);
      Wiped<Poly> u;
      u.v = ntt_inverse(acc.v);
      poly_add(u.v, e1.v[i]);
      for (int t = 0; t < kN; ++t) u.v.c[t] = compress<P::du>(u.v.c[t]);
      byte_encode<P::du>(u.v.c, c + 32 * P::du * i);
    }
    // μ = Decompress_1(ByteDecode_1(m))
    byte_decode_raw<1>(m, mu.v.c);
    for (int t = 0; t < kN; ++t) mu.v.c[t] = decompress<1>(mu.v.c[t]);
    // v = NTT^-1(t̂ᵀ ∘ ŷ) + e2 + μ ; c2 = ByteEncode_dv(Compress_dv(v))
    {
      Wiped<NttPoly> acc;
      std::memset(acc.v.c, 0, sizeof acc.v.c);
      for (int j = 0; j < k; ++j) multiply_ntts_acc(acc.v, t_hat[j], y_hat.v[j]);
      v.v = ntt_inverse(acc.v);
    }
    poly_add(v.v, e2.v);
    poly_add(v.v, mu.v);
    for (int t = 0; t < kN; ++t) v.v.c[t] = compress<P::dv>(v.v.c[t]);
    byte_encode<P::dv>(v.v.c, c + kC1);
  }

  // FIPS 203, Algorithm 15: K-PKE.Decrypt(dk_PKE, c) → m (32 bytes).
  static void kpke_decrypt(const std::uint8_t* dk_pke, const std::uint8_t* c, std::uint8_t m[32]) noexcept {
    Wiped<NttPoly> acc;
    std::memset(acc.v.c, 0, sizeof acc.v.c);
    for (int i = 0; i < k; ++i) {
      Poly u;  // u' = Decompress_du(ByteDecode_du(c1))
      byte_decode_raw<P::du>(c + 32 * P::du * i, u.c);
      for (int t = 0; t < kN; ++t) u.c[t] = decompress<P::du>(u.c[t]);
      const NttPoly u_hat = ntt(u);
      Wiped<NttPoly> s_hat;  // ŝ = ByteDecode_12(dk_PKE)
      byte_decode<12>(dk_pke + 384 * i, s_hat.v.c);
      multiply_ntts_acc(acc.v, s_hat.v, u_hat);
    }
    Wiped<Poly> w, v;
    byte_decode_raw<P::dv>(c + kC1, v.v.c);  // v' = Decompress_dv(ByteDecode_dv(c2))
    for (int t = 0; t < kN; ++t) v.v.c[t] = decompress<P::dv>(v.v.c[t]);
    w.v = ntt_inverse(acc.v);  // w = v' − NTT^-1(ŝᵀ ∘ NTT(u'))
    poly_sub(v.v, w.v);
    for (int t = 0; t < kN; ++t) v.v.c[t] = compress<1>(v.v.c[t]);
    byte_encode<1>(v.v.c, m);
  }

  static void decode_ek(const std::uint8_t* ek, NttPoly (&t_hat)[k], Matrix<P>& A) noexcept {
    for (int i = 0; i < k; ++i) byte_decode<12>(ek + 384 * i, t_hat[i].c);
    expand_matrix<P>(A, ek + 384 * k);
  }

  // FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal(d, z).
  static void keygen_internal(const std::uint8_t d[32], const std::uint8_t z[32], std::uint8_t* ek,
                              std::uint8_t* dk) noexcept {
    kpke_keygen(d, ek, dk);
    // ek is the public output; H(ek) is computed from it.
    CT_DECLASSIFY(ek, kEk);
    std::memcpy(dk + kDkPke, ek, kEk);
    H(dk + kDkPke + kEk, byte_span(ek, kEk));
    std::memcpy(dk + kDkPke + kEk + 32, z, 32);
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
  static void encaps_internal(const std::uint8_t* ek, const std::uint8_t m[32], std::uint8_t K[32],
                              std::uint8_t* c) noexcept {
    std::uint8_t hek[32];
    H(hek, byte_span(ek, kEk));
    Wiped<std::uint8_t[64]> kr;  // (K, r) = G(m ‖ H(ek))
    G(kr.v, byte_span(m, 32), byte_span(hek, 32));
    NttPoly t_hat[k];
    Matrix<P> A;
    decode_ek(ek, t_hat, A);
    kpke_encrypt(t_hat, A, m, kr.v + 32, c);
    std::memcpy(K, kr.v, 32);
    // The ciphertext is the public output of encapsulation.
    CT_DECLASSIFY(c, kCt);
  }

  // FIPS 203, Algorithm 18: ML-KEM.Decaps_internal(dk, c) → K, with implicit rejection in
  // constant time: the re-encryption is compared over all bytes and K vs K̄ is selected with
  // a mask, never a branch.
  static void decaps_internal(const std::uint8_t* dk, const std::uint8_t* c, std::uint8_t K[32]) noexcept {
    const std::uint8_t* dk_pke = dk;
    const std::uint8_t* ek_pke = dk + kDkPke;
    const std::uint8_t* h = dk + kDkPke + kEk;
    const std::uint8_t* z = dk + kDkPke + kEk + 32;
    Wiped<std::uint8_t[32]> m_prime;
    kpke_decrypt(dk_pke, c, m_prime.v);
    Wiped<std::uint8_t[64]> kr;  // (K', r') = G(m' ‖ h)
    G(kr.v, byte_span(m_prime.v, 32), byte_span(h, 32));
    Wiped<std::uint8_t[32]> k_bar;  // K̄ = J(z ‖ c)
    J(k_bar.v, byte_span(z, 32), byte_span(c, kCt));
    NttPoly t_hat[k];
    Matrix<P> A;
    decode_ek(ek_pke, t_hat, A);
    Wiped<std::uint8_t[kCt]> c_prime;  // c' = K-PKE.Encrypt(ek_PKE, m', r')
    kpke_encrypt(t_hat, A, m_prime.v, kr.v + 32, c_prime.v);
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
  S::keygen_internal(d.data(), z.data(), kp.ek.data(), kp.dk.data());
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
Result<Encapsulated> do_encaps(byte_span ek, byte_span m) {
  using S = Scheme<P>;
  if (auto st = do_check_ek<P>(ek); !st) return st.error();
  if (m.size() != 32) return Error{Errc::invalid_length, "ML-KEM Encaps: m must be 32 bytes"};
  Encapsulated out;
  out.c.resize(S::kCt);
  out.k = SecretBytes(32);
  S::encaps_internal(ek.data(), m.data(), out.k.data(), out.c.data());
  return out;
}

template <class P>
Result<SecretBytes> do_decaps(byte_span dk, byte_span c, bool check_hash) {
  using S = Scheme<P>;
  if (dk.size() != S::kDk)
    return Error{Errc::invalid_length, "ML-KEM decapsulation key must be " + std::to_string(S::kDk) +
                                           " bytes, got " + std::to_string(dk.size())};
  if (c.size() != S::kCt)
    return Error{Errc::invalid_length, "ML-KEM ciphertext must be " + std::to_string(S::kCt) + " bytes, got " +
                                           std::to_string(c.size())};
  // The embedded ek and H(ek) are public (ek is the public key, H(ek) a hash of it).
  CT_DECLASSIFY(dk.data() + S::kDkPke, S::kEk + 32);
  if (check_hash && !S::dk_hash_ok(dk.data()))
    return Error{Errc::key_check_failed, "ML-KEM decapsulation key fails the FIPS 203 §7.3 hash check"};
  SecretBytes K(32);
  S::decaps_internal(dk.data(), c.data(), K.data());
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

}  // namespace pqsig::mlkem
