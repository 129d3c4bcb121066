// XMSS / XMSS^MT against published data: the liboqs XMSS KATs (tests/KATs/sig_stfl/xmss/ of the
// liboqs release in ../shared/thirdparty, extracted to a temp dir), plus round trips and tampering.
//
// A KAT gives pk, sk (xmss-reference layout: OID || idx || SK_SEED || SK_PRF || root || PUB_SEED
// || BDS state), a message and the signature at index 0. For every file: the signature verifies
// under pk (and not when tampered); r, the message hash and every layer's WOTS+ signature are
// recomputed from the sk seeds byte-exactly (the layer roots that the upper layers sign are taken
// from verification); for every set whose trees have height <= 10 the whole key is regenerated
// from the seeds (root = pk) and the signature re-made byte-exactly by Signer::sign_at(0).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

#include "pqsig/xmss.hpp"
#include "support/liboqs_kats.hpp"
#include "xmss/xmss_internal.hpp"

using namespace pqsig;
namespace fs = std::filesystem;

namespace {

bytes xhex(const std::string& s) {
  auto r = from_hex(s);
  EXPECT_TRUE(r.ok()) << s.substr(0, 40);
  return r.ok() ? *r : bytes{};
}

// The liboqs XMSS KATs, extracted once (tests/support/liboqs_kats.hpp).
std::string extract_xmss_kats(std::string& why) { return pqsig::test_support::liboqs_kat_dir("sig_stfl/xmss", why); }

std::map<std::string, std::string> read_xmss_rsp(const fs::path& p) {
  std::map<std::string, std::string> kv;
  std::ifstream f(p);
  std::string line;
  while (std::getline(f, line)) {
    const auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    kv[line.substr(0, eq)] = line.substr(eq + 3);
  }
  return kv;
}

std::vector<fs::path> kat_files(const std::string& dir) {
  std::vector<fs::path> v;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".rsp") v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

struct Kat {
  const xmss::Params* p = nullptr;
  bytes pk, sk, msg, sm;
};

Kat load_kat(const fs::path& f) {
  Kat k;
  k.p = xmss::find_params(f.stem().string());
  EXPECT_NE(k.p, nullptr) << f;
  auto kv = read_xmss_rsp(f);
  k.pk = xhex(kv["pk"]);
  k.sk = xhex(kv["sk"]);
  k.msg = xhex(kv["msg"]);
  k.sm = xhex(kv["sm"]);
  EXPECT_EQ(k.msg.size(), std::stoul(kv["mlen"]));
  return k;
}

}  // namespace

TEST(XmssParams, TableValuesAndLookups) {
  EXPECT_EQ(xmss::all_xmss().size(), 21u);
  EXPECT_EQ(xmss::all_xmssmt().size(), 56u);
  const auto* p = xmss::find_params("xmss-sha2_10_256");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p, xmss::find_xmss(1));
  EXPECT_EQ(p->signature_bytes(), 2500u);  // RFC 8391 §5.3: 4 + 32 + 67·32 + 10·32
  EXPECT_EQ(p->public_key_bytes(), 68u);
  const auto* m = xmss::find_params("XMSSMT-SHA2_20-2_256");
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(m->mt);
  EXPECT_EQ(m, xmss::find_xmssmt(1));
  EXPECT_EQ(m->signature_bytes(), 4963u);  // 3 + 32 + 2·(67 + 10)·32
  EXPECT_EQ(xmss::find_params("XMSSMT-SHA2_20/2_256"), m);
  const auto* s = xmss::find_params("XMSS-SHAKE256_20_192");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->oid, 0x15u);
  EXPECT_EQ(s->padding, 4u);
  EXPECT_EQ(s->wots_len(), 51u);
  EXPECT_EQ(xmss::find_xmssmt(0x38)->name, "XMSSMT-SHAKE256_60/12_192");
  EXPECT_EQ(xmss::find_params("XMSS-SHA2_12_256"), nullptr);
  EXPECT_EQ(xmss::find_xmss(0), nullptr);
  EXPECT_EQ(xmss::find_xmss(22), nullptr);
  for (const auto& q : xmss::all_xmssmt()) EXPECT_EQ(q.h % q.d, 0u) << q.name;
}

// Every KAT signature verifies under its public key; flipping any of several bytes, the message
// or the index breaks it.
TEST(XmssKat, VerifyEveryKatSignature) {
  std::string why;
  const std::string dir = extract_xmss_kats(why);
  if (dir.empty()) GTEST_SKIP() << why;
  int files = 0;
  for (const auto& f : kat_files(dir)) {
    SCOPED_TRACE(f.filename().string());
    const Kat k = load_kat(f);
    if (!k.p) continue;
    ++files;
    ASSERT_EQ(k.sm.size(), k.p->signature_bytes());
    ASSERT_EQ(k.pk.size(), k.p->public_key_bytes());
    auto st = k.p->mt ? xmss::xmssmt_verify(k.pk, k.msg, k.sm) : xmss::xmss_verify(k.pk, k.msg, k.sm);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().what());
    EXPECT_TRUE(xmss::verify(*k.p, k.pk, k.msg, k.sm).ok());
    // The other registry reads the same OID as another set: never verifies.
    auto other = k.p->mt ? xmss::xmss_verify(k.pk, k.msg, k.sm) : xmss::xmssmt_verify(k.pk, k.msg, k.sm);
    EXPECT_FALSE(other.ok());
    for (std::size_t pos : {std::size_t{0}, k.p->index_bytes(), k.p->index_bytes() + k.p->n + 5,
                            k.sm.size() / 2, k.sm.size() - 1}) {
      bytes bad = k.sm;
      bad[pos] ^= 0x01;
      EXPECT_FALSE(xmss::verify(*k.p, k.pk, k.msg, bad).ok()) << "byte " << pos;
    }
    bytes badmsg = k.msg;
    badmsg[0] ^= 0x80;
    EXPECT_FALSE(xmss::verify(*k.p, k.pk, badmsg, k.sm).ok());
    bytes badpk = k.pk;
    badpk[4] ^= 1;
    EXPECT_FALSE(xmss::verify(*k.p, badpk, k.msg, k.sm).ok());
    bytes shortsig(k.sm.begin(), k.sm.end() - 1);
    EXPECT_EQ(xmss::verify(*k.p, k.pk, k.msg, shortsig).error().code, Errc::verify_failed);
  }
  EXPECT_EQ(files, 37);  // every .rsp of the release: 21 XMSS, 16 XMSS^MT
}

// r, M' and every layer's WOTS+ signature recomputed from the KAT sk seeds, byte-exactly.
TEST(XmssKat, ResignWotsPartsFromKatSecretKey) {
  std::string why;
  const std::string dir = extract_xmss_kats(why);
  if (dir.empty()) GTEST_SKIP() << why;
  for (const auto& f : kat_files(dir)) {
    SCOPED_TRACE(f.filename().string());
    const Kat k = load_kat(f);
    if (!k.p) continue;
    const auto& p = *k.p;
    const std::size_t n = p.n, ib = p.index_bytes();
    // sk: OID || idx || SK_SEED || SK_PRF || root || PUB_SEED (|| BDS state).
    ASSERT_GE(k.sk.size(), 4 + ib + 4 * n);
    EXPECT_EQ(xmss::detail::from_bytes(k.sk.data(), 4), p.oid);
    EXPECT_EQ(xmss::detail::from_bytes(k.sk.data() + 4, ib), 0u);
    const std::uint8_t* sk_seed = k.sk.data() + 4 + ib;
    const std::uint8_t* sk_prf = sk_seed + n;
    const std::uint8_t* root = sk_prf + n;
    const std::uint8_t* pub_seed = root + n;
    EXPECT_EQ(0, std::memcmp(root, k.pk.data() + 4, n));
    EXPECT_EQ(0, std::memcmp(pub_seed, k.pk.data() + 4 + n, n));
    xmss::detail::Hasher hs(p, pub_seed);
    std::uint8_t idx32[32] = {};
    std::uint8_t r[64];
    hs.prf(r, sk_prf, idx32);
    EXPECT_EQ(0, std::memcmp(r, k.sm.data() + ib, n)) << "r";
    std::uint8_t key[192], node[64];
    std::memcpy(key, r, n);
    std::memcpy(key + n, root, n);
    std::memset(key + 2 * n, 0, n);
    hs.h_msg(node, key, k.msg);
    const std::uint8_t* part = k.sm.data() + ib + n;
    const std::size_t wots_bytes = p.wots_len() * n, part_bytes = wots_bytes + p.tree_height() * n;
    for (unsigned j = 0; j < p.d; ++j) {
      xmss::detail::Adrs a;
      a.set_layer(j);
      a.set_type(xmss::detail::kTypeOts);
      bytes wsig(wots_bytes);
      xmss::detail::wots_sign(hs, node, sk_seed, a, wsig.data());
      EXPECT_EQ(0, std::memcmp(wsig.data(), part, wots_bytes)) << "layer " << j;
      xmss::detail::root_from_sig(hs, j, 0, 0, part, node, node);
      part += part_bytes;
    }
    EXPECT_EQ(0, std::memcmp(node, root, n));
  }
}

namespace {
// Key generation from the KAT seeds and the whole signature at index 0, byte-exactly, for the
// KAT sets with trees of height <= 10 that `pick` selects; returns how many were run.
int xmss_keygen_sign_kats(bool (*pick)(const xmss::Params&)) {
  std::string why;
  const std::string dir = extract_xmss_kats(why);
  if (dir.empty()) return -1;
  int done = 0;
  for (const auto& f : kat_files(dir)) {
    SCOPED_TRACE(f.filename().string());
    const Kat k = load_kat(f);
    if (!k.p || k.p->tree_height() > 10 || !pick(*k.p)) continue;
    const auto& p = *k.p;
    const std::size_t n = p.n, ib = p.index_bytes();
    const byte_span s(k.sk.data() + 4 + ib, 4 * n);
    // Signer::create regenerates the top tree from the seeds and refuses a root that differs
    // from the one given (the KAT's): key generation is checked there.
    auto key = xmss::PrivateKey::from_seeds(p, s.subspan(0, n), s.subspan(n, n), s.subspan(3 * n, n),
                                            s.subspan(2 * n, n));
    EXPECT_TRUE(key.ok());
    if (!key.ok()) continue;
    EXPECT_EQ(key->public_key(), k.pk);
    auto signer = xmss::Signer::create(std::move(*key));
    EXPECT_TRUE(signer.ok()) << (signer.ok() ? "" : signer.error().what());
    if (!signer.ok()) continue;
    auto sig = signer->sign_at(0, k.msg);
    EXPECT_TRUE(sig.ok());
    if (sig.ok()) {
      EXPECT_EQ(*sig, k.sm);
    }
    ++done;
  }
  return done;
}

// The cheap ones (unit): every set with trees of height 5, and one h10 set of each hash family
// and output length that the unit run can afford.
bool xmss_kat_cheap(const xmss::Params& p) {
  return p.tree_height() <= 5 || p.name == "XMSS-SHA2_10_256" || p.name == "XMSS-SHA2_10_192" ||
         p.name == "XMSS-SHAKE256_10_256" || p.name == "XMSSMT-SHA2_20/2_256";
}
bool xmss_kat_rest(const xmss::Params& p) { return !xmss_kat_cheap(p); }
}  // namespace

TEST(XmssKat, KeygenAndSignFromKatSeeds) {
  const int done = xmss_keygen_sign_kats(xmss_kat_cheap);
  if (done < 0) GTEST_SKIP() << "no liboqs-0.16.0.tar.xz in ../shared/thirdparty (shared data)";
  EXPECT_EQ(done, 10);  // 6 XMSS^MT sets of height 5 + 4
}

// The remaining 9 (labelled slow): the other h10 XMSS sets, XMSS^MT 40/4 and 60/6, and SHAKE 20/2.
TEST(XmssKatSlow, KeygenAndSignFromKatSeeds) {
  const int done = xmss_keygen_sign_kats(xmss_kat_rest);
  if (done < 0) GTEST_SKIP() << "no liboqs-0.16.0.tar.xz in ../shared/thirdparty (shared data)";
  EXPECT_EQ(done, 9);
}

// Round trips across tree boundaries of a 4-layer XMSS^MT key, plus encoding round trips.
TEST(XmssRoundTrip, MultiTreeIndicesVerifyAndTamper) {
  const auto* p = xmss::find_params("XMSSMT-SHA2_20/4_256");
  ASSERT_NE(p, nullptr);
  auto key = xmss::PrivateKey::generate(*p);
  ASSERT_TRUE(key.ok());
  const bytes pk = key->public_key();
  auto enc = key->serialize();
  auto back = xmss::PrivateKey::parse(enc.span());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->public_key(), pk);
  auto signer = xmss::Signer::create(std::move(*key), 2);
  ASSERT_TRUE(signer.ok());
  const bytes msg = {'h', 'e', 'l', 'l', 'o'};
  bytes prev;
  for (std::uint64_t idx : {0ull, 1ull, 31ull, 32ull, 1000ull, 33000ull, (1ull << 20) - 1}) {
    SCOPED_TRACE(idx);
    auto sig = signer->sign_at(idx, msg);
    ASSERT_TRUE(sig.ok());
    EXPECT_EQ(xmss::detail::from_bytes(sig->data(), p->index_bytes()), idx);
    EXPECT_TRUE(xmss::xmssmt_verify(pk, msg, *sig).ok());
    bytes bad = *sig;
    bad[p->index_bytes() + p->n + p->wots_len() * p->n + 3] ^= 4;  // first auth node
    EXPECT_FALSE(xmss::xmssmt_verify(pk, msg, bad).ok());
    bytes moved = *sig;  // the same signature claimed at another index
    moved[p->index_bytes() - 1] ^= 1;
    EXPECT_FALSE(xmss::xmssmt_verify(pk, msg, moved).ok());
    EXPECT_NE(*sig, prev);
    prev = *sig;
  }
  EXPECT_EQ(signer->sign_at(1ull << 20, msg).error().code, Errc::key_exhausted);
  // An index beyond 2^h in the encoding is refused by the verifier.
  auto sig = signer->sign_at(5, msg);
  ASSERT_TRUE(sig.ok());
  (*sig)[0] |= 0x80;
  EXPECT_EQ(xmss::xmssmt_verify(pk, msg, *sig).error().code, Errc::verify_failed);
}

TEST(XmssRoundTrip, XmssSha2_10AndParsing) {
  const auto* p = xmss::find_params("XMSS-SHA2_10_256");
  ASSERT_NE(p, nullptr);
  auto key = xmss::PrivateKey::generate(*p);
  ASSERT_TRUE(key.ok());
  const bytes pk = key->public_key();
  auto signer = xmss::Signer::create(std::move(*key));
  ASSERT_TRUE(signer.ok());
  for (std::uint64_t idx : {0ull, 513ull, 1023ull}) {
    const bytes msg(idx % 7 + 1, static_cast<std::uint8_t>(idx));
    auto sig = signer->sign_at(idx, msg);
    ASSERT_TRUE(sig.ok());
    EXPECT_TRUE(xmss::xmss_verify(pk, msg, *sig).ok());
    EXPECT_FALSE(xmss::xmss_verify(pk, bytes{1, 2, 3}, *sig).ok());
  }
  EXPECT_EQ(signer->sign_at(1024, bytes{}).error().code, Errc::key_exhausted);
  // Malformed public keys and private keys: typed errors.
  EXPECT_EQ(xmss::xmss_verify(bytes{0, 0}, bytes{}, bytes{}).error().code, Errc::invalid_length);
  bytes pk_bad_oid = pk;
  pk_bad_oid[3] = 0x7f;
  EXPECT_EQ(xmss::xmss_verify(pk_bad_oid, bytes{}, bytes(2500)).error().code, Errc::unknown_suite);
  bytes pk_long = pk;
  pk_long.push_back(0);
  EXPECT_EQ(xmss::xmss_verify(pk_long, bytes{}, bytes(2500)).error().code, Errc::invalid_length);
  EXPECT_FALSE(xmss::PrivateKey::parse(bytes{1, 2, 3}).ok());
  bytes junk(7 + 5 + 128, 0);
  std::memcpy(junk.data(), "PQXMSS1", 7);
  junk[7] = 0;
  junk[11] = 1;
  EXPECT_TRUE(xmss::PrivateKey::parse(junk).ok());  // seeds of zeros and a given root: well-formed
  junk.pop_back();
  EXPECT_EQ(xmss::PrivateKey::parse(junk).error().code, Errc::invalid_length);
}
