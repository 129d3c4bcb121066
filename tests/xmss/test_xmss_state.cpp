// XMSS through the LMS/HSS state store: indices advance and never repeat across reopenings (a
// reopened signer starts after the whole persisted reservation), the audit log is clean,
// exhaustion and another key's state are typed refusals; and `pqsig hbs` with an XMSS^MT key.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_util.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/xmss.hpp"
#include "support/kill_at_step.hpp"
#include "support/released_signatures.hpp"
#include "xmss/xmss_internal.hpp"

using namespace pqsig;

namespace {
std::string xmss_trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// A deterministic XMSS-SHA2_10_256 key (its root computed once), as its encoding.
SecretBytes xmss_state_test_key() {
  const auto* p = xmss::find_params("XMSS-SHA2_10_256");
  EXPECT_NE(p, nullptr);
  auto k = xmss::PrivateKey::from_seeds(*p, bytes(32, 1), bytes(32, 2), bytes(32, 3));
  EXPECT_TRUE(k.ok());
  return k->serialize();
}

std::uint64_t xmss_inode(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_ino) : 0;
}
}  // namespace

// kill -9 at every step of reservation and signing of an XMSS key (the lms::StateStore step
// hooks: reserve locked, tmp_written, tmp_synced, renamed, dir_synced, logged; sign before,
// signed, logged): run k is killed at its k-th step, until two runs sign to the end. Then no
// index was released twice, every released signature verifies and carries its index, and a
// crash lost at most one block per run. Bounded: at most 40 runs.
TEST(XmssState, KillAtEveryStepNeverReusesAnIndex) {
  TempDir d;
  const std::string state = d.file("k.state"), out = d.file("released.bin");
  const SecretBytes enc = xmss_state_test_key();
  bytes pk;
  {
    auto key = xmss::PrivateKey::parse(enc.span());
    ASSERT_TRUE(key.ok());
    pk = key->public_key();
    ASSERT_TRUE(xmss::StatefulSigner::create_state(*key, state).ok());
    // Builds the tree once and writes <state>.tree: the children load it.
    ASSERT_TRUE(xmss::StatefulSigner::open(std::move(*key), state, 1, 1).ok());
  }
  constexpr int kSigsPerRun = 5;
  constexpr std::uint64_t kBlock = 3;
  int killed = 0, completed = 0;
  ASSERT_NO_FATAL_FAILURE(pqsig::test::sign_killed_at_every_step(
      state, pk, out, 40,
      [&](int k, int fd) {
        auto key = xmss::PrivateKey::parse(enc.span());
        if (!key) _exit(2);
        auto signer = xmss::StatefulSigner::open(std::move(*key), state, kBlock, 1);
        if (!signer) _exit(3);
        for (int i = 0; i < kSigsPerRun; ++i) {
          const std::string msg = "run" + std::to_string(k) + " message " + std::to_string(i);
          auto s = signer->sign(as_bytes(msg));
          if (!s) _exit(s.error().code == Errc::key_exhausted ? 4 : 5);
          pqsig::test::write_released(fd, s->index, msg, s->signature);
        }
        _exit(0);
      },
      killed, completed));
  EXPECT_GE(killed, 27);  // 2 reservations × 6 steps + 5 signatures × 3 steps per run
  EXPECT_EQ(completed, 2);
  const auto all = pqsig::test::read_released(out);
  ASSERT_GT(all.size(), 0u);
  std::map<std::uint64_t, std::string> seen;
  for (const auto& r : all) {
    auto [it, fresh] = seen.emplace(r.index, r.message);
    EXPECT_TRUE(fresh) << "INDEX REUSED: " << r.index << " for '" << it->second << "' and '" << r.message << "'";
    EXPECT_TRUE(xmss::xmss_verify(pk, as_bytes(r.message), r.sig).ok()) << "index " << r.index;
    EXPECT_EQ(xmss::detail::from_bytes(r.sig.data(), 4), r.index);  // idx_sig is the reported index
  }
  auto st = lms::StateStore::open(state, pk);
  ASSERT_TRUE(st.ok());
  auto inf = st->info();
  ASSERT_TRUE(inf.ok());
  EXPECT_GE(inf->reserved_end, all.size());
  EXPECT_LE(inf->reserved_end - all.size(), static_cast<std::uint64_t>(killed + completed + 1) * kBlock);
  auto audit = st->audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_TRUE(audit->reused.empty());
}

// The top-tree cache (<state>.tree): written by the first signer, loaded (not rewritten) by the
// next, rebuilt and rewritten when corrupt, when an interior node is changed with the checksum
// recomputed, and when it is another key's; signing is right in every case.
TEST(XmssState, TreeCacheIsUsedCheckedAndRebuilt) {
  TempDir d;
  const std::string state = d.file("k.state"), cache = state + ".tree";
  const SecretBytes enc = xmss_state_test_key();
  auto key0 = xmss::PrivateKey::parse(enc.span());
  ASSERT_TRUE(key0.ok());
  const bytes pk = key0->public_key();
  ASSERT_TRUE(xmss::StatefulSigner::create_state(*key0, state).ok());
  auto sign_once = [&](const std::string& m) {
    auto key = xmss::PrivateKey::parse(enc.span());
    ASSERT_TRUE(key.ok());
    auto s = xmss::StatefulSigner::open(std::move(*key), state, 1, 1);
    ASSERT_TRUE(s.ok()) << s.error().what();
    auto r = s->sign(as_bytes(m));
    ASSERT_TRUE(r.ok()) << r.error().what();
    EXPECT_TRUE(xmss::xmss_verify(pk, as_bytes(m), r->signature).ok());
  };
  sign_once("first");
  const std::string good = slurp_file(cache);
  // 8+1+4+4 header, PUB_SEED, (2^11 − 1) nodes of 32 bytes, SHA-256.
  ASSERT_EQ(good.size(), 17u + 32 + 2047 * 32 + 32);
  const std::uint64_t ino = xmss_inode(cache);
  sign_once("from the cache");
  EXPECT_EQ(xmss_inode(cache), ino) << "the cache was rewritten: it was not used";
  EXPECT_EQ(slurp_file(cache), good);
  auto put = [&](const std::string& body) { write_text(cache, body); };
  // Corrupt: checksum fails → rebuilt and rewritten.
  std::string bad = good;
  bad[100] ^= 1;
  put(bad);
  sign_once("after corruption");
  EXPECT_EQ(slurp_file(cache), good);
  // An interior node changed and the checksum recomputed: the recheck finds it.
  std::string forged = good.substr(0, good.size() - 32);
  forged[17 + 32 + 1024 * 32 + 5] ^= 1;  // level 1, node 0
  auto dg = hash::sha256(as_bytes(forged));
  forged.append(reinterpret_cast<const char*>(dg.data()), dg.size());
  put(forged);
  sign_once("after a forged node");
  EXPECT_EQ(slurp_file(cache), good);
  // Another key's cache (another PUB_SEED and root): rebuilt.
  {
    auto other = xmss::PrivateKey::from_seeds(key0->params(), bytes(32, 7), bytes(32, 8), bytes(32, 9));
    ASSERT_TRUE(other.ok());
    ASSERT_TRUE(xmss::Signer::create(std::move(*other), 1, cache).ok());
    EXPECT_NE(slurp_file(cache), good);
  }
  sign_once("after another key's cache");
  EXPECT_EQ(slurp_file(cache), good);
  // Truncated: rebuilt.
  put(good.substr(0, good.size() / 2));
  sign_once("after truncation");
  EXPECT_EQ(slurp_file(cache), good);
}


TEST(XmssState, ReserveSignReopenAuditExhaust) {
  TempDir d;
  const auto* p = xmss::find_params("XMSSMT-SHA2_20/4_256");
  ASSERT_NE(p, nullptr);
  auto key = xmss::PrivateKey::generate(*p);
  ASSERT_TRUE(key.ok());
  const bytes pk = key->public_key();
  const SecretBytes enc = key->serialize();
  const std::string state = d.file("k.state");
  ASSERT_TRUE(xmss::StatefulSigner::create_state(*key, state).ok());
  EXPECT_FALSE(xmss::StatefulSigner::create_state(*key, state).ok());  // never overwritten
  std::set<std::uint64_t> used;
  {
    auto s = xmss::StatefulSigner::open(std::move(*key), state, 3);
    ASSERT_TRUE(s.ok()) << s.error().what();
    for (int i = 0; i < 5; ++i) {
      const bytes m = {static_cast<std::uint8_t>(i)};
      auto r = s->sign(m);
      ASSERT_TRUE(r.ok()) << r.error().what();
      EXPECT_TRUE(used.insert(r->index).second);
      EXPECT_TRUE(xmss::xmssmt_verify(pk, m, r->signature).ok());
    }
  }
  EXPECT_EQ(used, (std::set<std::uint64_t>{0, 1, 2, 3, 4}));
  // Reopened: the rest of the second block (5) is burnt; signing goes on at 6.
  auto key2 = xmss::PrivateKey::parse(enc.span());
  ASSERT_TRUE(key2.ok());
  auto s2 = xmss::StatefulSigner::open(std::move(*key2), state, 1);
  ASSERT_TRUE(s2.ok());
  auto r = s2->sign(bytes{9});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->index, 6u);
  auto audit = s2->store().audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_TRUE(audit->clean());
  EXPECT_EQ(audit->signatures, 6u);
  // Burn all but one index; then one signature, then a typed refusal.
  auto inf = s2->store().info();
  ASSERT_TRUE(inf.ok());
  EXPECT_EQ(inf->limit, std::uint64_t{1} << 20);
  ASSERT_TRUE(s2->store().reserve(inf->remaining() - 1).ok());
  r = s2->sign(bytes{10});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->index, (std::uint64_t{1} << 20) - 1);
  EXPECT_TRUE(xmss::xmssmt_verify(pk, bytes{10}, r->signature).ok());
  EXPECT_EQ(s2->sign(bytes{11}).error().code, Errc::key_exhausted);
  // Another key's state: refused before any signing.
  auto other = xmss::PrivateKey::generate(*p);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(xmss::StatefulSigner::open(std::move(*other), state).error().code, Errc::state_rejected);
}

TEST(XmssCli, KeygenSignVerifyAudit) {
  TempDir d;
  auto r = run_pqsig(d, "hbs keygen --alg XMSSMT-SHA2_20/4_256 -o k.xmss --pub k.pub");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("1048576 signatures"), std::string::npos) << r.err;
  std::set<std::string> indices;
  for (int i = 0; i < 3; ++i) {
    const std::string m = "m" + std::to_string(i);
    write_text(d.file(m), "message " + std::to_string(i));
    r = run_pqsig(d, "hbs sign --key k.xmss --block 2 -i " + m + " -o " + m + ".sig");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(indices.insert(xmss_trim(r.err)).second) << r.err;
    r = run_pqsig(d, "hbs verify --family xmssmt --pub k.pub --sig " + m + ".sig -i " + m);
    EXPECT_EQ(r.code, 0) << r.err;
  }
  EXPECT_EQ(indices, (std::set<std::string>{"index 0", "index 2", "index 4"}));
  // `hbs sign` keeps the top tree in <state>.tree: written by the first, loaded by the others.
  EXPECT_FALSE(slurp_file(d.file("k.xmss.state.tree")).empty());
  // Wrong family or message: invalid.
  EXPECT_EQ(run_pqsig(d, "hbs verify --family xmss --pub k.pub --sig m0.sig -i m0").code, 1);
  EXPECT_EQ(run_pqsig(d, "hbs verify --family xmssmt --pub k.pub --sig m0.sig -i m1").code, 1);
  r = run_pqsig(d, "hbs audit --pub k.pub --state k.xmss.state");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("signatures 3\nreservations 3\nreused 0\n"), std::string::npos) << r.out;
}
