// The stateful hash-based suites of the registry (LMS/HSS, XMSS/XMSS^MT): marked stateful, their
// rows against the lms / xmss parameter tables, verification through the suite API and the
// provider seam, and the refusal of every stateless way to a signing key (Errc::stateful_key,
// naming the stateful API): a stateless key would sign without the state and could reuse an index.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pqsig/lms.hpp"
#include "pqsig/provider.hpp"
#include "pqsig/stateful_key.hpp"
#include "pqsig/suite.hpp"
#include "pqsig/xmss.hpp"

using namespace pqsig;

namespace {
const SuiteInfo& HS(std::string_view id) { return *find_suite(id).value(); }
bytes HB(std::string_view s) { return bytes(s.begin(), s.end()); }
}  // namespace

TEST(StatefulSuites, MarkedAndMatchTheFamilyTables) {
  int lms_rows = 0, xmss_rows = 0;
  for (const auto& s : all_suites()) {
    SCOPED_TRACE(std::string(s.id));
    const bool hbs = s.family == Family::lms || s.family == Family::xmss;
    EXPECT_EQ(s.stateful, hbs);
    EXPECT_EQ(s.max_signatures(), hbs ? std::uint64_t{1} << s.params.hbs.height : 0u);
    if (s.family == Family::lms) {
      ++lms_rows;
      EXPECT_EQ(family_name(s.family), "lms");
      const lms::LmsParams* lp = lms::find_lms(s.params.hbs.code);
      const lms::LmotsParams* op = lms::find_lmots(s.params.hbs.ots);
      ASSERT_TRUE(lp && op);
      const std::vector<lms::Level> levels(s.params.hbs.levels, lms::Level{lp, op});
      ASSERT_TRUE(lms::check_levels(levels).ok());
      EXPECT_EQ(lms::levels_name(levels), s.id);  // the id is the short name `pqsig hbs` takes
      EXPECT_EQ(s.public_key_size, lms::hss_public_key_bytes(levels));
      EXPECT_EQ(s.output_size, lms::hss_signature_bytes(levels));
      EXPECT_EQ(s.params.hbs.height, lp->h * s.params.hbs.levels);
      auto k = lms::HssPrivateKey::from_seed(levels, bytes(16, 1), bytes(op->n, 2));
      ASSERT_TRUE(k.ok());
      EXPECT_EQ(k->serialize().size(), s.private_key_size);
      EXPECT_EQ(k->max_signatures(), s.max_signatures());
    } else if (s.family == Family::xmss) {
      ++xmss_rows;
      EXPECT_EQ(family_name(s.family), "xmss");
      const xmss::Params* p = s.params.hbs.mt ? xmss::find_xmssmt(s.params.hbs.code) : xmss::find_xmss(s.params.hbs.code);
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(xmss::find_params(s.id), p);  // the id names the set (XMSS^MT: '-' for '/')
      EXPECT_EQ(s.public_key_size, p->public_key_bytes());
      EXPECT_EQ(s.output_size, p->signature_bytes());
      EXPECT_EQ(s.params.hbs.height, p->h);
      EXPECT_EQ(s.params.hbs.levels, p->d);
      EXPECT_EQ(s.max_signatures(), p->max_signatures());
      const bytes seed(p->n, 3);
      auto k = xmss::PrivateKey::from_seeds(*p, seed, seed, seed, bytes(p->n, 4));
      ASSERT_TRUE(k.ok());
      EXPECT_EQ(k->serialize().size(), s.private_key_size);
    }
  }
  EXPECT_EQ(lms_rows, 7);
  EXPECT_EQ(xmss_rows, 5);
}

TEST(StatefulSuites, StatelessSigningKeyRefusedNamingTheStatefulApi) {
  for (const auto& s : all_suites()) {
    if (!s.stateful) continue;
    SCOPED_TRACE(std::string(s.id));
    const bytes priv(s.private_key_size, 7);
    std::vector<Result<SigningKey>> tries;
    tries.push_back(SigningKey::generate(s));
    tries.push_back(SigningKey::from_private(s, priv));
    tries.push_back(SigningKey::from_expanded(s, priv));
    for (const auto& r : tries) {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().code, Errc::stateful_key);
      EXPECT_NE(r.error().message.find("StatefulSigner"), std::string::npos) << r.error().message;
      EXPECT_NE(r.error().message.find("pqsig hbs"), std::string::npos) << r.error().message;
    }
    EXPECT_EQ(errc_name(Errc::stateful_key), "stateful_key");
  }
}

TEST(StatefulSuites, ProviderSeamVerifiesOnly) {
  auto own = provider::find("pqsig");
  ASSERT_TRUE(own.ok());
  for (const auto& s : all_suites()) {
    if (!s.stateful) continue;
    EXPECT_EQ((*own)->interfaces(s), unsigned{provider::kPure}) << s.id;
    EXPECT_EQ((*own)->operations(s), 0u) << s.id << ": no keygen or sign through the stateless seam";
  }
}

TEST(StatefulSuites, LmsVerifiesThroughTheSuiteApi) {
  const SuiteInfo& s = HS("lms-sha256-m32-h10-w4");
  auto levels = lms::parse_levels("lms-sha256-m32-h10-w4");
  ASSERT_TRUE(levels.ok());
  auto key = lms::HssPrivateKey::generate(*levels);
  ASSERT_TRUE(key.ok());
  auto signer = lms::HssSigner::create(std::move(key.value()));
  ASSERT_TRUE(signer.ok());
  const bytes msg = HB("a crawler's signature base");
  auto sig = signer->sign_at(0, msg);  // one index of a throwaway key
  ASSERT_TRUE(sig.ok());
  auto vk = VerifyingKey::from_public(s, signer->public_key());
  ASSERT_TRUE(vk.ok()) << vk.error().what();
  EXPECT_TRUE(vk->verify(msg, *sig).ok());
  EXPECT_EQ(vk->verify(HB("another message"), *sig).error().code, Errc::verify_failed);
  bytes bad = *sig;
  bad[bad.size() / 2] ^= 1;
  EXPECT_EQ(vk->verify(msg, bad).error().code, Errc::verify_failed);
  EXPECT_EQ(vk->verify(msg, byte_span(*sig).first(sig->size() - 1)).error().code, Errc::invalid_length);
  SignOptions ctx;
  const bytes c = HB("ctx");
  ctx.ctx = c;
  EXPECT_EQ(vk->verify(msg, *sig, ctx).error().code, Errc::invalid_context);
  // The key of one set is refused by a suite of another (here W8), and a short key by length.
  auto other = VerifyingKey::from_public(HS("lms-sha256-m32-h10-w8"), signer->public_key());
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().code, Errc::invalid_encoding);
  EXPECT_EQ(VerifyingKey::from_public(s, byte_span(signer->public_key()).first(59)).error().code, Errc::invalid_length);
  // Through the provider seam as well.
  auto own = provider::find("pqsig");
  ASSERT_TRUE(own.ok());
  EXPECT_TRUE((*own)->verify(s, signer->public_key(), msg, *sig, {}).ok());
}

TEST(StatefulSuites, XmssVerifiesThroughTheSuiteApi) {
  const SuiteInfo& s = HS("xmss-sha2_10_256");
  const xmss::Params* p = xmss::find_params("XMSS-SHA2_10_256");
  ASSERT_NE(p, nullptr);
  auto key = xmss::PrivateKey::generate(*p);
  ASSERT_TRUE(key.ok());
  auto signer = xmss::Signer::create(std::move(key.value()));
  ASSERT_TRUE(signer.ok());
  const bytes msg = HB("a crawler's signature base");
  auto sig = signer->sign_at(0, msg);  // one index of a throwaway key
  ASSERT_TRUE(sig.ok());
  auto vk = VerifyingKey::from_public(s, signer->public_key());
  ASSERT_TRUE(vk.ok()) << vk.error().what();
  EXPECT_TRUE(vk->verify(msg, *sig).ok());
  bytes bad = *sig;
  bad[bad.size() - 1] ^= 1;
  EXPECT_EQ(vk->verify(msg, bad).error().code, Errc::verify_failed);
  // Another XMSS set's suite refuses the key (OID 1 is not XMSS-SHA2_16_256's 2). The XMSS and
  // XMSS^MT OID registries overlap (both start at 1): the key alone reads as an XMSS^MT 20/2 key
  // too, and its signature is then refused by length.
  EXPECT_EQ(VerifyingKey::from_public(HS("xmss-sha2_16_256"), signer->public_key()).error().code, Errc::invalid_encoding);
  auto mt = VerifyingKey::from_public(HS("xmssmt-sha2_20-2_256"), signer->public_key());
  ASSERT_TRUE(mt.ok());
  EXPECT_EQ(mt->verify(msg, *sig).error().code, Errc::invalid_length);
}

// A key whose parameter set the seam reads from the key (suite_for_public_key, the family-level
// alg hss-lms): the registry row of its set where there is one, else one row per set whose sizes
// and private-key length agree with the LMS tables as the registry rows do.
TEST(StatefulSuites, SuiteReadFromAnHssKey) {
  auto header = [](std::uint32_t L, std::uint32_t lms_type, std::uint32_t ots_type, std::size_t size) {
    bytes b(size, 0x5a);
    for (int i = 0; i < 4; ++i) {
      const int sh = 24 - 8 * i;
      b[static_cast<std::size_t>(i)] = static_cast<u8>(L >> sh);
      b[static_cast<std::size_t>(4 + i)] = static_cast<u8>(lms_type >> sh);
      b[static_cast<std::size_t>(8 + i)] = static_cast<u8>(ots_type >> sh);
    }
    return b;
  };
  for (const auto& s : all_suites()) {
    if (s.family != Family::lms) continue;
    SCOPED_TRACE(std::string(s.id));
    auto by_key = suite_for_public_key(
        Family::lms, header(s.params.hbs.levels, s.params.hbs.code, s.params.hbs.ots, s.public_key_size));
    ASSERT_TRUE(by_key.ok()) << by_key.error().what();
    EXPECT_EQ(*by_key, &s);
  }
  for (const char* spec : {"lms-sha256-m32-h5-w1", "hss-sha256-m24-h5-w2-h5-w2-h5-w2", "hss-shake-m32-h15-w4-h15-w4"}) {
    SCOPED_TRACE(spec);
    const auto levels = lms::parse_levels(spec).value();
    const auto& top = levels.front();
    auto s = suite_for_public_key(Family::lms, header(static_cast<std::uint32_t>(levels.size()), top.lms->type,
                                                      top.ots->type, lms::hss_public_key_bytes(levels)));
    ASSERT_TRUE(s.ok()) << s.error().what();
    EXPECT_EQ((*s)->id, spec);
    EXPECT_EQ(find_suite((*s)->id).error().code, Errc::unknown_suite);
    EXPECT_TRUE((*s)->stateful);
    EXPECT_EQ((*s)->cls, SuiteClass::signature);
    EXPECT_EQ((*s)->output_size, lms::hss_signature_bytes(levels));
    EXPECT_EQ((*s)->params.hbs.height, top.lms->h * levels.size());
    auto k = lms::HssPrivateKey::from_seed(levels, bytes(16, 1), bytes(top.ots->n, 2));
    ASSERT_TRUE(k.ok());
    EXPECT_EQ(k->serialize().size(), (*s)->private_key_size);
    EXPECT_EQ(k->max_signatures(), (*s)->max_signatures());
    // Verification only, like the registry rows: the stateless API refuses a signing key.
    EXPECT_EQ(SigningKey::generate(**s).error().code, Errc::stateful_key);
    EXPECT_EQ(provider::find("pqsig").value()->interfaces(**s), provider::kPure);
  }
}

// The same seam for XMSS / XMSS^MT (HTTP's family-level alg xmss): the registry row of a key's set
// where there is one, else one row per set whose sizes agree with pqsig/xmss.hpp. The OID is read
// in the registry the caller names (XMSS and XMSS^MT OIDs overlap).
TEST(StatefulSuites, SuiteReadFromAnXmssKey) {
  for (const auto& s : all_suites()) {
    if (s.family != Family::xmss) continue;
    SCOPED_TRACE(std::string(s.id));
    bytes pk(s.public_key_size, 0x5a);
    for (int i = 0; i < 4; ++i) pk[static_cast<std::size_t>(i)] = static_cast<u8>(s.params.hbs.code >> (24 - 8 * i));
    auto by_key = suite_for_public_key(Family::xmss, pk, s.params.hbs.mt);
    ASSERT_TRUE(by_key.ok()) << by_key.error().what();
    EXPECT_EQ(*by_key, &s);
  }
  std::size_t sets = 0;
  for (auto all : {xmss::all_xmss(), xmss::all_xmssmt()}) {
    for (const xmss::Params& p : all) {
      SCOPED_TRACE(std::string(p.name));
      ++sets;
      // A key with a given root: no tree computed.
      auto k = xmss::PrivateKey::from_seeds(p, bytes(p.n, 1), bytes(p.n, 2), bytes(p.n, 3), bytes(p.n, 4));
      ASSERT_TRUE(k.ok()) << k.error().what();
      const bytes pk = k->public_key();
      auto s = suite_for_public_key(Family::xmss, pk, p.mt);
      ASSERT_TRUE(s.ok()) << s.error().what();
      EXPECT_EQ((*s)->family, Family::xmss);
      EXPECT_TRUE((*s)->stateful);
      EXPECT_EQ((*s)->params.hbs.mt, p.mt);
      EXPECT_EQ((*s)->params.hbs.code, p.oid);
      EXPECT_EQ((*s)->params.hbs.levels, p.d);
      EXPECT_EQ((*s)->params.hbs.height, p.h);
      EXPECT_EQ((*s)->public_key_size, pk.size());
      EXPECT_EQ((*s)->output_size, p.signature_bytes());
      EXPECT_EQ((*s)->private_key_size, k->serialize().size());
      EXPECT_EQ((*s)->max_signatures(), p.max_signatures());
      // One row per set.
      EXPECT_EQ(suite_for_public_key(Family::xmss, pk, p.mt).value(), *s);
      EXPECT_EQ(SigningKey::generate(**s).error().code, Errc::stateful_key);
      EXPECT_EQ(provider::find("pqsig").value()->interfaces(**s), provider::kPure);
      // Its verifier refuses a key of another set of the same length.
      bytes other = pk;
      other[3] ^= 0x01;
      auto o = suite_for_public_key(Family::xmss, other, p.mt);
      if (o) {
        EXPECT_NE(*o, *s);
      }
    }
  }
  EXPECT_EQ(sets, 77u);
}
