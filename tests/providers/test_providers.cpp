// The provider table: the built-in pqsig provider (today's backends) verifies every ACVP sigVer
// vector through the Provider interface; names and availability; typed "unsupported" errors;
// the openssl provider (verification tests need OpenSSL >= 3.5).
#include <gtest/gtest.h>

#include <openssl/crypto.h>

#include "acvp_sigver.hpp"
#include "pqsig/ledger.hpp"
#include "pqsig/provider.hpp"

using namespace pqsig;
namespace pp = pqsig::provider;

TEST(Providers, NamesAndAvailability) {
  EXPECT_EQ(pp::names(), (std::vector<std::string>{"pqsig", "liboqs", "openssl"}));
  for (const auto& p : pp::all()) {
    const auto info = p->info();
    EXPECT_EQ(info.name, p->name());
    if (info.available) {
      EXPECT_FALSE(info.version.empty());
    } else {
      EXPECT_FALSE(info.reason.empty()) << "an unavailable provider says why";
      for (const auto& s : all_suites()) EXPECT_EQ(p->interfaces(s), 0u) << p->name() << " " << s.id;
    }
  }
  auto bad = pp::find("nosuch");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::invalid_argument);
}

TEST(Providers, PqsigProviderVerifiesEveryAcvpSigVerVector) {
  auto p = pp::find("pqsig").value();
  int n = 0;
  for (const char* file : {"ml-dsa-sigVer.json", "slh-dsa-sigVer.json"}) {
    for (const auto& c : load_sigver(file)) {
      const Status st = p->verify(*c.suite, c.pk, c.msg, c.sig, c.options());
      EXPECT_EQ(st.ok(), c.expected) << c.label << (st.ok() ? "" : ": " + st.error().what());
      ++n;
    }
  }
  EXPECT_EQ(n, 180 + 36);
}

TEST(Providers, SuiteApiAndProviderAreTheSameTable) {
  const SuiteInfo& s = *find_suite("ml-dsa-65").value();
  auto sk = SigningKey::generate(s).value();
  const bytes msg = {1, 2, 3};
  const bytes sig = sk.sign(msg).value();
  auto p = pp::find("pqsig").value();
  EXPECT_TRUE(p->verify(s, sk.public_key(), msg, sig).ok());
  bytes bad = sig;
  bad[7] ^= 0x40;
  const Status st = p->verify(s, sk.public_key(), msg, bad);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Errc::verify_failed);
  // KEM suites are not verifiable by anyone: unsupported, never a silent pass.
  const SuiteInfo& kem = *find_suite("ml-kem-768").value();
  for (const auto& q : pp::all()) {
    const Status k = q->verify(kem, bytes(kem.public_key_size), msg, sig);
    ASSERT_FALSE(k.ok());
    EXPECT_EQ(k.error().code, Errc::unsupported) << q->name();
  }
}

TEST(Providers, ClassicalSuitesHaveNoContextOrPreHashInterface) {
  const SuiteInfo& s = *find_suite("ed25519").value();
  auto sk = SigningKey::generate(s).value();
  const bytes msg = {4, 5};
  const bytes sig = sk.sign(msg).value();
  auto p = pp::find("pqsig").value();
  EXPECT_TRUE(p->verify(s, sk.public_key(), msg, sig).ok());
  const bytes ctx = {1};
  pp::VerifyOptions o;
  o.ctx = ctx;
  const Status st = p->verify(s, sk.public_key(), msg, sig, o);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Errc::unsupported);
  EXPECT_NE(st.error().message.find("context"), std::string::npos) << st.error().message;
}

TEST(Providers, OpenSslIsReportedWithItsVersionAndVerifiesWhereAvailable) {
  auto p = pp::find("openssl").value();
  const auto info = p->info();
  EXPECT_NE(info.version.find("OpenSSL"), std::string::npos) << info.version;
  if (!info.available) {
    EXPECT_NE(info.reason.find("OpenSSL < 3.5"), std::string::npos) << info.reason;
    // No keygen / sign either: typed "unsupported", never an attempt.
    const SuiteInfo& m = *find_suite("ml-dsa-44").value();
    EXPECT_EQ(p->operations(m), 0u);
    EXPECT_EQ(p->keygen(m).error().code, Errc::unsupported);
    EXPECT_EQ(p->sign(m, bytes(m.expanded_key_size), bytes{1}, {}).error().code, Errc::unsupported);
    GTEST_SKIP() << "OpenSSL < 3.5: the loaded libcrypto (" << OpenSSL_version(OPENSSL_VERSION)
                 << ") has no ML-DSA / SLH-DSA";
  }
  int compared = 0;
  for (const char* file : {"ml-dsa-sigVer.json", "slh-dsa-sigVer.json"}) {
    for (const auto& c : load_sigver(file)) {
      const auto opt = c.options();
      if (!p->supports(*c.suite, opt).ok()) {
        EXPECT_EQ(p->verify(*c.suite, c.pk, c.msg, c.sig, opt).error().code, Errc::unsupported) << c.label;
        continue;
      }
      EXPECT_EQ(p->verify(*c.suite, c.pk, c.msg, c.sig, opt).ok(), c.expected) << c.label;
      ++compared;
    }
  }
  EXPECT_GT(compared, 0);
}

TEST(Providers, PqsigOperationsKeygenSignEncapsDecaps) {
  auto p = pp::find("pqsig").value();
  EXPECT_EQ(pp::operation_names(pp::kKeygen | pp::kSign | pp::kEncaps | pp::kDecaps), "keygen,sign,encaps,decaps");
  const SuiteInfo& kem = *find_suite("ml-kem-768").value();
  EXPECT_EQ(p->operations(kem), pp::kKeygen | pp::kEncaps | pp::kDecaps);
  auto kp = p->keygen(kem);
  ASSERT_TRUE(kp.ok()) << kp.error().what();
  ASSERT_EQ(kp->secret_key.size(), kem.expanded_key_size);
  auto e = p->encaps(kem, kp->public_key);
  ASSERT_TRUE(e.ok()) << e.error().what();
  auto k = p->decaps(kem, kp->secret_key.span(), e->ciphertext);
  ASSERT_TRUE(k.ok()) << k.error().what();
  EXPECT_EQ(to_hex(k->span()), to_hex(e->shared_secret.span()));
  EXPECT_EQ(p->decaps(kem, bytes(64), e->ciphertext).error().code, Errc::invalid_length) << "the seed is not the dk";
  const SuiteInfo& sig = *find_suite("ml-dsa-44").value();
  EXPECT_EQ(p->operations(sig), pp::kKeygen | pp::kSign);
  auto skp = p->keygen(sig);
  ASSERT_TRUE(skp.ok());
  const bytes msg = {1};
  auto s = p->sign(sig, skp->secret_key.span(), msg, {});
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(p->verify(sig, skp->public_key, msg, *s).ok());
  EXPECT_EQ(p->keygen(*find_suite("x-wing").value()).error().code, Errc::unsupported);
  EXPECT_EQ(p->operations(*find_suite("ed25519").value()), 0u);
}
