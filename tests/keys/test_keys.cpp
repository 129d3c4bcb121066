// Purpose-bound key records and two-way rotation: JSON and canonical round trips, and one test
// per refusal (wrong purpose, not yet valid, expired, revoked, key mismatch, each way a rotation
// proof or chain can break).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pqsig/keys.hpp"

using namespace pqsig;
using namespace pqsig::keys;

namespace {
const SuiteInfo& S(std::string_view id) { return *find_suite(id).value(); }

SigningKey key(std::string_view suite, u8 fill) {
  bytes seed(S(suite).private_key_size, fill);
  return SigningKey::from_private(S(suite), seed).value();
}

bool available(std::string_view suite) {
  bytes z(S(suite).private_key_size, 1);
  auto k = SigningKey::from_private(S(suite), z);
  return k.ok() || k.error().code != Errc::unsupported;
}
#define REQUIRE_SUITE(id) \
  if (!available(id)) GTEST_FAIL() << id << " backend not in this build"

constexpr std::uint64_t T0 = 1767225600;  // 2026-01-01
constexpr std::uint64_t DAY = 86400;

struct Fixture {
  SigningKey k0 = key("ml-dsa-65", 1);
  SigningKey k1 = key("ml-dsa-65+ed25519", 2);
  SigningKey k2 = key("ml-dsa-44", 3);
  KeyRecord r0, r1, r2;
  Fixture() {
    r0 = make_record(k0.suite(), k0.public_key(), "bank-a", Purpose::settlement_instruction, 0, T0, T0 + 100 * DAY).value();
    r1 = rotate(r0, k0, k1, T0 + 50 * DAY, T0 + 150 * DAY).value();
    r2 = rotate(r1, k1, k2, T0 + 120 * DAY, T0 + 300 * DAY).value();
  }
};

void expect_refused(const Status& st, Refusal want, const Refusal& got) {
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(got, want) << st.error().what();
  EXPECT_EQ(st.error().message.rfind(std::string(refusal_code(want)), 0), 0u) << st.error().message;
  if (want != Refusal::malformed) {
    EXPECT_EQ(st.error().code, Errc::policy);
  }
}

// Self-consistency checks (the anchoring rule has its own tests below).
CheckOptions at(std::uint64_t t, std::optional<Purpose> p = std::nullopt) {
  CheckOptions o;
  o.at = t;
  o.purpose = p;
  o.allow_unanchored = true;
  return o;
}
}  // namespace

TEST(Keys, RecordJsonAndCanonicalRoundTrip) {
  REQUIRE_SUITE("ml-dsa-65+ed25519");
  Fixture f;
  for (const KeyRecord* r : {&f.r0, &f.r1, &f.r2}) {
    std::string j = to_json(*r);
    auto back = from_json(j);
    ASSERT_TRUE(back.ok()) << back.error().what();
    EXPECT_EQ(to_json(*back), j);
    EXPECT_EQ(encode_record(*back).value(), encode_record(*r).value());
  }
  EXPECT_EQ(f.r1.generation, 1u);
  EXPECT_EQ(f.r2.generation, 2u);
  EXPECT_EQ(f.r1.rotation->previous_kid, f.r0.kid);
  EXPECT_EQ(f.r0.kid, key_id(f.k0.suite(), f.k0.public_key()).value());
  // The canonical record starts with its domain and differs per purpose.
  auto enc = encode_record(f.r0).value();
  EXPECT_EQ(to_hex(byte_span(enc).first(20)), "0012" + to_hex(as_bytes("PQSIG:KEYRECORD:v1")));
  KeyRecord g = f.r0;
  g.purpose = Purpose::governance;
  EXPECT_NE(encode_record(g).value(), enc);
}

TEST(Keys, StrictJson) {
  REQUIRE_SUITE("ml-dsa-65");
  Fixture f;
  auto j = nlohmann::json::parse(to_json(f.r1));
  auto bad = [&](auto mutate) {
    auto c = j;
    mutate(c);
    auto r = from_json(c.dump());
    EXPECT_FALSE(r.ok()) << c.dump().substr(0, 200);
    if (!r.ok()) {
      EXPECT_TRUE(r.error().code == Errc::invalid_encoding || r.error().code == Errc::unknown_suite);
    }
  };
  bad([](auto& c) { c["extra"] = 1; });
  bad([](auto& c) { c["rotation"]["extra"] = 1; });
  bad([](auto& c) { c["version"] = 2; });
  bad([](auto& c) { c["type"] = "x"; });
  bad([](auto& c) { c["purpose"] = "lunch"; });
  bad([](auto& c) { c["suite"] = "ml-dsa-66"; });
  bad([](auto& c) { c["suite"] = "ml-dsa-65@v9"; });
  bad([](auto& c) { c["generation"] = -1; });
  bad([](auto& c) { c["generation"] = 1.5; });
  bad([](auto& c) { c["not_after"] = c["not_before"]; });
  bad([](auto& c) { c["public_key"] = "AAAA"; });
  bad([](auto& c) { c["participant"] = ""; });
  bad([](auto& c) { c.erase("kid"); });
  EXPECT_FALSE(from_json(R"({"type":"pqsig-key-record","type":"pqsig-key-record"})").ok());
  EXPECT_FALSE(from_json("[]").ok());
}

TEST(Keys, ValidRecordsAndChain) {
  REQUIRE_SUITE("ml-dsa-65+ed25519");
  Fixture f;
  EXPECT_TRUE(check_record(f.r0, at(T0 + 10 * DAY, Purpose::settlement_instruction)).ok());
  EXPECT_TRUE(check_record(f.r1, at(T0 + 60 * DAY)).ok());
  EXPECT_TRUE(check_record(f.r2, at(T0 + 200 * DAY, Purpose::settlement_instruction)).ok());
  std::vector<KeyRecord> chain{f.r0, f.r1, f.r2};
  auto st = check_chain(chain, at(T0 + 200 * DAY, Purpose::settlement_instruction));
  EXPECT_TRUE(st.ok()) << st.error().what();
  // Window boundaries: not_before inclusive, not_after exclusive.
  EXPECT_TRUE(check_record(f.r0, at(T0)).ok());
  EXPECT_TRUE(check_record(f.r0, at(T0 + 100 * DAY - 1)).ok());
}

TEST(Keys, RefusesWrongPurpose) {
  REQUIRE_SUITE("ml-dsa-65");
  Fixture f;
  Refusal why{};
  expect_refused(check_record(f.r0, at(T0 + 1, Purpose::governance), &why), Refusal::wrong_purpose, why);
  std::vector<KeyRecord> chain{f.r0, f.r1};
  expect_refused(check_chain(chain, at(T0 + 60 * DAY, Purpose::quote), &why), Refusal::wrong_purpose, why);
}

TEST(Keys, RefusesOutsideWindow) {
  REQUIRE_SUITE("ml-dsa-65");
  Fixture f;
  Refusal why{};
  expect_refused(check_record(f.r0, at(T0 - 1), &why), Refusal::not_yet_valid, why);
  expect_refused(check_record(f.r0, at(T0 + 100 * DAY), &why), Refusal::expired, why);
  std::vector<KeyRecord> chain{f.r0, f.r1};
  expect_refused(check_chain(chain, at(T0 + 150 * DAY), &why), Refusal::expired, why);
}

TEST(Keys, RefusesRevoked) {
  REQUIRE_SUITE("ml-dsa-65");
  Fixture f;
  KeyRecord r = f.r0;
  ASSERT_TRUE(revoke(r, f.k0, T0 + 5 * DAY, "key compromise").ok());
  Refusal why{};
  EXPECT_TRUE(check_record(r, at(T0 + 5 * DAY - 1)).ok());
  expect_refused(check_record(r, at(T0 + 5 * DAY), &why), Refusal::revoked, why);
  EXPECT_NE(check_record(r, at(T0 + 6 * DAY)).error().message.find("key compromise"), std::string::npos);
  // survives the JSON round trip
  auto back = from_json(to_json(r)).value();
  expect_refused(check_record(back, at(T0 + 6 * DAY), &why), Refusal::revoked, why);
}

TEST(Keys, RefusesKeyMismatch) {
  REQUIRE_SUITE("ml-dsa-65");
  Fixture f;
  KeyRecord r = f.r0;
  r.kid = f.r1.kid;
  Refusal why{};
  expect_refused(check_record(r, at(T0 + 1), &why), Refusal::key_mismatch, why);
  r = f.r0;
  r.public_key = bytes(f.r0.public_key.size(), 0x11);  // another key of the same size
  auto st = check_record(r, at(T0 + 1), &why);
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(why == Refusal::key_mismatch || why == Refusal::malformed);
}

TEST(Keys, RefusesBadRotationSignatures) {
  REQUIRE_SUITE("ml-dsa-65+ed25519");
  Fixture f;
  Refusal why{};
  KeyRecord r = f.r1;
  r.rotation->old_signature[10] ^= 1;
  expect_refused(check_record(r, at(T0 + 60 * DAY), &why), Refusal::bad_rotation_signature, why);
  r = f.r1;
  r.rotation->new_signature[10] ^= 1;
  expect_refused(check_record(r, at(T0 + 60 * DAY), &why), Refusal::bad_rotation_signature, why);
  // swapped signatures
  r = f.r1;
  std::swap(r.rotation->old_signature, r.rotation->new_signature);
  expect_refused(check_record(r, at(T0 + 60 * DAY), &why), Refusal::bad_rotation_signature, why);
  // a signed field changed after signing (window extended)
  r = f.r1;
  r.not_after += DAY;
  expect_refused(check_record(r, at(T0 + 60 * DAY), &why), Refusal::bad_rotation_signature, why);
  // purpose changed after signing
  r = f.r1;
  r.purpose = Purpose::governance;
  expect_refused(check_record(r, at(T0 + 60 * DAY, Purpose::governance), &why), Refusal::bad_rotation_signature, why);
  // a proof lifted from another rotation (r2's proof glued onto r1)
  r = f.r1;
  r.rotation->old_signature = f.r2.rotation->old_signature;
  expect_refused(check_record(r, at(T0 + 60 * DAY), &why), Refusal::bad_rotation_signature, why);
}

TEST(Keys, RefusesBrokenChain) {
  REQUIRE_SUITE("ml-dsa-65+ed25519");
  Fixture f;
  Refusal why{};
  auto chain_check = [&](std::vector<KeyRecord> c) { return check_chain(c, at(T0 + 200 * DAY), &why); };
  // a link skipped: r2 does not rotate from r0
  expect_refused(chain_check({f.r0, f.r2}), Refusal::broken_chain, why);
  // no rotation proof on a later record
  KeyRecord bare = f.r1;
  bare.rotation.reset();
  expect_refused(check_chain(std::vector<KeyRecord>{f.r0, bare}, at(T0 + 60 * DAY), &why), Refusal::broken_chain, why);
  // another participant's key used as anchor
  KeyRecord other = make_record(f.k0.suite(), f.k0.public_key(), "bank-b", Purpose::settlement_instruction, 0, T0,
                                T0 + 100 * DAY).value();
  expect_refused(check_chain(std::vector<KeyRecord>{other, f.r1}, at(T0 + 60 * DAY), &why), Refusal::broken_chain, why);
  // anchor for another purpose
  KeyRecord gov = f.r0;
  gov.purpose = Purpose::governance;
  expect_refused(check_chain(std::vector<KeyRecord>{gov, f.r1}, at(T0 + 60 * DAY), &why), Refusal::broken_chain, why);
  // rotation made after the old key expired
  SigningKey k1 = key("ml-dsa-65+ed25519", 2);
  KeyRecord late = rotate(f.r0, f.k0, k1, T0 + 100 * DAY, T0 + 200 * DAY).value();
  EXPECT_TRUE(check_record(late, at(T0 + 150 * DAY)).ok());  // the proof itself is fine
  expect_refused(check_chain(std::vector<KeyRecord>{f.r0, late}, at(T0 + 150 * DAY), &why), Refusal::broken_chain, why);
  // rotation made by a key already revoked
  KeyRecord rev = f.r0;
  ASSERT_TRUE(revoke(rev, f.k0, T0 + 40 * DAY, "compromised").ok());
  expect_refused(check_chain(std::vector<KeyRecord>{rev, f.r1}, at(T0 + 60 * DAY), &why), Refusal::broken_chain, why);
  // ... but a key revoked after it rotated does not break its successor
  KeyRecord rev_later = f.r0;
  ASSERT_TRUE(revoke(rev_later, f.k0, T0 + 60 * DAY, "retired").ok());
  EXPECT_TRUE(check_chain(std::vector<KeyRecord>{rev_later, f.r1}, at(T0 + 70 * DAY)).ok());
  // generation tampered
  KeyRecord gen = f.r1;
  gen.generation = 5;
  gen.rotation->previous_generation = 4;
  expect_refused(check_chain(std::vector<KeyRecord>{f.r0, gen}, at(T0 + 60 * DAY), &why), Refusal::broken_chain, why);
  // previous kid does not match the embedded previous key
  KeyRecord pk = f.r1;
  pk.rotation->previous_kid = f.r2.kid;
  expect_refused(check_record(pk, at(T0 + 60 * DAY), &why), Refusal::broken_chain, why);
  EXPECT_FALSE(check_chain(std::vector<KeyRecord>{}, {}).ok());
}

TEST(Keys, RotateRefusesWrongOldKey) {
  REQUIRE_SUITE("ml-dsa-65");
  Fixture f;
  SigningKey stranger = key("ml-dsa-65", 9);
  EXPECT_EQ(rotate(f.r0, stranger, f.k1, T0 + DAY, T0 + 2 * DAY).error().code, Errc::invalid_argument);
  EXPECT_EQ(rotate(f.r0, f.k0, f.k0, T0 + DAY, T0 + 2 * DAY).error().code, Errc::invalid_argument);
}

TEST(Keys, ClassicalAndSlhKeysRotate) {
  REQUIRE_SUITE("ed25519");
  // Suites without a context string (Ed25519) and with one (SLH-DSA) both work in a chain.
  // (SLH-DSA's private key embeds PK.root, so it must come from key generation, not a fill pattern.)
  SigningKey a = key("ed25519", 4), b = SigningKey::generate(S("slh-dsa-sha2-128f")).value();
  auto r0 = make_record(a.suite(), a.public_key(), "crawler-1", Purpose::attestation, 0, T0, T0 + 10 * DAY).value();
  auto r1 = rotate(r0, a, b, T0 + DAY, T0 + 20 * DAY);
  ASSERT_TRUE(r1.ok()) << r1.error().what();
  auto st = check_chain(std::vector<KeyRecord>{r0, *r1}, at(T0 + 2 * DAY, Purpose::attestation));
  EXPECT_TRUE(st.ok()) << st.error().what();
}

// ---------------------------------------------------------------- trust: anchors (issue 10 item 6)
TEST(Keys, UnanchoredIsRefusedUnlessAsked) {
  REQUIRE_SUITE("ml-dsa-65");
  Fixture f;
  Refusal why{};
  CheckOptions o;
  o.at = T0 + 60 * DAY;
  std::vector<KeyRecord> chain{f.r0, f.r1};
  // A self-made chain is self-consistent, but without a trusted anchor it is refused.
  expect_refused(check_chain(chain, o, &why), Refusal::unanchored, why);
  expect_refused(check_record(f.r1, o, &why), Refusal::unanchored, why);
  o.allow_unanchored = true;
  EXPECT_TRUE(check_chain(chain, o).ok());
  o.allow_unanchored = false;
  o.anchors = {f.r0.kid};
  EXPECT_TRUE(check_chain(chain, o).ok());
  EXPECT_TRUE(check_record(f.r1, o).ok());  // r1's proof names and verifies r0's key
  o.anchors = {f.r1.kid};
  EXPECT_TRUE(check_record(f.r1, o).ok());
  // A stranger's chain does not contain the anchor.
  SigningKey s0 = key("ml-dsa-65", 9), s1 = key("ml-dsa-44", 10);
  auto x0 = make_record(s0.suite(), s0.public_key(), "bank-a", Purpose::settlement_instruction, 0, T0, T0 + 100 * DAY).value();
  auto x1 = rotate(x0, s0, s1, T0 + 50 * DAY, T0 + 150 * DAY).value();
  o.anchors = {f.r0.kid};
  std::vector<KeyRecord> forged{x0, x1};
  expect_refused(check_chain(forged, o, &why), Refusal::unanchored, why);
  expect_refused(check_record(x1, o, &why), Refusal::unanchored, why);
}

// ---------------------------------------------------------------- trust: signed revocations
TEST(Keys, RevocationsAreSignedByAKeyWithAuthority) {
  REQUIRE_SUITE("ml-dsa-65");
  Fixture f;
  Refusal why{};
  // Own key and the key it was rotated from may revoke; anyone else may not.
  KeyRecord own = f.r1, by_prev = f.r1, by_other = f.r1;
  ASSERT_TRUE(revoke(own, f.k1, T0 + 60 * DAY, "retired").ok());
  ASSERT_TRUE(revoke(by_prev, f.k0, T0 + 60 * DAY, "superseded").ok());
  auto st = revoke(by_other, f.k2, T0 + 60 * DAY, "hostile");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Errc::invalid_argument);
  EXPECT_FALSE(by_other.revocation.has_value());
  for (const KeyRecord* r : {&own, &by_prev}) {
    EXPECT_TRUE(check_record(*r, at(T0 + 60 * DAY - 1)).ok());
    expect_refused(check_record(*r, at(T0 + 60 * DAY), &why), Refusal::revoked, why);
    auto back = from_json(to_json(*r)).value();
    expect_refused(check_record(back, at(T0 + 60 * DAY), &why), Refusal::revoked, why);
  }
  // Tampering with a signed revocation (time, reason, signer) is refused at any time of use.
  KeyRecord t = own;
  t.revocation->at += 1;
  expect_refused(check_record(t, at(T0 + 55 * DAY), &why), Refusal::bad_revocation, why);
  t = own;
  t.revocation->reason = "other";
  expect_refused(check_record(t, at(T0 + 55 * DAY), &why), Refusal::bad_revocation, why);
  t = own;
  t.revocation->signer_kid = f.r2.kid;
  expect_refused(check_record(t, at(T0 + 55 * DAY), &why), Refusal::bad_revocation, why);
  t = own;
  t.revocation->signature.back() ^= 1;
  expect_refused(check_record(t, at(T0 + 55 * DAY), &why), Refusal::bad_revocation, why);
  // An unsigned revocation (the old form) is refused, and inside a chain too.
  t = f.r0;
  t.revocation = Revocation{T0 + 70 * DAY, "unsigned", {}, {}};
  expect_refused(check_record(t, at(T0 + 1), &why), Refusal::bad_revocation, why);
  std::vector<KeyRecord> chain{t, f.r1};
  expect_refused(check_chain(chain, at(T0 + 60 * DAY), &why), Refusal::bad_revocation, why);
  auto parsed = from_json(to_json(t));
  ASSERT_TRUE(parsed.ok()) << parsed.error().what();
  expect_refused(check_record(*parsed, at(T0 + 1), &why), Refusal::bad_revocation, why);
}
