// Stateful hash-based public keys in container forms (pqsig/jose.hpp): RFC 9802 SPKI for HSS, XMSS
// and XMSS^MT (the DER bytes written out by hand from the RFC's ASN.1), RFC 8778 COSE_Key for HSS
// (deterministic CBOR bytes by hand), pqsig's AKP JWK, and every malformed form refused with a
// typed error.
#include <gtest/gtest.h>

#include <random>

#include "jose/der.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/lms.hpp"
#include "pqsig/xmss.hpp"
#include "support/join_bytes.hpp"

using namespace pqsig;
using namespace pqsig::jose;

namespace {

bytes hx(std::string_view s) { return from_hex(s).value(); }
using pqsig::test::join_bytes;

struct HssFixture {
  bytes pk;
  lms::HssSigner signer;
};
HssFixture& hss_fixture() {
  static HssFixture* f = [] {
    auto lv = lms::parse_levels("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8");
    EXPECT_TRUE(lv.ok());
    auto k = lms::HssPrivateKey::from_seed(*lv, bytes(16, 0x11), bytes(32, 0x22));
    EXPECT_TRUE(k.ok());
    auto s = lms::HssSigner::create(std::move(*k), 1);
    EXPECT_TRUE(s.ok());
    bytes pk = s->public_key();
    return new HssFixture{pk, std::move(*s)};
  }();
  return *f;
}

// An XMSS / XMSS^MT public key of the right shape: u32str(oid) || root || SEED (n = 32).
bytes xmss_shaped(std::uint32_t oid, u8 fill) {
  bytes k = {static_cast<u8>(oid >> 24), static_cast<u8>(oid >> 16), static_cast<u8>(oid >> 8), static_cast<u8>(oid)};
  k.resize(4 + 64, fill);
  return k;
}

}  // namespace

TEST(HbsSpki, HssBytesAreRfc9802) {
  const auto& f = hss_fixture();
  ASSERT_EQ(f.pk.size(), 60u);  // u32 L || u32 lms || u32 ots || I || T[1]
  auto der = hbs_to_spki_der({HbsKind::hss, f.pk});
  ASSERT_TRUE(der.ok()) << der.error().what();
  // SEQUENCE { SEQUENCE { OID 1.2.840.113549.1.9.16.3.17 } BIT STRING { 00 || pk } } (RFC 9802 §3/§4:
  // parameters absent, the raw key in the BIT STRING, no OCTET STRING inside).
  bytes want = join_bytes({hx("304e" "300d" "060b2a864886f70d0109100311" "033d00"), f.pk});
  EXPECT_EQ(*der, want);
  auto back = hbs_from_spki_der(*der);
  ASSERT_TRUE(back.ok()) << back.error().what();
  EXPECT_EQ(back->kind, HbsKind::hss);
  EXPECT_EQ(back->key, f.pk);
  auto pem = hbs_to_spki_pem({HbsKind::hss, f.pk});
  ASSERT_TRUE(pem.ok());
  EXPECT_NE(pem->find("-----BEGIN PUBLIC KEY-----"), std::string::npos);
  auto back2 = hbs_from_spki_pem(*pem);
  ASSERT_TRUE(back2.ok());
  EXPECT_EQ(back2->key, f.pk);
}

TEST(HbsSpki, XmssAndXmssMtOids) {
  // XMSS-SHA2_10_256 (oid 1) and XMSSMT-SHA2_20/2_256 (oid 1 in the XMSS^MT registry).
  for (auto [kind, oid_der] : {std::pair{HbsKind::xmss, std::string("06082b06010505070622")},
                               std::pair{HbsKind::xmssmt, std::string("06082b06010505070623")}}) {
    bytes pk = xmss_shaped(1, 0x5a);
    auto der = hbs_to_spki_der({kind, pk});
    ASSERT_TRUE(der.ok()) << der.error().what();
    bytes want = join_bytes({hx("3053" "300a"), hx(oid_der), hx("034500"), pk});
    EXPECT_EQ(*der, want);
    auto back = hbs_from_spki_der(*der);
    ASSERT_TRUE(back.ok()) << back.error().what();
    EXPECT_EQ(back->kind, kind);
    EXPECT_EQ(back->key, pk);
  }
  // An unknown XMSS OID value in the key.
  EXPECT_FALSE(hbs_to_spki_der({HbsKind::xmss, xmss_shaped(0x7777, 1)}).ok());
}

TEST(HbsSpki, StrictParsingTypedErrors) {
  const auto& f = hss_fixture();
  const bytes good = hbs_to_spki_der({HbsKind::hss, f.pk}).value();
  auto code_of = [](byte_span d) {
    auto r = hbs_from_spki_der(d);
    return r ? Errc{} : r.error().code;
  };
  // parameters present (NULL): refused
  bytes with_null = join_bytes({hx("3050" "300f" "060b2a864886f70d0109100311" "0500" "033d00"), f.pk});
  EXPECT_EQ(code_of(with_null), Errc::invalid_encoding);
  // unused bits in the BIT STRING
  bytes unused = good;
  unused[17 + 2] = 1;
  EXPECT_EQ(code_of(unused), Errc::invalid_encoding);
  // trailing byte after the SEQUENCE
  bytes trailing = good;
  trailing.push_back(0);
  EXPECT_FALSE(hbs_from_spki_der(trailing).ok());
  // the ML-DSA-44 OID: not ours
  bytes mldsa = join_bytes({hx("304c" "300b" "0609608648016503040311" "033d00"), f.pk});
  EXPECT_EQ(code_of(mldsa), Errc::unknown_suite);
  // a non-minimal length (81 4c instead of 4c)
  bytes longform = join_bytes({hx("30814e" "300d" "060b2a864886f70d0109100311" "033d00"), f.pk});
  EXPECT_FALSE(hbs_from_spki_der(longform).ok());
  // OCTET STRING wrapping inside the BIT STRING (RFC 8708's ambiguity, refused: RFC 9802 §4)
  bytes wrapped = join_bytes({hx("3050" "300d" "060b2a864886f70d0109100311" "033f00" "043c"), f.pk});
  EXPECT_FALSE(hbs_from_spki_der(wrapped).ok());
  // every truncation: an error, never a crash
  for (std::size_t n = 0; n < good.size(); ++n) EXPECT_FALSE(hbs_from_spki_der(byte_span(good.data(), n)).ok()) << n;
}

TEST(HbsPublicKey, HssStructureChecks) {
  const auto& f = hss_fixture();
  EXPECT_TRUE(check_hbs_public_key({HbsKind::hss, f.pk}).ok());
  auto with = [&](std::size_t at, u8 v) {
    bytes k = f.pk;
    k[at] = v;
    return check_hbs_public_key({HbsKind::hss, k});
  };
  EXPECT_EQ(with(3, 0).error().code, Errc::invalid_encoding);   // L = 0
  EXPECT_EQ(with(3, 9).error().code, Errc::invalid_encoding);   // L = 9
  EXPECT_EQ(with(7, 0x55).error().code, Errc::unknown_suite);   // unknown LMS typecode
  EXPECT_EQ(with(11, 0x55).error().code, Errc::unknown_suite);  // unknown LM-OTS typecode
  // LMS_SHA256_M24_H5 (0x0a) with LMOTS_SHA256_N32_W8 (4): mixed lengths
  EXPECT_EQ(with(7, 0x0a).error().code, Errc::invalid_encoding);
  bytes shorter(f.pk.begin(), f.pk.end() - 1);
  EXPECT_EQ(check_hbs_public_key({HbsKind::hss, shorter}).error().code, Errc::invalid_length);
  EXPECT_EQ(check_hbs_public_key({HbsKind::hss, bytes(5, 0)}).error().code, Errc::invalid_length);
  EXPECT_GT(hbs_signature_bytes({HbsKind::hss, f.pk}), 1000u);
  EXPECT_EQ(hbs_signature_bytes({HbsKind::hss, shorter}), 0u);
}

TEST(HbsPublicKey, VerifyThroughTheForm) {
  auto& f = hss_fixture();
  auto sig = f.signer.sign_at(3, as_bytes("message"));
  ASSERT_TRUE(sig.ok());
  EXPECT_EQ(sig->size(), hbs_signature_bytes({HbsKind::hss, f.pk}));
  auto k = hbs_from_spki_der(hbs_to_spki_der({HbsKind::hss, f.pk}).value()).value();
  EXPECT_TRUE(hbs_verify(k, as_bytes("message"), *sig).ok());
  auto bad = hbs_verify(k, as_bytes("messagf"), *sig);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::verify_failed);
  bytes cut(sig->begin(), sig->end() - 1);
  EXPECT_FALSE(hbs_verify(k, as_bytes("message"), cut).ok());
}

TEST(HbsJwk, RoundTripAndThumbprint) {
  const auto& f = hss_fixture();
  auto j = hbs_to_jwk({HbsKind::hss, f.pk});
  ASSERT_TRUE(j.ok()) << j.error().what();
  EXPECT_NE(j->find("\"kty\":\"AKP\""), std::string::npos);
  EXPECT_NE(j->find("\"alg\":\"HSS-LMS\""), std::string::npos);
  EXPECT_TRUE(is_hbs_jwk(*j));
  std::string tp, kid;
  auto k = hbs_from_jwk(*j, &tp, &kid);
  ASSERT_TRUE(k.ok()) << k.error().what();
  EXPECT_EQ(k->key, f.pk);
  EXPECT_EQ(kid, tp);
  // RFC 7638 over the AKP members alg, kty, pub in order.
  auto tin = thumbprint_input(*j);
  ASSERT_TRUE(tin.ok());
  EXPECT_EQ(*tin, "{\"alg\":\"HSS-LMS\",\"kty\":\"AKP\",\"pub\":\"" + base64url_encode(f.pk) + "\"}");
  // XMSS^MT
  auto jx = hbs_to_jwk({HbsKind::xmssmt, xmss_shaped(1, 3)});
  ASSERT_TRUE(jx.ok());
  auto kx = hbs_from_jwk(*jx);
  ASSERT_TRUE(kx.ok());
  EXPECT_EQ(kx->kind, HbsKind::xmssmt);
}

TEST(HbsJwk, RefusesWithTypedErrors) {
  const auto& f = hss_fixture();
  const std::string pub = base64url_encode(f.pk);
  auto code = [](const std::string& s) {
    auto r = hbs_from_jwk(s);
    return r ? Errc{} : r.error().code;
  };
  EXPECT_EQ(code("{\"kty\":\"AKP\",\"alg\":\"HSS-LMS\",\"pub\":\"" + pub + "\",\"priv\":\"AAAA\"}"), Errc::invalid_argument);
  EXPECT_EQ(code("{\"kty\":\"OKP\",\"alg\":\"HSS-LMS\",\"pub\":\"" + pub + "\"}"), Errc::invalid_encoding);
  EXPECT_EQ(code("{\"kty\":\"AKP\",\"alg\":\"ML-DSA-44\",\"pub\":\"" + pub + "\"}"), Errc::unknown_suite);
  EXPECT_EQ(code("{\"kty\":\"AKP\",\"alg\":\"HSS-LMS\",\"pub\":\"" + pub + "=\"}"), Errc::invalid_encoding);
  EXPECT_EQ(code("{\"kty\":\"AKP\",\"alg\":\"HSS-LMS\",\"pub\":\"" + pub.substr(4) + "\"}") != Errc{}, true);
  EXPECT_EQ(code("{\"kty\":\"AKP\",\"alg\":\"HSS-LMS\",\"pub\":\"" + pub + "\",\"use\":\"enc\"}"), Errc::invalid_encoding);
  EXPECT_EQ(code("{\"kty\":\"AKP\",\"alg\":\"HSS-LMS\",\"alg\":\"HSS-LMS\",\"pub\":\"" + pub + "\"}"), Errc::invalid_encoding);
  EXPECT_EQ(code("[1]"), Errc::invalid_encoding);
  EXPECT_FALSE(is_hbs_jwk("{\"kty\":\"AKP\",\"alg\":\"ML-DSA-44\"}"));
  EXPECT_FALSE(is_hbs_jwk("not json"));
}

TEST(HbsCose, Rfc8778KeyBytes) {
  const auto& f = hss_fixture();
  auto c = hss_to_cose_key(f.pk);
  ASSERT_TRUE(c.ok()) << c.error().what();
  // {1: 5, 3: -46, -1: h'…'} in deterministic order: a3 01 05 03 38 2d 20 58 3c <60 bytes>
  EXPECT_EQ(*c, join_bytes({hx("a30105" "03382d" "20583c"), f.pk}));
  auto back = hss_from_cose_key(*c);
  ASSERT_TRUE(back.ok()) << back.error().what();
  EXPECT_EQ(*back, f.pk);
  // with a kid: a4 01 05 02 42 6b 31 03 38 2d 20 58 3c ...
  auto ck = hss_to_cose_key(f.pk, as_bytes("k1"));
  ASSERT_TRUE(ck.ok());
  EXPECT_EQ(*ck, join_bytes({hx("a40105" "02426b31" "03382d" "20583c"), f.pk}));
  bytes kid;
  ASSERT_TRUE(hss_from_cose_key(*ck, &kid).ok());
  EXPECT_EQ(kid, bytes({'k', '1'}));
  // key_ops [verify] is accepted
  EXPECT_TRUE(hss_from_cose_key(join_bytes({hx("a40105" "03382d" "048102" "20583c"), f.pk})).ok());
}

TEST(HbsCose, HostileCbor) {
  const auto& f = hss_fixture();
  const bytes good = hss_to_cose_key(f.pk).value();
  auto code = [](const bytes& b) {
    auto r = hss_from_cose_key(b);
    return r ? Errc{} : r.error().code;
  };
  EXPECT_EQ(code(join_bytes({hx("a3" "03382d" "0105" "20583c"), f.pk})), Errc::invalid_encoding);        // order
  EXPECT_EQ(code(join_bytes({hx("a4" "0105" "0105" "03382d" "20583c"), f.pk})), Errc::invalid_encoding); // duplicate
  EXPECT_EQ(code(join_bytes({hx("bf" "0105" "03382d" "20583c"), f.pk, hx("ff")})), Errc::invalid_encoding);  // indefinite
  EXPECT_EQ(code(join_bytes({hx("a3" "180105" "03382d" "20583c"), f.pk})), Errc::invalid_encoding);      // non-shortest
  EXPECT_EQ(code(join_bytes({hx("a3" "0101" "03382d" "20583c"), f.pk})), Errc::unknown_suite);           // kty OKP
  EXPECT_EQ(code(join_bytes({hx("a3" "0105" "0326" "20583c"), f.pk})), Errc::unknown_suite);             // alg -7
  EXPECT_EQ(code(join_bytes({hx("a4" "0105" "03382d" "20583c"), f.pk, hx("215820"), bytes(32, 1)})), Errc::invalid_encoding);  // -2
  EXPECT_EQ(code(join_bytes({hx("a2" "03382d" "20583c"), f.pk})), Errc::invalid_encoding);               // no kty
  EXPECT_EQ(code(hx("a20105" "03382d")), Errc::invalid_encoding);                                 // no pub
  EXPECT_EQ(code(join_bytes({hx("a3" "0105" "03382d" "20" "783c"), bytes(60, 'a')})), Errc::invalid_encoding);  // pub a tstr
  EXPECT_EQ(code(join_bytes({hx("a40105" "03382d" "048101" "20583c"), f.pk})), Errc::invalid_argument);  // key_ops sign
  bytes trailing = good;
  trailing.push_back(0);
  EXPECT_EQ(code(trailing), Errc::invalid_encoding);
  EXPECT_NE(code(hx("a30105" "03382d" "205bffffffffffffffff")), Errc{});
  for (std::size_t n = 0; n < good.size(); ++n) EXPECT_NE(code(bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n))), Errc{}) << n;
}

// Bounded random mutations of every form: each parse is a value or a typed error.
TEST(HbsForms, MutationsNeverCrash) {
  const auto& f = hss_fixture();
  const bytes spki = hbs_to_spki_der({HbsKind::hss, f.pk}).value();
  const bytes cose = hss_to_cose_key(f.pk).value();
  std::mt19937 rng(23);
  int accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    bytes a = (i & 1) ? spki : cose;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < flips; ++k) a[rng() % a.size()] ^= static_cast<u8>(1u << (rng() % 8));
    if (i & 1) {
      auto r = hbs_from_spki_der(a);
      if (r) {
        ++accepted;
        EXPECT_TRUE(check_hbs_public_key(*r).ok());
      }
    } else {
      auto r = hss_from_cose_key(a);
      if (r) ++accepted;
    }
  }
  // Flips inside I or T[1] still parse (they are opaque bytes); structure flips never do.
  EXPECT_LT(accepted, 3000);
}
