// SLH-DSA (FIPS 205): NIST ACVP vectors (keyGen all 12 sets; sigGen / sigVer internal
// interface), external-interface round trips, tampering, wrong lengths, suite API.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>

#include "pqsig/slhdsa.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;
using namespace pqsig::slhdsa;
using json = nlohmann::json;

namespace {

json load_acvp(const char* file) {
  std::string path = std::string(PQSIG_SHARED_DIR) + "/vectors/acvp/" + file;
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open " + path);
  return json::parse(f);
}

bytes hx(const json& v) {
  auto r = from_hex(v.get<std::string>());
  if (!r) throw std::runtime_error("bad hex in vector");
  return std::move(r.value());
}

ParamSet ps(const json& group) {
  auto r = find_param_set(group.at("parameterSet").get<std::string>());
  if (!r) throw std::runtime_error("unknown parameter set");
  return r.value();
}

bytes seq(std::size_t n, std::uint8_t start = 0) {
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(start + i);
  return b;
}

KeyPair det_keypair(ParamSet p, std::uint8_t tag = 1) {
  const std::size_t n = param_info(p).n;
  auto kp = slh_keygen_internal(p, seq(n, tag), seq(n, std::uint8_t(tag + 100)), seq(n, std::uint8_t(tag + 200)));
  EXPECT_TRUE(kp.ok());
  return std::move(kp.value());
}

}  // namespace

// ---------------------------------------------------------------- parameter table
TEST(SlhDsaParams, Table2SizesAndRegistry) {
  ASSERT_EQ(all_param_sets().size(), 12u);
  for (const ParamInfo& pi : all_param_sets()) {
    EXPECT_EQ(pi.pk_bytes, 2 * pi.n);
    EXPECT_EQ(pi.sk_bytes, 4 * pi.n);
    const std::size_t len = 2 * pi.n + 3;
    EXPECT_EQ(pi.sig_bytes, (1 + pi.k * (1 + pi.a) + pi.h + pi.d * len) * pi.n) << pi.name;
    auto s = find_suite(pi.suite_id);
    ASSERT_TRUE(s.ok()) << pi.suite_id;
    EXPECT_EQ(s.value()->public_key_size, pi.pk_bytes);
    EXPECT_EQ(s.value()->private_key_size, pi.sk_bytes);
    EXPECT_EQ(s.value()->output_size, pi.sig_bytes);
    EXPECT_EQ(s.value()->jose_alg, pi.name);
    auto f = find_param_set(pi.suite_id);
    ASSERT_TRUE(f.ok());
    EXPECT_EQ(f.value(), pi.id);
  }
  EXPECT_FALSE(find_param_set("SLH-DSA-SHA2-128x").ok());
  EXPECT_EQ(find_param_set("nope").error().code, Errc::unknown_suite);
}

// ---------------------------------------------------------------- ACVP
TEST(SlhDsaAcvp, KeyGenAll12Sets) {
  json j = load_acvp("slh-dsa-keyGen.json");
  int count = 0;
  std::set<std::string> sets;
  for (const auto& g : j.at("testGroups")) {
    ParamSet p = ps(g);
    sets.insert(g.at("parameterSet").get<std::string>());
    for (const auto& t : g.at("tests")) {
      auto kp = slh_keygen_internal(p, hx(t.at("skSeed")), hx(t.at("skPrf")), hx(t.at("pkSeed")));
      ASSERT_TRUE(kp.ok()) << kp.error().what();
      EXPECT_EQ(to_hex(kp->pk, true), t.at("pk").get<std::string>()) << "tcId " << t.at("tcId");
      EXPECT_EQ(to_hex(kp->sk.span(), true), t.at("sk").get<std::string>()) << "tcId " << t.at("tcId");
      ++count;
    }
  }
  EXPECT_EQ(count, 120);
  EXPECT_EQ(sets.size(), 12u);
}

TEST(SlhDsaAcvp, SigGenInternal) {
  json j = load_acvp("slh-dsa-sigGen.json");
  int count = 0;
  for (const auto& g : j.at("testGroups")) {
    ParamSet p = ps(g);
    const bool det = g.at("deterministic").get<bool>();
    for (const auto& t : g.at("tests")) {
      bytes sk = hx(t.at("sk"));
      bytes msg = hx(t.at("message"));
      ASSERT_EQ(msg.size() * 8, t.at("messageLength").get<std::size_t>());
      bytes rnd;
      OptRand r = OptRand::deterministic();
      if (!det) {
        rnd = hx(t.at("additionalRandomness"));
        r = OptRand::given(rnd);
      }
      auto sig = slh_sign_internal(p, msg, sk, r);
      ASSERT_TRUE(sig.ok()) << sig.error().what();
      EXPECT_EQ(to_hex(*sig, true), t.at("signature").get<std::string>())
          << g.at("parameterSet") << " tcId " << t.at("tcId");
      // And it verifies under the public key held in SK.
      const std::size_t n = param_info(p).n;
      bytes pk(sk.begin() + 2 * n, sk.end());
      EXPECT_TRUE(slh_verify_internal(p, msg, *sig, pk).ok());
      ++count;
    }
  }
  EXPECT_EQ(count, 20);
}

TEST(SlhDsaAcvp, SigVerInternal) {
  json j = load_acvp("slh-dsa-sigVer.json");
  int count = 0, passed = 0;
  for (const auto& g : j.at("testGroups")) {
    ParamSet p = ps(g);
    for (const auto& t : g.at("tests")) {
      bytes msg = hx(t.at("message"));
      Status s = slh_verify_internal(p, msg, hx(t.at("signature")), hx(t.at("pk")));
      const bool expect = t.at("testPassed").get<bool>();
      EXPECT_EQ(s.ok(), expect) << g.at("parameterSet") << " tcId " << t.at("tcId");
      if (!s.ok()) {
        EXPECT_TRUE(s.error().code == Errc::verify_failed || s.error().code == Errc::invalid_length);
      }
      passed += expect;
      ++count;
    }
  }
  EXPECT_EQ(count, 36);
  EXPECT_EQ(passed, 12);
}

// ---------------------------------------------------------------- external interface
class SlhDsaFast : public ::testing::TestWithParam<ParamSet> {};

TEST_P(SlhDsaFast, PureAndPreHashRoundTrip) {
  const ParamSet p = GetParam();
  KeyPair kp = det_keypair(p);
  const bytes msg = seq(100, 7);
  const bytes ctx = seq(17, 3);
  auto sig = slh_sign(p, msg, ctx, kp.sk.span());
  ASSERT_TRUE(sig.ok());
  EXPECT_EQ(sig->size(), param_info(p).sig_bytes);
  EXPECT_TRUE(slh_verify(p, msg, *sig, ctx, kp.pk).ok());
  EXPECT_EQ(slh_verify(p, msg, *sig, {}, kp.pk).error().code, Errc::verify_failed);
  // Pure M' is not the internal M.
  EXPECT_FALSE(slh_verify_internal(p, msg, *sig, kp.pk).ok());

  auto hsig = hash_slh_sign(p, msg, ctx, hash::PreHash::sha2_512, kp.sk.span(), OptRand::deterministic());
  ASSERT_TRUE(hsig.ok());
  EXPECT_TRUE(hash_slh_verify(p, msg, *hsig, ctx, hash::PreHash::sha2_512, kp.pk).ok());
  EXPECT_FALSE(hash_slh_verify(p, msg, *hsig, ctx, hash::PreHash::sha3_512, kp.pk).ok());
  EXPECT_FALSE(slh_verify(p, msg, *hsig, ctx, kp.pk).ok());
}

TEST_P(SlhDsaFast, DeterministicAndRandomized) {
  const ParamSet p = GetParam();
  KeyPair kp = det_keypair(p, 9);
  const std::string_view text = "deterministic?";
  const bytes msg(text.begin(), text.end());
  auto d1 = slh_sign(p, msg, {}, kp.sk.span(), OptRand::deterministic());
  auto d2 = slh_sign(p, msg, {}, kp.sk.span(), OptRand::deterministic());
  const std::size_t n = param_info(p).n;
  bytes pk_seed(kp.pk.begin(), kp.pk.begin() + static_cast<long>(n));
  auto d3 = slh_sign(p, msg, {}, kp.sk.span(), OptRand::given(pk_seed));
  auto r1 = slh_sign(p, msg, {}, kp.sk.span());
  auto r2 = slh_sign(p, msg, {}, kp.sk.span());
  ASSERT_TRUE(d1.ok() && d2.ok() && d3.ok() && r1.ok() && r2.ok());
  EXPECT_EQ(*d1, *d2);
  EXPECT_EQ(*d1, *d3);
  EXPECT_NE(*r1, *r2);
  EXPECT_NE(*r1, *d1);
  EXPECT_TRUE(slh_verify(p, msg, *r1, {}, kp.pk).ok());
  EXPECT_TRUE(slh_verify(p, msg, *r2, {}, kp.pk).ok());
}

INSTANTIATE_TEST_SUITE_P(FastSets, SlhDsaFast,
                         ::testing::Values(ParamSet::sha2_128f, ParamSet::shake_128f, ParamSet::sha2_192f,
                                           ParamSet::shake_192f, ParamSet::sha2_256f, ParamSet::shake_256f),
                         [](const auto& tp) {
                           std::string s(param_info(tp.param).suite_id);
                           for (char& c : s)
                             if (c == '-') c = '_';
                           return s;
                         });

TEST(SlhDsa, AllPreHashFunctions) {
  const ParamSet p = ParamSet::sha2_128f;
  KeyPair kp = det_keypair(p, 5);
  const bytes msg = seq(64);
  for (hash::PreHash ph : {hash::PreHash::sha2_224, hash::PreHash::sha2_256, hash::PreHash::sha2_384,
                           hash::PreHash::sha2_512, hash::PreHash::sha2_512_224, hash::PreHash::sha2_512_256,
                           hash::PreHash::sha3_224, hash::PreHash::sha3_256, hash::PreHash::sha3_384,
                           hash::PreHash::sha3_512, hash::PreHash::shake_128, hash::PreHash::shake_256}) {
    auto sig = hash_slh_sign(p, msg, as_bytes("ctx"), ph, kp.sk.span());
    ASSERT_TRUE(sig.ok());
    EXPECT_TRUE(hash_slh_verify(p, msg, *sig, as_bytes("ctx"), ph, kp.pk).ok()) << hash::prehash_info(ph).acvp_name;
  }
}

// ---------------------------------------------------------------- tampering
namespace {
void tamper_suite(ParamSet p) {
  KeyPair kp = det_keypair(p, 3);
  const bytes msg = seq(40, 11);
  const bytes ctx = seq(5, 200);
  auto sig_r = slh_sign(p, msg, ctx, kp.sk.span(), OptRand::deterministic());
  ASSERT_TRUE(sig_r.ok());
  const bytes sig = *sig_r;
  ASSERT_TRUE(slh_verify(p, msg, sig, ctx, kp.pk).ok());
  const ParamInfo& pi = param_info(p);

  // Signature: every byte of R, the first and last byte of each FORS tree and of each
  // hypertree layer, plus random positions.
  std::vector<std::size_t> pos;
  for (std::size_t i = 0; i < pi.n; ++i) pos.push_back(i);
  const std::size_t fors_tree = (1 + pi.a) * pi.n;
  for (std::size_t t = 0; t < pi.k; ++t) {
    pos.push_back(pi.n + t * fors_tree);
    pos.push_back(pi.n + (t + 1) * fors_tree - 1);
  }
  const std::size_t ht0 = pi.n + pi.k * fors_tree;
  const std::size_t xmss = (pi.h / pi.d + 2 * pi.n + 3) * pi.n;
  for (std::size_t l = 0; l < pi.d; ++l) {
    pos.push_back(ht0 + l * xmss);
    pos.push_back(ht0 + (l + 1) * xmss - 1);
  }
  std::mt19937 rng(42);
  for (int i = 0; i < 40; ++i) pos.push_back(rng() % sig.size());
  for (std::size_t at : pos) {
    bytes bad = sig;
    bad[at] ^= static_cast<std::uint8_t>(1u << (at % 8));
    Status s = slh_verify(p, msg, bad, ctx, kp.pk);
    EXPECT_FALSE(s.ok()) << pi.name << " sig byte " << at;
    if (!s.ok()) {
      EXPECT_EQ(s.error().code, Errc::verify_failed);
    }
  }
  for (std::size_t at = 0; at < msg.size(); at += 3) {
    bytes bad = msg;
    bad[at] ^= 0x80;
    EXPECT_FALSE(slh_verify(p, bad, sig, ctx, kp.pk).ok()) << "msg byte " << at;
  }
  for (std::size_t at = 0; at < ctx.size(); ++at) {
    bytes bad = ctx;
    bad[at] ^= 0x01;
    EXPECT_FALSE(slh_verify(p, msg, sig, bad, kp.pk).ok()) << "ctx byte " << at;
  }
  for (std::size_t at = 0; at < kp.pk.size(); ++at) {
    bytes bad = kp.pk;
    bad[at] ^= 0x10;
    EXPECT_FALSE(slh_verify(p, msg, sig, ctx, bad).ok()) << "pk byte " << at;
  }
  // Appended / truncated message, shorter / longer context.
  bytes longer = msg;
  longer.push_back(0);
  EXPECT_FALSE(slh_verify(p, longer, sig, ctx, kp.pk).ok());
  EXPECT_FALSE(slh_verify(p, byte_span(msg).first(msg.size() - 1), sig, ctx, kp.pk).ok());
  EXPECT_FALSE(slh_verify(p, msg, sig, byte_span(ctx).first(4), kp.pk).ok());
}
}  // namespace

TEST(SlhDsaTamper, Sha2_128f) { tamper_suite(ParamSet::sha2_128f); }
TEST(SlhDsaTamper, Shake_128f) { tamper_suite(ParamSet::shake_128f); }
TEST(SlhDsaTamper, Sha2_192f) { tamper_suite(ParamSet::sha2_192f); }
TEST(SlhDsaTamper, Shake_256f) { tamper_suite(ParamSet::shake_256f); }

// ---------------------------------------------------------------- lengths and errors
TEST(SlhDsaErrors, WrongLengths) {
  const ParamSet p = ParamSet::sha2_128f;
  const ParamInfo& pi = param_info(p);
  KeyPair kp = det_keypair(p);
  const bytes msg = seq(10);
  auto sig = slh_sign(p, msg, {}, kp.sk.span(), OptRand::deterministic());
  ASSERT_TRUE(sig.ok());

  EXPECT_EQ(slh_keygen_internal(p, seq(15), seq(16), seq(16)).error().code, Errc::invalid_length);
  EXPECT_EQ(slh_keygen_internal(p, seq(16), seq(17), seq(16)).error().code, Errc::invalid_length);
  EXPECT_EQ(slh_keygen_internal(p, seq(16), seq(16), seq(0)).error().code, Errc::invalid_length);

  bytes sk(kp.sk.span().begin(), kp.sk.span().end());
  for (std::size_t len : {std::size_t{0}, pi.sk_bytes - 1, pi.sk_bytes + 1, std::size_t{96}}) {
    bytes bad(sk.begin(), sk.begin() + static_cast<long>(std::min(len, sk.size())));
    bad.resize(len);
    EXPECT_EQ(slh_sign(p, msg, {}, bad).error().code, Errc::invalid_length) << len;
    EXPECT_EQ(slh_sign_internal(p, msg, bad).error().code, Errc::invalid_length) << len;
    EXPECT_EQ(hash_slh_sign(p, msg, {}, hash::PreHash::sha2_256, bad).error().code, Errc::invalid_length);
  }
  for (std::size_t len : {std::size_t{0}, pi.pk_bytes - 1, pi.pk_bytes + 1}) {
    bytes bad = kp.pk;
    bad.resize(len);
    EXPECT_EQ(slh_verify(p, msg, *sig, {}, bad).error().code, Errc::invalid_length) << len;
  }
  for (std::size_t len : {std::size_t{0}, pi.sig_bytes - 1, pi.sig_bytes + 1, std::size_t{7856}}) {
    bytes bad = *sig;
    bad.resize(len);
    EXPECT_EQ(slh_verify(p, msg, bad, {}, kp.pk).error().code, Errc::invalid_length) << len;
    EXPECT_EQ(slh_verify_internal(p, msg, bad, kp.pk).error().code, Errc::invalid_length) << len;
  }
  const bytes ctx256(256, 1), ctx255(255, 1);
  EXPECT_EQ(slh_sign(p, msg, ctx256, sk).error().code, Errc::invalid_context);
  EXPECT_EQ(hash_slh_sign(p, msg, ctx256, hash::PreHash::sha2_256, sk).error().code, Errc::invalid_context);
  EXPECT_EQ(slh_verify(p, msg, *sig, ctx256, kp.pk).error().code, Errc::invalid_context);
  auto s255 = slh_sign(p, msg, ctx255, sk);
  ASSERT_TRUE(s255.ok());
  EXPECT_TRUE(slh_verify(p, msg, *s255, ctx255, kp.pk).ok());

  EXPECT_EQ(slh_sign(p, msg, {}, sk, OptRand::given(seq(15))).error().code, Errc::invalid_length);
  EXPECT_EQ(slh_sign_internal(p, msg, sk, OptRand::given(seq(32))).error().code, Errc::invalid_length);
}

TEST(SlhDsa, KeyGenRandomAndSkLayout) {
  auto kp = slh_keygen(ParamSet::shake_128f);
  ASSERT_TRUE(kp.ok());
  ASSERT_EQ(kp->sk.size(), 64u);
  // SK = SK.seed || SK.prf || PK.seed || PK.root, PK = PK.seed || PK.root; keygen is reproducible.
  byte_span sk = kp->sk.span();
  EXPECT_EQ(bytes(sk.begin() + 32, sk.end()), kp->pk);
  auto again = slh_keygen_internal(ParamSet::shake_128f, sk.subspan(0, 16), sk.subspan(16, 16), sk.subspan(32, 16));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->pk, kp->pk);
  auto kp2 = slh_keygen(ParamSet::shake_128f);
  ASSERT_TRUE(kp2.ok());
  EXPECT_NE(kp2->pk, kp->pk);
}

// ---------------------------------------------------------------- suite API
TEST(SlhDsaSuite, SignVerifyThroughRegistry) {
  for (const char* id : {"slh-dsa-sha2-128f", "slh-dsa-shake-128f"}) {
    auto suite = find_suite(id);
    ASSERT_TRUE(suite.ok());
    auto key = SigningKey::generate(*suite.value());
    ASSERT_TRUE(key.ok()) << key.error().what();
    EXPECT_EQ(key->private_key().size(), suite.value()->private_key_size);
    auto vk = VerifyingKey::from_public(*suite.value(), key->public_key());
    ASSERT_TRUE(vk.ok());
    const bytes msg = seq(33);
    SignOptions opt;
    const bytes ctx = seq(4);
    opt.ctx = ctx;
    auto sig = key->sign(msg, opt);
    ASSERT_TRUE(sig.ok());
    EXPECT_TRUE(vk->verify(msg, *sig, opt).ok());
    EXPECT_EQ(vk->verify(msg, *sig, {}).error().code, Errc::verify_failed);

    SignOptions det;
    det.deterministic = true;
    det.prehash = hash::PreHash::shake_256;
    auto s1 = key->sign(msg, det);
    auto s2 = key->sign(msg, det);
    ASSERT_TRUE(s1.ok() && s2.ok());
    EXPECT_EQ(*s1, *s2);
    EXPECT_TRUE(vk->verify(msg, *s1, det).ok());
    EXPECT_FALSE(vk->verify(msg, *s1, {}).ok());

    // Same bytes through from_private and from_expanded.
    auto k2 = SigningKey::from_private(*suite.value(), key->private_key());
    auto k3 = SigningKey::from_expanded(*suite.value(), key->private_key());
    ASSERT_TRUE(k2.ok() && k3.ok());
    EXPECT_EQ(bytes(k2->public_key().begin(), k2->public_key().end()),
              bytes(key->public_key().begin(), key->public_key().end()));
    auto s3 = k3->sign(msg, det);
    ASSERT_TRUE(s3.ok());
    EXPECT_EQ(*s3, *s1);
    auto exp = key->expanded_private_key();
    ASSERT_TRUE(exp.ok());
    EXPECT_EQ(*exp, bytes(key->private_key().begin(), key->private_key().end()));

    EXPECT_EQ(SigningKey::from_private(*suite.value(), seq(63)).error().code, Errc::invalid_length);
    EXPECT_EQ(VerifyingKey::from_public(*suite.value(), seq(31)).error().code, Errc::invalid_length);
  }
}
