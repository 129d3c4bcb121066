// Interop with npm http-message-signatures 1.0.6 (+ @noble/post-quantum ML-DSA-44 through its
// verify/sign hooks): a request we sign with sig1 (Ed25519) and sig2 (ML-DSA-44) is verified by
// it label by label, and we verify requests it signs. Labels: interop;httpsig.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>
#include <nlohmann/json.hpp>
#include <string>

#include "pqsig/jose.hpp"
#include "pqsig/webbotauth.hpp"

using namespace pqsig;
using namespace pqsig::httpsig;
namespace wba = pqsig::webbotauth;
using json = nlohmann::json;

namespace {

const std::string kInterop = std::string(PQSIG_SOURCE_DIR) + "/tests/interop";

bool oracle_available(std::string& why) {
  if (!std::filesystem::exists(kInterop + "/node_modules/http-message-signatures/package.json")) {
    why = "tests/interop/node_modules missing (run scripts/interop-deps.sh)";
    return false;
  }
  if (std::system("node --version > /dev/null 2>&1") != 0) {
    why = "node not found";
    return false;
  }
  return true;
}

std::string run_node(const std::string& mode, const json& input) {
  auto path = std::filesystem::temp_directory_path() / ("pqsig_httpsig_interop_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream f(path);
    f << input.dump();
  }
  std::string cmd = "node '" + kInterop + "/httpsig_interop.mjs' " + mode + " '" + path.string() + "' 2>&1";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
  }
  std::filesystem::remove(path);
  return out;
}

struct Pair {
  std::optional<SigningKey> key;
  std::string keyid;
  json pub_jwk, priv_jwk;
};

// Keys come from a printed seed (PQSIG_TEST_SEED=<n> reproduces a run).
std::uint64_t interop_seed() {
  static const std::uint64_t seed = [] {
    std::uint64_t s;
    if (const char* e = std::getenv("PQSIG_TEST_SEED")) {
      s = std::strtoull(e, nullptr, 10);
    } else {
      std::random_device rd;
      s = (static_cast<std::uint64_t>(rd()) << 32) | rd();
    }
    std::cout << "[ seed ] PQSIG_TEST_SEED=" << s << "\n";
    return s;
  }();
  return seed;
}

std::optional<Pair> make(const char* suite, std::string& why) {
  std::mt19937_64 rng(interop_seed() ^ std::hash<std::string>{}(suite));
  bytes seed(32);
  for (auto& b : seed) b = static_cast<std::uint8_t>(rng());
  ::testing::Test::RecordProperty("seed", std::to_string(interop_seed()));
  auto k = SigningKey::from_private(*find_suite(suite).value(), seed);
  if (!k) {
    why = k.error().message;
    return std::nullopt;
  }
  Pair p;
  if (std::string(suite) == "ed25519") {
    p.pub_jwk = {{"kty", "OKP"}, {"crv", "Ed25519"}, {"x", base64url_encode(k->public_key())}};
    p.priv_jwk = p.pub_jwk;
    p.priv_jwk["d"] = base64url_encode(k->private_key());
  } else {
    p.pub_jwk = {{"kty", "AKP"}, {"alg", "ML-DSA-44"}, {"pub", base64url_encode(k->public_key())}};
    p.priv_jwk = p.pub_jwk;
    p.priv_jwk["priv"] = base64url_encode(k->private_key());
  }
  auto tp = jose::thumbprint(p.pub_jwk.dump());
  p.keyid = tp ? tp.value() : std::string(suite) + "-key";
  p.key = std::move(k.value());
  return p;
}

json headers_json(const Message& m) {
  json h = json::object();
  for (const auto& f : m.headers) h[f.name] = f.value;
  return h;
}

constexpr std::int64_t kCreated = 1785186311;

}  // namespace

TEST(HttpsigInterop, TheyVerifyOurTwoLabelRequest) {
  std::string why;
  ASSERT_TRUE(oracle_available(why)) << why;
  auto ed = make("ed25519", why);
  auto ml = make("ml-dsa-44", why);
  ASSERT_TRUE(ed && ml) << why;
  wba::SignerOptions o;
  o.created = kCreated;
  const std::string agent = "https://bot.example/.well-known/http-message-signatures-directory";
  wba::Signer signer({{"sig1", &*ed->key, ed->keyid, agent}, {"sig2", &*ml->key, ml->keyid, agent}}, o);
  auto req = parse_message("GET /page?q=1 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: pqsig-crawler\r\n\r\n").value();
  auto r = signer.sign(req);
  ASSERT_TRUE(r.ok()) << r.error().what();
  ASSERT_EQ(r->signed_labels.size(), 2u);

  json in = {{"method", "GET"},
             {"url", "https://example.com/page?q=1"},
             {"headers", headers_json(req)},
             {"now", kCreated + 5},
             {"keys", json::array({{{"label", "sig1"}, {"keyid", ed->keyid}, {"alg", "ed25519"}, {"jwk", ed->pub_jwk}},
                                   {{"label", "sig2"}, {"keyid", ml->keyid}, {"alg", "ml-dsa-44"}, {"jwk", ml->pub_jwk}}})}};
  auto out = run_node("verify", in);
  auto j = json::parse(out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << out;
  EXPECT_EQ(j["results"][ed->keyid], true) << out;
  EXPECT_EQ(j["results"][ml->keyid], true) << out;

  // A tampered covered component is rejected by the oracle too.
  in["headers"]["Host"] = "example.org";
  in["url"] = "https://example.org/page?q=1";
  auto bad = json::parse(run_node("verify", in), nullptr, false);
  EXPECT_NE(bad["results"][ed->keyid], true);
  EXPECT_NE(bad["results"][ml->keyid], true);
}

TEST(HttpsigInterop, WeVerifyTheirSignatures) {
  std::string why;
  ASSERT_TRUE(oracle_available(why)) << why;
  auto ed = make("ed25519", why);
  auto ml = make("ml-dsa-44", why);
  ASSERT_TRUE(ed && ml) << why;
  const std::string agent = "sig1=\"https://bot.example\", sig2=\"https://bot.example\"";
  json in = {{"method", "POST"},
             {"url", "https://example.com/submit?x=1"},
             {"headers", {{"Host", "example.com"}, {"Signature-Agent", agent}, {"Content-Type", "application/json"}}},
             {"fields", json::array({"@authority", "signature-agent;key=\"sig1\"", "@method", "@path", "content-type"})},
             {"params", {{"created", kCreated}, {"expires", kCreated + 3600}, {"nonce", "bm9uY2U"}, {"tag", "web-bot-auth"}}},
             {"now", kCreated + 1},
             {"keys", json::array({{{"label", "sig1"}, {"keyid", ed->keyid}, {"alg", "ed25519"}, {"jwk", ed->priv_jwk}},
                                   {{"label", "sig2"}, {"keyid", ml->keyid}, {"alg", "ml-dsa-44"}, {"jwk", ml->priv_jwk},
                                    {"fields", json::array({"@authority", "signature-agent;key=\"sig2\"", "@method", "@path", "content-type"})}}})}};
  auto out = run_node("sign", in);
  auto j = json::parse(out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << out;
  std::string text = "POST /submit?x=1 HTTP/1.1\n";
  for (auto& [k, v] : j["headers"].items()) text += k + ": " + v.get<std::string>() + "\n";
  auto msg = parse_message(text + "\n");
  ASSERT_TRUE(msg.ok()) << msg.error().what();

  KeyStore ks;
  ks.add(ed->keyid, VerifyingKey::from_public(ed->key->suite(), ed->key->public_key()).value());
  ks.add(ml->keyid, VerifyingKey::from_public(ml->key->suite(), ml->key->public_key()).value());
  wba::VerifierOptions vo;
  vo.now = kCreated + 5;
  vo.required_labels = {"sig1", "sig2"};
  auto rep = wba::verify_request(msg.value(), ks, vo);
  ASSERT_EQ(rep.verdicts.size(), 2u) << rep.to_json();
  EXPECT_EQ(rep.verdicts[0].outcome, Outcome::valid) << rep.to_json();
  EXPECT_EQ(rep.verdicts[1].outcome, Outcome::valid) << rep.to_json();
  EXPECT_TRUE(rep.policy_satisfied) << rep.to_json();
}

// ---------------------------------------------------------------- npm web-bot-auth 0.1.3

namespace {
bool wba_oracle(std::string& why) {
  if (!oracle_available(why)) return false;
  if (!std::filesystem::exists(kInterop + "/node_modules/web-bot-auth/package.json")) {
    why = "web-bot-auth not installed";
    return false;
  }
  return true;
}

json wba_check(const Message& m, const std::string& url, const json& jwk, std::int64_t now) {
  json in = {{"method", m.method}, {"url", url}, {"headers", headers_json(m)}, {"now", now}, {"jwk", jwk}};
  auto path = std::filesystem::temp_directory_path() / ("pqsig_wba_compat_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream f(path);
    f << in.dump();
  }
  std::string cmd = "node '" + kInterop + "/httpsig_webbotauth_compat.mjs' '" + path.string() + "' 2>&1";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
  }
  std::filesystem::remove(path);
  auto j = json::parse(out, nullptr, false);
  if (j.is_discarded()) return json{{"ok", false}, {"error", "oracle output: " + out}};
  return j;
}
}  // namespace

TEST(HttpsigInterop, WebBotAuth013OnTheDraftVectors) {
  std::string why;
  ASSERT_TRUE(wba_oracle(why)) << why;
  auto V = json::parse(std::ifstream(std::string(PQSIG_SHARED_DIR) + "/vectors/webbotauth/test-vectors.json"));
  const auto& jwk = V["keys"]["test-key-ed25519"]["publicJwk"];
  std::map<std::string, bool> ok;
  for (const auto& v : V["vectors"]) {
    if (v["alg"] != "ed25519") continue;
    std::string t = "POST /foo?param=Value&Pet=dog HTTP/1.1\nHost: example.com\n";
    if (!v["signatureAgentHeader"].is_null()) t += "Signature-Agent: " + v["signatureAgentHeader"].get<std::string>() + "\n";
    t += "Signature-Input: " + v["signatureInputHeader"].get<std::string>() + "\nSignature: " +
         v["signatureHeader"].get<std::string>() + "\n\n";
    auto r = wba_check(parse_message(t).value(), v["request"]["targetUri"], jwk, v["created"].get<std::int64_t>() + 10);
    ok[v["id"]] = r["ok"].get<bool>();
  }
  EXPECT_TRUE(ok["wba-3"]);   // no Signature-Agent
  EXPECT_TRUE(ok["wba-4"]);   // legacy sf-string Signature-Agent
  EXPECT_FALSE(ok["wba-6"]);  // current dictionary form: rejected (it ignores ;key)
}

TEST(HttpsigInterop, WebBotAuth013OnOurRequests) {
  std::string why;
  ASSERT_TRUE(wba_oracle(why)) << why;
  auto ed = make("ed25519", why);
  auto ml = make("ml-dsa-44", why);
  ASSERT_TRUE(ed) << why;
  const std::string agent = "https://bot.example/.well-known/http-message-signatures-directory";
  auto sign_with = [&](std::vector<wba::LabelKey> labels, bool legacy) {
    wba::SignerOptions o;
    o.created = kCreated;
    o.legacy_signature_agent = legacy;
    auto req = parse_message("GET /page HTTP/1.1\nHost: example.com\n\n").value();
    auto r = wba::Signer(std::move(labels), o).sign(req);
    EXPECT_TRUE(r.ok()) << r.error().what();
    return req;
  };
  // sig1 alone, legacy plain-string Signature-Agent: accepted.
  auto legacy = sign_with({{"sig1", &*ed->key, ed->keyid, agent}}, true);
  EXPECT_EQ(legacy.get("signature-agent").value(), "\"" + agent + "\"");
  auto r1 = wba_check(legacy, "https://example.com/page", ed->pub_jwk, kCreated + 5);
  EXPECT_TRUE(r1["ok"].get<bool>()) << r1.dump();
  // sig1 alone, current dictionary form: rejected (the library signs the whole field, ignoring ;key).
  auto dict = sign_with({{"sig1", &*ed->key, ed->keyid, agent}}, false);
  auto r2 = wba_check(dict, "https://example.com/page", ed->pub_jwk, kCreated + 5);
  EXPECT_FALSE(r2["ok"].get<bool>()) << r2.dump();
  // sig1 alone without Signature-Agent: accepted.
  auto none = sign_with({{"sig1", &*ed->key, ed->keyid, ""}}, false);
  auto r3 = wba_check(none, "https://example.com/page", ed->pub_jwk, kCreated + 5);
  EXPECT_TRUE(r3["ok"].get<bool>()) << r3.dump();
  if (ml) {
    // two labels: rejected ("Multiple signatures is not supported").
    auto two = sign_with({{"sig1", &*ed->key, ed->keyid, ""}, {"sig2", &*ml->key, ml->keyid, ""}}, false);
    auto r4 = wba_check(two, "https://example.com/page", ed->pub_jwk, kCreated + 5);
    EXPECT_FALSE(r4["ok"].get<bool>()) << r4.dump();
    EXPECT_NE(r4["error"].get<std::string>().find("Multiple signatures"), std::string::npos) << r4.dump();
  }
}
