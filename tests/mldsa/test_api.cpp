// ML-DSA through the suite API (SigningKey / VerifyingKey) and the `pqsig batch` protocol.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "pqsig/mldsa.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;
using json = nlohmann::json;

TEST(MldsaSuite, SizesMatchRegistry) {
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87"}) {
    auto s = find_suite(id);
    ASSERT_TRUE(s.ok());
    const auto& p = mldsa::params(*mldsa::level_from_name(id));
    EXPECT_EQ((*s)->public_key_size, p.pk_bytes);
    EXPECT_EQ((*s)->private_key_size, mldsa::kSeedBytes);
    EXPECT_EQ((*s)->expanded_key_size, p.sk_bytes);
    EXPECT_EQ((*s)->output_size, p.sig_bytes);
  }
}

TEST(MldsaSuite, SignVerifyThroughSuiteApi) {
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87"}) {
    const SuiteInfo& s = *find_suite(id).value();
    auto key = SigningKey::generate(s);
    ASSERT_TRUE(key.ok()) << key.error().what();
    EXPECT_EQ(key->private_key().size(), 32u);
    EXPECT_EQ(key->public_key().size(), s.public_key_size);
    auto vk = VerifyingKey::from_public(s, key->public_key());
    ASSERT_TRUE(vk.ok());
    const bytes msg = {'m', 's', 'g'};
    const bytes ctx = {'c'};
    SignOptions o;
    o.ctx = ctx;
    auto sig = key->sign(msg, o);
    ASSERT_TRUE(sig.ok());
    EXPECT_EQ(sig->size(), s.output_size);
    EXPECT_TRUE(vk->verify(msg, *sig, o).ok());
    EXPECT_EQ(vk->verify(msg, *sig).error().code, Errc::verify_failed);  // wrong context
    // deterministic + pre-hash
    SignOptions d;
    d.deterministic = true;
    d.prehash = hash::PreHash::sha2_256;
    auto s1 = key->sign(msg, d), s2 = key->sign(msg, d);
    ASSERT_TRUE(s1.ok() && s2.ok());
    EXPECT_EQ(*s1, *s2);
    EXPECT_TRUE(vk->verify(msg, *s1, d).ok());
    // seed re-import and expanded import give the same key
    auto again = SigningKey::from_private(s, key->private_key());
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(std::equal(again->public_key().begin(), again->public_key().end(), key->public_key().begin()));
    auto exp = key->expanded_private_key();
    ASSERT_TRUE(exp.ok());
    EXPECT_EQ(exp->size(), s.expanded_key_size);
    auto imported = SigningKey::from_expanded(s, *exp);
    ASSERT_TRUE(imported.ok()) << imported.error().what();
    EXPECT_TRUE(imported->private_key().empty());
    auto s3 = imported->sign(msg, d);
    ASSERT_TRUE(s3.ok());
    EXPECT_EQ(*s3, *s1);
    // malformed inputs are typed errors
    bytes bad_exp = *exp;
    bad_exp[70] ^= 1;  // tr
    EXPECT_EQ(SigningKey::from_expanded(s, bad_exp).error().code, Errc::key_check_failed);
    EXPECT_EQ(SigningKey::from_private(s, bytes(31)).error().code, Errc::invalid_length);
    EXPECT_EQ(VerifyingKey::from_public(s, bytes(10)).error().code, Errc::invalid_length);
    SignOptions big;
    bytes ctx256(256);
    big.ctx = ctx256;
    EXPECT_EQ(key->sign(msg, big).error().code, Errc::invalid_context);
    EXPECT_EQ(vk->verify(msg, *sig, big).error().code, Errc::invalid_context);
  }
}

TEST(MldsaSuite, JoseDraftExampleKeys) {
  // draft-ietf-cose-dilithium examples: all-zero seed → the published raw public key.
  for (int lvl : {44, 65, 87}) {
    const std::string path = std::string(PQSIG_SHARED_DIR) + "/vectors/jose/draft-ietf-cose-dilithium-09-ML_DSA_" +
                             std::to_string(lvl) + ".jose.json";
    std::ifstream f(path);
    if (!f.good()) GTEST_FAIL() << "missing " << path;
    json j = json::parse(f);
    const SuiteInfo& s = *find_suite("ml-dsa-" + std::to_string(lvl)).value();
    auto key = SigningKey::from_private(s, from_hex(j["priv"].get<std::string>()).value());
    ASSERT_TRUE(key.ok());
    EXPECT_EQ(to_hex(key->public_key()), j["raw_public_key"].get<std::string>());
    // The published signature over raw_to_be_signed verifies (pure ML-DSA, empty context).
    auto vk = VerifyingKey::from_public(s, key->public_key());
    ASSERT_TRUE(vk.ok());
    EXPECT_TRUE(vk->verify(from_hex(j["raw_to_be_signed"].get<std::string>()).value(),
                           from_hex(j["raw_signature"].get<std::string>()).value())
                    .ok());
  }
}

namespace {
std::vector<json> run_batch(const std::vector<std::string>& lines) {
  const auto dir = std::filesystem::path(PQSIG_BINARY_DIR) / "batch_tmp";
  std::filesystem::create_directories(dir);
  const auto in = dir / "mldsa_batch_in.jsonl";
  {
    std::ofstream o(in);
    for (const auto& l : lines) o << l << "\n";
  }
  const std::string cmd = std::string("'") + PQSIG_BINARY_DIR + "/pqsig' batch < '" + in.string() + "'";
  std::vector<json> out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::string cur;
  char buf[65536];
  while (std::fgets(buf, sizeof buf, p)) {
    cur += buf;
    if (!cur.empty() && cur.back() == '\n') {
      out.push_back(json::parse(cur));
      cur.clear();
    }
  }
  pclose(p);
  return out;
}
}  // namespace

TEST(MldsaBatch, Protocol) {
  if (!std::filesystem::exists(std::string(PQSIG_BINARY_DIR) + "/pqsig")) GTEST_FAIL() << "pqsig CLI not built";
  const std::string seed(64, '0');
  const std::string zero_rnd(64, '0');
  // keygen → pk, sk; deterministic sign from seed and from sk agree; verify round trip
  auto r = run_batch({R"({"op":"keygen","alg":"ml-dsa-44","seed":")" + seed + R"(","id":7})"});
  ASSERT_EQ(r.size(), 1u);
  ASSERT_TRUE(r[0].contains("pk")) << r[0].dump();
  EXPECT_EQ(r[0]["id"], 7);
  const std::string pk = r[0]["pk"], sk = r[0]["sk"];
  EXPECT_EQ(pk.size(), 2 * 1312u);
  EXPECT_EQ(sk.size(), 2 * 2560u);
  std::vector<std::string> lines = {
      R"({"op":"sign","alg":"ml-dsa-44","seed":")" + seed + R"(","msg":"616263","ctx":"01","rnd":")" + zero_rnd + R"("})",
      R"({"op":"sign","alg":"ml-dsa-44","sk":")" + sk + R"(","msg":"616263","ctx":"01","rnd":")" + zero_rnd + R"("})",
      R"({"op":"sign","alg":"ml-dsa-44","seed":")" + seed + R"(","msg":"616263","prehash":"SHA2-256"})",
      R"({"op":"sign","alg":"ml-dsa-44","seed":")" + seed + R"(","msg":"616263","interface":"internal","rnd":")" + zero_rnd + R"("})",
      R"({"op":"sign","alg":"ml-dsa-44","seed":")" + seed + R"(","mu":")" + std::string(128, 'a') + R"(","rnd":")" + zero_rnd + R"("})",
      // malformed lines: each yields {"error"} and the batch continues
      R"({"op":"sign","alg":"ml-dsa-44","seed":"00","msg":""})",
      R"({"op":"sign","alg":"ml-dsa-44","seed":")" + seed + R"(","msg":"","ctx":")" + std::string(512, 'a') + R"("})",
      R"({"op":"sign","alg":"ml-dsa-44","seed":")" + seed + R"(","msg":"zz"})",
      R"({"op":"sign","alg":"ml-dsa-45","seed":")" + seed + R"(","msg":""})",
      R"({"op":"sign","alg":"ml-dsa-44","seed":")" + seed + R"(","msg":"","prehash":"MD5"})",
      R"(not json)",
  };
  r = run_batch(lines);
  ASSERT_EQ(r.size(), lines.size());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(r[i].contains("sig")) << i << " " << r[i].dump();
  EXPECT_EQ(r[0]["sig"], r[1]["sig"]);
  for (std::size_t i = 5; i < lines.size(); ++i) EXPECT_TRUE(r[i].contains("error")) << i << " " << r[i].dump();
  const std::string sig = r[0]["sig"], ph_sig = r[2]["sig"], int_sig = r[3]["sig"], mu_sig = r[4]["sig"];
  std::string bad_sig = sig;
  bad_sig[10] = bad_sig[10] == '0' ? '1' : '0';
  auto v = run_batch({
      R"({"op":"verify","alg":"ml-dsa-44","pk":")" + pk + R"(","sig":")" + sig + R"(","msg":"616263","ctx":"01"})",
      R"({"op":"verify","alg":"ml-dsa-44","pk":")" + pk + R"(","sig":")" + sig + R"(","msg":"616263"})",
      R"({"op":"verify","alg":"ml-dsa-44","pk":")" + pk + R"(","sig":")" + bad_sig + R"(","msg":"616263","ctx":"01"})",
      R"({"op":"verify","alg":"ml-dsa-44","pk":")" + pk + R"(","sig":")" + ph_sig + R"(","msg":"616263","prehash":"SHA2-256"})",
      R"({"op":"verify","alg":"ml-dsa-44","pk":")" + pk + R"(","sig":")" + int_sig + R"(","msg":"616263","interface":"internal"})",
      R"({"op":"verify","alg":"ml-dsa-44","pk":")" + pk + R"(","sig":")" + mu_sig + R"(","mu":")" + std::string(128, 'A') + R"("})",
      R"({"op":"verify","alg":"ml-dsa-44","pk":")" + pk + R"(","sig":"00","msg":""})",
      R"({"op":"verify","alg":"ml-dsa-44","pk":"00","sig":")" + sig + R"(","msg":""})",
  });
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(v[0], json({{"ok", true}}));
  EXPECT_EQ(v[1]["ok"], false);
  EXPECT_TRUE(v[1].contains("reason"));
  EXPECT_EQ(v[2]["ok"], false);
  EXPECT_EQ(v[3]["ok"], true);
  EXPECT_EQ(v[4]["ok"], true);
  EXPECT_EQ(v[5]["ok"], true);  // hex is accepted in either case
  EXPECT_EQ(v[6]["ok"], false);  // wrong signature length: a signature that does not verify
  EXPECT_TRUE(v[7].contains("error"));  // wrong public key length: malformed request
}
