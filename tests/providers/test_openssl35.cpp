// The "openssl" provider against a libcrypto that has ML-DSA and SLH-DSA (OpenSSL >= 3.5).
// On Debian 12 ctest runs this binary through Debian 13's loader and OpenSSL 3.5
// (scripts/openssl35.sh; tests/providers/openssl35-run.sh, test providers_openssl35): the binary
// is the one built here against OpenSSL 3.0's headers, libcrypto.so.3 resolves to 3.5.
// Without OpenSSL 3.5 every test skips, naming the reason — unless PQSIG_REQUIRE_OPENSSL35=1 (CI),
// where that is a failure.
//
// Every ML-DSA and SLH-DSA ACVP sigVer vector: the same verdict through pqsig, openssl and (when
// built in) liboqs, and through dual enforce and shadow for each pair of them; where a provider
// lacks the interface (OpenSSL: HashML-DSA / HashSLH-DSA) a typed Errc::unsupported and a refused
// dual verdict, never a rejection.
#include <gtest/gtest.h>

#include <openssl/crypto.h>

#include <cstdlib>
#include <random>

#include "acvp_sigver.hpp"
#include "pqsig/ledger.hpp"
#include "pqsig/provider.hpp"
#include "support/openssl35.hpp"

using namespace pqsig;
namespace pp = pqsig::provider;
namespace pl = pqsig::ledger;

namespace {

// The openssl provider, or a skip (a failure under PQSIG_REQUIRE_OPENSSL35) naming the reason.
#define REQUIRE_OPENSSL35(p)                                     \
  do {                                                           \
    const auto info_ = (p)->info();                              \
    if (!info_.available) PQSIG_OPENSSL35_SKIP_OR_FAIL(info_.reason); \
  } while (0)

std::shared_ptr<const pp::Provider> liboqs_if_available() {
  auto p = pp::find("liboqs").value();
  if (!p->info().available) return nullptr;
  return p;
}

}  // namespace

TEST(OpenSsl35, IsAvailableWithEverySuiteAndItsInterfaces) {
  auto p = pp::find("openssl").value();
  REQUIRE_OPENSSL35(p);
  const auto info = p->info();
  EXPECT_NE(info.version.find("OpenSSL 3."), std::string::npos) << info.version;
  std::printf("libcrypto: %s\n", OpenSSL_version(OPENSSL_VERSION));
  int ml = 0, slh = 0;
  for (const auto& s : all_suites()) {
    const unsigned have = p->interfaces(s);
    if (s.family == "ml-dsa") {
      EXPECT_EQ(have, pp::kPure | pp::kContext | pp::kInternal | pp::kExternalMu) << s.id;
      ++ml;
    } else if (s.family == "slh-dsa") {
      EXPECT_EQ(have, pp::kPure | pp::kContext | pp::kInternal) << s.id << ": OpenSSL has no HashSLH-DSA";
      ++slh;
    } else {
      EXPECT_EQ(have, 0u) << s.id << ": only ML-DSA and SLH-DSA go through the openssl provider";
    }
  }
  EXPECT_EQ(ml, 3);
  EXPECT_EQ(slh, 12);
}

// The regression of issue 21: under OpenSSL 3.5.9 every ML-DSA verification failed with
// "libcrypto refused the verification parameters" (an empty context string was passed as an
// OSSL_PARAM with a null data pointer, which libcrypto refuses).
TEST(OpenSsl35, EmptyContextPureSignatureVerifies) {
  auto p = pp::find("openssl").value();
  REQUIRE_OPENSSL35(p);
  for (const char* id : {"ml-dsa-44", "slh-dsa-sha2-128f"}) {
    const SuiteInfo& s = *find_suite(id).value();
    auto sk = SigningKey::generate(s).value();
    const bytes msg = {'b', 'l', 'o', 'c', 'k'};
    const bytes sig = sk.sign(msg).value();
    const Status st = p->verify(s, sk.public_key(), msg, sig);
    EXPECT_TRUE(st.ok()) << id << ": " << (st.ok() ? "" : st.error().what());
    EXPECT_TRUE(p->verify(s, sk.public_key(), bytes{}, sk.sign(bytes{}).value()).ok()) << id << " empty message";
  }
}

TEST(OpenSsl35, EveryAcvpSigVerVectorSameVerdictThroughEveryProviderAndDualPair) {
  auto ours = pp::find("pqsig").value();
  auto ossl = pp::find("openssl").value();
  REQUIRE_OPENSSL35(ossl);
  auto oqs = liboqs_if_available();
  std::vector<std::shared_ptr<const pp::Provider>> providers = {ours, ossl};
  if (oqs) providers.push_back(oqs);
  else std::printf("liboqs not built in: the pqsig/openssl pairs only\n");
  struct Pair {
    std::unique_ptr<pl::DualVerifier> enforce, shadow;
  };
  std::vector<Pair> pairs;
  for (const auto& a : providers)
    for (const auto& b : providers) {
      if (a == b) continue;
      pairs.push_back({std::make_unique<pl::DualVerifier>(a, b, pl::Mode::enforce, std::make_shared<pl::KeyCache>(16)),
                       std::make_unique<pl::DualVerifier>(a, b, pl::Mode::shadow)});
    }
  int total = 0, openssl_same = 0, openssl_unsupported = 0, dual_checked = 0, dual_refused = 0;
  for (const char* file : {"ml-dsa-sigVer.json", "slh-dsa-sigVer.json"}) {
    for (const auto& c : load_sigver(file)) {
      ++total;
      const auto opt = c.options();
      for (const auto& p : providers) {
        const Status st = p->verify(*c.suite, c.pk, c.msg, c.sig, opt);
        if (!p->supports(*c.suite, opt).ok()) {
          ASSERT_FALSE(st.ok()) << p->name() << " " << c.label;
          EXPECT_EQ(st.error().code, Errc::unsupported) << p->name() << " " << c.label << ": " << st.error().what();
          if (p == ossl) ++openssl_unsupported;
          continue;
        }
        EXPECT_EQ(st.ok(), c.expected) << p->name() << " " << c.label << (st.ok() ? "" : ": " + st.error().what());
        if (!st.ok() && !c.expected) {
          EXPECT_NE(st.error().code, Errc::crypto_backend) << p->name() << " " << c.label << ": " << st.error().what();
        }
        if (p == ossl && st.ok() == c.expected) ++openssl_same;
      }
      const pl::Item item{c.suite, c.pk, c.msg, c.sig, opt};
      for (auto& pr : pairs) {
        const bool both = pr.enforce->first().supports(*c.suite, opt).ok() && pr.enforce->second().supports(*c.suite, opt).ok();
        const std::string how = std::string(pr.enforce->first().name()) + "+" + std::string(pr.enforce->second().name()) +
                                " " + c.label;
        for (auto* d : {pr.enforce.get(), pr.shadow.get()}) {
          const pl::Verdict v = d->verify(item);
          if (!both) {
            EXPECT_TRUE(v.refused) << how;
            EXPECT_FALSE(v.accepted) << how;
            ++dual_refused;
            continue;
          }
          EXPECT_FALSE(v.refused) << how << ": " << v.reason;
          EXPECT_EQ(v.accepted, c.expected) << how << ": " << v.reason;
          EXPECT_FALSE(v.disagreement) << how << ": " << v.reason;
          ++dual_checked;
        }
      }
    }
  }
  std::printf("sigVer vectors: %d; openssl: %d same verdict, %d unsupported (HashML-DSA); dual pairs: %d checked, "
              "%d refused\n",
              total, openssl_same, openssl_unsupported, dual_checked, dual_refused);
  EXPECT_EQ(total, 216);
  EXPECT_EQ(openssl_same, 135 + 36) << "ML-DSA pure, context, internal and external mu; every SLH-DSA set";
  EXPECT_EQ(openssl_unsupported, 45) << "only the HashML-DSA group";
  for (auto& pr : pairs) {
    EXPECT_EQ(pr.enforce->stats().disagreements, 0u);
    EXPECT_EQ(pr.shadow->stats().disagreements, 0u);
  }
}

// Signatures pqsig makes (random messages and contexts, every ML-DSA set and every fast SLH-DSA
// set) verify through OpenSSL; one flipped bit, another context, another message are rejected
// (Errc::verify_failed, not a backend error); wrong lengths are typed errors.
TEST(OpenSsl35, PqsigSignaturesVerifyAndTamperingIsRejected) {
  auto ossl = pp::find("openssl").value();
  REQUIRE_OPENSSL35(ossl);
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  pl::DualVerifier shadow(pp::find("pqsig").value(), ossl, pl::Mode::shadow);
  for (const auto& s : all_suites()) {
    if (s.family != "ml-dsa" && !(s.family == "slh-dsa" && s.id.back() == 'f')) continue;
    auto sk = SigningKey::generate(s).value();
    const int n = s.family == "ml-dsa" ? 6 : 2;
    for (int i = 0; i < n; ++i) {
      bytes msg(rng() % 300), ctx(i % 2 ? 1 + rng() % 255 : 0);
      for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
      for (auto& b : ctx) b = static_cast<std::uint8_t>(rng());
      SignOptions so;
      so.ctx = ctx;
      const bytes sig = sk.sign(msg, so).value();
      pp::VerifyOptions vo;
      vo.ctx = ctx;
      const std::string how = std::string(s.id) + " i " + std::to_string(i);
      const Status ok = ossl->verify(s, sk.public_key(), msg, sig, vo);
      EXPECT_TRUE(ok.ok()) << how << ": " << (ok.ok() ? "" : ok.error().what());
      bytes bad = sig;
      bad[rng() % bad.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      const Status b = ossl->verify(s, sk.public_key(), msg, bad, vo);
      ASSERT_FALSE(b.ok()) << how;
      EXPECT_EQ(b.error().code, Errc::verify_failed) << how << ": " << b.error().what();
      pp::VerifyOptions other = vo;
      const bytes ctx2 = {0x42};
      other.ctx = ctx2;
      EXPECT_EQ(ossl->verify(s, sk.public_key(), msg, sig, other).error().code, Errc::verify_failed) << how;
      bytes msg2 = msg;
      msg2.push_back(0);
      EXPECT_EQ(ossl->verify(s, sk.public_key(), msg2, sig, vo).error().code, Errc::verify_failed) << how;
      EXPECT_EQ(ossl->verify(s, sk.public_key(), msg, byte_span(sig).first(sig.size() - 1), vo).error().code,
                Errc::invalid_length)
          << how;
      EXPECT_EQ(ossl->verify(s, byte_span(sk.public_key()).first(s.public_key_size - 1), msg, sig, vo).error().code,
                Errc::invalid_length)
          << how;
      EXPECT_TRUE(shadow.verify(pl::Item{&s, sk.public_key(), msg, sig, vo}).accepted) << how;
      EXPECT_FALSE(shadow.verify(pl::Item{&s, sk.public_key(), msg, bad, vo}).accepted) << how;
    }
  }
  EXPECT_EQ(shadow.stats().disagreements, 0u);
}

// What OpenSSL lacks is a typed "unsupported" (never a rejection): HashML-DSA, HashSLH-DSA,
// external mu for SLH-DSA, every suite that is not ML-DSA / SLH-DSA.
TEST(OpenSsl35, MissingInterfacesAreUnsupportedNeverRejected) {
  auto ossl = pp::find("openssl").value();
  REQUIRE_OPENSSL35(ossl);
  const bytes msg = {1, 2, 3};
  for (const char* id : {"ml-dsa-65", "slh-dsa-shake-128f"}) {
    const SuiteInfo& s = *find_suite(id).value();
    auto sk = SigningKey::generate(s).value();
    SignOptions so;
    so.prehash = hash::PreHash::sha2_512;
    const bytes sig = sk.sign(msg, so).value();
    pp::VerifyOptions vo;
    vo.prehash = hash::PreHash::sha2_512;
    const Status st = ossl->verify(s, sk.public_key(), msg, sig, vo);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, Errc::unsupported) << id << ": " << st.error().what();
    EXPECT_NE(st.error().message.find("prehash"), std::string::npos) << st.error().message;
    pl::DualVerifier dual(pp::find("pqsig").value(), ossl, pl::Mode::enforce);
    const pl::Verdict v = dual.verify(pl::Item{&s, sk.public_key(), msg, sig, vo});
    EXPECT_TRUE(v.refused) << id;
    EXPECT_FALSE(v.accepted) << id;
  }
  pp::VerifyOptions mu;
  mu.input = pp::VerifyOptions::Input::mu;
  const SuiteInfo& slh = *find_suite("slh-dsa-sha2-128f").value();
  EXPECT_EQ(ossl->verify(slh, bytes(slh.public_key_size), bytes(64), bytes(slh.output_size), mu).error().code,
            Errc::unsupported);
  for (const char* id : {"ed25519", "ml-kem-768", "ml-dsa-65+ed25519"}) {
    const SuiteInfo& s = *find_suite(id).value();
    const Status st = ossl->verify(s, bytes(s.public_key_size), msg, bytes(s.output_size));
    ASSERT_FALSE(st.ok()) << id;
    EXPECT_EQ(st.error().code, Errc::unsupported) << id << ": " << st.error().what();
  }
}

// Signing through libcrypto (the `openssl` engine of `pqsig price --engine`): keys made by
// OpenSSL are in the FIPS encodings pqsig reads; OpenSSL's signatures, pure and with a context,
// verify with pqsig and fail under another message or context; pqsig's expanded keys sign in
// OpenSSL too. Malformed keys are typed errors.
TEST(OpenSsl35, KeygenAndSignAreCrossCheckedWithPqsig) {
  auto ossl = pp::find("openssl").value();
  auto ours = pp::find("pqsig").value();
  REQUIRE_OPENSSL35(ossl);
  const bytes msg = {'s', 'i', 'g', 'n', ' ', 'm', 'e'}, ctx = {'c', 't', 'x'};
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "slh-dsa-sha2-128f", "slh-dsa-shake-128f"}) {
    const SuiteInfo& s = *find_suite(id).value();
    EXPECT_EQ(ossl->operations(s), pp::kKeygen | pp::kSign) << id;
    auto kp = ossl->keygen(s);
    ASSERT_TRUE(kp.ok()) << id << ": " << kp.error().what();
    ASSERT_EQ(kp->public_key.size(), s.public_key_size) << id;
    ASSERT_EQ(kp->secret_key.size(), s.expanded_key_size) << id;
    for (const bytes& c : {bytes{}, ctx}) {
      auto sig = ossl->sign(s, kp->secret_key.span(), msg, c);
      ASSERT_TRUE(sig.ok()) << id << ": " << sig.error().what();
      ASSERT_EQ(sig->size(), s.output_size) << id;
      pp::VerifyOptions vo;
      vo.ctx = c;
      EXPECT_TRUE(ours->verify(s, kp->public_key, msg, *sig, vo).ok()) << id << " ctx " << c.size();
      EXPECT_TRUE(ossl->verify(s, kp->public_key, msg, *sig, vo).ok()) << id << " ctx " << c.size();
      bytes other = msg;
      other[0] ^= 1;
      EXPECT_EQ(ours->verify(s, kp->public_key, other, *sig, vo).error().code, Errc::verify_failed) << id;
      pp::VerifyOptions wrong;
      wrong.ctx = c.empty() ? ctx : bytes{};
      EXPECT_EQ(ours->verify(s, kp->public_key, msg, *sig, wrong).error().code, Errc::verify_failed) << id;
    }
    // pqsig's key pair (expanded secret key) signs in OpenSSL; pqsig verifies.
    auto mine = ours->keygen(s).value();
    auto sig = ossl->sign(s, mine.secret_key.span(), msg, ctx);
    ASSERT_TRUE(sig.ok()) << id << ": " << sig.error().what();
    pp::VerifyOptions vo;
    vo.ctx = ctx;
    EXPECT_TRUE(ours->verify(s, mine.public_key, msg, *sig, vo).ok()) << id;
    // Malformed secret keys: wrong length, over-long context.
    EXPECT_EQ(ossl->sign(s, bytes(s.expanded_key_size - 1), msg, {}).error().code, Errc::invalid_length) << id;
    EXPECT_EQ(ossl->sign(s, kp->secret_key.span(), msg, bytes(256)).error().code, Errc::invalid_context) << id;
  }
  // ML-DSA: a secret key whose tr does not match its own public key is refused by libcrypto's import.
  const SuiteInfo& m = *find_suite("ml-dsa-44").value();
  auto kp = ossl->keygen(m).value();
  SecretBytes bad = kp.secret_key.clone();
  bad.mut_span()[64 + 5] ^= 0x01;  // inside tr (rho 32 || K 32 || tr 64 || ...)
  auto r = ossl->sign(m, bad.span(), msg, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::invalid_encoding) << r.error().what();
  // No signing where the provider has no suite.
  for (const char* id : {"ed25519", "ml-kem-768"}) {
    const SuiteInfo& s = *find_suite(id).value();
    EXPECT_EQ(ossl->operations(s), 0u) << id;
    EXPECT_EQ(ossl->sign(s, bytes(s.expanded_key_size), msg, {}).error().code, Errc::unsupported) << id;
    EXPECT_EQ(ossl->keygen(s).error().code, Errc::unsupported) << id;
  }
}
