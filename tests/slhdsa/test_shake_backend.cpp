// SLH-DSA-SHAKE with the widest Keccak batch this CPU has (8-way AVX-512F, else two 4-way calls)
// bit-for-bit against the scalar reference (cpu::force_portable): keygen, deterministic and
// randomized signing, verification of both paths' signatures by both paths, tamper -> reject.
// Random seeds and messages (the seed is printed); the fast sets plus 128s (its FORS trees have
// 4096 leaves, its XMSS trees 512).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "common/cpu.hpp"
#include "hash/keccak_backend.hpp"
#include "pqsig/slhdsa.hpp"

using namespace pqsig;
using namespace pqsig::slhdsa;

namespace {
struct Portable {
  Portable() { cpu::force_portable(true); }
  ~Portable() { cpu::force_portable(false); }
};

bytes rnd(std::mt19937_64& rng, std::size_t n) {
  bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}
}  // namespace

class SlhShakeBackend : public ::testing::TestWithParam<ParamSet> {};

TEST_P(SlhShakeBackend, VectorMatchesScalar) {
  const ParamSet p = GetParam();
  const std::size_t n = param_info(p).n;
  const auto* x8 = hash::detail::keccak_x8_backend();
  const std::uint64_t seed = 0x736c6878380000ULL + static_cast<std::uint64_t>(p);
  std::printf("seed %llu, 8-way backend %s\n", static_cast<unsigned long long>(seed), x8 ? x8->name : "none (4-way pairs)");
  std::mt19937_64 rng(seed);
  const int trials = (p == ParamSet::shake_128s) ? 1 : 2;
  for (int t = 0; t < trials; ++t) {
    const bytes sk_seed = rnd(rng, n), sk_prf = rnd(rng, n), pk_seed = rnd(rng, n), addrnd = rnd(rng, n);
    const bytes msg = rnd(rng, 1 + rng() % 200);
    auto kv = slh_keygen_internal(p, sk_seed, sk_prf, pk_seed);
    ASSERT_TRUE(kv.ok());
    auto sv = slh_sign_internal(p, msg, kv->sk.span(), OptRand::given(addrnd));
    ASSERT_TRUE(sv.ok());
    Result<KeyPair> ks = Error{Errc::internal, "unset"};
    Result<bytes> ss = Error{Errc::internal, "unset"};
    {
      Portable scalar;
      ks = slh_keygen_internal(p, sk_seed, sk_prf, pk_seed);
      ASSERT_TRUE(ks.ok());
      ss = slh_sign_internal(p, msg, ks->sk.span(), OptRand::given(addrnd));
      ASSERT_TRUE(ss.ok());
      EXPECT_TRUE(slh_verify_internal(p, msg, *sv, kv->pk).ok());  // scalar verifies the vector signature
    }
    EXPECT_EQ(kv->pk, ks->pk);
    EXPECT_EQ(*sv, *ss);
    EXPECT_TRUE(slh_verify_internal(p, msg, *ss, ks->pk).ok());  // vector verifies the scalar signature
    // Tamper: one bit in a FORS authentication path (batched FORS verification) and one in the
    // last WOTS+ signature; both paths reject.
    for (std::size_t pos : {n + 3 * n + 1, sv->size() - 5}) {
      bytes bad = *sv;
      bad[pos] ^= 0x10;
      EXPECT_FALSE(slh_verify_internal(p, msg, bad, kv->pk).ok()) << "byte " << pos;
      Portable scalar;
      EXPECT_FALSE(slh_verify_internal(p, msg, bad, kv->pk).ok()) << "byte " << pos << " (scalar)";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ShakeSets, SlhShakeBackend,
                         ::testing::Values(ParamSet::shake_128f, ParamSet::shake_192f, ParamSet::shake_256f,
                                           ParamSet::shake_128s),
                         [](const auto& tp) {
                           std::string s(param_info(tp.param).suite_id);
                           for (char& c : s)
                             if (c == '-') c = '_';
                           return s;
                         });
