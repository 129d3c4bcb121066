// 8-way Keccak backend (AVX-512F, keccak_x8_avx512.cpp) bit-for-bit against the scalar reference
// on random interleaved states.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "common/cpu.hpp"
#include "hash/keccak_backend.hpp"
#include "pqsig/hash.hpp"

using namespace pqsig;
using namespace pqsig::hash;

TEST(KeccakX8, Avx512fMatchesScalar) {
  const detail::KeccakX8Backend* be = detail::keccak_x8_backend();
  if (!be) GTEST_SKIP() << "CPU without AVX-512F (or PQSIG_PORTABLE build / forced portable): backend not available";
  constexpr std::uint64_t kSeed = 0x6b656363616b3878ULL;
  std::printf("seed %llu, backend %s\n", static_cast<unsigned long long>(kSeed), be->name);
  std::mt19937_64 rng(kSeed);
  for (int trial = 0; trial < 100; ++trial) {
    alignas(64) std::uint64_t a[25][8];
    std::uint64_t ref[8][25];
    for (int i = 0; i < 25; ++i)
      for (int j = 0; j < 8; ++j) a[i][j] = ref[j][i] = rng();
    const int rounds = 1 + trial % 3;  // repeated permutations of the same states
    for (int r = 0; r < rounds; ++r) {
      be->permute(a);
      for (auto& s : ref) keccak_f1600_scalar(s);
    }
    for (int i = 0; i < 25; ++i)
      for (int j = 0; j < 8; ++j) ASSERT_EQ(a[i][j], ref[j][i]) << "lane " << i << " state " << j << " trial " << trial;
  }
}

TEST(KeccakX8, NullWhenForcedPortable) {
  cpu::force_portable(true);
  const detail::KeccakX8Backend* be = detail::keccak_x8_backend();
  cpu::force_portable(false);
  EXPECT_EQ(be, nullptr);
}
