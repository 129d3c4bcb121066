// Cross-check against @noble/post-quantum 0.7.1 (ml-kem.js, hybrid.js) plus @noble/curves X25519
// and @noble/hashes HKDF for the two composed hybrids: for every KEM suite, keys from the same
// seed are byte-identical, deterministic encapsulations are byte-identical, noble decapsulates
// pqsig's randomized ciphertext and pqsig decapsulates noble's. Script: tests/interop/mlkem_crosscheck.mjs.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "pqsig/suite.hpp"

using namespace pqsig;
using json = nlohmann::json;

namespace {
const std::string kInterop = std::string(PQSIG_SOURCE_DIR) + "/tests/interop";

// The oracles are installed by the install step (scripts/interop-deps.sh, run by `make test`),
// pinned by tests/interop/package-lock.json; the test never installs anything itself.
bool deps_installed() {
  return std::filesystem::exists(kInterop + "/node_modules/@noble/post-quantum/package.json");
}

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (::pclose(p) != 0) out.clear();
  return out;
}

bytes seq(std::size_t n, std::uint8_t start) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(start * 7 + i * 13);
  return b;
}
}  // namespace

TEST(KemInterop, NobleCrossCheckAllKems) {
  ASSERT_TRUE(deps_installed()) << "npm oracles missing: run scripts/interop-deps.sh (make interop-deps)";
  json in = json::array();
  struct Keys {
    const SuiteInfo* s;
    KemPrivateKey sk;
  };
  std::vector<Keys> keys;
  std::uint8_t salt = 1;
  for (const auto& s : all_suites()) {
    if (s.cls != SuiteClass::kem) continue;
    for (int rep = 0; rep < 3; ++rep, ++salt) {
      const bytes seed = seq(s.private_key_size, salt);
      auto sk = KemPrivateKey::from_private(s, seed);
      ASSERT_TRUE(sk.ok()) << s.id;
      auto pk = KemPublicKey::from_public(s, sk->public_key());
      ASSERT_TRUE(pk.ok());
      const bytes eseed = seq(s.family == "ml-kem" ? 32 : 64, static_cast<std::uint8_t>(salt + 100));
      auto d = pk->encaps_derand(eseed);
      auto r = pk->encaps();
      ASSERT_TRUE(d.ok() && r.ok()) << s.id;
      in.push_back({{"alg", s.id},
                    {"seed", to_hex(seed)},
                    {"eseed", to_hex(eseed)},
                    {"pk", to_hex(sk->public_key())},
                    {"c_derand", to_hex(d->ciphertext)},
                    {"k_derand", to_hex(d->shared_secret.span())},
                    {"c_rand", to_hex(r->ciphertext)},
                    {"k_rand", to_hex(r->shared_secret.span())}});
      keys.push_back({&s, std::move(sk.value())});
    }
  }
  const auto path = std::filesystem::temp_directory_path() / ("pqsig_kem_interop_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream f(path);
    f << in.dump();
  }
  const std::string out = run("cd '" + kInterop + "' && node mlkem_crosscheck.mjs '" + path.string() + "'");
  std::filesystem::remove(path);
  ASSERT_FALSE(out.empty()) << "node script failed";
  const json res = json::parse(out);
  ASSERT_EQ(res.size(), keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto& t = res[i];
    SCOPED_TRACE(t.at("alg").get<std::string>());
    ASSERT_FALSE(t.contains("error"));
    EXPECT_TRUE(t.at("pk_ok").get<bool>()) << "public key from the same seed differs";
    EXPECT_TRUE(t.at("derand_ok").get<bool>()) << "deterministic encapsulation differs";
    EXPECT_TRUE(t.at("decaps_ok").get<bool>()) << "noble could not decapsulate pqsig's ciphertext";
    auto c = from_hex(t.at("c_noble").get<std::string>());
    auto k = from_hex(t.at("k_noble").get<std::string>());
    ASSERT_TRUE(c.ok() && k.ok());
    auto mine = keys[i].sk.decaps(*c);
    ASSERT_TRUE(mine.ok());
    EXPECT_EQ(to_hex(mine->span()), to_hex(*k)) << "pqsig could not decapsulate noble's ciphertext";
  }
}

// The settlement KEM golden vector of docs/settlement-kem.md, recomputed by the independent
// JavaScript composition (noble ML-KEM-768 + noble X25519 + noble HKDF).
TEST(KemInterop, SettlementGoldenVectorIndependent) {
  ASSERT_TRUE(deps_installed()) << "npm oracles missing: run scripts/interop-deps.sh (make interop-deps)";
  bytes seed(96), eseed(64);
  for (std::size_t i = 0; i < 96; ++i) seed[i] = static_cast<std::uint8_t>(i);
  for (std::size_t i = 0; i < 64; ++i) eseed[i] = static_cast<std::uint8_t>(0x60 + i);
  auto s = find_suite("ml-kem-768+x25519-hkdf");
  ASSERT_TRUE(s.ok());
  auto sk = KemPrivateKey::from_private(**s, seed);
  ASSERT_TRUE(sk.ok());
  auto pk = KemPublicKey::from_public(**s, sk->public_key());
  ASSERT_TRUE(pk.ok());
  auto d = pk->encaps_derand(eseed);
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(to_hex(d->shared_secret.span()), "27c2d11d89e879b977774c62fd9d9683a8abd95ac4d7f0142d882fbb1cd69089");
  json in = json::array({{{"alg", "ml-kem-768+x25519-hkdf"},
                          {"seed", to_hex(seed)},
                          {"eseed", to_hex(eseed)},
                          {"pk", to_hex(sk->public_key())},
                          {"c_derand", to_hex(d->ciphertext)},
                          {"k_derand", to_hex(d->shared_secret.span())},
                          {"c_rand", to_hex(d->ciphertext)},
                          {"k_rand", to_hex(d->shared_secret.span())}}});
  const auto path = std::filesystem::temp_directory_path() / ("pqsig_kem_golden_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream f(path);
    f << in.dump();
  }
  const std::string out = run("cd '" + kInterop + "' && node mlkem_crosscheck.mjs '" + path.string() + "'");
  std::filesystem::remove(path);
  ASSERT_FALSE(out.empty());
  const json res = json::parse(out);
  EXPECT_TRUE(res[0].at("pk_ok").get<bool>());
  EXPECT_TRUE(res[0].at("derand_ok").get<bool>());
  EXPECT_TRUE(res[0].at("decaps_ok").get<bool>());
}
