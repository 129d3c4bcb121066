// LMS / HSS against published data: every NIST ACVP LMS keyGen / sigGen / sigVer test
// (../shared/vectors/acvp/lms-*.json), the liboqs LMS KATs (tests/KATs/sig_stfl/lms/ of the liboqs
// release in ../shared/thirdparty, extracted to a temp dir; two of them are RFC 8554 Appendix F
// test cases 1 and 2), plus round trips for every parameter set and tampering.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>

#include "lms/lms_internal.hpp"
#include "support/liboqs_kats.hpp"
#include "pqsig/lms.hpp"

using namespace pqsig;
namespace fs = std::filesystem;

namespace {

bytes hex(const std::string& s) {
  auto r = from_hex(s);
  EXPECT_TRUE(r.ok()) << s.substr(0, 40);
  return r.ok() ? *r : bytes{};
}

nlohmann::json load_acvp(const char* name) {
  const std::string p = std::string(PQSIG_SHARED_DIR) + "/vectors/acvp/" + name;
  std::ifstream f(p);
  if (!f) ADD_FAILURE() << "missing " << p;
  return nlohmann::json::parse(f);
}

lms::Level level_of(const nlohmann::json& g) {
  lms::Level lv{lms::find_lms(g.at("lmsMode").get<std::string>()), lms::find_lmots(g.at("lmOtsMode").get<std::string>())};
  EXPECT_NE(lv.lms, nullptr);
  EXPECT_NE(lv.ots, nullptr);
  return lv;
}

}  // namespace

TEST(LmsParams, TableValuesAndLookups) {
  EXPECT_EQ(lms::all_lmots().size(), 16u);
  EXPECT_EQ(lms::all_lms().size(), 20u);
  const auto* w8 = lms::find_lmots("LMOTS_SHA256_N32_W8");
  ASSERT_NE(w8, nullptr);
  EXPECT_EQ(w8->type, 4u);
  EXPECT_EQ(w8->p, 34u);
  const auto* sh = lms::find_lmots(0x10);
  ASSERT_NE(sh, nullptr);
  EXPECT_EQ(sh->name, "LMOTS_SHAKE_N24_W8");
  EXPECT_EQ(lms::find_lms(0x18)->name, "LMS_SHAKE_M24_H25");
  EXPECT_EQ(lms::find_lms(0x19), nullptr);
  EXPECT_EQ(lms::find_lmots(0), nullptr);
  // RFC 8554 Appendix F test case 2's top level: H10/W4 → signature 4 + 1124... sizes of §5.4.
  auto lv = lms::parse_levels("lms-sha256-m32-h10-w4");
  ASSERT_TRUE(lv.ok());
  EXPECT_EQ(lms::lms_signature_bytes(lv->front()), 4 + (4 + 32 * 68) + 4 + 10 * 32u);
  EXPECT_EQ(lms::levels_name(*lv), "lms-sha256-m32-h10-w4");
  auto l2 = lms::parse_levels("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8");
  ASSERT_TRUE(l2.ok());
  EXPECT_EQ(lms::levels_name(*l2), "hss-sha256-m32-h10-w4-h5-w8");
  EXPECT_FALSE(lms::parse_levels("LMS_SHA256_M32_H10/LMOTS_SHA256_N24_W4").ok());  // mixed n
  EXPECT_FALSE(lms::parse_levels("lms-sha256-m32-h11-w4").ok());
  EXPECT_FALSE(lms::parse_levels("hss-shake-m24-h5-w1-h5-w1-h5-w1-h5-w1-h5-w1-h5-w1-h5-w1-h5-w1-h5-w1").ok());
}

// RFC 8554 §3.1.3 coef and §4.4 Cksm on hand-checked values.
TEST(LmsParams, CoefAndChecksum) {
  const std::uint8_t S[2] = {0x12, 0x34};
  EXPECT_EQ(lms::detail::coef(S, 7, 1), 0u);
  EXPECT_EQ(lms::detail::coef(S, 3, 1), 1u);
  EXPECT_EQ(lms::detail::coef(S, 0, 4), 1u);
  EXPECT_EQ(lms::detail::coef(S, 1, 4), 2u);
  EXPECT_EQ(lms::detail::coef(S, 2, 4), 3u);
  EXPECT_EQ(lms::detail::coef(S, 1, 8), 0x34u);
  EXPECT_EQ(lms::detail::coef(S, 1, 2), 1u);
  EXPECT_EQ(lms::detail::coef(S, 3, 2), 2u);
  std::uint8_t zero[32] = {};
  // All-zero Q, w = 8, n = 32: 32 digits of 255 → 8160, ls = 0.
  EXPECT_EQ(lms::detail::cksm(*lms::find_lmots(4), zero), 8160u);
  // w = 1: 256 digits of 1 → 256 << 7.
  EXPECT_EQ(lms::detail::cksm(*lms::find_lmots(1), zero), 256u << 7);
}

TEST(LmsAcvp, KeyGen) {
  auto j = load_acvp("lms-keyGen.json");
  int n = 0;
  for (const auto& g : j["testGroups"]) {
    const auto lv = level_of(g);
    for (const auto& t : g["tests"]) {
      auto pk = lms::lms_public_key_from_seed(lv, hex(t["i"]), hex(t["seed"]));
      ASSERT_TRUE(pk.ok()) << pk.error().what();
      EXPECT_EQ(to_hex(*pk, true), t["publicKey"].get<std::string>()) << "tcId " << t["tcId"];
      ++n;
    }
  }
  EXPECT_EQ(n, 9);
}

TEST(LmsAcvp, SigGenSignaturesVerify) {
  // The sigGen file gives the public key and the expected signature (no private key): each
  // signature must verify, and must stop verifying for another message.
  auto j = load_acvp("lms-sigGen.json");
  int n = 0;
  for (const auto& g : j["testGroups"]) {
    const auto pk = hex(g["publicKey"]);
    for (const auto& t : g["tests"]) {
      const auto msg = hex(t["message"]);
      const auto sig = hex(t["signature"]);
      auto st = lms::lms_verify(pk, msg, sig);
      EXPECT_TRUE(st.ok()) << "tcId " << t["tcId"] << ": " << (st ? "" : st.error().what());
      bytes other = msg;
      other.push_back(0);
      EXPECT_FALSE(lms::lms_verify(pk, other, sig).ok());
      ++n;
    }
  }
  EXPECT_EQ(n, 20);
}

TEST(LmsAcvp, SigVer) {
  auto j = load_acvp("lms-sigVer.json");
  int n = 0, pass = 0;
  for (const auto& g : j["testGroups"]) {
    const auto pk = hex(g["publicKey"]);
    for (const auto& t : g["tests"]) {
      auto st = lms::lms_verify(pk, hex(t["message"]), hex(t["signature"]));
      EXPECT_EQ(st.ok(), t["testPassed"].get<bool>()) << "tcId " << t["tcId"] << " " << t["reason"];
      if (!st.ok()) {
        EXPECT_EQ(st.error().code, Errc::verify_failed) << st.error().what();
      }
      pass += t["testPassed"].get<bool>();
      ++n;
    }
  }
  EXPECT_EQ(n, 8);
  EXPECT_GT(pass, 0);
}

namespace {
// The liboqs LMS KATs, extracted once (tests/support/liboqs_kats.hpp).
std::string extract_liboqs_kats(std::string& why) { return pqsig::test_support::liboqs_kat_dir("sig_stfl/lms", why); }

std::map<std::string, std::string> read_rsp(const fs::path& p) {
  std::map<std::string, std::string> kv;
  std::ifstream f(p);
  std::string line;
  while (std::getline(f, line)) {
    const auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string v = line.substr(eq + 3);
    v.erase(std::remove(v.begin(), v.end(), '"'), v.end());  // two files quote their sm
    kv[line.substr(0, eq)] = v;
  }
  return kv;
}
}  // namespace

TEST(LmsLiboqsKat, EveryLmsKatVerifies) {
  std::string why;
  const std::string dir = extract_liboqs_kats(why);
  if (dir.empty()) GTEST_SKIP() << why;
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".rsp") continue;
    auto kv = read_rsp(e.path());
    const auto pk = hex(kv["pk"]), msg = hex(kv["msg"]), sm = hex(kv["sm"]);
    ASSERT_FALSE(pk.empty()) << e.path();
    // Most files hold an HSS key (u32 L first) and HSS signature; the two taken from ACVP sigVer
    // prompts (H5_W1, H10_W1) hold a bare LMS key (56 bytes) and LMS signature.
    const bool bare = pk.size() == 56;
    auto verify = [&](byte_span k, byte_span m, byte_span s) {
      return bare ? lms::lms_verify(k, m, s) : lms::hss_verify(k, m, s);
    };
    auto st = verify(pk, msg, sm);
    EXPECT_TRUE(st.ok()) << e.path().filename() << ": " << (st ? "" : st.error().what());
    // Tampering: a flipped bit anywhere in the signature, in the message, in the key.
    std::mt19937 rng(static_cast<unsigned>(sm.size()));
    for (int k = 0; k < 8; ++k) {
      bytes s2 = sm;
      s2[rng() % s2.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      EXPECT_FALSE(verify(pk, msg, s2).ok()) << e.path().filename();
    }
    bytes m2 = msg;
    m2[0] ^= 1;
    EXPECT_FALSE(verify(pk, m2, sm).ok());
    bytes p2 = pk;
    p2.back() ^= 0x80;
    EXPECT_FALSE(verify(p2, msg, sm).ok());
    EXPECT_FALSE(verify(pk, msg, byte_span(sm).first(sm.size() - 1)).ok());
    ++n;
  }
  EXPECT_EQ(n, 18);
}

// RFC 8554 Appendix F test case 2 (= the liboqs KAT LMS_SHA256_H10_W4_H5_W8): the RFC gives the
// second-level tree's private SEED and I, its T[1], and the randomizer C of the final signature
// (leaf q = 4). Our key generation from them must give that key, and our signature at q = 4 with
// that C must be byte for byte the final LMS signature of the published HSS signature.
TEST(LmsRfc8554, TestCase2FinalSignatureFromSeed) {
  // RFC 8554 Appendix F, test case 2: the second-level key's SEED, I, T[1]; the final signature's C.
  const auto seed = hex("a1c4696e2608035a886100d05cd99945eb3370731884a8235e2fb3d4d71f2547");
  const auto I = hex("215f83b7ccb9acbcd08db97b0d04dc2b");
  const auto T1 = hex("a1cd035833e0e90059603f26e07ad2aad152338e7a5e5984bcd5f7bb4eba40b7");
  const auto C = hex("0eb1ed54a2460d512388cad533138d240534e97b1e82d33bd927d201dfc24ebb");
  auto lv = lms::parse_levels("lms-sha256-m32-h5-w8");
  ASSERT_TRUE(lv.ok());
  auto pub = lms::lms_public_key_from_seed(lv->front(), I, seed);
  ASSERT_TRUE(pub.ok());
  EXPECT_EQ(to_hex(byte_span(*pub).subspan(24)), to_hex(T1));
  std::string why;
  const std::string dir = extract_liboqs_kats(why);
  if (dir.empty()) GTEST_SKIP() << why;
  auto kv = read_rsp(fs::path(dir) / "LMS_SHA256_H10_W4_H5_W8.rsp");
  const auto sm = hex(kv["sm"]), msg = hex(kv["msg"]);
  // The signed public key of level 1 follows the first LMS signature (H10/W4).
  const std::size_t off = 4 + lms::lms_signature_bytes(lms::parse_levels("lms-sha256-m32-h10-w4")->front());
  ASSERT_GE(sm.size(), off + pub->size());
  EXPECT_EQ(to_hex(*pub), to_hex(byte_span(sm).subspan(off, pub->size())));
  lms::detail::Tree t;
  t.lv = lv->front();
  std::memcpy(t.I.data(), I.data(), 16);
  t.seed = SecretBytes(seed);
  t.build(1);
  const bytes sig = t.sign(4, msg, 1, C.data());
  ASSERT_EQ(sm.size(), off + pub->size() + sig.size());
  EXPECT_EQ(to_hex(sig), to_hex(byte_span(sm).subspan(off + pub->size())));
}

// Round trip for every LMS/LM-OTS pair of one family at H5 (sign at several leaves, verify, tamper).
TEST(LmsRoundTrip, EveryParameterPairH5) {
  for (const auto& lp : lms::all_lms()) {
    if (lp.h != 5) continue;
    for (const auto& op : lms::all_lmots()) {
      if (op.hash != lp.hash || op.n != lp.m) continue;
      const lms::Level lv{&lp, &op};
      std::vector<std::uint8_t> I(16, 0x42), seed(lp.m, 0x17);
      auto key = lms::HssPrivateKey::from_seed(std::span(&lv, 1), I, seed);
      ASSERT_TRUE(key.ok());
      auto pk_direct = lms::lms_public_key_from_seed(lv, I, seed);
      ASSERT_TRUE(pk_direct.ok());
      auto signer = lms::HssSigner::create(std::move(*key), 1);
      ASSERT_TRUE(signer.ok());
      EXPECT_EQ(to_hex(byte_span(signer->public_key()).subspan(4)), to_hex(*pk_direct));
      for (std::uint64_t idx : {0u, 1u, 17u, 31u}) {
        const std::string msg = "message " + std::to_string(idx) + std::string(op.name);
        auto sig = signer->sign_at(idx, as_bytes(msg));
        ASSERT_TRUE(sig.ok());
        EXPECT_EQ(sig->size(), lms::hss_signature_bytes(std::span(&lv, 1)));
        EXPECT_TRUE(lms::hss_verify(signer->public_key(), as_bytes(msg), *sig).ok()) << op.name << " " << idx;
        // The inner LMS signature verifies against the LMS key too.
        EXPECT_TRUE(lms::lms_verify(byte_span(signer->public_key()).subspan(4), as_bytes(msg),
                                    byte_span(*sig).subspan(4)).ok());
        bytes bad = *sig;
        bad[bad.size() / 2] ^= 4;
        EXPECT_FALSE(lms::hss_verify(signer->public_key(), as_bytes(msg), bad).ok());
      }
      EXPECT_EQ(signer->sign_at(32, as_bytes("x")).error().code, Errc::key_exhausted);
    }
  }
}

// HSS with three levels, crossing tree boundaries, and a tree taller than the cached subtree
// height (H15: 2^5 subtrees of height 10 — the cache is rebuilt when the index leaves a subtree).
TEST(LmsRoundTrip, HssLevelsAndTreeBoundaries) {
  auto lv = lms::parse_levels("hss-sha256-m24-h5-w8-h5-w8-h5-w8");
  ASSERT_TRUE(lv.ok());
  auto key = lms::HssPrivateKey::from_seed(*lv, bytes(16, 1), bytes(24, 2));
  ASSERT_TRUE(key.ok());
  auto enc = key->serialize();
  auto key2 = lms::HssPrivateKey::parse(enc.span());
  ASSERT_TRUE(key2.ok());
  EXPECT_EQ(key2->max_signatures(), 1u << 15);
  auto signer = lms::HssSigner::create(std::move(*key2));
  ASSERT_TRUE(signer.ok());
  for (std::uint64_t idx : {0u, 31u, 32u, 33u, 1023u, 1024u, 5000u, 32767u, 3u}) {
    const std::string msg = "idx " + std::to_string(idx);
    auto sig = signer->sign_at(idx, as_bytes(msg));
    ASSERT_TRUE(sig.ok());
    EXPECT_EQ(sig->size(), lms::hss_signature_bytes(*lv));
    auto st = lms::hss_verify(signer->public_key(), as_bytes(msg), *sig);
    EXPECT_TRUE(st.ok()) << idx << ": " << (st ? "" : st.error().what());
    // The leaf index inside the last LMS signature is idx mod 32.
    const std::size_t last = sig->size() - lms::lms_signature_bytes(lv->back());
    EXPECT_EQ(lms::detail::get_u32(sig->data() + last), idx % 32);
  }
  // Deterministic: the same key signs the same index identically.
  auto key3 = lms::HssPrivateKey::from_seed(*lv, bytes(16, 1), bytes(24, 2));
  auto s2 = lms::HssSigner::create(std::move(*key3));
  ASSERT_TRUE(s2.ok());
  EXPECT_EQ(to_hex(*s2->sign_at(1024, as_bytes("idx 1024"))), to_hex(*signer->sign_at(1024, as_bytes("idx 1024"))));
}

// A tree taller than the cached subtree (H15: 32 subtrees of height 10), W1 to keep its 2^15
// leaves cheap; signing rebuilds the cached subtree as the index moves across subtrees.
TEST(LmsRoundTrip, H15CrossesSubtrees) {
  auto lv = lms::parse_levels("lms-sha256-m24-h15-w1");
  ASSERT_TRUE(lv.ok());
  auto key = lms::HssPrivateKey::from_seed(*lv, bytes(16, 9), bytes(24, 8));
  ASSERT_TRUE(key.ok());
  auto signer = lms::HssSigner::create(std::move(*key));
  ASSERT_TRUE(signer.ok());
  for (std::uint64_t idx : {0u, 1023u, 1024u, 20000u, 32767u}) {
    auto sig = signer->sign_at(idx, as_bytes("m"));
    ASSERT_TRUE(sig.ok());
    EXPECT_TRUE(lms::hss_verify(signer->public_key(), as_bytes("m"), *sig).ok()) << idx;
  }
}

TEST(LmsMalformed, TypedErrorsNeverCrash) {
  auto lv = lms::parse_levels("hss-sha256-m32-h5-w4-h5-w4");
  auto key = lms::HssPrivateKey::from_seed(*lv, bytes(16, 3), bytes(32, 4));
  auto signer = lms::HssSigner::create(std::move(*key), 1);
  ASSERT_TRUE(signer.ok());
  auto sig = *signer->sign_at(40, as_bytes("hello"));
  const auto& pk = signer->public_key();
  EXPECT_TRUE(lms::hss_verify(pk, as_bytes("hello"), sig).ok());
  // Every truncation is rejected with a typed error.
  for (std::size_t len = 0; len < sig.size(); len += 7) {
    auto st = lms::hss_verify(pk, as_bytes("hello"), byte_span(sig).first(len));
    EXPECT_FALSE(st.ok());
  }
  // Nspk wrong, L wrong, unknown types, q out of range.
  bytes s = sig;
  s[3] = 0;
  EXPECT_EQ(lms::hss_verify(pk, as_bytes("hello"), s).error().code, Errc::verify_failed);
  bytes p = pk;
  p[3] = 9;
  EXPECT_FALSE(lms::hss_verify(p, as_bytes("hello"), sig).ok());
  p = pk;
  p[7] = 0x77;
  EXPECT_EQ(lms::hss_verify(p, as_bytes("hello"), sig).error().code, Errc::unknown_suite);
  EXPECT_FALSE(lms::hss_verify({}, as_bytes("hello"), sig).ok());
  EXPECT_FALSE(lms::lms_verify(byte_span(pk).subspan(4), as_bytes("hello"), {}).ok());
  // Private key parsing.
  EXPECT_FALSE(lms::HssPrivateKey::parse(as_bytes("PQHSS1")).ok());
  EXPECT_FALSE(lms::HssPrivateKey::parse({}).ok());
  EXPECT_EQ(lms::HssPrivateKey::from_seed(*lv, bytes(15, 0), bytes(32, 0)).error().code, Errc::invalid_length);
}
