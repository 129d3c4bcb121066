// `pqsig ledger providers` and `pqsig ledger verify` (JSON Lines in, verdicts in order, summary).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_util.hpp"
#include "pqsig/provider.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;
using json = nlohmann::json;

namespace {
std::vector<json> lines_of(const std::string& s) {
  std::vector<json> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l))
    if (!l.empty()) out.push_back(json::parse(l));
  return out;
}
}  // namespace

TEST(LedgerCli, ProvidersListsEveryProviderWithReasons) {
  TempDir d;
  RunResult r = run_pqsig(d, "ledger providers --json");
  ASSERT_EQ(r.code, 0) << r.err;
  json j = json::parse(r.out);
  ASSERT_EQ(j["providers"].size(), 3u);
  EXPECT_EQ(j["providers"][0]["name"], "pqsig");
  EXPECT_TRUE(j["providers"][0]["available"].get<bool>());
  EXPECT_EQ(j["providers"][0]["suites"]["ml-dsa-65"], "pure,context,prehash,internal,external-mu");
  EXPECT_EQ(j["providers"][0]["operations"]["ml-dsa-65"], "keygen,sign");
  EXPECT_EQ(j["providers"][0]["operations"]["ml-kem-768"], "keygen,encaps,decaps");
  EXPECT_FALSE(j["providers"][0]["suites"].contains("ml-kem-768")) << "a KEM has no verification interface";
  if (provider::find("liboqs").value()->info().available) {
    EXPECT_EQ(j["providers"][1]["operations"]["ml-kem-1024"], "keygen,encaps,decaps");
  }
  for (const auto& p : j["providers"]) {
    const auto info = provider::find(p["name"].get<std::string>()).value()->info();
    EXPECT_EQ(p["available"].get<bool>(), info.available);
    if (!info.available) {
      EXPECT_FALSE(p["reason"].get<std::string>().empty()) << p.dump();
      EXPECT_TRUE(p["suites"].empty()) << "an unavailable provider offers no suite";
    }
  }
}

TEST(LedgerCli, VerifyGivesAVerdictPerItemInOrderThenASummary) {
  TempDir d;
  const SuiteInfo& s = *find_suite("ml-dsa-44").value();
  auto sk = SigningKey::generate(s).value();
  const bytes msg = {1, 2, 3};
  const bytes ctx = {9, 9};
  SignOptions so;
  so.ctx = ctx;
  const bytes sig = sk.sign(msg, so).value();
  bytes bad = sig;
  bad[100] ^= 1;
  const std::string pk = to_hex(sk.public_key(), false);
  std::string in;
  in += json{{"id", 1}, {"alg", "ml-dsa-44"}, {"pk", pk}, {"msg", to_hex(msg, false)}, {"sig", to_hex(sig, false)},
             {"ctx", to_hex(ctx, false)}}.dump() + "\n";
  in += json{{"id", 2}, {"alg", "ml-dsa-44"}, {"pk", pk}, {"msg", to_hex(msg, false)}, {"sig", to_hex(bad, false)},
             {"ctx", to_hex(ctx, false)}}.dump() + "\n";
  in += "{not json\n";
  in += json{{"id", 4}, {"alg", "ml-dsa-44"}, {"pk", pk}, {"msg", to_hex(msg, false)}, {"sig", to_hex(sig, false)}}
            .dump() + "\n";  // no ctx: rejected
  write_text(d.file("items.jsonl"), in);
  for (const char* mode : {"enforce", "shadow"}) {
    RunResult r = run_pqsig(d, std::string("ledger verify --first pqsig --second pqsig --jobs 2 --mode ") + mode,
                            d.file("items.jsonl"));
    ASSERT_EQ(r.code, 0) << r.err;
    auto out = lines_of(r.out);
    ASSERT_EQ(out.size(), 5u) << r.out;
    EXPECT_EQ(out[0]["id"], 1);
    EXPECT_TRUE(out[0]["ok"].get<bool>());
    EXPECT_TRUE(out[0]["second_ok"].get<bool>());
    EXPECT_EQ(out[1]["id"], 2);
    EXPECT_FALSE(out[1]["ok"].get<bool>());
    if (std::string(mode) == "enforce") {
      EXPECT_TRUE(out[1]["second_ok"].is_null()) << "second skipped after the first rejects";
    } else {
      EXPECT_FALSE(out[1]["second_ok"].get<bool>());
    }
    EXPECT_FALSE(out[2]["ok"].get<bool>());
    EXPECT_TRUE(out[2].contains("error"));
    EXPECT_EQ(out[3]["id"], 4);
    EXPECT_FALSE(out[3]["ok"].get<bool>());
    const json& sum = out[4]["summary"];
    EXPECT_EQ(sum["total"], 4);
    EXPECT_EQ(sum["accepted"], 1);
    EXPECT_EQ(sum["rejected"], 3);
    EXPECT_EQ(sum["errors"], 1);
    EXPECT_EQ(sum["disagreements"], 0);
    EXPECT_EQ(sum["second_skipped"], std::string(mode) == "enforce" ? 2 : 0);
    EXPECT_EQ(sum["mode"], mode);
  }
}

TEST(LedgerCli, AnUnavailableProviderIsAUsageErrorWithTheReason) {
  TempDir d;
  write_text(d.file("empty.jsonl"), "");
  RunResult r = run_pqsig(d, "ledger verify --second nosuch", d.file("empty.jsonl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown provider"), std::string::npos) << r.err;
  for (const auto& p : provider::all()) {
    const auto info = p->info();
    if (info.available) continue;
    r = run_pqsig(d, "ledger verify --second " + std::string(p->name()), d.file("empty.jsonl"));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find(info.reason), std::string::npos) << r.err;
  }
}

TEST(LedgerCli, BatchVerifyTakesAProviderMember) {
  TempDir d;
  const SuiteInfo& s = *find_suite("ml-dsa-44").value();
  auto sk = SigningKey::generate(s).value();
  const bytes msg = {7, 7, 7};
  const bytes sig = sk.sign(msg).value();
  bytes bad = sig;
  bad[3] ^= 2;
  const std::string pk = to_hex(sk.public_key(), false);
  auto req = [&](const std::string& prov, const bytes& sg, const char* extra_key = nullptr) {
    json j{{"op", "verify"}, {"alg", "ml-dsa-44"}, {"pk", pk}, {"msg", to_hex(msg, false)}, {"sig", to_hex(sg, false)},
           {"provider", prov}};
    if (extra_key) j[extra_key] = "SHA2-256";
    return j.dump() + "\n";
  };
  std::string in = req("pqsig", sig) + req("pqsig", bad) + req("nosuch", sig) + req("liboqs", sig) +
                   req("liboqs", sig, "prehash") +
                   json{{"op", "sign"}, {"alg", "ml-dsa-44"}, {"provider", "pqsig"}}.dump() + "\n";
  write_text(d.file("req.jsonl"), in);
  RunResult r = run_pqsig(d, "batch", d.file("req.jsonl"));
  ASSERT_EQ(r.code, 0) << r.err;
  auto out = lines_of(r.out);
  ASSERT_EQ(out.size(), 6u) << r.out;
  EXPECT_TRUE(out[0]["ok"].get<bool>()) << out[0].dump();
  EXPECT_EQ(out[0]["provider"], "pqsig");
  EXPECT_FALSE(out[1]["ok"].get<bool>());
  EXPECT_NE(out[2]["error"].get<std::string>().find("unknown provider"), std::string::npos);
  const auto oqs = provider::find("liboqs").value()->info();
  if (oqs.available) {
    EXPECT_TRUE(out[3]["ok"].get<bool>()) << out[3].dump();
    if (provider::find("liboqs").value()->interfaces(s) & provider::kPreHash) {
      // HashML-DSA through liboqs' exported mldsa-native core: a pure signature is not a
      // HashML-DSA signature.
      ASSERT_TRUE(out[4].contains("ok")) << out[4].dump();
      EXPECT_FALSE(out[4]["ok"].get<bool>()) << out[4].dump();
    } else {
      // A liboqs without HashML-DSA: an error naming it, never {"ok":false}.
      ASSERT_TRUE(out[4].contains("error")) << out[4].dump();
      EXPECT_NE(out[4]["error"].get<std::string>().find("unsupported"), std::string::npos) << out[4].dump();
    }
  } else {
    EXPECT_NE(out[3]["error"].get<std::string>().find("not available"), std::string::npos) << out[3].dump();
  }
  EXPECT_NE(out[5]["error"].get<std::string>().find("only"), std::string::npos) << out[5].dump();
}

TEST(LedgerCli, BenchCountsEveryCheckAndMeasuresTheBlock) {
  TempDir d;
  RunResult r = run_pqsig(d, "ledger bench --quick --samples 3 --rounds 2 --suites ml-dsa-44,ml-dsa-87 "
                             "--second pqsig --seed 7 --json --no-progress --jsonl raw.jsonl");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  // Per suite, sample and round: valid (second alone, enforce, shadow) + invalid (second alone, shadow).
  EXPECT_EQ(j["summary"]["checks"], 2 * 3 * 2 * 5);
  EXPECT_EQ(j["summary"]["disagreements"], 0);
  EXPECT_EQ(j["summary"]["unexpected_verdicts"], 0);
  EXPECT_EQ(j["environment"]["seed"], 7);
  EXPECT_FALSE(j["environment"]["load_before"].get<std::string>().empty());
  ASSERT_EQ(j["suites"].size(), 2u);
  const json& s44 = j["suites"][0];
  EXPECT_EQ(s44["suite"], "ml-dsa-44");
  EXPECT_EQ(s44["vu_estimate"], 100);
  EXPECT_EQ(s44["vu_consensus"], 100);
  EXPECT_EQ(s44["block"]["signatures"], 200);  // --quick caps the 2000-signature block
  EXPECT_TRUE(s44["block"]["all_accepted"].get<bool>());
  EXPECT_GT(s44["block"]["one_core_cpu_ms"].get<double>(), 0);
  for (const char* way : {"first", "first-cold", "second", "dual-enforce", "dual-shadow"}) {
    EXPECT_GT(s44["valid"][way]["median_cpu_ns"].get<double>(), 0) << way;
    EXPECT_GT(s44["invalid"][way]["median_cpu_ns"].get<double>(), 0) << way;
  }
  EXPECT_EQ(j["suites"][1]["block"]["signatures"], 200000 / 290 < 200 ? 200000 / 290 : 200);
  // Raw samples: environment, 2 suites x 3 samples x 2 rounds x (valid, invalid) x 5 ways, suites, summary.
  const auto raw = lines_of(slurp_file(d.file("raw.jsonl")));
  ASSERT_EQ(raw.size(), 1u + 2 * 3 * 2 * 2 * 5 + 2 + 1);
  EXPECT_EQ(raw.front()["type"], "environment");
  EXPECT_EQ(raw.back()["type"], "summary");
  // A bad workload file is a usage error naming the key.
  write_text(d.file("w.json"), R"({"consensus_vu":{"ml-dsa-44":0}})");
  r = run_pqsig(d, "ledger bench --quick --second pqsig --workload w.json --no-progress");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("consensus_vu.ml-dsa-44"), std::string::npos) << r.err;
}

TEST(LedgerCli, BenchWithoutTheVuReferenceHasNoEstimateAndCoversNothing) {
  TempDir d;
  RunResult r = run_pqsig(d, "ledger bench --quick --samples 2 --rounds 1 --suites ml-dsa-87 --second pqsig "
                             "--seed 9 --json --no-progress");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["suites"].size(), 1u);
  const json& s87 = j["suites"][0];
  EXPECT_TRUE(s87["vu_estimate"].is_null()) << s87["vu_estimate"].dump() << ": ml-dsa-44 (the VU unit) not measured";
  EXPECT_EQ(s87["vu_consensus"], 290);
  EXPECT_TRUE(s87["covers"].is_null()) << s87["covers"].dump();
  EXPECT_EQ(s87["block"]["signatures"], 200) << "sized by the consensus constant, capped by --quick";
  r = run_pqsig(d, "ledger bench --quick --samples 2 --rounds 1 --suites ml-dsa-87 --second pqsig --seed 9 --no-progress");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("- (no ml-dsa-44)"), std::string::npos) << r.out;
}
