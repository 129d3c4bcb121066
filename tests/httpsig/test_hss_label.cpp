// Web Bot Auth with an HSS/LMS sig2 (alg "hss-lms", pqsig's own unregistered token): the crawler
// signs sig1 with Ed25519 and sig2 with an HSS key through lms::StatefulSigner (each index reserved
// on disk first), publishes both keys in its directory (the HSS key as our AKP JWK, kid =
// thumbprint), and the verifier accepts; tampering, alg confusion and hostile key / signature
// bytes are refused with their reasons.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <stdexcept>

#include "pqsig/jose.hpp"
#include "pqsig/lms.hpp"
#include "pqsig/stateful_key.hpp"
#include "pqsig/provider.hpp"
#include "pqsig/webbotauth.hpp"
#include "support/scratch_dir.hpp"

using namespace pqsig;
using namespace pqsig::httpsig;
namespace wba = pqsig::webbotauth;
namespace fs = std::filesystem;

namespace {

struct HssTempDir : pqsig::test::ScratchDir {
  HssTempDir() : ScratchDir("hss_label") {}
};

lms::HssPrivateKey hss_key() {
  auto lv = lms::parse_levels("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8");
  EXPECT_TRUE(lv.ok());
  auto k = lms::HssPrivateKey::from_seed(*lv, bytes(16, 0x31), bytes(32, 0x32));
  EXPECT_TRUE(k.ok());
  return std::move(*k);
}

// An HSS public key as a verifying key of its suite, the parameter set read from the key by the
// seam (what a directory import does).
Result<VerifyingKey> hss_verifying_key(const bytes& pk) {
  auto s = suite_for_public_key(Family::lms, pk);
  if (!s) return s.error();
  return VerifyingKey::from_public(**s, pk);
}

// A crawler's signer (Crawler, OffRegistryCrawler): sig1 with its Ed25519 key, sig2 with its HSS
// key through the seam's stateful interface.
template <class AnyCrawler>
wba::Signer hss_label_two_label_signer(AnyCrawler& c, std::int64_t created) {
  wba::SignerOptions o;
  o.created = created;
  wba::LabelKey sig2{"sig2", nullptr, c.hss_kid, ""};
  sig2.stateful = c.stateful.get();
  return wba::Signer({wba::LabelKey{"sig1", &c.ed, c.ed_kid, ""}, sig2}, o);
}

struct Crawler {
  HssTempDir dir;
  std::optional<lms::StatefulSigner> hss;
  std::unique_ptr<StatefulKey> stateful;  // hss through the seam's stateful signing interface
  SigningKey ed;
  std::string ed_kid, hss_kid, directory;

  Crawler() : ed(SigningKey::generate(*find_suite("ed25519").value()).value()) {
    const std::string state = (dir.p / "crawler.hbs").string();
    {
      auto pub = lms::HssSigner::create(hss_key(), 1);
      EXPECT_TRUE(pub.ok());
      EXPECT_TRUE(lms::StateStore::create(state, pub->public_key(), 32).ok());
    }
    auto s = lms::StatefulSigner::open(hss_key(), state, 4, 1);
    EXPECT_TRUE(s.ok()) << s.error().what();
    hss.emplace(std::move(*s));
    stateful = stateful_key(*hss).value();
    auto ed_jwk = jose::to_jwk(ed, false).value();
    ed_kid = jose::thumbprint(ed_jwk).value();
    auto hss_jwk = jose::hbs_to_jwk({jose::HbsKind::hss, hss->public_key()}).value();
    hss_kid = jose::thumbprint(hss_jwk).value();
    directory = wba::build_directory({ed_jwk, hss_jwk}).value();
  }

  Message signed_request(std::int64_t now) {
    Message m = parse_message("GET /page HTTP/1.1\nHost: shop.example\n\n").value();
    wba::Signer signer = hss_label_two_label_signer(*this, now);
    auto r = signer.sign(m);
    EXPECT_TRUE(r.ok()) << r.error().what();
    if (r) {
      EXPECT_EQ(r->signed_labels.size(), 2u);
    }
    return m;
  }
};

constexpr std::int64_t kNow = 1'780'000'000;

const Verdict* verdict(const VerifyReport& r, std::string_view label) {
  for (const auto& v : r.verdicts)
    if (v.label == label) return &v;
  return nullptr;
}

// Replaces the byte sequence of `label` in the Signature field.
void set_signature(Message& m, const std::string& label, const bytes& sig) {
  auto d = sf::parse_dictionary(*m.get("signature")).value();
  sf::set_member(d, label, sf::Member::of(sf::Item{sf::BareItem::byte_sequence(sig), {}}));
  m.set("Signature", sf::serialize_dictionary(d).value());
}
bytes get_signature(const Message& m, const std::string& label) {
  auto d = sf::parse_dictionary(*m.get("signature")).value();
  return sf::find_member(d, label)->item.bare.b;
}

}  // namespace

TEST(HssLabel, DirectoryKeysVerifyBothLabels) {
  Crawler c;
  KeyStore store;
  auto filed = wba::add_fetched_jwks(store, c.directory, true);
  ASSERT_TRUE(filed.ok());
  EXPECT_EQ(filed->filed, 2u) << filed->errors;
  EXPECT_NE(c.directory.find("\"alg\":\"HSS-LMS\""), std::string::npos);
  EXPECT_NE(c.directory.find("\"kid\":\"" + c.hss_kid + "\""), std::string::npos);

  Message m = c.signed_request(kNow);
  EXPECT_NE(m.get("signature-input")->find("alg=\"hss-lms\""), std::string::npos);
  wba::VerifierOptions vo;
  vo.now = kNow + 5;
  auto rep = wba::verify_request(m, store, vo);
  ASSERT_TRUE(rep.policy_satisfied) << rep.to_json();
  const auto* v2 = verdict(rep, "sig2");
  ASSERT_NE(v2, nullptr);
  EXPECT_EQ(v2->outcome, Outcome::valid) << v2->detail;
  EXPECT_EQ(v2->alg, "hss-lms");
  EXPECT_FALSE(v2->alg_registered);
  EXPECT_EQ(verdict(rep, "sig1")->outcome, Outcome::valid);
  // sig2 must be required-able on its own: only the HSS label.
  vo.required_labels = {"sig2"};
  vo.allowed_algs = {"hss-lms"};
  auto only = wba::verify_request(m, store, vo);
  EXPECT_TRUE(only.policy_satisfied) << only.to_json();

  // The signer took indices from its reservation; the audit log shows each once.
  auto audit = c.hss->store().audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_EQ(audit->signatures, 1u);
  EXPECT_TRUE(audit->clean());
  c.signed_request(kNow + 1);
  audit = c.hss->store().audit();
  EXPECT_EQ(audit->signatures, 2u);
  EXPECT_TRUE(audit->clean());
}

TEST(HssLabel, TamperingIsRefused) {
  Crawler c;
  KeyStore store;
  ASSERT_TRUE(wba::add_jwks(store, c.directory).ok());
  wba::VerifierOptions vo;
  vo.now = kNow + 5;
  vo.required_labels = {"sig2"};

  Message m = c.signed_request(kNow);
  Message other = m;
  other.set("Host", "evil.example");
  auto r1 = wba::verify_request(other, store, vo);
  EXPECT_FALSE(r1.policy_satisfied);
  EXPECT_EQ(verdict(r1, "sig2")->reason, Reason::signature_mismatch);

  // One flipped bit in each region of the HSS signature.
  const bytes sig = get_signature(m, "sig2");
  for (std::size_t at : {std::size_t{4}, std::size_t{40}, sig.size() / 2, sig.size() - 1}) {
    bytes b = sig;
    b[at] ^= 0x01;
    Message t = m;
    set_signature(t, "sig2", b);
    auto r = wba::verify_request(t, store, vo);
    EXPECT_FALSE(r.policy_satisfied) << at;
    EXPECT_EQ(verdict(r, "sig2")->outcome, Outcome::invalid) << at;
  }
}

TEST(HssLabel, HostileSignatureBytesAreTyped) {
  Crawler c;
  KeyStore store;
  ASSERT_TRUE(wba::add_jwks(store, c.directory).ok());
  wba::VerifierOptions vo;
  vo.now = kNow + 5;
  Message m = c.signed_request(kNow);
  const bytes sig = get_signature(m, "sig2");
  std::mt19937 rng(7);
  std::vector<bytes> hostile = {bytes{}, bytes(3, 0), bytes(4, 0xff), bytes(sig.begin(), sig.begin() + 100),
                                bytes(sig.size() + 1, 0), bytes(2 * sig.size(), 0x41)};
  // Nspk / q / type fields set to absurd values.
  for (std::size_t at : {std::size_t{0}, std::size_t{4}, std::size_t{8}}) {
    bytes b = sig;
    b[at] = 0xff;
    hostile.push_back(b);
  }
  for (int i = 0; i < 20; ++i) {
    bytes b(sig.size());
    for (auto& x : b) x = static_cast<u8>(rng());
    hostile.push_back(b);
  }
  for (const auto& h : hostile) {
    Message t = m;
    set_signature(t, "sig2", h);
    auto r = wba::verify_request(t, store, vo);
    const auto* v = verdict(r, "sig2");
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->outcome, Outcome::invalid) << h.size();
    EXPECT_TRUE(v->reason == Reason::malformed_signature || v->reason == Reason::signature_mismatch)
        << reason_name(v->reason);
    // An invalid label fails the request (VerifyPolicy::fail_on_invalid), even with sig1 valid.
    EXPECT_FALSE(r.policy_satisfied);
    EXPECT_EQ(verdict(r, "sig1")->outcome, Outcome::valid);
  }
}

TEST(HssLabel, AlgConfusionIsRefused) {
  Crawler c;
  Message m = c.signed_request(kNow);
  wba::VerifierOptions vo;
  vo.now = kNow + 5;
  // The HSS label's keyid naming an Ed25519 key: alg_mismatch, never a verification with it.
  KeyStore swapped;
  swapped.add(c.hss_kid, VerifyingKey::from_public(c.ed.suite(), c.ed.public_key()).value());
  swapped.add(c.ed_kid, VerifyingKey::from_public(c.ed.suite(), c.ed.public_key()).value());
  auto r = wba::verify_request(m, swapped, vo);
  EXPECT_EQ(verdict(r, "sig2")->reason, Reason::alg_mismatch);
  // The Ed25519 label's keyid naming the HSS key: alg_mismatch as well.
  KeyStore swapped2;
  swapped2.add(c.ed_kid, hss_verifying_key(c.hss->public_key()).value());
  auto r2 = wba::verify_request(m, swapped2, vo);
  EXPECT_EQ(verdict(r2, "sig1")->reason, Reason::alg_mismatch);
  // A verifier whose allowed algorithms leave hss-lms out skips the label.
  KeyStore store;
  ASSERT_TRUE(wba::add_jwks(store, c.directory).ok());
  vo.allowed_algs = {"ed25519"};
  auto r3 = wba::verify_request(m, store, vo);
  EXPECT_EQ(verdict(r3, "sig2")->reason, Reason::alg_not_allowed);
  EXPECT_TRUE(r3.policy_satisfied);
}

TEST(HssLabel, HostileKeysAreTyped) {
  Crawler c;
  bytes pk = c.hss->public_key();
  EXPECT_TRUE(hss_verifying_key(pk).ok());
  EXPECT_EQ(hss_verifying_key(bytes{}).error().code, Errc::invalid_length);
  bytes l9 = pk;
  l9[3] = 9;
  EXPECT_EQ(hss_verifying_key(l9).error().code, Errc::invalid_encoding);
  bytes unknown = pk;
  unknown[7] = 0x77;
  EXPECT_EQ(hss_verifying_key(unknown).error().code, Errc::unknown_suite);
  // A directory entry with a broken HSS key is unusable, the others still filed.
  const std::string bad_jwk = "{\"kty\":\"AKP\",\"alg\":\"HSS-LMS\",\"pub\":\"" + base64url_encode(l9) + "\"}";
  const std::string good_jwk = jose::hbs_to_jwk({jose::HbsKind::hss, pk}).value();
  KeyStore s2;
  auto f = wba::add_fetched_jwks(s2, "{\"keys\":[" + bad_jwk + "," + good_jwk + "]}", true);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->filed, 1u);
  EXPECT_EQ(f->unusable, 1u);
  // kid not the thumbprint at the well-known directory: refused.
  std::string liar = good_jwk;
  liar.replace(liar.find(c.hss_kid), c.hss_kid.size(), c.ed_kid);
  KeyStore s3;
  auto f3 = wba::add_fetched_jwks(s3, "{\"keys\":[" + liar + "]}", true);
  ASSERT_TRUE(f3.ok());
  EXPECT_EQ(f3->kid_mismatch, 1u);
  EXPECT_EQ(f3->filed, 0u);
  // A private member is never accepted in a directory.
  KeyStore s4;
  auto f4 = wba::add_fetched_jwks(s4, "{\"keys\":[" + good_jwk.substr(0, good_jwk.size() - 1) + ",\"priv\":\"AAAA\"}]}", true);
  ASSERT_TRUE(f4.ok());
  EXPECT_EQ(f4->filed, 0u);
}

TEST(HssLabel, ExhaustedKeyDropsTheLabelNeverReusesAnIndex) {
  Crawler c;
  // Use up the 32 indices.
  for (int i = 0; i < 32; ++i) ASSERT_TRUE(c.hss->sign(as_bytes("burn")).ok()) << i;
  Message m = parse_message("GET / HTTP/1.1\nHost: shop.example\n\n").value();
  wba::Signer signer = hss_label_two_label_signer(c, kNow);
  auto r = signer.sign(m);
  ASSERT_TRUE(r.ok()) << r.error().what();
  EXPECT_EQ(r->signed_labels, std::vector<std::string>{"sig1"});
  EXPECT_EQ(r->dropped_labels, std::vector<std::string>{"sig2"});
  auto audit = c.hss->store().audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_EQ(audit->signatures, 32u);
  EXPECT_TRUE(audit->clean());
}

namespace {
template <class T>
T off_take(Result<T> r, const char* what) {
  if (!r) {
    ADD_FAILURE() << what << ": " << r.error().what();
    throw std::runtime_error(what);
  }
  return std::move(*r);
}

// A crawler whose sig2 key is of a parameter set none of the registry rows has.
struct OffRegistryCrawler {
  HssTempDir dir;
  std::vector<lms::Level> levels;
  std::optional<lms::StatefulSigner> hss;
  std::unique_ptr<StatefulKey> stateful;
  SigningKey ed;
  std::string ed_kid, hss_kid, directory;

  explicit OffRegistryCrawler(std::string_view spec)
      : levels(off_take(lms::parse_levels(spec), "levels")),
        ed(off_take(SigningKey::generate(*find_suite("ed25519").value()), "ed25519")) {
    const std::string state = (dir.p / "off.hbs").string();
    auto key = [&] {
      return off_take(lms::HssPrivateKey::from_seed(levels, bytes(16, 0x51), bytes(levels[0].lms->m, 0x52)), "key");
    };
    {
      const std::uint64_t limit = key().max_signatures();
      auto pub = off_take(lms::HssSigner::create(key(), 1), "signer");
      auto st = lms::StateStore::create(state, pub.public_key(), limit);
      EXPECT_TRUE(st.ok()) << st.error().what();
    }
    hss.emplace(off_take(lms::StatefulSigner::open(key(), state, 4, 1), "state"));
    stateful = off_take(stateful_key(*hss), "stateful key");
    auto ed_jwk = off_take(jose::to_jwk(ed, false), "ed jwk");
    ed_kid = off_take(jose::thumbprint(ed_jwk), "ed kid");
    auto hss_jwk = off_take(jose::hbs_to_jwk({jose::HbsKind::hss, hss->public_key()}), "hss jwk");
    hss_kid = off_take(jose::thumbprint(hss_jwk), "hss kid");
    directory = off_take(wba::build_directory({ed_jwk, hss_jwk}), "directory");
  }
};
}  // namespace

// A directory HSS key of a parameter set that is not one of the registry's rows (two levels of
// H5/W4): the seam reads its set from the key, gives it a suite of the lms family, and the label
// verifies through that suite's VerifyingKey and through the provider interface.
TEST(HssLabel, DirectoryKeyOutsideTheRegistryVerifiesThroughTheSeam) {
  OffRegistryCrawler c("hss-sha256-m32-h5-w4-h5-w4");
  const SuiteInfo& s = c.stateful->suite();
  EXPECT_EQ(s.id, "hss-sha256-m32-h5-w4-h5-w4");
  EXPECT_EQ(find_suite(s.id).error().code, Errc::unknown_suite);
  for (const auto& row : all_suites()) EXPECT_NE(&row, &s) << row.id;
  EXPECT_EQ(s.family, Family::lms);
  EXPECT_TRUE(s.stateful);
  EXPECT_EQ(s.params.hbs.levels, 2u);
  EXPECT_EQ(s.params.hbs.height, 10u);
  EXPECT_EQ(s.max_signatures(), 1024u);
  EXPECT_EQ(s.public_key_size, lms::hss_public_key_bytes(c.levels));
  EXPECT_EQ(s.output_size, lms::hss_signature_bytes(c.levels));
  // One row per parameter set, not per key.
  EXPECT_EQ(suite_for_public_key(Family::lms, c.hss->public_key()).value(), &s);
  // Stateful: the stateless API refuses it, whatever the parameter set.
  EXPECT_EQ(SigningKey::generate(s).error().code, Errc::stateful_key);
  EXPECT_EQ(httpsig::alg_name(s), "hss-lms");

  KeyStore store;
  auto filed = wba::add_fetched_jwks(store, c.directory, true);
  ASSERT_TRUE(filed.ok());
  EXPECT_EQ(filed->filed, 2u) << filed->errors;
  auto rk = store.resolve(c.hss_kid);
  ASSERT_TRUE(rk.has_value());
  EXPECT_EQ(rk->suite, &s);
  ASSERT_NE(rk->verifying, nullptr);

  Message m = parse_message("GET /page HTTP/1.1\nHost: shop.example\n\n").value();
  wba::Signer signer = hss_label_two_label_signer(c, kNow);
  auto r = signer.sign(m);
  ASSERT_TRUE(r.ok()) << r.error().what();
  ASSERT_EQ(r->signed_labels.size(), 2u);
  EXPECT_NE(m.get("signature-input")->find("alg=\"hss-lms\""), std::string::npos);
  wba::VerifierOptions vo;
  vo.now = kNow + 5;
  vo.required_labels = {"sig2"};
  vo.allowed_algs = {"hss-lms"};
  auto rep = wba::verify_request(m, store, vo);
  ASSERT_TRUE(rep.policy_satisfied) << rep.to_json();
  EXPECT_EQ(verdict(rep, "sig2")->alg, "hss-lms");

  // The same signature through the one provider interface (pqsig's own backend for the family).
  const bytes sig = get_signature(m, "sig2");
  EXPECT_EQ(sig.size(), s.output_size);
  auto ours = provider::find("pqsig").value();
  EXPECT_TRUE(ours->verify(s, c.hss->public_key(), as_bytes(r->bases[1]), sig).ok());
  bytes bad = sig;
  bad[sig.size() / 2] ^= 0x10;
  EXPECT_EQ(ours->verify(s, c.hss->public_key(), as_bytes(r->bases[1]), bad).error().code, Errc::verify_failed);

  // Another hash and length (RFC 9858 SHAKE256/192) is its own row of the same family.
  OffRegistryCrawler shake("lms-shake-m24-h5-w4");
  EXPECT_EQ(shake.stateful->suite().id, "lms-shake-m24-h5-w4");
  EXPECT_NE(&shake.stateful->suite(), &s);
  EXPECT_EQ(shake.stateful->suite().public_key_size, 52u);
}

// Hostile HSS keys are typed errors when the key is imported (the seam reading its parameter set,
// or a directory filing it), so no label ever reaches verification with them.
TEST(HssLabel, HostileKeysAreTypedAtImportNotAtVerify) {
  OffRegistryCrawler c("lms-sha256-m32-h5-w8");
  const bytes pk = c.hss->public_key();
  auto be32 = [](bytes& b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<u8>(v >> (24 - 8 * i));
  };
  struct Case {
    const char* what;
    bytes key;
    Errc code;
  };
  std::vector<Case> cases;
  {
    bytes b = pk;
    be32(b, 0, 9);
    cases.push_back({"L = 9", b, Errc::invalid_encoding});
    be32(b, 0, 0);
    cases.push_back({"L = 0", b, Errc::invalid_encoding});
  }
  {
    bytes b = pk;
    be32(b, 4, 0x77);
    cases.push_back({"unknown LMS type", b, Errc::unknown_suite});
    b = pk;
    be32(b, 8, 0xffffffffu);
    cases.push_back({"unknown LM-OTS type", b, Errc::unknown_suite});
    b = pk;
    be32(b, 8, lms::find_lmots("LMOTS_SHAKE_N32_W8")->type);
    cases.push_back({"LMS and LM-OTS of two hashes", b, Errc::invalid_encoding});
  }
  {
    // Huge height: three levels of H25 (2^75 signatures, above the 2^63 bound).
    bytes b = pk;
    be32(b, 0, 3);
    be32(b, 4, lms::find_lms("LMS_SHA256_M32_H25")->type);
    cases.push_back({"3 x H25", b, Errc::invalid_encoding});
  }
  cases.push_back({"truncated", bytes(pk.begin(), pk.end() - 1), Errc::invalid_length});
  cases.push_back({"header cut", bytes(pk.begin(), pk.begin() + 11), Errc::invalid_length});
  {
    bytes b = pk;
    b.push_back(0);
    cases.push_back({"one byte too many", b, Errc::invalid_length});
  }
  cases.push_back({"empty", bytes{}, Errc::invalid_length});

  for (const auto& k : cases) {
    SCOPED_TRACE(k.what);
    auto s = suite_for_public_key(Family::lms, k.key);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, k.code) << s.error().what();
    // A directory carrying it files nothing: the label naming it is an unknown keyid, skipped.
    const std::string jwk = "{\"kty\":\"AKP\",\"alg\":\"HSS-LMS\",\"pub\":\"" + base64url_encode(k.key) + "\"}";
    KeyStore store;
    auto f = wba::add_fetched_jwks(store, "{\"keys\":[" + jwk + "]}", true);
    ASSERT_TRUE(f.ok());
    EXPECT_EQ(f->filed, 0u);
    EXPECT_EQ(f->unusable, 1u);
    EXPECT_EQ(store.size(), 0u);
  }
  // Families whose parameter set is named by a suite have no key-carried set.
  EXPECT_EQ(suite_for_public_key(Family::ml_dsa, pk).error().code, Errc::unsupported);
  EXPECT_EQ(suite_for_public_key(Family::slh_dsa, pk).error().code, Errc::unsupported);
  // Read as an XMSS key (OID 1 in the XMSS registry: 68 bytes), an HSS key is of the wrong length.
  EXPECT_EQ(suite_for_public_key(Family::xmss, pk).error().code, Errc::invalid_length);
}
