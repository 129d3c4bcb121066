// 4-way Keccak backends (AVX-512VL, AVX2) bit-for-bit against the scalar reference on random
// states, and the interleaved Shake128x4 / Shake256x4 against single-instance SHAKE on random
// inputs of every length class (one block, several blocks, exact multiples of the rate).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "common/cpu.hpp"
#include "hash/keccak_backend.hpp"
#include "pqsig/hash.hpp"

using namespace pqsig;
using namespace pqsig::hash;

namespace {
constexpr std::uint64_t kSeed = 0x6b656363616b3478ULL;

void check_backend(const detail::KeccakX4Backend& be) {
  std::mt19937_64 rng(kSeed);
  std::printf("seed %llu, backend %s\n", static_cast<unsigned long long>(kSeed), be.name);
  for (int trial = 0; trial < 50; ++trial) {
    alignas(32) std::uint64_t a[25][4], b[25][4];
    for (int i = 0; i < 25; ++i)
      for (int j = 0; j < 4; ++j) a[i][j] = b[i][j] = rng();
    be.permute(a);
    detail::kKeccakX4Scalar.permute(b);
    for (int i = 0; i < 25; ++i)
      for (int j = 0; j < 4; ++j) ASSERT_EQ(a[i][j], b[i][j]) << be.name << " lane " << i << " state " << j;
    // squeeze: both rates, 1..3 blocks
    for (std::size_t rate_lanes : {std::size_t{21}, std::size_t{17}}) {
      for (std::size_t nb = 1; nb <= 3; ++nb) {
        std::vector<std::uint8_t> oa(4 * nb * rate_lanes * 8), ob(oa.size());
        std::uint8_t* pa[4];
        std::uint8_t* pb[4];
        for (int j = 0; j < 4; ++j) {
          pa[j] = oa.data() + j * nb * rate_lanes * 8;
          pb[j] = ob.data() + j * nb * rate_lanes * 8;
        }
        be.squeeze(a, pa, rate_lanes, nb);
        detail::kKeccakX4Scalar.squeeze(b, pb, rate_lanes, nb);
        ASSERT_EQ(oa, ob) << be.name;
        for (int i = 0; i < 25; ++i)
          for (int j = 0; j < 4; ++j) ASSERT_EQ(a[i][j], b[i][j]);
      }
    }
  }
}
}  // namespace

TEST(KeccakX4, Avx512MatchesScalar) {
  const detail::KeccakX4Backend* be = detail::keccak_x4_backend_avx512();
  if (!be) GTEST_SKIP() << "CPU without AVX-512VL (or PQSIG_PORTABLE build): backend not available";
  check_backend(*be);
}

TEST(KeccakX4, Avx2MatchesScalar) {
  const detail::KeccakX4Backend* be = detail::keccak_x4_backend_avx2();
  if (!be) GTEST_SKIP() << "CPU without AVX2 (or PQSIG_PORTABLE build): backend not available";
  check_backend(*be);
}

TEST(KeccakX4, ForcedPortableSelectsScalar) {
  cpu::force_portable(true);
  EXPECT_EQ(&detail::keccak_x4_backend(), &detail::kKeccakX4Scalar);
  EXPECT_EQ(detail::keccak_x4_backend_avx512(), nullptr);
  EXPECT_EQ(detail::keccak_x4_backend_avx2(), nullptr);
  cpu::force_portable(false);
}

template <class X4, class One>
void check_shake_x4(std::size_t rate) {
  std::mt19937_64 rng(kSeed + rate);
  std::printf("seed %llu\n", static_cast<unsigned long long>(kSeed + rate));
  for (bool portable : {false, true}) {
    cpu::force_portable(portable);
    for (std::size_t len : {std::size_t{0}, std::size_t{34}, std::size_t{66}, rate - 1, rate, rate + 1, 2 * rate,
                            3 * rate + 17}) {
      std::vector<std::uint8_t> in[4];
      const std::uint8_t* ip[4];
      for (int j = 0; j < 4; ++j) {
        in[j].resize(len);
        for (auto& c : in[j]) c = static_cast<std::uint8_t>(rng());
        ip[j] = in[j].data();
      }
      X4 x(false);
      x.absorb_once(ip, len);
      std::vector<std::uint8_t> out[4];
      std::uint8_t* op[4];
      for (int j = 0; j < 4; ++j) {
        out[j].resize(4 * rate);
        op[j] = out[j].data();
      }
      x.squeeze_blocks(op, 3);
      for (int j = 0; j < 4; ++j) op[j] += 3 * rate;
      x.squeeze_blocks(op, 1);
      for (int j = 0; j < 4; ++j) {
        One h;
        h.absorb(in[j].data(), len);
        std::vector<std::uint8_t> ref(4 * rate);
        h.squeeze(ref.data(), ref.size());
        ASSERT_EQ(out[j], ref) << "len " << len << " lane " << j << " portable " << portable;
      }
    }
  }
  cpu::force_portable(false);
}

TEST(KeccakX4, Shake128x4MatchesShake128) { check_shake_x4<Shake128x4, Shake128>(kShake128Rate); }
TEST(KeccakX4, Shake256x4MatchesShake256) { check_shake_x4<Shake256x4, Shake256>(kShake256Rate); }

// The single-state permutations (plane-by-plane generic and BMI builds, AVX-512VL) against the reference.
TEST(KeccakSingle, PlanesMatchScalarReference) {
  std::mt19937_64 rng(kSeed + 1);
  std::printf("seed %llu\n", static_cast<unsigned long long>(kSeed + 1));
  for (int trial = 0; trial < 200; ++trial) {
    std::uint64_t a[25], b[25], c[25], d[25], e[25];
    for (int i = 0; i < 25; ++i) a[i] = b[i] = c[i] = d[i] = e[i] = rng();
    keccak_f1600_scalar(a);
    detail::keccak_f1600_planes_generic(b);
    keccak_f1600(d);  // dispatched
    for (int i = 0; i < 25; ++i) ASSERT_EQ(a[i], b[i]) << "generic lane " << i;
    for (int i = 0; i < 25; ++i) ASSERT_EQ(a[i], d[i]) << "dispatched lane " << i;
#if defined(PQSIG_HAVE_AVX2_BACKENDS)
    if (__builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")) {
      detail::keccak_f1600_planes_bmi2(c);
      for (int i = 0; i < 25; ++i) ASSERT_EQ(a[i], c[i]) << "bmi2 lane " << i;
    }
    if (detail::keccak_single_avx512vl_ok()) {
      detail::keccak_f1600_avx512vl(e);
      for (int i = 0; i < 25; ++i) ASSERT_EQ(a[i], e[i]) << "avx512vl lane " << i;
    }
#endif
  }
}

// The sponge on the dispatched single-state path (AVX-512VL: whole blocks absorbed with the
// state in registers) against the forced-portable path, for every rate, many lengths and a
// random split of the input into two absorb calls.
TEST(KeccakSingle, DispatchedSpongeMatchesPortable) {
  std::mt19937_64 rng(kSeed + 2);
  std::printf("seed %llu\n", static_cast<unsigned long long>(kSeed + 2));
  std::vector<std::uint8_t> msg(1400);
  for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
  const auto run = [&](std::size_t rate, std::uint8_t ds, std::size_t len, std::size_t cut, bool portable) {
    cpu::force_portable(portable);
    Keccak h(rate, ds);
    h.absorb(msg.data(), cut);
    h.absorb(msg.data() + cut, len - cut);
    std::vector<std::uint8_t> out(200);
    h.squeeze(out.data(), out.size());
    cpu::force_portable(false);
    return out;
  };
  for (std::size_t rate : {std::size_t{72}, std::size_t{104}, std::size_t{136}, std::size_t{144}, std::size_t{168}}) {
    for (std::size_t len = 0; len <= msg.size(); len += (len < 3 * rate ? 1 : 37)) {
      const std::size_t cut = len == 0 ? 0 : rng() % (len + 1);
      for (std::uint8_t ds : {std::uint8_t{0x06}, std::uint8_t{0x1F}})
        ASSERT_EQ(run(rate, ds, len, cut, false), run(rate, ds, len, cut, true))
            << "rate " << rate << " len " << len << " cut " << cut;
    }
  }
}

// The 2-way permutation (AVX-512VL: both halves of the 128-bit registers) against the reference,
// dispatched and forced portable.
TEST(KeccakSingle, X2MatchesScalarReference) {
  std::mt19937_64 rng(kSeed + 3);
  std::printf("seed %llu\n", static_cast<unsigned long long>(kSeed + 3));
  for (bool portable : {false, true}) {
    cpu::force_portable(portable);
    for (int trial = 0; trial < 100; ++trial) {
      std::uint64_t a[25], b[25], x[25][2];
      for (int i = 0; i < 25; ++i) x[i][0] = a[i] = rng(), x[i][1] = b[i] = rng();
      keccak_f1600_scalar(a);
      keccak_f1600_scalar(b);
      detail::keccak_f1600_x2(x);
      for (int i = 0; i < 25; ++i) {
        ASSERT_EQ(a[i], x[i][0]) << "lane " << i << " portable " << portable;
        ASSERT_EQ(b[i], x[i][1]) << "lane " << i << " portable " << portable;
      }
    }
  }
  cpu::force_portable(false);
}
