// SHA-2 compression backends: SHA-NI SHA-256 and the 4-way SHA-512 (when the CPU has them) against the scalar reference on
// random blocks, single and multi-block, and the dispatch honouring cpu::force_portable.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

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

// The 4-way SHA-512 kernels (AVX-512VL, AVX2: each one this CPU runs) against four scalar
// compressions: random states and blocks, 1..6 blocks per lane, lanes reading from different
// buffers; FIPS 180-4's "abc" on every lane; the dispatch order and force_portable.
namespace {
std::vector<std::pair<const char*, hash::detail::Sha512CompressX4Fn>> sha512_x4_kernels() {
  std::vector<std::pair<const char*, hash::detail::Sha512CompressX4Fn>> v{{"scalar", &hash::detail::sha512_compress_x4_scalar}};
#if defined(PQSIG_HAVE_SHANI_BACKEND)
  if (cpu::has_avx2()) v.push_back({"avx2", &hash::detail::sha512_compress_x4_avx2});
  if (cpu::has_avx512vl()) v.push_back({"avx512vl", &hash::detail::sha512_compress_x4_avx512vl});
#endif
  return v;
}
}  // namespace

TEST(Sha512Backend, X4MatchesScalarOnRandomBlocks) {
  for (const auto& [name, fn] : sha512_x4_kernels()) {
    SCOPED_TRACE(name);
    std::printf("[ info ] 4-way SHA-512 kernel: %s\n", name);
    std::mt19937_64 rng(512);
    for (int iter = 0; iter < 600; ++iter) {
      const std::size_t nblocks = 1 + iter % 6;
      std::vector<std::uint8_t> data[4];
      std::uint64_t ref[4][8], got[4][8];
      for (int q = 0; q < 4; ++q) {
        data[q].resize(128 * nblocks);
        for (auto& x : data[q]) x = static_cast<std::uint8_t>(rng());
        for (int i = 0; i < 8; ++i) ref[q][i] = got[q][i] = rng();
        hash::sha512_compress(ref[q], data[q].data(), nblocks);
      }
      std::uint64_t* const hs[4] = {got[0], got[1], got[2], got[3]};
      const std::uint8_t* const bs[4] = {data[0].data(), data[1].data(), data[2].data(), data[3].data()};
      fn(hs, bs, nblocks);
      ASSERT_EQ(0, std::memcmp(ref, got, sizeof ref)) << "iteration " << iter;
    }
    // SHA-512("abc") from the initial value, on every lane.
    std::uint8_t blk[128] = {'a', 'b', 'c', 0x80};
    blk[127] = 24;
    const std::uint64_t iv[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                                 0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                                 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    std::uint64_t h[4][8];
    for (auto& x : h) std::memcpy(x, iv, sizeof iv);
    std::uint64_t* const hs[4] = {h[0], h[1], h[2], h[3]};
    const std::uint8_t* const bs[4] = {blk, blk, blk, blk};
    fn(hs, bs, 1);
    for (int q = 0; q < 4; ++q) {
      EXPECT_EQ(h[q][0], 0xddaf35a193617abaULL) << "lane " << q;
      EXPECT_EQ(h[q][7], 0x2a9ac94fa54ca49fULL) << "lane " << q;
    }
  }
  // The dispatch takes the widest kernel present, and the scalar one when forced portable.
  EXPECT_EQ(hash::detail::sha512_compress_x4_fn(), sha512_x4_kernels().back().second);
  cpu::force_portable(true);
  EXPECT_EQ(hash::detail::sha512_compress_x4_fn(), &hash::detail::sha512_compress_x4_scalar);
  cpu::force_portable(false);
}
