// pqsig — `pqsig ledger bench`: the seed's second-verifier benchmark on this machine, with whatever
// providers are present, measured with price's clocks, statistics, load record and formatting.
// Four ways of checking the same signatures (first alone, second alone, dual enforce, dual shadow)
// plus the first verifier cold (key decoded from bytes every time), interleaved (the order rotates
// every sample), several rounds, median over all samples, spread between rounds in basis points;
// valid and invalid (one byte flipped) signatures per suite; every check counted and every
// disagreement reported; Verify Units under enforce beside the consensus constants of a workload
// file; the worst-case block MEASURED with the parallel verifier on 1 core and on all cores beside
// the single-signature estimate. docs/ledger.md.
//
// Timing: each sample times `reps` verifications of one signature with the thread's CPU clock
// (CLOCK_THREAD_CPUTIME_ID: fair on a shared machine) and the wall clock; tables show CPU-time
// medians, the JSON reports carry both. Blocks are timed by wall clock and per-thread CPU time.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/ledger.hpp"
#include "pqsig/price.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::price {

/// The ways of checking one signature, in report order.
enum class LedgerWay : int { first, first_cold, second, enforce, shadow };
inline constexpr int kLedgerWays = 5;
/// "first", "first-cold", "second", "dual-enforce", "dual-shadow".
const char* ledger_way_name(LedgerWay w) noexcept;

struct LedgerBenchOptions {
  std::string first = "pqsig", second = "liboqs";
  /// Signature suites (empty: ml-dsa-44,ml-dsa-65,ml-dsa-87,slh-dsa-sha2-128s,slh-dsa-sha2-256s).
  std::vector<std::string> suites;
  bool quick = false;       ///< 40 samples per round (unless `samples`), blocks capped at 200 signatures
  unsigned rounds = 3;      ///< at least 1
  unsigned samples = 0;     ///< per suite per round; 0 = 400 (quick: 40)
  unsigned jobs = 0;        ///< threads of the all-core block; 0 = all cores
  std::uint64_t seed = 0;   ///< messages and flipped bytes; 0 = random (recorded in the report)
  std::string workload;     ///< path of {"consensus_vu": {suite: VU}, "block_budget_vu": N}; empty = defaults
  /// Progress lines ("signing ml-dsa-44", "round 1/3 ..."); none when empty.
  std::function<void(const std::string&)> progress;
};

/// The consensus constants the blocks are sized by.
struct LedgerBenchWorkload {
  std::map<std::string, std::uint64_t> consensus_vu{
      {"ml-dsa-44", 100}, {"ml-dsa-87", 290}, {"slh-dsa-sha2-128s", 1600}, {"slh-dsa-sha2-256s", 3600}};
  std::uint64_t block_budget_vu = 200000;
};
/// The workload file (strict JSON, at most 64 KiB; empty path = the defaults). Errc::invalid_argument
/// naming the file or the key.
Result<LedgerBenchWorkload> load_ledger_bench_workload(const std::string& path);

struct LedgerBenchSample {
  unsigned round = 0;
  LedgerWay way = LedgerWay::first;
  bool valid = true;
  double cpu_ns = 0, wall_ns = 0;  ///< per signature
  bool accepted = false;
};

struct LedgerBenchSuite {
  const SuiteInfo* suite = nullptr;
  unsigned reps = 1;  ///< verifications per sample
  std::vector<LedgerBenchSample> samples;
  /// [invalid = 0 | valid = 1][way]
  double med_cpu[2][kLedgerWays]{}, med_wall[2][kLedgerWays]{}, spread_bp[2][kLedgerWays]{};
  std::uint64_t vu_estimate = 0;   ///< 0: ml-dsa-44 (the VU reference) not measured
  std::uint64_t vu_consensus = 0;  ///< 0: not in the workload
  std::uint64_t block_sigs = 0;
  double block_estimate_ms = 0, block_est_first_ms = 0;
  double block_one_ms = 0, block_all_ms = 0, block_one_cpu_ms = 0, block_all_cpu_ms = 0, block_all_path_ms = 0;
  bool block_all_accepted = true;
};

struct LedgerBenchReport {
  Environment env;  ///< load_before / load_after / busy as `pqsig price` records them
  std::string first_version, second_version;
  std::uint64_t seed = 0;
  unsigned rounds = 0, samples_per_round = 0, threads = 0;
  double run_seconds = 0;
  LedgerBenchWorkload workload;
  std::vector<LedgerBenchSuite> suites;
  std::uint64_t checks = 0, disagreements = 0, unexpected = 0;
  /// The first 32 disagreements with their inputs and where they were seen.
  std::vector<std::pair<ledger::Disagreement, std::string>> disagreement_records;
  std::uint64_t key_cache_hits = 0, key_cache_misses = 0;
  /// No disagreement and no unexpected verdict.
  bool passed() const noexcept { return disagreements == 0 && unexpected == 0; }
};

/// Runs the benchmark. Errc::invalid_argument / unsupported for an unknown or unavailable
/// provider, a suite that is not a signature suite or that a provider lacks, a bad workload file.
Result<LedgerBenchReport> run_ledger_bench(const LedgerBenchOptions& o);

/// The tables of `pqsig ledger bench`.
std::string render_ledger_bench_text(const LedgerBenchReport& r);
/// {"environment", "suites", "summary"} (`--json`), indented.
std::string render_ledger_bench_json(const LedgerBenchReport& r);
/// One JSON object per line: environment, every raw sample, every suite, summary (`--jsonl`).
std::string render_ledger_bench_jsonl(const LedgerBenchReport& r);

}  // namespace pqsig::price
