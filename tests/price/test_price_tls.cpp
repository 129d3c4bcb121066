// `pqsig price --tls` under the libssl the test loads (Debian 12: OpenSSL 3.0): the option lists,
// the verdict arithmetic on known figures, real handshakes with small counts (classical rows run
// with plausible bytes; rows the loaded OpenSSL lacks are listed unavailable with the reason,
// never dropped; under OpenSSL >= 3.5 they must run), and the CLI. No timed assertions.
// The OpenSSL 3.5 run of the whole table: test_price_tls35.cpp (label openssl35).
#include <gtest/gtest.h>
#include <openssl/crypto.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "pqsig/price_tls.hpp"
#include "support/run.hpp"

namespace pt = pqsig::price;

namespace {

bool tls_test_has_35() { return OpenSSL_version_num() >= 0x30500000L; }

const pt::TlsRow* tls_test_row(const pt::TlsReport& r, const std::string& cert, const std::string& group) {
  for (const auto& row : r.rows)
    if (row.cert == cert && row.group == group) return &row;
  return nullptr;
}

using TlsCliRun = pqsig::test::CommandRun;
TlsCliRun tls_test_cli(const std::string& args) {
  return pqsig::test::run_capture(std::string(PQSIG_BINARY_DIR "/pqsig ") + args + " 2>/dev/null");
}

}  // namespace

TEST(PriceTls, ListsParseInDisplayOrder) {
  auto c = pt::parse_tls_certs("ml-dsa-65, rsa-2048");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c.value(), (std::vector<std::string>{"rsa-2048", "ml-dsa-65"}));
  auto all = pt::parse_tls_certs("");
  ASSERT_TRUE(all);
  EXPECT_EQ(all.value(), pt::tls_cert_names());
  EXPECT_EQ(pt::tls_cert_names().size(), 6u);
  auto g = pt::parse_tls_groups("mlkem768,x25519");  // OpenSSL's names, any case
  ASSERT_TRUE(g);
  EXPECT_EQ(g.value(), (std::vector<std::string>{"X25519", "MLKEM768"}));
  auto ga = pt::parse_tls_groups("all");
  ASSERT_TRUE(ga);
  EXPECT_EQ(ga.value(), (std::vector<std::string>{"X25519", "X25519MLKEM768", "MLKEM768"}));
  auto bad = pt::parse_tls_certs("rsa-2048,rsa-4096");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, pqsig::Errc::invalid_argument);
  EXPECT_NE(bad.error().message.find("rsa-4096"), std::string::npos);
  EXPECT_NE(bad.error().message.find("ml-dsa-65"), std::string::npos);  // names the known ones
  EXPECT_FALSE(pt::parse_tls_groups("P-256"));
}

TEST(PriceTls, VerdictArithmeticOnKnownFigures) {
  pt::TlsReport r;
  r.options.per_round = 42;
  r.options.parties = 7;
  r.options.budget_ms = 5;
  auto row = [](const char* cert, const char* group, double total_ms) {
    pt::TlsRow x;
    x.cert = cert;
    x.group = group;
    x.state = pt::TlsRowState::ok;
    x.handshakes = 3;
    x.total = pt::compute_stats({total_ms * 1e6, total_ms * 1e6, total_ms * 1e6});
    return x;
  };
  // The write-up's loopback figures (settlement write-up): RSA-2048 1.07 ms, Ed25519 0.56 ms,
  // ML-DSA-65 x X25519MLKEM768 2.19 ms per mutual handshake.
  r.rows.push_back(row("rsa-2048", "X25519", 1.07));
  r.rows.push_back(row("ed25519", "X25519", 0.56));
  r.rows.push_back(row("ml-dsa-65", "X25519MLKEM768", 2.19));
  pt::TlsRow missing;
  missing.cert = "ml-dsa-87";
  missing.group = "MLKEM768";
  missing.reason = "no ML-DSA-87";
  r.rows.push_back(missing);
  pt::analyze_tls(r);
  EXPECT_EQ(r.party_handshakes, 12u);  // 2 x 42 / 7
  ASSERT_NE(r.anchor(), nullptr);
  EXPECT_NEAR(r.rows[0].round_cpu_ms, 42 * 1.07, 1e-9);
  EXPECT_NEAR(r.rows[0].party_ms, 12 * 1.07, 1e-9);
  EXPECT_NEAR(r.rows[0].added_party_ms, 0, 1e-9);
  EXPECT_TRUE(r.rows[1].fits_budget);
  EXPECT_NEAR(r.rows[1].added_party_ms, 12 * (0.56 - 1.07), 1e-9);
  // The write-up's "about +13 ms per round": 12 x (2.19 - 1.07) = 13.44 ms, over the 5 ms budget.
  EXPECT_NEAR(r.rows[2].added_party_ms, 13.44, 1e-9);
  EXPECT_NEAR(r.rows[2].added_round_cpu_ms, 42 * (2.19 - 1.07), 1e-9);
  EXPECT_FALSE(r.rows[2].fits_budget);
  EXPECT_FALSE(r.rows[3].has_anchor);
  const std::string text = pt::render_tls_text(r);
  for (const char* s : {"42 handshakes per round", "7 parties", "12 handshakes", "round CPU = 42 x (client+server)",
                        "party latency = 12 x (client+server)", "anchor rsa-2048 x X25519", "latency budget 5 ms",
                        "over x2.7", "unavailable: no ML-DSA-87"})
    EXPECT_NE(text.find(s), std::string::npos) << s << "\n" << text;
  auto j = nlohmann::json::parse(pt::render_tls_json(r));
  EXPECT_EQ(j["options"]["party_handshakes"], 12);
  EXPECT_EQ(j["rows"][0]["verdict"], "anchor");
  EXPECT_EQ(j["rows"][1]["verdict"], "fits");
  EXPECT_EQ(j["rows"][2]["verdict"], "over");
  EXPECT_EQ(j["rows"][3]["state"], "unavailable");
  EXPECT_EQ(j["rows"][3]["reason"], "no ML-DSA-87");
  // Without the anchor there are no added figures and no verdicts, and the text says why.
  r.rows.erase(r.rows.begin());
  pt::analyze_tls(r);
  EXPECT_EQ(r.anchor(), nullptr);
  EXPECT_FALSE(r.rows[0].has_anchor);
  EXPECT_NE(pt::render_tls_text(r).find("no verdicts: the anchor rsa-2048 x X25519 was not measured"),
            std::string::npos);
}

TEST(PriceTls, HandshakesRunUnderTheLoadedOpenSsl) {
  pt::TlsOptions o;
  o.certs = {"rsa-2048", "ecdsa-p256", "ed25519", "ml-dsa-65"};
  o.groups = {"X25519", "X25519MLKEM768"};
  o.handshakes = 2;
  std::vector<std::string> seen;
  const auto r = pt::measure_tls(o, [&](const std::string& s) { seen.push_back(s); });
  ASSERT_EQ(r.rows.size(), 8u);  // every pair listed, none dropped
  EXPECT_EQ(seen.size(), 8u);
  EXPECT_FALSE(r.interrupted);
  EXPECT_NE(r.libssl_version.find("OpenSSL 3."), std::string::npos);
  for (const char* cert : {"rsa-2048", "ecdsa-p256", "ed25519"}) {
    const auto* row = tls_test_row(r, cert, "X25519");
    ASSERT_NE(row, nullptr) << cert;
    ASSERT_EQ(row->state, pt::TlsRowState::ok) << cert << ": " << row->reason;
    EXPECT_EQ(row->handshakes, 2u);
    EXPECT_GT(row->client.median_ns, 0) << cert;
    EXPECT_GT(row->server.median_ns, 0) << cert;
    EXPECT_NEAR(row->total.mean_ns, row->client.mean_ns + row->server.mean_ns, 1e-6 * row->total.mean_ns);
    // Each side sends its leaf and one intermediate (default chain depth 1): two certificates of
    // at least a public key and a signature each, and every record carries them.
    EXPECT_GT(row->chain_bytes_server, 2 * 64u) << cert;
    EXPECT_GT(row->chain_bytes_client, 2 * 64u) << cert;
    EXPECT_GT(row->bytes_s2c, row->chain_bytes_server) << cert;
    EXPECT_GT(row->bytes_c2s, row->chain_bytes_client) << cert;
    EXPECT_LT(row->bytes_s2c, row->chain_bytes_server + 2000) << cert;  // the rest: hellos, verify, finished
    EXPECT_EQ(row->negotiated_group, "X25519");
    EXPECT_FALSE(row->server_sigalg.empty());
    EXPECT_EQ(row->server_sigalg, row->client_sigalg);
  }
  EXPECT_EQ(tls_test_row(r, "rsa-2048", "X25519")->server_sigalg, "rsa_pss_rsae_sha256");
  EXPECT_EQ(tls_test_row(r, "ed25519", "X25519")->server_sigalg, "ed25519");
  // RSA-2048 certificates are larger than Ed25519's (256-byte key and signature vs 32 and 64).
  EXPECT_GT(tls_test_row(r, "rsa-2048", "X25519")->chain_bytes_server,
            tls_test_row(r, "ed25519", "X25519")->chain_bytes_server + 2 * (256 + 256 - 32 - 64));
  ASSERT_NE(r.anchor(), nullptr);
  EXPECT_EQ(r.party_handshakes, 12u);
  for (const auto& row : r.rows) {
    EXPECT_NE(row.state, pt::TlsRowState::error) << row.cert << " x " << row.group << ": " << row.reason;
    const bool ml = row.cert == "ml-dsa-65" || row.group == "X25519MLKEM768";
    if (!ml) continue;
    if (tls_test_has_35()) {
      EXPECT_EQ(row.state, pt::TlsRowState::ok) << row.cert << " x " << row.group << ": " << row.reason;
    } else {
      EXPECT_EQ(row.state, pt::TlsRowState::unavailable) << row.cert << " x " << row.group;
      EXPECT_NE(row.reason.find("OpenSSL 3.0"), std::string::npos) << row.reason;  // names the loaded version
      if (row.cert == "ml-dsa-65") {
        EXPECT_NE(row.reason.find("ML-DSA-65"), std::string::npos) << row.reason;
      }
      if (row.group == "X25519MLKEM768") {
        EXPECT_NE(row.reason.find("X25519MLKEM768"), std::string::npos) << row.reason;
      }
    }
  }
}

TEST(PriceTls, ChainDepthAddsItsCertificatesToTheWire) {
  pt::TlsOptions o;
  o.certs = {"ed25519"};
  o.groups = {"X25519"};
  o.handshakes = 2;
  o.chain_depth = 0;
  const auto r0 = pt::measure_tls(o);
  o.chain_depth = 2;
  const auto r2 = pt::measure_tls(o);
  ASSERT_EQ(r0.rows.size(), 1u);
  ASSERT_EQ(r2.rows.size(), 1u);
  const auto& a = r0.rows[0];
  const auto& b = r2.rows[0];
  ASSERT_EQ(a.state, pt::TlsRowState::ok) << a.reason;
  ASSERT_EQ(b.state, pt::TlsRowState::ok) << b.reason;
  // Two intermediates more per side: the chain grows by two certificates and the wire by that
  // plus each entry's 5 bytes of framing (RFC 8446 §4.4.2) and record overhead — no more: the
  // root is never sent (at depth 0 too).
  EXPECT_GT(b.chain_bytes_server, a.chain_bytes_server + 2 * 100);
  const std::size_t chain_s = b.chain_bytes_server - a.chain_bytes_server;
  const std::size_t chain_c = b.chain_bytes_client - a.chain_bytes_client;
  EXPECT_GE(b.bytes_s2c - a.bytes_s2c, chain_s);
  EXPECT_LE(b.bytes_s2c - a.bytes_s2c, chain_s + 64);
  // (OpenSSL >= 3.2 compresses the client's Certificate message: only the upper bound holds there.)
  if (OpenSSL_version_num() < 0x30200000L) {
    EXPECT_GE(b.bytes_c2s - a.bytes_c2s, chain_c);
  }
  EXPECT_LE(b.bytes_c2s - a.bytes_c2s, chain_c + 64);
}

TEST(PriceTls, CliPrintsTheTablesAndJson) {
  TlsCliRun t = tls_test_cli("price --tls --tls-handshakes 2 --tls-certs ed25519,rsa-2048,ml-dsa-44 --tls-groups "
                             "X25519,MLKEM768 --no-progress");
  ASSERT_EQ(t.code, 0) << t.out;
  for (const char* s : {"Handshakes: thread CPU per handshake", "client->server", "server->client", "chain",
                        "Verdicts: workload 42 handshakes per round", "round CPU", "party latency", "anchor",
                        "ed25519", "ml-dsa-44"})
    EXPECT_NE(t.out.find(s), std::string::npos) << s << "\n" << t.out;
  TlsCliRun j = tls_test_cli("price --tls --tls-handshakes 2 --tls-certs ed25519,rsa-2048 --tls-groups X25519 "
                             "--tls-per-round 20 --tls-parties 5 --tls-budget-ms 2 --tls-chain-depth 0 --json "
                             "--no-progress");
  ASSERT_EQ(j.code, 0) << j.out;
  auto doc = nlohmann::json::parse(j.out);
  ASSERT_TRUE(doc.contains("tls"));
  const auto& tls = doc["tls"];
  EXPECT_EQ(tls["options"]["per_round"], 20);
  EXPECT_EQ(tls["options"]["party_handshakes"], 8);  // 2 x 20 / 5
  EXPECT_EQ(tls["options"]["budget_ms"], 2.0);
  EXPECT_EQ(tls["options"]["chain_depth"], 0);
  ASSERT_EQ(tls["rows"].size(), 2u);
  EXPECT_EQ(tls["rows"][0]["cert"], "rsa-2048");  // display order
  EXPECT_EQ(tls["rows"][0]["verdict"], "anchor");
  EXPECT_EQ(tls["rows"][1]["state"], "ok");
  EXPECT_EQ(tls["rows"][1]["handshakes"], 2);
  EXPECT_GT(tls["rows"][1]["chain_bytes_server"].get<int>(), 0);
  // Bad lists and values are usage errors.
  EXPECT_EQ(tls_test_cli("price --tls --tls-certs rsa-4096").code, 2);
  EXPECT_EQ(tls_test_cli("price --tls --tls-groups secp256r1").code, 2);
  EXPECT_EQ(tls_test_cli("price --tls --tls-handshakes 0").code, 2);
  EXPECT_EQ(tls_test_cli("price --tls --tls-chain-depth 99").code, 2);
  EXPECT_EQ(tls_test_cli("price --tls --tls-handshakes 1 --html /dev/null").code, 2);  // the suite outputs do not apply
  EXPECT_EQ(tls_test_cli("price --tls --tls-handshakes 1 --engine liboqs").code, 2);
}

// The workload's tls object drives `price --tls` (handshakes per round, parties, latency budget,
// chain depth, certs, groups); each --tls-* option overrides its value.
TEST(PriceTls, WorkloadSetsTheVerdictsAndOptionsOverrideIt) {
  const std::string path = (::testing::TempDir().empty() ? std::string("/tmp/") : ::testing::TempDir()) +
                           "pqsig_price_tls_" + std::to_string(::getpid()) + "_w.json";
  std::ofstream(path) << R"({"tls": {"handshakes_per_round": 20, "parties": 5, "latency_budget_ms": 0.001,
                                     "chain_depth": 0, "certs": ["ed25519", "rsa-2048"], "groups": ["X25519"]}})";
  // Classical rows only: they run under Debian 12's OpenSSL 3.0 as under 3.5.
  TlsCliRun t = tls_test_cli("price --tls --workload " + path + " --tls-handshakes 2 --json --no-progress");
  ASSERT_EQ(t.code, 0) << t.out;
  const auto doc = nlohmann::json::parse(t.out);
  const auto& o = doc["tls"]["options"];
  EXPECT_EQ(o["per_round"], 20);
  EXPECT_EQ(o["parties"], 5);
  EXPECT_EQ(o["party_handshakes"], 8);  // 2 x 20 / 5
  EXPECT_EQ(o["budget_ms"], 0.001);
  EXPECT_EQ(o["chain_depth"], 0);
  EXPECT_EQ(o["handshakes"], 2);
  const auto& rows = doc["tls"]["rows"];
  ASSERT_EQ(rows.size(), 2u);  // the workload's certs x groups, display order
  EXPECT_EQ(rows[0]["cert"], "rsa-2048");
  EXPECT_EQ(rows[1]["cert"], "ed25519");
  std::size_t depth0_chain = 0;
  for (const auto& r : rows) {
    ASSERT_EQ(r["state"], "ok") << r.dump();
    EXPECT_EQ(r["group"], "X25519");
    const double mean_ms = r["total"]["mean_ns"].get<double>() / 1e6;
    // The verdicts use the workload's figures, not the defaults (42 per round, 12 per party).
    EXPECT_NEAR(r["round_cpu_ms"].get<double>(), 20 * mean_ms, 1e-9 + 1e-9 * mean_ms);
    EXPECT_NEAR(r["party_ms"].get<double>(), 8 * mean_ms, 1e-9 + 1e-9 * mean_ms);
  }
  // Against the 0.001 ms budget: the anchor is the anchor, Ed25519 fits only if it adds <= 0.001 ms.
  EXPECT_EQ(rows[0]["verdict"], "anchor");
  EXPECT_EQ(rows[1]["verdict"], rows[1]["added_party_ms"].get<double>() <= 0.001 ? "fits" : "over");
  // Depth 0: each side sends its leaf only.
  depth0_chain = rows[1]["chain_bytes_server"].get<std::size_t>();
  EXPECT_GT(depth0_chain, 64u);

  // The options override the workload, one by one; the rest stays the workload's.
  TlsCliRun v = tls_test_cli("price --tls --workload " + path +
                             " --tls-handshakes 2 --tls-per-round 10 --tls-chain-depth 2 --tls-certs ed25519 --json "
                             "--no-progress");
  ASSERT_EQ(v.code, 0) << v.out;
  const auto d2 = nlohmann::json::parse(v.out);
  const auto& o2 = d2["tls"]["options"];
  EXPECT_EQ(o2["per_round"], 10);
  EXPECT_EQ(o2["parties"], 5);
  EXPECT_EQ(o2["party_handshakes"], 4);  // 2 x 10 / 5
  EXPECT_EQ(o2["budget_ms"], 0.001);
  EXPECT_EQ(o2["chain_depth"], 2);
  ASSERT_EQ(d2["tls"]["rows"].size(), 1u);
  const auto& e = d2["tls"]["rows"][0];
  ASSERT_EQ(e["state"], "ok") << e.dump();
  EXPECT_EQ(e["cert"], "ed25519");
  EXPECT_EQ(e["group"], "X25519");
  EXPECT_TRUE(e["verdict"].is_null());  // the anchor (rsa-2048) was not in the run
  // Two intermediates more than the workload's depth 0: the chain carries three certificates.
  EXPECT_GT(e["chain_bytes_server"].get<std::size_t>(), depth0_chain + 2 * 64u);

  // --print-workload shows the workload with the overrides applied.
  TlsCliRun pw = tls_test_cli("price --workload " + path + " --tls-parties 3 --tls-budget-ms 7 --print-workload");
  ASSERT_EQ(pw.code, 0) << pw.out;
  const auto w = nlohmann::json::parse(pw.out);
  EXPECT_EQ(w["tls"]["handshakes_per_round"], 20);
  EXPECT_EQ(w["tls"]["parties"], 3);
  EXPECT_EQ(w["tls"]["latency_budget_ms"], 7.0);
  EXPECT_EQ(w["tls"]["chain_depth"], 0);
  EXPECT_EQ(w["tls"]["certs"], nlohmann::json::array({"rsa-2048", "ed25519"}));

  // A bad tls object is a usage error before anything is measured.
  std::ofstream(path) << R"({"tls": {"chain_depth": -1}})";
  EXPECT_EQ(tls_test_cli("price --tls --workload " + path + " --tls-handshakes 1").code, 2);
  std::ofstream(path) << R"({"tls": {"handshakes_per_round": 0}})";
  EXPECT_EQ(tls_test_cli("price --tls --workload " + path + " --tls-handshakes 1").code, 2);
  std::remove(path.c_str());
}
