// pqsig — the ledger node's double verification: every signature is checked by two independent
// providers (include/pqsig/provider.hpp), in enforce mode (reject if either rejects; the second
// is skipped when the first rejects) or shadow mode (both always run; the first decides;
// disagreements are counted and recorded with the inputs that caused them). A check that cannot
// run both sides (a suite, context, pre-hash or input form one provider lacks) is refused, never
// downgraded to one verifier. Blocks are verified in parallel on a reusable thread pool, with
// every verdict in input order, and priced in Verify Units.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/provider.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::ledger {

using provider::PreparedKey;
using provider::Provider;
using provider::VerifyOptions;

/// One signature to check. Views: the caller keeps the bytes alive while it is verified.
struct Item {
  const SuiteInfo* suite = nullptr;
  byte_span pk, msg, sig;
  VerifyOptions opt{};
};

/// One verifier as a function: Ok for a valid signature, Errc::verify_failed (or another error)
/// otherwise. Must be thread-safe if used from several threads.
using VerifyFn = std::function<Status(const SuiteInfo& suite, byte_span pub, byte_span msg, byte_span sig)>;
/// A VerifyFn as a provider implementing the pure interface of every signature suite (tests,
/// custom verifiers).
std::shared_ptr<const Provider> function_provider(std::string name, VerifyFn fn);

/// Bounded LRU cache of prepared verifying keys, keyed by (provider, suite, SHA-256 of the public
/// key), shared by threads. A hit also compares the key bytes, so a digest collision cannot
/// substitute a key.
class KeyCache {
 public:
  explicit KeyCache(std::size_t capacity = 4096);
  ~KeyCache();
  KeyCache(const KeyCache&) = delete;
  KeyCache& operator=(const KeyCache&) = delete;

  using Digest = std::array<std::uint8_t, 32>;  ///< SHA-256 of a public key: the cache key's core
  static Digest digest(byte_span pk) noexcept;
  Result<std::shared_ptr<const PreparedKey>> get(const Provider& p, const SuiteInfo& suite, byte_span pk);
  /// The same with SHA-256(pk) already computed (a dual check hashes each key once for both
  /// sides). A hit still compares the key bytes, so a wrong digest can only cause a miss.
  Result<std::shared_ptr<const PreparedKey>> get(const Provider& p, const SuiteInfo& suite, byte_span pk,
                                                 const Digest& pk_sha256);
  struct Counters {
    std::uint64_t hits = 0, misses = 0, evictions = 0;
    std::size_t size = 0, capacity = 0;
  };
  Counters counters() const;
  void clear();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

enum class Mode { enforce, shadow };
std::string_view mode_name(Mode m) noexcept;

struct Verdict {
  bool accepted = false;     ///< the decision the node acts on
  bool first_ok = false;
  bool second_ran = false;
  bool second_ok = false;
  bool disagreement = false; ///< both ran and disagreed
  bool refused = false;      ///< not checked: a provider lacks what the item needs (never downgraded)
  std::string reason;        ///< why rejected / refused
};

/// The inputs of one disagreement, enough to replay it.
struct Disagreement {
  std::string suite;
  bytes pk, msg, sig, ctx;
  std::optional<hash::PreHash> prehash;
  VerifyOptions::Input input = VerifyOptions::Input::message;
  bool first_ok = false, second_ok = false;
  std::string first_reason, second_reason;
};

struct Stats {
  std::uint64_t total = 0, accepted = 0, rejected = 0, second_skipped = 0, disagreements = 0, refused = 0;
};

class DualVerifier {
 public:
  /// `cache` null → every check decodes the key from bytes (cold). Up to `max_records`
  /// disagreements are kept with their inputs; all are counted.
  DualVerifier(std::shared_ptr<const Provider> first, std::shared_ptr<const Provider> second, Mode mode,
               std::shared_ptr<KeyCache> cache = nullptr, std::size_t max_records = 64);
  DualVerifier(VerifyFn first, VerifyFn second, Mode mode, std::string first_name = "first",
               std::string second_name = "second");

  /// Thread-safe. Never throws: a provider that throws is a rejection by that provider.
  Verdict verify(const Item& item);
  Verdict verify(const SuiteInfo& suite, byte_span pub, byte_span msg, byte_span sig);

  Stats stats() const noexcept;
  std::vector<Disagreement> disagreements() const;
  Mode mode() const noexcept { return mode_; }
  const Provider& first() const noexcept { return *first_; }
  const Provider& second() const noexcept { return *second_; }

 private:
  Status check(const Provider& p, const Item& item, const KeyCache::Digest* pk_sha256 = nullptr) const;
  void record(const Item& item, const Verdict& v, const std::string& r1, const std::string& r2);

  std::shared_ptr<const Provider> first_, second_;
  Mode mode_;
  std::shared_ptr<KeyCache> cache_;
  std::size_t max_records_;
  std::atomic<std::uint64_t> total_{0}, accepted_{0}, rejected_{0}, skipped_{0}, disagreements_{0}, refused_{0};
  mutable std::mutex records_mu_;
  std::vector<Disagreement> records_;
};

/// One provider alone (the "first verifier alone" of the benchmark), with the same interface
/// check, key cache and exception safety as DualVerifier.
Status verify_single(const Provider& p, const Item& item, KeyCache* cache = nullptr) noexcept;

/// A fixed set of worker threads, reused across calls. run(n, fn) calls fn(i) once for every
/// i in [0, n) on the workers and the calling thread, and returns when all are done.
class ThreadPool {
 public:
  /// `threads` = total parallelism including the caller (0 → hardware concurrency).
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }
  void run(std::size_t n, const std::function<void(std::size_t)>& fn);

 private:
  void worker_loop();
  void drain();
  std::vector<std::thread> workers_;
  std::mutex run_mu_;  // one run at a time
  std::mutex mu_;
  std::condition_variable wake_, done_;
  const std::function<void(std::size_t)>* fn_ = nullptr;
  std::size_t n_ = 0;
  std::atomic<std::size_t> next_{0};
  std::uint64_t generation_ = 0;
  unsigned pending_ = 0;
  bool stop_ = false;
};

/// Verify a block: one verdict per item, in input order, spread over the pool (null → this thread).
std::vector<Verdict> verify_block(DualVerifier& dv, std::span<const Item> items, ThreadPool* pool = nullptr);

/// The pqsig suite API as a VerifyFn (decodes the public key on every call).
VerifyFn pqsig_verifier();

/// Verify Units (issue: VU = ceil(100 × median verify / median verify of ML-DSA-44)).
std::uint64_t verify_units(double median_verify_ns, double mldsa44_median_verify_ns) noexcept;

}  // namespace pqsig::ledger
