// ML-DSA cross-check against @noble/post-quantum (label `interop`; installed into
// tests/interop/node_modules by scripts/interop-deps.sh, never linked): random seeds, messages,
// contexts and pre-hashes for all three sets. Keys and deterministic signatures must be
// byte-identical; each side must verify the other's hedged signatures.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <iostream>

#include "pqsig/mldsa.hpp"

using namespace pqsig;
using json = nlohmann::json;

namespace {
bytes unhex(const json& v) { return from_hex(v.get<std::string>()).value(); }
}  // namespace

TEST(MldsaInterop, NoblePostQuantum) {
  const std::filesystem::path src = PQSIG_SOURCE_DIR;
  const auto script = src / "tests/interop/mldsa_noble.mjs";
  ASSERT_TRUE(std::filesystem::exists(src / "tests/interop/node_modules/@noble/post-quantum"))
      << "run scripts/interop-deps.sh (make interop-deps) first";
  // Pre-hashes with their collision strength: noble only accepts a pre-hash at least as strong as
  // the parameter set (FIPS 204 §5.4 "should"); our side accepts all 12 (ACVP covers the rest).
  const std::pair<const char*, int> names[] = {{"SHA2-224", 112}, {"SHA2-256", 128}, {"SHA2-384", 192},
                                               {"SHA2-512", 256}, {"SHA2-512/224", 112}, {"SHA2-512/256", 128},
                                               {"SHA3-224", 112}, {"SHA3-256", 128}, {"SHA3-384", 192},
                                               {"SHA3-512", 256}, {"SHAKE-128", 128}, {"SHAKE-256", 256}};
  std::random_device rd;
  const std::uint64_t seed = std::getenv("PQSIG_TEST_SEED") ? std::strtoull(std::getenv("PQSIG_TEST_SEED"), nullptr, 10)
                                                            : (static_cast<std::uint64_t>(rd()) << 32) | rd();
  std::cout << "[ seed ] PQSIG_TEST_SEED=" << seed << "\n";
  RecordProperty("seed", std::to_string(seed));
  std::mt19937_64 rng(seed);
  auto rand_bytes = [&](std::size_t n) {
    bytes b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return b;
  };
  struct Case {
    mldsa::Level lv;
    bytes seed, msg, ctx, pk, sk, det, hedged;
    std::optional<hash::PreHash> ph;
  };
  std::vector<Case> cases;
  json in;
  in["cases"] = json::array();
  const mldsa::Level levels[] = {mldsa::Level::ml_dsa_44, mldsa::Level::ml_dsa_65, mldsa::Level::ml_dsa_87};
  int n = 0;
  for (auto lv : levels) {
    const auto& p = mldsa::params(lv);
    for (int i = 0; i < 12; ++i, ++n) {
      Case c{lv, rand_bytes(32), rand_bytes(rng() % 300), {}, bytes(p.pk_bytes), bytes(p.sk_bytes),
             bytes(p.sig_bytes), bytes(p.sig_bytes), std::nullopt};
      const std::size_t ctx_len = i == 0 ? 0 : i == 1 ? 255 : rng() % 256;
      c.ctx = rand_bytes(ctx_len);
      std::string ph_name;
      if (i % 3 == 2) {
        int pick = (n / 3) % 12;
        while (names[pick].second < p.lambda) pick = (pick + 1) % 12;
        ph_name = names[pick].first;
        c.ph = hash::find_prehash(ph_name)->id;
      }
      ASSERT_TRUE(mldsa::keygen_internal(lv, c.seed, c.pk, c.sk).ok());
      mldsa::Options o;
      o.ctx = c.ctx;
      o.prehash = c.ph;
      o.deterministic = true;
      ASSERT_TRUE(mldsa::sign(lv, c.sk, c.msg, c.det, o).ok());
      o.deterministic = false;
      ASSERT_TRUE(mldsa::sign(lv, c.sk, c.msg, c.hedged, o).ok());
      json j{{"alg", "ml-dsa-" + std::to_string(p.level)}, {"seed", to_hex(c.seed)}, {"msg", to_hex(c.msg)},
             {"ctx", to_hex(c.ctx)}, {"hedged_sig", to_hex(c.hedged)}};
      j["prehash"] = c.ph ? json(ph_name) : json(nullptr);
      in["cases"].push_back(j);
      cases.push_back(std::move(c));
    }
  }
  const auto dir = std::filesystem::path(PQSIG_BINARY_DIR) / "interop_tmp";
  std::filesystem::create_directories(dir);
  const auto in_path = dir / "mldsa_in.json", out_path = dir / "mldsa_out.json";
  std::ofstream(in_path) << in.dump();
  std::filesystem::remove(out_path);
  const std::string cmd = "node '" + script.string() + "' '" + in_path.string() + "' '" + out_path.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream f(out_path);
  json out = json::parse(f);
  ASSERT_EQ(out["results"].size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const auto& r = out["results"][i];
    SCOPED_TRACE("case " + std::to_string(i) + " " + std::string(mldsa::level_name(c.lv)) +
                 (c.ph ? " prehash" : " pure") + " ctx=" + std::to_string(c.ctx.size()));
    EXPECT_EQ(unhex(r["pk"]), c.pk);
    EXPECT_EQ(unhex(r["sk"]), c.sk);
    EXPECT_EQ(unhex(r["det_sig"]), c.det) << "deterministic signatures differ";
    EXPECT_TRUE(r["verifies_hedged"].get<bool>()) << "noble rejects our hedged signature";
    mldsa::Options o;
    o.ctx = c.ctx;
    o.prehash = c.ph;
    const bytes theirs = unhex(r["hedged_sig"]);
    EXPECT_TRUE(mldsa::verify(c.lv, c.pk, c.msg, theirs, o).ok()) << "we reject noble's hedged signature";
    EXPECT_NE(theirs, c.det) << "noble's hedged signature should be randomized";
  }
}
