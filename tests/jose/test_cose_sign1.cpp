// COSE_Sign1 with HSS/LMS (pqsig/cose.hpp; RFC 9052 §4.2/§4.4, RFC 8778 §3): sign through the
// crash-safe lms::StatefulSigner, verify against a raw key and a COSE_Key, the published draft
// example as a vector, tampering, and a stranger's malformed containers, each refused with its
// typed error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "pqsig/cose.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/lms.hpp"
#include "support/join_bytes.hpp"
#include "support/scratch_dir.hpp"

using namespace pqsig;

namespace {

#include "cose_hss_example.inc"

bytes cx(std::string_view s) { return from_hex(s).value(); }
using pqsig::test::join_bytes;
bytes cose_text(std::string_view s) { return bytes(s.begin(), s.end()); }

struct CoseTempDir : pqsig::test::ScratchDir {
  CoseTempDir() : ScratchDir("cose") {}
};

lms::HssPrivateKey cose_key(std::uint8_t tag = 3) {
  auto lv = lms::parse_levels("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8");
  EXPECT_TRUE(lv.ok());
  auto k = lms::HssPrivateKey::from_seed(*lv, bytes(16, tag), bytes(32, static_cast<u8>(tag + 1)));
  EXPECT_TRUE(k.ok());
  return std::move(*k);
}

// A stateful signer on a fresh state file (32 signatures), and its public key.
struct CoseSignerFixture {
  CoseTempDir dir;
  bytes pk;
  std::optional<lms::StatefulSigner> signer;
  CoseSignerFixture() {
    pk = lms::HssSigner::create(cose_key(), 1).value().public_key();
    const std::string state = (dir.p / "k.state").string();
    EXPECT_TRUE(lms::StateStore::create(state, pk, 32).ok());
    auto s = lms::StatefulSigner::open(cose_key(), state, 4, 1);
    EXPECT_TRUE(s.ok()) << s.error().what();
    signer.emplace(std::move(*s));
  }
};

// COSE_Sign1 bytes from parts given as CBOR hex (tag 18 prefix when `tagged`).
bytes sign1_of(std::string_view protected_bstr_hex, std::string_view unprotected_hex, std::string_view payload_hex,
               byte_span signature, bool tagged = true) {
  bytes m = tagged ? cx("d284") : cx("84");
  return join_bytes({m, cx(protected_bstr_hex), cx(unprotected_hex), cx(payload_hex),
                [&] {
                  bytes b;
                  if (signature.size() < 24) b.push_back(static_cast<u8>(0x40 | signature.size()));
                  else if (signature.size() < 256) b = {0x58, static_cast<u8>(signature.size())};
                  else b = {0x59, static_cast<u8>(signature.size() >> 8), static_cast<u8>(signature.size())};
                  b.insert(b.end(), signature.begin(), signature.end());
                  return b;
                }()});
}

Errc parse_code(byte_span m, const cose::Limits& lim = {}) {
  auto p = cose::parse_sign1(m, lim);
  EXPECT_FALSE(p.ok()) << "parsed: " << to_hex(m);
  return p ? Errc::internal : p.error().code;
}

}  // namespace

// The draft-ietf-cose-hash-sig COSE_Sign1 example (cose_hss_example.inc): our Sig_structure for its
// protected header and payload is byte for byte the example's ToBeSigned, and its HSS signature
// (made by an independent implementation) verifies over those bytes with the example key. Its alg
// is the pre-registration text "HSS-LMS", which the container parser refuses (RFC 8778 registers -46).
TEST(CoseSign1, DraftExampleToBeSignedAndSignature) {
  const bytes pk = cx(kCoseHssExamplePublic);
  const bytes sig = cx(kCoseHssExampleSignature);
  ASSERT_EQ(sig.size(), 0x9d0u);
  const bytes payload = cose_text("This is the content.");
  const bytes tbs = cose::sig_structure1(cx(kCoseHssExampleProtected), {}, payload);
  EXPECT_EQ(to_hex(tbs), to_hex(cx(kCoseHssExampleToBeSigned)));
  ASSERT_TRUE(jose::check_hbs_public_key({jose::HbsKind::hss, pk}).ok());
  auto st = lms::hss_verify(pk, tbs, sig);
  EXPECT_TRUE(st.ok()) << st.error().what();
  bytes bad = tbs;
  bad.back() ^= 1;
  EXPECT_FALSE(lms::hss_verify(pk, bad, sig).ok());

  // The whole example message, as published: tag 18, protected bstr, {4: "ItsBig"}, payload, signature.
  const bytes msg = sign1_of("4aa101674853532d4c4d53", "a1044649747342696" "7",
                             "54546869732069732074686520636f6e74656e742e", sig);
  auto p = cose::parse_sign1(msg);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Errc::unknown_suite) << p.error().what();
  // With alg -46 in its place the same container parses (the signature then no longer matches).
  const bytes msg46 = sign1_of("44a101382d", "a1044649747342696" "7", "54546869732069732074686520636f6e74656e742e", sig);
  auto p46 = cose::parse_sign1(msg46);
  ASSERT_TRUE(p46.ok()) << p46.error().what();
  EXPECT_TRUE(p46->tagged);
  EXPECT_EQ(p46->kid, cose_text("ItsBig"));
  EXPECT_EQ(*p46->payload, payload);
  EXPECT_EQ(p46->signature, sig);
  auto v46 = cose::verify1_hss(msg46, pk);
  ASSERT_FALSE(v46.ok());
  EXPECT_EQ(v46.error().code, Errc::verify_failed);
}

TEST(CoseSign1, SignVerifyRoundTripThroughTheStatefulSigner) {
  CoseSignerFixture f;
  const bytes payload = cose_text("a payload for COSE");
  cose::Sign1Options o;
  o.kid = cose_text("k1");
  auto s = cose::sign1_hss(*f.signer, payload, o);
  ASSERT_TRUE(s.ok()) << s.error().what();
  EXPECT_EQ(s->index, 0u);
  // D2 (tag 18) 84 (array 4) 44 A1 01 38 2D (protected {1: -46}) A1 04 42 "k1" 52 payload 59 sig...
  const bytes head = join_bytes({cx("d28444a101382da104426b3152"), payload});
  ASSERT_GT(s->message.size(), head.size());
  EXPECT_EQ(to_hex(byte_span(s->message).first(head.size())), to_hex(head));
  auto v = cose::verify1_hss(s->message, f.pk);
  ASSERT_TRUE(v.ok()) << v.error().what();
  EXPECT_EQ(v->payload, payload);
  EXPECT_EQ(v->kid, cose_text("k1"));
  // The signature is the plain HSS signature over the ToBeSigned bytes (RFC 8778 §3).
  auto p = cose::parse_sign1(s->message);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->signature.size(), lms::hss_signature_bytes(cose_key().levels()));
  EXPECT_TRUE(lms::hss_verify(f.pk, cose::sig_structure1(p->protected_bstr, {}, payload), p->signature).ok());

  // Every message takes the next index; the audit log shows each once.
  auto s2 = cose::sign1_hss(*f.signer, payload);
  ASSERT_TRUE(s2.ok());
  EXPECT_EQ(s2->index, 1u);
  EXPECT_NE(s2->message, s->message);
  EXPECT_TRUE(cose::verify1_hss(s2->message, f.pk).ok());
  auto audit = f.signer->store().audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_TRUE(audit->clean());
  EXPECT_EQ(audit->signatures, 2u);

  // The same message checked against the RFC 8778 COSE_Key of the key.
  auto ck = jose::hss_to_cose_key(f.pk, cose_text("k1"));
  ASSERT_TRUE(ck.ok());
  auto vk = cose::verify1_hss_cose_key(s->message, *ck);
  ASSERT_TRUE(vk.ok()) << vk.error().what();
  EXPECT_EQ(vk->payload, payload);
  auto other_kid = jose::hss_to_cose_key(f.pk, cose_text("zz"));
  ASSERT_TRUE(other_kid.ok());
  auto vz = cose::verify1_hss_cose_key(s->message, *other_kid);
  ASSERT_FALSE(vz.ok());
  EXPECT_EQ(vz.error().code, Errc::invalid_argument);
  // A COSE_Key whose key_ops leaves out verify is not a verification key (RFC 8778 §3).
  bytes no_ops = *jose::hss_to_cose_key(f.pk);
  no_ops[0] = 0xa4;  // 4 entries: ... insert key_ops [] after alg
  const std::size_t after_alg = 1 + 2 + 3;  // 01 05 | 03 38 2d
  no_ops.insert(no_ops.begin() + static_cast<std::ptrdiff_t>(after_alg), {0x04, 0x80});
  auto vo = cose::verify1_hss_cose_key(s->message, no_ops);
  ASSERT_FALSE(vo.ok());
  EXPECT_EQ(vo.error().code, Errc::invalid_argument) << vo.error().what();
  // Another key refuses the message.
  auto other = lms::HssSigner::create(cose_key(9), 1).value().public_key();
  auto vx = cose::verify1_hss(s->message, other);
  ASSERT_FALSE(vx.ok());
  EXPECT_EQ(vx.error().code, Errc::verify_failed);
}

TEST(CoseSign1, DetachedUntaggedAndExternalAad) {
  CoseSignerFixture f;
  const bytes payload = cose_text("detached content");
  const bytes aad = cose_text("context");
  cose::Sign1Options o;
  o.tagged = false;
  o.detached = true;
  o.external_aad = aad;
  auto s = cose::sign1_hss(*f.signer, payload, o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->message[0], 0x84);
  EXPECT_EQ(to_hex(byte_span(s->message).first(7)), "8444a101382da0");
  EXPECT_EQ(s->message[7], 0xf6);  // nil payload
  cose::VerifyOptions vo;
  vo.external_aad = aad;
  auto none = cose::verify1_hss(s->message, f.pk, vo);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, Errc::invalid_argument);
  vo.detached_payload = byte_span(payload);
  auto v = cose::verify1_hss(s->message, f.pk, vo);
  ASSERT_TRUE(v.ok()) << v.error().what();
  EXPECT_EQ(v->payload, payload);
  const bytes wrong = cose_text("detached contenT");
  vo.detached_payload = byte_span(wrong);
  EXPECT_EQ(cose::verify1_hss(s->message, f.pk, vo).error().code, Errc::verify_failed);
  vo.detached_payload = byte_span(payload);
  vo.external_aad = {};
  EXPECT_EQ(cose::verify1_hss(s->message, f.pk, vo).error().code, Errc::verify_failed);
  // An attached payload and a detached one at once is refused.
  auto att = cose::sign1_hss(*f.signer, payload);
  ASSERT_TRUE(att.ok());
  cose::VerifyOptions both;
  both.detached_payload = byte_span(payload);
  EXPECT_EQ(cose::verify1_hss(att->message, f.pk, both).error().code, Errc::invalid_argument);
}

TEST(CoseSign1, TamperedPayloadProtectedHeaderOrSignatureIsRefused) {
  CoseSignerFixture f;
  const bytes payload = cose_text("tamper me");
  auto s = cose::sign1_hss(*f.signer, payload);
  ASSERT_TRUE(s.ok());
  const bytes& m = s->message;
  ASSERT_TRUE(cose::verify1_hss(m, f.pk).ok());
  auto p = cose::parse_sign1(m);
  ASSERT_TRUE(p.ok());

  // Payload: the byte after "d2 84 44 a1 01 38 2d a0 49".
  bytes t = m;
  t[9] ^= 0x20;
  EXPECT_EQ(cose::verify1_hss(t, f.pk).error().code, Errc::verify_failed);
  // Protected header: {1: -46, 3: 0} (a content type added) — still well formed, not what was signed.
  const bytes sig = p->signature;
  const bytes extra = sign1_of("46a201382d0300", "a0", "49" + to_hex(payload), sig);
  ASSERT_TRUE(cose::parse_sign1(extra).ok());
  EXPECT_EQ(cose::verify1_hss(extra, f.pk).error().code, Errc::verify_failed);
  // A kid added in the unprotected header is not signed over: still valid (RFC 9052 §3).
  const bytes with_kid = sign1_of("44a101382d", "a1044161", "49" + to_hex(payload), sig);
  EXPECT_TRUE(cose::verify1_hss(with_kid, f.pk).ok());
  // Signature bytes: the q field, a C byte, a path byte, the last byte.
  for (std::size_t off : {std::size_t{4 + 3}, std::size_t{20}, sig.size() / 2, sig.size() - 1}) {
    bytes bad_sig = sig;
    bad_sig[off] ^= 0x01;
    auto r = cose::verify1_hss(sign1_of("44a101382d", "a0", "49" + to_hex(payload), bad_sig), f.pk);
    ASSERT_FALSE(r.ok()) << off;
    EXPECT_TRUE(r.error().code == Errc::verify_failed || r.error().code == Errc::invalid_length ||
                r.error().code == Errc::invalid_encoding || r.error().code == Errc::unknown_suite)
        << r.error().what();
  }
  // Truncated signature.
  const bytes short_sig(sig.begin(), sig.end() - 1);
  EXPECT_FALSE(cose::verify1_hss(sign1_of("44a101382d", "a0", "49" + to_hex(payload), short_sig), f.pk).ok());
}

// A stranger's containers: every malformed one is refused with the right typed error, none crashes.
TEST(CoseSign1, HostileContainersGetTypedErrors) {
  CoseSignerFixture f;
  auto s = cose::sign1_hss(*f.signer, cose_text("x"));
  ASSERT_TRUE(s.ok());
  const bytes& good = s->message;
  const bytes sig = cose::parse_sign1(good).value().signature;

  // Every truncation.
  for (std::size_t n = 0; n < good.size(); n += (n < 64 ? 1 : 97)) {
    auto r = cose::verify1_hss(byte_span(good).first(n), f.pk);
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_EQ(r.error().code, Errc::invalid_length) << n << ": " << r.error().what();
  }
  // Oversize: message, protected header, signature.
  cose::Limits small;
  small.max_message_bytes = good.size() - 1;
  EXPECT_EQ(parse_code(good, small), Errc::invalid_length);
  cose::Limits tiny_sig;
  tiny_sig.max_signature_bytes = sig.size() - 1;
  EXPECT_EQ(parse_code(good, tiny_sig), Errc::invalid_length);
  cose::Limits tiny_prot;
  tiny_prot.max_protected_bytes = 3;
  EXPECT_EQ(parse_code(good, tiny_prot), Errc::invalid_length);
  // Length claims far beyond the input: a bstr of 2^40 bytes, an array of 2^32 entries.
  EXPECT_EQ(parse_code(cx("d2845b0000010000000000")), Errc::invalid_length);
  EXPECT_EQ(parse_code(cx("d28444a101382da1186399ffffffff")), Errc::invalid_length);
  EXPECT_EQ(parse_code(cx("d2849affffffff")), Errc::invalid_encoding);  // not an array of 4
  // Deep nesting in an unknown header value: {99: [[[[[[[[[[1]]]]]]]]]]}.
  EXPECT_EQ(parse_code(sign1_of("44a101382d", "a1186381818181818181818101", "4178", sig)), Errc::invalid_length);
  // The same nesting a level shallower than the limit is fine (unknown parameters are ignored).
  EXPECT_TRUE(cose::parse_sign1(sign1_of("44a101382d", "a11863818181818101", "4178", sig)).ok());
  // A map with too many entries.
  {
    std::string many = "b841";  // map(65)
    for (int i = 0; i < 65; ++i) many += "18" + to_hex(bytes{static_cast<u8>(0x20 + i)}) + "00";
    EXPECT_EQ(parse_code(sign1_of("44a101382d", many, "4178", sig)), Errc::invalid_length);
  }
  // Not CBOR a COSE_Sign1 reads: indefinite lengths, non-shortest heads, two-byte simple values.
  EXPECT_EQ(parse_code(cx("d29f44a101382da04178ff")), Errc::invalid_encoding);
  EXPECT_EQ(parse_code(cx("d2980444a101382da04178")), Errc::invalid_encoding);
  EXPECT_EQ(parse_code(sign1_of("44a101382d", "a11863f810", "4178", sig)), Errc::invalid_encoding);
  EXPECT_EQ(parse_code(sign1_of("44a101382d", "a1186362ff61", "4178", sig)), Errc::invalid_encoding);  // bad UTF-8
  // Wrong tags / shapes / trailing bytes.
  EXPECT_EQ(parse_code(join_bytes({cx("d1"), byte_span(good).subspan(1)})), Errc::invalid_encoding);  // tag 17 (MAC0)
  EXPECT_EQ(parse_code(join_bytes({cx("d862"), byte_span(good).subspan(1)})), Errc::unsupported);     // tag 98 (COSE_Sign)
  EXPECT_EQ(parse_code(join_bytes({good, cx("00")})), Errc::invalid_encoding);
  EXPECT_EQ(parse_code(cx("d283")), Errc::invalid_encoding);
  EXPECT_EQ(parse_code(sign1_of("44a101382d", "a0", "6178", sig)), Errc::invalid_encoding);   // payload tstr
  EXPECT_EQ(parse_code(sign1_of("a101382d", "a0", "4178", sig)), Errc::invalid_encoding);     // protected not a bstr
  EXPECT_EQ(parse_code(sign1_of("45a101382d00", "a0", "4178", sig)), Errc::invalid_encoding); // bytes after the map
  EXPECT_EQ(parse_code(sign1_of("44a101382d", "80", "4178", sig)), Errc::invalid_encoding);   // unprotected an array
  EXPECT_EQ(parse_code(sign1_of("44a101382d", "a10463616263", "4178", sig)), Errc::invalid_encoding);  // kid a tstr
  // alg: missing, unprotected, another algorithm, text.
  EXPECT_EQ(parse_code(sign1_of("40", "a0", "4178", sig)), Errc::unknown_suite);
  EXPECT_EQ(parse_code(sign1_of("43a10300", "a0", "4178", sig)), Errc::unknown_suite);
  EXPECT_EQ(parse_code(sign1_of("40", "a101382d", "4178", sig)), Errc::unknown_suite);
  EXPECT_EQ(parse_code(sign1_of("43a10126", "a0", "4178", sig)), Errc::unknown_suite);  // -7 (ES256)
  EXPECT_EQ(parse_code(sign1_of("4aa101674853532d4c4d53", "a0", "4178", sig)), Errc::unknown_suite);
  // Labels twice: within a bucket, across buckets.
  EXPECT_EQ(parse_code(sign1_of("47a201382d01382d", "a0", "4178", sig)), Errc::invalid_encoding);
  EXPECT_EQ(parse_code(sign1_of("47a201382d044161", "a1044162", "4178", sig)), Errc::invalid_encoding);
  // crit: an unknown critical parameter, crit unprotected, crit empty, crit naming an absent one.
  EXPECT_EQ(parse_code(sign1_of("4ba301382d02811863186300", "a0", "4178", sig)), Errc::unsupported);
  EXPECT_EQ(parse_code(sign1_of("44a101382d", "a1028104", "4178", sig)), Errc::invalid_encoding);
  EXPECT_EQ(parse_code(sign1_of("46a201382d0280", "a0", "4178", sig)), Errc::invalid_encoding);
  EXPECT_EQ(parse_code(sign1_of("47a201382d028103", "a0", "4178", sig)), Errc::invalid_encoding);  // names 3, absent
  EXPECT_EQ(parse_code(sign1_of("47a201382d028104", "a1044161", "4178", sig)), Errc::invalid_encoding);  // kid unprotected
  EXPECT_EQ(parse_code(sign1_of("46a201382d028104", "a0", "4178", sig)), Errc::invalid_length);  // bstr shorter than its map
  // A known critical parameter present in the protected header is accepted, and the signature still decides.
  const bytes crit_ok = sign1_of("4aa301382d028104044161", "a0", "4178", sig);
  auto pc = cose::parse_sign1(crit_ok);
  ASSERT_TRUE(pc.ok()) << pc.error().what();
  EXPECT_EQ(cose::verify1_hss(crit_ok, f.pk).error().code, Errc::verify_failed);
  // An empty or garbage signature.
  EXPECT_FALSE(cose::verify1_hss(sign1_of("44a101382d", "a0", "4178", bytes{}), f.pk).ok());
  EXPECT_FALSE(cose::verify1_hss(sign1_of("44a101382d", "a0", "4178", bytes(sig.size(), 0xff)), f.pk).ok());
}
