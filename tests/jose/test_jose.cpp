// JOSE: RFC 7638 thumbprints, draft-ietf-cose-dilithium-09 AKP examples (keys, kid, JWS —
// the examples are deterministic ML-DSA and are reproduced byte for byte), RFC 8037 OKP A.1–A.5,
// strict JWK parsing, JWS tampering, SPKI / PKCS#8 for ML-DSA (RFC 9881) and the DER codec.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "jose/der.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/mlkem.hpp"

using namespace pqsig;
using nlohmann::json;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
json vec(const std::string& name) { return json::parse(slurp(std::string(PQSIG_SHARED_DIR) + "/vectors/jose/" + name)); }
bytes hx(std::string_view s) { return from_hex(s).value(); }

// Skip (not fail) while a family's backend has not landed in this build.
bool available(std::string_view suite) {
  auto s = find_suite(suite);
  if (!s) return false;
  bytes z((*s)->private_key_size ? (*s)->private_key_size : 32, 0);
  auto k = SigningKey::from_private(**s, z);
  return k.ok() || k.error().code != Errc::unsupported;
}
#define REQUIRE_SUITE(id) \
  if (!available(id)) GTEST_FAIL() << id << " backend not in this build"

const char* kDilithium[] = {"draft-ietf-cose-dilithium-09-ML_DSA_44.jose.json",
                            "draft-ietf-cose-dilithium-09-ML_DSA_65.jose.json",
                            "draft-ietf-cose-dilithium-09-ML_DSA_87.jose.json"};
}  // namespace

// ---------------------------------------------------------------- thumbprints
TEST(Thumbprint, Rfc7638Example) {
  auto v = vec("rfc7638-thumbprint.json");
  std::string jwk = v["jwk"].dump();
  auto in = jose::thumbprint_input(jwk);
  ASSERT_TRUE(in.ok()) << in.error().what();
  EXPECT_EQ(*in, v["thumbprintInput"].get<std::string>());
  EXPECT_EQ(to_hex(as_bytes(*in)), v["thumbprintInputHex"].get<std::string>());
  auto tp = jose::thumbprint(jwk);
  ASSERT_TRUE(tp.ok());
  EXPECT_EQ(*tp, v["thumbprint"].get<std::string>());
  EXPECT_EQ(to_hex(base64url_decode(*tp).value()), v["sha256Hex"].get<std::string>());
}

TEST(Thumbprint, Rfc8037OkpA3) {
  auto v = vec("rfc8037-okp.json");
  for (const char* k : {"A.1_privateKey", "A.2_publicKey"}) {
    std::string jwk = v[k].dump();
    EXPECT_EQ(jose::thumbprint_input(jwk).value(), v["A.3_thumbprint"]["thumbprintInput"].get<std::string>());
    EXPECT_EQ(jose::thumbprint(jwk).value(), v["A.3_thumbprint"]["thumbprint"].get<std::string>());
  }
}

TEST(Thumbprint, DilithiumKidIsThumbprint) {
  auto summary = vec("ml-dsa-akp-examples.json");
  int n = 0;
  for (const auto& ex : summary["examples"]) {
    auto v = vec(ex["file"].get<std::string>());
    std::string jwk = v["jwk"].dump();
    auto tp = jose::thumbprint(jwk);
    ASSERT_TRUE(tp.ok());
    EXPECT_EQ(*tp, v["jwk"]["kid"].get<std::string>());
    EXPECT_EQ(*tp, ex["kid"].get<std::string>());
    EXPECT_EQ(to_hex(base64url_decode(*tp).value()), ex["thumbprintSha256Hex"].get<std::string>());
    std::string prefix = ex["thumbprintInputPrefix"].get<std::string>();
    prefix.resize(prefix.size() - 3);  // drop "..."
    EXPECT_EQ(jose::thumbprint_input(jwk).value().substr(0, prefix.size()), prefix);
    ++n;
  }
  EXPECT_EQ(n, 3);
}

TEST(Thumbprint, RequiredMembersAndOrder) {
  // Member order and extra members do not change the thumbprint; missing required ones are errors.
  std::string a = R"({"kty":"EC","crv":"P-256","x":"AA","y":"AQ","alg":"ES256","use":"sig"})";
  std::string b = R"({"y":"AQ","x":"AA","crv":"P-256","kty":"EC"})";
  EXPECT_EQ(jose::thumbprint_input(a).value(), R"({"crv":"P-256","kty":"EC","x":"AA","y":"AQ"})");
  EXPECT_EQ(jose::thumbprint(a).value(), jose::thumbprint(b).value());
  EXPECT_EQ(jose::thumbprint_input(R"({"kty":"oct","k":"AAEC","alg":"HS256"})").value(), R"({"k":"AAEC","kty":"oct"})");
  EXPECT_FALSE(jose::thumbprint(R"({"kty":"EC","crv":"P-256","x":"AA"})").ok());
  EXPECT_FALSE(jose::thumbprint(R"({"kty":"AKP","pub":"AA"})").ok());
  EXPECT_FALSE(jose::thumbprint(R"({"kty":"XYZ"})").ok());
  EXPECT_FALSE(jose::thumbprint(R"({"kty":"AKP","alg":1,"pub":"AA"})").ok());
}

// ---------------------------------------------------------------- strict JWK parsing
TEST(Jwk, StrictParsing) {
  auto e = jose::load_jwk(R"({"kty":"AKP","alg":"ML-DSA-44","pub":"AA","pub":"AB"})");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, Errc::invalid_encoding);
  EXPECT_NE(e.error().message.find("duplicate"), std::string::npos);
  EXPECT_EQ(jose::load_jwk("{not json").error().code, Errc::invalid_encoding);
  EXPECT_EQ(jose::load_jwk("[1,2]").error().code, Errc::invalid_encoding);
  EXPECT_EQ(jose::load_jwk(R"({"kty":"AKP","pub":"AA"})").error().code, Errc::invalid_encoding);  // no alg
  EXPECT_EQ(jose::load_jwk(R"({"kty":"AKP","alg":"ML-DSA-13","pub":"AA"})").error().code, Errc::unknown_suite);
  EXPECT_EQ(jose::load_jwk(R"({"kty":"AKP","alg":"ML-DSA-44","pub":"AAAA"})").error().code, Errc::invalid_length);
  EXPECT_EQ(jose::load_jwk(R"({"kty":"AKP","alg":"ML-DSA-44","pub":"AA=="})").error().code, Errc::invalid_encoding);
  EXPECT_EQ(jose::load_jwk(R"({"kty":"OKP","crv":"X448","x":"AA"})").error().code, Errc::unknown_suite);
  EXPECT_EQ(jose::load_jwk(R"({"kty":"OKP","crv":"Ed25519","x":"AA"})").error().code, Errc::invalid_length);
  EXPECT_EQ(jose::load_jwk(R"({"kty":"EC","crv":"P-256","alg":"ES384","x":"AA","y":"AA"})").error().code,
            Errc::invalid_encoding);
  EXPECT_EQ(jose::load_jwk(R"({"kty":"foo"})").error().code, Errc::unknown_suite);
  // A suite hint that disagrees with the key is refused, not overridden.
  auto v = vec("draft-ietf-cose-dilithium-09-ML_DSA_44.jose.json");
  EXPECT_EQ(jose::load_jwk(v["jwk"].dump(), "ml-dsa-65").error().code, Errc::invalid_argument);
  EXPECT_EQ(jose::load_jwk(v["jwk"].dump(), "ml-dsa-99").error().code, Errc::unknown_suite);
  // Wrong private key length.
  json bad = v["jwk"];
  bad["priv"] = base64url_encode(bytes(31, 0));
  EXPECT_EQ(jose::load_jwk(bad.dump()).error().code, Errc::invalid_length);
}

// ---------------------------------------------------------------- draft-ietf-cose-dilithium-09
TEST(Dilithium, KeysReproduce) {
  REQUIRE_SUITE("ml-dsa-44");
  for (const char* f : kDilithium) {
    auto v = vec(f);
    auto k = jose::load_jwk(v["jwk"].dump());
    ASSERT_TRUE(k.ok()) << f << ": " << k.error().what();
    ASSERT_TRUE(k->signing && k->verifying);
    EXPECT_EQ(to_hex(k->verifying->public_key()), v["raw_public_key"].get<std::string>());
    EXPECT_EQ(to_hex(k->signing->private_key()), v["priv"].get<std::string>());
    EXPECT_EQ(k->kid, v["jwk"]["kid"].get<std::string>());
    EXPECT_EQ(k->thumbprint, v["jwk"]["kid"].get<std::string>());
    // Our JWK of the same seed is the example JWK, member for member.
    auto out = jose::to_jwk(*k->signing, true);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(json::parse(*out), v["jwk"]) << f;
    // The public JWK drops "priv" and keeps the kid.
    json pub = v["jwk"];
    pub.erase("priv");
    EXPECT_EQ(json::parse(jose::to_jwk(*k->verifying).value()), pub);
    EXPECT_EQ(json::parse(jose::public_jwk(v["jwk"].dump()).value()), pub);
  }
}

TEST(Dilithium, JwsVerifiesAndReproduces) {
  REQUIRE_SUITE("ml-dsa-44");
  for (const char* f : kDilithium) {
    auto v = vec(f);
    auto k = jose::load_jwk(v["jwk"].dump());
    ASSERT_TRUE(k.ok());
    std::string jws = v["jws"].get<std::string>();
    auto payload = jose::jws_verify_compact(*k->verifying, jws);
    ASSERT_TRUE(payload.ok()) << payload.error().what();
    EXPECT_EQ(std::string(payload->begin(), payload->end()), "It\u2019s a dangerous business, Frodo, going out your door.");
    // The signing input is raw_to_be_signed.
    EXPECT_EQ(to_hex(as_bytes(jws.substr(0, jws.rfind('.')))), v["raw_to_be_signed"].get<std::string>());
    // The examples were produced with deterministic ML-DSA (rnd = 0^32): we reproduce them exactly.
    SignOptions det;
    det.deterministic = true;
    auto sig = k->signing->sign(hx(v["raw_to_be_signed"].get<std::string>()), det);
    ASSERT_TRUE(sig.ok());
    EXPECT_EQ(to_hex(*sig), v["raw_signature"].get<std::string>()) << f;
    auto again = jose::jws_sign_compact(*k->signing, *payload, k->kid, true);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, jws) << f;
    // Hedged signing gives a different but valid JWS.
    auto hedged = jose::jws_sign_compact(*k->signing, *payload, k->kid);
    ASSERT_TRUE(hedged.ok());
    EXPECT_NE(*hedged, jws);
    EXPECT_TRUE(jose::jws_verify_compact(*k->verifying, *hedged).ok());
  }
}

TEST(Dilithium, JwsTamperingRejected) {
  REQUIRE_SUITE("ml-dsa-44");
  auto v = vec(kDilithium[0]);
  auto k = jose::load_jwk(v["jwk"].dump());
  ASSERT_TRUE(k.ok());
  std::string jws = v["jws"].get<std::string>();
  auto d1 = jws.find('.'), d2 = jws.rfind('.');
  // payload changed
  std::string t = jws;
  t[d1 + 3] = t[d1 + 3] == 'A' ? 'B' : 'A';
  EXPECT_EQ(jose::jws_verify_compact(*k->verifying, t).error().code, Errc::verify_failed);
  // signature changed
  t = jws;
  t[d2 + 10] = t[d2 + 10] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(jose::jws_verify_compact(*k->verifying, t).ok());
  // alg substitution / "none" / crit / missing parts / trailing part
  auto with_header = [&](const std::string& h) { return base64url_encode(as_bytes(h)) + jws.substr(d1); };
  EXPECT_EQ(jose::jws_verify_compact(*k->verifying, with_header(R"({"alg":"none"})")).error().code, Errc::verify_failed);
  EXPECT_EQ(jose::jws_verify_compact(*k->verifying, with_header(R"({"alg":"ML-DSA-65"})")).error().code, Errc::verify_failed);
  EXPECT_EQ(jose::jws_verify_compact(*k->verifying, with_header(R"({"alg":"ML-DSA-44","crit":["x"],"x":1})")).error().code,
            Errc::unsupported);
  EXPECT_EQ(jose::jws_verify_compact(*k->verifying, with_header(R"({"alg":"ML-DSA-44","alg":"ML-DSA-44"})")).error().code,
            Errc::invalid_encoding);
  EXPECT_FALSE(jose::jws_verify_compact(*k->verifying, jws.substr(0, d2)).ok());
  EXPECT_FALSE(jose::jws_verify_compact(*k->verifying, jws + ".AA").ok());
  EXPECT_FALSE(jose::jws_verify_compact(*k->verifying, jws + "=").ok());
  // a different key
  auto other = SigningKey::from_private(k->signing->suite(), bytes(32, 1));
  ASSERT_TRUE(other.ok());
  auto ov = VerifyingKey::from_public(other->suite(), other->public_key());
  EXPECT_EQ(jose::jws_verify_compact(*ov, jws).error().code, Errc::verify_failed);
}

TEST(Dilithium, PrivatePublicMismatchRefused) {
  REQUIRE_SUITE("ml-dsa-44");
  auto v = vec(kDilithium[0]);
  json j = v["jwk"];
  j["priv"] = base64url_encode(bytes(32, 7));
  EXPECT_EQ(jose::load_jwk(j.dump()).error().code, Errc::key_check_failed);
}

// ---------------------------------------------------------------- RFC 8037 OKP
TEST(Okp, Rfc8037) {
  REQUIRE_SUITE("ed25519");
  auto v = vec("rfc8037-okp.json");
  auto k = jose::load_jwk(v["A.1_privateKey"].dump());
  ASSERT_TRUE(k.ok()) << k.error().what();
  EXPECT_EQ(base64url_encode(k->verifying->public_key()), v["A.1_privateKey"]["x"].get<std::string>());
  EXPECT_EQ(k->thumbprint, v["A.3_thumbprint"]["thumbprint"].get<std::string>());
  // A.4: Ed25519 is deterministic → the compact JWS reproduces exactly (header {"alg":"EdDSA"}).
  auto jws = jose::jws_sign_compact(*k->signing, as_bytes(v["A.4_jwsSigning"]["payload"].get<std::string>()));
  ASSERT_TRUE(jws.ok()) << jws.error().what();
  EXPECT_EQ(*jws, v["A.4_jwsSigning"]["compactJws"].get<std::string>());
  // A.5: verification with the public key alone.
  auto pub = jose::load_jwk(v["A.5_jwsVerification"]["publicKey"].dump());
  ASSERT_TRUE(pub.ok());
  EXPECT_FALSE(pub->signing.has_value());
  auto pl = jose::jws_verify_compact(*pub->verifying, v["A.5_jwsVerification"]["compactJws"].get<std::string>());
  ASSERT_TRUE(pl.ok());
  EXPECT_EQ(std::string(pl->begin(), pl->end()), "Example of Ed25519 signing");
  // Round trip of the JWK (members of A.1 plus alg and kid).
  auto out = json::parse(jose::to_jwk(*k->signing, true).value());
  for (const char* m : {"kty", "crv", "x", "d"}) EXPECT_EQ(out[m], v["A.1_privateKey"][m]);
  EXPECT_EQ(out["kid"], v["A.3_thumbprint"]["thumbprint"]);
  std::string t = v["A.5_jwsVerification"]["compactJws"].get<std::string>();
  t[25] ^= 1;
  EXPECT_FALSE(jose::jws_verify_compact(*pub->verifying, t).ok());
}

// ---------------------------------------------------------------- every suite round-trips through JWK
TEST(Jwk, EverySuiteRoundTrips) {
  int done = 0;
  for (const auto& s : all_suites()) {
    // The slow SLH-DSA sets add nothing to a JWK round trip (same code path as the fast ones).
    if (s.family == "slh-dsa" && s.id != "slh-dsa-sha2-128f" && s.id != "slh-dsa-shake-128f") continue;
    std::string jwk;
    if (s.cls == SuiteClass::kem) {
      auto k = KemPrivateKey::generate(s);
      if (!k) continue;  // backend not in this build
      jwk = jose::to_jwk(*k, true).value();
      auto l = jose::load_jwk(jwk);
      ASSERT_TRUE(l.ok()) << s.id << ": " << l.error().what();
      ASSERT_TRUE(l->kem_private && l->kem_public);
      EXPECT_EQ(to_hex(l->kem_public->public_key()), to_hex(k->public_key()));
    } else {
      auto k = SigningKey::generate(s);
      if (!k) continue;
      auto j = jose::to_jwk(*k, true);
      ASSERT_TRUE(j.ok()) << s.id << ": " << j.error().what();
      jwk = *j;
      auto l = jose::load_jwk(jwk, s.id.starts_with("rsa-") || s.cls == SuiteClass::mac ? s.id : std::string_view{});
      ASSERT_TRUE(l.ok()) << s.id << ": " << l.error().what();
      EXPECT_EQ(l->suite, &s);
      ASSERT_TRUE(l->signing.has_value());
      EXPECT_EQ(to_hex(l->signing->private_key()), to_hex(k->private_key())) << s.id;
      auto msg = as_bytes("round trip");
      auto sig = l->signing->sign(msg);
      ASSERT_TRUE(sig.ok()) << s.id;
      if (s.cls == SuiteClass::mac) {
        EXPECT_TRUE(l->signing->verify(msg, *sig).ok());
      } else {
        EXPECT_TRUE(l->verifying->verify(msg, *sig).ok()) << s.id;
      }
    }
    auto parsed = json::parse(jwk);
    EXPECT_EQ(parsed["kid"].get<std::string>(), jose::thumbprint(jwk).value()) << s.id;
    ++done;
  }
  if (done == 0) GTEST_FAIL() << "no backend in this build";
}

TEST(Jwks, LoadAndMake) {
  REQUIRE_SUITE("ml-dsa-44");
  std::vector<std::string> keys;
  for (const char* f : kDilithium) keys.push_back(vec(f)["jwk"].dump());
  auto set = jose::make_jwks(keys);
  ASSERT_TRUE(set.ok());
  auto loaded = jose::load_jwks(*set);
  ASSERT_TRUE(loaded.ok());
  ASSERT_EQ(loaded->size(), 3u);
  EXPECT_EQ((*loaded)[2].suite->id, "ml-dsa-87");
  auto bad = jose::load_jwks(R"({"keys":[)" + keys[0] + R"(,{"kty":"zzz"}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("key 1"), std::string::npos);
  EXPECT_FALSE(jose::load_jwks(R"({"keys":{}})").ok());
}

// ---------------------------------------------------------------- DER
TEST(Der, EncodeDecode) {
  EXPECT_EQ(to_hex(der::oid("2.16.840.1.101.3.4.3.17")), "0609608648016503040311");
  EXPECT_EQ(to_hex(der::oid("1.2.840.113549.1.1.1")), "06092a864886f70d010101");
  EXPECT_EQ(der::oid_to_string(hx("608648016503040312")).value(), "2.16.840.1.101.3.4.3.18");
  EXPECT_FALSE(der::oid_to_string(hx("6086")).ok());      // truncated arc
  EXPECT_FALSE(der::oid_to_string(hx("608001")).ok());    // non-minimal arc
  EXPECT_EQ(to_hex(der::integer(0)), "020100");
  EXPECT_EQ(to_hex(der::integer(128)), "02020080");
  EXPECT_EQ(to_hex(der::unsigned_big(hx("0000ff01"))), "020300ff01");
  bytes big(300, 0xAB);
  auto t = der::tlv(der::tag::octet_string, big);
  EXPECT_EQ(to_hex(byte_span(t).first(4)), "0482012c");
  auto e = der::parse_single(t, der::tag::octet_string, "x");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->contents.size(), 300u);
  // Strictness.
  EXPECT_FALSE(der::parse_single(hx("048101aa"), der::tag::octet_string, "x").ok());        // non-minimal long form
  EXPECT_FALSE(der::parse_single(hx("04820001aa"), der::tag::octet_string, "x").ok());      // leading zero length
  EXPECT_FALSE(der::parse_single(hx("0480aa0000"), der::tag::octet_string, "x").ok());      // indefinite
  EXPECT_FALSE(der::parse_single(hx("0402aa"), der::tag::octet_string, "x").ok());          // truncated
  EXPECT_FALSE(der::parse_single(hx("0401aa00"), der::tag::octet_string, "x").ok());        // trailing
  EXPECT_FALSE(der::parse_single(hx("0501aa"), der::tag::octet_string, "x").ok());          // wrong tag
  EXPECT_FALSE(der::parse_single(hx("1f0100"), 0x1f, "x").ok());                            // high tag number
  EXPECT_FALSE(der::parse_small_uint(hx("0001")).ok());
  EXPECT_FALSE(der::parse_small_uint(hx("80")).ok());
  EXPECT_EQ(der::parse_small_uint(hx("0080")).value(), 128u);
}

TEST(Der, Pem) {
  bytes d = hx("3003020101");
  std::string p = der::pem_encode("PUBLIC KEY", d);
  EXPECT_EQ(p, "-----BEGIN PUBLIC KEY-----\nMAMCAQE=\n-----END PUBLIC KEY-----\n");
  EXPECT_EQ(der::pem_decode(p, "PUBLIC KEY").value(), d);
  EXPECT_FALSE(der::pem_decode(p, "PRIVATE KEY").ok());
  EXPECT_FALSE(der::pem_decode(p + "junk", "").ok());
  EXPECT_FALSE(der::pem_decode("-----BEGIN PUBLIC KEY-----\nMAMCAQE=\n", "").ok());
  EXPECT_FALSE(der::pem_decode("-----BEGIN PUBLIC KEY-----\nMAMCA!E=\n-----END PUBLIC KEY-----\n", "").ok());
}

// ---------------------------------------------------------------- SPKI / PKCS#8 (RFC 9881)
TEST(Pkix, MlDsaSeedFormMatchesRfc9881Example) {
  REQUIRE_SUITE("ml-dsa-44");
  // RFC 9881 / lamps-wg/dilithium-certificates example: seed 000102…1f, seed-only PKCS#8.
  bytes seed = hx("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  auto suite = find_suite("ml-dsa-44").value();
  auto k = SigningKey::from_private(*suite, seed);
  ASSERT_TRUE(k.ok());
  auto p8 = jose::to_pkcs8_der(*k);
  ASSERT_TRUE(p8.ok());
  EXPECT_EQ(to_hex(*p8), "3034020100300b060960864801650304031104228020" + to_hex(seed));
  auto pem = jose::to_pkcs8_pem(*k).value();
  EXPECT_EQ(pem.substr(0, 28 + 64), "-----BEGIN PRIVATE KEY-----\nMDQCAQAwCwYJYIZIAWUDBAMRBCKAIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZ");
  auto spki = jose::to_spki_der(*suite, k->public_key());
  ASSERT_TRUE(spki.ok());
  // SEQUENCE { SEQUENCE { OID 2.16.840.1.101.3.4.3.17 } BIT STRING { 00 pk } }, pk of the example
  // starts d7b2b47254aae0db45e7930d4a98d2c9.
  EXPECT_EQ(to_hex(byte_span(*spki).first(22 + 16)),
            "30820532300b0609608648016503040311038205210" "0d7b2b47254aae0db45e7930d4a98d2c9");
  // Round trips.
  auto back = jose::load_pkcs8_der(*p8);
  ASSERT_TRUE(back.ok()) << back.error().what();
  EXPECT_EQ(to_hex(back->signing->private_key()), to_hex(seed));
  auto pub = jose::load_pem(jose::to_spki_pem(*suite, k->public_key()).value());
  ASSERT_TRUE(pub.ok());
  EXPECT_EQ(to_hex(pub->verifying->public_key()), to_hex(k->public_key()));
  EXPECT_EQ(pub->thumbprint, back->thumbprint);
  EXPECT_EQ(jose::load_key_text(pem).value().suite, suite);
}

TEST(Pkix, AllSetsAndForms) {
  REQUIRE_SUITE("ml-dsa-44");
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87"}) {
    auto suite = find_suite(id).value();
    auto k = SigningKey::from_private(*suite, bytes(32, 0x42));
    ASSERT_TRUE(k.ok());
    bytes seed(32, 0x42);
    bytes expanded = k->expanded_private_key().value();
    bytes alg = der::sequence({der::oid(jose::oid_for_suite(*suite).value())});
    auto wrap = [&](const bytes& inner) {
      bytes v = der::integer(0), os = der::tlv(der::tag::octet_string, inner);
      return der::sequence({v, alg, os});
    };
    // expandedKey form
    auto e = jose::load_pkcs8_der(wrap(der::tlv(der::tag::octet_string, expanded)));
    ASSERT_TRUE(e.ok()) << id << ": " << e.error().what();
    EXPECT_EQ(to_hex(e->verifying->public_key()), to_hex(k->public_key()));
    // both form: consistent accepted, inconsistent refused
    bytes s_os = der::tlv(der::tag::octet_string, seed), e_os = der::tlv(der::tag::octet_string, expanded);
    auto both = jose::load_pkcs8_der(wrap(der::sequence({s_os, e_os})));
    ASSERT_TRUE(both.ok()) << both.error().what();
    bytes bad_exp = expanded;
    bad_exp[100] ^= 1;
    bytes b_os = der::tlv(der::tag::octet_string, bad_exp);
    EXPECT_EQ(jose::load_pkcs8_der(wrap(der::sequence({s_os, b_os}))).error().code, Errc::key_check_failed);
    // wrong seed length, trailing bytes, parameters present, unknown OID
    EXPECT_EQ(jose::load_pkcs8_der(wrap(der::tlv(0x80, bytes(31, 0)))).error().code, Errc::invalid_length);
    bytes p8 = jose::to_pkcs8_der(*k).value();
    bytes trailing = p8;
    trailing.push_back(0);
    EXPECT_FALSE(jose::load_pkcs8_der(trailing).ok());
    bytes spki = jose::to_spki_der(*suite, k->public_key()).value();
    bytes t2 = spki;
    t2.push_back(0);
    EXPECT_FALSE(jose::load_spki_der(t2).ok());
    EXPECT_FALSE(jose::load_spki_der(byte_span(spki).first(spki.size() - 1)).ok());
    bytes null_param = der::sequence({der::oid(jose::oid_for_suite(*suite).value()), der::tlv(der::tag::null, {})});
    bytes bits = der::bit_string(k->public_key());
    EXPECT_FALSE(jose::load_spki_der(der::sequence({null_param, bits})).ok());
    bytes other = der::sequence({der::oid("1.3.101.112")});
    EXPECT_EQ(jose::load_spki_der(der::sequence({other, bits})).error().code, Errc::unknown_suite);
    // truncated public key inside a well-formed SPKI
    bytes short_bits = der::bit_string(k->public_key().first(100));
    EXPECT_EQ(jose::load_spki_der(der::sequence({alg, short_bits})).error().code, Errc::invalid_length);
  }
}

// ---------------------------------------------------------------- SLH-DSA (RFC 9909) and ML-KEM (RFC 9935)
// SLH-DSA: all twelve sets, OIDs 2.16.840.1.101.3.4.3.20 … 31 in the RFC's order, pk and the 4n-byte SK
// raw (no CHOICE, no inner OCTET STRING); round trips; wrong lengths and a mismatched publicKey refused.
TEST(Pkix, SlhDsaEveryTwelveSetsRfc9909) {
  const char* order[] = {"slh-dsa-sha2-128s",  "slh-dsa-sha2-128f",  "slh-dsa-sha2-192s",  "slh-dsa-sha2-192f",
                         "slh-dsa-sha2-256s",  "slh-dsa-sha2-256f",  "slh-dsa-shake-128s", "slh-dsa-shake-128f",
                         "slh-dsa-shake-192s", "slh-dsa-shake-192f", "slh-dsa-shake-256s", "slh-dsa-shake-256f"};
  for (int i = 0; i < 12; ++i) {
    const SuiteInfo& s = *find_suite(order[i]).value();
    const std::string oid = "2.16.840.1.101.3.4.3." + std::to_string(20 + i);
    EXPECT_EQ(jose::oid_for_suite(s).value(), oid) << s.id;
    EXPECT_EQ(jose::suite_for_oid(oid).value(), &s);
    // A fixed SK (PK.root is whatever these bytes say: import does not recompute the tree).
    bytes sk_bytes(s.private_key_size);
    for (std::size_t j = 0; j < sk_bytes.size(); ++j) sk_bytes[j] = static_cast<std::uint8_t>(j * 7 + i);
    auto k = SigningKey::from_private(s, sk_bytes);
    ASSERT_TRUE(k.ok()) << s.id << ": " << k.error().what();
    const bytes p8 = jose::to_pkcs8_der(*k).value();
    const bytes alg = der::sequence({der::oid(oid)});
    const bytes want = der::sequence({der::integer(0), alg, der::tlv(der::tag::octet_string, sk_bytes)});
    EXPECT_EQ(to_hex(p8), to_hex(want)) << s.id;
    const bytes spki = jose::to_spki_der(s, k->public_key()).value();
    EXPECT_EQ(to_hex(spki), to_hex(der::sequence({alg, der::bit_string(k->public_key())}))) << s.id;
    EXPECT_EQ(to_hex(byte_span(k->public_key())), to_hex(byte_span(sk_bytes).last(s.public_key_size)))
        << s.id << ": pk = PK.seed || PK.root, the SK's second half";
    auto back = jose::load_pkcs8_der(p8);
    ASSERT_TRUE(back.ok()) << s.id << ": " << back.error().what();
    EXPECT_EQ(back->suite, &s);
    EXPECT_EQ(to_hex(back->signing->private_key()), to_hex(sk_bytes));
    auto pub = jose::load_pem(jose::to_spki_pem(s, k->public_key()).value());
    ASSERT_TRUE(pub.ok()) << s.id << ": " << pub.error().what();
    EXPECT_EQ(to_hex(pub->verifying->public_key()), to_hex(k->public_key()));
    EXPECT_EQ(pub->thumbprint, back->thumbprint);
    // Wrong SK length, the ML-DSA CHOICE form, a v2 publicKey that does not match.
    const bytes short_sk = der::sequence(
        {der::integer(0), alg, der::tlv(der::tag::octet_string, byte_span(sk_bytes).first(sk_bytes.size() - 1))});
    EXPECT_EQ(jose::load_pkcs8_der(short_sk).error().code, Errc::invalid_length) << s.id;
    const bytes choice = der::sequence({der::integer(0), alg, der::tlv(der::tag::octet_string, der::tlv(0x80, sk_bytes))});
    EXPECT_FALSE(jose::load_pkcs8_der(choice).ok()) << s.id;
    bytes other_pk(k->public_key().begin(), k->public_key().end());
    other_pk[0] ^= 1;
    bytes pk_field = der::bit_string(other_pk);
    pk_field[0] = der::tag::ctx1_prim;
    const bytes v2 = der::sequence({der::integer(1), alg, der::tlv(der::tag::octet_string, sk_bytes), pk_field});
    EXPECT_EQ(jose::load_pkcs8_der(v2).error().code, Errc::key_check_failed) << s.id;
  }
}

// ML-KEM PKCS#8: seed, expandedKey and both; FIPS 203 §7.3 (hash check) on an expanded key, §7.2
// (modulus check) on its ek and on an SPKI key; both halves must agree.
TEST(Pkix, MlKemSeedExpandedBothAndChecks) {
  const std::pair<const char*, mlkem::ParameterSet> sets[] = {{"ml-kem-512", mlkem::ParameterSet::ml_kem_512},
                                                              {"ml-kem-768", mlkem::ParameterSet::ml_kem_768},
                                                              {"ml-kem-1024", mlkem::ParameterSet::ml_kem_1024}};
  for (const auto& [id, ps] : sets) {
    const SuiteInfo& s = *find_suite(id).value();
    const bytes seed(64, 0x5a), seed2(64, 0xa5);
    auto k = KemPrivateKey::from_private(s, seed).value();
    const auto kp = mlkem::keygen_from_seed(ps, seed).value();
    const bytes dk(kp.dk.span().begin(), kp.dk.span().end());
    const auto kp2 = mlkem::keygen_from_seed(ps, seed2).value();
    const bytes dk2(kp2.dk.span().begin(), kp2.dk.span().end());
    const bytes alg = der::sequence({der::oid(jose::oid_for_suite(s).value())});
    auto wrap = [&](const bytes& inner) {
      return der::sequence({der::integer(0), alg, der::tlv(der::tag::octet_string, inner)});
    };
    const bytes s_os = der::tlv(der::tag::octet_string, seed), e_os = der::tlv(der::tag::octet_string, dk);
    // pqsig writes the seed form.
    const bytes p8 = jose::to_pkcs8_der(k).value();
    EXPECT_EQ(to_hex(p8), to_hex(wrap(der::tlv(0x80, seed)))) << id;
    EXPECT_NE(jose::to_pkcs8_pem(k).value().find("-----BEGIN PRIVATE KEY-----"), std::string::npos);
    const std::vector<std::pair<std::string, bytes>> forms = {
        {"seed", der::tlv(0x80, seed)}, {"expanded", e_os}, {"both", der::sequence({s_os, e_os})}};
    std::string tp;
    for (const auto& [form, inner] : forms) {
      auto r = jose::load_pkcs8_der(wrap(inner));
      ASSERT_TRUE(r.ok()) << id << " " << form << ": " << r.error().what();
      ASSERT_TRUE(r->kem_private && r->kem_public) << id << " " << form;
      EXPECT_EQ(to_hex(r->kem_public->public_key()), to_hex(k.public_key())) << id << " " << form;
      if (tp.empty()) tp = r->thumbprint;
      EXPECT_EQ(r->thumbprint, tp) << id << " " << form;
      // The imported key decapsulates what its public key encapsulates.
      auto e = r->kem_public->encaps().value();
      EXPECT_EQ(to_hex(r->kem_private->decaps(e.ciphertext).value().span()), to_hex(e.shared_secret.span()))
          << id << " " << form;
    }
    // An expanded-only key has no seed to write back.
    auto exp_only = jose::load_pkcs8_der(wrap(e_os)).value();
    EXPECT_EQ(jose::to_pkcs8_der(*exp_only.kem_private).error().code, Errc::unsupported) << id;
    EXPECT_EQ(jose::to_jwk(*exp_only.kem_private, true).error().code, Errc::unsupported) << id;
    EXPECT_TRUE(jose::to_jwk(*exp_only.kem_private, false).ok()) << id;
    // §7.3: H(ek) inside dk flipped → refused.
    bytes bad_h = dk;
    bad_h[dk.size() - 40] ^= 1;
    EXPECT_EQ(jose::load_pkcs8_der(wrap(der::tlv(der::tag::octet_string, bad_h))).error().code, Errc::key_check_failed)
        << id;
    // both: seed of one key with the dk of another; and with a dk whose z differs.
    EXPECT_EQ(jose::load_pkcs8_der(wrap(der::sequence({s_os, der::tlv(der::tag::octet_string, dk2)}))).error().code,
              Errc::key_check_failed)
        << id;
    bytes other_z = dk;
    other_z.back() ^= 1;
    EXPECT_EQ(jose::load_pkcs8_der(wrap(der::sequence({s_os, der::tlv(der::tag::octet_string, other_z)}))).error().code,
              Errc::key_check_failed)
        << id;
    // Wrong lengths: seed 63 bytes, dk one byte short.
    EXPECT_EQ(jose::load_pkcs8_der(wrap(der::tlv(0x80, bytes(63, 1)))).error().code, Errc::invalid_length) << id;
    EXPECT_EQ(jose::load_pkcs8_der(wrap(der::tlv(der::tag::octet_string, byte_span(dk).first(dk.size() - 1))))
                  .error()
                  .code,
              Errc::invalid_length)
        << id;
    // §7.2 on SPKI: the first coefficient set to 0xfff >= q.
    const bytes spki = jose::to_spki_der(s, k.public_key()).value();
    auto pub = jose::load_spki_der(spki);
    ASSERT_TRUE(pub.ok()) << pub.error().what();
    EXPECT_EQ(pub->thumbprint, tp);
    bytes ek(k.public_key().begin(), k.public_key().end());
    ek[0] = 0xff;
    ek[1] |= 0x0f;
    EXPECT_FALSE(jose::load_spki_der(der::sequence({alg, der::bit_string(ek)})).ok()) << id;
    // §7.2 on the ek inside an expanded dk (with H(ek) recomputed, so only the modulus check can fail):
    // dk = dk_PKE ‖ ek ‖ H(ek) ‖ z; ek starts at 384k.
    bytes bad_ek_dk = dk;
    const std::size_t ek_at = dk.size() - 64 - ek.size();
    std::copy(ek.begin(), ek.end(), bad_ek_dk.begin() + static_cast<std::ptrdiff_t>(ek_at));
    const auto h = hash::sha3_256(ek);
    std::copy(h.begin(), h.end(), bad_ek_dk.end() - 64);
    EXPECT_FALSE(jose::load_pkcs8_der(wrap(der::tlv(der::tag::octet_string, bad_ek_dk))).ok()) << id;
  }
}

// AKP JWK private keys with "priv" alone (as WebCrypto exports and imports them): the public key is
// derived; the kid / thumbprint is that of the public JWK; when "pub" is present it must match.
TEST(Jwk, AkpPrivOnlyDerivesThePublicKey) {
  for (const char* id : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "slh-dsa-sha2-128f", "ml-kem-768", "ml-dsa-65+ed25519"}) {
    const SuiteInfo& s = *find_suite(id).value();
    std::string full;
    if (s.cls == SuiteClass::kem) full = jose::to_jwk(KemPrivateKey::generate(s).value(), true).value();
    else full = jose::to_jwk(SigningKey::generate(s).value(), true).value();
    const json j = json::parse(full);
    auto ref = jose::load_jwk(full);
    ASSERT_TRUE(ref.ok()) << id;
    json bare = {{"kty", "AKP"}, {"alg", j["alg"]}, {"priv", j["priv"]}};
    auto k = jose::load_jwk(bare.dump());
    ASSERT_TRUE(k.ok()) << id << ": " << k.error().what();
    EXPECT_EQ(k->thumbprint, ref->thumbprint) << id;
    EXPECT_EQ(k->thumbprint, j["kid"].get<std::string>()) << id;
    const std::string pub = jose::to_jwk(*k, false).value();
    EXPECT_EQ(json::parse(pub)["pub"], j["pub"]) << id;
    EXPECT_FALSE(json::parse(pub).contains("priv")) << id;
    EXPECT_EQ(jose::public_jwk(bare.dump()).value(), pub) << id;
    // Present "pub" that does not match: refused.
    json wrong = bare;
    bytes pk = base64url_decode(j["pub"].get<std::string>()).value();
    pk[pk.size() / 2] ^= 1;
    wrong["pub"] = base64url_encode(pk);
    EXPECT_EQ(jose::load_jwk(wrong.dump()).error().code, Errc::key_check_failed) << id;
    // Neither "pub" nor "priv": refused; a bad "priv" length: refused.
    json none = {{"kty", "AKP"}, {"alg", j["alg"]}};
    EXPECT_FALSE(jose::load_jwk(none.dump()).ok()) << id;
    json shortp = bare;
    shortp["priv"] = base64url_encode(bytes(5, 1));
    EXPECT_EQ(jose::load_jwk(shortp.dump()).error().code, Errc::invalid_length) << id;
  }
}
