// Web Bot Auth with an XMSS / XMSS^MT sig2 (alg "xmss", pqsig's own unregistered token), through
// the same seam as "hss-lms" (tests/httpsig/test_hss_label.cpp): the crawler signs sig1 with
// Ed25519 and sig2 with an XMSS key through xmss::StatefulSigner (pqsig::stateful_key; each index
// reserved on disk first), publishes both keys in its directory (the XMSS key as our AKP JWK,
// kid = thumbprint), and the verifier accepts through verify_request and the provider interface;
// tampering, alg confusion and hostile keys are refused, typed.
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "pqsig/jose.hpp"
#include "pqsig/provider.hpp"
#include "pqsig/stateful_key.hpp"
#include "pqsig/webbotauth.hpp"
#include "pqsig/xmss.hpp"
#include "support/required.hpp"

using namespace pqsig;
using namespace pqsig::httpsig;
namespace wba = pqsig::webbotauth;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kXmssNow = 1'780'000'000;

struct XmssLabelTempDir {
  fs::path p;
  XmssLabelTempDir() {
    char tmpl[] = "/tmp/pqsig_xmss_label_XXXXXX";
    p = ::mkdtemp(tmpl);
  }
  ~XmssLabelTempDir() {
    std::error_code ec;
    fs::remove_all(p, ec);
  }
};

template <class T>
T xmss_label_take(Result<T> r, const char* what) {
  if (!r) {
    ADD_FAILURE() << what << ": " << r.error().what();
    throw std::runtime_error(what);
  }
  return std::move(*r);
}

// A crawler: sig1 Ed25519, sig2 an XMSS or XMSS^MT key of the named set through its state.
struct XmssCrawler {
  XmssLabelTempDir dir;
  const xmss::Params* params;
  std::optional<xmss::StatefulSigner> xs;
  std::unique_ptr<StatefulKey> stateful;
  SigningKey ed;
  std::string ed_kid, xmss_kid, xmss_jwk, directory;

  explicit XmssCrawler(std::string_view set)
      : params(xmss::find_params(set)),
        ed(xmss_label_take(SigningKey::generate(*find_suite("ed25519").value()), "ed25519")) {
    if (!params) throw std::runtime_error("no such XMSS set");
    const std::string state = (dir.p / "crawler.hbs").string();
    auto key = [&] {
      return xmss_label_take(xmss::PrivateKey::from_seeds(*params, bytes(params->n, 0x41), bytes(params->n, 0x42),
                                                          bytes(params->n, 0x43), {}, 1),
                             "key");
    };
    EXPECT_TRUE(xmss::StatefulSigner::create_state(key(), state).ok());
    xs.emplace(xmss_label_take(xmss::StatefulSigner::open(key(), state, 4, 1), "state"));
    stateful = xmss_label_take(stateful_key(*xs), "stateful key");
    auto ed_jwk = xmss_label_take(jose::to_jwk(ed, false), "ed jwk");
    ed_kid = xmss_label_take(jose::thumbprint(ed_jwk), "ed kid");
    xmss_jwk = xmss_label_take(
        jose::hbs_to_jwk({params->mt ? jose::HbsKind::xmssmt : jose::HbsKind::xmss, xs->public_key()}), "xmss jwk");
    xmss_kid = xmss_label_take(jose::thumbprint(xmss_jwk), "xmss kid");
    directory = xmss_label_take(wba::build_directory({ed_jwk, xmss_jwk}), "directory");
  }

  // Signs sig1 and sig2; the signature bases in `bases` (sig2's second).
  Message signed_request(std::int64_t now, std::vector<std::string>* bases = nullptr) {
    Message m = parse_message("GET /page HTTP/1.1\nHost: shop.example\n\n").value();
    wba::SignerOptions o;
    o.created = now;
    wba::LabelKey sig2{"sig2", nullptr, xmss_kid, ""};
    sig2.stateful = stateful.get();
    wba::Signer signer({wba::LabelKey{"sig1", &ed, ed_kid, ""}, sig2}, o);
    auto r = signer.sign(m);
    EXPECT_TRUE(r.ok()) << r.error().what();
    if (r) {
      EXPECT_EQ(r->signed_labels.size(), 2u);
      if (bases) *bases = r->bases;
    }
    return m;
  }
};

const Verdict* xmss_verdict(const VerifyReport& r, std::string_view label) {
  for (const auto& v : r.verdicts)
    if (v.label == label) return &v;
  return nullptr;
}

void xmss_set_signature(Message& m, const std::string& label, const bytes& sig) {
  auto d = sf::parse_dictionary(*m.get("signature")).value();
  sf::set_member(d, label, sf::Member::of(sf::Item{sf::BareItem::byte_sequence(sig), {}}));
  m.set("Signature", sf::serialize_dictionary(d).value());
}
bytes xmss_get_signature(const Message& m, const std::string& label) {
  auto d = sf::parse_dictionary(*m.get("signature")).value();
  return sf::find_member(d, label)->item.bare.b;
}

}  // namespace

TEST(XmssLabel, FamilyLevelAlgIsOneRow) {
  EXPECT_EQ(family_for_alg("xmss"), Family::xmss);
  EXPECT_EQ(family_for_alg(kXmssAlg), Family::xmss);
  EXPECT_EQ(family_for_alg("xmssmt"), std::nullopt);
  EXPECT_EQ(suite_for_alg("xmss"), nullptr);
  EXPECT_FALSE(alg_registered("xmss"));
  for (const auto& s : all_suites()) {
    if (s.family == Family::xmss) {
      EXPECT_EQ(alg_name(s), "xmss") << s.id;
    }
  }
}

TEST(XmssLabel, DirectoryKeysVerifyBothLabels) {
  XmssCrawler c("XMSS-SHA2_10_256");
  const SuiteInfo& s = c.stateful->suite();
  // A registry row's set gets that row.
  EXPECT_EQ(&s, find_suite("xmss-sha2_10_256").value());
  EXPECT_EQ(s.family, Family::xmss);

  KeyStore store;
  auto filed = wba::add_fetched_jwks(store, c.directory, true);
  ASSERT_TRUE(filed.ok());
  EXPECT_EQ(filed->filed, 2u) << filed->errors;
  EXPECT_EQ(filed->unusable, 0u) << filed->errors;
  EXPECT_NE(c.directory.find("\"alg\":\"XMSS\""), std::string::npos);
  EXPECT_NE(c.directory.find("\"kid\":\"" + c.xmss_kid + "\""), std::string::npos);

  std::vector<std::string> bases;
  Message m = c.signed_request(kXmssNow, &bases);
  EXPECT_NE(m.get("signature-input")->find("alg=\"xmss\""), std::string::npos);
  wba::VerifierOptions vo;
  vo.now = kXmssNow + 5;
  auto rep = wba::verify_request(m, store, vo);
  ASSERT_TRUE(rep.policy_satisfied) << rep.to_json();
  const auto* v2 = xmss_verdict(rep, "sig2");
  ASSERT_NE(v2, nullptr);
  EXPECT_EQ(v2->outcome, Outcome::valid) << v2->detail;
  EXPECT_EQ(v2->alg, "xmss");
  EXPECT_FALSE(v2->alg_registered);
  EXPECT_EQ(xmss_verdict(rep, "sig1")->outcome, Outcome::valid);
  vo.required_labels = {"sig2"};
  vo.allowed_algs = {"xmss"};
  auto only = wba::verify_request(m, store, vo);
  EXPECT_TRUE(only.policy_satisfied) << only.to_json();

  // Through the provider interface as well.
  const bytes sig = xmss_get_signature(m, "sig2");
  ASSERT_EQ(bases.size(), 2u);
  EXPECT_EQ(sig.size(), s.output_size);
  auto ours = provider::find("pqsig").value();
  EXPECT_TRUE(ours->verify(s, c.xs->public_key(), as_bytes(bases[1]), sig).ok());

  // Every signature took its own index; the audit log shows each once.
  auto audit = c.xs->store().audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_EQ(audit->signatures, 1u);
  c.signed_request(kXmssNow + 1);
  audit = c.xs->store().audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_EQ(audit->signatures, 2u);
  EXPECT_TRUE(audit->clean());
}

TEST(XmssLabel, TamperingIsRefused) {
  XmssCrawler c("XMSS-SHA2_10_256");
  KeyStore store;
  ASSERT_TRUE(wba::add_jwks(store, c.directory).ok());
  wba::VerifierOptions vo;
  vo.now = kXmssNow + 5;
  vo.required_labels = {"sig2"};

  Message m = c.signed_request(kXmssNow);
  Message other = m;
  other.set("Host", "evil.example");
  auto r1 = wba::verify_request(other, store, vo);
  EXPECT_FALSE(r1.policy_satisfied);
  EXPECT_EQ(xmss_verdict(r1, "sig2")->reason, Reason::signature_mismatch);

  // One flipped bit in the index, r, the WOTS+ signature and the auth path; hostile lengths.
  const bytes sig = xmss_get_signature(m, "sig2");
  std::vector<bytes> bad;
  for (std::size_t at : {std::size_t{3}, std::size_t{10}, sig.size() / 2, sig.size() - 1}) {
    bytes b = sig;
    b[at] ^= 0x01;
    bad.push_back(b);
  }
  bad.push_back(bytes{});
  bad.push_back(bytes(sig.begin(), sig.end() - 1));
  bad.push_back(bytes(sig.size() + 1, 0));
  bytes idx = sig;
  idx[0] = 0xff;  // index beyond 2^10
  bad.push_back(idx);
  for (const auto& b : bad) {
    Message t = m;
    xmss_set_signature(t, "sig2", b);
    auto r = wba::verify_request(t, store, vo);
    EXPECT_FALSE(r.policy_satisfied) << b.size();
    const auto* v = xmss_verdict(r, "sig2");
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->outcome, Outcome::invalid) << b.size();
    EXPECT_TRUE(v->reason == Reason::malformed_signature || v->reason == Reason::signature_mismatch)
        << reason_name(v->reason);
  }
  // Through the provider: verify_failed for a flipped bit.
  std::vector<std::string> bases;
  Message m2 = c.signed_request(kXmssNow, &bases);
  bytes sig2 = xmss_get_signature(m2, "sig2");
  sig2[sig2.size() / 3] ^= 0x20;
  auto ours = provider::find("pqsig").value();
  EXPECT_EQ(ours->verify(c.stateful->suite(), c.xs->public_key(), as_bytes(bases[1]), sig2).error().code,
            Errc::verify_failed);
}

TEST(XmssLabel, AlgConfusionIsRefused) {
  XmssCrawler c("XMSS-SHA2_10_256");
  Message m = c.signed_request(kXmssNow);
  wba::VerifierOptions vo;
  vo.now = kXmssNow + 5;
  // The XMSS label's keyid naming an Ed25519 key: alg_mismatch.
  KeyStore swapped;
  swapped.add(c.xmss_kid, VerifyingKey::from_public(c.ed.suite(), c.ed.public_key()).value());
  swapped.add(c.ed_kid, VerifyingKey::from_public(c.ed.suite(), c.ed.public_key()).value());
  EXPECT_EQ(xmss_verdict(wba::verify_request(m, swapped, vo), "sig2")->reason, Reason::alg_mismatch);
  // The XMSS label's keyid naming an HSS key: another family, alg_mismatch.
  auto lv = lms::parse_levels("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8").value();
  auto hk = lms::HssPrivateKey::from_seed(lv, bytes(16, 0x31), bytes(32, 0x32)).value();
  auto hpub = lms::HssSigner::create(std::move(hk), 1).value().public_key();
  KeyStore other_family;
  other_family.add(c.xmss_kid,
                   VerifyingKey::from_public(*suite_for_public_key(Family::lms, hpub).value(), hpub).value());
  EXPECT_EQ(xmss_verdict(wba::verify_request(m, other_family, vo), "sig2")->reason, Reason::alg_mismatch);
  // The Ed25519 label's keyid naming the XMSS key.
  KeyStore swapped2;
  swapped2.add(c.ed_kid, VerifyingKey::from_public(c.stateful->suite(), c.xs->public_key()).value());
  EXPECT_EQ(xmss_verdict(wba::verify_request(m, swapped2, vo), "sig1")->reason, Reason::alg_mismatch);
  // A verifier that leaves "xmss" out skips the label.
  KeyStore store;
  ASSERT_TRUE(wba::add_jwks(store, c.directory).ok());
  vo.allowed_algs = {"ed25519"};
  auto r3 = wba::verify_request(m, store, vo);
  EXPECT_EQ(xmss_verdict(r3, "sig2")->reason, Reason::alg_not_allowed);
  EXPECT_TRUE(r3.policy_satisfied);
}

// An XMSS^MT key of a set no registry row has (SP 800-208's SHA-256/192, 20/2): its own row, made
// once, of the xmss family; signs and verifies as sig2 through the same paths.
TEST(XmssLabel, XmssMtKeyOutsideTheRegistryVerifiesThroughTheSeam) {
  XmssCrawler c("XMSSMT-SHA2_20/2_192");
  const SuiteInfo& s = c.stateful->suite();
  EXPECT_EQ(s.id, "xmssmt-sha2_20-2_192");
  EXPECT_EQ(find_suite(s.id).error().code, Errc::unknown_suite);
  for (const auto& row : all_suites()) EXPECT_NE(&row, &s) << row.id;
  EXPECT_EQ(s.family, Family::xmss);
  EXPECT_TRUE(s.stateful);
  EXPECT_TRUE(s.params.hbs.mt);
  EXPECT_EQ(s.params.hbs.levels, 2u);
  EXPECT_EQ(s.params.hbs.height, 20u);
  EXPECT_EQ(s.params.hbs.code, 0x21u);
  EXPECT_EQ(s.public_key_size, c.params->public_key_bytes());
  EXPECT_EQ(s.output_size, c.params->signature_bytes());
  EXPECT_EQ(suite_for_public_key(Family::xmss, c.xs->public_key(), true).value(), &s);
  EXPECT_EQ(SigningKey::generate(s).error().code, Errc::stateful_key);
  EXPECT_EQ(alg_name(s), "xmss");
  // The same bytes read in the XMSS registry are no set there or another one (the JWK's alg names
  // the registry); never this row.
  auto as_xmss = suite_for_public_key(Family::xmss, c.xs->public_key(), false);
  if (as_xmss) {
    EXPECT_NE(*as_xmss, &s);
  }

  KeyStore store;
  auto filed = wba::add_fetched_jwks(store, c.directory, true);
  ASSERT_TRUE(filed.ok());
  EXPECT_EQ(filed->filed, 2u) << filed->errors;
  EXPECT_NE(c.directory.find("\"alg\":\"XMSSMT\""), std::string::npos);
  auto rk = store.resolve(c.xmss_kid);
  ASSERT_TRUE(rk.has_value());
  EXPECT_EQ(rk->suite, &s);

  std::vector<std::string> bases;
  Message m = c.signed_request(kXmssNow, &bases);
  wba::VerifierOptions vo;
  vo.now = kXmssNow + 5;
  vo.required_labels = {"sig2"};
  vo.allowed_algs = {"xmss"};
  auto rep = wba::verify_request(m, store, vo);
  ASSERT_TRUE(rep.policy_satisfied) << rep.to_json();
  EXPECT_EQ(xmss_verdict(rep, "sig2")->alg, "xmss");
  const bytes sig = xmss_get_signature(m, "sig2");
  auto ours = provider::find("pqsig").value();
  EXPECT_TRUE(ours->verify(s, c.xs->public_key(), as_bytes(bases[1]), sig).ok());
  bytes bad = sig;
  bad[sig.size() / 2] ^= 0x10;
  EXPECT_EQ(ours->verify(s, c.xs->public_key(), as_bytes(bases[1]), bad).error().code, Errc::verify_failed);
  Message t = m;
  xmss_set_signature(t, "sig2", bad);
  EXPECT_EQ(xmss_verdict(wba::verify_request(t, store, vo), "sig2")->reason, Reason::signature_mismatch);
}

// The header budget counts the signature length from the key's suite: an XMSS^MT set whose
// signature does not fit the 8 KiB cap (20/4: 9,251 bytes) is refused before any index is used.
TEST(XmssLabel, HeaderBudgetFromTheKeysSuite) {
  XmssCrawler c("XMSSMT-SHA2_20/4_256");
  EXPECT_EQ(c.stateful->suite().id, "xmssmt-sha2_20-4_256");
  EXPECT_EQ(c.stateful->suite().output_size, 9251u);
  Message m = parse_message("GET / HTTP/1.1\nHost: shop.example\n\n").value();
  wba::SignerOptions o;
  o.created = kXmssNow;
  wba::LabelKey sig2{"sig2", nullptr, c.xmss_kid, ""};
  sig2.stateful = c.stateful.get();
  wba::Signer signer({wba::LabelKey{"sig1", &c.ed, c.ed_kid, ""}, sig2}, o);
  auto r = signer.sign(m);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("hard cap"), std::string::npos) << r.error().what();
  EXPECT_NE(r.error().message.find("xmssmt-sha2_20-4_256"), std::string::npos) << r.error().what();
  auto audit = c.xs->store().audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_EQ(audit->signatures, 0u);
}

// Hostile XMSS keys are typed errors at import (the seam, a directory filing them).
TEST(XmssLabel, HostileKeysAreTypedAtImport) {
  const xmss::Params& p = *xmss::find_params("XMSS-SHA2_10_256");
  auto key = xmss::PrivateKey::from_seeds(p, bytes(32, 1), bytes(32, 2), bytes(32, 3), bytes(32, 4)).value();
  const bytes pk = key.public_key();
  EXPECT_TRUE(suite_for_public_key(Family::xmss, pk).ok());
  struct Case {
    const char* what;
    bytes key;
    bool mt;
    Errc code;
  };
  std::vector<Case> cases;
  bytes b = pk;
  b[3] = 0x00;  // OID 0: reserved
  cases.push_back({"OID 0", b, false, Errc::unknown_suite});
  b = pk;
  b[0] = 0xff;
  cases.push_back({"OID 0xff000001", b, false, Errc::unknown_suite});
  cases.push_back({"OID 0xff000001 as XMSS^MT", b, true, Errc::unknown_suite});
  b = pk;
  b[3] = 0x7f;
  cases.push_back({"unassigned OID", b, false, Errc::unknown_suite});
  cases.push_back({"truncated", bytes(pk.begin(), pk.end() - 1), false, Errc::invalid_length});
  cases.push_back({"OID cut", bytes(pk.begin(), pk.begin() + 3), false, Errc::invalid_length});
  cases.push_back({"empty", bytes{}, false, Errc::invalid_length});
  cases.push_back({"empty XMSS^MT", bytes{}, true, Errc::invalid_length});
  b = pk;
  b.push_back(0);
  cases.push_back({"one byte too many", b, false, Errc::invalid_length});
  b = pk;
  b[3] = 0x04;  // XMSS-SHA2_10_512: n = 64, a 132-byte key
  cases.push_back({"another set's length", b, false, Errc::invalid_length});
  for (const auto& k : cases) {
    SCOPED_TRACE(k.what);
    auto s = suite_for_public_key(Family::xmss, k.key, k.mt);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, k.code) << s.error().what();
    const std::string jwk = std::string("{\"kty\":\"AKP\",\"alg\":\"") + (k.mt ? "XMSSMT" : "XMSS") +
                            "\",\"pub\":\"" + base64url_encode(k.key) + "\"}";
    KeyStore store;
    auto f = wba::add_fetched_jwks(store, "{\"keys\":[" + jwk + "]}", true);
    ASSERT_TRUE(f.ok());
    EXPECT_EQ(f->filed, 0u);
    EXPECT_EQ(f->unusable, 1u);
    EXPECT_EQ(store.size(), 0u);
  }
  // A good and a bad entry: the good one filed.
  const std::string good = jose::hbs_to_jwk({jose::HbsKind::xmss, pk}).value();
  const std::string bad = "{\"kty\":\"AKP\",\"alg\":\"XMSS\",\"pub\":\"" + base64url_encode(bytes(pk.begin(), pk.end() - 2)) + "\"}";
  KeyStore s2;
  auto f2 = wba::add_fetched_jwks(s2, "{\"keys\":[" + bad + "," + good + "]}", true);
  ASSERT_TRUE(f2.ok());
  EXPECT_EQ(f2->filed, 1u);
  EXPECT_EQ(f2->unusable, 1u);
}

TEST(XmssLabel, ExhaustedKeyDropsTheLabel) {
  XmssCrawler c("XMSS-SHA2_10_256");
  // Every index reserved elsewhere (burnt): the next signature has none left.
  ASSERT_TRUE(c.xs->store().reserve(1024).ok());
  Message m = parse_message("GET / HTTP/1.1\nHost: shop.example\n\n").value();
  wba::SignerOptions o;
  o.created = kXmssNow;
  wba::LabelKey sig2{"sig2", nullptr, c.xmss_kid, ""};
  sig2.stateful = c.stateful.get();
  wba::Signer signer({wba::LabelKey{"sig1", &c.ed, c.ed_kid, ""}, sig2}, o);
  auto r = signer.sign(m);
  ASSERT_TRUE(r.ok()) << r.error().what();
  EXPECT_EQ(r->signed_labels, std::vector<std::string>{"sig1"});
  EXPECT_EQ(r->dropped_labels, std::vector<std::string>{"sig2"});
}

// liboqs (xmss-reference) as a second verifier of the sig2 signature, where it is built with
// its stateful signatures.
TEST(XmssLabel, LiboqsVerifiesTheSig2Signature) {
  auto oqs = provider::find("liboqs");
  const SuiteInfo& s = *find_suite("xmss-sha2_10_256").value();
  if (!oqs || !(*oqs)->interfaces(s))
    PQSIG_LIBOQS_STFL_SKIP_OR_FAIL("liboqs is not compiled in, or built without XMSS-SHA2_10_256 (scripts/liboqs.sh)");
  XmssCrawler c("XMSS-SHA2_10_256");
  std::vector<std::string> bases;
  Message m = c.signed_request(kXmssNow, &bases);
  const bytes sig = xmss_get_signature(m, "sig2");
  EXPECT_TRUE((*oqs)->verify(s, c.xs->public_key(), as_bytes(bases[1]), sig).ok());
  bytes bad = sig;
  bad[sig.size() - 5] ^= 0x01;
  EXPECT_FALSE((*oqs)->verify(s, c.xs->public_key(), as_bytes(bases[1]), bad).ok());
}
