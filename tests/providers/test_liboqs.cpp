// The liboqs provider (built only with liboqs): every ML-DSA / SLH-DSA ACVP sigVer vector gives
// the same verdict through pqsig, liboqs and dual enforce where liboqs implements the interface.
// With PQSIG_LIBOQS_MLDSA_INTERNAL (liboqs exports mldsa-native's verify_internal and
// verify_pre_hash_internal, cmake/liboqs.cmake) that is all 216; without it HashML-DSA, external μ
// and the ML-DSA internal interface are Errc::unsupported and the dual check is refused, never
// downgraded. Plus signatures made by pqsig with random
// messages/contexts, verified by both, and one flipped byte rejected by both.
#include <gtest/gtest.h>

#include <random>

#include <oqs/oqs.h>

#include "acvp_sigver.hpp"
#include "pqsig/ledger.hpp"
#include "pqsig/lms.hpp"
#include "pqsig/provider.hpp"
#include "pqsig/stateful_key.hpp"
#include "pqsig/xmss.hpp"
#include "support/required.hpp"

using namespace pqsig;
namespace pp = pqsig::provider;
namespace pl = pqsig::ledger;

TEST(Liboqs, IsAvailableWithAVersion) {
  auto p = pp::find("liboqs").value();
  const auto info = p->info();
  ASSERT_TRUE(info.available) << info.reason;
  EXPECT_NE(info.version.find("liboqs 0."), std::string::npos) << info.version;
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87"})
    EXPECT_EQ(p->interfaces(*find_suite(id).value()) & (pp::kPure | pp::kContext), pp::kPure | pp::kContext) << id;
#if defined(PQSIG_LIBOQS_MLDSA_INTERNAL)
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87"})
    EXPECT_EQ(p->interfaces(*find_suite(id).value()),
              pp::kPure | pp::kContext | pp::kPreHash | pp::kInternal | pp::kExternalMu)
        << id << ": mldsa-native's exported core gives every interface";
  EXPECT_NE(info.version.find("ML-DSA internal"), std::string::npos) << info.version;
#else
  EXPECT_EQ(p->interfaces(*find_suite("ml-dsa-44").value()) & (pp::kPreHash | pp::kExternalMu | pp::kInternal), 0u)
      << "liboqs' public API has no HashML-DSA, external mu or internal interface";
#endif
}

TEST(Liboqs, EveryAcvpSigVerVectorSameVerdictOrRefused) {
  auto ours = pp::find("pqsig").value();
  auto oqs = pp::find("liboqs").value();
  pl::DualVerifier dual(ours, oqs, pl::Mode::enforce, std::make_shared<pl::KeyCache>(64));
  pl::DualVerifier dual_rev(oqs, ours, pl::Mode::enforce);
  int same = 0, refused = 0, total = 0;
  for (const char* file : {"ml-dsa-sigVer.json", "slh-dsa-sigVer.json"}) {
    for (const auto& c : load_sigver(file)) {
      ++total;
      const auto opt = c.options();
      const Status a = ours->verify(*c.suite, c.pk, c.msg, c.sig, opt);
      EXPECT_EQ(a.ok(), c.expected) << c.label;
      const pl::Item item{c.suite, c.pk, c.msg, c.sig, opt};
      if (!oqs->supports(*c.suite, opt).ok()) {
        const Status b = oqs->verify(*c.suite, c.pk, c.msg, c.sig, opt);
        ASSERT_FALSE(b.ok());
        EXPECT_EQ(b.error().code, Errc::unsupported) << c.label;
        const pl::Verdict v = dual.verify(item);
        EXPECT_TRUE(v.refused) << c.label;
        EXPECT_FALSE(v.accepted) << c.label;
        ++refused;
        continue;
      }
      const Status b = oqs->verify(*c.suite, c.pk, c.msg, c.sig, opt);
      EXPECT_EQ(b.ok(), c.expected) << c.label << (b.ok() ? "" : ": " + b.error().what());
      const pl::Verdict v = dual.verify(item);
      EXPECT_EQ(v.accepted, c.expected) << c.label;
      EXPECT_FALSE(v.disagreement) << c.label;
      EXPECT_EQ(dual_rev.verify(item).accepted, c.expected) << c.label;
      ++same;
    }
  }
  std::printf("sigVer vectors: %d total, %d same verdict through pqsig, liboqs and dual enforce, %d refused "
              "(interface not in liboqs)\n", total, same, refused);
  EXPECT_EQ(total, 216);
#if defined(PQSIG_LIBOQS_MLDSA_INTERNAL)
  EXPECT_EQ(same, 216) << "every vector through both providers";
  EXPECT_EQ(refused, 0);
#else
  EXPECT_GE(same, 45 + 36) << "ML-DSA external pure/context and every SLH-DSA (internal) vector";
#endif
  EXPECT_EQ(dual.stats().disagreements, 0u);
}

TEST(Liboqs, PqsigSignaturesVerifyThroughLiboqsAndTamperingIsRejectedByBoth) {
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  auto ours = pp::find("pqsig").value();
  auto oqs = pp::find("liboqs").value();
  pl::DualVerifier shadow(ours, oqs, pl::Mode::shadow);
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "slh-dsa-sha2-128f", "slh-dsa-shake-128f"}) {
    const SuiteInfo& s = *find_suite(id).value();
    auto sk = SigningKey::generate(s).value();
    const int n = s.family == "ml-dsa" ? 8 : 2;
    for (int i = 0; i < n; ++i) {
      bytes msg(rng() % 200), ctx(i % 2 ? rng() % 256 : 0);
      for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
      for (auto& b : ctx) b = static_cast<std::uint8_t>(rng());
      SignOptions so;
      so.ctx = ctx;
      const bytes sig = sk.sign(msg, so).value();
      pp::VerifyOptions vo;
      vo.ctx = ctx;
      EXPECT_TRUE(oqs->verify(s, sk.public_key(), msg, sig, vo).ok()) << id << " i " << i;
      bytes bad = sig;
      bad[rng() % bad.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      EXPECT_FALSE(oqs->verify(s, sk.public_key(), msg, bad, vo).ok()) << id << " i " << i;
      EXPECT_TRUE(shadow.verify(pl::Item{&s, sk.public_key(), msg, sig, vo}).accepted);
      EXPECT_FALSE(shadow.verify(pl::Item{&s, sk.public_key(), msg, bad, vo}).accepted);
      // Wrong lengths are errors, not crashes.
      EXPECT_FALSE(oqs->verify(s, sk.public_key(), msg, byte_span(sig).first(sig.size() - 1), vo).ok());
      EXPECT_FALSE(oqs->verify(s, byte_span(sk.public_key()).first(s.public_key_size - 1), msg, sig, vo).ok());
    }
  }
  EXPECT_EQ(shadow.stats().disagreements, 0u);
}

TEST(Liboqs, SignsWithTheFipsSecretKeyAndPqsigVerifies) {
  auto ours = pp::find("pqsig").value();
  auto oqs = pp::find("liboqs").value();
  const bytes msg = {'l', 'e', 'd', 'g', 'e', 'r'};
  const bytes ctx = {1, 2, 3, 4};
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "slh-dsa-sha2-128f", "slh-dsa-shake-128f"}) {
    const SuiteInfo& s = *find_suite(id).value();
    auto sk = SigningKey::generate(s).value();
    const bytes expanded = sk.expanded_private_key().value();
    for (const bytes& c : {bytes{}, ctx}) {
      auto sig = oqs->sign(s, expanded, msg, c);
      ASSERT_TRUE(sig.ok()) << id << ": " << sig.error().what();
      pp::VerifyOptions vo;
      vo.ctx = c;
      EXPECT_TRUE(ours->verify(s, sk.public_key(), msg, *sig, vo).ok()) << id << " liboqs-signed, pqsig-verified";
      EXPECT_TRUE(oqs->verify(s, sk.public_key(), msg, *sig, vo).ok()) << id;
      const bytes other = {9};
      vo.ctx = other;
      EXPECT_FALSE(ours->verify(s, sk.public_key(), msg, *sig, vo).ok()) << id << " wrong context";
    }
    // And the reverse: pqsig signs with the same key bytes, liboqs verifies.
    auto mine = ours->sign(s, expanded, msg, ctx);
    ASSERT_TRUE(mine.ok()) << mine.error().what();
    pp::VerifyOptions vo;
    vo.ctx = ctx;
    EXPECT_TRUE(oqs->verify(s, sk.public_key(), msg, *mine, vo).ok()) << id;
  }
  // Where liboqs cannot sign: a typed error.
  const SuiteInfo& ed = *find_suite("ed25519").value();
  auto r = oqs->sign(ed, bytes(32), msg, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::unsupported);
  EXPECT_EQ(oqs->sign(*find_suite("ml-dsa-44").value(), bytes(10), msg, {}).error().code, Errc::invalid_length);
}

#if defined(PQSIG_LIBOQS_MLDSA_INTERNAL)
TEST(Liboqs, HashMlDsaAndWrongInputsThroughMldsaNativeCore) {
  auto oqs = pp::find("liboqs").value();
  const bytes msg = {'b', 'l', 'o', 'c', 'k'};
  const bytes ctx = {7, 7};
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87"}) {
    const SuiteInfo& s = *find_suite(id).value();
    auto sk = SigningKey::generate(s).value();
    SignOptions so;
    so.ctx = ctx;
    so.prehash = hash::PreHash::sha2_512;
    const bytes sig = sk.sign(msg, so).value();
    pp::VerifyOptions vo;
    vo.ctx = ctx;
    vo.prehash = hash::PreHash::sha2_512;
    EXPECT_TRUE(oqs->verify(s, sk.public_key(), msg, sig, vo).ok()) << id << " HashML-DSA, pqsig-signed";
    vo.prehash = hash::PreHash::sha3_512;
    EXPECT_EQ(oqs->verify(s, sk.public_key(), msg, sig, vo).error().code, Errc::verify_failed) << id << " other hash";
    vo.prehash.reset();
    EXPECT_EQ(oqs->verify(s, sk.public_key(), msg, sig, vo).error().code, Errc::verify_failed) << id << " as pure";
    pp::VerifyOptions mu;
    mu.input = pp::VerifyOptions::Input::mu;
    EXPECT_EQ(oqs->verify(s, sk.public_key(), bytes(63), sig, mu).error().code, Errc::invalid_length) << id;
    EXPECT_EQ(oqs->verify(s, sk.public_key(), bytes(64), sig, mu).error().code, Errc::verify_failed) << id;
    pp::VerifyOptions internal;
    internal.input = pp::VerifyOptions::Input::internal;
    EXPECT_EQ(oqs->verify(s, sk.public_key(), msg, byte_span(sig).first(sig.size() - 1), internal).error().code,
              Errc::invalid_length)
        << id;
  }
}
#endif

#if defined(PQSIG_LIBOQS_SLH_PREHASH)
// HashSLH-DSA through liboqs' hash_slh_verify (FIPS 205, Algorithm 25), which computes PH(M)
// with liboqs' own hash functions: independent of pqsig's pre-hash code.
TEST(Liboqs, HashSlhDsaThroughHashSlhVerify) {
  auto oqs = pp::find("liboqs").value();
  const bytes msg = {'b', 'l', 'o', 'c', 'k'};
  const bytes ctx = {3};
  for (const char* id : {"slh-dsa-sha2-128f", "slh-dsa-shake-128f"}) {
    const SuiteInfo& s = *find_suite(id).value();
    EXPECT_TRUE(oqs->interfaces(s) & pp::kPreHash) << id;
    auto sk = SigningKey::generate(s).value();
    for (auto ph : {hash::PreHash::sha2_512_224, hash::PreHash::sha3_224, hash::PreHash::shake_256}) {
      SignOptions so;
      so.ctx = ctx;
      so.prehash = ph;
      const bytes sig = sk.sign(msg, so).value();
      pp::VerifyOptions vo;
      vo.ctx = ctx;
      vo.prehash = ph;
      EXPECT_TRUE(oqs->verify(s, sk.public_key(), msg, sig, vo).ok()) << id << " pqsig-signed HashSLH-DSA";
      vo.prehash = hash::PreHash::sha2_256;
      EXPECT_EQ(oqs->verify(s, sk.public_key(), msg, sig, vo).error().code, Errc::verify_failed) << id;
      vo.prehash = ph;
      vo.ctx = {};
      EXPECT_EQ(oqs->verify(s, sk.public_key(), msg, sig, vo).error().code, Errc::verify_failed) << id;
    }
  }
}
#endif

// ML-KEM both ways: keys of either provider, encapsulation by one, decapsulation by the other
// (and by the same one), the implicit-rejection secret of a tampered ciphertext equal on both
// sides, malformed keys refused by both.
TEST(Liboqs, MlKemEncapsOnOneSideDecapsOnTheOther) {
  auto ours = pp::find("pqsig").value();
  auto oqs = pp::find("liboqs").value();
  for (const char* id : {"ml-kem-512", "ml-kem-768", "ml-kem-1024"}) {
    const SuiteInfo& s = *find_suite(id).value();
    for (const auto& p : {ours, oqs})
      EXPECT_EQ(p->operations(s), pp::kKeygen | pp::kEncaps | pp::kDecaps) << p->name() << " " << id;
    EXPECT_EQ(oqs->interfaces(s), 0u) << "a KEM has no verification interface";
    for (const auto& [maker, encapser, other] :
         {std::tuple{oqs, ours, oqs}, std::tuple{ours, oqs, ours}}) {
      const std::string how = std::string(id) + ": keys by " + std::string(maker->name()) + ", encaps by " +
                              std::string(encapser->name());
      auto kp = maker->keygen(s);
      ASSERT_TRUE(kp.ok()) << how << ": " << kp.error().what();
      ASSERT_EQ(kp->public_key.size(), s.public_key_size) << how;
      ASSERT_EQ(kp->secret_key.size(), s.expanded_key_size) << how;
      auto e = encapser->encaps(s, kp->public_key);
      ASSERT_TRUE(e.ok()) << how << ": " << e.error().what();
      ASSERT_EQ(e->ciphertext.size(), s.output_size) << how;
      for (const auto& decapser : {ours, oqs}) {
        auto k = decapser->decaps(s, kp->secret_key.span(), e->ciphertext);
        ASSERT_TRUE(k.ok()) << how << ", decaps by " << decapser->name() << ": " << k.error().what();
        EXPECT_EQ(to_hex(k->span()), to_hex(e->shared_secret.span())) << how << ", decaps by " << decapser->name();
      }
      // Implicit rejection (FIPS 203, Algorithm 18: K̄ = J(z ‖ c)): the same secret on both sides.
      bytes bad = e->ciphertext;
      bad[bad.size() / 2] ^= 0x10;
      auto r1 = ours->decaps(s, kp->secret_key.span(), bad);
      auto r2 = oqs->decaps(s, kp->secret_key.span(), bad);
      ASSERT_TRUE(r1.ok() && r2.ok()) << how;
      EXPECT_EQ(to_hex(r1->span()), to_hex(r2->span())) << how << ": implicit rejection differs";
      EXPECT_NE(to_hex(r1->span()), to_hex(e->shared_secret.span())) << how;
      // Malformed inputs: typed errors on both sides, never a secret.
      for (const auto& p : {ours, other}) {
        EXPECT_EQ(p->encaps(s, byte_span(kp->public_key).first(s.public_key_size - 1)).error().code,
                  Errc::invalid_length)
            << p->name();
        EXPECT_EQ(p->decaps(s, kp->secret_key.span(), byte_span(bad).first(bad.size() - 1)).error().code,
                  Errc::invalid_length)
            << p->name();
        bytes ek = kp->public_key;
        ek[0] = 0xff;  // first coefficient 0x?ff | 0xf00 >= q: FIPS 203 §7.2 modulus check fails
        ek[1] = 0xff;
        EXPECT_FALSE(p->encaps(s, ek).ok()) << p->name() << " accepted an encapsulation key failing the modulus check";
      }
    }
  }
}

// Keys made by one provider sign through the other: liboqs keygen → pqsig signs → both verify;
// pqsig keygen → liboqs signs → both verify.
TEST(Liboqs, KeysOfEitherProviderSignThroughTheOther) {
  auto ours = pp::find("pqsig").value();
  auto oqs = pp::find("liboqs").value();
  const bytes msg = {'k', 'e', 'y', 's'};
  const bytes ctx = {5, 6};
  pp::VerifyOptions vo;
  vo.ctx = ctx;
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "slh-dsa-sha2-128f", "slh-dsa-shake-128f"}) {
    const SuiteInfo& s = *find_suite(id).value();
    for (const auto& p : {ours, oqs}) EXPECT_EQ(p->operations(s), pp::kKeygen | pp::kSign) << p->name() << " " << id;
    for (const auto& [maker, signer] : {std::pair{oqs, ours}, std::pair{ours, oqs}}) {
      const std::string how = std::string(id) + ": keys by " + std::string(maker->name()) + ", signed by " +
                              std::string(signer->name());
      auto kp = maker->keygen(s);
      ASSERT_TRUE(kp.ok()) << how << ": " << kp.error().what();
      ASSERT_EQ(kp->public_key.size(), s.public_key_size) << how;
      ASSERT_EQ(kp->secret_key.size(), s.expanded_key_size) << how;
      auto sig = signer->sign(s, kp->secret_key.span(), msg, ctx);
      ASSERT_TRUE(sig.ok()) << how << ": " << sig.error().what();
      for (const auto& v : {ours, oqs}) {
        EXPECT_TRUE(v->verify(s, kp->public_key, msg, *sig, vo).ok()) << how << ", verified by " << v->name();
        bytes bad = *sig;
        bad[bad.size() / 3] ^= 4;
        EXPECT_FALSE(v->verify(s, kp->public_key, msg, bad, vo).ok()) << how << ", tampered, " << v->name();
      }
    }
  }
  // No key generation where the provider lacks the suite: a typed error.
  EXPECT_EQ(oqs->keygen(*find_suite("ed25519").value()).error().code, Errc::unsupported);
  EXPECT_EQ(oqs->operations(*find_suite("ed25519").value()), 0u);
}

// ---------------------------------------------------------------- stateful hash-based suites
// The registry's LMS/HSS and XMSS/XMSS^MT suites (issue 23) through liboqs' OQS_SIG_STFL_verify:
// liboqs verifies exactly the sets its build enables (OQS_SIG_STFL_alg_is_enabled), pure only,
// no key generation or signing; the others are Errc::unsupported and a dual check is refused.
// Signatures are pqsig's (deterministic keys, sign_at); dual enforce accepts them and both
// providers reject a changed signature or message.

namespace {

// liboqs' name of each registry suite, written out here (not derived as the provider does).
struct HbsOqsName {
  const char* suite;
  const char* oqs;
};
constexpr HbsOqsName kHbsOqsNames[] = {
    {"lms-sha256-m32-h10-w4", "LMS_SHA256_H10_W4"},
    {"lms-sha256-m32-h10-w8", "LMS_SHA256_H10_W8"},
    {"lms-sha256-m32-h15-w4", "LMS_SHA256_H15_W4"},
    {"lms-sha256-m32-h15-w8", "LMS_SHA256_H15_W8"},
    {"lms-sha256-m32-h20-w4", "LMS_SHA256_H20_W4"},
    {"lms-sha256-m32-h20-w8", "LMS_SHA256_H20_W8"},
    {"hss-sha256-m32-h10-w8-h10-w8", "LMS_SHA256_H10_W8_H10_W8"},
    {"xmss-sha2_10_256", "XMSS-SHA2_10_256"},
    {"xmss-sha2_16_256", "XMSS-SHA2_16_256"},
    {"xmss-sha2_20_256", "XMSS-SHA2_20_256"},
    {"xmssmt-sha2_20-2_256", "XMSSMT-SHA2_20/2_256"},
    {"xmssmt-sha2_40-4_256", "XMSSMT-SHA2_40/4_256"},
};

bool hbs_oqs_enabled(const SuiteInfo& s) {
  OQS_init();
  for (const auto& n : kHbsOqsNames)
    if (s.id == n.suite) return OQS_SIG_STFL_alg_is_enabled(n.oqs) != 0;
  ADD_FAILURE() << s.id << ": a stateful registry suite missing from kHbsOqsNames";
  return false;
}

struct HbsSigned {
  bytes pk, sig;
};

// pqsig signs `msg` at `index` with a fixed key of suite `s` (from its typed parameters).
HbsSigned hbs_pqsig_sign(const SuiteInfo& s, byte_span msg, std::uint64_t index) {
  const HbsParams& h = s.params.hbs;
  HbsSigned out;
  if (s.family == Family::lms) {
    const std::vector<lms::Level> lv(h.levels, lms::Level{lms::find_lms(h.code), lms::find_lmots(h.ots)});
    auto key = lms::HssPrivateKey::from_seed(lv, bytes(16, 0x23), bytes(32, 0x5a));
    EXPECT_TRUE(key.ok()) << s.id;
    if (!key) return out;
    auto signer = lms::HssSigner::create(std::move(*key));
    EXPECT_TRUE(signer.ok()) << s.id;
    if (!signer) return out;
    out.pk = signer->public_key();
    auto sig = signer->sign_at(index, msg);
    EXPECT_TRUE(sig.ok()) << s.id;
    if (sig) out.sig = *sig;
    return out;
  }
  const xmss::Params* p = h.mt ? xmss::find_xmssmt(h.code) : xmss::find_xmss(h.code);
  EXPECT_NE(p, nullptr) << s.id;
  if (!p) return out;
  auto key = xmss::PrivateKey::from_seeds(*p, bytes(p->n, 0x11), bytes(p->n, 0x22), bytes(p->n, 0x33));
  EXPECT_TRUE(key.ok()) << s.id;
  if (!key) return out;
  auto signer = xmss::Signer::create(std::move(*key));
  EXPECT_TRUE(signer.ok()) << s.id;
  if (!signer) return out;
  out.pk = signer->public_key();
  auto sig = signer->sign_at(index, msg);
  EXPECT_TRUE(sig.ok()) << s.id;
  if (sig) out.sig = *sig;
  return out;
}

// Dual verification of one pqsig signature: accepted by pqsig, liboqs and dual enforce both ways;
// a changed signature, a changed message and a cut signature rejected by both, typed.
void hbs_dual_check(const char* id, std::uint64_t index) {
  SCOPED_TRACE(id);
  const SuiteInfo& s = *find_suite(id).value();
  if (!hbs_oqs_enabled(s)) PQSIG_LIBOQS_STFL_SKIP_OR_FAIL("liboqs was built without the counterpart of " << id);
  auto ours = pp::find("pqsig").value();
  auto oqs = pp::find("liboqs").value();
  ASSERT_EQ(oqs->interfaces(s), pp::kPure);
  const std::string text = std::string("issue 23 dual check of ") + id;
  const bytes msg(text.begin(), text.end());
  const HbsSigned hs = hbs_pqsig_sign(s, msg, index);
  ASSERT_EQ(hs.sig.size(), s.output_size);
  ASSERT_EQ(hs.pk.size(), s.public_key_size);
  // A key whose parameter set the seam reads from the key (HTTP's algs hss-lms and xmss, a
  // directory key; for XMSS the registry its JWK names) is this registry row, so dual
  // verification applies to it as to the row.
  {
    auto by_key = suite_for_public_key(s.family, hs.pk, s.params.hbs.mt);
    ASSERT_TRUE(by_key.ok()) << by_key.error().what();
    EXPECT_EQ(*by_key, &s);
  }

  pl::DualVerifier dual(ours, oqs, pl::Mode::enforce, std::make_shared<pl::KeyCache>(8));
  pl::DualVerifier dual_rev(oqs, ours, pl::Mode::enforce);
  EXPECT_TRUE(ours->verify(s, hs.pk, msg, hs.sig).ok());
  const Status b = oqs->verify(s, hs.pk, msg, hs.sig);
  EXPECT_TRUE(b.ok()) << (b ? "" : b.error().what());
  for (pl::DualVerifier* dv : {&dual, &dual_rev}) {
    const pl::Verdict v = dv->verify(pl::Item{&s, hs.pk, msg, hs.sig, {}});
    EXPECT_TRUE(v.accepted) << v.reason;
    EXPECT_TRUE(v.second_ran);
    EXPECT_FALSE(v.disagreement);
  }

  // One changed byte: in the first one-time signature, in the last authentication path.
  for (std::size_t at : {std::size_t{40}, hs.sig.size() - 3}) {
    bytes bad = hs.sig;
    bad[at] ^= 0x04;
    for (const auto& p : {ours, oqs}) {
      const Status st = p->verify(s, hs.pk, msg, bad);
      ASSERT_FALSE(st.ok()) << p->name() << " accepted a signature changed at byte " << at;
      EXPECT_EQ(st.error().code, Errc::verify_failed) << p->name() << ": " << st.error().what();
    }
    for (pl::DualVerifier* dv : {&dual, &dual_rev}) {
      const pl::Verdict v = dv->verify(pl::Item{&s, hs.pk, msg, bad, {}});
      EXPECT_FALSE(v.accepted) << "byte " << at;
      EXPECT_FALSE(v.disagreement) << "byte " << at;
    }
  }
  bytes other = msg;
  other.back() ^= 1;
  for (const auto& p : {ours, oqs}) {
    const Status st = p->verify(s, hs.pk, other, hs.sig);
    ASSERT_FALSE(st.ok()) << p->name() << " accepted another message";
    EXPECT_EQ(st.error().code, Errc::verify_failed) << p->name();
  }
  const bytes cut(hs.sig.begin(), hs.sig.end() - 1);
  for (const auto& p : {ours, oqs}) {
    const Status st = p->verify(s, hs.pk, msg, cut);
    ASSERT_FALSE(st.ok()) << p->name();
    EXPECT_EQ(st.error().code, Errc::invalid_length) << p->name() << ": " << st.error().what();
  }
  // A context string: liboqs has none for these sets (pqsig neither): refused, never dropped.
  pp::VerifyOptions ctx;
  const bytes c{1, 2, 3};
  ctx.ctx = c;
  const Status st = oqs->verify(s, hs.pk, msg, hs.sig, ctx);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Errc::unsupported);
  EXPECT_EQ(dual.stats().disagreements, 0u);
  EXPECT_EQ(dual_rev.stats().disagreements, 0u);
}

}  // namespace

TEST(LiboqsStateful, InterfacesFollowTheLiboqsBuild) {
  auto oqs = pp::find("liboqs").value();
  auto ours = pp::find("pqsig").value();
  int stateful = 0, supported = 0, unsupported = 0;
  for (const auto& s : all_suites()) {
    if (!s.stateful) continue;
    ++stateful;
    SCOPED_TRACE(s.id);
    EXPECT_EQ(oqs->operations(s), 0u) << "verification only";
    auto kg = oqs->keygen(s);
    ASSERT_FALSE(kg.ok());
    EXPECT_EQ(kg.error().code, Errc::unsupported);
    if (hbs_oqs_enabled(s)) {
      EXPECT_EQ(oqs->interfaces(s), pp::kPure);
      ++supported;
      continue;
    }
    ++unsupported;
    // No liboqs counterpart in this build: typed unsupported, and a dual check is refused.
    EXPECT_EQ(oqs->interfaces(s), 0u);
    const bytes pk(s.public_key_size, 0), sig(s.output_size, 0), msg{1, 2, 3};
    const Status st = oqs->verify(s, pk, msg, sig);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, Errc::unsupported) << st.error().what();
    auto prep = oqs->prepare(s, pk);
    ASSERT_FALSE(prep.ok());
    EXPECT_EQ(prep.error().code, Errc::unsupported);
    pl::DualVerifier dual(ours, oqs, pl::Mode::enforce);
    const pl::Verdict v = dual.verify(pl::Item{&s, pk, msg, sig, {}});
    EXPECT_TRUE(v.refused);
    EXPECT_FALSE(v.accepted);
  }
  std::printf("stateful suites: %d, liboqs verifies %d, %d not in this liboqs build\n", stateful, supported,
              unsupported);
  EXPECT_EQ(stateful, static_cast<int>(std::size(kHbsOqsNames)));
  if (supported == 0) PQSIG_LIBOQS_STFL_SKIP_OR_FAIL("liboqs was built without its stateful signatures (OQS_ENABLE_SIG_STFL_*)");
}

TEST(LiboqsStateful, KeyOfAnotherSetRefused) {
  const SuiteInfo& w4 = *find_suite("lms-sha256-m32-h10-w4").value();
  const SuiteInfo& w8 = *find_suite("lms-sha256-m32-h10-w8").value();
  if (!hbs_oqs_enabled(w4) || !hbs_oqs_enabled(w8))
    PQSIG_LIBOQS_STFL_SKIP_OR_FAIL("liboqs was built without LMS H10 W4 / W8");
  auto oqs = pp::find("liboqs").value();
  // A W4 key (same size as a W8 one) offered as a W8 key: refused before liboqs runs, typed.
  const std::string text = "key of another set";
  const bytes msg(text.begin(), text.end());
  const HbsSigned hs = hbs_pqsig_sign(w4, msg, 5);
  ASSERT_EQ(hs.pk.size(), w8.public_key_size);
  auto prep = oqs->prepare(w8, hs.pk);
  ASSERT_FALSE(prep.ok());
  EXPECT_EQ(prep.error().code, Errc::invalid_encoding) << prep.error().what();
  auto wrong_len = oqs->prepare(w4, byte_span(hs.pk).first(hs.pk.size() - 1));
  ASSERT_FALSE(wrong_len.ok());
  EXPECT_EQ(wrong_len.error().code, Errc::invalid_length);
}

TEST(LiboqsStateful, DualVerifiesPqsigHssSignature) { hbs_dual_check("lms-sha256-m32-h10-w4", 1000); }
TEST(LiboqsStateful, DualVerifiesPqsigXmssSignature) { hbs_dual_check("xmss-sha2_10_256", 7); }
TEST(LiboqsStateful, DualVerifiesPqsigXmssMtSignature) { hbs_dual_check("xmssmt-sha2_20-2_256", 1025); }
TEST(LiboqsStateful, DualVerifiesPqsigTwoLevelHssSignature) { hbs_dual_check("hss-sha256-m32-h10-w8-h10-w8", 1025); }
