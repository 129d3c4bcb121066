// The AVX2 per-coefficient Sign / Verify steps (RoundBackend, FIPS 204 Algorithms 36–40) against
// the scalar reference, bit for bit, on random inputs mixed with edge values, for both γ2.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "mldsa/rounding.hpp"

using namespace pqsig::mldsa;
using detail::kN;
using detail::Q;

namespace {
constexpr std::uint32_t kSeed = 20261201;

template <std::int32_t G2>
void compare_round_backends() {
  const detail::RoundBackend* avx = detail::round_backend_avx2<G2>();
  if (!avx) GTEST_SKIP() << "no AVX2 backend on this build / CPU";
  const detail::RoundBackend& sc = detail::round_backend_scalar<G2>();
  std::mt19937 rng(kSeed + G2);
  std::printf("seed %u\n", kSeed + G2);
  // Edge values around the Decompose boundaries, 0, ±(q−1)/2 and q − 1.
  const std::int32_t edges[] = {0, 1, -1, G2, G2 + 1, 2 * G2, 2 * G2 - 1, 2 * G2 + 1, Q - 1, -(Q - 1), (Q - 1) / 2,
                                (Q + 1) / 2, -(Q - 1) / 2, Q - G2, Q - G2 - 1, Q - G2 + 1, 131072, 524288, -131072};
  auto fill = [&](std::int32_t* p, std::int32_t lo, std::int32_t hi, bool with_edges) {
    std::uniform_int_distribution<std::int32_t> d(lo, hi);
    for (int j = 0; j < kN; ++j) {
      p[j] = d(rng);
      if (with_edges && rng() % 8 == 0) {
        const std::int32_t e = edges[rng() % (sizeof edges / sizeof edges[0])];
        if (e >= lo && e <= hi) p[j] = e;
      }
    }
  };
  for (int iter = 0; iter < 300; ++iter) {
    const bool small = iter % 2 == 1;  // small inputs exercise the accepting side of each check
    alignas(32) std::int32_t a[kN], b[kN], a1[kN], b1[kN], y[kN], h1[kN], h2[kN];
    // caddq_highbits: w in (−q, q)
    fill(a, -(Q - 1), Q - 1, true);
    std::memcpy(b, a, sizeof a);
    sc.caddq_highbits(a, a1);
    avx->caddq_highbits(b, b1);
    ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << "caddq_highbits w " << iter;
    ASSERT_EQ(0, std::memcmp(a1, b1, sizeof a1)) << "caddq_highbits w1 " << iter;
    // z_finish: y in [−(γ1 − 1), γ1] (γ1 = 2^17 or 2^19), z in (−q, q) or small
    const std::int32_t g1 = (iter / 2) % 2 ? (1 << 19) : (1 << 17);
    fill(y, -(g1 - 1), g1, true);
    fill(a, small ? -2000 : -(Q - 1), small ? 2000 : Q - 1, true);
    std::memcpy(b, a, sizeof a);
    const std::int32_t zb = g1 - 78 - static_cast<std::int32_t>(rng() % 4000);
    ASSERT_EQ(sc.z_finish(a, y, zb), avx->z_finish(b, y, zb)) << "z_finish reject " << iter;
    ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << "z_finish " << iter;
    // r_finish: w in [0, q), r in (−q, q)
    fill(y, 0, Q - 1, true);
    fill(a, small ? -300 : -(Q - 1), small ? 300 : Q - 1, true);
    std::memcpy(b, a, sizeof a);
    const std::int32_t rbound = G2 - 78 - static_cast<std::int32_t>(rng() % 200);
    ASSERT_EQ(sc.r_finish(a, y, rbound), avx->r_finish(b, y, rbound)) << "r_finish reject " << iter;
    ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << "r_finish " << iter;
    // make_hints: ct0 in (−q, q) or small, r in [0, q)
    fill(a, small ? -G2 / 2 : -(Q - 1), small ? G2 / 2 : Q - 1, true);
    std::memcpy(b, a, sizeof a);
    std::uint32_t rej1 = 0, rej2 = 0;
    ASSERT_EQ(sc.make_hints(h1, a, y, &rej1), avx->make_hints(h2, b, y, &rej2)) << "make_hints count " << iter;
    ASSERT_EQ(rej1, rej2) << "make_hints reject " << iter;
    ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << "make_hints ct0 " << iter;
    ASSERT_EQ(0, std::memcmp(h1, h2, sizeof h1)) << "make_hints h " << iter;
    // use_hint: w in (−q, q), h in {0, 1}
    fill(a, -(Q - 1), Q - 1, true);
    std::memcpy(b, a, sizeof a);
    for (auto& v : h1) v = static_cast<std::int32_t>(rng() & 1);
    sc.use_hint(a, h1);
    avx->use_hint(b, h1);
    ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << "use_hint " << iter;
    // power2round_check: t in (−q, q), s2 in [−4, 4]; t0 the true r0 (no mismatch), then one or
    // more coefficients changed (a mismatch), or random (−2^12, 2^12]
    fill(a, -(Q - 1), Q - 1, true);
    std::uniform_int_distribution<std::int32_t> eta(-4, 4), low(-(1 << 12) + 1, 1 << 12);
    for (auto& v : y) v = eta(rng);
    for (int j = 0; j < kN; ++j) {
      std::int32_t r1;
      detail::Power2Round(detail::freeze(a[j] + y[j]), r1, h1[j]);
    }
    if (iter % 3 == 1) {
      h1[rng() % kN] ^= 1 << (rng() % 13);
    } else if (iter % 3 == 2) {
      for (int j = 0; j < kN; ++j)
        if (rng() % 4 == 0) h1[j] = low(rng);
    }
    const std::uint32_t d1 = sc.power2round_check(a, y, h1, a1), d2 = avx->power2round_check(a, y, h1, b1);
    ASSERT_EQ(d1 != 0, d2 != 0) << "power2round_check result " << iter;
    if (iter % 3 == 0) {
      ASSERT_EQ(0u, d1) << "power2round_check on the true t0 " << iter;
    }
    if (iter % 3 == 1) {
      ASSERT_NE(0u, d1) << "power2round_check with one t0 coefficient changed " << iter;
    }
    ASSERT_EQ(0, std::memcmp(a1, b1, sizeof a1)) << "power2round_check t1 " << iter;
  }
}
}  // namespace

TEST(MldsaRounding, Avx2MatchesScalarGamma2Q88) { compare_round_backends<(kQ - 1) / 88>(); }
TEST(MldsaRounding, Avx2MatchesScalarGamma2Q32) { compare_round_backends<(kQ - 1) / 32>(); }

#include "mldsa/poly.hpp"

// RejNTTPoly (FIPS 204 Algorithm 30): the AVX2 loop against the scalar one on random buffers with
// many rejected candidates, every start counter class and lengths that are not multiples of 24.
TEST(MldsaRounding, RejNTTPolyAvx2MatchesScalar) {
  const detail::PolyBackend* avx = detail::poly_backend_avx2();
  if (!avx) GTEST_SKIP() << "no AVX2 backend on this build / CPU";
  std::mt19937 rng(kSeed);
  std::printf("seed %u\n", kSeed);
  for (int iter = 0; iter < 2000; ++iter) {
    std::uint8_t buf[840];
    const std::uint32_t reject_rate = rng() % 4;  // 0: natural rate; else force many ≥ q candidates
    for (std::size_t i = 0; i < sizeof buf; ++i) buf[i] = static_cast<std::uint8_t>(rng());
    if (reject_rate)
      for (std::size_t i = 2; i < sizeof buf; i += 3)
        if (rng() % (8 * reject_rate) == 0) {
          buf[i] |= 0x7F;  // 0x7FE0xx ≥ q = 0x7FE001 except 0x7FE000
          buf[i - 1] |= 0xE0;
        }
    const std::size_t len = iter % 3 == 0 ? sizeof buf : 1 + rng() % sizeof buf;
    const int start = iter % 5 == 0 ? 0 : static_cast<int>(rng() % kN);
    alignas(32) std::int32_t a[kN], b[kN];
    for (int j = 0; j < kN; ++j) a[j] = b[j] = -1;
    const int ca = detail::RejNTTPoly_scalar(a, start, buf, len);
    const int cb = avx->rej_ntt_poly(b, start, buf, len);
    ASSERT_EQ(ca, cb) << iter;
    ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << iter;
  }
}

// RejBoundedPoly (FIPS 204 Algorithm 31), η = 2 and 4: AVX2 against scalar on random buffers.
TEST(MldsaRounding, RejBoundedPolyAvx2MatchesScalar) {
  const detail::PolyBackend* avx = detail::poly_backend_avx2();
  if (!avx) GTEST_SKIP() << "no AVX2 backend on this build / CPU";
  const detail::PolyBackend& sc = detail::poly_backend_scalar();
  std::mt19937 rng(kSeed + 5);
  std::printf("seed %u\n", kSeed + 5);
  for (int iter = 0; iter < 4000; ++iter) {
    const int eta = iter % 2 ? 4 : 2;
    std::uint8_t buf[272];
    for (auto& c : buf) c = static_cast<std::uint8_t>(rng());
    if (iter % 7 == 0)
      for (auto& c : buf) c |= 0xF0;  // many rejected high half-bytes
    const std::size_t len = iter % 3 == 0 ? sizeof buf : rng() % (sizeof buf + 1);
    const int start = iter % 5 == 0 ? 0 : static_cast<int>(rng() % (kN + 1));
    alignas(32) std::int32_t a[kN], b[kN];
    for (int j = 0; j < kN; ++j) a[j] = b[j] = 99;
    const int ca = sc.rej_bounded_poly(eta, a, start, buf, len);
    const int cb = avx->rej_bounded_poly(eta, b, start, buf, len);
    ASSERT_EQ(ca, cb) << iter;
    // Lanes at or past the returned counter are scratch (overwritten by the next call).
    ASSERT_EQ(0, std::memcmp(a, b, sizeof(std::int32_t) * static_cast<std::size_t>(ca))) << iter;
  }
}

// skDecode's BitUnpack (FIPS 204 Algorithm 25): the AVX2 t0 and s1/s2 unpacking against the
// scalar reference on random bytes (η = 2: 3-bit fields 5..7 are out of range; η = 4: 9..15),
// each input at the end of an exactly sized heap buffer (the AVX2 loads must not read past it:
// ASan sees that), and the scalar one against a bit-by-bit reading of the encoding.
TEST(MldsaRounding, SkUnpackAvx2MatchesScalar) {
  const detail::PolyBackend& sc = detail::poly_backend_scalar();
  const detail::PolyBackend* avx = detail::poly_backend_avx2();
  std::mt19937 rng(kSeed + 9);
  std::printf("seed %u\n", kSeed + 9);
  auto bit_ref = [](const std::uint8_t* in, int i, int bits) {
    std::int32_t v = 0;
    for (int k = 0; k < bits; ++k) v |= ((in[(i * bits + k) / 8] >> ((i * bits + k) % 8)) & 1) << k;
    return v;
  };
  for (int iter = 0; iter < 3000; ++iter) {
    const int kind = iter % 3;  // 0: t0, 1: η = 2, 2: η = 4
    const int eta = kind == 1 ? 2 : 4, bits = kind == 0 ? 13 : kind == 1 ? 3 : 4;
    const std::size_t len = static_cast<std::size_t>(32 * bits);
    std::vector<std::uint8_t> in(len);
    for (auto& c : in) c = static_cast<std::uint8_t>(rng());
    if (kind != 0 && iter % 4 != 0) {  // mostly in range, so both outcomes of the range check occur
      for (int i = 0; i < kN; ++i) {
        const int v = static_cast<int>(rng() % static_cast<std::uint32_t>(2 * eta + 1));
        for (int k = 0; k < bits; ++k) {
          const int bit = i * bits + k;
          in[static_cast<std::size_t>(bit / 8)] = static_cast<std::uint8_t>(
              (in[static_cast<std::size_t>(bit / 8)] & ~(1 << (bit % 8))) | (((v >> k) & 1) << (bit % 8)));
        }
      }
      if (iter % 8 == 1) in[rng() % len] |= 0xFF;  // one or two fields forced out of range
    }
    alignas(32) std::int32_t a[kN], b[kN];
    std::uint32_t bad_ref = 0;
    if (kind == 0) {
      sc.unpack_t0(a, in.data());
      for (int i = 0; i < kN; ++i) ASSERT_EQ((1 << 12) - bit_ref(in.data(), i, 13), a[i]) << iter << " " << i;
    } else {
      const std::uint32_t bad = sc.unpack_eta(eta, a, in.data());
      for (int i = 0; i < kN; ++i) {
        const std::int32_t f = bit_ref(in.data(), i, bits);
        bad_ref |= f > 2 * eta ? 1u : 0u;
        ASSERT_EQ(eta - f, a[i]) << iter << " " << i;
      }
      ASSERT_EQ(bad_ref != 0, bad != 0) << iter;
    }
    if (!avx) continue;
    if (kind == 0) {
      avx->unpack_t0(b, in.data());
    } else {
      ASSERT_EQ(bad_ref != 0, avx->unpack_eta(eta, b, in.data()) != 0) << iter;
    }
    ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << iter;
  }
  if (!avx) GTEST_SKIP() << "scalar checked; no AVX2 backend on this build / CPU";
}

// ExpandMask's BitUnpack (FIPS 204 Algorithm 34), γ1 = 2^17 (18 bits) and 2^19 (20 bits): the
// AVX2 unpacking against the scalar reference, and the scalar one against a bit-by-bit reading,
// on random bytes in a buffer with the 8 readable bytes past the fields the contract asks for.
TEST(MldsaRounding, MaskUnpackAvx2MatchesScalar) {
  const detail::PolyBackend& sc = detail::poly_backend_scalar();
  const detail::PolyBackend* avx = detail::poly_backend_avx2();
  std::mt19937 rng(kSeed + 13);
  std::printf("seed %u\n", kSeed + 13);
  for (int iter = 0; iter < 2000; ++iter) {
    const int bits = iter % 2 ? 20 : 18;
    std::vector<std::uint8_t> in(static_cast<std::size_t>(32 * bits + 8));
    for (auto& c : in) c = static_cast<std::uint8_t>(rng());
    if (iter % 5 == 0)
      for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint8_t>(iter % 10 == 0 ? 0xFF : 0x00);
    alignas(32) std::int32_t a[kN], b[kN];
    sc.unpack_mask(a, in.data(), bits);
    for (int i = 0; i < kN; ++i) {
      std::int32_t v = 0;
      for (int k = 0; k < bits; ++k) v |= ((in[static_cast<std::size_t>((i * bits + k) / 8)] >> ((i * bits + k) % 8)) & 1) << k;
      ASSERT_EQ((1 << (bits - 1)) - v, a[i]) << iter << " " << i;
    }
    if (!avx) continue;
    avx->unpack_mask(b, in.data(), bits);
    ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << iter;
  }
  if (!avx) GTEST_SKIP() << "scalar checked; no AVX2 backend on this build / CPU";
}
