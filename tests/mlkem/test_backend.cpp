// The SIMD backends of the ML-KEM arithmetic (src/mlkem/poly_avx2.cpp, poly_avx512.cpp) against the scalar
// reference, bit for bit, on random and extreme inputs (every PolyOps function; Compress and
// Decompress exhaustively); the whole scheme with the vector paths forced off against the default
// dispatch; and the prepared keys (EncapsKey / DecapsKey) against the one-shot API.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "common/cpu.hpp"
#include "mlkem/poly.hpp"
#include "pqsig/mlkem.hpp"

using namespace pqsig;
using namespace pqsig::mlkem::detail;

namespace {

constexpr std::uint64_t kSeed = 0x6d6c6b656d2d3230ULL;  // fixed: the tests are deterministic

std::mt19937_64 make_rng(const char* test) {
  std::printf("[ seed ] %s: 0x%016llx\n", test, static_cast<unsigned long long>(kSeed));
  return std::mt19937_64(kSeed);
}

// A polynomial with coefficients in [0, q): random, or an extreme pattern.
void fill(std::mt19937_64& rng, std::uint16_t* c, int pattern) {
  for (int i = 0; i < kN; ++i) {
    switch (pattern) {
      case 0: c[i] = 0; break;
      case 1: c[i] = kQ - 1; break;
      case 2: c[i] = (i & 1) ? kQ - 1 : 0; break;
      default: c[i] = static_cast<std::uint16_t>(rng() % kQ);
    }
  }
}

// Every vector backend this CPU runs (AVX2, AVX-512), each compared with the scalar reference.
std::vector<const PolyOps*> vector_backends() {
  std::vector<const PolyOps*> v;
  for (const PolyOps* b : {poly_ops_avx2(), poly_ops_avx512()})
    if (b) v.push_back(b);
  return v;
}

#define FOR_EACH_VECTOR_BACKEND(v)                                                               \
  const auto backends = vector_backends();                                                       \
  if (backends.empty()) GTEST_SKIP() << "no vector backend here (CPU without AVX2, or PQSIG_PORTABLE build)"; \
  for (const PolyOps* v : backends)

const PolyOps& S = poly_ops_scalar();

}  // namespace

TEST(MlKemBackend, SelectionFollowsForcePortable) {
  cpu::force_portable(true);
  EXPECT_STREQ(poly_ops().name, "scalar");
  EXPECT_EQ(poly_ops_avx2(), nullptr);
  EXPECT_EQ(poly_ops_avx512(), nullptr);
  cpu::force_portable(false);
  if (poly_ops_avx512()) {
    EXPECT_STREQ(poly_ops().name, "avx512");
    EXPECT_NE(poly_ops_avx2(), nullptr);  // AVX-512 implies the AVX2 backend
  } else if (poly_ops_avx2()) {
    EXPECT_STREQ(poly_ops().name, "avx2");
  }
}

TEST(MlKemBackend, NttAndInverseMatchScalar) {
  FOR_EACH_VECTOR_BACKEND(V) {
    SCOPED_TRACE(V->name);
    auto rng = make_rng("NttAndInverseMatchScalar");
    for (int it = 0; it < 1000; ++it) {
      alignas(32) std::uint16_t a[kN], b[kN];
      fill(rng, a, it < 4 ? it : 3);
      std::memcpy(b, a, sizeof a);
      S.ntt(a);
      V->ntt(b);
      ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << "NTT, iteration " << it;
      S.ntt_inverse(a);
      V->ntt_inverse(b);
      ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << "NTT^-1, iteration " << it;
      fill(rng, a, it < 4 ? it : 3);
      std::memcpy(b, a, sizeof a);
      S.ntt_inverse(a);
      V->ntt_inverse(b);
      ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << "NTT^-1 of arbitrary input, iteration " << it;
    }
  }
}

TEST(MlKemBackend, MultiplyNttsMatchesScalar) {
  FOR_EACH_VECTOR_BACKEND(V) {
    SCOPED_TRACE(V->name);
    auto rng = make_rng("MultiplyNttsMatchesScalar");
    std::vector<NttPoly> a(16), b(4);
    for (int it = 0; it < 300; ++it) {
      const int pattern = it < 4 ? it : 3;
      for (auto& p : a) fill(rng, p.c, pattern);
      for (auto& p : b) fill(rng, p.c, pattern);
      for (int n = 1; n <= 4; ++n)
        for (int stride : {1, n}) {
          NttPoly r1, r2;
          S.multiply_ntts_sum(r1, a.data() + 1, stride, b.data(), n);
          V->multiply_ntts_sum(r2, a.data() + 1, stride, b.data(), n);
          ASSERT_EQ(0, std::memcmp(r1.c, r2.c, sizeof r1.c)) << "n=" << n << " stride=" << stride << " it=" << it;
        }
    }
  }
}

TEST(MlKemBackend, SampleNttParseMatchesScalar) {
  FOR_EACH_VECTOR_BACKEND(V) {
    SCOPED_TRACE(V->name);
    auto rng = make_rng("SampleNttParseMatchesScalar");
    for (int it = 0; it < 2000; ++it) {
      // 168 and 504 (one and three SHAKE128 blocks), or any multiple of 3 up to 600 bytes
      const std::size_t len = it % 3 == 0 ? 504 : it % 3 == 1 ? 168 : 3 * (1 + rng() % 200);
      std::vector<std::uint8_t> buf(len);
      const int mode = it % 5;  // 0: uniform; 1: mostly rejected (≥ q); 2: all accepted; else uniform
      for (auto& x : buf) {
        x = static_cast<std::uint8_t>(rng());
        if (mode == 1 && (rng() % 4)) x = 0xFF;
        if (mode == 2) x &= 0x77;
      }
      const int start = static_cast<int>(rng() % 5 == 0 ? kN - 1 - rng() % 20 : rng() % 200);
      alignas(32) std::uint16_t o1[kN] = {}, o2[kN] = {};
      const int n1 = S.sample_ntt_parse(o1, start, buf.data(), buf.size());
      const int n2 = V->sample_ntt_parse(o2, start, buf.data(), buf.size());
      ASSERT_EQ(n1, n2) << "iteration " << it;
      ASSERT_EQ(0, std::memcmp(o1, o2, sizeof(std::uint16_t) * static_cast<std::size_t>(n1))) << "iteration " << it;
    }
  }
}

TEST(MlKemBackend, SamplePolyCbdMatchesScalar) {
  FOR_EACH_VECTOR_BACKEND(V) {
    SCOPED_TRACE(V->name);
    auto rng = make_rng("SamplePolyCbdMatchesScalar");
    for (int eta : {2, 3}) {
      for (int it = 0; it < 1000; ++it) {
        std::uint8_t b[192];
        for (auto& x : b) x = static_cast<std::uint8_t>(it == 0 ? 0 : it == 1 ? 0xFF : rng());
        alignas(32) std::uint16_t c1[kN], c2[kN];
        S.sample_poly_cbd(eta, b, c1);
        V->sample_poly_cbd(eta, b, c2);
        ASSERT_EQ(0, std::memcmp(c1, c2, sizeof c1)) << "eta=" << eta << " iteration " << it;
      }
    }
  }
}

TEST(MlKemBackend, CompressEncodeMatchesScalarExhaustively) {
  FOR_EACH_VECTOR_BACKEND(V) {
    SCOPED_TRACE(V->name);
    auto rng = make_rng("CompressEncodeMatchesScalarExhaustively");
    for (int d : {1, 4, 5, 10, 11, 12}) {
      // Every x in [0, q) (13 polynomials), then random polynomials.
      for (int it = 0; it < 13 + 200; ++it) {
        alignas(32) std::uint16_t c[kN];
        if (it < 13) {
          for (int i = 0; i < kN; ++i) c[i] = static_cast<std::uint16_t>((it * kN + i) % kQ);
        } else {
          fill(rng, c, 3);
        }
        std::uint8_t o1[384], o2[384];
        S.compress_encode(d, c, o1);
        V->compress_encode(d, c, o2);
        ASSERT_EQ(0, std::memcmp(o1, o2, static_cast<std::size_t>(32 * d))) << "d=" << d << " iteration " << it;
      }
    }
  }
}

TEST(MlKemBackend, DecodeDecompressMatchesScalar) {
  FOR_EACH_VECTOR_BACKEND(V) {
    SCOPED_TRACE(V->name);
    auto rng = make_rng("DecodeDecompressMatchesScalar");
    for (int d : {1, 4, 5, 10, 11, 12}) {
      for (int it = 0; it < 300; ++it) {
        std::uint8_t in[384];
        for (auto& x : in) x = static_cast<std::uint8_t>(it == 0 ? 0xFF : it == 1 ? 0 : rng());
        alignas(32) std::uint16_t c1[kN], c2[kN];
        S.decode_decompress(d, in, c1);
        V->decode_decompress(d, in, c2);
        ASSERT_EQ(0, std::memcmp(c1, c2, sizeof c1)) << "d=" << d << " iteration " << it;
      }
    }
  }
}

namespace {
const mlkem::ParameterSet kAll[] = {mlkem::ParameterSet::ml_kem_512, mlkem::ParameterSet::ml_kem_768,
                                    mlkem::ParameterSet::ml_kem_1024};

struct Transcript {
  bytes ek, dk, c, k, k_bad;
};
Transcript run_scheme(mlkem::ParameterSet ps, const bytes& seed, const bytes& m) {
  Transcript t;
  auto kp = mlkem::keygen_from_seed(ps, seed);
  EXPECT_TRUE(kp.ok());
  t.ek = kp->ek;
  t.dk.assign(kp->dk.data(), kp->dk.data() + kp->dk.size());
  auto e = mlkem::encaps_internal(ps, kp->ek, m);
  EXPECT_TRUE(e.ok());
  t.c = e->c;
  auto k = mlkem::decaps(ps, kp->dk.span(), e->c);
  EXPECT_TRUE(k.ok());
  t.k.assign(k->data(), k->data() + k->size());
  bytes bad = e->c;
  bad[bad.size() - 1] ^= 1;
  auto kb = mlkem::decaps(ps, kp->dk.span(), bad);
  EXPECT_TRUE(kb.ok());
  t.k_bad.assign(kb->data(), kb->data() + kb->size());
  return t;
}
}  // namespace

TEST(MlKemBackend, SchemeWithVectorPathsOffMatches) {
  auto rng = make_rng("SchemeWithVectorPathsOffMatches");
  for (auto ps : kAll) {
    for (int it = 0; it < 20; ++it) {
      bytes seed(64), m(32);
      for (auto& x : seed) x = static_cast<std::uint8_t>(rng());
      for (auto& x : m) x = static_cast<std::uint8_t>(rng());
      const Transcript fast = run_scheme(ps, seed, m);
      cpu::force_portable(true);
      const Transcript ref = run_scheme(ps, seed, m);
      cpu::force_portable(false);
      ASSERT_EQ(fast.ek, ref.ek) << mlkem::name(ps) << " iteration " << it;
      ASSERT_EQ(fast.dk, ref.dk);
      ASSERT_EQ(fast.c, ref.c);
      ASSERT_EQ(fast.k, ref.k);
      ASSERT_EQ(fast.k_bad, ref.k_bad);
      EXPECT_NE(fast.k, fast.k_bad);
    }
  }
}

// The cold path (Encaps from ek bytes, Decaps from dk bytes: no prepared key, Â sampled beside
// the noise) against the prepared keys and against the scalar reference, bit for bit, on valid
// and on tampered ciphertexts (implicit rejection).
TEST(MlKemCold, MatchesPreparedAndScalar) {
  auto rng = make_rng("MlKemColdMatchesPreparedAndScalar");
  for (auto ps : kAll) {
    SCOPED_TRACE(std::string(mlkem::name(ps)));
    for (int it = 0; it < 16; ++it) {
      bytes seed(64), m(32);
      for (auto& x : seed) x = static_cast<std::uint8_t>(rng());
      for (auto& x : m) x = static_cast<std::uint8_t>(rng());
      auto kp = mlkem::keygen_from_seed(ps, seed);
      ASSERT_TRUE(kp.ok());
      auto ek = mlkem::EncapsKey::from_bytes(ps, kp->ek);
      auto dk = mlkem::DecapsKey::from_expanded(ps, kp->dk.span());
      ASSERT_TRUE(ek.ok() && dk.ok());
      auto warm = ek->encaps_internal(m);
      auto cold = mlkem::encaps_internal(ps, kp->ek, m);
      cpu::force_portable(true);
      auto ref = mlkem::encaps_internal(ps, kp->ek, m);
      cpu::force_portable(false);
      ASSERT_TRUE(warm.ok() && cold.ok() && ref.ok());
      ASSERT_EQ(cold->c, warm->c) << it;
      ASSERT_EQ(cold->c, ref->c) << it;
      ASSERT_EQ(0, std::memcmp(cold->k.data(), warm->k.data(), 32));
      ASSERT_EQ(0, std::memcmp(cold->k.data(), ref->k.data(), 32));
      bytes bad = cold->c;
      bad[static_cast<std::size_t>(rng() % bad.size())] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      for (const bytes* c : {&cold->c, &bad}) {
        auto kc = mlkem::decaps(ps, kp->dk.span(), *c);
        auto kw = dk->decaps(*c);
        auto kh = mlkem::decaps_checked_key(ps, kp->dk.span(), *c);  // the cold path without the §7.3 check
        ASSERT_TRUE(kh.ok());
        ASSERT_EQ(0, std::memcmp(kh->data(), kw->data(), 32));
        cpu::force_portable(true);
        auto kr = mlkem::decaps(ps, kp->dk.span(), *c);
        cpu::force_portable(false);
        ASSERT_TRUE(kc.ok() && kw.ok() && kr.ok());
        ASSERT_EQ(0, std::memcmp(kc->data(), kw->data(), 32));
        ASSERT_EQ(0, std::memcmp(kc->data(), kr->data(), 32));
        ASSERT_EQ(c == &bad, std::memcmp(kc->data(), cold->k.data(), 32) != 0);  // K, or K̄ for a tampered c
      }
    }
  }
}

TEST(MlKemPrepared, MatchesOneShotApi) {
  auto rng = make_rng("MatchesOneShotApi");
  for (auto ps : kAll) {
    SCOPED_TRACE(std::string(mlkem::name(ps)));
    bytes seed(64), m(32);
    for (auto& x : seed) x = static_cast<std::uint8_t>(rng());
    for (auto& x : m) x = static_cast<std::uint8_t>(rng());
    auto kp = mlkem::keygen_from_seed(ps, seed);
    ASSERT_TRUE(kp.ok());
    auto dk = mlkem::DecapsKey::from_seed(ps, seed);
    ASSERT_TRUE(dk.ok());
    EXPECT_EQ(bytes(dk->encaps_key().begin(), dk->encaps_key().end()), kp->ek);
    ASSERT_EQ(dk->expanded().size(), kp->dk.size());
    EXPECT_EQ(0, std::memcmp(dk->expanded().data(), kp->dk.data(), kp->dk.size()));
    auto dk2 = mlkem::DecapsKey::from_expanded(ps, kp->dk.span());
    ASSERT_TRUE(dk2.ok());
    auto ek = mlkem::EncapsKey::from_bytes(ps, kp->ek);
    ASSERT_TRUE(ek.ok());
    EXPECT_EQ(ek->parameter_set(), ps);
    auto e1 = ek->encaps_internal(m);
    auto e2 = mlkem::encaps_internal(ps, kp->ek, m);
    ASSERT_TRUE(e1.ok() && e2.ok());
    EXPECT_EQ(e1->c, e2->c);
    EXPECT_EQ(0, std::memcmp(e1->k.data(), e2->k.data(), 32));
    for (const auto* key : {&dk.value(), &dk2.value()}) {
      auto k = key->decaps(e1->c);
      ASSERT_TRUE(k.ok());
      EXPECT_EQ(0, std::memcmp(k->data(), e1->k.data(), 32));
      bytes bad = e1->c;
      bad[0] ^= 0x80;
      auto kb = key->decaps(bad);
      auto kb2 = mlkem::decaps(ps, kp->dk.span(), bad);
      ASSERT_TRUE(kb.ok() && kb2.ok());
      EXPECT_EQ(0, std::memcmp(kb->data(), kb2->data(), 32));  // the same implicit-rejection key
      EXPECT_NE(0, std::memcmp(kb->data(), e1->k.data(), 32));
    }
    auto er = ek->encaps();  // randomized
    ASSERT_TRUE(er.ok());
    auto kr = dk->decaps(er->c);
    ASSERT_TRUE(kr.ok());
    EXPECT_EQ(0, std::memcmp(kr->data(), er->k.data(), 32));
  }
}

TEST(MlKemPrepared, MalformedInputsAreTypedErrors) {
  for (auto ps : kAll) {
    SCOPED_TRACE(std::string(mlkem::name(ps)));
    const auto& P = mlkem::params(ps);
    bytes seed(64, 7);
    auto kp = mlkem::keygen_from_seed(ps, seed);
    ASSERT_TRUE(kp.ok());
    bytes ek = kp->ek;
    EXPECT_EQ(mlkem::EncapsKey::from_bytes(ps, bytes(ek.begin(), ek.end() - 1)).error().code, Errc::invalid_length);
    bytes bad_ek = ek;
    bad_ek[0] = 0xFF;  // coefficient 0 = 0xFFF ≥ q
    bad_ek[1] |= 0x0F;
    EXPECT_EQ(mlkem::EncapsKey::from_bytes(ps, bad_ek).error().code, Errc::key_check_failed);
    EXPECT_EQ(mlkem::DecapsKey::from_seed(ps, bytes(63, 1)).error().code, Errc::invalid_length);
    bytes dk(kp->dk.data(), kp->dk.data() + kp->dk.size());
    EXPECT_EQ(mlkem::DecapsKey::from_expanded(ps, bytes(dk.begin(), dk.end() - 1)).error().code,
              Errc::invalid_length);
    bytes bad_dk = dk;
    bad_dk[P.dk_size - 40] ^= 1;  // inside H(ek)
    EXPECT_EQ(mlkem::DecapsKey::from_expanded(ps, bad_dk).error().code, Errc::key_check_failed);
    auto key = mlkem::EncapsKey::from_bytes(ps, ek);
    ASSERT_TRUE(key.ok());
    EXPECT_EQ(key->encaps_internal(bytes(31, 0)).error().code, Errc::invalid_length);
    auto d = mlkem::DecapsKey::from_seed(ps, seed);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->decaps(bytes(P.ct_size + 1, 0)).error().code, Errc::invalid_length);
    EXPECT_EQ(d->decaps({}).error().code, Errc::invalid_length);
  }
}
