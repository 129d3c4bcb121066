// DualVerifier over providers: fault injection (a second provider that accepts everything,
// rejects everything, throws, or answers late), refusal when a side lacks an interface, the
// key cache, the thread pool and parallel blocks (verdicts in input order).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>

#include "pqsig/ledger.hpp"
#include "pqsig/provider.hpp"

using namespace pqsig;
using namespace pqsig::ledger;
namespace pp = pqsig::provider;

namespace {

enum class Fault { accept_all, reject_all, throws, late };

class FaultKey final : public pp::PreparedKey {
 public:
  FaultKey(const SuiteInfo& s, byte_span pk, Fault f, std::shared_ptr<const pp::PreparedKey> real)
      : s_(&s), pk_(pk.begin(), pk.end()), f_(f), real_(std::move(real)) {}
  const SuiteInfo& suite() const noexcept override { return *s_; }
  byte_span public_key() const noexcept override { return pk_; }
  Status verify(byte_span msg, byte_span sig, const pp::VerifyOptions& opt) const override {
    switch (f_) {
      case Fault::accept_all: return {};
      case Fault::reject_all: return Error{Errc::verify_failed, "rejects everything"};
      case Fault::throws: throw std::runtime_error("injected fault");
      case Fault::late:
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        return real_->verify(msg, sig, opt);
    }
    return Error{Errc::internal, "?"};
  }

 private:
  const SuiteInfo* s_;
  bytes pk_;
  Fault f_;
  std::shared_ptr<const pp::PreparedKey> real_;
};

class FaultProvider final : public pp::Provider {
 public:
  FaultProvider(Fault f, unsigned ifaces = pp::kPure | pp::kContext) : f_(f), ifaces_(ifaces) {}
  std::string_view name() const noexcept override { return "fault"; }
  pp::ProviderInfo info() const override { return {"fault", true, "", "test"}; }
  unsigned interfaces(const SuiteInfo&) const noexcept override { return ifaces_; }
  Result<std::shared_ptr<const pp::PreparedKey>> prepare(const SuiteInfo& s, byte_span pk) const override {
    ++prepares;
    std::shared_ptr<const pp::PreparedKey> real;
    if (f_ == Fault::late) {
      auto r = pp::find("pqsig").value()->prepare(s, pk);
      if (!r) return r.error();
      real = *r;
    }
    return std::shared_ptr<const pp::PreparedKey>(std::make_shared<FaultKey>(s, pk, f_, real));
  }
  mutable std::atomic<int> prepares{0};

 private:
  Fault f_;
  unsigned ifaces_;
};

// A block of ML-DSA-44 items: even indices valid, odd ones with one byte flipped.
struct Block {
  std::vector<bytes> pks, msgs, sigs;
  std::vector<Item> items;
  std::vector<bool> valid;
};

Block make_block(std::size_t n, std::uint64_t seed) {
  std::printf("block seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  const SuiteInfo& s = *find_suite("ml-dsa-44").value();
  Block b;
  auto sk = SigningKey::generate(s).value();
  auto sk2 = SigningKey::generate(s).value();
  b.pks.resize(n);
  b.msgs.resize(n);
  b.sigs.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const SigningKey& k = i % 3 ? sk : sk2;
    b.msgs[i].resize(1 + rng() % 64);
    for (auto& x : b.msgs[i]) x = static_cast<std::uint8_t>(rng());
    b.sigs[i] = k.sign(b.msgs[i]).value();
    b.pks[i].assign(k.public_key().begin(), k.public_key().end());
    const bool ok = i % 2 == 0;
    if (!ok) b.sigs[i][rng() % b.sigs[i].size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
    b.valid.push_back(ok);
  }
  for (std::size_t i = 0; i < n; ++i) b.items.push_back(Item{&s, b.pks[i], b.msgs[i], b.sigs[i], {}});
  return b;
}

std::shared_ptr<const pp::Provider> pqsig_provider() { return pp::find("pqsig").value(); }

}  // namespace

TEST(DualFaults, EnforceNeverAcceptsWhatEitherSideRejects) {
  const Block b = make_block(24, 1);
  ThreadPool pool(3);
  for (Fault f : {Fault::accept_all, Fault::reject_all, Fault::throws, Fault::late}) {
    auto second = std::make_shared<FaultProvider>(f);
    DualVerifier dv(pqsig_provider(), second, Mode::enforce, std::make_shared<KeyCache>(8));
    const auto verdicts = verify_block(dv, b.items, &pool);
    ASSERT_EQ(verdicts.size(), b.items.size());
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
      const bool second_accepts = f == Fault::accept_all || (f == Fault::late && b.valid[i]);
      EXPECT_EQ(verdicts[i].accepted, b.valid[i] && second_accepts) << "fault " << int(f) << " item " << i;
      EXPECT_EQ(verdicts[i].first_ok, b.valid[i]);
      if (!b.valid[i]) {
        EXPECT_FALSE(verdicts[i].second_ran) << "second must be skipped after the first rejects";
      }
      if (f == Fault::throws && b.valid[i]) {
        EXPECT_NE(verdicts[i].reason.find("threw"), std::string::npos) << verdicts[i].reason;
      }
    }
    const Stats st = dv.stats();
    EXPECT_EQ(st.total, b.items.size()) << "nothing lost";
    EXPECT_EQ(st.accepted + st.rejected, st.total);
    EXPECT_EQ(st.second_skipped, b.items.size() / 2);
  }
}

TEST(DualFaults, ShadowCountsEveryDisagreementAndRecordsReplayableInputs) {
  const Block b = make_block(20, 2);
  ThreadPool pool(2);
  for (Fault f : {Fault::accept_all, Fault::reject_all, Fault::throws, Fault::late}) {
    auto second = std::make_shared<FaultProvider>(f);
    DualVerifier dv(pqsig_provider(), second, Mode::shadow, std::make_shared<KeyCache>(8), 1000);
    const auto verdicts = verify_block(dv, b.items, &pool);
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
      EXPECT_EQ(verdicts[i].accepted, b.valid[i]) << "shadow: the first decides";
      EXPECT_TRUE(verdicts[i].second_ran);
      const bool second_ok = f == Fault::accept_all || (f == Fault::late && b.valid[i]);
      EXPECT_EQ(verdicts[i].disagreement, second_ok != b.valid[i]);
      expected += second_ok != b.valid[i];
    }
    EXPECT_EQ(dv.stats().disagreements, expected) << "fault " << int(f);
    EXPECT_EQ(dv.stats().total, b.items.size());
    const auto rec = dv.disagreements();
    ASSERT_EQ(rec.size(), expected);
    for (const auto& d : rec) {
      // Replay: the recorded inputs give the recorded first verdict again.
      const SuiteInfo& s = *find_suite(d.suite).value();
      EXPECT_EQ(pqsig_provider()->verify(s, d.pk, d.msg, d.sig).ok(), d.first_ok);
      EXPECT_NE(d.first_ok, d.second_ok);
    }
  }
}

TEST(DualFaults, RefusesWhenASideLacksTheInterfaceAndRunsNeither) {
  const Block b = make_block(2, 3);
  auto pure_only = std::make_shared<FaultProvider>(Fault::accept_all, pp::kPure);
  const bytes ctx = {1, 2, 3};
  Item it = b.items[0];
  it.opt.ctx = ctx;
  for (Mode m : {Mode::enforce, Mode::shadow}) {
    DualVerifier dv(pqsig_provider(), pure_only, m);
    const Verdict v = dv.verify(it);
    EXPECT_FALSE(v.accepted);
    EXPECT_TRUE(v.refused);
    EXPECT_FALSE(v.second_ran);
    EXPECT_NE(v.reason.find("context"), std::string::npos) << v.reason;
    EXPECT_EQ(dv.stats().refused, 1u);
    // Reversed roles: refused as well, never downgraded to the side that could run.
    DualVerifier rev(pure_only, pqsig_provider(), m);
    EXPECT_TRUE(rev.verify(it).refused);
  }
  EXPECT_EQ(pure_only->prepares.load(), 0) << "a refused check runs neither provider";
  // Without the context, the same pair checks normally.
  DualVerifier dv(pqsig_provider(), pure_only, Mode::enforce);
  EXPECT_TRUE(dv.verify(b.items[0]).accepted);
}

TEST(DualFaults, UnsupportedInterfacesAreTypedErrors) {
  const Block b = make_block(2, 4);
  auto pure_only = std::make_shared<FaultProvider>(Fault::accept_all, pp::kPure);
  const SuiteInfo& s = *find_suite("ml-dsa-44").value();
  pp::VerifyOptions ph;
  ph.prehash = hash::PreHash::sha2_256;
  Status st = pure_only->verify(s, b.pks[0], b.msgs[0], b.sigs[0], ph);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Errc::unsupported);
  pp::VerifyOptions internal;
  internal.input = pp::VerifyOptions::Input::internal;
  st = pure_only->verify(s, b.pks[0], b.msgs[0], b.sigs[0], internal);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Errc::unsupported);
  // verify_single applies the same check.
  Item it = b.items[0];
  it.opt = ph;
  EXPECT_EQ(verify_single(*pure_only, it).error().code, Errc::unsupported);
  EXPECT_EQ(pure_only->prepares.load(), 0);
}

TEST(KeyCacheTest, LruBoundedSharedAndKeyedByThePublicKey) {
  const SuiteInfo& s = *find_suite("ml-dsa-44").value();
  std::vector<bytes> pks;
  for (int i = 0; i < 3; ++i) {
    auto sk = SigningKey::generate(s).value();
    pks.emplace_back(sk.public_key().begin(), sk.public_key().end());
  }
  KeyCache cache(2);
  auto p = pqsig_provider();
  auto k0 = cache.get(*p, s, pks[0]).value();
  EXPECT_EQ(cache.get(*p, s, pks[0]).value().get(), k0.get()) << "a hit returns the same prepared key";
  cache.get(*p, s, pks[1]).value();
  cache.get(*p, s, pks[0]).value();  // 0 is now most recent; 1 is the LRU
  cache.get(*p, s, pks[2]).value();  // evicts 1
  auto c = cache.counters();
  EXPECT_EQ(c.size, 2u);
  EXPECT_EQ(c.evictions, 1u);
  EXPECT_EQ(cache.get(*p, s, pks[0]).value().get(), k0.get());
  const auto misses = cache.counters().misses;
  cache.get(*p, s, pks[1]).value();
  EXPECT_EQ(cache.counters().misses, misses + 1) << "the evicted key is decoded again";
  // A malformed key is an error and is not cached.
  bytes bad(10, 0);
  EXPECT_FALSE(cache.get(*p, s, bad).ok());
  EXPECT_EQ(cache.counters().size, 2u);
  // Shared by threads.
  std::vector<std::thread> ts;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        auto k = cache.get(*p, s, pks[(i + t) % 3]);
        if (!k || (*k)->public_key().size() != pks[0].size()) ++failures;
      }
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LE(cache.counters().size, 2u);
}

TEST(KeyCacheTest, PrecomputedDigestHitsTheSameEntryAndAWrongOneNeverGivesAnotherKey) {
  const SuiteInfo& s = *find_suite("ml-dsa-44").value();
  auto a = SigningKey::generate(s).value();
  auto b = SigningKey::generate(s).value();
  const bytes pa(a.public_key().begin(), a.public_key().end()), pb(b.public_key().begin(), b.public_key().end());
  KeyCache cache(8);
  auto p = pqsig_provider();
  auto ka = cache.get(*p, s, pa).value();
  EXPECT_EQ(cache.get(*p, s, pa, KeyCache::digest(pa)).value().get(), ka.get()) << "same entry as get(pk)";
  EXPECT_EQ(cache.counters().hits, 1u);
  // pb presented with pa's digest: the key bytes differ, so it is decoded (never pa's key).
  auto kb = cache.get(*p, s, pb, KeyCache::digest(pa)).value();
  EXPECT_NE(kb.get(), ka.get());
  EXPECT_EQ(to_hex(kb->public_key()), to_hex(pb));
  EXPECT_EQ(cache.counters().misses, 2u);
  // A dual check hashes pk once for both sides: both sides hit on the second check of a key.
  DualVerifier dv(pqsig_provider(), pqsig_provider(), Mode::enforce, std::make_shared<KeyCache>(8));
  const bytes msg = {4, 2};
  const bytes sig = a.sign(msg).value();
  EXPECT_TRUE(dv.verify(s, pa, msg, sig).accepted);
  EXPECT_TRUE(dv.verify(s, pa, msg, sig).accepted);
}

TEST(ThreadPoolTest, ReusedAcrossRunsEveryIndexOnce) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3u);
  for (std::size_t n : {0u, 1u, 2u, 7u, 1000u}) {
    for (int rep = 0; rep < 20; ++rep) {
      std::vector<std::atomic<int>> hits(n);
      pool.run(n, [&](std::size_t i) { ++hits[i]; });
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n " << n << " i " << i;
    }
  }
}

TEST(BlockTest, ParallelVerdictsInInputOrderEqualSequential) {
  const Block b = make_block(40, 5);
  auto late = std::make_shared<FaultProvider>(Fault::late);
  DualVerifier seq(pqsig_provider(), late, Mode::shadow);
  DualVerifier par(pqsig_provider(), late, Mode::shadow, std::make_shared<KeyCache>(4));
  ThreadPool pool(4);
  const auto a = verify_block(seq, b.items, nullptr);
  const auto c = verify_block(par, b.items, &pool);
  const auto d = verify_block(par, b.items, &pool);  // the pool again
  ASSERT_EQ(a.size(), b.items.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].accepted, b.valid[i]) << i;
    EXPECT_EQ(c[i].accepted, a[i].accepted) << i;
    EXPECT_EQ(d[i].accepted, a[i].accepted) << i;
    EXPECT_EQ(c[i].disagreement, false) << i;
  }
  EXPECT_EQ(par.stats().total, 2 * b.items.size());
  EXPECT_EQ(par.stats().disagreements, 0u);
}
