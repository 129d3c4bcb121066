// Composite ML-DSA (draft-ietf-lamps-pq-composite-sigs-19): the LAMPS WG test vectors
// (traditional halves reproduced / verified over our M'; full composites verified when the
// ML-DSA backend is present), round trips, and the rejection cases: one component failing,
// one missing, the two swapped, a component lifted from another composite, wrong context.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pqsig/classical_suites.hpp"
#include "pqsig/composite.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;

namespace {
const SuiteInfo& S(std::string_view id) { return *find_suite(id).value(); }
bytes B(std::string_view s) { return bytes(s.begin(), s.end()); }
bytes b64(const std::string& s) {
  auto r = base64_decode(s);
  EXPECT_TRUE(r.ok()) << s.substr(0, 20);
  return r.ok() ? r.value() : bytes{};
}
nlohmann::json vectors() {
  std::ifstream f(std::string(PQSIG_SOURCE_DIR) + "/tests/composite/lamps_vectors.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return nlohmann::json::parse(ss.str());
}
bool mldsa_available() {
  auto k = SigningKey::generate(S("ml-dsa-44"));
  return k.ok() || k.error().code != Errc::unsupported;
}
#define REQUIRE_MLDSA() \
  if (!mldsa_available()) GTEST_FAIL() << "ML-DSA backend unavailable (it is always built: a failure, not a skip)"

constexpr const char* kComposites[] = {"ml-dsa-44+ed25519", "ml-dsa-65+ed25519", "ml-dsa-44+ecdsa-p256",
                                       "ml-dsa-65+ecdsa-p256", "ml-dsa-87+ed448"};
bytes cat(byte_span a, byte_span b) {
  bytes o(a.begin(), a.end());
  o.insert(o.end(), b.begin(), b.end());
  return o;
}
}  // namespace

TEST(Composite, RegistryMatchesDraft) {
  // draft-19 §7 / Appendix sizes: pk = ML-DSA pk + trad pk; sk = 32 + trad sk; sig = ML-DSA sig + trad sig.
  struct {
    const char* id;
    std::size_t pk, sk, sig;
    bool var;
  } rows[] = {{"ml-dsa-44+ed25519", 1312 + 32, 32 + 32, 2420 + 64, false},
              {"ml-dsa-65+ed25519", 1952 + 32, 32 + 32, 3309 + 64, false},
              {"ml-dsa-44+ecdsa-p256", 1312 + 65, 32 + 51, 2420 + 72, true},
              {"ml-dsa-65+ecdsa-p256", 1952 + 65, 32 + 51, 3309 + 72, true},
              {"ml-dsa-87+ed448", 2592 + 57, 32 + 57, 4627 + 114, false}};
  for (const auto& r : rows) {
    const auto& s = S(r.id);
    EXPECT_EQ(s.family, "composite");
    EXPECT_EQ(s.public_key_size, r.pk) << r.id;
    EXPECT_EQ(s.private_key_size, r.sk) << r.id;
    EXPECT_EQ(s.output_size, r.sig) << r.id;
    EXPECT_EQ(s.variable_output, r.var) << r.id;
    auto ci = composite::composite_info(s);
    ASSERT_TRUE(ci.ok());
    EXPECT_TRUE((*ci)->label.starts_with("COMPSIG-MLDSA"));
  }
  EXPECT_EQ(composite::kPrefix.size(), 32u);
  EXPECT_FALSE(composite::composite_info(S("ed25519")).ok());
}

TEST(Composite, MessageRepresentativeLayout) {
  const auto& s = S("ml-dsa-65+ecdsa-p256");
  bytes ctx = B("ctx!");
  auto mp = composite::message_representative(s, B("hello"), ctx);
  ASSERT_TRUE(mp.ok());
  std::string expect_head = "CompositeAlgorithmSignatures2025COMPSIG-MLDSA65-ECDSA-P256-SHA512";
  ASSERT_EQ(mp->size(), expect_head.size() + 1 + 4 + 64);
  EXPECT_EQ(std::string(mp->begin(), mp->begin() + static_cast<std::ptrdiff_t>(expect_head.size())), expect_head);
  EXPECT_EQ((*mp)[expect_head.size()], 4);
  auto ph = hash::sha512(B("hello"));
  EXPECT_EQ(to_hex(byte_span(*mp).last(64)), to_hex(ph));
  // SHAKE256/512 for ml-dsa-87+ed448, SHA-256 for ml-dsa-44+ecdsa-p256.
  EXPECT_EQ(composite::message_representative(S("ml-dsa-87+ed448"), B("x"), {})->size(), 32u + 30u + 1u + 64u);
  EXPECT_EQ(composite::message_representative(S("ml-dsa-44+ecdsa-p256"), B("x"), {})->size(), 32u + 33u + 1u + 32u);
  EXPECT_EQ(composite::message_representative(s, B("x"), bytes(256)).error().code, Errc::invalid_context);
}

TEST(Composite, LampsVectorsTraditionalHalves) {
  // The EdDSA half is deterministic: our M' + the vector's Ed25519 seed reproduce it bit for bit.
  // The ECDSA half is verified with the published public key. Proves Prefix/Label/ctx/PH.
  auto j = vectors();
  bytes m = b64(j["m"]), ctx = b64(j["ctx"]);
  int checked = 0;
  for (const auto& t : j["tests"]) {
    const auto& s = S(t["suite"].get<std::string>());
    auto ci = *composite::composite_info(s);
    bytes sk = b64(t["sk"]);
    const auto& trad = S(ci->trad_id);
    const std::size_t mlsig = S(ci->mldsa_id).output_size;
    for (auto [key, c] : {std::pair{"s", bytes{}}, {"sWithContext", ctx}}) {
      bytes sig = b64(t[key]);
      auto mp = composite::message_representative(s, m, c);
      ASSERT_TRUE(mp.ok());
      byte_span tsig = byte_span(sig).subspan(mlsig);
      if (trad.id == "ed25519") {
        auto k = SigningKey::from_private(trad, byte_span(sk).subspan(32));
        ASSERT_TRUE(k.ok());
        EXPECT_EQ(to_hex(*k->sign(*mp)), to_hex(tsig)) << t["tcId"] << " " << key;
      } else {
        bytes pk = b64(t["pk"]);
        auto vk = VerifyingKey::from_public(trad, byte_span(pk).subspan(S(ci->mldsa_id).public_key_size));
        ASSERT_TRUE(vk.ok());
        auto raw = classical::ecdsa_der_to_raw(tsig, 32);
        ASSERT_TRUE(raw.ok());
        EXPECT_TRUE(vk->verify(*mp, *raw).ok()) << t["tcId"] << " " << key;
        // ...and not under the other label.
        auto other = composite::message_representative(S("ml-dsa-65+ecdsa-p256"), m, c);
        EXPECT_FALSE(vk->verify(*other, *raw).ok());
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4);
}

TEST(Composite, LampsVectorsFullVerify) {
  REQUIRE_MLDSA();
  auto j = vectors();
  bytes m = b64(j["m"]), ctx = b64(j["ctx"]);
  for (const auto& t : j["tests"]) {
    const auto& s = S(t["suite"].get<std::string>());
    bytes sk = b64(t["sk"]);
    auto key = SigningKey::from_private(s, sk);
    ASSERT_TRUE(key.ok()) << key.error().what();
    EXPECT_EQ(to_hex(key->private_key()), to_hex(sk)) << "canonical sk round trip " << t["tcId"];
    if (t.contains("pk")) {
      EXPECT_EQ(to_hex(key->public_key()), to_hex(b64(t["pk"]))) << t["tcId"];
    }
    auto vk = VerifyingKey::from_public(s, key->public_key());
    ASSERT_TRUE(vk.ok());
    SignOptions with;
    with.ctx = ctx;
    EXPECT_TRUE(vk->verify(m, b64(t["s"])).ok()) << t["tcId"];
    EXPECT_TRUE(vk->verify(m, b64(t["sWithContext"]), with).ok()) << t["tcId"];
    EXPECT_EQ(vk->verify(m, b64(t["sWithContext"])).error().code, Errc::verify_failed);
    EXPECT_EQ(vk->verify(m, b64(t["s"]), with).error().code, Errc::verify_failed);
  }
}

TEST(Composite, RoundTripAndRejections) {
  REQUIRE_MLDSA();
  bytes msg = B("transfer 100 to acct 7");
  for (const char* id : kComposites) {
    SCOPED_TRACE(id);
    const auto& s = S(id);
    auto ci = *composite::composite_info(s);
    auto sk = SigningKey::generate(s);
    ASSERT_TRUE(sk.ok()) << sk.error().what();
    EXPECT_EQ(sk->public_key().size(), s.public_key_size);
    EXPECT_EQ(sk->private_key().size(), s.private_key_size);
    auto vk = VerifyingKey::from_public(s, sk->public_key());
    ASSERT_TRUE(vk.ok());
    auto settle = composite::application_context("settlement", s);
    auto gov = composite::application_context("governance", s);
    ASSERT_TRUE(settle.ok() && gov.ok());
    SignOptions so, go;
    so.ctx = *settle;
    go.ctx = *gov;
    auto sig = sk->sign(msg, so);
    ASSERT_TRUE(sig.ok());
    EXPECT_LE(sig->size(), s.output_size);
    if (!s.variable_output) {
      EXPECT_EQ(sig->size(), s.output_size);
    }
    EXPECT_TRUE(vk->verify(msg, *sig, so).ok());
    // Purpose binding: a settlement signature is not a governance signature (nor context-free).
    EXPECT_EQ(vk->verify(msg, *sig, go).error().code, Errc::verify_failed);
    EXPECT_EQ(vk->verify(msg, *sig).error().code, Errc::verify_failed);
    EXPECT_EQ(vk->verify(B("transfer 900 to acct 7"), *sig, so).error().code, Errc::verify_failed);

    auto parts = composite::split_signature(s, *sig);
    ASSERT_TRUE(parts.ok());
    bytes ml(parts->mldsa.begin(), parts->mldsa.end()), tr(parts->trad.begin(), parts->trad.end());
    // One component failing.
    bytes bad_ml = ml;
    bad_ml[100] ^= 1;
    EXPECT_EQ(vk->verify(msg, cat(bad_ml, tr), so).error().code, Errc::verify_failed);
    bytes bad_tr = tr;
    bad_tr[bad_tr.size() - 1] ^= 1;
    EXPECT_FALSE(vk->verify(msg, cat(ml, bad_tr), so).ok());
    // One missing (truncated).
    EXPECT_FALSE(vk->verify(msg, ml, so).ok());
    EXPECT_FALSE(vk->verify(msg, tr, so).ok());
    EXPECT_FALSE(vk->verify(msg, bytes(sig->begin(), sig->end() - 1), so).ok());
    EXPECT_FALSE(vk->verify(msg, bytes{}, so).ok());
    // The two swapped.
    EXPECT_FALSE(vk->verify(msg, cat(tr, ml), so).ok());
    // A component replaced by the same component of another signature of this key over another message.
    auto sig2 = sk->sign(B("another message"), so);
    auto p2 = composite::split_signature(s, *sig2);
    EXPECT_EQ(vk->verify(msg, cat(p2->mldsa, tr), so).error().code, Errc::verify_failed);
    EXPECT_FALSE(vk->verify(msg, cat(ml, p2->trad), so).ok());
    // Each component alone verifies under its own algorithm over M' (the construction is as specified).
    auto mp = composite::message_representative(s, msg, *settle);
    auto pkp = composite::split_public_key(s, sk->public_key());
    auto mlvk = VerifyingKey::from_public(S(ci->mldsa_id), pkp->mldsa);
    SignOptions lo;
    lo.ctx = as_bytes(ci->label);
    EXPECT_TRUE(mlvk->verify(*mp, ml, lo).ok());
    EXPECT_FALSE(mlvk->verify(msg, ml, so).ok());  // not a plain ML-DSA signature of M
    // Bad keys.
    EXPECT_EQ(VerifyingKey::from_public(s, bytes(s.public_key_size - 1)).error().code, Errc::invalid_length);
    EXPECT_FALSE(SigningKey::from_private(s, bytes(31)).ok());
    SignOptions longctx;
    bytes c256(256, 1);
    longctx.ctx = c256;
    EXPECT_EQ(sk->sign(msg, longctx).error().code, Errc::invalid_context);
  }
}

TEST(Composite, ComponentLiftedFromAnotherComposite) {
  REQUIRE_MLDSA();
  // The same component keys used in two composites (which the draft forbids — done here only to
  // show the labels separate them): components do not move between composites.
  bytes msg = B("block 1234");
  auto a = SigningKey::generate(S("ml-dsa-44+ed25519"));
  ASSERT_TRUE(a.ok());
  // ml-dsa-65+ed25519 with the same Ed25519 key, and ml-dsa-44+ecdsa-p256 with the same ML-DSA seed.
  bytes sk65 = bytes(32, 7);
  sk65.insert(sk65.end(), a->private_key().begin() + 32, a->private_key().end());
  auto b = SigningKey::from_private(S("ml-dsa-65+ed25519"), sk65);
  ASSERT_TRUE(b.ok());
  auto ec = SigningKey::generate(S("ml-dsa-44+ecdsa-p256"));
  ASSERT_TRUE(ec.ok());
  bytes skc(a->private_key().begin(), a->private_key().begin() + 32);
  skc.insert(skc.end(), ec->private_key().begin() + 32, ec->private_key().end());
  auto c = SigningKey::from_private(S("ml-dsa-44+ecdsa-p256"), skc);
  ASSERT_TRUE(c.ok());

  auto sa = *a->sign(msg), sb = *b->sign(msg), sc = *c->sign(msg);
  auto pa = *composite::split_signature(S("ml-dsa-44+ed25519"), sa);
  auto pb = *composite::split_signature(S("ml-dsa-65+ed25519"), sb);
  auto pc = *composite::split_signature(S("ml-dsa-44+ecdsa-p256"), sc);
  auto va = VerifyingKey::from_public(S("ml-dsa-44+ed25519"), a->public_key());
  auto vb = VerifyingKey::from_public(S("ml-dsa-65+ed25519"), b->public_key());
  auto vc = VerifyingKey::from_public(S("ml-dsa-44+ecdsa-p256"), c->public_key());
  EXPECT_TRUE(va->verify(msg, sa).ok());
  // Ed25519 half lifted from ml-dsa-65+ed25519 into ml-dsa-44+ed25519 (same Ed25519 key).
  EXPECT_EQ(va->verify(msg, cat(pa.mldsa, pb.trad)).error().code, Errc::verify_failed);
  EXPECT_EQ(vb->verify(msg, cat(pb.mldsa, pa.trad)).error().code, Errc::verify_failed);
  // ML-DSA-44 half lifted from ml-dsa-44+ecdsa-p256 into ml-dsa-44+ed25519 (same ML-DSA key).
  EXPECT_EQ(va->verify(msg, cat(pc.mldsa, pa.trad)).error().code, Errc::verify_failed);
  EXPECT_EQ(vc->verify(msg, cat(pa.mldsa, pc.trad)).error().code, Errc::verify_failed);
  // A whole signature under the wrong suite is malformed or invalid, never valid.
  EXPECT_FALSE(vb->verify(msg, sa).ok());
}

TEST(Composite, ApplicationContext) {
  const auto& s = S("ml-dsa-65+ed25519");
  auto c = composite::application_context("settlement", s);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(std::string(c->begin(), c->end()), "pqsig/v1/settlement/ml-dsa-65+ed25519");
  EXPECT_NE(to_hex(*c), to_hex(*composite::application_context("settlement", S("ml-dsa-44+ed25519"))));
  EXPECT_FALSE(composite::application_context("", s).ok());
  EXPECT_FALSE(composite::application_context("Settle/ment", s).ok());
}
