// The serve verify path with a Web Bot Auth request whose sig2 is HSS/LMS (alg "hss-lms", ours):
// accepted when the policy lists hss-lms (sig2 can even be required), skipped when it does not,
// refused when tampered.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "pqsig/jose.hpp"
#include "pqsig/lms.hpp"
#include "pqsig/stateful_key.hpp"
#include "pqsig/serve.hpp"
#include "pqsig/webbotauth.hpp"

namespace {

namespace fs = std::filesystem;
namespace wba = pqsig::webbotauth;
namespace sv = pqsig::serve;
using pqsig::bytes;

constexpr std::int64_t kHssNow = 1'790'000'000;

struct HssServeCrawler {
  fs::path dir;
  std::optional<pqsig::lms::StatefulSigner> hss;
  std::unique_ptr<pqsig::StatefulKey> stateful;  // hss through the seam's stateful signing interface
  pqsig::SigningKey ed;
  std::string ed_pub, ed_kid, hss_pub, hss_kid;

  HssServeCrawler() : ed(pqsig::SigningKey::generate(*pqsig::find_suite("ed25519").value()).value()) {
    char tmpl[] = "/tmp/pqsig_serve_hss_XXXXXX";
    dir = ::mkdtemp(tmpl);
    auto lv = pqsig::lms::parse_levels("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8").value();
    auto key = [&] { return pqsig::lms::HssPrivateKey::from_seed(lv, bytes(16, 5), bytes(32, 6)).value(); };
    const std::string state = (dir / "k.hbs").string();
    {
      auto s = pqsig::lms::HssSigner::create(key(), 1).value();
      EXPECT_TRUE(pqsig::lms::StateStore::create(state, s.public_key(), 32).ok());
    }
    auto s = pqsig::lms::StatefulSigner::open(key(), state, 8, 1);
    EXPECT_TRUE(s.ok());
    hss.emplace(std::move(*s));
    stateful = pqsig::stateful_key(*hss).value();
    ed_pub = pqsig::jose::to_jwk(ed, false).value();
    ed_kid = pqsig::jose::thumbprint(ed_pub).value();
    hss_pub = pqsig::jose::hbs_to_jwk({pqsig::jose::HbsKind::hss, hss->public_key()}).value();
    hss_kid = pqsig::jose::thumbprint(hss_pub).value();
  }
  ~HssServeCrawler() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string keys() const { return "{\"keys\":[" + ed_pub + "," + hss_pub + "]}"; }
  pqsig::httpsig::Message request() {
    pqsig::httpsig::Message m;
    m.method = "GET";
    m.target = "/page";
    m.add("Host", "origin.example");
    wba::SignerOptions o;
    o.created = kHssNow;
    wba::LabelKey sig2{"sig2", nullptr, hss_kid, ""};
    sig2.stateful = stateful.get();
    wba::Signer signer({wba::LabelKey{"sig1", &ed, ed_kid, ""}, sig2}, o);
    auto r = signer.sign(m);
    EXPECT_TRUE(r.ok()) << (r ? "" : r.error().what());
    return m;
  }
};

std::unique_ptr<sv::Verifier> hss_verifier(const HssServeCrawler& c, sv::Policy p, sv::MemoryReplayStore& replay) {
  sv::VerifyOptions o;
  o.policy = std::move(p);
  o.policy.authorities = {"origin.example"};
  auto v = sv::Verifier::create(o, {c.keys()}, nullptr, &replay, nullptr);
  EXPECT_TRUE(v.ok()) << (v ? "" : v.error().what());
  return v ? std::move(v.value()) : nullptr;
}

}  // namespace

TEST(ServeHss, Sig2VerifiedWhenThePolicyListsHssLms) {
  HssServeCrawler c;
  sv::MemoryReplayStore replay;
  sv::Policy p;
  p.algorithms = {"ed25519", "hss-lms"};
  p.required_labels = {"sig2"};
  auto v = hss_verifier(c, p, replay);
  ASSERT_TRUE(v);
  auto d = v->decide(c.request(), kHssNow + 1);
  EXPECT_EQ(d.status, 200) << d.reason << ": " << d.detail;
  EXPECT_EQ(d.labels, (std::vector<std::string>{"sig1", "sig2"}));

  auto t = c.request();
  t.set("Host", "origin.example.evil");
  auto dt = v->decide(t, kHssNow + 1);
  EXPECT_NE(dt.status, 200);

  // sig2 tampered alone: the required label fails, the request is refused.
  auto m = c.request();
  auto sigs = pqsig::sf::parse_dictionary(*m.get("signature")).value();
  bytes b = pqsig::sf::find_member(sigs, "sig2")->item.bare.b;
  b[b.size() / 3] ^= 0x80;
  pqsig::sf::set_member(sigs, "sig2", pqsig::sf::Member::of(pqsig::sf::Item{pqsig::sf::BareItem::byte_sequence(b), {}}));
  m.set("Signature", pqsig::sf::serialize_dictionary(sigs).value());
  auto dm = v->decide(m, kHssNow + 1);
  EXPECT_NE(dm.status, 200) << dm.reason;
}

TEST(ServeHss, DefaultPolicySkipsHssLabel) {
  HssServeCrawler c;
  sv::MemoryReplayStore replay;
  auto v = hss_verifier(c, sv::Policy{}, replay);
  ASSERT_TRUE(v);
  auto d = v->decide(c.request(), kHssNow + 1);
  EXPECT_EQ(d.status, 200) << d.reason << ": " << d.detail;
  EXPECT_EQ(d.labels, std::vector<std::string>{"sig1"});
}

// The cost of an HSS label comes from the one cost home (verify_cost_units) through the key's
// suite: a parameter set outside the registry (H5/W8 here) costs what its L and LM-OTS type say,
// the same as the registry rows with that L and type, and serve bounds a request by it.
TEST(ServeHss, CostOfAKeyOutsideTheRegistryComesFromVerifyCostUnits) {
  HssServeCrawler c;
  auto suite = pqsig::suite_for_public_key(pqsig::Family::lms, c.hss->public_key());
  ASSERT_TRUE(suite.ok()) << suite.error().what();
  EXPECT_EQ(pqsig::find_suite((*suite)->id).error().code, pqsig::Errc::unknown_suite);  // not a registry row
  // RFC 8554 Table 1, LMOTS_SHA256_N32_W8: p = 34 chains of up to 255 hashes; per level
  // (34 * 255 / 2 + 30) / 500 + 1 = 9 units, as before this key had a suite.
  const std::size_t units = sv::verify_cost_units(**suite);
  EXPECT_EQ(units, 9u);
  EXPECT_EQ(units, sv::verify_cost_units(*pqsig::find_suite("lms-sha256-m32-h10-w8").value()));
  sv::MemoryReplayStore replay;
  sv::Policy p;
  p.algorithms = {"ed25519", "hss-lms"};
  for (std::size_t limit : {units, units + 1}) {  // Ed25519 costs 1
    sv::VerifyOptions o;
    o.policy = p;
    o.policy.authorities = {"origin.example"};
    o.max_cost_units = limit;
    auto v = sv::Verifier::create(o, {c.keys()}, nullptr, &replay, nullptr);
    ASSERT_TRUE(v.ok()) << v.error().what();
    auto d = (*v)->decide(c.request(), kHssNow + 1);
    if (limit == units) {
      EXPECT_EQ(d.status, 401) << d.reason;
      EXPECT_EQ(d.reason, "too_costly") << d.detail;
    } else {
      EXPECT_EQ(d.status, 200) << d.reason << ": " << d.detail;
    }
  }
}
