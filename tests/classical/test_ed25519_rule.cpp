// One Ed25519 acceptance rule for every path (issue 10 item 7): the 12 edge-case vectors of
// "Taming the many EdDSAs" (Chalkias, Garillot, Nikolaenko, SSR 2020; data copied from
// github.com/novifinancial/ed25519-speccheck cases.txt into data/ed25519_speccheck.json) are run
// through the libsodium engine, the OpenSSL engine and the suite API (which the composites and
// httpsig use); all must give the same verdict, the one of the pinned rule (ed25519_rule.hpp):
// only case 3 (canonical, non-small-order A and R, S < L, valid cofactorless) is accepted.
// Before the pre-check, OpenSSL 3.0 accepted cases 0, 1, 2 and 11, libsodium only case 3.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <sodium.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "classical/ed25519_rule.hpp"
#include "pqsig/classical_suites.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;

namespace {
nlohmann::json cases() {
  std::ifstream f(std::string(PQSIG_SOURCE_DIR) + "/tests/classical/data/ed25519_speccheck.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return nlohmann::json::parse(ss.str());
}
bytes H(const nlohmann::json& v) { return from_hex(v.get<std::string>()).value(); }

bool verify_with(classical::Ed25519Engine e, const bytes& pk, const bytes& msg, const bytes& sig) {
  auto v = classical::ed25519_verifying_key(pk, e);
  return v.ok() && v->verify(msg, sig).ok();
}

// The engines without the pre-check (what pqsig did before), for the record in the test log.
bool raw_sodium(const bytes& pk, const bytes& msg, const bytes& sig) {
  return crypto_sign_verify_detached(sig.data(), msg.data(), msg.size(), pk.data()) == 0;
}
bool raw_openssl(const bytes& pk, const bytes& msg, const bytes& sig) {
  EVP_PKEY* k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, pk.data(), pk.size());
  if (!k) return false;
  EVP_MD_CTX* c = EVP_MD_CTX_new();
  bool ok = c && EVP_DigestVerifyInit(c, nullptr, nullptr, nullptr, k) == 1 &&
            EVP_DigestVerify(c, sig.data(), sig.size(), msg.data(), msg.size()) == 1;
  EVP_MD_CTX_free(c);
  EVP_PKEY_free(k);
  return ok;
}
}  // namespace

TEST(Ed25519Rule, SpeccheckVectorsGiveOneVerdictOnEveryPath) {
  auto j = cases();
  const auto& cs = j.at("cases");
  ASSERT_EQ(cs.size(), 12u);
  const std::string expected = "XXXVXXXXXXXX";  // the pinned rule = libsodium's published column
  ASSERT_EQ(j.at("published_results").at("LibSodium").get<std::string>(), expected);
  ASSERT_GE(sodium_init(), 0);
  const auto& suite = *find_suite("ed25519").value();
  std::string sodium_v, openssl_v, suite_v, raw_s, raw_o;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    bytes msg = H(cs[i]["message"]), pk = H(cs[i]["pub_key"]), sig = H(cs[i]["signature"]);
    sodium_v += verify_with(classical::Ed25519Engine::libsodium, pk, msg, sig) ? 'V' : 'X';
    openssl_v += verify_with(classical::Ed25519Engine::openssl, pk, msg, sig) ? 'V' : 'X';
    auto vk = VerifyingKey::from_public(suite, pk);
    suite_v += vk.ok() && vk->verify(msg, sig).ok() ? 'V' : 'X';
    raw_s += raw_sodium(pk, msg, sig) ? 'V' : 'X';
    raw_o += raw_openssl(pk, msg, sig) ? 'V' : 'X';
  }
  std::printf("engines without the pre-check: libsodium %s, OpenSSL %s (published OpenSSL-3.0: %s)\n", raw_s.c_str(),
              raw_o.c_str(), j["published_results"]["OpenSSL-3.0"].get<std::string>().c_str());
  EXPECT_EQ(sodium_v, expected);
  EXPECT_EQ(openssl_v, expected);
  EXPECT_EQ(suite_v, expected);
}

TEST(Ed25519Rule, PointAndScalarChecks) {
  using classical::internal::ed25519_point_acceptable;
  using classical::internal::ed25519_precheck;
  auto pt = [](std::string_view hex) { return from_hex(hex).value(); };
  // Small-order points (identity, order 2, 4, 8), with and without the sign bit.
  for (auto h : {"0100000000000000000000000000000000000000000000000000000000000000",
                 "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                 "0000000000000000000000000000000000000000000000000000000000000000",
                 "0000000000000000000000000000000000000000000000000000000000000080",
                 "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
                 "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
                 "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
                 "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
                 "0100000000000000000000000000000000000000000000000000000000000080"})
    EXPECT_FALSE(ed25519_point_acceptable(pt(h).data())) << h;
  // Non-canonical y >= p (p, p + 1, 2^255 - 1).
  for (auto h : {"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                 "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                 "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"})
    EXPECT_FALSE(ed25519_point_acceptable(pt(h).data())) << h;
  // The RFC 8032 TEST 1 public key and the base point are fine.
  EXPECT_TRUE(ed25519_point_acceptable(pt("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a").data()));
  EXPECT_TRUE(ed25519_point_acceptable(pt("5866666666666666666666666666666666666666666666666666666666666666").data()));
  // S must be < L: L itself and L + 1 are refused, L - 1 passes the pre-check.
  bytes pk = pt("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  bytes sig = pt("5866666666666666666666666666666666666666666666666666666666666666"
                 "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");
  EXPECT_FALSE(ed25519_precheck(pk, sig));
  sig[32] = 0xee;
  EXPECT_FALSE(ed25519_precheck(pk, sig));
  sig[32] = 0xec;
  EXPECT_TRUE(ed25519_precheck(pk, sig));
}
