// ML-DSA unit tests: arithmetic (exhaustive Decompose / Power2Round, NTT vs schoolbook), CCTV
// accumulated N = 100, round trips, interface consistency, tampering, malformed encodings.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "cctv_accumulated.hpp"
#include "common/cpu.hpp"
#include "mldsa/poly.hpp"
#include "mldsa/rounding.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/mldsa.hpp"

using namespace pqsig;
using namespace pqsig::mldsa;
using detail::Q;

namespace {
constexpr Level kLevels[] = {Level::ml_dsa_44, Level::ml_dsa_65, Level::ml_dsa_87};

struct Keys {
  bytes pk, sk;
};
Keys make_keys(Level lv, std::uint8_t fill = 7) {
  const auto& p = params(lv);
  Keys k{bytes(p.pk_bytes), bytes(p.sk_bytes)};
  bytes seed(32, fill);
  EXPECT_TRUE(keygen_internal(lv, seed, k.pk, k.sk).ok());
  return k;
}
bytes sign_ok(Level lv, const bytes& sk, byte_span msg, const Options& o = {}) {
  bytes sig(params(lv).sig_bytes);
  auto st = sign(lv, sk, msg, sig, o);
  EXPECT_TRUE(st.ok()) << st.error().what();
  return sig;
}

// FIPS 204, Algorithm 36 written literally with division (test reference only).
void decompose_ref(std::int32_t r, std::int32_t g2, std::int32_t& r1, std::int32_t& r0) {
  std::int32_t rp = ((r % Q) + Q) % Q;
  std::int32_t m = rp % (2 * g2);
  if (m > g2) m -= 2 * g2;
  r0 = m;
  if (rp - r0 == Q - 1) {
    r1 = 0;
    r0 = r0 - 1;
  } else {
    r1 = (rp - r0) / (2 * g2);
  }
}
}  // namespace

TEST(MldsaArith, DecomposeExhaustive) {
  for (std::int32_t r = 0; r < Q; ++r) {
    std::int32_t a1, a0, b1, b0;
    detail::Rounding<(kQ - 1) / 88>::Decompose(r, a1, a0);
    decompose_ref(r, (kQ - 1) / 88, b1, b0);
    if (a1 != b1 || a0 != b0) FAIL() << "gamma2=(q-1)/88 r=" << r << " got " << a1 << "," << a0 << " want " << b1 << "," << b0;
    detail::Rounding<(kQ - 1) / 32>::Decompose(r, a1, a0);
    decompose_ref(r, (kQ - 1) / 32, b1, b0);
    if (a1 != b1 || a0 != b0) FAIL() << "gamma2=(q-1)/32 r=" << r << " got " << a1 << "," << a0 << " want " << b1 << "," << b0;
  }
}

TEST(MldsaArith, Power2RoundExhaustive) {
  for (std::int32_t r = 0; r < Q; ++r) {
    std::int32_t r1, r0;
    detail::Power2Round(r, r1, r0);
    std::int32_t m = r % 8192;
    if (m > 4096) m -= 8192;
    if (r0 != m || r1 != (r - m) / 8192) FAIL() << "r=" << r;
  }
}

TEST(MldsaArith, CctvFieldExample) {
  // ../shared/vectors/cctv/README.md: for r = 6010000 the lines are
  // -2370417 2370417 734 8377489 32 31 -84848 84848 11 12 248464 248464
  const std::int32_t r = 6010000;
  std::int32_t r1, r0;
  detail::Power2Round(r, r1, r0);
  EXPECT_EQ(r1, 734);
  EXPECT_EQ((r0 + Q) % Q, 8377489);
  using R88 = detail::Rounding<(kQ - 1) / 88>;
  using R32 = detail::Rounding<(kQ - 1) / 32>;
  EXPECT_EQ(R88::HighBits(r), 32);
  EXPECT_EQ(R88::UseHint(0, r), 32);
  EXPECT_EQ(R88::UseHint(1, r), 31);
  EXPECT_EQ(R88::LowBits(r), -84848);
  EXPECT_EQ(R32::HighBits(r), 11);
  EXPECT_EQ(R32::UseHint(1, r), 12);
  EXPECT_EQ(R32::LowBits(r), 248464);
}

TEST(MldsaArith, NttMatchesSchoolbook) {
  const auto& be = detail::poly_backend();
  std::mt19937 rng(1);
  for (int iter = 0; iter < 20; ++iter) {
    detail::Poly a, b, c;
    for (int i = 0; i < 256; ++i) {
      a.c[i] = static_cast<std::int32_t>(rng() % Q) - Q / 2;
      b.c[i] = static_cast<std::int32_t>(rng() % Q) - Q / 2;
    }
    std::int64_t ref[256] = {};
    for (int i = 0; i < 256; ++i)
      for (int j = 0; j < 256; ++j) {
        std::int64_t prod = static_cast<std::int64_t>(a.c[i]) * b.c[j] % Q;
        if (i + j < 256) ref[i + j] = (ref[i + j] + prod) % Q;
        else ref[i + j - 256] = (ref[i + j - 256] - prod) % Q;
      }
    be.ntt(a.c);
    be.ntt(b.c);
    be.pointwise(c.c, a.c, b.c);
    be.invntt(c.c);
    for (int i = 0; i < 256; ++i) ASSERT_EQ(((c.c[i] - ref[i]) % Q + Q) % Q, 0) << i;
  }
}

// C2SP CCTV accumulated test A (../shared/vectors/cctv/README.md), N = 100.
using cctv_test::cctv_accumulated;

TEST(MldsaCctv, Accumulated100) {
  EXPECT_EQ(cctv_accumulated(Level::ml_dsa_44, 100), "d51148e1f9f4fa1a723a6cf42e25f2a99eb5c1b378b3d2dbbd561b1203beeae4");
  EXPECT_EQ(cctv_accumulated(Level::ml_dsa_65, 100), "8358a1843220194417cadbc2651295cd8fc65125b5a5c1a239a16dc8b57ca199");
  EXPECT_EQ(cctv_accumulated(Level::ml_dsa_87, 100), "8c3ad714777622b8f21ce31bb35f71394f23bc0fcf3c78ace5d608990f3b061b");
}

TEST(Mldsa, RoundTripAllOptions) {
  for (Level lv : kLevels) {
    Keys k = make_keys(lv);
    const bytes msg = {1, 2, 3, 4, 5};
    const bytes ctx = {9, 8, 7};
    // pure, empty and non-empty context, hedged and deterministic
    for (bool det : {false, true}) {
      Options o;
      o.deterministic = det;
      EXPECT_TRUE(verify(lv, k.pk, msg, sign_ok(lv, k.sk, msg, o)).ok());
      o.ctx = ctx;
      bytes s = sign_ok(lv, k.sk, msg, o);
      EXPECT_TRUE(verify(lv, k.pk, msg, s, o).ok());
      Options wrong;
      EXPECT_FALSE(verify(lv, k.pk, msg, s, wrong).ok());  // context is bound
    }
    // all 12 pre-hashes
    for (int ph = 0; ph < 12; ++ph) {
      Options o;
      o.ctx = ctx;
      o.prehash = static_cast<hash::PreHash>(ph);
      bytes s = sign_ok(lv, k.sk, msg, o);
      EXPECT_TRUE(verify(lv, k.pk, msg, s, o).ok()) << ph;
      Options pure;
      pure.ctx = ctx;
      EXPECT_FALSE(verify(lv, k.pk, msg, s, pure).ok()) << ph;  // domain separation pure vs pre-hash
      Options other = o;
      other.prehash = static_cast<hash::PreHash>((ph + 1) % 12);
      EXPECT_FALSE(verify(lv, k.pk, msg, s, other).ok()) << ph;
    }
  }
}

TEST(Mldsa, HedgedDiffersDeterministicRepeats) {
  Keys k = make_keys(Level::ml_dsa_65);
  const bytes msg = {42};
  Options det;
  det.deterministic = true;
  EXPECT_EQ(sign_ok(Level::ml_dsa_65, k.sk, msg, det), sign_ok(Level::ml_dsa_65, k.sk, msg, det));
  EXPECT_NE(sign_ok(Level::ml_dsa_65, k.sk, msg), sign_ok(Level::ml_dsa_65, k.sk, msg));
  // explicit rnd = 0^32 equals deterministic
  bytes zero(32, 0);
  Options ex;
  ex.rnd = zero.data();
  EXPECT_EQ(sign_ok(Level::ml_dsa_65, k.sk, msg, ex), sign_ok(Level::ml_dsa_65, k.sk, msg, det));
}

TEST(Mldsa, InterfacesAgree) {
  for (Level lv : kLevels) {
    const auto& p = params(lv);
    Keys k = make_keys(lv, 3);
    const bytes msg = {'h', 'i'};
    const bytes ctx = {0xAA, 0xBB};
    bytes rnd(32, 0x5C);
    Options o;
    o.ctx = ctx;
    o.rnd = rnd.data();
    bytes s1 = sign_ok(lv, k.sk, msg, o);
    // internal interface on M' = 0 || |ctx| || ctx || M
    bytes mp = {0, static_cast<std::uint8_t>(ctx.size())};
    mp.insert(mp.end(), ctx.begin(), ctx.end());
    mp.insert(mp.end(), msg.begin(), msg.end());
    bytes s2(p.sig_bytes);
    ASSERT_TRUE(sign_internal(lv, k.sk, mp, rnd, s2).ok());
    EXPECT_EQ(s1, s2);
    EXPECT_TRUE(verify_internal(lv, k.pk, mp, s1).ok());
    // external mu
    bytes mu(64), s3(p.sig_bytes);
    ASSERT_TRUE(external_mu(lv, k.pk, msg, mu, o).ok());
    ASSERT_TRUE(sign_mu(lv, k.sk, mu, rnd, s3).ok());
    EXPECT_EQ(s1, s3);
    EXPECT_TRUE(verify_mu(lv, k.pk, mu, s1).ok());
    mu[0] ^= 1;
    EXPECT_EQ(verify_mu(lv, k.pk, mu, s1).error().code, Errc::verify_failed);
  }
}

TEST(Mldsa, TamperingRejected) {
  for (Level lv : kLevels) {
    const auto& p = params(lv);
    Keys k = make_keys(lv, 11);
    const bytes msg = {'t', 'a', 'm', 'p', 'e', 'r', 0, 1, 2, 3};
    const bytes ctx = {'c', 't', 'x', 0, 0xFF};
    Options o;
    o.ctx = ctx;
    const bytes sig = sign_ok(lv, k.sk, msg, o);
    ASSERT_TRUE(verify(lv, k.pk, msg, sig, o).ok());
    // every byte of the signature (c̃, z, hint area) — stride 1 over c̃ and the hints,
    // every 7th byte of z (each flip changes one or two coefficients)
    const std::size_t ct_len = static_cast<std::size_t>(p.lambda) / 4;
    const std::size_t hint_off = p.sig_bytes - p.omega - p.k;
    for (std::size_t i = 0; i < sig.size(); i += (i >= ct_len && i < hint_off) ? 7 : 1) {
      for (std::uint8_t bit : {0x01, 0x80}) {
        bytes t = sig;
        t[i] ^= bit;
        EXPECT_FALSE(verify(lv, k.pk, msg, t, o).ok()) << "sig byte " << i;
      }
    }
    for (std::size_t i = 0; i < msg.size(); ++i) {
      bytes t = msg;
      t[i] ^= 1;
      EXPECT_FALSE(verify(lv, k.pk, t, sig, o).ok()) << "msg byte " << i;
    }
    for (std::size_t i = 0; i < ctx.size(); ++i) {
      bytes t = ctx;
      t[i] ^= 0x40;
      Options o2;
      o2.ctx = t;
      EXPECT_FALSE(verify(lv, k.pk, msg, sig, o2).ok()) << "ctx byte " << i;
    }
    // public key: every byte of ρ, every 13th byte of t1
    for (std::size_t i = 0; i < k.pk.size(); i += i < 32 ? 1 : 13) {
      bytes t = k.pk;
      t[i] ^= 0x10;
      EXPECT_FALSE(verify(lv, t, msg, sig, o).ok()) << "pk byte " << i;
    }
    // truncated / extended
    EXPECT_EQ(verify(lv, k.pk, msg, byte_span(sig.data(), sig.size() - 1), o).error().code, Errc::invalid_length);
    bytes longer = sig;
    longer.push_back(0);
    EXPECT_EQ(verify(lv, k.pk, msg, longer, o).error().code, Errc::invalid_length);
    EXPECT_EQ(verify(lv, byte_span(k.pk.data(), 100), msg, sig, o).error().code, Errc::invalid_length);
  }
}

TEST(Mldsa, MalformedHintsRejected) {
  for (Level lv : kLevels) {
    const auto& p = params(lv);
    Keys k = make_keys(lv, 5);
    const bytes msg = {'h'};
    Options det;
    det.deterministic = true;
    const bytes sig = sign_ok(lv, k.sk, msg, det);
    const std::size_t off = p.sig_bytes - p.omega - p.k;  // y[0 .. ω+k)
    const std::uint8_t* y = sig.data() + off;
    int total = y[p.omega + p.k - 1];
    ASSERT_GT(total, 1);
    ASSERT_LE(total, p.omega);
    auto expect_bad = [&](const bytes& s, const char* what) {
      auto st = verify(lv, k.pk, msg, s);
      ASSERT_FALSE(st.ok()) << what;
      EXPECT_EQ(st.error().code, Errc::invalid_encoding) << what << ": " << st.error().what();
    };
    {  // a count above ω
      bytes s = sig;
      s[off + p.omega + p.k - 1] = static_cast<std::uint8_t>(p.omega + 1);
      expect_bad(s, "count > omega");
    }
    {  // counts decreasing: find i with count[i] > 0 then set count[i+1] below it
      int i = 0;
      while (i < p.k - 1 && y[p.omega + i] == 0) ++i;
      if (i < p.k - 1 && y[p.omega + i] > 0) {
        bytes s = sig;
        s[off + p.omega + i + 1] = static_cast<std::uint8_t>(y[p.omega + i] - 1);
        expect_bad(s, "decreasing count");
      }
    }
    {  // indices not strictly increasing within a polynomial: find a polynomial with ≥ 2 hints
      int start = 0;
      for (int i = 0; i < p.k; ++i) {
        const int end = y[p.omega + i];
        if (end - start >= 2) {
          bytes s = sig;
          s[off + start + 1] = s[off + start];  // duplicate index
          expect_bad(s, "repeated index");
          s = sig;
          std::swap(s[off + start], s[off + start + 1]);  // decreasing
          expect_bad(s, "decreasing index");
          break;
        }
        start = end;
      }
    }
    if (total < p.omega) {  // unused byte not zero
      bytes s = sig;
      s[off + p.omega - 1] = 1;
      expect_bad(s, "nonzero padding");
    }
    {  // z coefficient outside the bound: z = γ1 (encoded 0) in the first coefficient
      bytes s = sig;
      const std::size_t zoff = static_cast<std::size_t>(p.lambda) / 4;
      s[zoff] = 0;
      s[zoff + 1] = 0;
      s[zoff + 2] &= static_cast<std::uint8_t>(p.gamma1 == (1 << 17) ? 0xFC : 0xF0);
      auto st = verify(lv, k.pk, msg, s);
      ASSERT_FALSE(st.ok());
      EXPECT_EQ(st.error().code, Errc::verify_failed);
    }
  }
}

TEST(Mldsa, ContextAndLengthErrors) {
  const Level lv = Level::ml_dsa_44;
  const auto& p = params(lv);
  Keys k = make_keys(lv);
  bytes ctx256(256, 1), ctx255(255, 1), sig(p.sig_bytes), mu(64);
  Options o;
  o.ctx = ctx256;
  EXPECT_EQ(sign(lv, k.sk, {}, sig, o).error().code, Errc::invalid_context);
  EXPECT_EQ(verify(lv, k.pk, {}, sig, o).error().code, Errc::invalid_context);
  EXPECT_EQ(external_mu(lv, k.pk, {}, mu, o).error().code, Errc::invalid_context);
  o.ctx = ctx255;
  sig = sign_ok(lv, k.sk, {}, o);
  EXPECT_TRUE(verify(lv, k.pk, {}, sig, o).ok());
  bytes seed(31), pk(p.pk_bytes), sk(p.sk_bytes);
  EXPECT_EQ(keygen_internal(lv, seed, pk, sk).error().code, Errc::invalid_length);
  EXPECT_EQ(sign(lv, byte_span(k.sk.data(), 10), {}, sig).error().code, Errc::invalid_length);
  bytes small(10);
  EXPECT_EQ(sign(lv, k.sk, {}, small).error().code, Errc::invalid_length);
  bytes rnd31(31);
  EXPECT_EQ(sign_internal(lv, k.sk, {}, rnd31, sig).error().code, Errc::invalid_length);
  EXPECT_EQ(sign_mu(lv, k.sk, bytes(63), bytes(32), sig).error().code, Errc::invalid_length);
  EXPECT_EQ(level_from_name("ml-dsa-44"), Level::ml_dsa_44);
  EXPECT_EQ(level_from_name("ML-DSA-87"), Level::ml_dsa_87);
  EXPECT_FALSE(level_from_name("ml-dsa-43").has_value());
}

TEST(Mldsa, ExpandedKeyChecks) {
  for (Level lv : kLevels) {
    const auto& p = params(lv);
    Keys k = make_keys(lv, 9);
    bytes pk(p.pk_bytes);
    ASSERT_TRUE(sk_check(lv, k.sk, pk).ok());
    EXPECT_EQ(pk, k.pk);
    // s1 coefficient out of range [−η, η]: first s1 byte 0xFF → encoded value 7 (η=2) / 15 (η=4)
    bytes bad = k.sk;
    bad[128] = 0xFF;
    EXPECT_EQ(sk_check(lv, bad, pk).error().code, Errc::key_check_failed);
    bytes sig(p.sig_bytes);
    EXPECT_EQ(sign(lv, bad, {}, sig).error().code, Errc::invalid_encoding);
    // tr, K-independent consistency: t0 and tr tampering
    bad = k.sk;
    bad[p.sk_bytes - 1] ^= 0x01;  // last t0 byte
    EXPECT_EQ(sk_check(lv, bad, pk).error().code, Errc::key_check_failed);
    bad = k.sk;
    bad[64] ^= 0x01;  // tr
    EXPECT_EQ(sk_check(lv, bad, pk).error().code, Errc::key_check_failed);
    bad = k.sk;
    bad[0] ^= 0x01;  // ρ
    EXPECT_EQ(sk_check(lv, bad, pk).error().code, Errc::key_check_failed);
  }
}

// PreparedSigningKey::create_checked = sk_check + create in one pass: same verdicts, the same
// recomputed pk, and a prepared key that signs exactly as the unprepared sk does.
TEST(Mldsa, CreateCheckedMatchesSkCheckAndCreate) {
  for (Level lv : kLevels) {
    const auto& p = params(lv);
    Keys k = make_keys(lv, 11);
    bytes pk(p.pk_bytes, 0xAA);
    auto prep = PreparedSigningKey::create_checked(lv, k.sk, pk);
    ASSERT_TRUE(prep.ok());
    EXPECT_EQ(pk, k.pk);
    const bytes msg = {1, 2, 3, 4, 5};
    Options det;
    det.deterministic = true;
    bytes s1(p.sig_bytes), s2(p.sig_bytes);
    ASSERT_TRUE(prep->sign(msg, s1, det).ok());
    ASSERT_TRUE(sign(lv, k.sk, msg, s2, det).ok());
    EXPECT_EQ(s1, s2);
    EXPECT_TRUE(verify(lv, k.pk, msg, s1).ok());
    for (std::size_t off : {std::size_t{0}, std::size_t{64}, std::size_t{128}, p.sk_bytes - 1}) {
      bytes bad = k.sk;
      bad[off] ^= off == 128 ? 0xFF : 0x01;
      bytes pk2(p.pk_bytes, 0xAA);
      auto r = PreparedSigningKey::create_checked(lv, bad, pk2);
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().code, Errc::key_check_failed);
      EXPECT_EQ(pk2, bytes(p.pk_bytes, 0));  // wiped on failure, as sk_check does
    }
    bytes short_pk(p.pk_bytes - 1);
    EXPECT_EQ(PreparedSigningKey::create_checked(lv, k.sk, short_pk).error().code, Errc::invalid_length);
  }
}

TEST(MldsaArith, Avx2MatchesScalar) {
  const auto* avx = detail::poly_backend_avx2();
  if (!avx) GTEST_SKIP() << "no AVX2 backend on this build / CPU";
  const auto& sc = detail::poly_backend_scalar();
  std::mt19937 rng(7);
  auto rnd = [&](detail::Poly& p, std::int32_t bound) {
    for (auto& x : p.c) x = static_cast<std::int32_t>(rng() % (2 * static_cast<std::uint32_t>(bound) - 1)) - (bound - 1);
  };
  for (int iter = 0; iter < 200; ++iter) {
    detail::Poly a, b, x, y;
    rnd(a, Q);
    b = a;
    sc.ntt(a.c);
    avx->ntt(b.c);
    ASSERT_EQ(0, std::memcmp(a.c, b.c, sizeof a.c)) << "ntt " << iter;
    detail::Poly c, d;
    rnd(c, Q);
    d = c;
    sc.invntt(c.c);
    avx->invntt(d.c);
    ASSERT_EQ(0, std::memcmp(c.c, d.c, sizeof c.c)) << "invntt " << iter;
    rnd(x, 9 * Q);
    rnd(y, 9 * Q);
    sc.pointwise(c.c, x.c, y.c);
    avx->pointwise(d.c, x.c, y.c);
    ASSERT_EQ(0, std::memcmp(c.c, d.c, sizeof c.c)) << "pointwise " << iter;
    detail::Poly as[7], bs[7];
    for (int j = 0; j < 7; ++j) {
      rnd(as[j], Q);
      rnd(bs[j], 9 * Q);
    }
    sc.pointwise_acc(c.c, as, bs, 7);
    avx->pointwise_acc(d.c, as, bs, 7);
    ASSERT_EQ(0, std::memcmp(c.c, d.c, sizeof c.c)) << "pointwise_acc " << iter;
  }
}

TEST(MldsaArith, PortableAndAvx2SignaturesAgree) {
  // The whole signing path gives identical bytes with the scalar reference forced.
  for (Level lv : kLevels) {
    Keys k = make_keys(lv, 21);
    const bytes msg = {1, 2, 3};
    Options det;
    det.deterministic = true;
    const bytes s1 = sign_ok(lv, k.sk, msg, det);
    cpu::force_portable(true);
    const bytes s2 = sign_ok(lv, k.sk, msg, det);
    const bool ok = verify(lv, k.pk, msg, s1).ok();
    cpu::force_portable(false);
    EXPECT_EQ(s1, s2);
    EXPECT_TRUE(ok);
  }
}

TEST(Mldsa, PreparedKeysMatchRawApi) {
  for (Level lv : kLevels) {
    const auto& p = params(lv);
    Keys k = make_keys(lv, 33);
    auto ps = PreparedSigningKey::create(lv, k.sk);
    auto pv = PreparedVerifyingKey::create(lv, k.pk);
    ASSERT_TRUE(ps.ok() && pv.ok());
    const bytes msg = {'p', 'r', 'e', 'p'};
    const bytes ctx = {1, 2};
    for (int ph = -1; ph < 12; ph += 4) {
      Options o;
      o.ctx = ctx;
      o.deterministic = true;
      if (ph >= 0) o.prehash = static_cast<hash::PreHash>(ph);
      bytes s1 = sign_ok(lv, k.sk, msg, o), s2(p.sig_bytes);
      ASSERT_TRUE(ps->sign(msg, s2, o).ok());
      EXPECT_EQ(s1, s2);
      EXPECT_TRUE(pv->verify(msg, s1, o).ok());
      s1[5] ^= 1;
      EXPECT_EQ(pv->verify(msg, s1, o).error().code, Errc::verify_failed);
    }
    bytes mu(64, 9), rnd(32, 4), s3(p.sig_bytes), s4(p.sig_bytes);
    ASSERT_TRUE(ps->sign_mu(mu, rnd, s3).ok());
    ASSERT_TRUE(sign_mu(lv, k.sk, mu, rnd, s4).ok());
    EXPECT_EQ(s3, s4);
    EXPECT_TRUE(pv->verify_mu(mu, s3).ok());
    // hedged signatures from the prepared key verify with the raw API
    bytes s5(p.sig_bytes);
    ASSERT_TRUE(ps->sign(msg, s5).ok());
    EXPECT_TRUE(verify(lv, k.pk, msg, s5).ok());
    bytes bad = k.sk;
    bad[128] = 0xFF;
    EXPECT_FALSE(PreparedSigningKey::create(lv, bad).ok());
    EXPECT_EQ(PreparedVerifyingKey::create(lv, bytes(5)).error().code, Errc::invalid_length);
  }
}
