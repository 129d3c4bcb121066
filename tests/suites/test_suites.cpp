// The suite registry against the standards' constants (FIPS 203 Table 3, FIPS 204 Table 2,
// FIPS 205 Table 2, RFC 8032, SEC 1, draft-ietf-lamps-pq-composite-sigs-19, X-Wing), the
// refusal of unknown suites and versions, and the prepared-key cache (derived once per key,
// never shared between keys: a key rebuilt from new bytes never reuses the old state).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "pqsig/suite.hpp"

using namespace pqsig;

namespace {
const SuiteInfo& S(std::string_view id) { return *find_suite(id).value(); }
bytes B(std::string_view s) { return bytes(s.begin(), s.end()); }

struct Expected {
  SuiteClass cls;
  std::size_t pk, priv, expanded, out, ss;
  bool variable;
};

// Constants copied from the standards (not from the registry).
// FIPS 204 Table 2: pk / sk / sig bytes; private key = 32-byte seed ξ.
constexpr std::size_t kMlDsaPk[] = {1312, 1952, 2592}, kMlDsaSk[] = {2560, 4032, 4896}, kMlDsaSig[] = {2420, 3309, 4627};
// FIPS 203 Table 3: ek / dk / ct bytes; private key = 64-byte seed d||z; K = 32 bytes.
constexpr std::size_t kMlKemEk[] = {800, 1184, 1568}, kMlKemDk[] = {1632, 2400, 3168}, kMlKemCt[] = {768, 1088, 1568};

std::map<std::string, Expected> expected() {
  std::map<std::string, Expected> m;
  const char* lv[] = {"44", "65", "87"};
  for (int i = 0; i < 3; ++i)
    m[std::string("ml-dsa-") + lv[i]] = {SuiteClass::signature, kMlDsaPk[i], 32, kMlDsaSk[i], kMlDsaSig[i], 0, false};
  const char* kl[] = {"512", "768", "1024"};
  for (int i = 0; i < 3; ++i)
    m[std::string("ml-kem-") + kl[i]] = {SuiteClass::kem, kMlKemEk[i], 64, kMlKemDk[i], kMlKemCt[i], 32, false};
  // FIPS 205 Table 2: n, and the signature sizes; pk = 2n, sk = 4n.
  struct {
    const char* ps;
    std::size_t n, sig;
  } slh[] = {{"128s", 16, 7856},  {"128f", 16, 17088}, {"192s", 24, 16224},
             {"192f", 24, 35664}, {"256s", 32, 29792}, {"256f", 32, 49856}};
  for (const char* h : {"sha2", "shake"})
    for (const auto& p : slh)
      m[std::string("slh-dsa-") + h + "-" + p.ps] = {SuiteClass::signature, 2 * p.n, 4 * p.n, 4 * p.n, p.sig, 0, false};
  // RFC 8032 §5.1/§5.2; SEC 1 §2.3.3 (uncompressed point) and raw r||s (RFC 9421 §3.3.4-5).
  m["ed25519"] = {SuiteClass::signature, 32, 32, 32, 64, 0, false};
  m["ed448"] = {SuiteClass::signature, 57, 57, 57, 114, 0, false};
  m["ecdsa-p256-sha256"] = {SuiteClass::signature, 65, 32, 32, 64, 0, false};
  m["ecdsa-p384-sha384"] = {SuiteClass::signature, 97, 48, 48, 96, 0, false};
  m["rsa-pss-sha512"] = {SuiteClass::signature, 0, 0, 0, 512, 0, true};   // DER keys; up to 4096-bit
  m["rsa-v1_5-sha256"] = {SuiteClass::signature, 0, 0, 0, 512, 0, true};
  m["hmac-sha256"] = {SuiteClass::mac, 0, 32, 32, 32, 0, false};
  // Composites: ML-DSA part + traditional part (draft-19; ECDSA sk = 51-byte ECPrivateKey, sig DER <= 72).
  auto comp = [&](int i, std::size_t tpk, std::size_t tsk, std::size_t tsig, bool var) {
    return Expected{SuiteClass::signature, kMlDsaPk[i] + tpk, 32 + tsk, 32 + tsk, kMlDsaSig[i] + tsig, 0, var};
  };
  m["ml-dsa-44+ed25519"] = comp(0, 32, 32, 64, false);
  m["ml-dsa-65+ed25519"] = comp(1, 32, 32, 64, false);
  m["ml-dsa-44+ecdsa-p256"] = comp(0, 65, 51, 72, true);
  m["ml-dsa-65+ecdsa-p256"] = comp(1, 65, 51, 72, true);
  m["ml-dsa-87+ed448"] = comp(2, 57, 57, 114, false);
  // Hybrid KEMs over ML-KEM-768 (ek 1184, ct 1088) and X25519 (32-byte keys / shares).
  m["x-wing"] = {SuiteClass::kem, 1184 + 32, 32, 32, 1088 + 32, 32, false};  // draft-connolly-cfrg-xwing-kem
  m["x25519-ml-kem-768"] = {SuiteClass::kem, 1184 + 32, 64 + 32, 64 + 32, 1088 + 32, 32 + 32, false};
  m["ml-kem-768+x25519-hkdf"] = {SuiteClass::kem, 1184 + 32, 64 + 32, 64 + 32, 1088 + 32, 32, false};
  // LMS / HSS, SHA-256, n = m = 32 (RFC 8554): LM-OTS sig 4 + n(p + 1) with p = 67 (W4) / 34 (W8)
  // (Table 1); LMS sig 4 + ots + 4 + h·m, LMS pk 24 + m (§5.3-5.4); HSS pk 4 + LMS pk, sig
  // 4 + (L - 1)(LMS sig + LMS pk) + LMS sig (§6.1-6.2). Private key (ours): 58 + 8L bytes.
  auto hss = [](std::size_t h, std::size_t p, std::size_t L) {
    const std::size_t lms_sig = 4 + (4 + 32 * (p + 1)) + 4 + h * 32, lms_pk = 56;
    return Expected{SuiteClass::signature, 4 + lms_pk, 58 + 8 * L, 58 + 8 * L, 4 + (L - 1) * (lms_sig + lms_pk) + lms_sig, 0, false};
  };
  m["lms-sha256-m32-h10-w4"] = hss(10, 67, 1);
  m["lms-sha256-m32-h10-w8"] = hss(10, 34, 1);
  m["lms-sha256-m32-h15-w4"] = hss(15, 67, 1);
  m["lms-sha256-m32-h15-w8"] = hss(15, 34, 1);
  m["lms-sha256-m32-h20-w4"] = hss(20, 67, 1);
  m["lms-sha256-m32-h20-w8"] = hss(20, 34, 1);
  m["hss-sha256-m32-h10-w8-h10-w8"] = hss(10, 34, 2);
  // XMSS / XMSS^MT, SHA-256, n = 32, len = 67 (RFC 8391 §5.2-5.3, Appendix B/C): pk 4 + 2n; sig
  // idx (4, or ceil(h/8) for MT) + n + d·(len·n + (h/d)·n). Private key (ours): 12 + 4n = 140.
  auto xm = [](std::size_t idx, std::size_t h, std::size_t d) {
    return Expected{SuiteClass::signature, 68, 140, 140, idx + 32 + d * (67 * 32 + (h / d) * 32), 0, false};
  };
  m["xmss-sha2_10_256"] = xm(4, 10, 1);
  m["xmss-sha2_16_256"] = xm(4, 16, 1);
  m["xmss-sha2_20_256"] = xm(4, 20, 1);
  m["xmssmt-sha2_20-2_256"] = xm(3, 20, 2);
  m["xmssmt-sha2_40-4_256"] = xm(5, 40, 4);
  return m;
}

bool available(const SuiteInfo& s) {
  auto k = SigningKey::generate(s);
  return k.ok() || k.error().code != Errc::unsupported;
}
}  // namespace

TEST(Registry, EveryRowMatchesTheStandards) {
  auto exp = expected();
  std::set<std::string> seen;
  for (const auto& s : all_suites()) {
    SCOPED_TRACE(std::string(s.id));
    auto it = exp.find(std::string(s.id));
    ASSERT_NE(it, exp.end()) << "registry row without a size assertion: " << s.id;
    const Expected& e = it->second;
    EXPECT_TRUE(seen.insert(std::string(s.id)).second) << "duplicate id";
    EXPECT_EQ(s.version, 1);
    EXPECT_EQ(s.cls, e.cls);
    EXPECT_EQ(s.public_key_size, e.pk);
    EXPECT_EQ(s.private_key_size, e.priv);
    EXPECT_EQ(s.expanded_key_size, e.expanded);
    EXPECT_EQ(s.output_size, e.out);
    EXPECT_EQ(s.shared_secret_size, e.ss);
    EXPECT_EQ(s.variable_output, e.variable);
    EXPECT_FALSE(s.standard.empty());
    // Ids are lower-case, no spaces.
    for (char c : s.id) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '_');
  }
  EXPECT_EQ(seen.size(), exp.size()) << "a suite the standards table expects is missing from the registry";
}

TEST(Registry, HttpNamesAreRfc9421) {
  // IANA HTTP Signature Algorithms registry (RFC 9421 §6.2.2).
  for (const char* id : {"ed25519", "ecdsa-p256-sha256", "ecdsa-p384-sha384", "rsa-pss-sha512", "rsa-v1_5-sha256",
                         "hmac-sha256"}) {
    EXPECT_EQ(S(id).http_alg, id);
    EXPECT_TRUE(S(id).http_registered) << id;
  }
  EXPECT_FALSE(S("ed448").http_registered);
}

TEST(Registry, UnknownSuiteOrVersionRefused) {
  for (const char* bad : {"", "ml-dsa", "ml-dsa-66", "ML-DSA-65", "ed25519 ", "mldsa65", "ml-dsa-65+ed448", "rsa"}) {
    auto r = find_suite(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code, Errc::unknown_suite) << bad;
  }
  EXPECT_EQ(find_suite("ml-dsa-65", 2).error().code, Errc::unknown_suite);
  EXPECT_EQ(find_suite("ed25519", 0).error().code, Errc::unknown_suite);
  EXPECT_EQ(*parse_suite_ref("ml-dsa-65@v1"), &S("ml-dsa-65"));
  EXPECT_EQ(*parse_suite_ref("ed25519"), &S("ed25519"));
  for (const char* bad : {"ml-dsa-65@v2", "ml-dsa-65@1", "ml-dsa-65@v", "ml-dsa-65@vx", "ml-dsa-65@", "@v1",
                          "ml-dsa-65@v1@v1", "ml-dsa-65@v99999999999"}) {
    auto r = parse_suite_ref(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code, Errc::unknown_suite) << bad;
  }
}

TEST(Registry, ClassMismatchRefused) {
  EXPECT_EQ(SigningKey::generate(S("ml-kem-768")).error().code, Errc::invalid_argument);
  EXPECT_EQ(SigningKey::from_private(S("x-wing"), bytes(32)).error().code, Errc::invalid_argument);
  EXPECT_EQ(KemPrivateKey::generate(S("ed25519")).error().code, Errc::invalid_argument);
  EXPECT_EQ(KemPublicKey::from_public(S("ml-dsa-65"), bytes(1952)).error().code, Errc::invalid_argument);
}

TEST(Registry, SizesHoldForGeneratedKeys) {
  // Every available signature / MAC suite (RSA skipped: slow keygen, covered in test_classical).
  for (const auto& s : all_suites()) {
    if (s.cls == SuiteClass::kem || s.id.starts_with("rsa") || s.id.starts_with("slh-dsa")) continue;
    if (s.stateful) continue;  // no stateless key: tests/suites/test_suites_hbs.cpp
    if (!available(s)) continue;
    SCOPED_TRACE(std::string(s.id));
    auto k = SigningKey::generate(s);
    ASSERT_TRUE(k.ok()) << k.error().what();
    EXPECT_EQ(k->private_key().size(), s.private_key_size);
    EXPECT_EQ(k->public_key().size(), s.public_key_size);
    auto sig = k->sign(B("m"));
    ASSERT_TRUE(sig.ok());
    if (s.variable_output) {
      EXPECT_LE(sig->size(), s.output_size);
    } else {
      EXPECT_EQ(sig->size(), s.output_size);
    }
  }
}

// ---------------------------------------------------------------- prepared-key cache

TEST(PreparedKeys, ExpandedFormDerivedOncePerKeyAndNeverShared) {
  const auto& s = S("ml-dsa-65");
  if (!available(s)) GTEST_FAIL() << "ML-DSA backend unavailable (it is always built: a failure, not a skip)";
  bytes seed1(32, 0x11), seed2(32, 0x22);
  auto k1 = SigningKey::from_private(s, seed1);
  auto k2 = SigningKey::from_private(s, seed2);
  ASSERT_TRUE(k1.ok() && k2.ok());
  // The cached expanded key is stable across calls and belongs to its own seed.
  auto e1 = k1->expanded_private_key();
  auto e1b = k1->expanded_private_key();
  auto e2 = k2->expanded_private_key();
  ASSERT_TRUE(e1.ok() && e2.ok());
  EXPECT_EQ(e1->size(), s.expanded_key_size);
  EXPECT_EQ(to_hex(*e1), to_hex(*e1b));
  EXPECT_NE(to_hex(*e1), to_hex(*e2));
  EXPECT_NE(to_hex(k1->public_key()), to_hex(k2->public_key()));
  // Re-importing the expanded form gives the same key (the cache is the FIPS 204 expansion).
  auto k1x = SigningKey::from_expanded(s, *e1);
  ASSERT_TRUE(k1x.ok());
  SignOptions det;
  det.deterministic = true;
  EXPECT_EQ(to_hex(*k1->sign(B("m"), det)), to_hex(*k1x->sign(B("m"), det)));
  EXPECT_EQ(to_hex(*k1->sign(B("m"), det)), to_hex(*k1->sign(B("m"), det)));  // reuse is consistent

  // Rotation: the same variable now holds a key built from new bytes — nothing of the old key
  // survives (public key, expanded key, signatures all follow the new seed).
  const std::string old_pk = to_hex(k1->public_key());
  auto vk_old = VerifyingKey::from_public(s, k1->public_key());
  k1 = SigningKey::from_private(s, seed2);
  ASSERT_TRUE(k1.ok());
  EXPECT_EQ(to_hex(k1->public_key()), to_hex(k2->public_key()));
  EXPECT_NE(to_hex(k1->public_key()), old_pk);
  EXPECT_EQ(to_hex(*k1->expanded_private_key()), to_hex(*e2));
  auto sig = k1->sign(B("after rotation"));
  ASSERT_TRUE(sig.ok());
  EXPECT_EQ(vk_old->verify(B("after rotation"), *sig).error().code, Errc::verify_failed);
  EXPECT_TRUE(VerifyingKey::from_public(s, k2->public_key())->verify(B("after rotation"), *sig).ok());
  // Seeds that differ in one bit give unrelated keys (no partial reuse).
  bytes seed3 = seed2;
  seed3[31] ^= 1;
  auto k3 = SigningKey::from_private(s, seed3);
  EXPECT_NE(to_hex(k3->public_key()), to_hex(k2->public_key()));
}

TEST(PreparedKeys, ClassicalAndCompositeKeysFollowTheirBytes) {
  for (const char* id : {"ed25519", "ecdsa-p256-sha256", "hmac-sha256", "ml-dsa-44+ed25519"}) {
    const auto& s = S(id);
    if (!available(s)) continue;
    SCOPED_TRACE(id);
    auto a = SigningKey::generate(s);
    auto b = SigningKey::generate(s);
    ASSERT_TRUE(a.ok() && b.ok());
    bytes pb(b->private_key().begin(), b->private_key().end());
    auto sig_a = a->sign(B("x"));
    a = SigningKey::from_private(s, pb);  // rotate in place
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(to_hex(a->private_key()), to_hex(b->private_key()));
    EXPECT_EQ(to_hex(a->public_key()), to_hex(b->public_key()));
    auto sig = a->sign(B("x"));
    if (s.cls == SuiteClass::mac) {
      EXPECT_TRUE(b->verify(B("x"), *sig).ok());
      EXPECT_EQ(b->verify(B("x"), *sig_a).error().code, Errc::verify_failed);
    } else {
      auto vb = VerifyingKey::from_public(s, b->public_key());
      EXPECT_TRUE(vb->verify(B("x"), *sig).ok());
      EXPECT_EQ(vb->verify(B("x"), *sig_a).error().code, Errc::verify_failed);
    }
  }
}

// The one-shot (cold) KEM calls: the same shared secrets as the prepared keys, from every
// accepted private-key form, and typed errors for a wrong class, a wrong length and a key that
// fails FIPS 203's checks.
TEST(OneShotKem, AgreesWithPreparedKeysAndRefusesBadInput) {
  for (const char* id : {"ml-kem-512", "ml-kem-768", "ml-kem-1024", "x-wing"}) {
    SCOPED_TRACE(id);
    auto dk = KemPrivateKey::generate(S(id));
    ASSERT_TRUE(dk.ok()) << dk.error().what();
    auto e = kem_encaps_once(S(id), dk->public_key());
    ASSERT_TRUE(e.ok()) << e.error().what();
    auto k1 = dk->decaps(e->ciphertext);
    ASSERT_TRUE(k1.ok());
    EXPECT_EQ(bytes(k1->span().begin(), k1->span().end()),
              bytes(e->shared_secret.span().begin(), e->shared_secret.span().end()));
    for (byte_span priv : {dk->private_key(), dk->expanded_key()}) {
      if (priv.empty()) continue;  // no expanded form (hybrids)
      auto k2 = kem_decaps_once(S(id), priv, e->ciphertext);
      ASSERT_TRUE(k2.ok()) << k2.error().what();
      EXPECT_EQ(bytes(k2->span().begin(), k2->span().end()), bytes(k1->span().begin(), k1->span().end()));
    }
    bytes short_pk(dk->public_key().begin(), dk->public_key().end() - 1);
    EXPECT_EQ(kem_encaps_once(S(id), short_pk).error().code, Errc::invalid_length);
    bytes short_ct = e->ciphertext;
    short_ct.pop_back();
    EXPECT_FALSE(kem_decaps_once(S(id), dk->private_key(), short_ct).ok());
  }
  // ML-KEM: a modulus-check failure and a corrupted H(ek) in the expanded key
  auto dk = KemPrivateKey::generate(S("ml-kem-768"));
  ASSERT_TRUE(dk.ok());
  bytes pk(dk->public_key().begin(), dk->public_key().end());
  pk[0] = 0xFF;
  pk[1] |= 0x0F;  // coefficient 0 = 4095 ≥ q
  EXPECT_EQ(kem_encaps_once(S("ml-kem-768"), pk).error().code, Errc::key_check_failed);
  auto e = kem_encaps_once(S("ml-kem-768"), dk->public_key());
  ASSERT_TRUE(e.ok());
  bytes x(dk->expanded_key().begin(), dk->expanded_key().end());
  x[x.size() - 64] ^= 1;  // H(ek) inside dk
  EXPECT_EQ(kem_decaps_once(S("ml-kem-768"), x, e->ciphertext).error().code, Errc::key_check_failed);
  // not a KEM suite
  EXPECT_EQ(kem_encaps_once(S("ml-dsa-44"), pk).error().code, Errc::invalid_argument);
  EXPECT_EQ(kem_decaps_once(S("ml-dsa-44"), pk, e->ciphertext).error().code, Errc::invalid_argument);
}
