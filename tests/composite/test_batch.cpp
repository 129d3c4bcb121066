// `pqsig batch` for the classical and composite algs, end to end through the CLI binary:
// published vectors in, the expected answers out (skipped when the CLI was not built).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "pqsig/common.hpp"

using nlohmann::json;

namespace {
std::vector<json> run_batch(const std::vector<json>& reqs) {
  const std::string exe = std::string(PQSIG_BINARY_DIR) + "/pqsig";
  if (!std::filesystem::exists(exe)) return {};
  const auto in = std::filesystem::temp_directory_path() / ("pqsig_batch_classical_" + std::to_string(::getpid()));
  {
    std::ofstream f(in);
    for (const auto& r : reqs) f << r.dump() << "\n";
    f << "this is not json\n";
  }
  std::vector<json> out;
  FILE* p = ::popen((exe + " batch < " + in.string()).c_str(), "r");
  if (!p) return {};
  std::string line;
  char buf[65536];
  while (std::fgets(buf, sizeof buf, p)) {
    line += buf;
    if (!line.empty() && line.back() == '\n') {
      out.push_back(json::parse(line));
      line.clear();
    }
  }
  ::pclose(p);
  std::filesystem::remove(in);
  return out;
}

std::string hex_of_b64(const std::string& b) { return pqsig::to_hex(pqsig::base64_decode(b).value()); }
std::string hex_of(std::string_view s) { return pqsig::to_hex(pqsig::as_bytes(s)); }
}  // namespace

TEST(Batch, ClassicalAndCompositeVectors) {
  std::ifstream f(std::string(PQSIG_SOURCE_DIR) + "/tests/composite/lamps_vectors.json");
  std::stringstream ss;
  ss << f.rdbuf();
  json v = json::parse(ss.str());
  const json& ec = v["tests"][1];  // MLDSA44-ECDSA-P256-SHA256
  const std::string m = hex_of_b64(v["m"]), ctx = hex_of_b64(v["ctx"]);
  std::string bad_sig = hex_of_b64(ec["sWithContext"]);
  bad_sig[10] = bad_sig[10] == '0' ? '1' : '0';
  std::vector<json> reqs = {
      // RFC 8032 TEST 1
      {{"id", 1}, {"op", "sign"}, {"alg", "ed25519"},
       {"sk", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"}, {"msg", ""}},
      // RFC 6979 A.2.5 P-256 / SHA-256 / "sample", raw r||s and DER
      {{"id", 2}, {"op", "verify"}, {"alg", "ecdsa-p256-sha256"},
       {"pk", "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299"},
       {"msg", hex_of("sample")},
       {"sig", "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"}},
      {{"id", 3}, {"op", "verify"}, {"alg", "ecdsa-p256-sha256"}, {"format", "der"},
       {"pk", "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299"},
       {"msg", hex_of("sample")},
       {"sig", "3046022100efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716022100f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"}},
      // RFC 4231 test case 1 (20-byte key)
      {{"id", 4}, {"op", "sign"}, {"alg", "hmac-sha256"}, {"sk", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"},
       {"msg", hex_of("Hi There")}},
      // LAMPS composite vector: keygen from sk reproduces pk; verify with and without tampering
      {{"id", 5}, {"op", "keygen"}, {"alg", "ml-dsa-44+ecdsa-p256"}, {"sk", hex_of_b64(ec["sk"])}},
      {{"id", 6}, {"op", "verify"}, {"alg", "ml-dsa-44+ecdsa-p256"}, {"pk", hex_of_b64(ec["pk"])}, {"msg", m},
       {"ctx", ctx}, {"sig", hex_of_b64(ec["sWithContext"])}},
      {{"id", 7}, {"op", "verify"}, {"alg", "ml-dsa-44+ecdsa-p256"}, {"pk", hex_of_b64(ec["pk"])}, {"msg", m},
       {"ctx", ctx}, {"sig", bad_sig}},
      {{"id", 8}, {"op", "verify"}, {"alg", "ml-dsa-44+ecdsa-p256"}, {"pk", hex_of_b64(ec["pk"])}, {"msg", m},
       {"sig", hex_of_b64(ec["sWithContext"])}},
      // malformed requests
      {{"id", 9}, {"op", "sign"}, {"alg", "ed25519"}, {"sk", "00"}, {"msg", ""}},
      {{"id", 10}, {"op", "sign"}, {"alg", "ecdsa-p256-sha256"}, {"sk", "zz"}, {"msg", ""}},
  };
  auto out = run_batch(reqs);
  if (out.empty()) GTEST_FAIL() << "pqsig CLI not built";
  ASSERT_EQ(out.size(), reqs.size() + 1);
  EXPECT_EQ(out[0]["sig"], "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");
  EXPECT_EQ(out[0]["id"], 1);
  EXPECT_EQ(out[1]["ok"], true);
  EXPECT_EQ(out[2]["ok"], true);
  EXPECT_EQ(out[3]["sig"], "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  if (out[4].contains("error")) GTEST_FAIL() << "ML-DSA not in this build: " << out[4]["error"];
  EXPECT_EQ(out[4]["pk"], hex_of_b64(ec["pk"]));
  EXPECT_EQ(out[4]["sk"], hex_of_b64(ec["sk"]));
  EXPECT_EQ(out[5]["ok"], true);
  EXPECT_EQ(out[6]["ok"], false);
  EXPECT_EQ(out[7]["ok"], false);  // the context is part of M'
  EXPECT_TRUE(out[8].contains("error"));
  EXPECT_TRUE(out[9].contains("error"));
  EXPECT_TRUE(out[10].contains("error"));
}
