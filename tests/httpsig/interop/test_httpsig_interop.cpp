// Interop with npm http-message-signatures 1.0.6 (+ @noble/post-quantum ML-DSA-44 through its
// verify/sign hooks): a request we sign with sig1 (Ed25519) and sig2 (ML-DSA-44) is verified by
// it label by label, and we verify requests it signs. Labels: interop;httpsig.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
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

std::optional<Pair> make(const char* suite, std::string& why) {
  auto k = SigningKey::generate(*find_suite(suite).value());
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
  if (!oracle_available(why)) GTEST_SKIP() << why;
  auto ed = make("ed25519", why);
  auto ml = make("ml-dsa-44", why);
  if (!ed || !ml) GTEST_SKIP() << "backend not in this build: " << why;
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
  if (!oracle_available(why)) GTEST_SKIP() << why;
  auto ed = make("ed25519", why);
  auto ml = make("ml-dsa-44", why);
  if (!ed || !ml) GTEST_SKIP() << "backend not in this build: " << why;
  const std::string agent = "sig1=\"https://bot.example\", sig2=\"https://bot.example\"";
  json in = {{"method", "POST"},
             {"url", "https://example.com/submit?x=1"},
             {"headers", {{"Host", "example.com"}, {"Signature-Agent", agent}, {"Content-Type", "application/json"}}},
             {"fields", json::array({"@authority", "signature-agent;key=\"sig1\"", "@method", "@path", "content-type"})},
             {"params", {{"created", kCreated}, {"expires", kCreated + 3600}, {"nonce", "bm9uY2U"}, {"tag", "web-bot-auth"}}},
             {"keys", json::array({{{"label", "sig1"}, {"keyid", ed->keyid}, {"alg", "ed25519"}, {"jwk", ed->priv_jwk}},
                                   {{"label", "sig2"}, {"keyid", ml->keyid}, {"alg", "ml-dsa-44"}, {"jwk", ml->priv_jwk}}})}};
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
