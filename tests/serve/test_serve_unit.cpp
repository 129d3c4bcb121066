// Unit tests of the network parts without the network: policy, Signature-Agent / agent cards,
// replay stores, the directory cache (injected fetch), the verifier's decisions and the signing
// client's key cache, degradation and header cap.
#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "pqsig/client.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/serve.hpp"
#include "support/silent_listener.hpp"

namespace {

namespace hs = pqsig::httpsig;
namespace sv = pqsig::serve;
namespace cl = pqsig::client;
using pqsig::Errc;

constexpr std::int64_t kNow = 1'790'000'000;

struct Keys {
  std::string ed_priv, ed_pub, ml_priv, ml_pub, other_pub;
};

const Keys& keys() {
  static Keys k = [] {
    Keys out;
    auto make = [](const char* suite, std::string& priv, std::string& pub) {
      auto s = pqsig::find_suite(suite);
      auto key = pqsig::SigningKey::generate(*s.value());
      priv = pqsig::jose::to_jwk(key.value(), true).value();
      pub = pqsig::jose::to_jwk(key.value(), false).value();
    };
    make("ed25519", out.ed_priv, out.ed_pub);
    make("ml-dsa-44", out.ml_priv, out.ml_pub);
    std::string unused;
    make("ed25519", unused, out.other_pub);
    return out;
  }();
  return k;
}

std::string jwks(std::initializer_list<std::string> ks) {
  std::vector<std::string> v(ks);
  return pqsig::jose::make_jwks(v).value();
}

cl::ClientOptions client_opts(std::int64_t now = kNow) {
  cl::ClientOptions o;
  o.keys = {{"sig1", keys().ed_priv}, {"sig2", keys().ml_priv}};
  o.agent = "https://agent.example";
  o.clock = [now] { return now; };
  o.log = [](std::string_view) {};
  return o;
}

hs::Message signed_request(std::int64_t created = kNow, std::string_view host = "origin.example") {
  cl::Client c(client_opts(created));
  cl::Url u;
  u.scheme = "https";
  u.host = std::string(host);
  u.port = 443;
  u.path_query = "/page?x=1";
  auto m = c.build_signed("GET", u, {}, {});
  EXPECT_TRUE(m.ok()) << (m ? "" : m.error().what());
  return m.value();
}

struct VerifierFixture {
  sv::Metrics metrics;
  sv::MemoryReplayStore replay;
  std::unique_ptr<sv::Verifier> v;
  explicit VerifierFixture(sv::Policy pol = {}, std::vector<std::string> static_keys = {},
                           sv::ReplayStore* store = nullptr, bool fail_open = false) {
    if (static_keys.empty()) static_keys = {jwks({keys().ed_pub, keys().ml_pub})};
    sv::VerifyOptions o;
    o.policy = std::move(pol);
    if (o.policy.authorities.empty()) o.policy.authorities = {"origin.example"};  // what signed_request() addresses
    o.replay_fail_open = fail_open;
    auto r = sv::Verifier::create(o, static_keys, nullptr, store ? store : &replay, &metrics);
    EXPECT_TRUE(r.ok()) << (r ? "" : r.error().what());
    v = std::move(r.value());
  }
};

// ------------------------------------------------------------------ policy

TEST(ServePolicy, DefaultsAreSafe) {
  sv::Policy p;
  ASSERT_EQ(p.required_components.size(), 1u);
  EXPECT_EQ(p.required_components[0], "\"@authority\"");
  EXPECT_EQ(p.required_tag, "web-bot-auth");
  EXPECT_LE(p.max_validity, 86400);
}

TEST(ServePolicy, StrictParsing) {
  auto ok = sv::parse_policy(R"({"required_tag":"web-bot-auth","required_components":["signature-agent"],
    "clock_skew":30,"max_validity":600,"max_age":120,"required_labels":["sig1"],"algorithms":["ed25519"],
    "min_valid":1,"require_nonce":true,"agents":["https://a.example"]})");
  ASSERT_TRUE(ok.ok()) << ok.error().what();
  EXPECT_EQ(ok->clock_skew, 30);
  EXPECT_EQ(ok->max_validity, 600);
  EXPECT_EQ(ok->max_age.value(), 120);
  EXPECT_TRUE(ok->require_nonce);
  // "@authority" is always required, even when the file lists other components only.
  ASSERT_EQ(ok->required_components.size(), 2u);
  EXPECT_EQ(ok->required_components[0], "\"@authority\"");
  EXPECT_EQ(ok->required_components[1], "\"signature-agent\"");

  for (const char* bad : {R"({"unknown":1})", R"({"clock_skew":"60"})", R"({"clock_skew":100000})",
                          R"({"max_validity":0})", R"({"max_validity":86401})", R"({"algorithms":["rot13"]})",
                          R"({"algorithms":[]})", R"({"required_labels":["Sig 1"]})", R"({"min_valid":0})",
                          R"({"require_nonce":1})", R"([1,2])", R"({"clock_skew":1,"clock_skew":2})", "not json",
                          R"({"required_components":["@bogus"]})"}) {
    EXPECT_FALSE(sv::parse_policy(bad).ok()) << bad;
  }
  EXPECT_FALSE(sv::parse_policy(std::string(sv::kMaxPolicyBytes + 1, ' ')).ok());
}

// ------------------------------------------------------------------ Signature-Agent, agent cards

TEST(ServeAgent, SignatureAgentForms) {
  auto d = sv::parse_signature_agent(R"(sig1="https://a.example", sig2="https://b.example/jwks";type=jwks_uri, sig3="https://c.example/card";type=cimd)");
  ASSERT_TRUE(d.ok()) << d.error().what();
  ASSERT_EQ(d->size(), 3u);
  EXPECT_EQ((*d)[0].second.type, sv::AgentType::directory);
  EXPECT_EQ((*d)[1].second.type, sv::AgentType::jwks_uri);
  EXPECT_EQ((*d)[2].second.type, sv::AgentType::cimd);
  auto legacy = sv::parse_signature_agent(R"("https://a.example")");
  ASSERT_TRUE(legacy.ok());
  EXPECT_EQ((*legacy)[0].second.url, "https://a.example");
  EXPECT_FALSE(sv::parse_signature_agent(R"(sig1="https://a";type=carrier-pigeon)").ok());
  EXPECT_FALSE(sv::parse_signature_agent("sig1=42").ok());
  EXPECT_FALSE(sv::parse_signature_agent("((((").ok());
  EXPECT_FALSE(sv::parse_signature_agent(std::string(5000, 'a')).ok());
}

TEST(ServeAgent, CardValidation) {
  std::string url = "https://agent.example/card.json";
  auto ok = sv::validate_agent_card(R"({"client_id":"https://agent.example/card.json","client_name":"Bot",
     "web_bot_auth":{},"jwks":{"keys":[]}})", url);
  ASSERT_TRUE(ok.ok()) << ok.error().what();
  EXPECT_FALSE(ok->jwks.empty());
  auto uri = sv::validate_agent_card(R"({"client_id":"https://agent.example/card.json","jwks_uri":"https://agent.example/k"})", url);
  ASSERT_TRUE(uri.ok());
  EXPECT_EQ(uri->jwks_uri, "https://agent.example/k");
  EXPECT_FALSE(sv::validate_agent_card(R"({"client_id":"https://evil.example/card.json","jwks":{"keys":[]}})", url).ok());
  EXPECT_FALSE(sv::validate_agent_card(R"({"client_id":"https://agent.example/card.json"})", url).ok());
  EXPECT_FALSE(sv::validate_agent_card(R"({"client_id":"https://agent.example/card.json","jwks":{"keys":[]},"jwks_uri":"x"})", url).ok());
  EXPECT_FALSE(sv::validate_agent_card(R"({"client_id":"https://agent.example/card.json","jwks":{},"web_bot_auth":1})", url).ok());
  EXPECT_FALSE(sv::validate_agent_card("[]", url).ok());
  // A jwks_uri must be an https URL (draft §3.1.2): empty, relative or http names no keys (fuzz finding).
  for (const char* bad : {"", "/k", "http://agent.example/k", "x"}) {
    const std::string card = std::string(R"({"client_id":"https://agent.example/card.json","jwks_uri":")") + bad + "\"}";
    EXPECT_FALSE(sv::validate_agent_card(card, url).ok()) << bad;
    EXPECT_FALSE(sv::validate_inline_agent_card(std::string(R"({"jwks_uri":")") + bad + "\"}").ok()) << bad;
  }
}

// ------------------------------------------------------------------ replay stores

TEST(ServeReplay, MemoryStoreSetIfAbsentWithExpiry) {
  sv::MemoryReplayStore s(3);
  // record(keyid, nonce, forget_after, now)
  EXPECT_EQ(s.record("k", "n1", kNow + 10, kNow), sv::NonceOutcome::fresh);
  EXPECT_EQ(s.record("k", "n1", kNow + 15, kNow + 5), sv::NonceOutcome::replayed);
  EXPECT_EQ(s.record("k2", "n1", kNow + 15, kNow + 5), sv::NonceOutcome::fresh);  // per keyid
  EXPECT_EQ(s.record("k", "n1", kNow + 21, kNow + 11), sv::NonceOutcome::fresh);  // expired -> usable again
  EXPECT_EQ(s.record("k", "n2", kNow + 111, kNow + 11), sv::NonceOutcome::fresh);
  // Full of live entries: refuses rather than forgetting (forgetting would re-open replays).
  EXPECT_EQ(s.record("k", "n3", kNow + 111, kNow + 11), sv::NonceOutcome::refused);
  EXPECT_LE(s.size(), 3u);
}

TEST(ServeReplay, RedisUrlAndUnreachable) {
  auto o = sv::RedisReplayStore::parse_url("redis://127.0.0.1:6390/2");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->port, 6390);
  EXPECT_EQ(o->db, 2);
  EXPECT_FALSE(sv::RedisReplayStore::parse_url("http://x").ok());
  EXPECT_FALSE(sv::RedisReplayStore::parse_url("redis://u:p@x:1").ok());
  EXPECT_FALSE(sv::RedisReplayStore::parse_url("redis://x:99999").ok());
  // Port 1 on loopback: nothing listens there (connection refused) -> error, not "fresh".
  o->port = 1;
  o->db = 0;
  sv::RedisReplayStore r(o.value());
  EXPECT_EQ(r.record("k", "n", kNow + 10, kNow), sv::NonceOutcome::error);
}

// ------------------------------------------------------------------ verifier decisions

TEST(ServeVerifier, TwoLabelRequestAccepted) {
  VerifierFixture f;
  auto d = f.v->decide(signed_request(), kNow + 1);
  EXPECT_EQ(d.status, 200) << d.reason << ": " << d.detail;
  EXPECT_EQ(d.label, "sig1");
  EXPECT_EQ(d.alg, "ed25519");
  EXPECT_EQ(d.agent, "https://agent.example");
  EXPECT_EQ(d.labels, (std::vector<std::string>{"sig1", "sig2"}));
  EXPECT_EQ(f.metrics.verified_count(), 1u);
}

TEST(ServeVerifier, Ed25519OnlyPolicyAcceptsTwoLabelRequest) {
  sv::Policy p;
  p.algorithms = {"ed25519"};
  VerifierFixture f(p, {jwks({keys().ed_pub})});
  auto d = f.v->decide(signed_request(), kNow);
  EXPECT_EQ(d.status, 200) << d.reason << ": " << d.detail;
  EXPECT_EQ(d.labels, std::vector<std::string>{"sig1"});
}

TEST(ServeVerifier, Rejections) {
  VerifierFixture f;
  auto expect = [&](const hs::Message& m, std::int64_t now, const char* reason) {
    auto d = f.v->decide(m, now);
    EXPECT_EQ(d.status, 401) << reason;
    EXPECT_EQ(d.reason, reason) << d.detail;
  };
  {  // tampered authority: another site's name is not protected here
    auto m = signed_request();
    m.set("Host", "evil.example");
    expect(m, kNow, "authority_not_protected");
  }
  // expired / future created
  expect(signed_request(kNow - 7200), kNow, "expired");
  expect(signed_request(kNow + 3600), kNow, "created_in_future");
  {  // missing signature
    hs::Message m;
    m.method = "GET";
    m.target = "/";
    m.add("Host", "origin.example");
    expect(m, kNow, "missing_signature");
  }
  {  // garbage Signature
    auto m = signed_request();
    m.set("Signature", "sig1=:%%%not-base64%%%:, ((");
    expect(m, kNow, "malformed_signature");
  }
  {  // oversize header set
    auto m = signed_request();
    m.add("X-Padding", std::string(20000, 'a'));
    expect(m, kNow, "header_too_large");
  }
  {  // replayed nonce
    auto m = signed_request();
    EXPECT_EQ(f.v->decide(m, kNow).status, 200);
    expect(m, kNow, "nonce_replayed");
  }
  EXPECT_GE(f.metrics.rejected_count("nonce_replayed"), 1u);
  EXPECT_NE(f.metrics.render().find("pqsig_rejected_total{reason=\"expired\"} 1"), std::string::npos);
}

TEST(ServeVerifier, TamperedAuthorityBetweenProtectedNames) {
  sv::Policy p;
  p.authorities = {"origin.example", "www.origin.example"};
  VerifierFixture f(p);
  auto m = signed_request();
  m.set("Host", "www.origin.example");
  auto d = f.v->decide(m, kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "signature_mismatch") << d.detail;
}

TEST(ServeVerifier, UnknownKey) {
  VerifierFixture f({}, {jwks({keys().other_pub})});
  auto d = f.v->decide(signed_request(), kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "unknown_keyid");
}

TEST(ServeVerifier, AuthorityMustBeCovered) {
  VerifierFixture f;
  auto key = pqsig::jose::load_jwk(keys().ed_priv).value();
  hs::Message m;
  m.method = "GET";
  m.target = "/";
  m.add("Host", "origin.example");
  hs::SignSpec s;
  s.label = "sig1";
  s.key = &*key.signing;
  s.keyid = key.thumbprint;
  s.components = {hs::component("@path")};
  s.created = kNow;
  s.expires = kNow + 60;
  s.tag = "web-bot-auth";
  ASSERT_TRUE(hs::sign_message(m, {s}).ok());
  auto d = f.v->decide(m, kNow);
  EXPECT_EQ(d.status, 401);
}

TEST(ServeVerifier, NonceRecordedOnlyAfterVerification) {
  VerifierFixture f;
  auto good = signed_request();
  auto forged = good;
  forged.set("Host", "evil.example");  // same nonce, bad signature
  EXPECT_EQ(f.v->decide(forged, kNow).status, 401);
  EXPECT_EQ(f.replay.size(), 0u);
  EXPECT_EQ(f.v->decide(good, kNow).status, 200);
  EXPECT_EQ(f.replay.size(), 2u);  // sig1 and sig2
  auto again = f.v->decide(good, kNow);
  EXPECT_EQ(again.status, 401);
  EXPECT_EQ(again.reason, "nonce_replayed");
}

TEST(ServeVerifier, NonceNotRecordedWhenThePolicyRefuses) {
  // Both labels verify, but the policy wants a label the request lacks: no nonce is burned, so
  // the same signatures still pass a verifier whose policy they satisfy (one shared store).
  sv::MemoryReplayStore shared;
  sv::Policy strict;
  strict.required_labels = {"sig1", "sig3"};
  VerifierFixture f(strict, {}, &shared);
  VerifierFixture lax({}, {}, &shared);
  auto good = signed_request();
  auto d = f.v->decide(good, kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "policy_not_satisfied") << d.detail;
  EXPECT_EQ(shared.size(), 0u);
  EXPECT_EQ(lax.v->decide(good, kNow).status, 200);
  EXPECT_EQ(shared.size(), 2u);
}

class FailingStore : public sv::ReplayStore {
 public:
  sv::NonceOutcome record(std::string_view, std::string_view, std::int64_t, std::int64_t) override {
    return sv::NonceOutcome::error;
  }
};

TEST(ServeVerifier, ReplayStoreFailureFailsClosedByDefault) {
  FailingStore bad;
  VerifierFixture closed({}, {}, &bad, false);
  auto d = closed.v->decide(signed_request(), kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "nonce_store_unavailable");
  EXPECT_EQ(closed.metrics.nonce_store_errors.load(), 1u);
  VerifierFixture open({}, {}, &bad, true);
  EXPECT_EQ(open.v->decide(signed_request(), kNow).status, 200);
  EXPECT_GE(open.metrics.nonce_fail_open.load(), 1u);
}

TEST(ServeVerifier, RequiredLabelAndMaxAge) {
  sv::Policy p;
  p.required_labels = {"sig2"};
  p.max_age = 60;
  VerifierFixture f(p);
  EXPECT_EQ(f.v->decide(signed_request(), kNow + 10).status, 200);
  auto d = f.v->decide(signed_request(kNow - 200), kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "too_old");
  // sig2 missing (the client's ML-DSA key unusable) -> a policy needing sig2 refuses.
  auto o = client_opts();
  o.keys[1].second = "{}";
  cl::Client c(o);
  cl::Url u{"https", "origin.example", "/", 443, true};
  auto m = c.build_signed("GET", u, {}, {});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(f.v->decide(m.value(), kNow).status, 401);
}

// Bounded random robustness check (seeded, printed): garbage in the signature fields never
// yields a 200 and never crashes; a changed base64 character of a signature never verifies.
TEST(ServeVerifier, RandomGarbageNeverAccepted) {
  std::uint64_t seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  if (const char* e = std::getenv("PQSIG_TEST_SEED")) seed = std::strtoull(e, nullptr, 10);
  std::printf("RandomGarbageNeverAccepted seed=%llu (PQSIG_TEST_SEED to repeat)\n", static_cast<unsigned long long>(seed));
  std::uint64_t x = seed | 1;
  auto rnd = [&x] {  // xorshift64
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  VerifierFixture f;
  const hs::Message base = signed_request();
  const char* fields[] = {"Signature-Input", "Signature", "Signature-Agent"};
  for (int i = 0; i < 300; ++i) {
    hs::Message m = base;
    std::string v;
    std::size_t n = rnd() % 200;
    for (std::size_t k = 0; k < n; ++k) v.push_back(static_cast<char>(0x20 + rnd() % 95));
    const char* field = fields[rnd() % 3];
    m.set(field, v);
    auto d = f.v->decide(m, kNow);
    ASSERT_EQ(d.status, 401) << "seed " << seed << " field " << field << " value " << v;
  }
  // One changed character inside sig1's base64 (not its last 4, which carry padding bits).
  const std::string sig = base.get("signature").value();
  auto start = sig.find("sig1=:") + 6;
  auto end = sig.find(':', start);
  ASSERT_GT(end, start + 8);
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  sv::Policy ed_only;
  ed_only.algorithms = {"ed25519"};  // sig2 skipped: only sig1's bytes decide
  VerifierFixture g(ed_only);
  for (int i = 0; i < 100; ++i) {
    std::string s2 = sig;
    std::size_t pos = start + rnd() % (end - start - 4);
    char c = alphabet[rnd() % 64];
    if (c == s2[pos]) continue;
    s2[pos] = c;
    hs::Message m = base;
    m.set("Signature", s2);
    auto d = g.v->decide(m, kNow);
    ASSERT_EQ(d.status, 401) << "seed " << seed << " pos " << pos;
  }
}

// ------------------------------------------------------------------ directory cache

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/pqsig-serve-unit-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
  std::string write(const std::string& name, const std::string& text) const {
    std::string p = path + "/" + name;
    std::ofstream(p) << text;
    return p;
  }
};

cl::HttpResponse to_response(const hs::Message& m) {
  cl::HttpResponse r;
  r.status = m.status;
  r.headers = m.headers;
  r.body = m.body;
  return r;
}

struct CacheFixture {
  TempDir dir;
  std::unique_ptr<sv::DirectoryPublisher> pub;
  sv::Metrics metrics;
  std::atomic<int> calls{0};
  std::atomic<bool> fail{false};
  std::string signed_for = "agent.example";
  int delay_ms = 0;
  CacheFixture() {
    sv::DirectoryPublisher::Options o;
    o.key_files = {dir.write("ed.jwk", keys().ed_priv), dir.write("ml.jwk", keys().ml_priv)};
    o.max_age = 100;
    o.authorities = {"agent.example", "other.example"};
    pub = std::move(sv::DirectoryPublisher::create(o).value());
  }
  sv::DirectoryCache::Fetch fetch(std::int64_t* now) {
    return [this, now](const std::string& url) -> pqsig::Result<cl::HttpResponse> {
      ++calls;
      if (delay_ms) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      if (fail) return pqsig::Error{Errc::io, "connection refused"};
      EXPECT_EQ(url, "https://agent.example/.well-known/http-message-signatures-directory");
      auto m = pub->respond(signed_for, *now);
      auto r = to_response(m.value());
      r.url = url;
      return r;
    };
  }
};

TEST(ServeDirectoryCache, SignedDirectoryCachedByMaxAge) {
  CacheFixture f;
  std::int64_t now = kNow;
  sv::DirectoryCacheOptions o;
  sv::DirectoryCache c(o, &f.metrics, f.fetch(&now));
  sv::AgentRef a{"https://agent.example", sv::AgentType::directory};
  auto k = c.get(a, now);
  ASSERT_TRUE(k.ok()) << k.error().what();
  EXPECT_TRUE((*k)->store.resolve(pqsig::jose::load_jwk(keys().ed_pub)->thumbprint).has_value());
  EXPECT_TRUE(c.get(a, now + 50).ok());
  EXPECT_EQ(f.calls.load(), 1);
  EXPECT_EQ(f.metrics.dir_hits.load(), 1u);
  now += 101;  // past max-age=100
  EXPECT_TRUE(c.get(a, now).ok());
  EXPECT_EQ(f.calls.load(), 2);
}

TEST(ServeDirectoryCache, RefusesDirectorySignedForAnotherAuthority) {
  CacheFixture f;
  f.signed_for = "other.example";
  std::int64_t now = kNow;
  sv::DirectoryCache c({}, &f.metrics, f.fetch(&now));
  auto k = c.get({"https://agent.example", sv::AgentType::directory}, now);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.error().message.find("directory signature"), std::string::npos) << k.error().message;
}

TEST(ServeDirectoryCache, UnsignedOrGarbageDirectoryRefused) {
  sv::Metrics m;
  for (std::string body : {jwks({keys().ed_pub}), std::string("garbage{{{"), std::string()}) {
    sv::DirectoryCache c({}, &m, [body](const std::string& url) -> pqsig::Result<cl::HttpResponse> {
      cl::HttpResponse r;
      r.status = 200;
      r.url = url;
      r.headers = {{"Content-Type", "application/http-message-signatures-directory+json"}};
      r.body = body;
      return r;
    });
    EXPECT_FALSE(c.get({"https://agent.example", sv::AgentType::directory}, kNow).ok());
  }
}

TEST(ServeDirectoryCache, NegativeCachingAndStaleWhileError) {
  CacheFixture f;
  std::int64_t now = kNow;
  sv::DirectoryCacheOptions o;
  o.negative_ttl = 30;
  o.stale_cap = 200;
  sv::DirectoryCache c(o, &f.metrics, f.fetch(&now));
  sv::AgentRef a{"https://agent.example", sv::AgentType::directory};
  ASSERT_TRUE(c.get(a, now).ok());
  f.fail = true;
  now += 150;  // expired (max-age 100), fetch fails -> stale keys served
  EXPECT_TRUE(c.get(a, now).ok());
  EXPECT_EQ(f.calls.load(), 2);
  EXPECT_TRUE(c.get(a, now + 10).ok());  // within negative_ttl: no new fetch
  EXPECT_EQ(f.calls.load(), 2);
  EXPECT_GE(f.metrics.dir_stale.load(), 1u);
  now += 200;  // past fresh + stale_cap: refused
  EXPECT_FALSE(c.get(a, now).ok());
  // Unknown agent that fails: negative-cached.
  sv::AgentRef b{"https://agent.example", sv::AgentType::jwks_uri};
  int before = f.calls.load();
  EXPECT_FALSE(c.get(b, now).ok());
  EXPECT_FALSE(c.get(b, now + 1).ok());
  EXPECT_EQ(f.calls.load(), before + 1);
  EXPECT_GE(f.metrics.dir_negative.load(), 1u);
}

TEST(ServeDirectoryCache, SingleFlightPerDirectory) {
  CacheFixture f;
  f.delay_ms = 200;
  std::int64_t now = kNow;
  sv::DirectoryCacheOptions o;
  o.max_waiters = 8;  // every request may wait here (the bound itself: ServeHostile.FetchWaitersBounded)
  sv::DirectoryCache c(o, &f.metrics, f.fetch(&now));
  std::atomic<int> ok{0};
  std::vector<std::thread> ts;
  for (int i = 0; i < 8; ++i)
    ts.emplace_back([&] {
      if (c.get({"https://agent.example", sv::AgentType::directory}, now).ok()) ++ok;
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(ok.load(), 8);
  EXPECT_EQ(f.calls.load(), 1);
}

TEST(ServeDirectoryCache, BoundedEntries) {
  sv::Metrics m;
  sv::DirectoryCacheOptions o;
  o.max_entries = 2;
  sv::DirectoryCache c(o, &m, [](const std::string&) -> pqsig::Result<cl::HttpResponse> {
    return pqsig::Error{Errc::io, "down"};
  });
  for (int i = 0; i < 5; ++i) (void)c.get({"https://a" + std::to_string(i) + ".example", sv::AgentType::directory}, kNow + i);
  EXPECT_LE(c.size(), 2u);
}

TEST(ServeDirectoryCache, AgentCardWithInlineKeys) {
  sv::Metrics m;
  std::string card = R"({"client_id":"https://agent.example/card","jwks":)" + jwks({keys().ed_pub}) + "}";
  sv::DirectoryCache c({}, &m, [card](const std::string& url) -> pqsig::Result<cl::HttpResponse> {
    cl::HttpResponse r;
    r.status = 200;
    r.url = url;
    r.body = card;
    return r;
  });
  auto k = c.get({"https://agent.example/card", sv::AgentType::cimd}, kNow);
  ASSERT_TRUE(k.ok()) << k.error().what();
  EXPECT_EQ((*k)->store.size() >= 1, true);
}

// ------------------------------------------------------------------ publisher

TEST(ServePublisher, SignedResponseAndReload) {
  TempDir d;
  auto p1 = d.write("k.jwk", keys().ed_priv);
  sv::DirectoryPublisher::Options o;
  o.key_files = {p1};
  o.authorities = {"agent.example"};
  auto pub = sv::DirectoryPublisher::create(o);
  ASSERT_TRUE(pub.ok());
  auto r = (*pub)->respond("agent.example", kNow);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->get("content-type").value(), pqsig::webbotauth::kDirectoryMediaType);
  EXPECT_EQ(r->get("cache-control").value(), "max-age=300");
  EXPECT_TRUE(pqsig::webbotauth::verify_directory(r.value(), "agent.example", kNow).policy_satisfied);
  EXPECT_FALSE(pqsig::webbotauth::verify_directory(r.value(), "evil.example", kNow).policy_satisfied);
  // Rotation: the new key is published after reload; a broken file keeps the old state.
  d.write("k.jwk", keys().ml_priv);
  ASSERT_TRUE((*pub)->reload().ok());
  auto r2 = (*pub)->respond("agent.example", kNow);
  EXPECT_NE(r2->body.find("ML-DSA-44"), std::string::npos);
  d.write("k.jwk", "garbage");
  EXPECT_FALSE((*pub)->reload().ok());
  EXPECT_NE((*pub)->respond("agent.example", kNow)->body.find("ML-DSA-44"), std::string::npos);
}

// ------------------------------------------------------------------ signing client

TEST(ServeClient, KeyCacheKeyedBySecret) {
  cl::KeyCache kc;
  auto a = kc.get(keys().ml_priv);
  auto b = kc.get(keys().ml_priv);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->key.get(), b->key.get());
  EXPECT_EQ(kc.derivations(), 1u);
  // Rotation: a new secret is derived, never served from the old entry.
  auto fresh = pqsig::SigningKey::generate(*pqsig::find_suite("ml-dsa-44").value());
  auto rotated = kc.get(pqsig::jose::to_jwk(fresh.value(), true).value());
  ASSERT_TRUE(rotated.ok());
  EXPECT_EQ(kc.derivations(), 2u);
  EXPECT_NE(rotated->keyid, a->keyid);
  EXPECT_FALSE(kc.get("{\"kty\":\"OKP\"}").ok());
}

TEST(ServeClient, RotationChangesSigningKey) {
  cl::Client c(client_opts());
  cl::Url u{"https", "origin.example", "/", 443, true};
  auto m1 = c.build_signed("GET", u, {}, {});
  auto fresh = pqsig::SigningKey::generate(*pqsig::find_suite("ml-dsa-44").value());
  ASSERT_TRUE(c.set_key("sig2", pqsig::jose::to_jwk(fresh.value(), true).value()).ok());
  auto m2 = c.build_signed("GET", u, {}, {});
  ASSERT_TRUE(m1.ok() && m2.ok());
  std::string kid_new = pqsig::jose::load_jwk(pqsig::jose::to_jwk(fresh.value(), false).value())->thumbprint;
  EXPECT_EQ(m1->get("signature-input")->find(kid_new), std::string::npos);
  EXPECT_NE(m2->get("signature-input")->find(kid_new), std::string::npos);
}

TEST(ServeClient, PqFailureDegradesToSig1AndLogsOnce) {
  pqsig::webbotauth::reset_log_once();
  int logged = 0;
  auto o = client_opts();
  o.keys[1].second = "{\"kty\":\"AKP\",\"alg\":\"ML-DSA-44\",\"priv\":\"broken\"}";
  o.log = [&logged](std::string_view) { ++logged; };
  cl::Client c(o);
  cl::Url u{"https", "origin.example", "/", 443, true};
  for (int i = 0; i < 3; ++i) {
    std::vector<std::string> labels;
    auto m = c.build_signed("GET", u, {}, {}, &labels);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(labels, std::vector<std::string>{"sig1"});
  }
  EXPECT_EQ(logged, 1);
  pqsig::webbotauth::set_log_sink(nullptr);
}

TEST(ServeClient, HeaderCapCheckedBeforeSigning) {
  auto o = client_opts();
  o.header_cap = 3000;  // ML-DSA-44 signature alone is 3228 bytes of base64
  cl::Client c(o);
  cl::Url u{"https", "origin.example", "/", 443, true};
  auto m = c.build_signed("GET", u, {}, {});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Errc::policy);
}

TEST(ServeClient, UrlParsing) {
  auto u = cl::parse_url("https://Example.COM:8443/a/b?c=d");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->authority(), "example.com:8443");
  EXPECT_EQ(u->path_query, "/a/b?c=d");
  EXPECT_EQ(cl::parse_url("https://example.com:443/")->authority(), "example.com");
  EXPECT_FALSE(cl::parse_url("ftp://example.com/").ok());
  EXPECT_FALSE(cl::parse_url("https://user:pw@example.com/").ok());
  EXPECT_EQ(cl::resolve_url("https://a.example/x/y", "/z").value(), "https://a.example/z");
  EXPECT_EQ(cl::resolve_url("https://a.example/x/y", "https://b.example/q").value(), "https://b.example/q");
}

TEST(ServeClient, PrivateAddressesRefusedWhenAsked) {
  cl::HttpLimits l;
  l.allow_http = true;
  l.allow_private_addresses = false;
  for (const char* url : {"http://127.0.0.1:1/", "http://10.0.0.1:1/", "http://[::1]:1/", "http://169.254.169.254/"}) {
    auto r = cl::http_exchange("GET", url, {}, {}, l);
    ASSERT_FALSE(r.ok()) << url;
    EXPECT_EQ(r.error().code, Errc::policy) << url << ": " << r.error().message;
  }
  // The verifier's directory fetcher refuses them by default.
  EXPECT_FALSE(sv::DirectoryCacheOptions{}.http.allow_private_addresses);
}

TEST(ServeDirectoryCache, ConcurrentFetchesBounded) {
  sv::Metrics m;
  sv::DirectoryCacheOptions o;
  o.max_concurrent_fetches = 1;
  std::atomic<bool> entered{false};
  sv::DirectoryCache c(o, &m, [&entered](const std::string&) -> pqsig::Result<cl::HttpResponse> {
    entered = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    return pqsig::Error{Errc::io, "slow and down"};
  });
  std::thread t([&] { (void)c.get({"https://a.example", sv::AgentType::directory}, kNow); });
  for (int i = 0; i < 200 && !entered; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  auto r = c.get({"https://b.example", sv::AgentType::directory}, kNow);
  t.join();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("too many"), std::string::npos) << r.error().message;
}

// A stranger naming one origin under many agent URLs (distinct cache keys) holds at most
// max_fetches_per_origin fetch slots; the next is refused at once, not remembered as a failure,
// and other origins are still fetched.
TEST(ServeDirectoryCache, PerOriginFetchCapHoldsAgainstManyUrls) {
  sv::Metrics m;
  sv::DirectoryCacheOptions o;
  o.max_fetches_per_origin = 2;
  std::atomic<int> entered{0};
  std::atomic<bool> release{false};
  std::atomic<int> other{0};
  sv::DirectoryCache c(o, &m, [&](const std::string& url) -> pqsig::Result<cl::HttpResponse> {
    if (url.find("s.example") != std::string::npos) {
      ++entered;
      for (int i = 0; i < 400 && !release; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } else {
      ++other;
    }
    return pqsig::Error{Errc::io, "down"};
  });
  std::thread t1([&] { (void)c.get({"https://s.example", sv::AgentType::directory}, kNow); });
  std::thread t2([&] { (void)c.get({"https://s.example/", sv::AgentType::directory}, kNow); });
  for (int i = 0; i < 400 && entered < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(entered.load(), 2);
  auto r = c.get({"https://s.example/.well-known/http-message-signatures-directory", sv::AgentType::directory}, kNow);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("too many directory fetches from https://s.example"), std::string::npos) << r.error().message;
  EXPECT_EQ(entered.load(), 2);        // never asked
  EXPECT_EQ(c.negative_size(), 0u);    // and not remembered: the origin is not blamed for our cap
  auto b = c.get({"https://b.example", sv::AgentType::directory}, kNow);  // another origin: fetched
  EXPECT_FALSE(b.ok());
  EXPECT_EQ(other.load(), 1);
  release = true;
  t1.join();
  t2.join();
  EXPECT_NE(m.render().find("pqsig_limit_hits_total{limit=\"directory_fetches_per_origin\"} 1"), std::string::npos);
}

// A request that needs a fetch in flight parks instead of waiting: get() returns at once, and
// the resume is called exactly once when the fetch ends; run again, the request finds the outcome.
// Past max_parked, a request waits as a blocking caller does (bounded), counted.
TEST(ServeDirectoryCache, ParkedRequestsResumeOnceWhenTheFetchEnds) {
  sv::Metrics m;
  sv::DirectoryCacheOptions o;
  o.max_parked = 1;
  std::atomic<bool> entered{false}, release{false};
  sv::DirectoryCache c(o, &m, [&](const std::string&) -> pqsig::Result<cl::HttpResponse> {
    entered = true;
    for (int i = 0; i < 400 && !release; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return pqsig::Error{Errc::io, "stranger down"};
  });
  const sv::AgentRef a{"https://slow.example", sv::AgentType::directory};
  std::thread t([&] { (void)c.get(a, kNow); });  // the fetch (a test fetch runs on its caller's thread)
  for (int i = 0; i < 400 && !entered; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(entered.load());
  std::atomic<int> resumed{0};
  sv::DirectoryCache::Park p;
  p.resume = [&] { ++resumed; };
  auto t0 = std::chrono::steady_clock::now();
  auto r = c.get(a, kNow, &p);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(1000));  // did not wait for the fetch
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(p.parked);
  EXPECT_EQ(c.parked(), 1u);
  EXPECT_EQ(resumed.load(), 0);
  // The second parker is over max_parked: it waits (on its own thread) like a blocking caller.
  sv::DirectoryCache::Park p2;
  p2.resume = [&] { ++resumed; };
  std::thread t2([&] { (void)c.get(a, kNow, &p2); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  release = true;
  t.join();
  t2.join();
  EXPECT_FALSE(p2.parked);
  EXPECT_EQ(resumed.load(), 1);
  EXPECT_EQ(c.parked(), 0u);
  sv::DirectoryCache::Park again;
  again.resume = [&] { ++resumed; };
  auto r2 = c.get(a, kNow, &again);  // the outcome is filed: answered, not parked
  EXPECT_FALSE(again.parked);
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.error().message.find("stranger down"), std::string::npos) << r2.error().message;
  EXPECT_NE(m.render().find("pqsig_limit_hits_total{limit=\"directory_parked\"} 1"), std::string::npos);
}

// The per-address cap, live on the asynchronous fetcher: one address holds at most
// max_per_address connections; a fetch over it fails at once, flagged busy (not the server's
// answer). Sockets on 127.0.0.1 that never answer stand for a stranger's many host names.
TEST(ServeClient, AsyncFetcherCapsConnectionsPerAddress) {
  const auto silent = pqsig::test::listen_silently();
  ASSERT_GE(silent.fd, 0);
  const int hole = silent.fd;
  const std::string url = silent.origin + "/";
  cl::AsyncFetcher::Options fo;
  fo.max_per_address = 2;
  cl::HttpLimits l;
  l.allow_http = true;
  l.allow_private_addresses = true;
  l.connect_timeout_ms = 1500;
  l.total_timeout_ms = 1500;
  std::mutex mu;
  std::condition_variable cv;
  int done = 0, busy = 0, failed_late = 0;
  auto t0 = std::chrono::steady_clock::now();
  {
    cl::AsyncFetcher f(fo);
    for (int i = 0; i < 5; ++i)
      f.start(url, {}, l, [&](pqsig::Result<cl::HttpResponse> r, bool b) {
        std::lock_guard<std::mutex> lock(mu);
        ++done;
        if (b) {
          ++busy;
          EXPECT_FALSE(r.ok());
          EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(1200));  // at once
        } else if (!r.ok()) {
          ++failed_late;
        }
        cv.notify_all();
      });
    std::unique_lock<std::mutex> lock(mu);
    cv.wait_for(lock, std::chrono::seconds(10), [&] { return done == 5; });
  }
  EXPECT_EQ(done, 5);
  EXPECT_EQ(busy, 3);
  EXPECT_EQ(failed_late, 2);  // the two that connected hung until the timeout
  close(hole);
}

TEST(ServeClient, PlainHttpRefusedByDefault) {
  cl::HttpLimits l;
  auto r = cl::http_exchange("GET", "http://127.0.0.1:1/", {}, {}, l);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::policy);
}


// ------------------------------------------------------------------ issue 20: trust binding

namespace wba = pqsig::webbotauth;
namespace sf = pqsig::sf;

struct Signer1 {  // a private key and its thumbprint
  std::string priv, pub, kid;
  std::unique_ptr<pqsig::SigningKey> key;
  explicit Signer1(const char* suite = "ed25519") {
    auto k = pqsig::SigningKey::generate(*pqsig::find_suite(suite).value());
    priv = pqsig::jose::to_jwk(k.value(), true).value();
    pub = pqsig::jose::to_jwk(k.value(), false).value();
    kid = pqsig::jose::thumbprint(pub).value();
    key = std::make_unique<pqsig::SigningKey>(std::move(k.value()));
  }
};

// A request for origin.example signed by `s` for label sig1 whose covered member names `agent`
// (the Signer's own rule), with `keyid` (default: the key's thumbprint).
hs::Message signed_by(const Signer1& s, const std::string& agent, std::string keyid = {}, std::string host = "origin.example") {
  hs::Message m;
  m.method = "GET";
  m.target = "/page";
  m.add("Host", host);
  wba::SignerOptions o;
  o.created = kNow;
  wba::Signer signer({wba::LabelKey{"sig1", s.key.get(), keyid.empty() ? s.kid : keyid, agent}}, o);
  auto r = signer.sign(m);
  EXPECT_TRUE(r.ok()) << (r ? "" : r.error().what());
  return m;
}

// Serves signed directories (or whatever `bodies` says) for several hosts; every fetch counted.
struct MultiDirectory {
  std::map<std::string, cl::HttpResponse> by_url;
  std::atomic<int> calls{0};
  void directory(const std::string& host, const std::string& body, const Signer1& signer) {
    wba::DirectorySignOptions o;
    o.authority = host;
    o.created = kNow - 10;
    o.expires_in = 3600;
    auto m = wba::sign_directory(body, {{signer.key.get(), signer.kid}}, o);
    EXPECT_TRUE(m.ok()) << (m ? "" : m.error().what());
    by_url["https://" + host + std::string(wba::kDirectoryPath)] = to_response(m.value());
  }
  void plain(const std::string& url, const std::string& body) {
    cl::HttpResponse r;
    r.status = 200;
    r.headers = {{"Content-Type", "application/json"}};
    r.body = body;
    by_url[url] = r;
  }
  sv::DirectoryCache::Fetch fetch() {
    return [this](const std::string& url) -> pqsig::Result<cl::HttpResponse> {
      ++calls;
      auto it = by_url.find(url);
      if (it == by_url.end()) return pqsig::Error{Errc::io, "no such directory: " + url};
      auto r = it->second;
      r.url = url;
      return r;
    };
  }
};

struct TrustFixture {
  sv::Metrics metrics;
  sv::MemoryReplayStore replay;
  MultiDirectory dirs;
  std::unique_ptr<sv::DirectoryCache> cache;
  std::unique_ptr<sv::Verifier> v;
  void start(sv::VerifyOptions o = {}, std::vector<std::string> static_keys = {}) {
    if (o.policy.authorities.empty() && !o.any_authority) o.policy.authorities = {"origin.example"};
    cache = std::make_unique<sv::DirectoryCache>(sv::DirectoryCacheOptions{}, &metrics, dirs.fetch());
    auto r = sv::Verifier::create(o, static_keys, cache.get(), &replay, &metrics);
    ASSERT_TRUE(r.ok()) << r.error().what();
    v = std::move(r.value());
  }
};

// #3 cross-site replay: a signature a bot made for attacker.example is refused at the protected
// site, whatever Host the proxy forwards; the absolute-form request line binds the authority nginx
// routed on, not the Host header.
TEST(ServeAuthority, SignatureForAnotherSiteRefused) {
  VerifierFixture f;  // protects origin.example
  auto d = f.v->decide(signed_request(kNow, "attacker.example"), kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "authority_not_protected") << d.detail;
  EXPECT_EQ(f.metrics.rejected_count("authority_not_protected"), 1u);
  // Absolute-form target naming the protected site, Host naming the attacker's: @authority is the
  // request line's (RFC 9421 §2.2.3), the signature (for attacker.example) does not verify.
  auto m = signed_request(kNow, "attacker.example");
  m.target = "https://origin.example/page?x=1";
  d = f.v->decide(m, kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "signature_mismatch") << d.detail;
  // The protected authority itself, with an explicit default port, still verifies.
  auto ok = signed_request(kNow, "origin.example:443");
  EXPECT_EQ(f.v->decide(ok, kNow).status, 200);
  // A verifier must be told what it protects, or be told explicitly that it does not care.
  sv::VerifyOptions o;
  sv::MemoryReplayStore st;
  EXPECT_FALSE(sv::Verifier::create(o, {jwks({keys().ed_pub})}, nullptr, &st, nullptr).ok());
  o.any_authority = true;
  EXPECT_TRUE(sv::Verifier::create(o, {jwks({keys().ed_pub})}, nullptr, &st, nullptr).ok());
  o.policy.authorities = {"origin.example"};
  EXPECT_FALSE(sv::Verifier::create(o, {jwks({keys().ed_pub})}, nullptr, &st, nullptr).ok());  // both: ambiguous
}

TEST(ServeAuthority, PolicyMemberAndNormalization) {
  auto p = sv::parse_policy(R"({"authorities":["Example.ORG","example.org:8443","[::1]:8089"]})");
  ASSERT_TRUE(p.ok()) << p.error().what();
  EXPECT_EQ(p->authorities.size(), 3u);
  for (const char* bad : {R"({"authorities":[]})", R"({"authorities":["https://example.org"]})", R"({"authorities":["*.example.org"]})",
                          R"({"authorities":["example.org/x"]})", R"({"authorities":["a b"]})", R"({"authorities":["example.org:0"]})",
                          R"({"authorities":["example.org:"]})", R"({"authorities":["user@example.org"]})", R"({"authorities":"x"})"})
    EXPECT_FALSE(sv::parse_policy(bad).ok()) << bad;
  EXPECT_EQ(sv::normalize_authority("Example.ORG:443", "https").value(), "example.org");
  EXPECT_EQ(sv::normalize_authority("example.org:443", "http").value(), "example.org:443");
  EXPECT_EQ(sv::normalize_authority("[::1]:80", "http").value(), "[::1]");
}

// #5 a label's key comes only from the agent its own covered member names.
TEST(ServeAgentBinding, KeyOnlyFromTheCoveredAgent) {
  Signer1 good, stranger, stranger2;
  TrustFixture t;
  t.dirs.directory("good.example", wba::build_directory({good.pub}).value(), good);
  // The stranger's directory also lists the good bot's public key (copied, unsigned by it).
  t.dirs.directory("stranger.example", wba::build_directory({stranger.pub, good.pub}).value(), stranger);
  t.start();
  // A stranger-signed label covering sig1="<good bot>", with an extra, uncovered member naming
  // the stranger's directory: the stranger's key is not the good bot's.
  auto attack = signed_by(stranger, "https://good.example");
  attack.set("Signature-Agent", attack.get("signature-agent").value() + ", sig2=\"https://stranger.example\"");
  auto d = t.v->decide(attack, kNow);
  EXPECT_EQ(d.status, 401) << "stranger's label accepted through an uncovered agent";
  EXPECT_EQ(d.reason, "unknown_keyid") << d.detail;
  // The same, with the stranger's member covered by a second label of its own: its directory is
  // fetched, yet sig1 still finds no key (the stranger's keys serve sig2 only), so the request is
  // the stranger's, never the good bot's.
  {
    hs::Message m;
    m.method = "GET";
    m.target = "/page";
    m.add("Host", "origin.example");
    wba::SignerOptions o;
    o.created = kNow;
    wba::Signer two({wba::LabelKey{"sig1", stranger.key.get(), stranger.kid, "https://good.example"},
                     wba::LabelKey{"sig2", stranger.key.get(), stranger.kid, "https://stranger.example"}},
                    o);
    ASSERT_TRUE(two.sign(m).ok());
    d = t.v->decide(m, kNow);
    EXPECT_EQ(d.status, 200) << d.reason << " " << d.detail;
    EXPECT_EQ(d.labels, std::vector<std::string>{"sig2"});
    EXPECT_EQ(d.agent, "https://stranger.example") << "a stranger's label attributed to the good bot";
  }
  // A genuine request with the stranger's member listed first: attributed to the covered agent.
  auto genuine = signed_by(good, "https://good.example");
  genuine.set("Signature-Agent", "sig0=\"https://stranger.example\", " + genuine.get("signature-agent").value());
  d = t.v->decide(genuine, kNow);
  EXPECT_EQ(d.status, 200) << d.reason << " " << d.detail;
  EXPECT_EQ(d.agent, "https://good.example");
  // good.example and (for sig2 above) stranger.example: an uncovered member is never fetched.
  EXPECT_EQ(t.dirs.calls.load(), 2);
  (void)stranger2;
}

TEST(ServeAgentBinding, StaticKeyWithNoCoveredAgentReportsNone) {
  VerifierFixture f;  // static keys
  hs::Message m;
  m.method = "GET";
  m.target = "/page";
  m.add("Host", "origin.example");
  auto key = pqsig::jose::load_jwk(keys().ed_priv).value();
  wba::SignerOptions o;
  o.created = kNow;
  wba::Signer signer({wba::LabelKey{"sig1", &*key.signing, key.thumbprint, ""}}, o);  // vouches for no agent
  ASSERT_TRUE(signer.sign(m).ok());
  m.set("Signature-Agent", "\"https://uncovered.example\"");  // legacy form, not covered by sig1
  auto d = f.v->decide(m, kNow);
  EXPECT_EQ(d.status, 200) << d.reason << " " << d.detail;
  EXPECT_EQ(d.agent, "") << "a static key reported an agent its label does not cover";
}

TEST(ServeAgentBinding, BindingRule) {
  auto agents = wba::parse_signature_agent(R"(sig1="https://a.example", sig2="https://b.example")").value();
  auto params = [](const char* inner) {
    return hs::SignatureParams{sf::parse_dictionary(std::string("x=") + inner).value().front().second.inner};
  };
  auto b = wba::bind_label_agent(&agents, "sig1", params(R"(("@authority" "signature-agent";key="sig1"))"));
  EXPECT_EQ(b.member.value_or("?"), "sig1");
  b = wba::bind_label_agent(&agents, "sig5", params(R"(("@authority" "signature-agent";key="sig2"))"));  // relabelled
  EXPECT_EQ(b.member.value_or("?"), "sig2");
  b = wba::bind_label_agent(&agents, "sig5", params(R"(("@authority" "signature-agent";key="sig1" "signature-agent";key="sig2"))"));
  EXPECT_EQ(b.reason, hs::Reason::profile_violation);  // several, not its own: ambiguous
  b = wba::bind_label_agent(&agents, "sig1", params(R"(("@authority"))"));
  EXPECT_EQ(b.reason, hs::Reason::signature_agent_not_covered);  // its own member, uncovered
  b = wba::bind_label_agent(&agents, "sig3", params(R"(("@authority"))"));
  EXPECT_TRUE(b.reason == hs::Reason::ok && !b.member);  // no agent
  b = wba::bind_label_agent(&agents, "sig3", params(R"(("@authority" "signature-agent";key="sig9"))"));
  EXPECT_EQ(b.reason, hs::Reason::missing_signature_agent);
}

// #4 a directory cannot file its key under another key's keyid.
TEST(ServeAgentBinding, DirectoryKidMustBeTheThumbprint) {
  Signer1 good, stranger_a, stranger_b;
  TrustFixture t;
  // stranger_b's key listed under the good bot's thumbprint; stranger_a signs the directory.
  auto entry = nlohmann::json::parse(stranger_b.pub);
  entry["kid"] = good.kid;
  std::string body = "{\"keys\":[" + nlohmann::json::parse(stranger_a.pub).dump() + "," + entry.dump() + "]}";
  t.dirs.directory("stranger.example", body, stranger_a);
  t.start();
  auto m = signed_by(stranger_b, "https://stranger.example", good.kid);  // keyid = the good bot's thumbprint
  auto d = t.v->decide(m, kNow);
  EXPECT_EQ(d.status, 401) << "a key was filed under another key's keyid";
  EXPECT_EQ(d.reason, "unknown_keyid") << d.detail;
  EXPECT_EQ(t.metrics.dir_kid_mismatch.load(), 1u);
  EXPECT_NE(t.metrics.render().find("pqsig_directory_kid_mismatch_total 1"), std::string::npos);
  // The directory's honest entry still works.
  EXPECT_EQ(t.v->decide(signed_by(stranger_a, "https://stranger.example"), kNow).status, 200);
}

// #6 a request cannot choose an unsigned discovery type, nor a directory at an arbitrary path.
TEST(ServeAgentBinding, RequestCannotDowngradeDiscovery) {
  Signer1 stranger;
  TrustFixture t;
  t.dirs.plain("https://stranger.example/keys.json", jwks({stranger.pub}));
  t.dirs.directory("stranger.example", wba::build_directory({stranger.pub}).value(), stranger);
  t.start();
  // The request names the stranger's plain JWKS with ;type=jwks_uri (and covers that member).
  hs::Message typed;
  typed.method = "GET";
  typed.target = "/page";
  typed.add("Host", "origin.example");
  typed.add("Signature-Agent", "sig1=\"https://stranger.example/keys.json\";type=jwks_uri");
  hs::SignSpec s;
  s.label = "sig1";
  s.key = stranger.key.get();
  s.keyid = stranger.kid;
  hs::Component sa = hs::component("signature-agent");
  sa.params.emplace_back("key", sf::BareItem::string("sig1"));
  s.components = {hs::component("@authority"), sa};
  s.created = kNow;
  s.expires = kNow + 300;
  s.tag = "web-bot-auth";
  ASSERT_TRUE(hs::sign_message(typed, {s}).ok());
  auto d = t.v->decide(typed, kNow);
  EXPECT_EQ(d.status, 401) << "an unsigned jwks_uri chosen by the request was accepted";
  EXPECT_EQ(d.reason, "directory_unavailable") << d.detail;
  EXPECT_NE(d.detail.find("jwks_uri"), std::string::npos) << d.detail;
  // Listed by the operator (policy agents): accepted, attributed to that URL.
  TrustFixture listed;
  listed.dirs.plain("https://stranger.example/keys.json", jwks({stranger.pub}));
  sv::VerifyOptions o;
  o.policy.agents = {"https://stranger.example/keys.json"};
  listed.start(o);
  d = listed.v->decide(typed, kNow);
  EXPECT_EQ(d.status, 200) << d.reason << " " << d.detail;
  EXPECT_EQ(d.agent, "https://stranger.example/keys.json");
  // A directory member must name an origin: the same signed directory under another path is refused.
  auto odd = signed_by(stranger, "https://stranger.example/any/path");
  d = t.v->decide(odd, kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_NE(d.detail.find("origin"), std::string::npos) << d.detail;
  EXPECT_EQ(t.v->decide(signed_by(stranger, "https://stranger.example"), kNow).status, 200);
}

TEST(ServeDirectoryCache, RedirectIsAFailedFetch) {
  sv::Metrics m;
  sv::DirectoryCache c({}, &m, [](const std::string&) -> pqsig::Result<cl::HttpResponse> {
    cl::HttpResponse r;
    r.status = 302;
    r.headers = {{"Location", "https://elsewhere.example/.well-known/http-message-signatures-directory"}};
    return r;
  });
  auto k = c.get({"https://agent.example", sv::AgentType::directory}, kNow);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.error().message.find("redirect"), std::string::npos) << k.error().message;
}

// #14 the private-address guard: every non-global range of the IANA special-purpose registries.
TEST(ServeClient, PrivateAddressTable) {
  for (const char* ip : {"0.1.2.3", "10.1.1.1", "100.64.0.1", "100.127.255.255", "127.0.0.1", "169.254.169.254", "172.16.0.1",
                         "172.31.255.255", "192.0.0.9", "192.0.2.1", "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.19.255.255",
                         "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.255", "240.0.0.1", "255.255.255.255",
                         "::", "::1", "::a9fe:a9fe", "::8.8.8.8", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:0:10.0.0.1",
                         "64:ff9b::a9fe:a9fe", "64:ff9b::127.0.0.1", "64:ff9b:1::1", "100::1", "100:0:0:1::1", "2001::1",
                         "2001:0:4136:e378::1", "2001:2::1", "2001:db8::1", "2002:a9fe:a9fe::1", "2002:7f00:1::", "3fff::1",
                         "5f00::1", "fc00::1", "fd12::1", "fe80::1", "febf::1", "fec0::1", "feff::1", "ff02::1", "not-an-ip", ""})
    EXPECT_TRUE(cl::address_is_private(ip)) << ip;
  for (const char* ip : {"8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.32.0.1", "192.0.1.1", "198.17.255.255",
                         "198.20.0.1", "223.255.255.255", "2606:4700::1111", "64:ff9b::808:808", "2002:808:808::1",
                         "::ffff:8.8.8.8", "2a00:1450::1"})
    EXPECT_FALSE(cl::address_is_private(ip)) << ip;
}

// A loopback HTTP/1.1 server for client tests: `answer` maps a request head to a response;
// bounded (at most `max_conns` connections, 10 s).
class LoopServer {
 public:
  using Answer = std::function<std::string(const std::string& head)>;
  explicit LoopServer(Answer a, int max_conns = 4, const char* bind_ip = "127.0.0.1") : answer_(std::move(a)) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    inet_pton(AF_INET, bind_ip, &addr.sin_addr);
    bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    listen(fd_, 8);
    t_ = std::thread([this, max_conns] {
      for (int i = 0; i < 100 && !stop_ && accepted_ < max_conns; ++i) {
        pollfd p{fd_, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0) continue;
        int c = accept(fd_, nullptr, nullptr);
        if (c < 0) continue;
        ++accepted_;
        timeval tv{2, 0};
        setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        std::string head;
        char buf[4096];
        while (head.find("\r\n\r\n") == std::string::npos && head.size() < 256 * 1024) {
          ssize_t n = recv(c, buf, sizeof buf, 0);
          if (n <= 0) break;
          head.append(buf, static_cast<std::size_t>(n));
        }
        {
          std::lock_guard<std::mutex> l(mu_);
          heads_.push_back(head);
        }
        std::string r = answer_(head);
        (void)!send(c, r.data(), r.size(), MSG_NOSIGNAL);
        close(c);
      }
    });
  }
  ~LoopServer() {
    stop_ = true;
    t_.join();
    close(fd_);
  }
  int port() const { return port_; }
  int accepted() const { return accepted_.load(); }
  std::vector<std::string> heads() const {
    std::lock_guard<std::mutex> l(mu_);
    return heads_;
  }

 private:
  Answer answer_;
  int fd_ = -1, port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  mutable std::mutex mu_;
  std::vector<std::string> heads_;
  std::thread t_;
};

std::string http_ok(const std::string& body = "ok") {
  return "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

// #13 no proxy from the environment: https_proxy / http_proxy are never used implicitly.
TEST(ServeClient, EnvironmentProxyIgnored) {
  LoopServer proxy([](const std::string&) { return http_ok("from the proxy"); });
  LoopServer target([](const std::string&) { return http_ok("direct"); });
  std::string purl = "http://127.0.0.1:" + std::to_string(proxy.port());
  setenv("http_proxy", purl.c_str(), 1);
  setenv("https_proxy", purl.c_str(), 1);
  setenv("all_proxy", purl.c_str(), 1);
  unsetenv("no_proxy");
  unsetenv("NO_PROXY");
  cl::HttpLimits l;
  l.allow_http = true;
  l.allow_private_addresses = true;
  auto r = cl::http_exchange("GET", "http://127.0.0.1:" + std::to_string(target.port()) + "/", {}, {}, l);
  unsetenv("http_proxy");
  unsetenv("https_proxy");
  unsetenv("all_proxy");
  ASSERT_TRUE(r.ok()) << r.error().what();
  EXPECT_EQ(r->body, "direct");
  EXPECT_EQ(proxy.accepted(), 0);
}

// #13 an explicit proxy: the guard checks the target (not the proxy) before anything is sent, and
// the CONNECT names the address that was checked.
TEST(ServeClient, ExplicitProxyGuardsTheTarget) {
  LoopServer proxy([](const std::string&) { return std::string("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"); });
  cl::HttpLimits l;
  l.allow_http = true;
  l.proxy = "http://127.0.0.1:" + std::to_string(proxy.port());
  for (const char* url : {"http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[::ffff:127.0.0.1]/"}) {
    auto r = cl::http_exchange("GET", url, {}, {}, l);
    ASSERT_FALSE(r.ok()) << url;
    EXPECT_EQ(r.error().code, Errc::policy) << url << ": " << r.error().message;
  }
  EXPECT_EQ(proxy.accepted(), 0);
  // Allowed explicitly: the request goes through the proxy as a CONNECT to the checked address.
  l.allowed_private = {"127.0.0.1"};
  (void)cl::http_exchange("GET", "http://127.0.0.1:9/x", {}, {}, l);
  auto heads = proxy.heads();
  ASSERT_EQ(heads.size(), 1u);
  EXPECT_EQ(heads[0].rfind("CONNECT 127.0.0.1:9 ", 0), 0u) << heads[0];
}

// #18 the guard is on by default, and a redirect target passes it like the first URL.
TEST(ServeClient, PrivateGuardOnByDefaultAndOnRedirects) {
  EXPECT_FALSE(cl::HttpLimits{}.allow_private_addresses);
  EXPECT_FALSE(cl::ClientOptions{}.http.allow_private_addresses);
  LoopServer inner([](const std::string&) { return http_ok("internal"); }, 2, "127.0.0.2");
  std::string inner_url = "http://127.0.0.2:" + std::to_string(inner.port()) + "/secret";
  LoopServer outer([&](const std::string&) {
    return "HTTP/1.1 302 Found\r\nLocation: " + inner_url + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  });
  auto o = client_opts();
  o.clock = [] { return std::int64_t{kNow}; };
  o.http.allow_http = true;
  cl::Client plain(o);  // defaults: private addresses refused
  auto r = plain.fetch("GET", "http://127.0.0.1:" + std::to_string(outer.port()) + "/");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::policy) << r.error().message;
  EXPECT_EQ(outer.accepted(), 0);
  // The first host allowed by address: its redirect into another private address is refused.
  o.http.allowed_private = {"127.0.0.1"};
  cl::Client one(o);
  r = one.fetch("GET", "http://127.0.0.1:" + std::to_string(outer.port()) + "/");
  ASSERT_FALSE(r.ok()) << "redirect into 127.0.0.2 followed";
  EXPECT_EQ(r.error().code, Errc::policy) << r.error().message;
  EXPECT_EQ(outer.accepted(), 1);
  EXPECT_EQ(inner.accepted(), 0);
}

// #17 a challenge adds to the safe profile, never removes; a huge nonce is refused; the cap is
// checked on the final header section.
TEST(ServeClient, ChallengeAddsNeverRemoves) {
  Signer1 k;
  hs::SignatureRequest rq;
  rq.label = "sig1";
  rq.params.list = sf::parse_dictionary(R"(x=("@method"))").value().front().second.inner;
  auto s = wba::challenge_spec(rq, *k.key, k.kid, true, kNow, 300);
  ASSERT_TRUE(s.ok()) << s.error().what();
  auto p = hs::make_params(s.value()).serialize().value();
  for (const char* want : {"\"@authority\"", "\"signature-agent\";key=\"sig1\"", "\"@method\"", "created=", "expires=",
                           "tag=\"web-bot-auth\"", "nonce="})
    EXPECT_NE(p.find(want), std::string::npos) << want << " missing from " << p;
  rq.params.list = sf::parse_dictionary(R"(x=("@method");tag="x")").value().front().second.inner;
  auto bad = wba::challenge_spec(rq, *k.key, k.kid, true, kNow, 300);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::policy);
  rq.params.list = sf::parse_dictionary("x=(\"@authority\");nonce=\"" + std::string(20000, 'n') + "\"").value().front().second.inner;
  bad = wba::challenge_spec(rq, *k.key, k.kid, true, kNow, 300);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::policy);
}

TEST(ServeClient, ChallengeAnsweredWithTheProfileAndTheCapOnTheFinalHeaders) {
  auto run = [](const std::string& accept, std::size_t cap, std::vector<std::string>* heads) {
    std::atomic<int> n{0};
    LoopServer srv([&](const std::string&) {
      if (n++ == 0)
        return "HTTP/1.1 401 Unauthorized\r\nAccept-Signature: " + accept + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      return http_ok();
    });
    auto o = client_opts();
    o.keys = {{"sig1", keys().ed_priv}};
    o.challenge_mode = true;
    o.header_cap = cap;
    o.http.allow_http = true;
    o.http.allowed_private = {"127.0.0.1"};
    cl::Client c(o);
    auto r = c.fetch("GET", "http://127.0.0.1:" + std::to_string(srv.port()) + "/page?q=1");
    *heads = srv.heads();
    return r;
  };
  std::vector<std::string> heads;
  // The server asks for ("@method"), no tag, no created/expires: we still sign the profile.
  auto r = run(R"(sig1=("@method"))", 8192, &heads);
  ASSERT_TRUE(r.ok()) << r.error().what();
  ASSERT_EQ(heads.size(), 2u);
  for (const char* want : {"\"@authority\"", "\"@method\"", "created=", "expires=", "tag=\"web-bot-auth\""})
    EXPECT_NE(heads[1].find(want), std::string::npos) << want << " missing:\n" << heads[1];
  // A 20 KB server nonce: refused, nothing signed is sent.
  r = run("sig1=(\"@authority\");nonce=\"" + std::string(20000, 'n') + "\"", 65536, &heads);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(heads.size(), 1u);
  // The cap applies to the header section as sent: measure it, then set the cap one byte lower.
  const std::string asks = "sig1=(\"@method\" \"@path\" \"@query\" \"@target-uri\" \"user-agent\");nonce=\"" +
                           std::string(250, 'n') + "\";purpose=\"" + std::string(200, 'p') + "\"";
  r = run(asks, 8192, &heads);
  ASSERT_TRUE(r.ok()) << r.error().what();
  ASSERT_EQ(heads.size(), 2u);
  // The signed request as sent, measured like header_section_size (request line + fields + CRLF).
  std::size_t sent = heads[1].size();
  r = run(asks, sent - 1, &heads);
  ASSERT_FALSE(r.ok()) << "a header section above the cap was sent";
  EXPECT_EQ(r.error().code, Errc::policy);
  EXPECT_EQ(heads.size(), 1u);
}
}  // namespace

// ------------------------------------------------------------------ registry (draft-meunier-webbotauth-registry §4)

namespace {
std::string pct(std::string_view s) {  // percent-encode everything but unreserved characters
  static const char* hex = "0123456789ABCDEF";
  std::string o;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~') o.push_back(c);
    else o += std::string("%") + hex[u >> 4] + hex[u & 15];
  }
  return o;
}
pqsig::Errc registry_error(std::string_view text) {
  auto r = sv::parse_registry(text);
  EXPECT_FALSE(r.ok()) << text;
  return r ? Errc::internal : r.error().code;  // internal: "no error" never expected here
}
}  // namespace

TEST(ServeRegistry, ParsesTheDraftExample) {
  // §4.1's example, including its inline card (a data: URL whose JSON holds a space).
  std::string text =
      "# An example list of bots\n"
      "https://bot1.example.com/.well-known/http-message-signatures-directory\n"
      "https://crawler2.example.com/.well-known/http-message-signatures-directory\n"
      "\n"
      "# Now the list of platforms\n"
      "https://zerotrust-gateway.example.com/v1/signature-agent-card\n"
      "\n"
      "# Below is an inlined card with the data URL scheme\n"
      "data:application/json,{\"client_name\":\"Inline Bot\",\"jwks_uri\":\"https://inline.example.com/.well-known/"
      "http-message-signatures-directory\"}\n";
  auto r = sv::parse_registry(text);
  ASSERT_TRUE(r.ok()) << r.error().what();
  ASSERT_EQ(r->size(), 4u);
  EXPECT_EQ((*r)[0].kind, sv::RegistryEntry::Kind::https);
  EXPECT_EQ((*r)[0].type, sv::AgentType::directory);
  EXPECT_EQ((*r)[0].line, 2u);
  EXPECT_EQ((*r)[2].type, sv::AgentType::cimd);
  EXPECT_EQ((*r)[2].url, "https://zerotrust-gateway.example.com/v1/signature-agent-card");
  EXPECT_EQ((*r)[3].kind, sv::RegistryEntry::Kind::data);
  EXPECT_EQ((*r)[3].keys.jwks_uri, "https://inline.example.com/.well-known/http-message-signatures-directory");
  EXPECT_EQ((*r)[3].line, 9u);
}

TEST(ServeRegistry, LineEndingsCommentsAndEncodings) {
  std::string card = R"({"client_id":"https://inline.example/bot","jwks":)" + jwks({keys().ed_pub}) + "}";
  std::string b64 = pqsig::base64_encode(pqsig::byte_span(reinterpret_cast<const std::uint8_t*>(card.data()), card.size()));
  std::string text = "https://a.example/card   # trailing comment\r"
                     "  \t\r\n"
                     "#\xc3\xa9t\xc3\xa9 comment in UTF-8\r\n"
                     "data:application/json;charset=utf-8;base64," + b64 + "\n"
                     "data:application/json," + pct(card) + " # percent-encoded";  // no final NL
  auto r = sv::parse_registry(text);
  ASSERT_TRUE(r.ok()) << r.error().what();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].url, "https://a.example/card");
  EXPECT_EQ((*r)[1].line, 4u);
  EXPECT_EQ((*r)[1].card, card);
  EXPECT_EQ((*r)[2].card, card);
  EXPECT_FALSE((*r)[1].keys.jwks.empty());
  EXPECT_TRUE(sv::parse_registry("").ok());
  EXPECT_TRUE(sv::parse_registry("\n\n# only comments\n").value().empty());
}

TEST(ServeRegistry, MalformedEntriesRefusedWithTypedErrors) {
  EXPECT_EQ(registry_error("http://a.example/card\n"), Errc::unsupported);
  EXPECT_EQ(registry_error("ftp://a.example/card\n"), Errc::unsupported);
  EXPECT_EQ(registry_error("a.example/card\n"), Errc::unsupported);
  EXPECT_EQ(registry_error(" https://a.example/card\n"), Errc::invalid_encoding);     // must start the line
  EXPECT_EQ(registry_error("https://a.example/card#frag\n"), Errc::invalid_encoding);  // no fragment
  EXPECT_EQ(registry_error("https://a.example/a b\n"), Errc::invalid_encoding);
  EXPECT_EQ(registry_error("https:a.example\n"), Errc::invalid_encoding);
  EXPECT_EQ(registry_error(std::string("https://a.example/\x01x\n")), Errc::invalid_encoding);
  EXPECT_EQ(registry_error("https://user@a.example/card\n"), Errc::invalid_encoding);
  EXPECT_EQ(registry_error("https://user@a.example\n"), Errc::invalid_encoding);
  EXPECT_TRUE(sv::parse_registry("https://a.example?who=a@b\nhttps://a.example/x@y\n").ok());  // '@' outside the authority
  EXPECT_EQ(registry_error("https://a.example/c # bad \xff utf-8\n"), Errc::invalid_encoding);
  EXPECT_EQ(registry_error("https://a.example/c # control \x07\n"), Errc::invalid_encoding);
  EXPECT_EQ(registry_error("https://a.example/c\nhttps://a.example/c\n"), Errc::policy);  // duplicate
  // data: cards
  EXPECT_EQ(registry_error("data:,hello\n"), Errc::unsupported);                         // text/plain
  EXPECT_EQ(registry_error("data:text/html,<b>x</b>\n"), Errc::unsupported);
  EXPECT_EQ(registry_error("data:application/json\n"), Errc::invalid_encoding);          // no ','
  EXPECT_EQ(registry_error("data:application/json,{\"x\":1\n"), Errc::invalid_encoding); // bad JSON
  EXPECT_EQ(registry_error("data:application/json,%7\n"), Errc::invalid_encoding);       // bad escape
  EXPECT_EQ(registry_error("data:application/json;base64,!!!!\n"), Errc::invalid_encoding);
  EXPECT_EQ(registry_error("data:application/json,{}\n"), Errc::invalid_encoding);       // no parameter
  EXPECT_EQ(registry_error("data:application/json,{\"client_name\":\"x\"}\n"), Errc::invalid_encoding);  // no keys
  EXPECT_EQ(registry_error("data:application/json,{\"jwks_uri\":\"http://a.example/k\"}\n"), Errc::invalid_encoding);
  EXPECT_EQ(registry_error("data:application/json,{\"client_id\":7,\"jwks_uri\":\"https://a.example/k\"}\n"),
            Errc::invalid_encoding);
  // The error names the line.
  auto r = sv::parse_registry("https://a.example/1\n\nhttp://b.example\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line 3"), std::string::npos) << r.error().message;
}

TEST(ServeRegistry, Limits) {
  sv::RegistryLimits lim;
  lim.max_entries = 3;
  std::string text;
  for (int i = 0; i < 4; ++i) text += "https://a" + std::to_string(i) + ".example/card\n";
  auto r = sv::parse_registry(text, lim);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::invalid_length);
  lim = {};
  lim.max_bytes = 16;
  EXPECT_EQ(sv::parse_registry(text, lim).error().code, Errc::invalid_length);
  lim = {};
  lim.max_url = 30;
  EXPECT_EQ(sv::parse_registry("https://a.example/" + std::string(40, 'x') + "\n", lim).error().code, Errc::invalid_length);
  lim = {};
  lim.max_line = 100;
  EXPECT_EQ(sv::parse_registry("# " + std::string(200, 'c') + "\n", lim).error().code, Errc::invalid_length);
  EXPECT_EQ(sv::parse_registry(std::string(sv::RegistryLimits{}.max_bytes + 1, '\n')).error().code, Errc::invalid_length);
}

TEST(ServeRegistry, VerifierFetchesOnlyRegistryAgents) {
  CacheFixture f;
  sv::MemoryReplayStore replay;
  std::int64_t now = kNow;
  sv::DirectoryCache cache({}, &f.metrics, f.fetch(&now));
  auto make = [&](std::string_view registry) {
    sv::VerifyOptions o;
    o.policy.authorities = {"origin.example"};
    std::vector<std::string> static_keys;
    auto entries = sv::parse_registry(registry);
    EXPECT_TRUE(entries.ok()) << entries.error().what();
    sv::apply_registry(entries.value(), o, static_keys);
    auto v = sv::Verifier::create(o, static_keys, &cache, &replay, &f.metrics);
    EXPECT_TRUE(v.ok()) << v.error().what();
    return std::move(v.value());
  };
  // The request's Signature-Agent is "https://agent.example": listed as its directory URL.
  auto listed = make("https://agent.example/.well-known/http-message-signatures-directory\n");
  auto d = listed->decide(signed_request(), kNow);
  EXPECT_EQ(d.status, 200) << d.reason << " " << d.detail;
  EXPECT_EQ(d.agent, "https://agent.example");
  EXPECT_EQ(f.calls.load(), 1);
  // A registry without it: the agent's directory is never fetched, the request is refused.
  auto unlisted = make("https://other.example/.well-known/http-message-signatures-directory\n");
  int before = f.calls.load();
  d = unlisted->decide(signed_request(), kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "directory_unavailable") << d.detail;
  EXPECT_EQ(f.calls.load(), before);
  // An inline card's keys verify without any fetch.
  std::string card = R"({"client_name":"Inline","jwks":)" + jwks({keys().ed_pub}) + "}";
  auto inline_card = make("data:application/json," + pct(card) + "\n");
  d = inline_card->decide(signed_request(), kNow);
  EXPECT_EQ(d.status, 200) << d.reason << " " << d.detail;
  EXPECT_EQ(f.calls.load(), before);
}

// ------------------------------------------------------------------ the proxy in front (nginx, Caddy, Envoy)

TEST(ServeProxy, NginxReadsOnlyXOriginal) {
  sv::ProxyOptions p;  // nginx by default
  std::vector<hs::FieldLine> h = {{"Host", "origin.example"}, {"X-Original-Method", "POST"}, {"X-Original-URI", "/a?b=1"},
                                  {"X-Forwarded-Uri", "/evil"}, {"Signature", "x"}};
  auto m = sv::original_request(p, "GET", "/_auth", h, "https");
  ASSERT_TRUE(m.ok()) << m.error().what();
  EXPECT_EQ(m->method, "POST");
  EXPECT_EQ(m->target, "/a?b=1");
  EXPECT_EQ(m->get("host").value_or(""), "origin.example");
  EXPECT_FALSE(m->has("x-original-uri"));
  EXPECT_TRUE(m->has("x-forwarded-uri"));  // not this proxy's field: an ordinary header
  // Missing / repeated / malformed fields: refused, never guessed from the auth request itself.
  EXPECT_FALSE(sv::original_request(p, "GET", "/_auth", {{"Host", "o"}, {"X-Original-URI", "/a"}}, "https").ok());
  EXPECT_FALSE(sv::original_request(p, "GET", "/_auth", {{"X-Forwarded-Method", "GET"}, {"X-Forwarded-Uri", "/a"}}, "https").ok());
  EXPECT_FALSE(sv::original_request(p, "GET", "/_auth",
                                    {{"X-Original-Method", "GET"}, {"X-Original-URI", "/a"}, {"x-original-uri", "/b"}}, "https").ok());
  EXPECT_FALSE(sv::original_request(p, "GET", "/_auth", {{"X-Original-Method", "G ET"}, {"X-Original-URI", "/a"}}, "https").ok());
  EXPECT_FALSE(sv::original_request(p, "GET", "/_auth", {{"X-Original-Method", "GET"}, {"X-Original-URI", "http://x/a"}}, "https").ok());
  EXPECT_FALSE(sv::original_request(p, "GET", "/_auth", {{"X-Original-Method", "GET"}, {"X-Original-URI", "/a b"}}, "https").ok());
}

TEST(ServeProxy, CaddyReadsOnlyXForwarded) {
  sv::ProxyOptions p;
  p.mode = sv::parse_proxy_mode("caddy").value();
  // A client-sent X-Original-URI must not steer the verifier behind Caddy (Caddy does not strip it).
  std::vector<hs::FieldLine> h = {{"Host", "origin.example"}, {"X-Forwarded-Method", "GET"}, {"X-Forwarded-Uri", "/page"},
                                  {"X-Original-URI", "/other"}, {"X-Forwarded-Host", "origin.example"}};
  auto m = sv::original_request(p, "GET", "/auth", h, "https");
  ASSERT_TRUE(m.ok()) << m.error().what();
  EXPECT_EQ(m->method, "GET");
  EXPECT_EQ(m->target, "/page");
  EXPECT_EQ(m->get("host").value_or(""), "origin.example");
  EXPECT_FALSE(sv::original_request(p, "GET", "/auth", {{"X-Original-Method", "GET"}, {"X-Original-URI", "/a"}}, "https").ok());
  EXPECT_FALSE(sv::parse_proxy_mode("traefik").ok());
}

TEST(ServeProxy, EnvoyExtAuthzPathPrefix) {
  sv::ProxyOptions p;
  p.mode = sv::ProxyMode::envoy;
  p.envoy_prefix = "/auth";
  auto m = sv::original_request(p, "DELETE", "/auth/items/7?x=1", {{"Host", "origin.example"}}, "https");
  ASSERT_TRUE(m.ok()) << m.error().what();
  EXPECT_EQ(m->method, "DELETE");
  EXPECT_EQ(m->target, "/items/7?x=1");
  EXPECT_EQ(m->get("host").value_or(""), "origin.example");
  EXPECT_FALSE(sv::original_request(p, "GET", "/other/x", {}, "https").ok());   // not under the prefix
  EXPECT_FALSE(sv::original_request(p, "GET", "/auth", {}, "https").ok());      // nothing after it
  EXPECT_FALSE(sv::original_request(p, "GET", "/authz/x", {}, "https").ok());   // "z/x" is no path
  // X-Original-* / X-Forwarded-* are ordinary headers for Envoy.
  m = sv::original_request(p, "GET", "/auth/a", {{"X-Original-URI", "/b"}}, "https");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->target, "/a");
  // The verifier refuses an Envoy setup without a prefix (its /metrics would answer origin paths).
  for (std::string bad : {"", "/", "/auth/", "/metrics", "auth"}) {
    sv::VerifyOptions o;
    o.any_authority = true;
    o.proxy.mode = sv::ProxyMode::envoy;
    o.proxy.envoy_prefix = bad;
    sv::MemoryReplayStore st;
    EXPECT_FALSE(sv::Verifier::create(o, {jwks({keys().ed_pub})}, nullptr, &st, nullptr).ok()) << bad;
  }
}

TEST(ServeProxy, SignedRequestVerifiesThroughEachProxyMapping) {
  auto req = signed_request();  // the same nonce every time: one fixture (replay store) per case below
  struct Case {
    sv::ProxyOptions p;
    std::string method, target;
    std::vector<hs::FieldLine> extra;
  };
  std::vector<Case> cases(3);
  cases[0].target = "/_auth";
  cases[0].extra = {{"X-Original-Method", req.method}, {"X-Original-URI", req.target}};
  cases[1].p.mode = sv::ProxyMode::caddy;
  cases[1].target = "/auth";
  cases[1].extra = {{"X-Forwarded-Method", req.method}, {"X-Forwarded-Uri", req.target}};
  cases[2].p.mode = sv::ProxyMode::envoy;
  cases[2].p.envoy_prefix = "/ext";
  cases[2].target = "/ext" + req.target;
  for (const auto& c : cases) {
    VerifierFixture fresh;
    auto h = req.headers;
    h.insert(h.end(), c.extra.begin(), c.extra.end());
    auto m = sv::original_request(c.p, "GET", c.target, h, "https");
    ASSERT_TRUE(m.ok()) << m.error().what();
    auto t = m.value();  // the same request with another Host (authority tampered) fails
    t.set("Host", "evil.example");
    EXPECT_EQ(fresh.v->decide(t, kNow).status, 401);
    auto d = fresh.v->decide(m.value(), kNow);
    EXPECT_EQ(d.status, 200) << d.reason << " " << d.detail;
  }
}

// ------------------------------------------------------------------ issue 20: facing strangers

namespace {
std::string nested(std::size_t depth, const char* open = "[", const char* close = "]") {
  std::string s;
  s.reserve(depth * 2 + 1);
  for (std::size_t i = 0; i < depth; ++i) s += open;
  s += "1";
  for (std::size_t i = 0; i < depth; ++i) s += close;
  return s;
}
}  // namespace

// #1: a card nested 100,000 deep (200 KB) killed `serve verify` (unbounded parse, recursive dump):
// every card goes through the strict depth-limited reader, and the answer is a typed error.
TEST(ServeHostile, DeeplyNestedCardIsATypedError) {
  const std::string url = "https://agent.example/card";
  const std::string deep = nested(100000);
  for (const std::string& card : std::vector<std::string>{
        R"({"client_id":"https://agent.example/card","jwks":{"keys":[)" + deep + "]}}",
        R"({"client_id":"https://agent.example/card","web_bot_auth":{"x":)" + deep + "},\"jwks\":{\"keys\":[]}}",
        R"({"client_id":"https://agent.example/card","jwks":{"keys":[{"kty":"OKP","x":)" + nested(20) + "}]}}",
        R"({"client_id":"https://agent.example/card","jwks":{"keys":[]},"a":1,"a":2})"}) {
    auto r = sv::validate_agent_card(card, url);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::invalid_encoding) << r.error().message;
    auto inl = sv::validate_inline_agent_card(card);
    ASSERT_FALSE(inl.ok());
  }
  // Through the cache, as a fetched card.
  sv::Metrics m;
  const std::string body = R"({"client_id":"https://agent.example/card","jwks":{"keys":[)" + deep + "]}}";
  sv::DirectoryCache c({}, &m, [&body](const std::string& u) -> pqsig::Result<cl::HttpResponse> {
    cl::HttpResponse r;
    r.status = 200;
    r.url = u;
    r.body = body;
    return r;
  });
  EXPECT_FALSE(c.get({url, sv::AgentType::cimd}, kNow).ok());
  // The policy file goes through the same reader.
  EXPECT_FALSE(sv::parse_policy(R"({"agents":)" + nested(20000) + "}").ok());
}

namespace {
// A fetch serving agent cards: "https://<name>/card" answers a card with `keys_of(name)`;
// names starting with "junk" fail, names starting with "slow" fail after `slow_ms`.
struct CardWorld {
  std::atomic<int> calls{0};
  std::atomic<bool> slow_entered{false}, slow_done{false};
  int slow_ms = 400;
  std::function<std::string(const std::string&)> keys_of = [](const std::string&) { return jwks({keys().ed_pub}); };
  sv::DirectoryCache::Fetch fetch() {
    return [this](const std::string& url) -> pqsig::Result<cl::HttpResponse> {
      ++calls;
      std::string host = url.substr(8, url.find('/', 8) - 8);
      if (host.rfind("slow", 0) == 0) {
        slow_entered = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(slow_ms));
        slow_done = true;
        return pqsig::Error{Errc::io, "timed out"};
      }
      if (host.rfind("junk", 0) == 0) return pqsig::Error{Errc::io, "connection refused"};
      cl::HttpResponse r;
      r.status = 200;
      r.url = url;
      r.body = R"({"client_id":")" + url + R"(","jwks":)" + keys_of(host) + "}";
      return r;
    };
  }
};
sv::AgentRef card(const std::string& host) { return {"https://" + host + "/card", sv::AgentType::cimd}; }
}  // namespace

// #8: the cache is bounded in bytes of key material as verification holds it (an ML-DSA key is
// held expanded), not in entries; one agent above its own byte bound is refused outright.
TEST(ServeHostile, DirectoryCacheBoundedInBytes) {
  const auto* ml = pqsig::find_suite("ml-dsa-44").value();
  const auto* ml87 = pqsig::find_suite("ml-dsa-87").value();
  EXPECT_GT(sv::key_memory_bytes(*ml), 20u * 1024);    // Â of 4×4 polynomials and more
  EXPECT_GT(sv::key_memory_bytes(*ml87), 60u * 1024);  // 8×7
  CardWorld w;
  w.keys_of = [](const std::string&) { return jwks({keys().ml_pub}); };
  sv::Metrics m;
  sv::DirectoryCacheOptions o;
  o.max_bytes = 100 * 1024;
  o.max_entries = 1000;
  sv::DirectoryCache c(o, &m, w.fetch());
  for (int i = 0; i < 12; ++i) ASSERT_TRUE(c.get(card("agent" + std::to_string(i) + ".example"), kNow + i).ok());
  EXPECT_LE(c.bytes(), o.max_bytes);
  EXPECT_LE(c.size(), 4u);
  EXPECT_GE(c.size(), 3u);
  EXPECT_GE(m.limit_count("directory_cache_bytes"), 8u);
  EXPECT_NE(m.render().find("pqsig_directory_cache_bytes " + std::to_string(c.bytes())), std::string::npos);
  // The most recently used agents stayed.
  int before = w.calls.load();
  EXPECT_TRUE(c.get(card("agent11.example"), kNow + 20).ok());
  EXPECT_EQ(w.calls.load(), before);

  // One agent whose keys alone exceed max_agent_bytes: refused, counted, nothing cached.
  sv::DirectoryCacheOptions small;
  small.max_agent_bytes = 8 * 1024;
  sv::DirectoryCache c2(small, &m, w.fetch());
  auto r = c2.get(card("big.example"), kNow);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::invalid_length);
  EXPECT_EQ(c2.size(), 0u);
  EXPECT_EQ(m.limit_count("directory_agent_bytes"), 1u);
}

// #9: junk agent URLs (fetches that fail) never take a good agent's place, and are remembered in
// their own bounded table; a flood filling the fetch slots does not hide stale-but-good keys.
TEST(ServeHostile, JunkAgentsNeverEvictGoodOnes) {
  CardWorld w;
  sv::Metrics m;
  sv::DirectoryCacheOptions o;
  o.max_entries = 2;
  o.max_negative = 8;
  o.max_concurrent_fetches = 1;
  sv::DirectoryCache c(o, &m, w.fetch());
  ASSERT_TRUE(c.get(card("good.example"), kNow).ok());
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(c.get(card("junk" + std::to_string(i) + ".example"), kNow + 1).ok());
  EXPECT_EQ(c.size(), 1u);
  EXPECT_LE(c.negative_size(), 8u);
  EXPECT_GE(m.limit_count("directory_negative_entries"), 92u);
  int before = w.calls.load();
  EXPECT_TRUE(c.get(card("good.example"), kNow + 2).ok());  // still cached: no fetch
  EXPECT_EQ(w.calls.load(), before);

  // Past max-age (default 300 s), the only fetch slot held by a stranger's slow directory: the
  // good agent is answered with its stale keys (counted), not refused.
  std::thread t([&] { (void)c.get(card("slow.example"), kNow + 400); });
  for (int i = 0; i < 200 && !w.slow_entered; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(w.slow_entered.load());
  auto r = c.get(card("good.example"), kNow + 400);
  t.join();
  EXPECT_TRUE(r.ok()) << r.error().message;
  EXPECT_GE(m.dir_stale.load(), 1u);
  EXPECT_GE(m.limit_count("directory_fetch_slots"), 1u);
  // A failed refresh keeps the known-good keys (stale-while-error) and does not evict them.
  CardWorld w2;
  sv::DirectoryCache c3({}, &m, w2.fetch());
  ASSERT_TRUE(c3.get(card("good.example"), kNow).ok());
  w2.keys_of = [](const std::string&) { return std::string("{"); };  // the directory turns to junk
  EXPECT_TRUE(c3.get(card("good.example"), kNow + 400).ok());
  EXPECT_EQ(c3.size(), 1u);
}

// #7: requests waiting on a fetch in flight are bounded; more get an answer at once instead of
// holding a thread.
TEST(ServeHostile, FetchWaitersBounded) {
  CardWorld w;
  w.slow_ms = 600;
  sv::Metrics m;
  sv::DirectoryCacheOptions o;
  o.max_waiters = 1;
  sv::DirectoryCache c(o, &m, w.fetch());
  std::thread fetcher([&] { (void)c.get(card("slow.example"), kNow); });
  for (int i = 0; i < 200 && !w.slow_entered; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::thread waiter([&] { (void)c.get(card("slow.example"), kNow); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the waiter is waiting (the fetch takes 600 ms)
  auto r = c.get(card("slow.example"), kNow);
  bool fetch_still_running = !w.slow_done.load();
  fetcher.join();
  waiter.join();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("too many requests waiting"), std::string::npos) << r.error().message;
  EXPECT_TRUE(fetch_still_running);  // answered while the fetch was still under way
  EXPECT_EQ(m.limit_count("directory_waiters"), 1u);
  EXPECT_EQ(w.calls.load(), 1);
}

// #10: the one in-process nonce store — per-owner quota, retention cap, and a full store makes
// room from the heaviest owner instead of refusing everyone.
TEST(ServeHostile, NonceStoreQuotasAndRetention) {
  sv::MemoryReplayStore::Options o;
  o.max_entries = 10;
  o.max_per_owner = 4;
  o.max_retention = 100;
  sv::MemoryReplayStore s(o);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(s.record_for("stranger", "k", "n" + std::to_string(i), kNow + 86400, kNow), sv::NonceOutcome::fresh);
  EXPECT_EQ(s.record_for("stranger", "k", "n9", kNow + 86400, kNow), sv::NonceOutcome::refused);
  EXPECT_EQ(s.record_for("stranger", "k2", "n9", kNow + 86400, kNow), sv::NonceOutcome::refused);  // per owner, not key
  EXPECT_EQ(s.record_for("good", "g", "n0", kNow + 60, kNow), sv::NonceOutcome::fresh);
  EXPECT_EQ(s.refused_quota(), 2u);
  // Kept max_retention (100 s), not until the signer's expires (24 h).
  EXPECT_EQ(s.record_for("stranger", "k", "n0", kNow + 86400, kNow + 99), sv::NonceOutcome::replayed);
  EXPECT_EQ(s.record_for("stranger", "k", "n0", kNow + 86400, kNow + 101), sv::NonceOutcome::fresh);

  // Full of strangers' nonces: a light owner takes the room of the heaviest one.
  sv::MemoryReplayStore::Options f;
  f.max_entries = 6;
  f.max_per_owner = 6;
  sv::MemoryReplayStore full(f);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(full.record_for("s" + std::to_string(i % 2), "k", "n" + std::to_string(i), kNow + 300, kNow), sv::NonceOutcome::fresh);
  EXPECT_EQ(full.record_for("good", "g", "a", kNow + 300, kNow), sv::NonceOutcome::fresh);
  EXPECT_EQ(full.evicted(), 1u);
  EXPECT_EQ(full.size(), 6u);
  EXPECT_EQ(full.owner_count("good"), 1u);
  // An owner already as heavy as the heaviest gets no room.
  sv::MemoryReplayStore one(f);
  for (int i = 0; i < 6; ++i) (void)one.record_for("a", "k", "n" + std::to_string(i), kNow + 300, kNow);
  EXPECT_EQ(one.record_for("a", "k", "x", kNow + 300, kNow), sv::NonceOutcome::refused);
  // Many owners and expiries (bounded loop): the bounds always hold and a light owner always
  // gets room while a heavier one holds more.
  sv::MemoryReplayStore::Options b;
  b.max_entries = 50;
  b.max_per_owner = 20;
  b.max_retention = 40;
  sv::MemoryReplayStore mixed(b);
  std::uint32_t x = 12345;
  for (int i = 0; i < 3000; ++i) {
    x = x * 1103515245u + 12345u;
    std::string owner = "o" + std::to_string((x >> 16) % 7);
    std::int64_t now = kNow + i / 20;
    (void)mixed.record_for(owner, "k", std::to_string(i), now + 10 + (x >> 8) % 60, now);
    ASSERT_LE(mixed.size(), 50u);
    for (int w = 0; w < 7; ++w) ASSERT_LE(mixed.owner_count("o" + std::to_string(w)), 20u);
  }
  EXPECT_EQ(mixed.record_for("light", "k", "z", kNow + 400, kNow + 150), sv::NonceOutcome::fresh);
}

TEST(ServeHostile, VerifierCountsNoncesPerAgentAndBoundsTheirAge) {
  // Labels older than the retention (minus twice the skew) are refused: a forgotten nonce can
  // never be replayed.
  sv::Metrics metrics;
  sv::MemoryReplayStore::Options so;
  so.max_per_owner = 2;  // sig1 + sig2 of one request
  so.max_retention = 300;
  sv::MemoryReplayStore store(so);
  sv::VerifyOptions vo;
  vo.policy.authorities = {"origin.example"};
  vo.nonce_retention = 300;
  auto v = sv::Verifier::create(vo, {jwks({keys().ed_pub, keys().ml_pub})}, nullptr, &store, &metrics).value();
  auto opts = client_opts(kNow - 250);
  opts.expires_in = 3600;
  cl::Client c(opts);
  cl::Url u;
  u.scheme = "https";
  u.host = "origin.example";
  u.port = 443;
  u.path_query = "/";
  auto old = c.build_signed("GET", u, {}, {}).value();
  auto d = v->decide(old, kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "too_old") << d.detail;
  EXPECT_EQ(store.size(), 0u);
  // Each static key is its own owner: two nonces fill sig1's and sig2's quotas of 2... one request
  // each; the third request of the same keys is refused as over quota (not failed open).
  EXPECT_EQ(v->decide(signed_request(), kNow).status, 200);
  EXPECT_EQ(v->decide(signed_request(), kNow).status, 200);
  d = v->decide(signed_request(), kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "nonce_quota") << d.detail;
  EXPECT_EQ(metrics.limit_count("nonces_per_owner"), 1u);
  // Retention shorter than twice the skew: refused at creation.
  vo.nonce_retention = 100;
  EXPECT_FALSE(sv::Verifier::create(vo, {jwks({keys().ed_pub})}, nullptr, &store, &metrics).ok());
}

// #11: an RSA key whose public exponent would make every verification dear is refused when it
// is loaded; the verification work of one request is bounded before any signature is checked.
TEST(ServeHostile, RsaExponentBoundedAndRequestCostBounded) {
  std::vector<std::uint8_t> n(256, 0xC5);
  n[0] = 0xE1;
  n[255] |= 1;
  for (auto [e, ok] : std::vector<std::pair<std::vector<std::uint8_t>, bool>>{
           {{0x01, 0x00, 0x01}, true},
           {{0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01}, false},  // 2^64 + 1
           {std::vector<std::uint8_t>(256, 0xff), false},                    // 2048-bit exponent
           {{0x01, 0x00, 0x00}, false}}) {                                   // even
    std::string jwk = R"({"kty":"RSA","alg":"PS512","n":")" + pqsig::base64url_encode(n) + R"(","e":")" +
                      pqsig::base64url_encode(e) + "\"}";
    auto k = pqsig::jose::load_jwk(jwk);
    EXPECT_EQ(k.ok(), ok) << (k ? "" : k.error().message);
  }
  // Cost: sig1 (Ed25519, 1) + sig2 (ML-DSA-44, 1) against a budget of 1.
  sv::Metrics metrics;
  sv::MemoryReplayStore store;
  sv::VerifyOptions vo;
  vo.policy.authorities = {"origin.example"};
  vo.max_cost_units = 1;
  auto v = sv::Verifier::create(vo, {jwks({keys().ed_pub, keys().ml_pub})}, nullptr, &store, &metrics).value();
  auto d = v->decide(signed_request(), kNow);
  EXPECT_EQ(d.status, 401);
  EXPECT_EQ(d.reason, "too_costly") << d.detail;
  EXPECT_EQ(metrics.limit_count("request_cost"), 1u);
  EXPECT_EQ(sv::verify_cost_units(*pqsig::find_suite("ml-dsa-87").value()), 3u);
  // The units follow the family's parameter set (typed), not the id's spelling.
  for (const auto& [id, units] : std::initializer_list<std::pair<const char*, std::size_t>>{
           {"ml-dsa-44", 1}, {"ml-dsa-65", 2}, {"slh-dsa-sha2-128f", 40}, {"slh-dsa-shake-256s", 10},
           {"ed25519", 1}, {"hmac-sha256", 1}, {"ecdsa-p384-sha384", 2}, {"rsa-pss-sha512", 3}, {"ed448", 10}})
    EXPECT_EQ(sv::verify_cost_units(*pqsig::find_suite(id).value()), units) << id;
  vo.max_cost_units = 2;
  v = sv::Verifier::create(vo, {jwks({keys().ed_pub, keys().ml_pub})}, nullptr, &store, &metrics).value();
  EXPECT_EQ(v->decide(signed_request(), kNow).status, 200);
}

// #16: the directory server answers only for its configured authorities, and signs once per
// validity period (an SLH-DSA key made every GET cost 0.1-0.4 s).
TEST(ServeHostile, PublisherServesItsAuthorityAndSignsOnce) {
  TempDir d;
  sv::DirectoryPublisher::Options o;
  o.key_files = {d.write("k.jwk", keys().ed_priv)};
  EXPECT_FALSE(sv::DirectoryPublisher::create(o).ok());  // no authority configured
  o.authorities = {"Agent.Example"};
  o.max_age = 300;
  o.expires_in = 3600;
  auto pub = std::move(sv::DirectoryPublisher::create(o).value());
  auto r = pub->respond("evil.example", kNow);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::policy);
  EXPECT_EQ(pub->signatures_made(), 0u);
  auto a = pub->respond("agent.example", kNow).value();
  auto b = pub->respond("AGENT.example:8443", kNow + 100).value();  // any port: the name is configured without one
  auto c = pub->respond("agent.example", kNow + 3000).value();
  EXPECT_EQ(pub->signatures_made(), 2u);  // agent.example and agent.example:8443
  EXPECT_EQ(a.get("signature-input"), c.get("signature-input"));
  EXPECT_TRUE(pqsig::webbotauth::verify_directory(c, "agent.example", kNow + 3000).policy_satisfied);
  EXPECT_TRUE(pqsig::webbotauth::verify_directory(b, "agent.example:8443", kNow + 100).policy_satisfied);
  // Re-signed once less than max_age + 60 s of validity is left.
  auto e = pub->respond("agent.example", kNow + 3300).value();
  EXPECT_NE(a.get("signature-input"), e.get("signature-input"));
  EXPECT_EQ(pub->signatures_made(), 3u);
}
