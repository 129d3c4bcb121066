// The serve verify path with a Web Bot Auth request whose sig2 is XMSS (alg "xmss", ours), as
// for "hss-lms" (test_serve_hss.cpp): accepted when the policy lists xmss, skipped when it does
// not, refused when tampered; the request cost from verify_cost_units of the key's suite.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "pqsig/jose.hpp"
#include "pqsig/serve.hpp"
#include "pqsig/stateful_key.hpp"
#include "pqsig/webbotauth.hpp"
#include "pqsig/xmss.hpp"

namespace {

namespace fs = std::filesystem;
namespace wba = pqsig::webbotauth;
namespace sv = pqsig::serve;
using pqsig::bytes;

constexpr std::int64_t kXmssServeNow = 1'790'000'000;

struct XmssServeCrawler {
  fs::path dir;
  std::optional<pqsig::xmss::StatefulSigner> xs;
  std::unique_ptr<pqsig::StatefulKey> stateful;
  pqsig::SigningKey ed;
  std::string ed_pub, ed_kid, xmss_pub, xmss_kid;

  explicit XmssServeCrawler(std::string_view set)
      : ed(pqsig::SigningKey::generate(*pqsig::find_suite("ed25519").value()).value()) {
    char tmpl[] = "/tmp/pqsig_serve_xmss_XXXXXX";
    dir = ::mkdtemp(tmpl);
    const auto* p = pqsig::xmss::find_params(set);
    EXPECT_NE(p, nullptr);
    auto key = [&] {
      return pqsig::xmss::PrivateKey::from_seeds(*p, bytes(p->n, 5), bytes(p->n, 6), bytes(p->n, 7), {}, 1).value();
    };
    const std::string state = (dir / "k.hbs").string();
    EXPECT_TRUE(pqsig::xmss::StatefulSigner::create_state(key(), state).ok());
    auto s = pqsig::xmss::StatefulSigner::open(key(), state, 8, 1);
    EXPECT_TRUE(s.ok());
    xs.emplace(std::move(*s));
    stateful = pqsig::stateful_key(*xs).value();
    ed_pub = pqsig::jose::to_jwk(ed, false).value();
    ed_kid = pqsig::jose::thumbprint(ed_pub).value();
    xmss_pub = pqsig::jose::hbs_to_jwk(
                   {p->mt ? pqsig::jose::HbsKind::xmssmt : pqsig::jose::HbsKind::xmss, xs->public_key()})
                   .value();
    xmss_kid = pqsig::jose::thumbprint(xmss_pub).value();
  }
  ~XmssServeCrawler() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string keys() const { return "{\"keys\":[" + ed_pub + "," + xmss_pub + "]}"; }
  pqsig::httpsig::Message request() {
    pqsig::httpsig::Message m;
    m.method = "GET";
    m.target = "/page";
    m.add("Host", "origin.example");
    wba::SignerOptions o;
    o.created = kXmssServeNow;
    wba::LabelKey sig2{"sig2", nullptr, xmss_kid, ""};
    sig2.stateful = stateful.get();
    wba::Signer signer({wba::LabelKey{"sig1", &ed, ed_kid, ""}, sig2}, o);
    auto r = signer.sign(m);
    EXPECT_TRUE(r.ok()) << (r ? "" : r.error().what());
    return m;
  }
};

std::unique_ptr<sv::Verifier> xmss_serve_verifier(const XmssServeCrawler& c, sv::Policy p,
                                                  sv::MemoryReplayStore& replay) {
  sv::VerifyOptions o;
  o.policy = std::move(p);
  o.policy.authorities = {"origin.example"};
  auto v = sv::Verifier::create(o, {c.keys()}, nullptr, &replay, nullptr);
  EXPECT_TRUE(v.ok()) << (v ? "" : v.error().what());
  return v ? std::move(v.value()) : nullptr;
}

}  // namespace

TEST(ServeXmss, Sig2VerifiedWhenThePolicyListsXmss) {
  XmssServeCrawler c("XMSS-SHA2_10_256");
  sv::MemoryReplayStore replay;
  sv::Policy p;
  p.algorithms = {"ed25519", "xmss"};
  p.required_labels = {"sig2"};
  auto v = xmss_serve_verifier(c, p, replay);
  ASSERT_TRUE(v);
  auto d = v->decide(c.request(), kXmssServeNow + 1);
  EXPECT_EQ(d.status, 200) << d.reason << ": " << d.detail;
  EXPECT_EQ(d.labels, (std::vector<std::string>{"sig1", "sig2"}));

  auto m = c.request();
  auto sigs = pqsig::sf::parse_dictionary(*m.get("signature")).value();
  bytes b = pqsig::sf::find_member(sigs, "sig2")->item.bare.b;
  b[b.size() / 3] ^= 0x80;
  pqsig::sf::set_member(sigs, "sig2", pqsig::sf::Member::of(pqsig::sf::Item{pqsig::sf::BareItem::byte_sequence(b), {}}));
  m.set("Signature", pqsig::sf::serialize_dictionary(sigs).value());
  auto dm = v->decide(m, kXmssServeNow + 1);
  EXPECT_NE(dm.status, 200) << dm.reason;
}

TEST(ServeXmss, DefaultPolicySkipsXmssLabel) {
  XmssServeCrawler c("XMSS-SHA2_10_256");
  sv::MemoryReplayStore replay;
  auto v = xmss_serve_verifier(c, sv::Policy{}, replay);
  ASSERT_TRUE(v);
  auto d = v->decide(c.request(), kXmssServeNow + 1);
  EXPECT_EQ(d.status, 200) << d.reason << ": " << d.detail;
  EXPECT_EQ(d.labels, std::vector<std::string>{"sig1"});
}

// verify_cost_units of XMSS rows, from the set (RFC 8391 §3.1, w = 16): per layer the WOTS+
// chains len * 15 / 2 steps of 3 hashes, the L-tree's len - 1 nodes and h/d path nodes of 4.
TEST(ServeXmss, CostFromVerifyCostUnits) {
  auto cost = [](std::string_view set, bool mt) {
    const auto* p = pqsig::xmss::find_params(set);
    EXPECT_NE(p, nullptr) << set;
    bytes pk(p->public_key_bytes(), 0);
    for (int i = 0; i < 4; ++i) pk[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(p->oid >> (24 - 8 * i));
    auto s = pqsig::suite_for_public_key(pqsig::Family::xmss, pk, mt);
    EXPECT_TRUE(s.ok()) << set;
    return s ? sv::verify_cost_units(**s) : 0;
  };
  // n = 32, len = 67: (502 * 3 + 66 * 4 + 10 * 4 + 30) / 500 + 1 = 4 per layer.
  EXPECT_EQ(cost("XMSS-SHA2_10_256", false), 4u);
  EXPECT_EQ(sv::verify_cost_units(*pqsig::find_suite("xmss-sha2_10_256").value()), 4u);
  // d layers cost d times one.
  EXPECT_EQ(cost("XMSSMT-SHA2_20/4_256", true), 16u);
  EXPECT_EQ(sv::verify_cost_units(*pqsig::find_suite("xmssmt-sha2_20-2_256").value()), 8u);
  // n = 64 (SHA-512): len = 131 and each hash counted twice: (3506 * 2 + 30) / 500 + 1 = 15.
  EXPECT_EQ(cost("XMSS-SHA2_10_512", false), 15u);

  // serve bounds a request by it.
  XmssServeCrawler c("XMSS-SHA2_10_256");
  const std::size_t units = sv::verify_cost_units(c.stateful->suite());
  sv::MemoryReplayStore replay;
  sv::Policy p;
  p.algorithms = {"ed25519", "xmss"};
  for (std::size_t limit : {units, units + 1}) {  // Ed25519 costs 1
    sv::VerifyOptions o;
    o.policy = p;
    o.policy.authorities = {"origin.example"};
    o.max_cost_units = limit;
    auto v = sv::Verifier::create(o, {c.keys()}, nullptr, &replay, nullptr);
    ASSERT_TRUE(v.ok()) << v.error().what();
    auto d = (*v)->decide(c.request(), kXmssServeNow + 1);
    if (limit == units) {
      EXPECT_EQ(d.status, 401) << d.reason;
      EXPECT_EQ(d.reason, "too_costly") << d.detail;
    } else {
      EXPECT_EQ(d.status, 200) << d.reason << ": " << d.detail;
    }
  }
}
