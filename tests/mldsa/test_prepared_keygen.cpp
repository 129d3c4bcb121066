// PreparedSigningKey::keygen_internal (one KeyGen_internal, Â expanded once) gives the same pk
// and sk bytes as mldsa::keygen_internal and signs exactly like a key prepared from sk.
#include <gtest/gtest.h>

#include <random>
#include <thread>
#include <vector>

#include "pqsig/mldsa.hpp"

using namespace pqsig;
using namespace pqsig::mldsa;

TEST(MldsaPrepared, KeygenInternalMatchesRawAndCreate) {
  const std::uint32_t seed = 4242;
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  for (Level lv : {Level::ml_dsa_44, Level::ml_dsa_65, Level::ml_dsa_87}) {
    const Params& p = params(lv);
    for (int iter = 0; iter < 3; ++iter) {
      bytes xi(32), msg(1 + rng() % 100);
      for (auto& b : xi) b = static_cast<std::uint8_t>(rng());
      for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
      bytes pk1(p.pk_bytes), sk1(p.sk_bytes), pk2(p.pk_bytes), sk2(p.sk_bytes);
      ASSERT_TRUE(keygen_internal(lv, xi, pk1, sk1));
      auto prep = PreparedSigningKey::keygen_internal(lv, xi, pk2, sk2);
      ASSERT_TRUE(prep);
      EXPECT_EQ(pk1, pk2);
      EXPECT_EQ(sk1, sk2);
      auto ref = PreparedSigningKey::create(lv, sk1);
      ASSERT_TRUE(ref);
      Options o;
      o.deterministic = true;
      bytes s1(p.sig_bytes), s2(p.sig_bytes), s3(p.sig_bytes);
      ASSERT_TRUE(prep.value().sign(msg, s1, o));
      ASSERT_TRUE(ref.value().sign(msg, s2, o));
      ASSERT_TRUE(sign(lv, sk1, msg, s3, o));
      EXPECT_EQ(s1, s2);
      EXPECT_EQ(s1, s3);
      EXPECT_TRUE(verify(lv, pk1, msg, s1));
      s1[5] ^= 1;
      EXPECT_FALSE(verify(lv, pk1, msg, s1));
    }
  }
  bytes bad_seed(31), pk(params(Level::ml_dsa_44).pk_bytes), sk(params(Level::ml_dsa_44).sk_bytes);
  EXPECT_EQ(PreparedSigningKey::keygen_internal(Level::ml_dsa_44, bad_seed, pk, sk).error().code, Errc::invalid_length);
}

// A prepared key takes NTT(s2), NTT(t0) on its first signature (once, whoever signs first):
// eight threads signing at once with fresh keys — generated or imported — all produce the
// deterministic signature of the one-shot sign() from sk bytes, then again once completed.
TEST(MldsaPrepared, FirstSignaturesFromManyThreadsAgree) {
  const std::uint32_t seed = 977;
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  for (Level lv : {Level::ml_dsa_44, Level::ml_dsa_65, Level::ml_dsa_87}) {
    const Params& p = params(lv);
    for (int iter = 0; iter < 4; ++iter) {
      bytes xi(32), msg(1 + rng() % 64);
      for (auto& b : xi) b = static_cast<std::uint8_t>(rng());
      for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
      bytes pk(p.pk_bytes), sk(p.sk_bytes);
      auto gen = PreparedSigningKey::keygen_internal(lv, xi, pk, sk);
      ASSERT_TRUE(gen);
      auto imp = PreparedSigningKey::create(lv, sk);
      ASSERT_TRUE(imp);
      Options o;
      o.deterministic = true;
      bytes want(p.sig_bytes);
      ASSERT_TRUE(sign(lv, sk, msg, want, o));
      for (const PreparedSigningKey* key : {&gen.value(), &imp.value()}) {
        for (int pass = 0; pass < 2; ++pass) {
          std::vector<bytes> got(8, bytes(p.sig_bytes));
          std::vector<int> ok(8, 0);
          std::vector<std::thread> ts;
          for (int t = 0; t < 8; ++t)
            ts.emplace_back([&, t] { ok[t] = key->sign(msg, got[t], o) ? 1 : 0; });
          for (auto& t : ts) t.join();
          for (int t = 0; t < 8; ++t) {
            ASSERT_EQ(ok[t], 1) << "thread " << t;
            EXPECT_EQ(got[t], want) << "thread " << t << " pass " << pass;
          }
        }
      }
      EXPECT_TRUE(verify(lv, pk, msg, want));
    }
  }
}
