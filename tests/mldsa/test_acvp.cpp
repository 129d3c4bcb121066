// ML-DSA: every NIST ACVP vector in ../shared/vectors/acvp/ (keyGen, sigGen, sigGen-tr1, sigVer).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "pqsig/mldsa.hpp"

using namespace pqsig;
using json = nlohmann::json;

namespace {
json load(const char* name) {
  std::ifstream f(std::string(PQSIG_SHARED_DIR) + "/vectors/acvp/" + name);
  EXPECT_TRUE(f.good()) << name;
  return json::parse(f);
}
bytes hx(const json& v) {
  auto r = from_hex(v.get<std::string>());
  EXPECT_TRUE(r.ok());
  return r.ok() ? r.value() : bytes{};
}
mldsa::Level lvl(const json& g) { return *mldsa::level_from_name(g["parameterSet"].get<std::string>()); }
std::optional<hash::PreHash> prehash_of(const json& t) {
  if (!t.contains("hashAlg")) return std::nullopt;
  const auto* info = hash::find_prehash(t["hashAlg"].get<std::string>());
  EXPECT_NE(info, nullptr) << t["hashAlg"];
  return info ? std::optional(info->id) : std::nullopt;
}

// Signs one sigGen / sigGen-tr1 case; returns the signature.
bytes sign_case(const json& g, const json& t) {
  const auto lv = lvl(g);
  const auto& p = mldsa::params(lv);
  bytes sk(p.sk_bytes), pk(p.pk_bytes);
  if (t.contains("seed")) {
    EXPECT_TRUE(mldsa::keygen_internal(lv, hx(t["seed"]), pk, sk).ok());
  } else {
    sk = hx(t["sk"]);
  }
  bytes rnd(32, 0);
  if (!g["deterministic"].get<bool>()) rnd = hx(t["rnd"]);
  bytes sig(p.sig_bytes);
  Status st;
  if (g["signatureInterface"] == "internal") {
    if (g["externalMu"].get<bool>())
      st = mldsa::sign_mu(lv, sk, hx(t["mu"]), rnd, sig);
    else
      st = mldsa::sign_internal(lv, sk, hx(t["message"]), rnd, sig);
  } else {
    bytes ctx = hx(t["context"]);
    mldsa::Options o;
    o.ctx = ctx;
    o.rnd = rnd.data();
    if (g["preHash"] == "preHash") o.prehash = prehash_of(t);
    bytes msg = hx(t["message"]);
    st = mldsa::sign(lv, sk, msg, sig, o);
  }
  EXPECT_TRUE(st.ok()) << st.error().what();
  return sig;
}
}  // namespace

TEST(MldsaAcvp, KeyGen) {
  json d = load("ml-dsa-keyGen.json");
  int n = 0;
  for (const auto& g : d["testGroups"]) {
    const auto lv = lvl(g);
    const auto& p = mldsa::params(lv);
    for (const auto& t : g["tests"]) {
      bytes pk(p.pk_bytes), sk(p.sk_bytes);
      ASSERT_TRUE(mldsa::keygen_internal(lv, hx(t["seed"]), pk, sk).ok());
      EXPECT_EQ(to_hex(pk, true), t["pk"].get<std::string>()) << "tcId " << t["tcId"];
      EXPECT_EQ(to_hex(sk, true), t["sk"].get<std::string>()) << "tcId " << t["tcId"];
      // The expanded key imports (checked) and yields the same public key.
      bytes pk2(p.pk_bytes);
      ASSERT_TRUE(mldsa::sk_check(lv, sk, pk2).ok());
      EXPECT_EQ(pk2, pk);
      ++n;
    }
  }
  EXPECT_EQ(n, 75);
}

TEST(MldsaAcvp, SigGen) {
  json d = load("ml-dsa-sigGen.json");
  int n = 0;
  for (const auto& g : d["testGroups"])
    for (const auto& t : g["tests"]) {
      EXPECT_EQ(to_hex(sign_case(g, t), true), t["signature"].get<std::string>())
          << "tgId " << g["tgId"] << " tcId " << t["tcId"];
      ++n;
    }
  EXPECT_EQ(n, 360);
}

TEST(MldsaAcvp, SigGenTr1) {
  json d = load("ml-dsa-sigGen-tr1.json");
  int n = 0;
  for (const auto& g : d["testGroups"])
    for (const auto& t : g["tests"]) {
      EXPECT_EQ(to_hex(sign_case(g, t), true), t["signature"].get<std::string>())
          << "tgId " << g["tgId"] << " tcId " << t["tcId"];
      ++n;
    }
  EXPECT_EQ(n, 96);
}

TEST(MldsaAcvp, SigVer) {
  json d = load("ml-dsa-sigVer.json");
  int n = 0, rejected = 0;
  for (const auto& g : d["testGroups"]) {
    const auto lv = lvl(g);
    for (const auto& t : g["tests"]) {
      bytes pk = hx(t["pk"]), sig = hx(t["signature"]);
      Status st;
      if (g["signatureInterface"] == "internal") {
        if (g["externalMu"].get<bool>())
          st = mldsa::verify_mu(lv, pk, hx(t["mu"]), sig);
        else
          st = mldsa::verify_internal(lv, pk, hx(t["message"]), sig);
      } else {
        bytes ctx = hx(t["context"]);
        mldsa::Options o;
        o.ctx = ctx;
        if (g["preHash"] == "preHash") o.prehash = prehash_of(t);
        bytes msg = hx(t["message"]);
        st = mldsa::verify(lv, pk, msg, sig, o);
      }
      const bool expect = t["testPassed"].get<bool>();
      EXPECT_EQ(st.ok(), expect) << "tgId " << g["tgId"] << " tcId " << t["tcId"] << " " << t.value("reason", "")
                                 << (st.ok() ? "" : " -> " + st.error().what());
      if (!expect) ++rejected;
      ++n;
    }
  }
  EXPECT_EQ(n, 180);
  EXPECT_GT(rejected, 100);
}
