// Hybrid KEMs: X-Wing draft vectors, X25519MLKEM768 layout, the settlement combiner's golden
// vectors (docs/settlement-kem.md) and substitution tests, and the suite API for every KEM row.
#include <gtest/gtest.h>

#include <string>

#include "classical/hkdf.hpp"
#include "classical/x25519.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/kem.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;
using kem::Hybrid;

namespace {
bytes H(std::string_view s) {
  auto r = from_hex(s);
  EXPECT_TRUE(r.ok()) << s;
  return r.ok() ? r.value() : bytes{};
}
bytes to_vec(const SecretBytes& s) { return bytes(s.data(), s.data() + s.size()); }
bytes seq(std::size_t n, std::uint8_t start) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(start + i);
  return b;
}
}  // namespace

// ---------------------------------------------------------------- X-Wing
// draft-connolly-cfrg-xwing-kem-10, Appendix C: the three test vectors. Their seeds and eseeds
// are consecutive reads of SHAKE-128("") (seed 32 bytes, then eseed 64 bytes, per vector).
struct XWingVector {
  const char* seed;
  const char* eseed;
  const char* pk_prefix;  // first 36 bytes of pk
  const char* pk_x;       // last 32 bytes of pk
  const char* ct_x;       // last 32 bytes of ct
  const char* ss;
};
const XWingVector kXWing[] = {
    {"7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
     "3cb1eea988004b93103cfb0aeefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e235b8cc873c23dc62b8d260169afa2f75ab916a58d974918835d25e6a435085b2",
     "e2236b35a8c24b39b10aa1323a96a919a2ced88400633a7b07131713fc14b2b5b19cfc3d",
     "859edb06eff389b27dce59844570216223593d4ba32d9abac8cd049040ef6534",
     "e56f17576740ce2a32fc5145030145cfb97e63e0e41d354274a079d3e6fb2e15",
     "d2df0522128f09dd8e2c92b1e905c793d8f57a54c3da25861f10bf4ca613e384"},
    {"badfd6dfaac359a5efbb7bcc4b59d538df9a04302e10c8bc1cbf1a0b3a5120ea",
     "17cda7cfad765f5623474d368ccca8af0007cd9f5e4c849f167a580b14aabdefaee7eef47cb0fca9767be1fda69419dfb927e9df07348b196691abaeb580b32d",
     "0333285fa253661508c9fb444852caa4061636cb060e69943b431400134ae1fbc0228724",
     nullptr, nullptr,
     "f2e86241c64d60f6649fbc6c5b7d17180b780a3f34355e64a85749949c45f150"},
    {"ef58538b8d23f87732ea63b02b4fa0f4873360e2841928cd60dd4cee8cc0d4c9",
     "22a96188d032675c8ac850933c7aff1533b94c834adbb69c6115bad4692d8619f90b0cdf8a7b9c264029ac185b70b83f2801f2f4b3f70c593ea3aeeb613a7f1b",
     "36244278824f77c621c660892c1c3886a9560caa52a97c461fd3958a598e749bbc8c7798",
     nullptr, nullptr,
     "953f7f4e8c5b5049bdc771d1dffada0dd961477d1a2ae0988baa7ea6898d893f"},
};

TEST(XWing, DraftVectors) {
  hash::Shake128 rng;  // the seeds are SHAKE-128("") read in order
  for (const auto& v : kXWing) {
    bytes seed(32), eseed(64);
    rng.squeeze(seed);
    rng.squeeze(eseed);
    EXPECT_EQ(seed, H(v.seed));
    EXPECT_EQ(eseed, H(v.eseed));
    auto sk = kem::HybridPrivateKey::from_seed(Hybrid::x_wing, seed);
    ASSERT_TRUE(sk.ok());
    const bytes pk(sk->public_key().begin(), sk->public_key().end());
    ASSERT_EQ(pk.size(), 1216u);
    EXPECT_EQ(bytes(pk.begin(), pk.begin() + 36), H(v.pk_prefix));
    if (v.pk_x) { EXPECT_EQ(bytes(pk.end() - 32, pk.end()), H(v.pk_x)); }
    auto e = kem::encaps_derand(Hybrid::x_wing, pk, eseed);
    ASSERT_TRUE(e.ok());
    ASSERT_EQ(e->c.size(), 1120u);
    if (v.ct_x) { EXPECT_EQ(bytes(e->c.end() - 32, e->c.end()), H(v.ct_x)); }
    EXPECT_EQ(to_vec(e->k), H(v.ss));
    auto k = sk->decaps(e->c);
    ASSERT_TRUE(k.ok());
    EXPECT_EQ(to_vec(*k), H(v.ss));
    EXPECT_EQ(bytes(sk->seed().begin(), sk->seed().end()), seed);  // dk = seed
  }
}

TEST(XWing, CombinerLabelIsLast) {
  // SHA3-256(ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖ "\.//^\") computed by hand.
  bytes in;
  for (auto b : {seq(32, 0), seq(32, 32), seq(32, 64), seq(32, 96)}) in.insert(in.end(), b.begin(), b.end());
  const std::string label = "\\.//^\\";
  in.insert(in.end(), label.begin(), label.end());
  auto want = hash::sha3_256(in);
  auto got = kem::xwing_combine(seq(32, 0), seq(32, 32), seq(32, 64), seq(32, 96));
  EXPECT_EQ(to_vec(got), bytes(want.begin(), want.end()));
}

// ---------------------------------------------------------------- X25519MLKEM768
TEST(X25519MlKem768, LayoutAndSecretConcatenation) {
  const bytes seed = seq(96, 1), eseed = seq(64, 200);
  auto sk = kem::HybridPrivateKey::from_seed(Hybrid::x25519_mlkem768, seed);
  ASSERT_TRUE(sk.ok());
  const bytes pk(sk->public_key().begin(), sk->public_key().end());
  // Client share = ML-KEM-768 ek ‖ X25519 public key.
  auto mk = mlkem::keygen_from_seed(mlkem::ParameterSet::ml_kem_768, byte_span(seed).first(64));
  ASSERT_TRUE(mk.ok());
  EXPECT_EQ(bytes(pk.begin(), pk.begin() + 1184), mk->ek);
  std::uint8_t pk_x[32];
  ASSERT_TRUE(classical::x25519::public_from_private(seed.data() + 64, pk_x).ok());
  EXPECT_EQ(bytes(pk.begin() + 1184, pk.end()), bytes(pk_x, pk_x + 32));
  // Server share = ML-KEM ct ‖ X25519 ephemeral public key; ss = ss_ML-KEM ‖ ss_X25519.
  auto e = kem::encaps_derand(Hybrid::x25519_mlkem768, pk, eseed);
  ASSERT_TRUE(e.ok());
  ASSERT_EQ(e->c.size(), 1120u);
  ASSERT_EQ(e->k.size(), 64u);
  auto em = mlkem::encaps_internal(mlkem::ParameterSet::ml_kem_768, mk->ek, byte_span(eseed).first(32));
  ASSERT_TRUE(em.ok());
  EXPECT_EQ(bytes(e->c.begin(), e->c.begin() + 1088), em->c);
  EXPECT_EQ(bytes(e->k.data(), e->k.data() + 32), to_vec(em->k));
  std::uint8_t ss_x[32], ct_x[32];
  ASSERT_TRUE(classical::x25519::dh(seed.data() + 64, e->c.data() + 1088, ss_x).ok());
  ASSERT_TRUE(classical::x25519::public_from_private(eseed.data() + 32, ct_x).ok());
  EXPECT_EQ(bytes(e->c.begin() + 1088, e->c.end()), bytes(ct_x, ct_x + 32));
  EXPECT_EQ(bytes(e->k.data() + 32, e->k.data() + 64), bytes(ss_x, ss_x + 32));
  auto k = sk->decaps(e->c);
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(to_vec(*k), to_vec(e->k));
}

TEST(X25519MlKem768, AllZeroX25519SecretRejected) {
  for (Hybrid h : {Hybrid::x25519_mlkem768, Hybrid::mlkem768_x25519_hkdf, Hybrid::x_wing}) {
    SCOPED_TRACE(std::string(kem::id(h)));
    auto sk = kem::HybridPrivateKey::from_seed(h, seq(kem::sizes(h).seed, 3));
    ASSERT_TRUE(sk.ok());
    auto e = kem::encaps_derand(h, sk->public_key(), seq(64, 9));
    ASSERT_TRUE(e.ok());
    // Small-order X25519 points: 0 and 1 give an all-zero shared secret.
    for (std::uint8_t u : {0, 1}) {
      bytes ct = e->c;
      std::fill(ct.begin() + 1088, ct.end(), 0);
      ct[1088] = u;
      auto k = sk->decaps(ct);
      ASSERT_FALSE(k.ok());
      EXPECT_EQ(k.error().code, Errc::key_check_failed);
      bytes pk(sk->public_key().begin(), sk->public_key().end());
      std::fill(pk.begin() + 1184, pk.end(), 0);
      pk[1184] = u;
      auto e2 = kem::encaps_derand(h, pk, seq(64, 9));
      ASSERT_FALSE(e2.ok());
      EXPECT_EQ(e2.error().code, Errc::key_check_failed);
    }
  }
}

// ---------------------------------------------------------------- settlement combiner
// Golden vectors from docs/settlement-kem.md (seed = 00 01 … 5f, eseed = 60 61 … 9f).
TEST(SettlementKem, GoldenVector) {
  const bytes seed = seq(96, 0x00), eseed = seq(64, 0x60);
  auto sk = kem::HybridPrivateKey::from_seed(Hybrid::mlkem768_x25519_hkdf, seed);
  ASSERT_TRUE(sk.ok());
  const bytes pk(sk->public_key().begin(), sk->public_key().end());
  auto e = kem::encaps_derand(Hybrid::mlkem768_x25519_hkdf, pk, eseed);
  ASSERT_TRUE(e.ok());
  auto hpk = hash::sha3_256(pk);
  auto hct = hash::sha3_256(e->c);
  EXPECT_EQ(to_hex(hpk), "db9bdf5cd028c059982945dac9a6152c9d5e9ea26d91454735da57514f2095c2");
  EXPECT_EQ(to_hex(hct), "d8ecb05f1f5948344cc02e9b5a109c2c862c777aa30690cebba4412df83996f8");
  EXPECT_EQ(to_hex(e->k.span()), "27c2d11d89e879b977774c62fd9d9683a8abd95ac4d7f0142d882fbb1cd69089");
  auto k = sk->decaps(e->c);
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(to_hex(k->span()), "27c2d11d89e879b977774c62fd9d9683a8abd95ac4d7f0142d882fbb1cd69089");
  // The intermediate values listed in the document.
  const byte_span P = pk, C = e->c;
  EXPECT_EQ(to_hex(hash::sha3_256(P.first(1184))), "a24e16d8f8f9383a95b77050f4d9fd2f5733eec1d63ef3c23ebf9918173669a7");
  EXPECT_EQ(to_hex(P.subspan(1184)), "79a631eede1bf9c98f12032cdeadd0e7a079398fc786b88cc846ec89af85a51a");
  EXPECT_EQ(to_hex(hash::sha3_256(C.first(1088))), "9bed0ad66e8ef6e22b32147cf7dbd7bdff3cb6fb932ce0d86aee675e4e2359ae");
  EXPECT_EQ(to_hex(C.subspan(1088)), "493e82fc74464a59268817623d2053c5eb8e2cc4a988b4fee179ec6b010d531d");
  auto mk = mlkem::keygen_from_seed(mlkem::ParameterSet::ml_kem_768, byte_span(seed).first(64));
  ASSERT_TRUE(mk.ok());
  auto ss_m = mlkem::decaps(mlkem::ParameterSet::ml_kem_768, mk->dk.span(), C.first(1088));
  ASSERT_TRUE(ss_m.ok());
  EXPECT_EQ(to_hex(ss_m->span()), "df667d91b9f200d40195490c960b6b66f14b90853e187ab64d66a4fab18b112e");
  std::uint8_t ss_x[32];
  ASSERT_TRUE(classical::x25519::dh(seed.data() + 64, C.data() + 1088, ss_x).ok());
  EXPECT_EQ(to_hex(byte_span(ss_x, 32)), "dcd77236231add34de0561c47859a65d304f2a8550e8df98df053cf5dfabea0b");
}

TEST(SettlementKem, CombinerGoldenVector) {
  // Small, fully specified inputs (docs/settlement-kem.md, "Combiner test vector").
  auto k = kem::settlement_combine(seq(32, 0x00), seq(32, 0x20), seq(4, 0x40), seq(2, 0x50), seq(3, 0x60),
                                   seq(1, 0x70));
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(to_hex(k->span()), "72e5443c305ba1d02f190662ac810e6c4535d43bbcd69723ffb8387a5b705769");
  // The same, written out with HKDF directly from the documented layout.
  bytes salt = {0, 0, 0, 25};
  const std::string sid = "ml-kem-768+x25519-hkdf@v1";
  salt.insert(salt.end(), sid.begin(), sid.end());
  bytes ikm = {0, 0, 0, 32};
  auto a = seq(32, 0x00), b = seq(32, 0x20);
  ikm.insert(ikm.end(), a.begin(), a.end());
  ikm.insert(ikm.end(), {0, 0, 0, 32});
  ikm.insert(ikm.end(), b.begin(), b.end());
  bytes info = salt;
  for (auto [n, start] : {std::pair{4, 0x40}, {2, 0x50}, {3, 0x60}, {1, 0x70}}) {
    info.insert(info.end(), {0, 0, 0, static_cast<std::uint8_t>(n)});
    auto s = seq(static_cast<std::size_t>(n), static_cast<std::uint8_t>(start));
    info.insert(info.end(), s.begin(), s.end());
  }
  std::uint8_t prk[32];
  ASSERT_TRUE(classical::hkdf::extract_sha256(salt, ikm, prk).ok());
  bytes okm(32);
  ASSERT_TRUE(classical::hkdf::expand_sha256(prk, info, okm).ok());
  EXPECT_EQ(okm, to_vec(*k));
}

TEST(SettlementKem, EverySubstitutionChangesTheKey) {
  // Two independent key pairs and two encapsulations; swap one component at a time.
  auto sk1 = kem::HybridPrivateKey::from_seed(Hybrid::mlkem768_x25519_hkdf, seq(96, 1));
  auto sk2 = kem::HybridPrivateKey::from_seed(Hybrid::mlkem768_x25519_hkdf, seq(96, 101));
  ASSERT_TRUE(sk1.ok() && sk2.ok());
  const bytes pk1(sk1->public_key().begin(), sk1->public_key().end());
  const bytes pk2(sk2->public_key().begin(), sk2->public_key().end());
  auto e1 = kem::encaps_derand(Hybrid::mlkem768_x25519_hkdf, pk1, seq(64, 7));
  auto e1b = kem::encaps_derand(Hybrid::mlkem768_x25519_hkdf, pk1, seq(64, 77));
  ASSERT_TRUE(e1.ok() && e1b.ok());
  const bytes k1 = to_vec(e1->k);
  auto dk1 = sk1->decaps(e1->c);
  ASSERT_TRUE(dk1.ok());
  ASSERT_EQ(to_vec(*dk1), k1);

  auto splice = [](const bytes& a, const bytes& b, std::size_t from, std::size_t to) {
    bytes r = a;
    std::copy(b.begin() + static_cast<std::ptrdiff_t>(from), b.begin() + static_cast<std::ptrdiff_t>(to),
              r.begin() + static_cast<std::ptrdiff_t>(from));
    return r;
  };
  // Substitute the ML-KEM ciphertext, then the X25519 ciphertext (ephemeral public key).
  for (auto [from, to] : {std::pair<std::size_t, std::size_t>{0, 1088}, {1088, 1120}}) {
    const bytes ct = splice(e1->c, e1b->c, from, to);
    auto k = sk1->decaps(ct);
    ASSERT_TRUE(k.ok());
    EXPECT_NE(to_vec(*k), k1) << "ciphertext half [" << from << "," << to << ") not bound";
  }
  // Substitute the ML-KEM public key, then the X25519 public key, in the combiner inputs:
  // the secrets and ciphertexts stay, only the bound public key changes.
  const byte_span c = e1->c;
  // Recover the component secrets through the public component APIs.
  auto ss_m = mlkem::decaps(mlkem::ParameterSet::ml_kem_768,
                            to_vec(mlkem::keygen_from_seed(mlkem::ParameterSet::ml_kem_768, seq(64, 1))->dk),
                            c.first(1088));
  ASSERT_TRUE(ss_m.ok());
  const bytes sx = seq(96, 1);
  std::uint8_t ss_x[32];
  ASSERT_TRUE(classical::x25519::dh(sx.data() + 64, c.data() + 1088, ss_x).ok());
  auto base = kem::settlement_combine(ss_m->span(), byte_span(ss_x, 32), c.first(1088), c.subspan(1088),
                                      byte_span(pk1).first(1184), byte_span(pk1).subspan(1184));
  ASSERT_TRUE(base.ok());
  EXPECT_EQ(to_vec(*base), k1);
  auto sub_ek = kem::settlement_combine(ss_m->span(), byte_span(ss_x, 32), c.first(1088), c.subspan(1088),
                                        byte_span(pk2).first(1184), byte_span(pk1).subspan(1184));
  auto sub_pkx = kem::settlement_combine(ss_m->span(), byte_span(ss_x, 32), c.first(1088), c.subspan(1088),
                                         byte_span(pk1).first(1184), byte_span(pk2).subspan(1184));
  ASSERT_TRUE(sub_ek.ok() && sub_pkx.ok());
  EXPECT_NE(to_vec(*sub_ek), k1);
  EXPECT_NE(to_vec(*sub_pkx), k1);
  EXPECT_NE(to_vec(*sub_ek), to_vec(*sub_pkx));
  // Swapping the two shared secrets, or the two ciphertext fields, changes the key too.
  auto swapped = kem::settlement_combine(byte_span(ss_x, 32), ss_m->span(), c.first(1088), c.subspan(1088),
                                         byte_span(pk1).first(1184), byte_span(pk1).subspan(1184));
  ASSERT_TRUE(swapped.ok());
  EXPECT_NE(to_vec(*swapped), k1);
  // Whole-key substitution: decapsulating with the other key pair never yields k1.
  auto k2 = sk2->decaps(e1->c);
  ASSERT_TRUE(k2.ok());
  EXPECT_NE(to_vec(*k2), k1);
}

// ---------------------------------------------------------------- malformed inputs
TEST(HybridMalformed, LengthsOffByOne) {
  for (Hybrid h : {Hybrid::x_wing, Hybrid::x25519_mlkem768, Hybrid::mlkem768_x25519_hkdf}) {
    SCOPED_TRACE(std::string(kem::id(h)));
    const auto& S = kem::sizes(h);
    auto sk = kem::HybridPrivateKey::from_seed(h, seq(S.seed, 5));
    ASSERT_TRUE(sk.ok());
    const bytes pk(sk->public_key().begin(), sk->public_key().end());
    auto e = kem::encaps_derand(h, pk, seq(64, 1));
    ASSERT_TRUE(e.ok());
    for (int d : {-1, 1}) {
      auto resized = [&](bytes b, std::size_t n) {
        b.resize(n, 0);
        return b;
      };
      EXPECT_EQ(kem::HybridPrivateKey::from_seed(h, seq(S.seed + d, 5)).error().code, Errc::invalid_length);
      EXPECT_EQ(kem::encaps_derand(h, resized(pk, S.pk + d), seq(64, 1)).error().code, Errc::invalid_length);
      EXPECT_EQ(kem::encaps_derand(h, pk, seq(S.eseed + d, 1)).error().code, Errc::invalid_length);
      EXPECT_EQ(kem::encaps(h, resized(pk, S.pk + d)).error().code, Errc::invalid_length);
      EXPECT_EQ(sk->decaps(resized(e->c, S.ct + d)).error().code, Errc::invalid_length);
    }
    // ML-KEM part of pk with a coefficient = 4095 → modulus check.
    bytes bad = pk;
    bad[0] = 0xFF;
    bad[1] |= 0x0F;
    EXPECT_EQ(kem::encaps_derand(h, bad, seq(64, 1)).error().code, Errc::key_check_failed);
    EXPECT_EQ(kem::check_public_key(h, bad).error().code, Errc::key_check_failed);
  }
}

// ---------------------------------------------------------------- suite API, every KEM row
TEST(KemSuites, RoundTripThroughSuiteApi) {
  int n = 0;
  for (const auto& s : all_suites()) {
    if (s.cls != SuiteClass::kem) continue;
    SCOPED_TRACE(std::string(s.id));
    auto sk = KemPrivateKey::generate(s);
    ASSERT_TRUE(sk.ok()) << sk.error().what();
    EXPECT_EQ(sk->public_key().size(), s.public_key_size);
    EXPECT_EQ(sk->private_key().size(), s.private_key_size);
    auto pk = KemPublicKey::from_public(s, sk->public_key());
    ASSERT_TRUE(pk.ok());
    auto e = pk->encaps();
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(e->ciphertext.size(), s.output_size);
    EXPECT_EQ(e->shared_secret.size(), s.shared_secret_size);
    auto k = sk->decaps(e->ciphertext);
    ASSERT_TRUE(k.ok());
    EXPECT_EQ(to_vec(*k), to_vec(e->shared_secret));
    // Re-import from the canonical private key gives the same public key.
    auto sk2 = KemPrivateKey::from_private(s, sk->private_key());
    ASSERT_TRUE(sk2.ok());
    EXPECT_TRUE(std::equal(sk2->public_key().begin(), sk2->public_key().end(), sk->public_key().begin(),
                           sk->public_key().end()));
    // Deterministic encapsulation is deterministic.
    const std::size_t eseed_len = s.family == "ml-kem" ? 32 : 64;
    auto d1 = pk->encaps_derand(seq(eseed_len, 9));
    auto d2 = pk->encaps_derand(seq(eseed_len, 9));
    ASSERT_TRUE(d1.ok() && d2.ok());
    EXPECT_EQ(d1->ciphertext, d2->ciphertext);
    // Wrong lengths are typed errors.
    EXPECT_EQ(KemPublicKey::from_public(s, byte_span(sk->public_key()).first(s.public_key_size - 1)).error().code,
              Errc::invalid_length);
    EXPECT_EQ(KemPrivateKey::from_private(s, seq(s.private_key_size + 1, 0)).error().code, Errc::invalid_length);
    EXPECT_EQ(sk->decaps(bytes(s.output_size - 1, 0)).error().code, Errc::invalid_length);
    ++n;
  }
  EXPECT_EQ(n, 6);
}

TEST(KemSuites, MlKemExpandedPrivateKeyImports) {
  for (const char* id : {"ml-kem-512", "ml-kem-768", "ml-kem-1024"}) {
    SCOPED_TRACE(id);
    auto s = find_suite(id);
    ASSERT_TRUE(s.ok());
    auto ps = std::string(id) == "ml-kem-512"   ? mlkem::ParameterSet::ml_kem_512
              : std::string(id) == "ml-kem-768" ? mlkem::ParameterSet::ml_kem_768
                                                : mlkem::ParameterSet::ml_kem_1024;
    auto kp = mlkem::keygen_from_seed(ps, seq(64, 11));
    ASSERT_TRUE(kp.ok());
    auto sk = KemPrivateKey::from_private(**s, kp->dk.span());
    ASSERT_TRUE(sk.ok());
    EXPECT_EQ(bytes(sk->public_key().begin(), sk->public_key().end()), kp->ek);
    bytes bad = to_vec(kp->dk);
    bad[bad.size() - 40] ^= 1;  // inside H(ek)
    EXPECT_EQ(KemPrivateKey::from_private(**s, bad).error().code, Errc::key_check_failed);
  }
}

// The registry's typed handle of each hybrid (SuiteParams::hybrid) names the kem:: construction
// whose id and sizes the row carries.
TEST(KemSuites, HybridRowsCarryTheirConstruction) {
  int hybrids = 0;
  for (const SuiteInfo& s : all_suites()) {
    if (s.family != Family::hybrid_kem) continue;
    ++hybrids;
    EXPECT_EQ(kem::id(s.params.hybrid), s.id);
    const auto& z = kem::sizes(s.params.hybrid);
    EXPECT_EQ(z.pk, s.public_key_size) << s.id;
    EXPECT_EQ(z.seed, s.private_key_size) << s.id;
    EXPECT_EQ(z.ct, s.output_size) << s.id;
    EXPECT_EQ(z.ss, s.shared_secret_size) << s.id;
  }
  EXPECT_EQ(hybrids, 3);
}
