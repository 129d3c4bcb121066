// `pqsig batch` KEM ops (src/ledger/batch_kem.cpp), run through the CLI binary: ACVP keyGen/encap/decap
// vectors for every ML-KEM set, X-Wing from its draft seed, hybrids round trip, typed errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using json = nlohmann::json;

namespace {
std::vector<json> batch(const std::vector<json>& reqs) {
  const auto in = std::filesystem::temp_directory_path() / ("pqsig_kem_batch_" + std::to_string(::getpid()) + ".jsonl");
  {
    std::ofstream f(in);
    for (const auto& r : reqs) f << r.dump() << "\n";
  }
  const std::string cmd = std::string(PQSIG_BINARY_DIR) + "/pqsig batch < '" + in.string() + "'";
  std::vector<json> out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  std::string line;
  int ch;
  while ((ch = std::fgetc(p)) != EOF) {
    if (ch == '\n') {
      out.push_back(json::parse(line));
      line.clear();
    } else {
      line.push_back(static_cast<char>(ch));
    }
  }
  ::pclose(p);
  std::filesystem::remove(in);
  return out;
}
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
json load(const char* name) {
  std::ifstream f(std::string(PQSIG_SHARED_DIR) + "/vectors/acvp/" + name);
  return json::parse(f);
}
std::string alg_of(const json& g) { return lower(g.at("parameterSet").get<std::string>()); }
}  // namespace

TEST(KemBatch, AcvpKeyGenEncapsDecaps) {
  std::vector<json> reqs, want;
  const auto kg = load("ml-kem-keyGen.json");
  for (const auto& g : kg["testGroups"]) {
    const auto& t = g["tests"][0];
    reqs.push_back({{"op", "keygen"}, {"alg", alg_of(g)}, {"d", t["d"]}, {"z", t["z"]}});
    want.push_back({{"ek", lower(t["ek"])}, {"dk", lower(t["dk"])}});
  }
  const auto ed = load("ml-kem-encapDecap.json");
  for (const auto& g : ed["testGroups"]) {
    const auto& t = g["tests"][0];
    const auto fn = g["function"].get<std::string>();
    if (fn == "encapsulation") {
      reqs.push_back({{"op", "encaps"}, {"alg", alg_of(g)}, {"ek", t["ek"]}, {"m", t["m"]}});
      want.push_back({{"c", lower(t["c"])}, {"k", lower(t["k"])}});
    } else if (fn == "decapsulation") {
      reqs.push_back({{"op", "decaps"}, {"alg", alg_of(g)}, {"dk", t["dk"]}, {"c", t["c"]}});
      want.push_back({{"k", lower(t["k"])}});
    } else if (fn == "encapsulationKeyCheck" || fn == "decapsulationKeyCheck") {
      for (const auto& tt : g["tests"]) {
        if (tt["testPassed"].get<bool>()) continue;
        if (fn == "encapsulationKeyCheck")
          reqs.push_back({{"op", "encaps"}, {"alg", alg_of(g)}, {"ek", tt["ek"]}});
        else
          reqs.push_back({{"op", "decaps"}, {"alg", alg_of(g)}, {"dk", tt["dk"]}, {"c", std::string(2 * 768, '0')}});
        want.push_back({{"error", "key_check_failed"}});
        break;
      }
    }
  }
  const auto got = batch(reqs);
  ASSERT_EQ(got.size(), reqs.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(reqs[i].dump().substr(0, 80));
    if (want[i].contains("error")) {
      ASSERT_TRUE(got[i].contains("error"));
      EXPECT_EQ(got[i]["error"].get<std::string>().rfind(want[i]["error"].get<std::string>(), 0), 0u)
          << got[i]["error"];
      continue;
    }
    for (auto it = want[i].begin(); it != want[i].end(); ++it) EXPECT_EQ(got[i].value(it.key(), ""), it.value());
  }
}

TEST(KemBatch, HybridsAndErrors) {
  const std::string xwing_seed = "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26";
  const std::string xwing_eseed =
      "3cb1eea988004b93103cfb0aeefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e235b8cc873c23dc62b8d260169afa2f75ab916a58d974918835d25e6a435085b2";
  auto r1 = batch({{{"op", "keygen"}, {"alg", "x-wing"}, {"seed", xwing_seed}, {"id", 7}}});
  ASSERT_EQ(r1.size(), 1u);
  EXPECT_EQ(r1[0]["id"], 7);
  EXPECT_EQ(r1[0]["dk"], xwing_seed);  // the X-Wing decapsulation key is the seed
  const std::string ek = r1[0]["ek"];
  auto r2 = batch({{{"op", "encaps"}, {"alg", "x-wing"}, {"ek", ek}, {"eseed", xwing_eseed}}});
  ASSERT_EQ(r2.size(), 1u);
  EXPECT_EQ(r2[0]["k"], "d2df0522128f09dd8e2c92b1e905c793d8f57a54c3da25861f10bf4ca613e384");
  auto r3 = batch({{{"op", "decaps"}, {"alg", "x-wing"}, {"dk", xwing_seed}, {"c", r2[0]["c"]}}});
  EXPECT_EQ(r3[0]["k"], r2[0]["k"]);

  for (const char* alg : {"x25519-ml-kem-768", "ml-kem-768+x25519-hkdf", "ml-kem-1024"}) {
    SCOPED_TRACE(alg);
    auto k = batch({{{"op", "keygen"}, {"alg", alg}}});
    ASSERT_TRUE(k[0].contains("ek")) << k[0];
    auto e = batch({{{"op", "encaps"}, {"alg", alg}, {"ek", k[0]["ek"]}}});
    ASSERT_TRUE(e[0].contains("c")) << e[0];
    auto d = batch({{{"op", "decaps"}, {"alg", alg}, {"dk", k[0]["dk"]}, {"c", e[0]["c"]}}});
    EXPECT_EQ(d[0]["k"], e[0]["k"]);
    // Same with the seed as the private key.
    auto d2 = batch({{{"op", "decaps"}, {"alg", alg}, {"dk", k[0]["seed"]}, {"c", e[0]["c"]}}});
    EXPECT_EQ(d2[0]["k"], e[0]["k"]);
  }
  auto errs = batch({{{"op", "encaps"}, {"alg", "x-wing"}, {"ek", "00"}},
                     {{"op", "keygen"}, {"alg", "ml-kem-768"}, {"seed", "00"}},
                     {{"op", "encaps"}, {"alg", "x-wing"}, {"ek", ek}, {"eseed", "0011"}},
                     {{"op", "encaps"}, {"alg", "ml-kem-768"}, {"ek", ek.substr(0, 2368)}, {"m", "00"}},
                     {{"op", "frobnicate"}, {"alg", "ml-kem-768"}}});
  ASSERT_EQ(errs.size(), 5u);
  for (const auto& e : errs) EXPECT_TRUE(e.contains("error")) << e;
  EXPECT_EQ(errs[0]["error"].get<std::string>().rfind("invalid_length", 0), 0u);
  EXPECT_EQ(errs[3]["error"].get<std::string>().rfind("invalid_length", 0), 0u);
}
