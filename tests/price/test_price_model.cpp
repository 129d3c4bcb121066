// pqsig price: the sample request (Web Bot Auth signature base, header bytes), the workload file
// (round trip, strict errors), the verdict arithmetic (budget, factor, 431) and Verify Units.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pqsig/price.hpp"
#include "pqsig/price_tls.hpp"

using namespace pqsig;
using namespace pqsig::price;
using json = nlohmann::json;

namespace {
json load_wba_vectors() {
  std::ifstream f(PQSIG_SHARED_DIR "/vectors/webbotauth/test-vectors.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}
}  // namespace

// The signature base and Signature-Input of the draft's sf-dictionary vectors, rebuilt by price.
TEST(PriceRequest, ReproducesWebBotAuthDictionaryVectors) {
  json d = load_wba_vectors();
  int checked = 0;
  for (const auto& v : d["vectors"]) {
    if (v["signatureAgentForm"] != "sf-dictionary") continue;
    SampleRequest r;
    r.authority = v["request"]["authority"];
    std::string agent = v["signatureAgentHeader"];  // agent2="https://signature-agent.test"
    auto eq = agent.find('=');
    r.agent_key = agent.substr(0, eq);
    r.signature_agent = agent.substr(eq + 2, agent.size() - eq - 3);
    r.label = v["label"];
    r.tag = v["tag"];
    SignatureParams p;
    p.alg = v["alg"];
    p.keyid = v["keyid"];
    p.created = v["created"];
    p.expires = v["expires"];
    p.nonce = v["nonce"];
    EXPECT_EQ(signature_base(r, p), v["signatureBase"].get<std::string>()) << v["id"];
    EXPECT_EQ(signature_input_value(r, p), v["signatureInputHeader"].get<std::string>()) << v["id"];
    auto sig = base64_decode(v["signatureBase64"].get<std::string>());
    ASSERT_TRUE(sig.ok());
    EXPECT_EQ(signature_value(r, *sig), v["signatureHeader"].get<std::string>()) << v["id"];
    EXPECT_EQ(sf_byte_sequence_length(sig->size()), v["signatureBase64"].get<std::string>().size() + 2);
    // header bytes = "Signature-Input: " value CRLF + "Signature: " value CRLF
    EXPECT_EQ(signature_header_bytes(r, p, sig->size()),
              17 + v["signatureInputHeader"].get<std::string>().size() + 2 + 11 +
                  v["signatureHeader"].get<std::string>().size() + 2);
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

TEST(PriceRequest, StructuredFieldLengths) {
  EXPECT_EQ(sf_byte_sequence_length(0), 2u);
  EXPECT_EQ(sf_byte_sequence_length(1), 6u);
  EXPECT_EQ(sf_byte_sequence_length(64), 90u);
  EXPECT_EQ(sf_byte_sequence_length(2420), 3230u);    // ML-DSA-44: 3,228 base64 characters + colons
  EXPECT_EQ(sf_byte_sequence_length(17088), 22786u);  // SLH-DSA-128f: 22,784 + colons
}

TEST(PriceRequest, SampleParamsVaryPerMessage) {
  SampleRequest r;
  auto s = find_suite("ml-dsa-44");
  ASSERT_TRUE(s.ok());
  auto a = sample_params(r, **s, 0), b = sample_params(r, **s, 1);
  EXPECT_EQ(a.alg, "ml-dsa-44");
  EXPECT_EQ(a.keyid.size(), 43u);
  EXPECT_EQ(a.nonce.size(), 88u);
  EXPECT_NE(a.nonce, b.nonce);
  EXPECT_NE(a.created, b.created);
  EXPECT_EQ(a.expires - a.created, r.validity_s);
  EXPECT_NE(signature_base(r, a), signature_base(r, b));
  EXPECT_EQ(signature_base(r, a).size(), signature_base(r, b).size());
  // Suites without an HTTP alg token use their id.
  auto slh = find_suite("slh-dsa-sha2-128s");
  ASSERT_TRUE(slh.ok());
  EXPECT_EQ(http_alg_token(**slh), "slh-dsa-sha2-128s");
  auto ed = find_suite("ed25519");
  EXPECT_EQ(http_alg_token(**ed), "ed25519");
}

TEST(PriceRequest, RequestHeaderBytes) {
  SampleRequest r;
  r.method = "GET";
  r.path = "/";
  r.authority = "a.example";
  r.headers = {{"Accept", "*/*"}};
  r.agent_key = "sig1";
  r.signature_agent = "https://x";
  // "GET / HTTP/1.1\r\n" 16 + "Host: a.example\r\n" 17 + "Accept: */*\r\n" 13 +
  // "Signature-Agent: sig1=\"https://x\"\r\n" 35 + "\r\n" 2
  EXPECT_EQ(request_header_bytes(r), 16u + 17u + 13u + 35u + 2u);
}

// ---------------------------------------------------------------- workload
TEST(PriceWorkload, DefaultsAreTheCrawlers) {
  Workload w = default_workload();
  ASSERT_EQ(w.surfaces.size(), 3u);
  EXPECT_EQ(w.surfaces[0].name, "crawl");
  EXPECT_EQ(w.surfaces[0].signatures_per_request, 1);
  EXPECT_EQ(w.surfaces[1].name, "playlist");
  EXPECT_EQ(w.surfaces[1].signatures_per_request, 21);
  EXPECT_EQ(w.surfaces[2].name, "discovery");
  EXPECT_EQ(w.surfaces[2].signatures_per_request, 28);
  EXPECT_EQ(w.cpu_budget_ms, 10);
  EXPECT_EQ(w.production_cpu_factor, 1);
  EXPECT_EQ(w.header_cap_bytes, 8192u);
  EXPECT_EQ(w.block_budget_vu, 200000u);
  EXPECT_EQ(w.vu_reference, "ml-dsa-44");
  EXPECT_TRUE(w.suites.empty());
}

TEST(PriceWorkload, JsonRoundTrip) {
  Workload w = default_workload();
  w.surfaces.push_back({"ledger", 0, 500});
  w.production_cpu_factor = 3;
  w.cpu_budget_ms = 50;
  w.header_cap_bytes = 16384;
  w.block_budget_vu = 123456;
  w.suites = {"ml-dsa-44", "ed25519"};
  w.hybrids = {{"ed25519", "ml-dsa-44"}};
  w.request.authority = "crawl.example";
  w.request.headers = {{"X-A", "1"}};
  std::string j1 = workload_to_json(w);
  auto back = workload_from_json(j1);
  ASSERT_TRUE(back.ok()) << back.error().what();
  EXPECT_EQ(workload_to_json(*back), j1);
  EXPECT_EQ(back->surfaces.size(), 4u);
  EXPECT_EQ(back->surfaces[3].verifications_per_request, 500);
  EXPECT_FALSE(back->surfaces[3].key_reuse);  // the default: cold keys
  EXPECT_EQ(back->production_cpu_factor, 3);
  EXPECT_EQ(back->request.headers.size(), 1u);
  // the default round-trips too, and a partial file keeps the defaults
  auto d = workload_from_json(workload_to_json(default_workload()));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(workload_to_json(*d), workload_to_json(default_workload()));
  auto partial = workload_from_json(R"({"production_cpu_factor": 3})");
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->production_cpu_factor, 3);
  EXPECT_EQ(partial->surfaces.size(), 3u);
}

TEST(PriceWorkload, KeyReusePerSurface) {
  auto w = workload_from_json(
      R"({"surfaces": [{"name": "origin", "signatures_per_request": 0, "verifications_per_request": 3,
                        "key_reuse": true}, {"name": "tls", "signatures_per_request": 1}]})");
  ASSERT_TRUE(w.ok()) << w.error().what();
  ASSERT_EQ(w->surfaces.size(), 2u);
  EXPECT_TRUE(w->surfaces[0].key_reuse);
  EXPECT_FALSE(w->surfaces[1].key_reuse);  // missing: cold
  // printed and read back
  EXPECT_NE(workload_to_json(*w).find("\"key_reuse\": true"), std::string::npos);
  auto back = workload_from_json(workload_to_json(*w));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->surfaces[0].key_reuse);
  // not a boolean: a typed error naming the key
  auto bad = workload_from_json(R"({"surfaces": [{"name": "x", "key_reuse": 1}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::invalid_encoding);
  EXPECT_NE(bad.error().message.find("surfaces[0].key_reuse"), std::string::npos) << bad.error().message;
}

TEST(PriceWorkload, StrictErrors) {
  struct Case {
    const char* text;
    Errc code;
    const char* mention;
  };
  const Case cases[] = {
      {"{", Errc::invalid_encoding, "not valid JSON"},
      {"[]", Errc::invalid_encoding, "must be an object"},
      {R"({"cpu_budget": 10})", Errc::invalid_encoding, "cpu_budget"},
      {R"({"cpu_budget_ms": "10"})", Errc::invalid_encoding, "cpu_budget_ms"},
      {R"({"cpu_budget_ms": -1})", Errc::invalid_argument, "cpu_budget_ms"},
      {R"({"cpu_budget_ms": 0})", Errc::invalid_argument, "cpu_budget_ms"},
      {R"({"production_cpu_factor": true})", Errc::invalid_encoding, "production_cpu_factor"},
      {R"({"header_cap_bytes": 8192.5})", Errc::invalid_encoding, "header_cap_bytes"},
      {R"({"header_cap_bytes": -8})", Errc::invalid_encoding, "header_cap_bytes"},
      {R"({"surfaces": {}})", Errc::invalid_encoding, "surfaces"},
      {R"({"surfaces": [{"name": "a", "sigs": 1}]})", Errc::invalid_encoding, "surfaces[0].sigs"},
      {R"({"surfaces": [{"signatures_per_request": 1}]})", Errc::invalid_encoding, "surfaces[0].name"},
      {R"({"surfaces": [{"name": "a", "signatures_per_request": "many"}]})", Errc::invalid_encoding,
       "signatures_per_request"},
      {R"({"surfaces": [{"name": "a"}, {"name": "a"}]})", Errc::invalid_argument, "duplicate"},
      {R"({"suites": ["ml-dsa-44", "ml-dsa-99"]})", Errc::unknown_suite, "suites[1]"},
      {R"({"suites": "ml-dsa-44"})", Errc::invalid_encoding, "suites"},
      {R"({"vu_reference": "nope"})", Errc::unknown_suite, "vu_reference"},
      {R"({"hybrids": [["ed25519"]]})", Errc::invalid_encoding, "hybrids[0]"},
      {R"({"request": {"host": "x"}})", Errc::invalid_encoding, "request.host"},
      {R"({"request": {"headers": [["A", 1]]}})", Errc::invalid_encoding, "request.headers[0]"},
  };
  for (const auto& c : cases) {
    auto r = workload_from_json(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().code, c.code) << c.text << " -> " << r.error().what();
    EXPECT_NE(r.error().message.find(c.mention), std::string::npos) << c.text << " -> " << r.error().what();
  }
}

TEST(PriceWorkload, TlsDefaultsAreTheSettlementsHandshakes) {
  const Workload w = default_workload();
  EXPECT_EQ(w.tls.handshakes_per_round, 42u);
  EXPECT_EQ(w.tls.parties, 7u);
  EXPECT_EQ(w.tls.latency_budget_ms, 5);
  EXPECT_EQ(w.tls.chain_depth, 1u);
  EXPECT_EQ(w.tls.certs, tls_cert_names());
  EXPECT_EQ(w.tls.groups, tls_group_names());
  // The options the workload gives `price --tls` are TlsOptions' own defaults (the CLI's before).
  const TlsOptions o = tls_options_from_workload(w.tls);
  const TlsOptions d;
  EXPECT_EQ(o.per_round, d.per_round);
  EXPECT_EQ(o.parties, d.parties);
  EXPECT_EQ(o.budget_ms, d.budget_ms);
  EXPECT_EQ(o.chain_depth, d.chain_depth);
  EXPECT_EQ(o.handshakes, d.handshakes);
  // A file without "tls" keeps them; --print-workload shows them.
  auto p = workload_from_json(R"({"cpu_budget_ms": 20})");
  ASSERT_TRUE(p.ok()) << p.error().what();
  EXPECT_EQ(p->tls.handshakes_per_round, 42u);
  EXPECT_EQ(p->tls.certs.size(), 6u);
  const json j = json::parse(workload_to_json(w));
  ASSERT_TRUE(j.contains("tls"));
  EXPECT_EQ(j["tls"]["handshakes_per_round"], 42);
  EXPECT_EQ(j["tls"]["parties"], 7);
  EXPECT_EQ(j["tls"]["latency_budget_ms"], 5.0);
  EXPECT_EQ(j["tls"]["chain_depth"], 1);
  EXPECT_EQ(j["tls"]["certs"].size(), 6u);
  EXPECT_EQ(j["tls"]["groups"], json::array({"X25519", "X25519MLKEM768", "MLKEM768"}));
}

TEST(PriceWorkload, TlsJsonRoundTrip) {
  Workload w = default_workload();
  w.tls.handshakes_per_round = 20;
  w.tls.parties = 5;
  w.tls.latency_budget_ms = 2.5;
  w.tls.chain_depth = 0;
  w.tls.certs = {"rsa-2048", "ml-dsa-65"};
  w.tls.groups = {"X25519MLKEM768"};
  const std::string j1 = workload_to_json(w);
  auto back = workload_from_json(j1);
  ASSERT_TRUE(back.ok()) << back.error().what();
  EXPECT_EQ(workload_to_json(*back), j1);
  EXPECT_EQ(back->tls.handshakes_per_round, 20u);
  EXPECT_EQ(back->tls.parties, 5u);
  EXPECT_EQ(back->tls.latency_budget_ms, 2.5);
  EXPECT_EQ(back->tls.chain_depth, 0u);  // 0 = leaf issued by the root: allowed
  EXPECT_EQ(back->tls.certs, (std::vector<std::string>{"rsa-2048", "ml-dsa-65"}));
  EXPECT_EQ(back->tls.groups, (std::vector<std::string>{"X25519MLKEM768"}));
  const TlsOptions o = tls_options_from_workload(back->tls);
  EXPECT_EQ(o.per_round, 20u);
  EXPECT_EQ(o.parties, 5u);
  EXPECT_EQ(o.budget_ms, 2.5);
  EXPECT_EQ(o.chain_depth, 0u);
  EXPECT_EQ(o.certs, back->tls.certs);
  EXPECT_EQ(o.groups, back->tls.groups);
  // A partial tls object keeps the other defaults; names in any case and order come back
  // canonical, in display order (as --tls-certs / --tls-groups parse them).
  auto part = workload_from_json(
      R"({"tls": {"chain_depth": 3, "certs": ["ML-DSA-44", "ed25519"], "groups": ["mlkem768", "x25519"]}})");
  ASSERT_TRUE(part.ok()) << part.error().what();
  EXPECT_EQ(part->tls.chain_depth, 3u);
  EXPECT_EQ(part->tls.handshakes_per_round, 42u);
  EXPECT_EQ(part->tls.parties, 7u);
  EXPECT_EQ(part->tls.latency_budget_ms, 5);
  EXPECT_EQ(part->tls.certs, (std::vector<std::string>{"ed25519", "ml-dsa-44"}));
  EXPECT_EQ(part->tls.groups, (std::vector<std::string>{"X25519", "MLKEM768"}));
  EXPECT_EQ(part->surfaces.size(), 3u);  // the rest of the workload untouched
}

TEST(PriceWorkload, TlsStrictErrors) {
  struct Case {
    const char* text;
    Errc code;
    const char* mention;
  };
  const Case cases[] = {
      {R"({"tls": []})", Errc::invalid_encoding, "tls: must be an object"},
      {R"({"tls": {"handshakes": 42}})", Errc::invalid_encoding, "tls.handshakes: unknown key"},
      {R"({"tls": {"budget_ms": 5}})", Errc::invalid_encoding, "tls.budget_ms: unknown key"},
      // handshakes_per_round
      {R"({"tls": {"handshakes_per_round": "42"}})", Errc::invalid_encoding, "tls.handshakes_per_round:"},
      {R"({"tls": {"handshakes_per_round": 4.5}})", Errc::invalid_encoding, "tls.handshakes_per_round:"},
      {R"({"tls": {"handshakes_per_round": 0}})", Errc::invalid_argument, "tls.handshakes_per_round:"},
      {R"({"tls": {"handshakes_per_round": -42}})", Errc::invalid_encoding, "tls.handshakes_per_round:"},
      {R"({"tls": {"handshakes_per_round": 1000001}})", Errc::invalid_argument, "tls.handshakes_per_round:"},
      // parties
      {R"({"tls": {"parties": true}})", Errc::invalid_encoding, "tls.parties:"},
      {R"({"tls": {"parties": 0}})", Errc::invalid_argument, "tls.parties:"},
      {R"({"tls": {"parties": -7}})", Errc::invalid_encoding, "tls.parties:"},
      // latency_budget_ms
      {R"({"tls": {"latency_budget_ms": "5"}})", Errc::invalid_encoding, "tls.latency_budget_ms:"},
      {R"({"tls": {"latency_budget_ms": 0}})", Errc::invalid_argument, "tls.latency_budget_ms:"},
      {R"({"tls": {"latency_budget_ms": -5}})", Errc::invalid_argument, "tls.latency_budget_ms:"},
      {R"({"tls": {"latency_budget_ms": null}})", Errc::invalid_encoding, "tls.latency_budget_ms:"},
      // chain_depth (0 is valid: the leaf issued by the root)
      {R"({"tls": {"chain_depth": -1}})", Errc::invalid_encoding, "tls.chain_depth:"},
      {R"({"tls": {"chain_depth": 1.5}})", Errc::invalid_encoding, "tls.chain_depth:"},
      {R"({"tls": {"chain_depth": 9}})", Errc::invalid_argument, "tls.chain_depth:"},
      {R"({"tls": {"chain_depth": "1"}})", Errc::invalid_encoding, "tls.chain_depth:"},
      // certs
      {R"({"tls": {"certs": "rsa-2048"}})", Errc::invalid_encoding, "tls.certs:"},
      {R"({"tls": {"certs": []}})", Errc::invalid_argument, "tls.certs:"},
      {R"({"tls": {"certs": ["rsa-2048", 1]}})", Errc::invalid_encoding, "tls.certs[1]:"},
      {R"({"tls": {"certs": ["rsa-4096"]}})", Errc::invalid_argument, "tls.certs[0]:"},
      {R"({"tls": {"certs": ["rsa-2048", "RSA-2048"]}})", Errc::invalid_argument, "tls.certs[1]: duplicate"},
      {R"({"tls": {"certs": ["rsa-2048,ed25519"]}})", Errc::invalid_argument, "tls.certs[0]:"},
      {R"({"tls": {"certs": ["all"]}})", Errc::invalid_argument, "tls.certs[0]:"},
      {R"({"tls": {"certs": [""]}})", Errc::invalid_argument, "tls.certs[0]:"},
      // groups
      {R"({"tls": {"groups": {"X25519": 1}}})", Errc::invalid_encoding, "tls.groups:"},
      {R"({"tls": {"groups": []}})", Errc::invalid_argument, "tls.groups:"},
      {R"({"tls": {"groups": [null]}})", Errc::invalid_encoding, "tls.groups[0]:"},
      {R"({"tls": {"groups": ["X25519", "secp256r1"]}})", Errc::invalid_argument, "tls.groups[1]:"},
      {R"({"tls": {"groups": ["X25519", "x25519"]}})", Errc::invalid_argument, "tls.groups[1]: duplicate"},
  };
  for (const auto& c : cases) {
    auto r = workload_from_json(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().code, c.code) << c.text << " -> " << r.error().what();
    EXPECT_NE(r.error().message.find(c.mention), std::string::npos) << c.text << " -> " << r.error().what();
  }
}

TEST(PriceWorkload, SelectSuites) {
  Workload w = default_workload();
  auto all = select_suites(w, "");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), all_suites().size());
  auto two = select_suites(w, "ml-dsa-44, ed25519,ml-dsa-44");
  ASSERT_TRUE(two.ok());
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ((*two)[0]->id, "ml-dsa-44");
  EXPECT_EQ((*two)[1]->id, "ed25519");
  auto bad = select_suites(w, "ml-dsa-44,nope");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::unknown_suite);
  w.suites = {"ml-kem-768"};
  auto from_w = select_suites(w, "");
  ASSERT_TRUE(from_w.ok());
  ASSERT_EQ(from_w->size(), 1u);
  EXPECT_EQ((*from_w)[0]->id, "ml-kem-768");
}

// ---------------------------------------------------------------- verdicts
TEST(PriceVerdict, BudgetAndFanOut) {
  Workload w = default_workload();
  // The crawler's JavaScript ML-DSA-44: 8.58 ms per signature, 21 per playlist request.
  auto v = evaluate_surface(w.surfaces[1], w, 8.58e6, 9e6, 0, 0, 4000);
  EXPECT_NEAR(v.cpu_ms_median, 180.18, 1e-9);
  EXPECT_NEAR(v.cpu_ms_p90, 189.0, 1e-9);
  EXPECT_NEAR(v.pct_budget_median, 1801.8, 1e-9);
  EXPECT_FALSE(v.fits_median);
  EXPECT_NEAR(v.over_ms_median, 170.18, 1e-9);
  EXPECT_TRUE(v.header_fits);
  // one crawl signature fits
  auto c = evaluate_surface(w.surfaces[0], w, 8.58e6, 9e6, 0, 0, 4000);
  EXPECT_TRUE(c.fits_median);
  EXPECT_TRUE(c.fits_p90);
  EXPECT_EQ(c.over_ms_median, 0);
  EXPECT_NEAR(c.pct_budget_median, 85.8, 1e-9);
}

TEST(PriceVerdict, BudgetIsSpentOnTheMean) {
  // A rejection loop: median 0.3 ms, mean 0.4 ms, p90 0.45 ms per signature; 28 per request
  // against 10 ms. At the median it would fit (8.4 ms); the budget is spent on the mean (11.2 ms).
  Workload w = default_workload();
  Surface s{"discovery", 28, 0};
  auto v = evaluate_surface(s, w, OpFigures{0.3e6, 0.4e6, 0.45e6}, OpFigures{}, 100, "prepared");
  EXPECT_EQ(v.figure, "prepared");
  EXPECT_NEAR(v.cpu_ms_median, 8.4, 1e-9);
  EXPECT_NEAR(v.cpu_ms_mean, 11.2, 1e-9);
  EXPECT_NEAR(v.cpu_ms_p90, 12.6, 1e-9);
  EXPECT_TRUE(v.fits_median);
  EXPECT_FALSE(v.fits_mean);
  EXPECT_NEAR(v.over_ms_mean, 1.2, 1e-9);
  EXPECT_EQ(verdict_word(v), "over");
  // mean fits, p90 does not: "tail"
  auto t = evaluate_surface(s, w, OpFigures{0.3e6, 0.33e6, 0.45e6}, OpFigures{}, 100);
  EXPECT_EQ(t.figure, "cold");
  EXPECT_TRUE(t.fits_mean);
  EXPECT_FALSE(t.fits_p90);
  EXPECT_EQ(verdict_word(t), "tail");
}

TEST(PriceVerdict, P90CanExceedWhenMedianFits) {
  Workload w = default_workload();
  Surface s{"tail", 10, 0};
  auto v = evaluate_surface(s, w, 0.4e6, 1.2e6, 0, 0, 100);
  EXPECT_NEAR(v.cpu_ms_median, 4.0, 1e-12);
  EXPECT_NEAR(v.cpu_ms_p90, 12.0, 1e-12);
  EXPECT_TRUE(v.fits_median);
  EXPECT_FALSE(v.fits_p90);
  EXPECT_NEAR(v.over_ms_p90, 2.0, 1e-12);
}

TEST(PriceVerdict, ProductionFactorAndVerifications) {
  Workload w = default_workload();
  w.production_cpu_factor = 3;  // production priced the signature at 3x the laptop
  Surface s{"mixed", 2, 5};
  auto v = evaluate_surface(s, w, 0.11e6, 0.2e6, 0.03e6, 0.05e6, 100);
  EXPECT_NEAR(v.cpu_ms_median, 3 * (2 * 0.11 + 5 * 0.03), 1e-12);
  EXPECT_NEAR(v.cpu_ms_p90, 3 * (2 * 0.2 + 5 * 0.05), 1e-12);
  EXPECT_TRUE(v.fits_median);
  Surface crawl28{"discovery", 28, 0};
  auto d = evaluate_surface(crawl28, w, 0.11e6, 0.11e6, 0, 0, 100);  // 28 x 0.33 ms = 9.24 ms
  EXPECT_NEAR(d.cpu_ms_median, 9.24, 1e-9);
  EXPECT_TRUE(d.fits_median);
  w.production_cpu_factor = 4;
  EXPECT_FALSE(evaluate_surface(crawl28, w, 0.11e6, 0.11e6, 0, 0, 100).fits_median);
}

TEST(PriceVerdict, HeaderCap431) {
  Workload w = default_workload();
  EXPECT_TRUE(evaluate_surface(w.surfaces[0], w, 1, 1, 0, 0, 8192).header_fits);
  EXPECT_FALSE(evaluate_surface(w.surfaces[0], w, 1, 1, 0, 0, 8193).header_fits);
  // SLH-DSA-128f's signature alone (22,786 B as an SF byte sequence) is past 8 KiB.
  SampleRequest r;
  auto f = find_suite("slh-dsa-sha2-128f");
  ASSERT_TRUE(f.ok());
  std::size_t total = request_header_bytes(r) + signature_header_bytes(r, sample_params(r, **f, 0), 17088);
  EXPECT_GT(total, 22786u);
  EXPECT_FALSE(evaluate_surface(w.surfaces[0], w, 1, 1, 0, 0, total).header_fits);
  auto m = find_suite("ml-dsa-44");
  std::size_t mtotal = request_header_bytes(r) + signature_header_bytes(r, sample_params(r, **m, 0), 2420);
  EXPECT_TRUE(evaluate_surface(w.surfaces[0], w, 1, 1, 0, 0, mtotal).header_fits);
}

TEST(PriceLedger, VerifyUnits) {
  EXPECT_EQ(verify_units(20.7, 20.7), 100u);
  EXPECT_EQ(verify_units(20.7001, 20.7), 101u);  // ceil
  EXPECT_EQ(verify_units(54.7, 20.7), 265u);     // 264.25 -> 265
  EXPECT_EQ(verify_units(228.5, 86.6), 264u);    // the ledger write-up: ML-DSA-87 dual enforce 264
  EXPECT_EQ(verify_units(10, 20), 50u);
  EXPECT_EQ(verify_units(0, 20), 0u);
  EXPECT_EQ(verify_units(10, 0), 0u);
}

TEST(PriceLedger, BlockEstimate) {
  // ML-DSA-44 at 20.7 us with a 200,000 VU block: 2,000 signatures, 41.4 ms on one core;
  // dual (2x, estimate) 82.8 ms.
  auto l = ledger_row(20.7e3, 20.7e3, 41.4e3, 41.4e3, 200000, 4);
  EXPECT_EQ(l.vu, 100u);
  EXPECT_EQ(l.vu_dual, 100u);
  EXPECT_EQ(l.sigs_per_block, 2000u);
  EXPECT_NEAR(l.block_ms_one_core, 41.4, 1e-9);
  EXPECT_NEAR(l.block_ms_all_cores, 10.35, 1e-9);
  EXPECT_NEAR(l.block_ms_dual_one_core, 82.8, 1e-9);
  EXPECT_NEAR(l.block_ms_dual_all_cores, 20.7, 1e-9);
  EXPECT_TRUE(l.dual_estimated);
  // SLH-DSA-128s at 563 us: VU 2720, 73 signatures, 41.1 ms
  auto s = ledger_row(563e3, 20.7e3, 2 * 563e3, 41.4e3, 200000, 1);
  EXPECT_EQ(s.vu, 2720u);
  EXPECT_EQ(s.sigs_per_block, 73u);
  EXPECT_NEAR(s.block_ms_one_core, 73 * 0.563, 1e-9);
  EXPECT_EQ(s.block_ms_all_cores, s.block_ms_one_core);
}
