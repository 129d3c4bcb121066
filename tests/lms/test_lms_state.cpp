// The state of a stateful key, under attack: kill -9 at every step of reservation and signing,
// several signer processes on one key at once, rolled-back / corrupt / foreign state files,
// exhaustion. After each: no index signed twice, checked over every signature produced, and
// every signature verifies.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "lms/lms_internal.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/lms.hpp"
#include "support/kill_at_step.hpp"
#include "support/released_signatures.hpp"
#include "support/scratch_dir.hpp"

using namespace pqsig;
namespace fs = std::filesystem;

namespace {

struct TempDir : pqsig::test::ScratchDir {
  TempDir() : ScratchDir("lms_state") {}
};

lms::HssPrivateKey test_key(const char* spec = "hss-sha256-m24-h5-w4-h5-w4", std::uint8_t tag = 1) {
  auto lv = lms::parse_levels(spec);
  EXPECT_TRUE(lv.ok());
  auto k = lms::HssPrivateKey::from_seed(*lv, bytes(16, tag), bytes(lv->front().lms->m, static_cast<std::uint8_t>(tag + 1)));
  EXPECT_TRUE(k.ok());
  return std::move(*k);
}

bytes public_key_of(const char* spec = "hss-sha256-m24-h5-w4-h5-w4", std::uint8_t tag = 1) {
  auto s = lms::HssSigner::create(test_key(spec, tag), 1);
  EXPECT_TRUE(s.ok());
  return s->public_key();
}

using Record = pqsig::test::ReleasedSignature;

// Child body: open the signer, sign `count` messages, release each to `out_fd`. Exit codes:
// 0 done, 3 open refused, 4 sign refused (exhausted), 5 other sign error.
[[noreturn]] void child_sign(const fs::path& state, int out_fd, int count, std::uint64_t block, const std::string& tag) {
  auto signer = lms::StatefulSigner::open(test_key(), state.string(), block, 1);
  if (!signer) _exit(3);
  for (int i = 0; i < count; ++i) {
    const std::string msg = tag + " message " + std::to_string(i);
    auto s = signer->sign(as_bytes(msg));
    if (!s) _exit(s.error().code == Errc::key_exhausted ? 4 : 5);
    pqsig::test::write_released(out_fd, s->index, msg, s->signature);
  }
  _exit(0);
}

// Checks the union of all released signatures: each verifies, no index twice.
void check_no_reuse(const bytes& pk, const std::vector<Record>& all, std::size_t& count) {
  std::map<std::uint64_t, std::string> seen;
  for (const auto& r : all) {
    auto [it, fresh] = seen.emplace(r.index, r.message);
    EXPECT_TRUE(fresh) << "INDEX REUSED: " << r.index << " for '" << it->second << "' and '" << r.message << "'";
    auto st = lms::hss_verify(pk, as_bytes(r.message), r.sig);
    EXPECT_TRUE(st.ok()) << "index " << r.index << ": " << (st ? "" : st.error().what());
    // The index inside the signature is the one reported (HSS: top leaf · 32 + bottom leaf).
    const std::uint32_t q0 = lms::detail::get_u32(r.sig.data() + 4);
    const std::size_t last = r.sig.size() - (4 + lms::find_lmots(7)->sig_bytes + 4 + 5 * 24);
    const std::uint32_t q1 = lms::detail::get_u32(r.sig.data() + last);
    EXPECT_EQ(std::uint64_t{q0} * 32 + q1, r.index);
  }
  count = seen.size();
}

}  // namespace

// kill -9 at every step of reservation and signing: runs k = 1, 2, ... each kill the signer at
// its k-th step (reserve: locked, tmp_written, tmp_synced, renamed, dir_synced, logged; sign:
// before, signed, logged), then one more run that signs to the end. Bounded: at most 40 runs.
TEST(LmsState, KillAtEveryStepNeverReusesAnIndex) {
  TempDir dir;
  const fs::path state = dir.p / "key.state";
  const bytes pk = public_key_of();
  ASSERT_TRUE(lms::StateStore::create(state.string(), pk, 1024).ok());
  const fs::path out = dir.p / "released.bin";
  constexpr int kSigsPerRun = 5;
  constexpr std::uint64_t kBlock = 3;
  int killed = 0, completed = 0;
  ASSERT_NO_FATAL_FAILURE(pqsig::test::sign_killed_at_every_step(
      state.string(), pk, out.string(), 40,
      [&](int k, int fd) { child_sign(state, fd, kSigsPerRun, kBlock, "run" + std::to_string(k)); }, killed,
      completed));
  EXPECT_GE(killed, 20);  // 2 reservations × 6 steps + 5 signatures × 3 steps per run
  EXPECT_EQ(completed, 2);
  const auto all = pqsig::test::read_released(out.string());
  std::size_t distinct = 0;
  check_no_reuse(pk, all, distinct);
  EXPECT_EQ(distinct, all.size());
  EXPECT_GT(all.size(), 0u);
  // A crash loses at most the unused rest of one block per run.
  auto st = lms::StateStore::open(state.string(), pk);
  ASSERT_TRUE(st.ok());
  auto inf = st->info();
  ASSERT_TRUE(inf.ok());
  EXPECT_GE(inf->reserved_end, all.size());
  EXPECT_LE(inf->reserved_end - all.size(), static_cast<std::uint64_t>(killed + completed) * kBlock);
}

// Several signer processes on one key at once (flock): disjoint reservations; some of them are
// killed with SIGKILL from outside at random moments. Bounded: 3 rounds of 4 processes.
TEST(LmsState, ConcurrentSignersAndRandomKillsNeverReuse) {
  TempDir dir;
  const fs::path state = dir.p / "key.state";
  const bytes pk = public_key_of();
  ASSERT_TRUE(lms::StateStore::create(state.string(), pk, 1024).ok());
  std::mt19937 rng(8554);
  std::vector<fs::path> outs;
  for (int round = 0; round < 3; ++round) {
    std::vector<pid_t> pids;
    for (int c = 0; c < 4; ++c) {
      const fs::path out = dir.p / ("out_" + std::to_string(round) + "_" + std::to_string(c));
      outs.push_back(out);
      const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ASSERT_GE(fd, 0);
      const pid_t pid = ::fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) child_sign(state, fd, 25, 1 + c, "r" + std::to_string(round) + "c" + std::to_string(c));
      ::close(fd);
      pids.push_back(pid);
    }
    // Kill two of the four after a random short delay.
    for (int c = 0; c < 2; ++c) {
      ::usleep(1000 * (rng() % 30));
      ::kill(pids[rng() % pids.size()], SIGKILL);
    }
    for (pid_t p : pids) {
      int ws = 0;
      ASSERT_EQ(::waitpid(p, &ws, 0), p);
      if (WIFEXITED(ws)) {
        EXPECT_EQ(WEXITSTATUS(ws), 0);
      }
    }
  }
  std::vector<Record> all;
  for (const auto& o : outs) {
    auto r = pqsig::test::read_released(o.string());
    all.insert(all.end(), r.begin(), r.end());
  }
  std::size_t distinct = 0;
  check_no_reuse(pk, all, distinct);
  EXPECT_EQ(distinct, all.size());
  EXPECT_GE(all.size(), 100u);  // at least the unkilled half signed everything
  // Every released index is in the audit log.
  std::ifstream log(state.string() + ".log");
  std::set<std::uint64_t> logged;
  std::string kind, a, b;
  while (log >> kind) {
    if (kind == "K") {
      log >> a;
    } else if (kind == "R") {
      log >> a >> b >> kind;
    } else if (kind == "S") {
      log >> a >> b;
      logged.insert(std::stoull(a));
    }
  }
  for (const auto& r : all) EXPECT_TRUE(logged.count(r.index)) << r.index;
  // The library's audit agrees: nothing reused, everything inside a reservation.
  auto store = lms::StateStore::open(state.string(), pk);
  ASSERT_TRUE(store.ok());
  auto audit = store->audit();
  ASSERT_TRUE(audit.ok()) << audit.error().what();
  EXPECT_TRUE(audit->clean());
  EXPECT_EQ(audit->signatures, logged.size());
  EXPECT_GE(audit->signatures, all.size());
  // A forged duplicate line is what a reuse would look like: the audit names it.
  {
    std::ofstream f(state.string() + ".log", std::ios::app);
    f << "S " << all.front().index << " " << std::string(64, 'a') << "\n";
  }
  audit = store->audit();
  ASSERT_TRUE(audit.ok());
  EXPECT_FALSE(audit->clean());
  ASSERT_EQ(audit->reused.size(), 1u);
  EXPECT_EQ(audit->reused[0], all.front().index);
}

TEST(LmsState, RolledBackStateIsRefused) {
  TempDir dir;
  const fs::path state = dir.p / "key.state";
  const bytes pk = public_key_of();
  ASSERT_TRUE(lms::StateStore::create(state.string(), pk, 1024).ok());
  {
    auto s = lms::StatefulSigner::open(test_key(), state.string(), 4, 1);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(s->sign(as_bytes("a")).ok());
  }
  fs::copy_file(state, dir.p / "backup");
  {
    auto s = lms::StatefulSigner::open(test_key(), state.string(), 4, 1);
    ASSERT_TRUE(s.ok());
    for (int i = 0; i < 6; ++i) ASSERT_TRUE(s->sign(as_bytes("b")).ok());
  }
  // Restore the old state file (a backup, a VM snapshot ...): it is older than the log.
  fs::copy_file(dir.p / "backup", state, fs::copy_options::overwrite_existing);
  auto s = lms::StatefulSigner::open(test_key(), state.string(), 4, 1);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::state_rejected) << s.error().what();
  auto st = lms::StateStore::open(state.string(), pk);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Errc::state_rejected);
}

TEST(LmsState, CorruptMissingAndForeignStateIsRefused) {
  TempDir dir;
  const fs::path state = dir.p / "key.state";
  const bytes pk = public_key_of();
  ASSERT_TRUE(lms::StateStore::create(state.string(), pk, 1024).ok());
  // Creating again refuses to overwrite.
  EXPECT_EQ(lms::StateStore::create(state.string(), pk, 1024).error().code, Errc::state_rejected);
  // Another key's state.
  const bytes other = public_key_of("hss-sha256-m24-h5-w4-h5-w4", 7);
  EXPECT_EQ(lms::StateStore::open(state.string(), other).error().code, Errc::state_rejected);
  // A changed number without a matching check line.
  std::string text;
  {
    std::ifstream f(state);
    text.assign(std::istreambuf_iterator<char>(f), {});
  }
  std::string bumped = text;
  bumped.replace(bumped.find("reserved 0"), 10, "reserved 9");
  {
    std::ofstream f(state, std::ios::trunc);
    f << bumped;
  }
  EXPECT_EQ(lms::StateStore::open(state.string(), pk).error().code, Errc::state_rejected);
  {
    std::ofstream f(state, std::ios::trunc);
    f << text.substr(0, text.size() / 2);
  }
  EXPECT_EQ(lms::StateStore::open(state.string(), pk).error().code, Errc::state_rejected);
  {
    std::ofstream f(state, std::ios::trunc);
    f << text;
  }
  ASSERT_TRUE(lms::StateStore::open(state.string(), pk).ok());
  // A missing audit log is uncertainty: refuse.
  fs::rename(state.string() + ".log", dir.p / "log.bak");
  EXPECT_EQ(lms::StateStore::open(state.string(), pk).error().code, Errc::state_rejected);
  fs::rename(dir.p / "log.bak", state.string() + ".log");
  // A missing state file is not "start from zero".
  fs::remove(state);
  EXPECT_EQ(lms::StateStore::open(state.string(), pk).error().code, Errc::state_rejected);
}

TEST(LmsState, ExhaustionRefusesWithTypedError) {
  TempDir dir;
  const fs::path state = dir.p / "key.state";
  auto lv = lms::parse_levels("lms-sha256-m24-h5-w8");
  auto mk = [&]() -> lms::HssPrivateKey {
    auto k = lms::HssPrivateKey::from_seed(*lv, bytes(16, 5), bytes(24, 6));
    return std::move(k.value());
  };
  auto signer0 = lms::HssSigner::create(mk(), 1);
  ASSERT_TRUE(lms::StateStore::create(state.string(), signer0->public_key(), 32).ok());
  auto s = lms::StatefulSigner::open(mk(), state.string(), 5, 1);
  ASSERT_TRUE(s.ok());
  std::set<std::uint64_t> idx;
  for (int i = 0; i < 32; ++i) {
    auto r = s->sign(as_bytes("m" + std::to_string(i)));
    ASSERT_TRUE(r.ok()) << i << ": " << r.error().what();
    EXPECT_TRUE(idx.insert(r->index).second);
    EXPECT_TRUE(lms::hss_verify(s->public_key(), as_bytes("m" + std::to_string(i)), r->signature).ok());
  }
  auto r = s->sign(as_bytes("one too many"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::key_exhausted);
  auto s2 = lms::StatefulSigner::open(mk(), state.string(), 5, 1);
  ASSERT_TRUE(s2.ok());
  EXPECT_EQ(s2->sign(as_bytes("x")).error().code, Errc::key_exhausted);
  auto inf = s2->store().info();
  ASSERT_TRUE(inf.ok());
  EXPECT_EQ(inf->remaining(), 0u);
}

// The top-tree cache (<state>.tree): used on restart, rebuilt when corrupt or another key's, and a
// consistent but wrong cache (nodes changed, checksum recomputed) gives another public key, so the
// state refuses it — it can never make the signer sign under a key that is not the state's.
TEST(LmsState, TreeCacheIsUsedCheckedAndCannotSwapTheKey) {
  TempDir dir;
  const fs::path state = dir.p / "key.state";
  const std::string cache = state.string() + ".tree";
  const bytes pk = public_key_of();
  ASSERT_TRUE(lms::StateStore::create(state.string(), pk, 1024).ok());
  auto sign_once = [&](const std::string& m) -> Result<lms::StatefulSigner::Signed> {
    auto s = lms::StatefulSigner::open(test_key(), state.string(), 1, 1);
    if (!s) return s.error();
    auto r = s->sign(as_bytes(m));
    if (r) {
      EXPECT_TRUE(lms::hss_verify(pk, as_bytes(m), r->signature).ok());
    }
    return r;
  };
  ASSERT_TRUE(sign_once("first").ok());
  ASSERT_TRUE(fs::exists(cache));
  const bytes good = lms::detail::read_small_file(cache);
  ASSERT_FALSE(good.empty());
  ASSERT_TRUE(sign_once("from the cache").ok());
  // Corrupt: checksum fails → rebuilt and rewritten.
  bytes bad = good;
  bad[40] ^= 1;
  ASSERT_TRUE(lms::detail::write_small_file(cache, bad));
  ASSERT_TRUE(sign_once("after corruption").ok());
  EXPECT_EQ(lms::detail::read_small_file(cache), good);
  // Consistent but wrong: the root changed and the checksum recomputed → another public key.
  bytes forged(good.begin(), good.end() - 32);
  forged[35 + 24] ^= 1;  // T[1] (node 1 of the top part, m = 24)
  const auto d = hash::sha256(forged);
  forged.insert(forged.end(), d.begin(), d.end());
  ASSERT_TRUE(lms::detail::write_small_file(cache, forged));
  auto r = sign_once("forged cache");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::state_rejected) << r.error().what();
}
