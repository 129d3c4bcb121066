// SHA-256 compression backends: SHA-NI (when the CPU has it) against the scalar reference on
// random blocks, single and multi-block, and the dispatch honouring cpu::force_portable.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "common/cpu.hpp"
#include "hash/sha2_backend.hpp"
#include "pqsig/hash.hpp"

using namespace pqsig;

TEST(Sha256Backend, ShaNiMatchesScalarOnRandomBlocks) {
#if defined(PQSIG_HAVE_SHANI_BACKEND)
  if (!hash::detail::cpu_has_shani()) GTEST_SKIP() << "CPU has no SHA extensions";
  std::mt19937_64 rng(205);
  for (int iter = 0; iter < 2000; ++iter) {
    const std::size_t nblocks = 1 + iter % 5;
    std::vector<std::uint8_t> data(64 * nblocks);
    for (auto& b : data) b = static_cast<std::uint8_t>(rng());
    std::uint32_t h1[8], h2[8];
    for (int i = 0; i < 8; ++i) h1[i] = h2[i] = static_cast<std::uint32_t>(rng());
    hash::sha256_compress_scalar(h1, data.data(), nblocks);
    hash::detail::sha256_compress_shani(h2, data.data(), nblocks);
    ASSERT_EQ(0, std::memcmp(h1, h2, sizeof h1)) << "iteration " << iter;
  }
#else
  GTEST_SKIP() << "SHA-NI backend not built (PQSIG_PORTABLE)";
#endif
}

TEST(Sha256Backend, X4MatchesScalarOnRandomBlocks) {
  std::mt19937_64 rng(2050);
  for (int iter = 0; iter < 1000; ++iter) {
    std::uint8_t blk[4][64];
    std::uint32_t ref[4][8], got[4][8];
    for (auto& b : blk)
      for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    for (int q = 0; q < 4; ++q)
      for (int i = 0; i < 8; ++i) ref[q][i] = got[q][i] = static_cast<std::uint32_t>(rng());
    for (int q = 0; q < 4; ++q) hash::sha256_compress_scalar(ref[q], blk[q], 1);
    std::uint32_t* const hs[4] = {got[0], got[1], got[2], got[3]};
    const std::uint8_t* const bs[4] = {blk[0], blk[1], blk[2], blk[3]};
    hash::detail::sha256_compress_x4_fn()(hs, bs);  // SHA-NI x4 when the CPU has it
    ASSERT_EQ(0, std::memcmp(ref, got, sizeof ref)) << "iteration " << iter;
  }
}

TEST(Sha256Backend, DispatchAndForcePortable) {
  auto abc = hash::sha256(as_bytes("abc"));
  EXPECT_EQ(to_hex(abc), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hash::sha256_uses_shani(), hash::detail::cpu_has_shani());
  cpu::force_portable(true);
  EXPECT_FALSE(hash::sha256_uses_shani());
  EXPECT_EQ(hash::detail::sha256_compress_x4_fn(), &hash::detail::sha256_compress_x4_scalar);
  EXPECT_EQ(to_hex(hash::sha256(as_bytes("abc"))), to_hex(abc));
  cpu::force_portable(false);
}
