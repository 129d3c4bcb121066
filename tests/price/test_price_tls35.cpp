// `pqsig price --tls` under OpenSSL 3.5 (label openssl35): ctest starts this binary through
// tests/providers/openssl35-run.sh cli, which sets PQSIG_OPENSSL35_RUN; pqsig is started through
// that wrapper (Debian 13's loader and libssl/libcrypto 3.5). Without the OpenSSL 3.5 cache the
// test skips naming the command that makes it (bash scripts/openssl35.sh) — or fails under
// PQSIG_REQUIRE_OPENSSL35=1 (CI).
//
// Every row of the table must run (6 certificate algorithms x 3 groups, 2 handshakes each), and
// the bytes must show what the post-quantum rows carry: ML-DSA-65 x X25519MLKEM768's
// server->client flight exceeds RSA-2048 x X25519's by at least the larger chain, the larger
// CertificateVerify signature and the larger key share. No timed assertions.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/openssl35.hpp"
#include "support/run.hpp"

using json = nlohmann::json;

namespace {

using Tls35Run = pqsig::test::CommandRun;
Tls35Run tls35_pqsig(const std::string& run35, const std::string& args) {
  return pqsig::test::run_capture("'" + run35 + "' '" PQSIG_BINARY_DIR "/pqsig' " + args + " 2>/dev/null");
}

}  // namespace

TEST(PriceTls35, EveryRowRunsAndThePostQuantumBytesShow) {
  PQSIG_REQUIRE_OPENSSL35_RUNNER();
  const std::string run35 = pqsig::test::openssl35_runner();
  Tls35Run r = tls35_pqsig(run35, "price --tls --tls-handshakes 2 --json --no-progress");
  ASSERT_EQ(r.code, 0) << r.out;
  const json doc = json::parse(r.out);
  const json& tls = doc.at("tls");
  const std::string lib = tls.at("libssl").get<std::string>();
  ASSERT_EQ(lib.rfind("OpenSSL 3.", 0), 0u) << lib;
  ASSERT_GE(std::atoi(lib.c_str() + 10), 5) << "not OpenSSL >= 3.5: " << lib;
  std::printf("libssl: %s\n", lib.c_str());

  ASSERT_EQ(tls.at("rows").size(), 18u);
  std::map<std::string, json> rows;
  for (const auto& row : tls["rows"]) {
    const std::string key = row["cert"].get<std::string>() + " x " + row["group"].get<std::string>();
    EXPECT_EQ(row["state"], "ok") << key << ": " << row.value("reason", "");
    rows[key] = row;
  }
  ASSERT_TRUE(rows.count("rsa-2048 x X25519"));
  ASSERT_TRUE(rows.count("ml-dsa-65 x X25519MLKEM768"));
  const json& rsa = rows["rsa-2048 x X25519"];
  const json& ml = rows["ml-dsa-65 x X25519MLKEM768"];
  ASSERT_EQ(ml["state"], "ok") << ml.value("reason", "");
  EXPECT_EQ(ml["handshakes"], 2);
  EXPECT_EQ(ml["negotiated_group"], "X25519MLKEM768");
  EXPECT_EQ(ml["server_sigalg"], "mldsa65");
  EXPECT_EQ(ml["client_sigalg"], "mldsa65");
  EXPECT_EQ(rsa["verdict"], "anchor");
  EXPECT_TRUE(ml.contains("added_party_ms"));
  EXPECT_TRUE(ml["verdict"] == "fits" || ml["verdict"] == "over");

  // FIPS 204: an ML-DSA-65 public key is 1,952 bytes, a signature 3,309; the chain (leaf +
  // intermediate) carries two of each.
  const long ml_chain = ml["chain_bytes_server"].get<long>();
  const long rsa_chain = rsa["chain_bytes_server"].get<long>();
  EXPECT_GE(ml_chain, 2 * (1952 + 3309));
  // Server -> client: the chain, the CertificateVerify signature (3,309 vs RSA-2048's 256 bytes)
  // and the key share (X25519MLKEM768: ML-KEM-768 ciphertext 1,088 + X25519 32, vs 32).
  const long s2c_gap = ml["bytes_s2c"].get<long>() - rsa["bytes_s2c"].get<long>();
  EXPECT_GE(s2c_gap, (ml_chain - rsa_chain) + (3309 - 256) + (1088 + 32 - 32)) << r.out;
  // Client -> server: its chain, its CertificateVerify and its key share (encapsulation key 1,184 + 32).
  // OpenSSL >= 3.2 compresses the client's Certificate message by default (RFC 8879; the server
  // sends its chain as is): both chains shrink by their compressible part (names, OIDs, a few
  // hundred bytes), the ML-DSA one's random key and signatures not at all, hence 95 % of the gap.
  const long c2s_gap = ml["bytes_c2s"].get<long>() - rsa["bytes_c2s"].get<long>();
  const long chain_c_gap = ml["chain_bytes_client"].get<long>() - rsa["chain_bytes_client"].get<long>();
  EXPECT_GE(c2s_gap, chain_c_gap * 95 / 100 + (3309 - 256) + (1184 + 32 - 32)) << r.out;
  // The chain grows with the parameter set.
  EXPECT_LT(rows["ml-dsa-44 x X25519"]["chain_bytes_server"].get<long>(), ml_chain);
  EXPECT_GT(rows["ml-dsa-87 x X25519"]["chain_bytes_server"].get<long>(), ml_chain);
  // Pure ML-KEM-768's key share is the hybrid's minus X25519's 32 bytes.
  EXPECT_EQ(rows["rsa-2048 x X25519MLKEM768"]["bytes_c2s"].get<long>() -
                rows["rsa-2048 x MLKEM768"]["bytes_c2s"].get<long>(),
            32);

  // The text form names the verdicts.
  Tls35Run t = tls35_pqsig(run35, "price --tls --tls-handshakes 2 --tls-certs rsa-2048,ml-dsa-65 --tls-groups "
                                  "X25519,X25519MLKEM768 --no-progress");
  ASSERT_EQ(t.code, 0) << t.out;
  EXPECT_NE(t.out.find("mldsa65"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("added party latency"), std::string::npos) << t.out;
  EXPECT_EQ(t.out.find("unavailable:"), std::string::npos) << t.out;  // no row lacks its algorithm
  EXPECT_NE(t.out.find("4 measured, 0 unavailable, 0 errors"), std::string::npos) << t.out;
}
