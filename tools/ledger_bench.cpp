// `pqsig ledger bench`: the seed's second-verifier benchmark on this machine, with whatever
// providers are present. Four ways of checking the same signatures (first alone, second alone,
// dual enforce, dual shadow) plus the first verifier cold (key decoded from bytes every time),
// interleaved (the order rotates every sample), three rounds, median over all samples, spread
// between rounds in basis points; valid and invalid (one byte flipped) signatures per suite; every
// check counted and every disagreement reported; Verify Units under enforce beside the consensus
// constants of a workload file; the worst-case block MEASURED with the parallel verifier on 1 core
// and on all cores beside the single-signature estimate.
//
// Timing: each sample times `reps` verifications of one signature with the thread's CPU clock
// (CLOCK_THREAD_CPUTIME_ID: fair on a shared machine) and the wall clock; tables show CPU-time
// medians, --json / --jsonl carry both. Blocks are timed by wall clock and process CPU time.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "batch.hpp"
#include "commands.hpp"
#include "ledger_cli.hpp"
#include "pqsig/price.hpp"

namespace pqsig::cli::ledger {
namespace pl = pqsig::ledger;
namespace pp = pqsig::provider;

namespace {

enum Way { kFirst, kFirstCold, kSecond, kEnforce, kShadow, kWays };
constexpr const char* kWayNames[kWays] = {"first", "first-cold", "second", "dual-enforce", "dual-shadow"};

struct BenchArgs {
  std::string first = "pqsig", second = "liboqs";
  std::vector<std::string> suites;
  bool quick = false, as_json = false, no_progress = false;
  std::string jsonl, workload;
  unsigned rounds = 3, samples = 0, jobs = 0;
  std::uint64_t seed = 0;
};

struct Workload {
  std::map<std::string, std::uint64_t> consensus_vu{
      {"ml-dsa-44", 100}, {"ml-dsa-87", 290}, {"slh-dsa-sha2-128s", 1600}, {"slh-dsa-sha2-256s", 3600}};
  std::uint64_t block_budget_vu = 200000;
};

// {"consensus_vu": {"suite": n, ...}, "block_budget_vu": n}; strict, at most 64 KiB.
Workload load_workload(const std::string& path) {
  Workload w;
  if (path.empty()) return w;
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Exit{kExitUsage, "cannot read workload file " + path};
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (text.size() > 65536) throw Exit{kExitUsage, "workload file larger than 64 KiB"};
  json j;
  try {
    j = batch::parse_request(text, "workload");  // the library's strict JSON reader
  } catch (const batch::BadRequest& e) {
    throw Exit{kExitUsage, e.what()};
  }
  if (!j.is_object()) throw Exit{kExitUsage, "workload: must be a JSON object"};
  for (const auto& [k, v] : j.items()) {
    if (k == "block_budget_vu") {
      if (!v.is_number_unsigned() || v.get<std::uint64_t>() == 0 || v.get<std::uint64_t>() > 1000000000ULL)
        throw Exit{kExitUsage, "workload: block_budget_vu must be an integer in 1..1e9"};
      w.block_budget_vu = v.get<std::uint64_t>();
    } else if (k == "consensus_vu") {
      if (!v.is_object()) throw Exit{kExitUsage, "workload: consensus_vu must be an object"};
      w.consensus_vu.clear();
      for (const auto& [s, n] : v.items()) {
        if (!find_suite(s)) throw Exit{kExitUsage, "workload: unknown suite '" + s + "' in consensus_vu"};
        if (!n.is_number_unsigned() || n.get<std::uint64_t>() == 0 || n.get<std::uint64_t>() > 100000000ULL)
          throw Exit{kExitUsage, "workload: consensus_vu." + s + " must be an integer in 1..1e8"};
        w.consensus_vu[s] = n.get<std::uint64_t>();
      }
    } else {
      throw Exit{kExitUsage, "workload: unknown key '" + k + "'"};
    }
  }
  return w;
}

std::int64_t clock_ns(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

std::string loadavg() {
  std::ifstream f("/proc/loadavg");
  std::string a, b, c;
  if (f >> a >> b >> c) return a + " " + b + " " + c;
  return "unknown";
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string human_ns(double ns) {
  char buf[32];
  if (ns >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
  else if (ns >= 1e3)
    std::snprintf(buf, sizeof buf, "%.1f us", ns / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  return buf;
}

struct Sample {
  unsigned round;
  Way way;
  bool valid;
  double cpu_ns, wall_ns;  // per signature
  bool ok;
};

struct SuiteRun {
  const SuiteInfo* suite = nullptr;
  std::vector<bytes> pks, msgs, sigs;  // valid signatures, one per key
  std::vector<bytes> bad;              // invalid: one byte flipped (bad[i] from sigs[i % M])
  std::vector<std::size_t> bad_pos;
  unsigned reps = 1;
  std::vector<Sample> samples;
  // results
  double med_cpu[2][kWays]{}, med_wall[2][kWays]{};
  double spread_bp[2][kWays]{};
  std::uint64_t vu_estimate = 0, vu_consensus = 0;
  std::uint64_t block_sigs = 0;
  double block_estimate_ms = 0, block_est_first_ms = 0;
  double block_one_ms = 0, block_all_ms = 0, block_one_cpu_ms = 0, block_all_cpu_ms = 0, block_all_path_ms = 0;
  bool block_all_accepted = true;
};

void run_bench(const BenchArgs& a) {
  auto first = usable_provider(a.first);
  auto second = usable_provider(a.second);
  const Workload w = load_workload(a.workload);
  std::vector<std::string> suite_ids = a.suites;
  if (suite_ids.empty())
    suite_ids = {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "slh-dsa-sha2-128s", "slh-dsa-sha2-256s"};
  const unsigned rounds = std::max(1u, a.rounds);
  const unsigned n_samples = a.samples ? a.samples : (a.quick ? 40u : 400u);
  const std::uint64_t seed = a.seed ? a.seed : std::random_device{}();
  std::mt19937_64 rng(seed);
  const bool tty = isatty(STDERR_FILENO) != 0;
  auto progress = [&](const std::string& s) {
    if (a.no_progress) return;
    if (tty)
      std::fprintf(stderr, "\r\033[K[ledger bench] %s", s.c_str());
    else
      std::fprintf(stderr, "[ledger bench] %s\n", s.c_str());
  };

  const price::Environment env = price::capture_environment();
  const std::string load_before = loadavg();
  const std::int64_t t_start = clock_ns(CLOCK_MONOTONIC);

  // ---- signatures (made with the pqsig suite API; both providers only verify)
  std::vector<SuiteRun> runs;
  for (const auto& id : suite_ids) {
    auto s = parse_suite_ref(id);
    if (!s) throw Exit{kExitUsage, s.error().message};
    if ((*s)->cls != SuiteClass::signature) throw Exit{kExitUsage, id + " is not a signature suite"};
    for (const auto* p : {first.get(), second.get()})
      if (!(p->interfaces(**s) & pp::kPure))
        throw Exit{kExitUsage, std::string(p->name()) + " does not implement " + id + " (see `pqsig ledger providers`)"};
    SuiteRun r;
    r.suite = *s;
    const bool slh = r.suite->family == Family::slh_dsa;
    r.reps = slh ? 1 : 4;
    const unsigned keys = slh ? (a.quick ? 2 : 4) : 16;
    progress("signing " + id);
    for (unsigned k = 0; k < keys; ++k) {
      auto sk = SigningKey::generate(*r.suite);
      if (!sk) throw Exit{kExitUsage, sk.error().what()};
      bytes msg(32);
      for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
      auto sig = sk->sign(msg);
      if (!sig) throw Exit{kExitUsage, sig.error().what()};
      r.pks.emplace_back(sk->public_key().begin(), sk->public_key().end());
      r.msgs.push_back(std::move(msg));
      r.sigs.push_back(std::move(sig.value()));
    }
    for (unsigned i = 0; i < 16; ++i) {
      bytes b = r.sigs[i % keys];
      const std::size_t pos = static_cast<std::size_t>(rng() % b.size());
      b[pos] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      r.bad.push_back(std::move(b));
      r.bad_pos.push_back(pos);
    }
    runs.push_back(std::move(r));
  }

  // ---- the four ways (+ first cold), interleaved
  auto cache = std::make_shared<pl::KeyCache>(4096);
  pl::DualVerifier enforce(first, second, pl::Mode::enforce, cache);
  pl::DualVerifier shadow(first, second, pl::Mode::shadow, cache);
  std::uint64_t checks = 0, disagreements = 0, unexpected = 0;
  std::vector<json> disagreement_records;
  auto note_disagreement = [&](const SuiteRun& r, const pl::Item& it, const char* what) {
    ++disagreements;
    if (disagreement_records.size() < 32) {
      pl::Disagreement d;
      d.suite = std::string(r.suite->id);
      d.pk.assign(it.pk.begin(), it.pk.end());
      d.msg.assign(it.msg.begin(), it.msg.end());
      d.sig.assign(it.sig.begin(), it.sig.end());
      json j = item_json(d);
      j["where"] = what;
      disagreement_records.push_back(std::move(j));
    }
  };

  for (unsigned round = 0; round < rounds; ++round) {
    for (auto& r : runs) {
      progress("round " + std::to_string(round + 1) + "/" + std::to_string(rounds) + "  " + std::string(r.suite->id) +
               "  (" + std::to_string(checks) + " checks, " + std::to_string(disagreements) + " disagreements)");
      const std::size_t M = r.sigs.size();
      for (unsigned i = 0; i < n_samples; ++i) {
        for (int valid = 1; valid >= 0; --valid) {
          const std::size_t k = valid ? i % M : (i % r.bad.size()) % M;
          pl::Item it{r.suite, r.pks[valid ? k : (i % r.bad.size()) % M], r.msgs[valid ? k : (i % r.bad.size()) % M],
                      valid ? byte_span(r.sigs[k]) : byte_span(r.bad[i % r.bad.size()]), {}};
          bool res[kWays]{};
          pl::Verdict ve, vs;
          for (int step = 0; step < kWays; ++step) {
            const Way way = static_cast<Way>((step + i + round) % kWays);
            const std::int64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), w0 = clock_ns(CLOCK_MONOTONIC);
            bool ok = false;
            for (unsigned rep = 0; rep < r.reps; ++rep) {
              switch (way) {
                case kFirst: ok = pl::verify_single(*first, it, cache.get()).ok(); break;
                case kFirstCold: ok = pl::verify_single(*first, it, nullptr).ok(); break;
                case kSecond: ok = pl::verify_single(*second, it, cache.get()).ok(); break;
                case kEnforce: ve = enforce.verify(it); ok = ve.accepted; break;
                case kShadow: vs = shadow.verify(it); ok = vs.accepted; break;
                case kWays: break;
              }
            }
            const double cpu = static_cast<double>(clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / r.reps;
            const double wall = static_cast<double>(clock_ns(CLOCK_MONOTONIC) - w0) / r.reps;
            res[way] = ok;
            r.samples.push_back(Sample{round, way, valid != 0, cpu, wall, ok});
          }
          // Checks: every answer of the second verifier compared with the first's on the same input.
          ++checks;
          if (res[kFirst] != res[kSecond]) note_disagreement(r, it, "first vs second alone");
          if (ve.second_ran) {
            ++checks;
            if (ve.disagreement) note_disagreement(r, it, "dual enforce");
          }
          ++checks;
          if (vs.disagreement) note_disagreement(r, it, "dual shadow");
          for (int wy = 0; wy < kWays; ++wy) unexpected += res[wy] != (valid != 0);
        }
      }
    }
  }

  // ---- statistics
  for (auto& r : runs) {
    for (int valid = 0; valid < 2; ++valid)
      for (int wy = 0; wy < kWays; ++wy) {
        std::vector<double> cpu, wall;
        std::vector<std::vector<double>> per_round(rounds);
        for (const auto& s : r.samples)
          if (s.valid == (valid != 0) && s.way == wy) {
            cpu.push_back(s.cpu_ns);
            wall.push_back(s.wall_ns);
            per_round[s.round].push_back(s.cpu_ns);
          }
        r.med_cpu[valid][wy] = median(cpu);
        r.med_wall[valid][wy] = median(wall);
        double lo = 1e300, hi = 0;
        for (auto& pr : per_round) {
          const double m = median(pr);
          lo = std::min(lo, m);
          hi = std::max(hi, m);
        }
        r.spread_bp[valid][wy] = r.med_cpu[valid][wy] > 0 ? 10000.0 * (hi - lo) / r.med_cpu[valid][wy] : 0;
      }
  }
  double ref = 0;
  for (const auto& r : runs)
    if (r.suite->id == "ml-dsa-44") ref = r.med_cpu[1][kEnforce];
  for (auto& r : runs) {
    r.vu_estimate = pl::verify_units(r.med_cpu[1][kEnforce], ref);
    auto c = w.consensus_vu.find(std::string(r.suite->id));
    r.vu_consensus = c != w.consensus_vu.end() ? c->second : 0;
  }

  // ---- worst-case blocks, measured: 1 core, then all cores (same pool reused), 3 times each
  pl::ThreadPool one(1), all(a.jobs);
  for (auto& r : runs) {
    const std::uint64_t vu = r.vu_consensus ? r.vu_consensus : r.vu_estimate;
    if (vu == 0) continue;
    r.block_sigs = w.block_budget_vu / vu;
    if (a.quick) r.block_sigs = std::min<std::uint64_t>(r.block_sigs, 200);
    std::vector<pl::Item> items;
    items.reserve(r.block_sigs);
    for (std::uint64_t i = 0; i < r.block_sigs; ++i) {
      const std::size_t k = i % r.sigs.size();
      items.push_back(pl::Item{r.suite, r.pks[k], r.msgs[k], r.sigs[k], {}});
    }
    r.block_estimate_ms = static_cast<double>(r.block_sigs) * r.med_cpu[1][kEnforce] / 1e6;
    r.block_est_first_ms = static_cast<double>(r.block_sigs) * r.med_cpu[1][kFirst] / 1e6;
    std::vector<double> w1, wa, c1, ca, pa;
    for (int rep = 0; rep < 3; ++rep) {
      progress("block " + std::string(r.suite->id) + " (" + std::to_string(r.block_sigs) + " signatures) " +
               std::to_string(rep + 1) + "/3");
      for (pl::ThreadPool* pool : {&one, &all}) {
        pl::DualVerifier dv(first, second, pl::Mode::enforce, cache);
        std::vector<pl::Verdict> verdicts(items.size());
        // Per-thread CPU time of the block: its largest share is the block's critical path on
        // dedicated cores (what the wall clock shows on an idle machine).
        std::mutex mu;
        std::map<std::thread::id, double> per_thread;
        const std::int64_t w0 = clock_ns(CLOCK_MONOTONIC);
        pool->run(items.size(), [&](std::size_t i) {
          const std::int64_t t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
          verdicts[i] = dv.verify(items[i]);
          const double d = static_cast<double>(clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0);
          std::lock_guard<std::mutex> lock(mu);
          per_thread[std::this_thread::get_id()] += d;
        });
        const double wall = static_cast<double>(clock_ns(CLOCK_MONOTONIC) - w0) / 1e6;
        double cpu = 0, path = 0;
        for (const auto& [tid, ns] : per_thread) {
          cpu += ns / 1e6;
          path = std::max(path, ns / 1e6);
        }
        for (const auto& v : verdicts) r.block_all_accepted = r.block_all_accepted && v.accepted;
        (pool == &one ? w1 : wa).push_back(wall);
        (pool == &one ? c1 : ca).push_back(cpu);
        if (pool == &all) pa.push_back(path);
      }
    }
    r.block_one_ms = median(w1);
    r.block_all_ms = median(wa);
    r.block_one_cpu_ms = median(c1);
    r.block_all_cpu_ms = median(ca);
    r.block_all_path_ms = median(pa);
  }
  if (!a.no_progress && tty) std::fprintf(stderr, "\r\033[K");
  const std::string load_after = loadavg();
  const double run_s = static_cast<double>(clock_ns(CLOCK_MONOTONIC) - t_start) / 1e9;

  // ---- report
  const pp::ProviderInfo i1 = first->info(), i2 = second->info();
  json env_j{{"cpu_model", env.cpu_model},
             {"cores", env.cores},
             {"os", env.os},
             {"compiler", env.compiler},
             {"build_type", env.build_type},
             {"pqsig_version", env.version},
             {"commit", env.commit},
             {"date_utc", env.date_utc},
             {"hostname", env.hostname},
             {"load_before", load_before},
             {"load_after", load_after},
             {"first", i1.version},
             {"second", i2.version},
             {"seed", seed},
             {"rounds", rounds},
             {"samples_per_round", n_samples},
             {"run_seconds", run_s},
             {"timing", "per-sample thread CPU time (CLOCK_THREAD_CPUTIME_ID) and wall clock; tables: CPU medians"}};
  json suites_j = json::array();
  for (const auto& r : runs) {
    json s{{"suite", r.suite->id}, {"reps_per_sample", r.reps}};
    for (int valid = 1; valid >= 0; --valid) {
      json ways;
      for (int wy = 0; wy < kWays; ++wy)
        ways[kWayNames[wy]] = {{"median_cpu_ns", r.med_cpu[valid][wy]},
                               {"median_wall_ns", r.med_wall[valid][wy]},
                               {"spread_bp", r.spread_bp[valid][wy]}};
      s[valid ? "valid" : "invalid"] = ways;
    }
    // No estimate (0) when ml-dsa-44, the VU reference, was not measured: nothing to cover.
    s["vu_estimate"] = r.vu_estimate ? json(r.vu_estimate) : json(nullptr);
    s["vu_consensus"] = r.vu_consensus ? json(r.vu_consensus) : json(nullptr);
    s["covers"] = r.vu_consensus && r.vu_estimate ? json(r.vu_consensus >= r.vu_estimate) : json(nullptr);
    s["block"] = {{"signatures", r.block_sigs},
                  {"estimate_first_ms", r.block_est_first_ms},
                  {"estimate_dual_ms", r.block_estimate_ms},
                  {"one_core_ms", r.block_one_ms},
                  {"all_cores_ms", r.block_all_ms},
                  {"one_core_cpu_ms", r.block_one_cpu_ms},
                  {"all_cores_cpu_ms", r.block_all_cpu_ms},
                  {"threads", all.size()},
                  {"all_cores_critical_path_cpu_ms", r.block_all_path_ms},
                  {"speedup", r.block_all_ms > 0 ? r.block_one_ms / r.block_all_ms : 0},
                  {"speedup_cpu_fair", r.block_all_path_ms > 0 ? r.block_one_cpu_ms / r.block_all_path_ms : 0},
                  {"all_accepted", r.block_all_accepted}};
    suites_j.push_back(std::move(s));
  }
  const auto cc = cache->counters();
  json summary{{"checks", checks},
               {"disagreements", disagreements},
               {"unexpected_verdicts", unexpected},
               {"disagreement_records", disagreement_records},
               {"block_budget_vu", w.block_budget_vu},
               {"key_cache", {{"hits", cc.hits}, {"misses", cc.misses}}}};

  if (!a.jsonl.empty()) {
    std::ofstream out(a.jsonl, std::ios::binary | std::ios::trunc);
    if (!out) throw Exit{kExitUsage, "cannot write " + a.jsonl};
    out << json{{"type", "environment"}, {"environment", env_j}}.dump() << '\n';
    for (const auto& r : runs)
      for (const auto& s : r.samples)
        out << json{{"type", "sample"}, {"suite", r.suite->id},     {"round", s.round}, {"way", kWayNames[s.way]},
                    {"valid", s.valid},  {"cpu_ns", s.cpu_ns},      {"wall_ns", s.wall_ns}, {"accepted", s.ok}}
                   .dump()
            << '\n';
    for (const auto& s : suites_j) out << json{{"type", "suite"}, {"result", s}}.dump() << '\n';
    out << json{{"type", "summary"}, {"summary", summary}}.dump() << '\n';
  }
  if (a.as_json) {
    std::cout << json{{"environment", env_j}, {"suites", suites_j}, {"summary", summary}}.dump(2) << "\n";
  } else {
    std::printf("pqsig ledger bench: first = %s, second = %s\n", i1.version.c_str(), i2.version.c_str());
    std::printf("%s, %u cores, %s; load %s before, %s after; %.0f s; seed %llu\n", env.cpu_model.c_str(), env.cores,
                env.os.c_str(), load_before.c_str(), load_after.c_str(), run_s, static_cast<unsigned long long>(seed));
    std::printf("%u rounds x %u samples per suite, interleaved; medians of thread CPU time per signature\n\n", rounds,
                n_samples);
    auto pct = [](double x, double base) { return base > 0 ? std::to_string(static_cast<int>(std::lround(100 * x / base))) + " %" : std::string("-"); };
    std::printf("Valid signatures (%% of first alone)\n%-20s %12s %20s %20s %20s %12s\n", "suite", "first", "second",
                "dual enforce", "dual shadow", "first cold");
    for (const auto& r : runs) {
      const double* m = r.med_cpu[1];
      std::printf("%-20s %12s %20s %20s %20s %12s\n", std::string(r.suite->id).c_str(), human_ns(m[kFirst]).c_str(),
                  (human_ns(m[kSecond]) + " (" + pct(m[kSecond], m[kFirst]) + ")").c_str(),
                  (human_ns(m[kEnforce]) + " (" + pct(m[kEnforce], m[kFirst]) + ")").c_str(),
                  (human_ns(m[kShadow]) + " (" + pct(m[kShadow], m[kFirst]) + ")").c_str(),
                  human_ns(m[kFirstCold]).c_str());
    }
    std::printf("\nInvalid signatures, one byte flipped (%% of first alone)\n%-20s %12s %20s %20s %20s\n", "suite",
                "first", "second", "dual enforce", "dual shadow");
    for (const auto& r : runs) {
      const double* m = r.med_cpu[0];
      std::printf("%-20s %12s %20s %20s %20s\n", std::string(r.suite->id).c_str(), human_ns(m[kFirst]).c_str(),
                  (human_ns(m[kSecond]) + " (" + pct(m[kSecond], m[kFirst]) + ")").c_str(),
                  (human_ns(m[kEnforce]) + " (" + pct(m[kEnforce], m[kFirst]) + ")").c_str(),
                  (human_ns(m[kShadow]) + " (" + pct(m[kShadow], m[kFirst]) + ")").c_str());
    }
    double worst_bp = 0;
    for (const auto& r : runs)
      for (int v = 0; v < 2; ++v)
        for (int wy = 0; wy < kWays; ++wy) worst_bp = std::max(worst_bp, r.spread_bp[v][wy]);
    std::printf("\nLargest spread between rounds (median of a round vs all): %.0f bp\n", worst_bp);
    std::printf("Checks: %llu (second verifier's answer compared with the first's), disagreements: %llu, "
                "unexpected verdicts: %llu\n",
                static_cast<unsigned long long>(checks), static_cast<unsigned long long>(disagreements),
                static_cast<unsigned long long>(unexpected));
    std::printf("\nVerify Units under dual enforce: VU = ceil(100 x median / median of ml-dsa-44)\n%-20s %10s %10s %8s\n",
                "suite", "estimate", "consensus", "covers");
    for (const auto& r : runs)
      std::printf("%-20s %10s %10s %8s\n", std::string(r.suite->id).c_str(),
                  r.vu_estimate ? std::to_string(r.vu_estimate).c_str() : "- (no ml-dsa-44)",
                  r.vu_consensus ? std::to_string(r.vu_consensus).c_str() : "-",
                  r.vu_consensus && r.vu_estimate ? (r.vu_consensus >= r.vu_estimate ? "yes" : "NO") : "-");
    std::printf("\nWorst-case block (%llu VU), dual enforce, MEASURED (median of 3) beside the estimate\n"
                "wall = elapsed; CPU-fair = 1-core CPU time / largest per-thread CPU time of the %u-thread run;\n"
                "CPU all = the %u-thread run's CPU time over all threads (above CPU 1 core: the cores slowed each other)\n"
                "%-28s %10s %10s %10s %10s %9s %12s %12s %12s %9s\n",
                static_cast<unsigned long long>(w.block_budget_vu), all.size(), all.size(), "suite (signatures)",
                "est.first", "est.dual", "1 core", (std::to_string(all.size()) + " thr").c_str(), "speedup",
                "CPU 1 core", "CPU all", "CPU path", "CPU-fair");
    for (const auto& r : runs) {
      if (!r.block_sigs) continue;
      std::printf("%-28s %7.1f ms %7.1f ms %7.1f ms %7.1f ms %8.2fx %9.1f ms %9.1f ms %9.1f ms %8.2fx%s\n",
                  (std::string(r.suite->id) + " (" + std::to_string(r.block_sigs) + ")").c_str(), r.block_est_first_ms,
                  r.block_estimate_ms, r.block_one_ms, r.block_all_ms,
                  r.block_all_ms > 0 ? r.block_one_ms / r.block_all_ms : 0.0, r.block_one_cpu_ms, r.block_all_cpu_ms,
                  r.block_all_path_ms,
                  r.block_all_path_ms > 0 ? r.block_one_cpu_ms / r.block_all_path_ms : 0.0,
                  r.block_all_accepted ? "" : "  (NOT all accepted!)");
    }
  }
  if (disagreements || unexpected) throw Exit{kExitInvalid, "disagreements or unexpected verdicts (see the summary)"};
}

}  // namespace

void register_bench(CLI::App& ledger) {
  auto* b = ledger.add_subcommand("bench", "The second-verifier benchmark: 4 ways, valid/invalid, VU, measured blocks");
  static BenchArgs a;
  b->add_option("--first", a.first, "first provider")->capture_default_str();
  b->add_option("--second", a.second, "second provider")->capture_default_str();
  b->add_option("--suites", a.suites, "suites (default: ml-dsa-44,ml-dsa-65,ml-dsa-87,slh-dsa-sha2-128s,slh-dsa-sha2-256s)")
      ->delimiter(',');
  b->add_flag("--quick", a.quick, "a run of a minute or two (40 samples per round, blocks capped at 200 signatures)");
  b->add_option("--rounds", a.rounds, "rounds")->capture_default_str();
  b->add_option("--samples", a.samples, "samples per suite per round (default 400, --quick 40)");
  b->add_option("--jobs", a.jobs, "threads for the all-core block (0 = all cores)")->capture_default_str();
  b->add_option("--workload", a.workload, "JSON: {\"consensus_vu\":{suite:VU},\"block_budget_vu\":N}");
  b->add_option("--seed", a.seed, "seed of the messages and flipped bytes (0 = random; printed)");
  b->add_flag("--json", a.as_json, "JSON report on stdout");
  b->add_option("--jsonl", a.jsonl, "write the environment, every raw sample and the results to FILE");
  b->add_flag("--no-progress", a.no_progress, "no progress line on stderr");
  b->callback([] { run_bench(a); });
}

}  // namespace pqsig::cli::ledger
