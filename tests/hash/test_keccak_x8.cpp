// 8-way Keccak backend (AVX-512F, keccak_x8_avx512.cpp) bit-for-bit against the scalar reference
// on random interleaved states.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <algorithm>
#include <random>
#include <vector>

#include "common/cpu.hpp"
#include "hash/keccak_backend.hpp"
#include "pqsig/hash.hpp"

using namespace pqsig;
using namespace pqsig::hash;

namespace {
// The single-state reference: SHAKE128 (rate 168) or SHAKE256 (rate 136) of in, outlen bytes.
void shake_ref(std::size_t rate, const std::uint8_t* in, std::size_t len, std::uint8_t* out, std::size_t outlen) {
  if (rate == kShake128Rate) {
    Shake128 h;
    h.absorb(in, len);
    h.squeeze(out, outlen);
  } else {
    Shake256 h;
    h.absorb(in, len);
    h.squeeze(out, outlen);
  }
}
}  // namespace

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

// keccak_x8_permute: the 8-way backend or, forced portable, the 4-way backend per half; a half
// left out of `halves` is not touched.
TEST(KeccakX8, PermuteDispatchAndHalves) {
  constexpr std::uint64_t kSeed = 0x7065726d75746538ULL;
  std::printf("seed %llu\n", static_cast<unsigned long long>(kSeed));
  std::mt19937_64 rng(kSeed);
  for (int forced = 0; forced < 2; ++forced) {
    cpu::force_portable(forced == 1);
    for (unsigned halves = 1; halves <= 3; ++halves) {
      alignas(64) std::uint64_t a[25][8];
      std::uint64_t ref[8][25];
      for (int i = 0; i < 25; ++i)
        for (int j = 0; j < 8; ++j) a[i][j] = ref[j][i] = rng();
      detail::keccak_x8_permute(a, halves);
      const bool all = detail::keccak_x8_backend() != nullptr;  // the 8-way call permutes every state
      for (int j = 0; j < 8; ++j)
        if (all || (halves >> (j / 4) & 1u)) keccak_f1600_scalar(ref[j]);
      for (int i = 0; i < 25; ++i)
        for (int j = 0; j < 8; ++j)
          ASSERT_EQ(a[i][j], ref[j][i]) << "lane " << i << " state " << j << " halves " << halves << " forced " << forced;
    }
  }
  cpu::force_portable(false);
}

// ShakeX8 lane by lane against the single-state SHAKE128 / SHAKE256: mixed rates, idle lanes,
// inputs of every length up to rate − 1, several blocks, on the dispatched and forced-portable paths.
TEST(ShakeX8, MatchesSingleShake) {
  constexpr std::uint64_t kSeed = 0x7368616b65783821ULL;
  std::printf("seed %llu\n", static_cast<unsigned long long>(kSeed));
  std::mt19937_64 rng(kSeed);
  for (int forced = 0; forced < 2; ++forced) {
    cpu::force_portable(forced == 1);
    for (int trial = 0; trial < 60; ++trial) {
      ShakeX8 x(trial % 2 == 0);
      std::size_t rate[8], len[8];
      bool used[8];
      std::uint8_t in[8][kShake128Rate];
      for (int j = 0; j < 8; ++j) {
        used[j] = trial < 20 || rng() % 4 != 0;  // some trials leave lanes (or a whole half) idle
        if (trial % 7 == 3 && j >= 4) used[j] = false;
        rate[j] = rng() % 2 ? kShake128Rate : kShake256Rate;
        len[j] = trial == 0 ? 0 : trial == 1 ? rate[j] - 1 : rng() % rate[j];
        for (auto& b : in[j]) b = static_cast<std::uint8_t>(rng());
        if (used[j]) x.absorb_once(j, rate[j], in[j], len[j]);
      }
      const std::size_t blocks = 1 + rng() % 4;
      std::uint8_t got[8][5 * kShake128Rate] = {};
      std::uint8_t* outs[8];
      for (int j = 0; j < 8; ++j) outs[j] = used[j] ? got[j] : nullptr;
      x.squeeze_blocks(outs, 1);  // one call, then the rest
      // Some trials stop reading lane 0 after its first block (a finished sampler): the other
      // lanes must go on unchanged.
      const bool drop0 = trial % 5 == 4 && used[0];
      if (drop0) outs[0] = nullptr;
      if (blocks > 1) x.squeeze_blocks(outs, blocks - 1);
      for (int j = 0; j < 8; ++j) {
        if (!used[j]) continue;
        const std::size_t read = j == 0 && drop0 ? 1 : blocks;
        if (!(j == 0 && drop0)) {
          EXPECT_EQ(outs[j], got[j] + blocks * rate[j]) << "lane " << j;
        }
        std::uint8_t want[5 * kShake128Rate];
        shake_ref(rate[j], in[j], len[j], want, blocks * rate[j]);
        ASSERT_EQ(0, std::memcmp(want, got[j], read * rate[j]))
            << "lane " << j << " rate " << rate[j] << " len " << len[j] << " trial " << trial << " forced " << forced;
      }
    }
  }
  cpu::force_portable(false);
}

// squeeze_blocks_absorbing: one lane hashes a long input (absorbing a block per permutation,
// over several calls, stepped out with save_lane/load_lane for an extra squeeze) while the other
// lanes squeeze short instances restarted between calls: every lane matches the single-state SHAKE.
TEST(ShakeX8, LongInputOnOneLaneBesideSqueezes) {
  constexpr std::uint64_t kSeed = 0x6c6f6e676c616e65ULL;
  std::printf("seed %llu\n", static_cast<unsigned long long>(kSeed));
  std::mt19937_64 rng(kSeed);
  for (int forced = 0; forced < 2; ++forced) {
    cpu::force_portable(forced == 1);
    for (int trial = 0; trial < 20; ++trial) {
      const int lane = static_cast<int>(rng() % 8);
      const std::size_t rate = trial % 2 ? kShake128Rate : kShake256Rate;
      const std::size_t len = rng() % (6 * rate);
      std::vector<std::uint8_t> msg(len);
      for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
      const std::size_t nb = len / rate + 1;  // blocks with padding
      std::vector<std::uint8_t> padded(nb * rate, 0);
      std::memcpy(padded.data(), msg.data(), len);
      padded[len] ^= 0x1F;
      padded[nb * rate - 1] ^= 0x80;
      ShakeX8 x(trial % 3 == 0);
      x.start_long(lane, rate);
      std::size_t done = 0, final_step = 0;
      std::uint8_t hout[3 * kShake128Rate];
      while (done < nb) {
        const std::size_t step = std::min<std::size_t>(1 + rng() % 3, nb - done);
        std::uint8_t in[8][kShake128Rate], got[8][3 * kShake128Rate];
        std::size_t rl[8];
        std::uint8_t* outs[8] = {};
        for (int j = 0; j < 8; ++j) {
          if (j == lane) continue;
          rl[j] = rng() % 2 ? kShake128Rate : kShake256Rate;
          for (auto& b : in[j]) b = static_cast<std::uint8_t>(rng());
          x.absorb_once(j, rl[j], in[j], 40);
          outs[j] = got[j];
        }
        if (done + step == nb) {
          outs[lane] = hout;
          final_step = step;
        }
        x.squeeze_blocks_absorbing(outs, step, lane, padded.data() + rate * done);
        done += step;
        if (done < nb && trial % 4 == 1) {  // step the long lane out of one extra squeeze
          std::uint64_t keep[25];
          x.save_lane(lane, keep);
          std::uint8_t* none[8] = {};
          x.squeeze_blocks(none, 1);
          x.load_lane(lane, keep);
        }
        for (int j = 0; j < 8; ++j) {
          if (j == lane) continue;
          std::uint8_t want[3 * kShake128Rate];
          shake_ref(rl[j], in[j], 40, want, step * rl[j]);
          ASSERT_EQ(0, std::memcmp(want, got[j], step * rl[j])) << "lane " << j << " trial " << trial;
        }
      }
      // the long lane's first output block is the one after its last absorb
      std::uint8_t want[kShake128Rate];
      shake_ref(rate, msg.data(), len, want, rate);
      ASSERT_GT(final_step, 0u);
      EXPECT_EQ(0, std::memcmp(want, hout + (final_step - 1) * rate, rate))
          << "long lane " << lane << " len " << len << " trial " << trial << " forced " << forced;
    }
  }
  cpu::force_portable(false);
}
