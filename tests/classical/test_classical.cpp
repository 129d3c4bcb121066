// Classical suites: RFC 8032 (Ed25519, Ed448), RFC 6979 (ECDSA P-256/P-384 published signatures,
// verified), RFC 4231 (HMAC-SHA256), RFC 9421 Appendix B (RSA-PSS, ECDSA, HMAC, Ed25519 with the
// published test keys), libsodium vs OpenSSL Ed25519 cross-checks, round trips and tampering.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "pqsig/classical_suites.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;
using namespace pqsig::classical;

namespace {
bytes H(std::string_view s) {
  auto r = from_hex(s);
  EXPECT_TRUE(r.ok()) << s;
  return r.ok() ? r.value() : bytes{};
}
bytes B(std::string_view s) { return bytes(s.begin(), s.end()); }
const SuiteInfo& S(std::string_view id) { return *find_suite(id).value(); }
std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
std::string shared(const std::string& rel) { return std::string(PQSIG_SHARED_DIR) + "/vectors/" + rel; }
nlohmann::json rfc9421() { return nlohmann::json::parse(slurp(shared("rfc9421/examples.json"))); }
const nlohmann::json& example(const nlohmann::json& j, std::string_view id) {
  for (const auto& e : j["examples"])
    if (e["id"] == id) return e;
  static nlohmann::json none;
  ADD_FAILURE() << "no example " << id;
  return none;
}
bytes b64(const std::string& s) {
  auto r = base64_decode(s);
  EXPECT_TRUE(r.ok());
  return r.ok() ? r.value() : bytes{};
}
bytes flip(bytes b, std::size_t i = 0) {
  b[i % b.size()] ^= 0x01;
  return b;
}

struct EdVector {
  const char* sk;
  const char* pk;
  const char* msg;
  const char* sig;
};

// RFC 8032 §7.1 TEST 1, TEST 2, TEST 3, TEST SHA(abc).
const EdVector kEd25519[] = {
    {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
    {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
    {"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
};

// RFC 8032 §7.4 -----Blank and -----1 octet.
const EdVector kEd448[] = {
    {"6c82a562cb808d10d632be89c8513ebf6c929f34ddfa8c9f63c9960ef6e348a3528c8a3fcc2f044e39a3fc5b94492f8f032e7549a20098f95b",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180",
     "",
     "533a37f6bbe457251f023c0d88f976ae2dfb504a843e34d2074fd823d41a591f2b233f034f628281f2fd7a22ddd47d7828c59bd0a21bfd3980ff0d2028d4b18a9df63e006c5d1c2d345b925d8dc00b4104852db99ac5c7cdda8530a113a0f4dbb61149f05a7363268c71d95808ff2e652600"},
    {"c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463afbea67c5e8d2877c5e3bc397a659949ef8021e954e0a12274e",
     "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c0866aea01eb00742802b8438ea4cb82169c235160627b4c3a9480",
     "03",
     "26b8f91727bd62897af15e41eb43c377efb9c610d48f2335cb0bd0087810f4352541b143c4b981b7e18f62de8ccdf633fc1bf037ab7cd779805e0dbcc0aae1cbcee1afb2e027df36bc04dcecbf154336c19f0af7e0a6472905e799f1953d2a0ff3348ab21aa4adafd1d234441cf807c03a00"},
};
}  // namespace

// ---------------------------------------------------------------- EdDSA

TEST(Ed25519, Rfc8032VectorsBothEngines) {
  for (const auto& v : kEd25519) {
    for (auto eng : {Ed25519Engine::libsodium, Ed25519Engine::openssl}) {
      auto sk = ed25519_signing_key(H(v.sk), eng);
      ASSERT_TRUE(sk.ok()) << sk.error().what();
      EXPECT_EQ(to_hex(sk->public_key()), v.pk);
      auto sig = sk->sign(H(v.msg));
      ASSERT_TRUE(sig.ok());
      EXPECT_EQ(to_hex(*sig), v.sig);
      auto vk = ed25519_verifying_key(H(v.pk), eng);
      ASSERT_TRUE(vk.ok());
      EXPECT_TRUE(vk->verify(H(v.msg), H(v.sig)).ok());
      EXPECT_EQ(vk->verify(H(v.msg), flip(H(v.sig), 5)).error().code, Errc::verify_failed);
      EXPECT_EQ(vk->verify(B("x"), H(v.sig)).error().code, Errc::verify_failed);
    }
    // The suite API (libsodium) gives the same.
    auto sk = SigningKey::from_private(S("ed25519"), H(v.sk));
    ASSERT_TRUE(sk.ok());
    EXPECT_EQ(to_hex(*sk->sign(H(v.msg))), v.sig);
  }
}

TEST(Ed25519, EnginesAgreeOnRandomKeys) {
  for (int i = 0; i < 20; ++i) {
    auto sk = SigningKey::generate(S("ed25519"));
    ASSERT_TRUE(sk.ok());
    bytes msg(static_cast<std::size_t>(i * 13), static_cast<std::uint8_t>(i));
    auto a = ed25519_signing_key(sk->private_key(), Ed25519Engine::libsodium);
    auto b = ed25519_signing_key(sk->private_key(), Ed25519Engine::openssl);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(to_hex(a->public_key()), to_hex(b->public_key()));
    auto sa = a->sign(msg);
    auto sb = b->sign(msg);
    EXPECT_EQ(to_hex(*sa), to_hex(*sb));
    auto va = ed25519_verifying_key(a->public_key(), Ed25519Engine::openssl);
    auto vb = ed25519_verifying_key(b->public_key(), Ed25519Engine::libsodium);
    EXPECT_TRUE(va->verify(msg, *sa).ok());
    EXPECT_TRUE(vb->verify(msg, *sb).ok());
  }
}

TEST(Ed25519, Rfc8037JwsAndWrongSizes) {
  // RFC 8037 A.4: deterministic JWS signature over "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc".
  auto j = nlohmann::json::parse(slurp(shared("jose/rfc8037-okp.json")));
  std::string text = j.dump();
  auto pos = text.find("eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.");
  ASSERT_NE(pos, std::string::npos);
  std::string jws = text.substr(pos, text.find('"', pos) - pos);
  auto dot = jws.rfind('.');
  std::string input = jws.substr(0, dot);
  auto sig = base64url_decode(jws.substr(dot + 1));
  ASSERT_TRUE(sig.ok());
  // RFC 8037 A.1 key.
  auto d = base64url_decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A");
  auto sk = SigningKey::from_private(S("ed25519"), *d);
  ASSERT_TRUE(sk.ok());
  EXPECT_EQ(base64url_encode(sk->public_key()), "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo");
  EXPECT_EQ(to_hex(*sk->sign(as_bytes(input))), to_hex(*sig));
  EXPECT_EQ(SigningKey::from_private(S("ed25519"), bytes(31)).error().code, Errc::invalid_length);
  EXPECT_EQ(VerifyingKey::from_public(S("ed25519"), bytes(33)).error().code, Errc::invalid_length);
  auto vk = VerifyingKey::from_public(S("ed25519"), sk->public_key());
  EXPECT_EQ(vk->verify(as_bytes(input), bytes(63)).error().code, Errc::invalid_length);
  // No context / pre-hash for pure Ed25519.
  SignOptions o;
  bytes ctx{1};
  o.ctx = ctx;
  EXPECT_EQ(sk->sign(as_bytes(input), o).error().code, Errc::invalid_context);
}

TEST(Ed448, Rfc8032Vectors) {
  for (const auto& v : kEd448) {
    auto sk = SigningKey::from_private(S("ed448"), H(v.sk));
    ASSERT_TRUE(sk.ok()) << sk.error().what();
    EXPECT_EQ(to_hex(sk->public_key()), v.pk);
    auto sig = sk->sign(H(v.msg));
    ASSERT_TRUE(sig.ok());
    EXPECT_EQ(to_hex(*sig), v.sig);
    auto vk = VerifyingKey::from_public(S("ed448"), H(v.pk));
    ASSERT_TRUE(vk.ok());
    EXPECT_TRUE(vk->verify(H(v.msg), H(v.sig)).ok());
    EXPECT_EQ(vk->verify(H(v.msg), flip(H(v.sig), 77)).error().code, Errc::verify_failed);
    EXPECT_EQ(vk->verify(B("tampered"), H(v.sig)).error().code, Errc::verify_failed);
  }
}

// ---------------------------------------------------------------- ECDSA

TEST(Ecdsa, Rfc6979P256PublishedSignaturesVerify) {
  const auto& s = S("ecdsa-p256-sha256");
  // RFC 6979 A.2.5: key, public point, and the SHA-256 signatures of "sample" and "test".
  auto sk = SigningKey::from_private(s, H("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"));
  ASSERT_TRUE(sk.ok()) << sk.error().what();
  const std::string pub = "04" "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
                          "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299";
  EXPECT_EQ(to_hex(sk->public_key()), pub);
  auto vk = VerifyingKey::from_public(s, H(pub));
  ASSERT_TRUE(vk.ok());
  bytes sample = H("efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
                   "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8");
  bytes test = H("f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367"
                 "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083");
  EXPECT_TRUE(vk->verify(B("sample"), sample).ok());
  EXPECT_TRUE(vk->verify(B("test"), test).ok());
  EXPECT_EQ(vk->verify(B("test"), sample).error().code, Errc::verify_failed);
  EXPECT_EQ(vk->verify(B("sample"), flip(sample, 40)).error().code, Errc::verify_failed);
  EXPECT_EQ(vk->verify(B("sample"), bytes(sample.begin(), sample.end() - 1)).error().code, Errc::invalid_length);
  // Our (randomised) signatures verify and are raw r||s.
  auto sig = sk->sign(B("sample"));
  ASSERT_TRUE(sig.ok());
  EXPECT_EQ(sig->size(), 64u);
  EXPECT_TRUE(vk->verify(B("sample"), *sig).ok());
  SignOptions det;
  det.deterministic = true;
  EXPECT_EQ(sk->sign(B("sample"), det).error().code, Errc::unsupported);
}

TEST(Ecdsa, Rfc6979P384PublishedSignaturesVerify) {
  const auto& s = S("ecdsa-p384-sha384");
  auto sk = SigningKey::from_private(
      s, H("6b9d3dad2e1b8c1c05b19875b6659f4de23c3b667bf297ba9aa47740787137d896d5724e4c70a825f872c9ea60d2edf5"));
  ASSERT_TRUE(sk.ok()) << sk.error().what();
  const std::string pub =
      "04" "ec3a4e415b4e19a4568618029f427fa5da9a8bc4ae92e02e06aae5286b300c64def8f0ea9055866064a254515480bc13"
      "8015d9b72d7d57244ea8ef9ac0c621896708a59367f9dfb9f54ca84b3f1c9db1288b231c3ae0d4fe7344fd2533264720";
  EXPECT_EQ(to_hex(sk->public_key()), pub);
  auto vk = VerifyingKey::from_public(s, H(pub));
  ASSERT_TRUE(vk.ok());
  bytes sample = H("94edbb92a5ecb8aad4736e56c691916b3f88140666ce9fa73d64c4ea95ad133c81a648152e44acf96e36dd1e80fabe46"
                   "99ef4aeb15f178cea1fe40db2603138f130e740a19624526203b6351d0a3a94fa329c145786e679e7b82c71a38628ac8");
  bytes test = H("8203b63d3c853e8d77227fb377bcf7b7b772e97892a80f36ab775d509d7a5feb0542a7f0812998da8f1dd3ca3cf023db"
                 "ddd0760448d42d8a43af45af836fce4de8be06b485e9b61b827c2f13173923e06a739f040649a667bf3b828246baa5a5");
  EXPECT_TRUE(vk->verify(B("sample"), sample).ok());
  EXPECT_TRUE(vk->verify(B("test"), test).ok());
  EXPECT_EQ(vk->verify(B("sample"), test).error().code, Errc::verify_failed);
  auto sig = sk->sign(B("x"));
  EXPECT_EQ(sig->size(), 96u);
  EXPECT_TRUE(vk->verify(B("x"), *sig).ok());
}

TEST(Ecdsa, KeyValidation) {
  const auto& s = S("ecdsa-p256-sha256");
  EXPECT_EQ(SigningKey::from_private(s, bytes(32, 0)).error().code, Errc::key_check_failed);
  EXPECT_EQ(SigningKey::from_private(s, bytes(32, 0xff)).error().code, Errc::key_check_failed);  // >= n
  EXPECT_EQ(SigningKey::from_private(s, bytes(31, 1)).error().code, Errc::invalid_length);
  bytes bad(65, 0);
  bad[0] = 4;
  bad[64] = 1;  // not on the curve
  EXPECT_FALSE(VerifyingKey::from_public(s, bad).ok());
  bytes compressed(33, 2);
  EXPECT_EQ(VerifyingKey::from_public(s, compressed).error().code, Errc::invalid_encoding);
}

TEST(Ecdsa, DerConversion) {
  bytes raw = H("00000000000000000000000000000000000000000000000000000000000000ff"
                "8000000000000000000000000000000000000000000000000000000000000001");
  auto der = ecdsa_raw_to_der(raw);
  ASSERT_TRUE(der.ok());
  EXPECT_EQ(to_hex(*der), "3027020200ff022100" "8000000000000000000000000000000000000000000000000000000000000001");
  auto back = ecdsa_der_to_raw(*der, 32);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(to_hex(*back), to_hex(raw));
  // Strictness: non-minimal, negative, trailing bytes, overlong integers.
  EXPECT_FALSE(ecdsa_der_to_raw(H("300702020001020101"), 32).ok());   // non-minimal 0001
  EXPECT_FALSE(ecdsa_der_to_raw(H("3006020180020101"), 32).ok());     // negative
  EXPECT_FALSE(ecdsa_der_to_raw(H("30060201010201010000"), 32).ok()); // trailing
  bytes big = *ecdsa_raw_to_der(bytes(96, 0x11));
  EXPECT_FALSE(ecdsa_der_to_raw(big, 32).ok());
  EXPECT_TRUE(ecdsa_der_to_raw(big, 48).ok());
}

// ---------------------------------------------------------------- RFC 9421 keys and examples

TEST(Rfc9421, RsaPssExamplesVerify) {
  auto j = rfc9421();
  auto key = import_pem(slurp(shared("rfc9421/keys/test-key-rsa-pss.pub.pem")), "rsa-pss-sha512");
  ASSERT_TRUE(key.ok()) << key.error().what();
  EXPECT_EQ(key->suite->id, "rsa-pss-sha512");
  auto vk = VerifyingKey::from_public(*key->suite, key->public_key);
  ASSERT_TRUE(vk.ok()) << vk.error().what();
  for (const char* id : {"B.2.1", "B.2.2", "B.2.3"}) {
    const auto& e = example(j, id);
    std::string base = e["signatureBase"];
    bytes sig = b64(e["signatureBase64"]);
    EXPECT_TRUE(vk->verify(as_bytes(base), sig).ok()) << id;
    EXPECT_EQ(vk->verify(as_bytes(base + " "), sig).error().code, Errc::verify_failed) << id;
    EXPECT_EQ(vk->verify(as_bytes(base), flip(sig, 100)).error().code, Errc::verify_failed) << id;
  }
  // The PKCS#8 private key is typed id-RSASSA-PSS: it imports (as rsa-pss-sha512) and signs.
  auto priv = import_pem(slurp(shared("rfc9421/keys/test-key-rsa-pss.key.pem")));
  ASSERT_TRUE(priv.ok()) << priv.error().what();
  EXPECT_EQ(priv->suite->id, "rsa-pss-sha512");
  EXPECT_EQ(to_hex(priv->public_key), to_hex(key->public_key));
  auto sk = SigningKey::from_private(*priv->suite, priv->private_key.span());
  ASSERT_TRUE(sk.ok()) << sk.error().what();
  auto sig = sk->sign(B("hello"));
  ASSERT_TRUE(sig.ok());
  EXPECT_EQ(sig->size(), 256u);
  EXPECT_TRUE(vk->verify(B("hello"), *sig).ok());
  // An RSA-PSS key cannot be forced into PKCS#1 v1.5.
  EXPECT_EQ(import_pem(slurp(shared("rfc9421/keys/test-key-rsa-pss.key.pem")), "rsa-v1_5-sha256").error().code,
            Errc::invalid_argument);
}

TEST(Rfc9421, RsaV15KeyPkcs1PemRoundTrip) {
  auto pub = import_pem(slurp(shared("rfc9421/keys/test-key-rsa.pub.pem")), "rsa-v1_5-sha256");
  ASSERT_TRUE(pub.ok()) << pub.error().what();
  auto priv = import_pem(slurp(shared("rfc9421/keys/test-key-rsa.key.pem")), "rsa-v1_5-sha256");
  ASSERT_TRUE(priv.ok()) << priv.error().what();
  EXPECT_EQ(to_hex(pub->public_key), to_hex(priv->public_key));
  EXPECT_EQ(import_pem(slurp(shared("rfc9421/keys/test-key-rsa.key.pem"))).error().code, Errc::invalid_argument);
  const auto& s = S("rsa-v1_5-sha256");
  auto sk = SigningKey::from_private(s, priv->private_key.span());
  auto vk = VerifyingKey::from_public(s, pub->public_key);
  ASSERT_TRUE(sk.ok() && vk.ok());
  auto a = sk->sign(B("msg"));
  auto b = sk->sign(B("msg"));
  EXPECT_EQ(to_hex(*a), to_hex(*b));  // PKCS#1 v1.5 is deterministic
  EXPECT_TRUE(vk->verify(B("msg"), *a).ok());
  EXPECT_EQ(vk->verify(B("msG"), *a).error().code, Errc::verify_failed);
  // A PSS signature does not verify as v1.5 and vice versa.
  auto pss = SigningKey::from_private(S("rsa-pss-sha512"), priv->private_key.span());
  ASSERT_TRUE(pss.ok());
  EXPECT_EQ(vk->verify(B("msg"), *pss->sign(B("msg"))).error().code, Errc::verify_failed);
}

TEST(Rfc9421, EcdsaExamplesVerifyAndSec1Import) {
  auto j = rfc9421();
  auto pub = import_pem(slurp(shared("rfc9421/keys/test-key-ecc-p256.pub.pem")));
  ASSERT_TRUE(pub.ok()) << pub.error().what();
  EXPECT_EQ(pub->suite->id, "ecdsa-p256-sha256");
  auto priv = import_pem(slurp(shared("rfc9421/keys/test-key-ecc-p256.key.pem")));
  ASSERT_TRUE(priv.ok()) << priv.error().what();
  EXPECT_EQ(priv->private_key.size(), 32u);
  EXPECT_EQ(to_hex(priv->public_key), to_hex(pub->public_key));
  auto vk = VerifyingKey::from_public(*pub->suite, pub->public_key);
  for (const char* id : {"B.2.4", "B.3"}) {
    const auto& e = example(j, id);
    std::string base = e["signatureBase"];
    bytes sig = b64(e["signatureBase64"]);
    EXPECT_TRUE(vk->verify(as_bytes(base), sig).ok()) << id;
    EXPECT_EQ(vk->verify(as_bytes(base), flip(sig, 3)).error().code, Errc::verify_failed) << id;
  }
}

TEST(Rfc9421, Ed25519AndHmacExamplesReproduce) {
  auto j = rfc9421();
  auto priv = import_pem(slurp(shared("rfc9421/keys/test-key-ed25519.key.pem")));
  ASSERT_TRUE(priv.ok()) << priv.error().what();
  auto sk = SigningKey::from_private(*priv->suite, priv->private_key.span());
  auto vk = VerifyingKey::from_public(*priv->suite, priv->public_key);
  for (const char* id : {"B.2.6", "B.4"}) {
    const auto& e = example(j, id);
    std::string base = e["signatureBase"];
    EXPECT_EQ(base64_encode(*sk->sign(as_bytes(base))), e["signatureBase64"].get<std::string>()) << id;
    EXPECT_TRUE(vk->verify(as_bytes(base), b64(e["signatureBase64"])).ok());
  }
  const auto& e = example(j, "B.2.5");
  bytes secret = b64(j["keys"]["test-shared-secret"]["base64"]);
  auto mac = SigningKey::from_private(S("hmac-sha256"), secret);
  ASSERT_TRUE(mac.ok());
  std::string base = e["signatureBase"];
  auto tag = mac->sign(as_bytes(base));
  EXPECT_EQ(base64_encode(*tag), e["signatureBase64"].get<std::string>());
  EXPECT_TRUE(mac->verify(as_bytes(base), *tag).ok());
  EXPECT_EQ(mac->verify(as_bytes(base), flip(*tag, 31)).error().code, Errc::verify_failed);
  EXPECT_EQ(mac->verify(as_bytes(base), bytes(tag->begin(), tag->begin() + 16)).error().code, Errc::invalid_length);
  EXPECT_EQ(VerifyingKey::from_public(S("hmac-sha256"), bytes{}).error().code, Errc::unsupported);
}

// ---------------------------------------------------------------- HMAC

TEST(Hmac, Rfc4231) {
  struct V {
    bytes key, data;
    const char* mac;
  } vs[] = {
      {bytes(20, 0x0b), B("Hi There"), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
      {B("Jefe"), B("what do ya want for nothing?"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
      {bytes(20, 0xaa), bytes(50, 0xdd), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
      {H("0102030405060708090a0b0c0d0e0f10111213141516171819"), bytes(50, 0xcd),
       "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
      {bytes(131, 0xaa), B("Test Using Larger Than Block-Size Key - Hash Key First"),
       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
      {bytes(131, 0xaa),
       B("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
         "hashed before being used by the HMAC algorithm."),
       "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
  };
  for (const auto& v : vs) {
    auto t = hmac_sha256(v.key, v.data);
    EXPECT_EQ(to_hex(t), v.mac);
    if (v.key.size() >= 16) {
      auto k = SigningKey::from_private(S("hmac-sha256"), v.key);
      ASSERT_TRUE(k.ok());
      EXPECT_EQ(to_hex(*k->sign(v.data)), v.mac);
    }
  }
  EXPECT_EQ(SigningKey::from_private(S("hmac-sha256"), B("Jefe")).error().code, Errc::invalid_length);
}

TEST(Hmac, MatchesOpenSsl) {
  for (std::size_t kl : {16u, 63u, 64u, 65u, 200u}) {
    for (std::size_t ml : {0u, 1u, 55u, 64u, 1000u}) {
      bytes key(kl), msg(ml);
      ASSERT_TRUE(random_bytes(key));
      ASSERT_TRUE(random_bytes(msg));
      unsigned char out[32];
      std::size_t outlen = 0;
      ASSERT_NE(EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, key.data(), key.size(), msg.data(), msg.size(),
                          out, sizeof out, &outlen),
                nullptr);
      EXPECT_EQ(to_hex(hmac_sha256(key, msg)), to_hex(byte_span(out, outlen)));
    }
  }
}

// ---------------------------------------------------------------- round trips, all suites

TEST(Classical, RoundTripAndTamperEverySuite) {
  for (const char* id : {"ed25519", "ed448", "ecdsa-p256-sha256", "ecdsa-p384-sha384", "rsa-pss-sha512",
                         "rsa-v1_5-sha256", "hmac-sha256"}) {
    const auto& s = S(id);
    SecretBytes priv;
    if (std::string_view(id).starts_with("rsa")) {
      auto p = generate_rsa_private(2048);  // 3072 by default; 2048 keeps the test fast
      ASSERT_TRUE(p.ok());
      priv = std::move(p.value());
    }
    auto sk = priv.empty() ? SigningKey::generate(s) : SigningKey::from_private(s, priv.span());
    ASSERT_TRUE(sk.ok()) << id << ": " << sk.error().what();
    EXPECT_EQ(&sk->suite(), &s);
    if (s.private_key_size && s.cls != SuiteClass::mac) {
      EXPECT_EQ(sk->private_key().size(), s.private_key_size) << id;
    }
    if (s.public_key_size) {
      EXPECT_EQ(sk->public_key().size(), s.public_key_size) << id;
    }
    bytes msg = B("settlement instruction #42");
    auto sig = sk->sign(msg);
    ASSERT_TRUE(sig.ok()) << id;
    if (!s.variable_output) {
      EXPECT_EQ(sig->size(), s.output_size) << id;
    }
    EXPECT_LE(sig->size(), s.output_size) << id;
    // Reloading from the canonical private form gives the same public key.
    auto again = SigningKey::from_private(s, sk->private_key());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(to_hex(again->public_key()), to_hex(sk->public_key()));
    if (s.cls == SuiteClass::mac) {
      EXPECT_TRUE(sk->verify(msg, *sig).ok());
      EXPECT_EQ(sk->verify(B("other"), *sig).error().code, Errc::verify_failed);
      continue;
    }
    auto vk = VerifyingKey::from_public(s, sk->public_key());
    ASSERT_TRUE(vk.ok()) << id << vk.error().what();
    EXPECT_TRUE(vk->verify(msg, *sig).ok()) << id;
    EXPECT_EQ(vk->verify(B("settlement instruction #43"), *sig).error().code, Errc::verify_failed) << id;
    for (std::size_t i : {std::size_t{0}, sig->size() / 2, sig->size() - 1})
      EXPECT_EQ(vk->verify(msg, flip(*sig, i)).error().code, Errc::verify_failed) << id << " byte " << i;
    EXPECT_FALSE(vk->verify(msg, bytes(sig->begin(), sig->end() - 1)).ok()) << id;
    EXPECT_FALSE(vk->verify(msg, bytes{}).ok()) << id;
    // Another key's signature is rejected.
    auto other = priv.empty() ? SigningKey::generate(s) : SigningKey::from_private(s, generate_rsa_private(2048)->span());
    ASSERT_TRUE(other.ok());
    EXPECT_EQ(vk->verify(msg, *other->sign(msg)).error().code, Errc::verify_failed) << id;
    // MAC-only call on a signature key.
    EXPECT_EQ(sk->verify(msg, *sig).error().code, Errc::unsupported);
  }
}

// ---------------------------------------------------------------- key formats

TEST(KeyFormats, PemDerRoundTrips) {
  for (const char* id : {"ed25519", "ed448", "ecdsa-p256-sha256", "ecdsa-p384-sha384", "rsa-pss-sha512"}) {
    const auto& s = S(id);
    auto sk = std::string_view(id).starts_with("rsa") ? SigningKey::from_private(s, generate_rsa_private(2048)->span())
                                                      : SigningKey::generate(s);
    ASSERT_TRUE(sk.ok());
    auto spki = export_spki_pem(s, sk->public_key());
    ASSERT_TRUE(spki.ok()) << id;
    auto p8 = export_pkcs8_pem(s, sk->private_key());
    ASSERT_TRUE(p8.ok()) << id;
    auto pub = import_pem(*spki, id);
    ASSERT_TRUE(pub.ok()) << id << pub.error().what();
    EXPECT_FALSE(pub->has_private());
    EXPECT_EQ(to_hex(pub->public_key), to_hex(sk->public_key()));
    auto priv = import_pem(*p8, id);
    ASSERT_TRUE(priv.ok()) << id;
    EXPECT_TRUE(priv->has_private());
    EXPECT_EQ(to_hex(priv->private_key.span()), to_hex(sk->private_key()));
    auto der = export_pkcs8_der(s, sk->private_key());
    auto priv2 = import_der(der->span(), id);
    ASSERT_TRUE(priv2.ok());
    EXPECT_EQ(to_hex(priv2->private_key.span()), to_hex(sk->private_key()));
    bytes spkider = *export_spki_der(s, sk->public_key());
    spkider.push_back(0);
    EXPECT_FALSE(import_der(spkider, id).ok()) << id;  // trailing byte
  }
  EXPECT_EQ(import_pem("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n").error().code,
            Errc::unsupported);
  EXPECT_FALSE(import_pem("not a pem").ok());
  EXPECT_FALSE(import_der(bytes{0x30, 0x03, 0x02, 0x01, 0x01}).ok());
  // Hints that contradict the key are refused.
  auto ed = import_pem(slurp(shared("rfc9421/keys/test-key-ed25519.pub.pem")), "ecdsa-p256-sha256");
  EXPECT_EQ(ed.error().code, Errc::invalid_argument);
  EXPECT_EQ(import_pem(slurp(shared("rfc9421/keys/test-key-ed25519.pub.pem")), "nope").error().code,
            Errc::unknown_suite);
}

TEST(KeyFormats, JwkMembersMatchPublishedJwks) {
  // RFC 9421 B.1 JWKs vs the PEM keys.
  for (const char* kid : {"test-key-rsa", "test-key-rsa-pss", "test-key-ecc-p256", "test-key-ed25519"}) {
    auto jwk = nlohmann::json::parse(slurp(shared(std::string("rfc9421/keys/") + kid + ".jwk.json")));
    std::string hint = kid == std::string("test-key-rsa") ? "rsa-v1_5-sha256" : "";
    auto priv = import_pem(slurp(shared(std::string("rfc9421/keys/") + kid + ".key.pem")), hint);
    ASSERT_TRUE(priv.ok()) << kid << priv.error().what();
    auto m = jwk_members_private(*priv->suite, priv->private_key.span());
    ASSERT_TRUE(m.ok()) << kid;
    EXPECT_EQ(m->kty, jwk["kty"].get<std::string>());
    auto enc = [](byte_span b) { return base64url_encode(b); };
    if (m->kty == "RSA") {
      for (auto [name, val] : {std::pair{"n", enc(m->n)}, {"e", enc(m->e)}, {"d", enc(m->d.span())},
                               {"p", enc(m->p.span())}, {"q", enc(m->q.span())}, {"dp", enc(m->dp.span())},
                               {"dq", enc(m->dq.span())}, {"qi", enc(m->qi.span())}})
        EXPECT_EQ(val, jwk[name].get<std::string>()) << kid << " " << name;
    } else {
      EXPECT_EQ(m->crv, jwk["crv"].get<std::string>());
      EXPECT_EQ(enc(m->x), jwk["x"].get<std::string>()) << kid;
      EXPECT_EQ(enc(m->d.span()), jwk["d"].get<std::string>()) << kid;
      if (m->kty == "EC") {
        EXPECT_EQ(enc(m->y), jwk["y"].get<std::string>()) << kid;
      }
    }
    // And back: JWK members → canonical keys.
    auto s = suite_for_jwk(m->kty, m->crv, "");
    if (m->kty == "RSA") {
      EXPECT_FALSE(s.ok());
    } else {
      EXPECT_EQ(*s, priv->suite);
    }
    auto back = private_from_jwk_members(*priv->suite, *m);
    ASSERT_TRUE(back.ok()) << kid << back.error().what();
    EXPECT_EQ(to_hex(back->span()), to_hex(priv->private_key.span()));
    auto pub = public_from_jwk_members(*priv->suite, *m);
    ASSERT_TRUE(pub.ok());
    EXPECT_EQ(to_hex(*pub), to_hex(priv->public_key));
    // Public members from another key are refused.
    JwkMembers wrong = std::move(m.value());
    if (wrong.kty == "RSA") {
      wrong.n[10] ^= 1;
    } else {
      wrong.x = bytes(wrong.x.size(), 9);
    }
    EXPECT_FALSE(private_from_jwk_members(*priv->suite, wrong).ok()) << kid;
  }
  EXPECT_EQ(*suite_for_jwk("RSA", "", "PS512"), &S("rsa-pss-sha512"));
  EXPECT_EQ(*suite_for_jwk("oct", "", "HS256"), &S("hmac-sha256"));
  EXPECT_EQ(*suite_for_jwk("EC", "P-384", "ES384"), &S("ecdsa-p384-sha384"));
  EXPECT_FALSE(suite_for_jwk("EC", "P-256", "ES384").ok());
  EXPECT_FALSE(suite_for_jwk("EC", "secp256k1", "").ok());
  EXPECT_EQ(public_from_private(S("ed25519"), H(kEd25519[0].sk))->size(), 32u);
}
