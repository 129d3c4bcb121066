// `pqsig ledger bench` (include/pqsig/price_ledger.hpp): the engine, beside price's measurement
// code and sharing it: the sample clock, the median and the load record (price/internal.hpp,
// sample_load / record_load), the environment (capture_environment) and the formatting (format_ns).
// tools/cmd_ledger.cpp parses the options and prints what the renderers here return.
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "jose/json_strict.hpp"
#include "ledger/item_wire.hpp"
#include "pqsig/price_ledger.hpp"
#include "price/internal.hpp"

namespace pqsig::price {
using json = nlohmann::json;

namespace {

namespace lbl = pqsig::ledger;
namespace lbp = pqsig::provider;

constexpr int kLbFirst = static_cast<int>(LedgerWay::first), kLbFirstCold = static_cast<int>(LedgerWay::first_cold),
              kLbSecond = static_cast<int>(LedgerWay::second), kLbEnforce = static_cast<int>(LedgerWay::enforce),
              kLbShadow = static_cast<int>(LedgerWay::shadow);

/// A refusal inside the run (bad option, unusable provider): becomes the run's Error.
struct LedgerBenchRefusal {
  Error error;
};

std::shared_ptr<const lbp::Provider> ledger_bench_provider(const std::string& name) {
  auto p = lbl::usable_provider(name);
  if (!p) throw LedgerBenchRefusal{Error{Errc::invalid_argument, p.error().message}};
  return *p;
}

/// A signature suite's signatures and the results measured on them.
struct LedgerBenchRun {
  LedgerBenchSuite res;
  std::vector<bytes> pks, msgs, sigs;  // valid signatures, one per key
  std::vector<bytes> bad;              // invalid: one byte flipped (bad[i] from sigs[i % M])
};

double ledger_thread_cpu_ns() { return detail::sample_clock_ns(true); }
double ledger_wall_ns() { return detail::sample_clock_ns(false); }

LedgerBenchReport ledger_bench_run(const LedgerBenchOptions& a) {
  LedgerBenchReport rep;
  auto first = ledger_bench_provider(a.first);
  auto second = ledger_bench_provider(a.second);
  {
    auto w = load_ledger_bench_workload(a.workload);
    if (!w) throw LedgerBenchRefusal{w.error()};
    rep.workload = std::move(*w);
  }
  const LedgerBenchWorkload& w = rep.workload;
  std::vector<std::string> suite_ids = a.suites;
  if (suite_ids.empty())
    suite_ids = {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "slh-dsa-sha2-128s", "slh-dsa-sha2-256s"};
  const unsigned rounds = std::max(1u, a.rounds);
  const unsigned n_samples = a.samples ? a.samples : (a.quick ? 40u : 400u);
  const std::uint64_t seed = a.seed ? a.seed : std::random_device{}();
  rep.seed = seed;
  rep.rounds = rounds;
  rep.samples_per_round = n_samples;
  std::mt19937_64 rng(seed);
  auto progress = [&](const std::string& s) {
    if (a.progress) a.progress(s);
  };

  rep.env = capture_environment();
  const LoadSnapshot load_before = sample_load();
  const double t_start = ledger_wall_ns();

  // ---- signatures (made with the pqsig suite API; both providers only verify)
  std::vector<LedgerBenchRun> runs;
  for (const auto& id : suite_ids) {
    auto s = parse_suite_ref(id);
    if (!s) throw LedgerBenchRefusal{Error{Errc::invalid_argument, s.error().message}};
    if ((*s)->cls != SuiteClass::signature)
      throw LedgerBenchRefusal{Error{Errc::invalid_argument, id + " is not a signature suite"}};
    for (const auto* p : {first.get(), second.get()})
      if (!(p->interfaces(**s) & lbp::kPure))
        throw LedgerBenchRefusal{Error{Errc::unsupported, std::string(p->name()) + " does not implement " + id +
                                                              " (see `pqsig ledger providers`)"}};
    LedgerBenchRun r;
    r.res.suite = *s;
    const bool slh = r.res.suite->family == Family::slh_dsa;
    r.res.reps = slh ? 1 : 4;
    const unsigned keys = slh ? (a.quick ? 2 : 4) : 16;
    progress("signing " + id);
    for (unsigned k = 0; k < keys; ++k) {
      auto sk = SigningKey::generate(*r.res.suite);
      if (!sk) throw LedgerBenchRefusal{Error{sk.error().code, sk.error().what()}};
      bytes msg(32);
      for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
      auto sig = sk->sign(msg);
      if (!sig) throw LedgerBenchRefusal{Error{sig.error().code, sig.error().what()}};
      r.pks.emplace_back(sk->public_key().begin(), sk->public_key().end());
      r.msgs.push_back(std::move(msg));
      r.sigs.push_back(std::move(sig.value()));
    }
    for (unsigned i = 0; i < 16; ++i) {
      bytes b = r.sigs[i % keys];
      const std::size_t pos = static_cast<std::size_t>(rng() % b.size());
      b[pos] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      r.bad.push_back(std::move(b));
    }
    runs.push_back(std::move(r));
  }

  // ---- the four ways (+ first cold), interleaved
  auto cache = std::make_shared<lbl::KeyCache>(4096);
  lbl::DualVerifier enforce(first, second, lbl::Mode::enforce, cache);
  lbl::DualVerifier shadow(first, second, lbl::Mode::shadow, cache);
  std::uint64_t checks = 0, disagreements = 0, unexpected = 0;
  auto note_disagreement = [&](const LedgerBenchRun& r, const lbl::Item& it, const char* what) {
    ++disagreements;
    if (rep.disagreement_records.size() < 32) {
      lbl::Disagreement d;
      d.suite = std::string(r.res.suite->id);
      d.pk.assign(it.pk.begin(), it.pk.end());
      d.msg.assign(it.msg.begin(), it.msg.end());
      d.sig.assign(it.sig.begin(), it.sig.end());
      rep.disagreement_records.emplace_back(std::move(d), what);
    }
  };

  for (unsigned round = 0; round < rounds; ++round) {
    for (auto& r : runs) {
      progress("round " + std::to_string(round + 1) + "/" + std::to_string(rounds) + "  " +
               std::string(r.res.suite->id) + "  (" + std::to_string(checks) + " checks, " +
               std::to_string(disagreements) + " disagreements)");
      const std::size_t M = r.sigs.size();
      for (unsigned i = 0; i < n_samples; ++i) {
        for (int valid = 1; valid >= 0; --valid) {
          const std::size_t k = valid ? i % M : (i % r.bad.size()) % M;
          lbl::Item it{r.res.suite, r.pks[k], r.msgs[k], valid ? byte_span(r.sigs[k]) : byte_span(r.bad[i % r.bad.size()]),
                       {}};
          bool res[kLedgerWays]{};
          lbl::Verdict ve, vs;
          for (int step = 0; step < kLedgerWays; ++step) {
            const int way = static_cast<int>((step + i + round) % kLedgerWays);
            const double c0 = ledger_thread_cpu_ns(), w0 = ledger_wall_ns();
            bool ok = false;
            for (unsigned rep_i = 0; rep_i < r.res.reps; ++rep_i) {
              switch (way) {
                case kLbFirst: ok = lbl::verify_single(*first, it, cache.get()).ok(); break;
                case kLbFirstCold: ok = lbl::verify_single(*first, it, nullptr).ok(); break;
                case kLbSecond: ok = lbl::verify_single(*second, it, cache.get()).ok(); break;
                case kLbEnforce: ve = enforce.verify(it); ok = ve.accepted; break;
                case kLbShadow: vs = shadow.verify(it); ok = vs.accepted; break;
                default: break;
              }
            }
            const double cpu = (ledger_thread_cpu_ns() - c0) / r.res.reps;
            const double wall = (ledger_wall_ns() - w0) / r.res.reps;
            res[way] = ok;
            r.res.samples.push_back(LedgerBenchSample{round, static_cast<LedgerWay>(way), valid != 0, cpu, wall, ok});
          }
          // Checks: every answer of the second verifier compared with the first's on the same input.
          ++checks;
          if (res[kLbFirst] != res[kLbSecond]) note_disagreement(r, it, "first vs second alone");
          if (ve.second_ran) {
            ++checks;
            if (ve.disagreement) note_disagreement(r, it, "dual enforce");
          }
          ++checks;
          if (vs.disagreement) note_disagreement(r, it, "dual shadow");
          for (int wy = 0; wy < kLedgerWays; ++wy) unexpected += res[wy] != (valid != 0);
        }
      }
    }
  }

  // ---- statistics (price's median)
  for (auto& run : runs) {
    LedgerBenchSuite& r = run.res;
    for (int valid = 0; valid < 2; ++valid)
      for (int wy = 0; wy < kLedgerWays; ++wy) {
        std::vector<double> cpu, wall;
        std::vector<std::vector<double>> per_round(rounds);
        for (const auto& s : r.samples)
          if (s.valid == (valid != 0) && static_cast<int>(s.way) == wy) {
            cpu.push_back(s.cpu_ns);
            wall.push_back(s.wall_ns);
            per_round[s.round].push_back(s.cpu_ns);
          }
        r.med_cpu[valid][wy] = detail::median_of(std::move(cpu));
        r.med_wall[valid][wy] = detail::median_of(std::move(wall));
        double lo = 1e300, hi = 0;
        for (auto& pr : per_round) {
          const double m = detail::median_of(std::move(pr));
          lo = std::min(lo, m);
          hi = std::max(hi, m);
        }
        r.spread_bp[valid][wy] = r.med_cpu[valid][wy] > 0 ? 10000.0 * (hi - lo) / r.med_cpu[valid][wy] : 0;
      }
  }
  double ref = 0;
  for (const auto& run : runs)
    if (run.res.suite->id == "ml-dsa-44") ref = run.res.med_cpu[1][kLbEnforce];
  for (auto& run : runs) {
    LedgerBenchSuite& r = run.res;
    r.vu_estimate = lbl::verify_units(r.med_cpu[1][kLbEnforce], ref);
    auto c = w.consensus_vu.find(std::string(r.suite->id));
    r.vu_consensus = c != w.consensus_vu.end() ? c->second : 0;
  }

  // ---- worst-case blocks, measured: 1 core, then all cores (same pool reused), 3 times each
  lbl::ThreadPool one(1), all(a.jobs);
  rep.threads = static_cast<unsigned>(all.size());
  for (auto& run : runs) {
    LedgerBenchSuite& r = run.res;
    const std::uint64_t vu = r.vu_consensus ? r.vu_consensus : r.vu_estimate;
    if (vu == 0) continue;
    r.block_sigs = w.block_budget_vu / vu;
    if (a.quick) r.block_sigs = std::min<std::uint64_t>(r.block_sigs, 200);
    std::vector<lbl::Item> items;
    items.reserve(r.block_sigs);
    for (std::uint64_t i = 0; i < r.block_sigs; ++i) {
      const std::size_t k = i % run.sigs.size();
      items.push_back(lbl::Item{r.suite, run.pks[k], run.msgs[k], run.sigs[k], {}});
    }
    r.block_estimate_ms = static_cast<double>(r.block_sigs) * r.med_cpu[1][kLbEnforce] / 1e6;
    r.block_est_first_ms = static_cast<double>(r.block_sigs) * r.med_cpu[1][kLbFirst] / 1e6;
    std::vector<double> w1, wa, c1, ca, pa;
    for (int rep_i = 0; rep_i < 3; ++rep_i) {
      progress("block " + std::string(r.suite->id) + " (" + std::to_string(r.block_sigs) + " signatures) " +
               std::to_string(rep_i + 1) + "/3");
      for (lbl::ThreadPool* pool : {&one, &all}) {
        lbl::DualVerifier dv(first, second, lbl::Mode::enforce, cache);
        std::vector<lbl::Verdict> verdicts(items.size());
        // Per-thread CPU time of the block: its largest share is the block's critical path on
        // dedicated cores (what the wall clock shows on an idle machine).
        std::mutex mu;
        std::map<std::thread::id, double> per_thread;
        const double w0 = ledger_wall_ns();
        pool->run(items.size(), [&](std::size_t i) {
          const double t0 = ledger_thread_cpu_ns();
          verdicts[i] = dv.verify(items[i]);
          const double d = ledger_thread_cpu_ns() - t0;
          std::lock_guard<std::mutex> lock(mu);
          per_thread[std::this_thread::get_id()] += d;
        });
        const double wall = (ledger_wall_ns() - w0) / 1e6;
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
    r.block_one_ms = detail::median_of(std::move(w1));
    r.block_all_ms = detail::median_of(std::move(wa));
    r.block_one_cpu_ms = detail::median_of(std::move(c1));
    r.block_all_cpu_ms = detail::median_of(std::move(ca));
    r.block_all_path_ms = detail::median_of(std::move(pa));
  }
  record_load(rep.env, load_before, sample_load());
  rep.run_seconds = (ledger_wall_ns() - t_start) / 1e9;
  rep.first_version = first->info().version;
  rep.second_version = second->info().version;
  rep.checks = checks;
  rep.disagreements = disagreements;
  rep.unexpected = unexpected;
  const auto cc = cache->counters();
  rep.key_cache_hits = cc.hits;
  rep.key_cache_misses = cc.misses;
  for (auto& run : runs) rep.suites.push_back(std::move(run.res));
  return rep;
}

json ledger_bench_env_json(const LedgerBenchReport& r) {
  const Environment& env = r.env;
  return json{{"cpu_model", env.cpu_model},
              {"cores", env.cores},
              {"os", env.os},
              {"compiler", env.compiler},
              {"build_type", env.build_type},
              {"pqsig_version", env.version},
              {"commit", env.commit},
              {"date_utc", env.date_utc},
              {"hostname", env.hostname},
              {"load_before", detail::format_loadavg(env.load_before)},
              {"load_after", detail::format_loadavg(env.load_after)},
              {"first", r.first_version},
              {"second", r.second_version},
              {"seed", r.seed},
              {"rounds", r.rounds},
              {"samples_per_round", r.samples_per_round},
              {"run_seconds", r.run_seconds},
              {"timing", "per-sample thread CPU time (CLOCK_THREAD_CPUTIME_ID) and wall clock; tables: CPU medians"}};
}

json ledger_bench_suites_json(const LedgerBenchReport& rep) {
  json suites_j = json::array();
  for (const auto& r : rep.suites) {
    json s{{"suite", r.suite->id}, {"reps_per_sample", r.reps}};
    for (int valid = 1; valid >= 0; --valid) {
      json ways;
      for (int wy = 0; wy < kLedgerWays; ++wy)
        ways[ledger_way_name(static_cast<LedgerWay>(wy))] = {{"median_cpu_ns", r.med_cpu[valid][wy]},
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
                  {"threads", rep.threads},
                  {"all_cores_critical_path_cpu_ms", r.block_all_path_ms},
                  {"speedup", r.block_all_ms > 0 ? r.block_one_ms / r.block_all_ms : 0},
                  {"speedup_cpu_fair", r.block_all_path_ms > 0 ? r.block_one_cpu_ms / r.block_all_path_ms : 0},
                  {"all_accepted", r.block_all_accepted}};
    suites_j.push_back(std::move(s));
  }
  return suites_j;
}

json ledger_bench_summary_json(const LedgerBenchReport& r) {
  json records = json::array();
  for (const auto& [d, where] : r.disagreement_records) {
    json j = lbl::item_json(d);
    j["where"] = where;
    records.push_back(std::move(j));
  }
  return json{{"checks", r.checks},
              {"disagreements", r.disagreements},
              {"unexpected_verdicts", r.unexpected},
              {"disagreement_records", records},
              {"block_budget_vu", r.workload.block_budget_vu},
              {"key_cache", {{"hits", r.key_cache_hits}, {"misses", r.key_cache_misses}}}};
}

std::string ledger_bench_pct(double x, double base) {
  return base > 0 ? std::to_string(static_cast<int>(std::lround(100 * x / base))) + " %" : std::string("-");
}

std::string ledger_bench_line(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string ledger_bench_line(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return {};
  return std::string(buf, std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buf - 1));
}

}  // namespace

const char* ledger_way_name(LedgerWay w) noexcept {
  switch (w) {
    case LedgerWay::first: return "first";
    case LedgerWay::first_cold: return "first-cold";
    case LedgerWay::second: return "second";
    case LedgerWay::enforce: return "dual-enforce";
    case LedgerWay::shadow: return "dual-shadow";
  }
  return "?";
}

// {"consensus_vu": {"suite": n, ...}, "block_budget_vu": n}; strict, at most 64 KiB.
Result<LedgerBenchWorkload> load_ledger_bench_workload(const std::string& path) {
  LedgerBenchWorkload w;
  if (path.empty()) return w;
  auto bad = [](std::string m) { return Error{Errc::invalid_argument, std::move(m)}; };
  std::ifstream f(path, std::ios::binary);
  if (!f) return bad("cannot read workload file " + path);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (text.size() > 65536) return bad("workload file larger than 64 KiB");
  auto parsed = jose::detail::parse_strict<json>(text, "workload");  // the library's strict JSON reader
  if (!parsed) return bad(parsed.error().message);
  const json& j = *parsed;
  if (!j.is_object()) return bad("workload: must be a JSON object");
  for (const auto& [k, v] : j.items()) {
    if (k == "block_budget_vu") {
      if (!v.is_number_unsigned() || v.get<std::uint64_t>() == 0 || v.get<std::uint64_t>() > 1000000000ULL)
        return bad("workload: block_budget_vu must be an integer in 1..1e9");
      w.block_budget_vu = v.get<std::uint64_t>();
    } else if (k == "consensus_vu") {
      if (!v.is_object()) return bad("workload: consensus_vu must be an object");
      w.consensus_vu.clear();
      for (const auto& [s, n] : v.items()) {
        if (!find_suite(s)) return bad("workload: unknown suite '" + s + "' in consensus_vu");
        if (!n.is_number_unsigned() || n.get<std::uint64_t>() == 0 || n.get<std::uint64_t>() > 100000000ULL)
          return bad("workload: consensus_vu." + s + " must be an integer in 1..1e8");
        w.consensus_vu[s] = n.get<std::uint64_t>();
      }
    } else {
      return bad("workload: unknown key '" + k + "'");
    }
  }
  return w;
}

Result<LedgerBenchReport> run_ledger_bench(const LedgerBenchOptions& o) {
  try {
    return ledger_bench_run(o);
  } catch (const LedgerBenchRefusal& e) {
    return e.error;
  }
}

std::string render_ledger_bench_json(const LedgerBenchReport& r) {
  return json{{"environment", ledger_bench_env_json(r)}, {"suites", ledger_bench_suites_json(r)},
              {"summary", ledger_bench_summary_json(r)}}
             .dump(2) +
         "\n";
}

std::string render_ledger_bench_jsonl(const LedgerBenchReport& r) {
  std::string out = json{{"type", "environment"}, {"environment", ledger_bench_env_json(r)}}.dump() + "\n";
  for (const auto& s : r.suites)
    for (const auto& x : s.samples)
      out += json{{"type", "sample"},    {"suite", s.suite->id},  {"round", x.round},
                  {"way", ledger_way_name(x.way)}, {"valid", x.valid}, {"cpu_ns", x.cpu_ns},
                  {"wall_ns", x.wall_ns}, {"accepted", x.accepted}}
                 .dump() +
             "\n";
  for (const auto& s : ledger_bench_suites_json(r)) out += json{{"type", "suite"}, {"result", s}}.dump() + "\n";
  out += json{{"type", "summary"}, {"summary", ledger_bench_summary_json(r)}}.dump() + "\n";
  return out;
}

std::string render_ledger_bench_text(const LedgerBenchReport& rep) {
  const Environment& env = rep.env;
  const unsigned threads = rep.threads;
  const std::string load_before = detail::format_loadavg(env.load_before), load_after = detail::format_loadavg(env.load_after);
  std::string o;
  o += ledger_bench_line("pqsig ledger bench: first = %s, second = %s\n", rep.first_version.c_str(),
                         rep.second_version.c_str());
  o += ledger_bench_line("%s, %u cores, %s; load %s before, %s after; %.0f s; seed %llu\n", env.cpu_model.c_str(),
                         env.cores, env.os.c_str(), load_before.c_str(), load_after.c_str(), rep.run_seconds,
                         static_cast<unsigned long long>(rep.seed));
  if (env.busy) o += "busy machine: " + env.busy_reason + "\n";
  o += ledger_bench_line("%u rounds x %u samples per suite, interleaved; medians of thread CPU time per signature\n\n",
                         rep.rounds, rep.samples_per_round);
  o += ledger_bench_line("Valid signatures (%% of first alone)\n%-20s %12s %20s %20s %20s %12s\n", "suite", "first",
                         "second", "dual enforce", "dual shadow", "first cold");
  for (const auto& r : rep.suites) {
    const double* m = r.med_cpu[1];
    o += ledger_bench_line("%-20s %12s %20s %20s %20s %12s\n", std::string(r.suite->id).c_str(), format_ns(m[kLbFirst]).c_str(),
                           (format_ns(m[kLbSecond]) + " (" + ledger_bench_pct(m[kLbSecond], m[kLbFirst]) + ")").c_str(),
                           (format_ns(m[kLbEnforce]) + " (" + ledger_bench_pct(m[kLbEnforce], m[kLbFirst]) + ")").c_str(),
                           (format_ns(m[kLbShadow]) + " (" + ledger_bench_pct(m[kLbShadow], m[kLbFirst]) + ")").c_str(),
                           format_ns(m[kLbFirstCold]).c_str());
  }
  o += ledger_bench_line("\nInvalid signatures, one byte flipped (%% of first alone)\n%-20s %12s %20s %20s %20s\n", "suite",
                         "first", "second", "dual enforce", "dual shadow");
  for (const auto& r : rep.suites) {
    const double* m = r.med_cpu[0];
    o += ledger_bench_line("%-20s %12s %20s %20s %20s\n", std::string(r.suite->id).c_str(), format_ns(m[kLbFirst]).c_str(),
                           (format_ns(m[kLbSecond]) + " (" + ledger_bench_pct(m[kLbSecond], m[kLbFirst]) + ")").c_str(),
                           (format_ns(m[kLbEnforce]) + " (" + ledger_bench_pct(m[kLbEnforce], m[kLbFirst]) + ")").c_str(),
                           (format_ns(m[kLbShadow]) + " (" + ledger_bench_pct(m[kLbShadow], m[kLbFirst]) + ")").c_str());
  }
  double worst_bp = 0;
  for (const auto& r : rep.suites)
    for (int v = 0; v < 2; ++v)
      for (int wy = 0; wy < kLedgerWays; ++wy) worst_bp = std::max(worst_bp, r.spread_bp[v][wy]);
  o += ledger_bench_line("\nLargest spread between rounds (median of a round vs all): %.0f bp\n", worst_bp);
  o += ledger_bench_line("Checks: %llu (second verifier's answer compared with the first's), disagreements: %llu, "
                         "unexpected verdicts: %llu\n",
                         static_cast<unsigned long long>(rep.checks), static_cast<unsigned long long>(rep.disagreements),
                         static_cast<unsigned long long>(rep.unexpected));
  o += ledger_bench_line("\nVerify Units under dual enforce: VU = ceil(100 x median / median of ml-dsa-44)\n%-20s %10s %10s %8s\n",
                         "suite", "estimate", "consensus", "covers");
  for (const auto& r : rep.suites)
    o += ledger_bench_line("%-20s %10s %10s %8s\n", std::string(r.suite->id).c_str(),
                           r.vu_estimate ? std::to_string(r.vu_estimate).c_str() : "- (no ml-dsa-44)",
                           r.vu_consensus ? std::to_string(r.vu_consensus).c_str() : "-",
                           r.vu_consensus && r.vu_estimate ? (r.vu_consensus >= r.vu_estimate ? "yes" : "NO") : "-");
  o += ledger_bench_line("\nWorst-case block (%llu VU), dual enforce, MEASURED (median of 3) beside the estimate\n"
                         "wall = elapsed; CPU-fair = 1-core CPU time / largest per-thread CPU time of the %u-thread run;\n"
                         "CPU all = the %u-thread run's CPU time over all threads (above CPU 1 core: the cores slowed each other)\n"
                         "%-28s %10s %10s %10s %10s %9s %12s %12s %12s %9s\n",
                         static_cast<unsigned long long>(rep.workload.block_budget_vu), threads, threads,
                         "suite (signatures)", "est.first", "est.dual", "1 core", (std::to_string(threads) + " thr").c_str(),
                         "speedup", "CPU 1 core", "CPU all", "CPU path", "CPU-fair");
  for (const auto& r : rep.suites) {
    if (!r.block_sigs) continue;
    o += ledger_bench_line("%-28s %7.1f ms %7.1f ms %7.1f ms %7.1f ms %8.2fx %9.1f ms %9.1f ms %9.1f ms %8.2fx%s\n",
                           (std::string(r.suite->id) + " (" + std::to_string(r.block_sigs) + ")").c_str(),
                           r.block_est_first_ms, r.block_estimate_ms, r.block_one_ms, r.block_all_ms,
                           r.block_all_ms > 0 ? r.block_one_ms / r.block_all_ms : 0.0, r.block_one_cpu_ms,
                           r.block_all_cpu_ms, r.block_all_path_ms,
                           r.block_all_path_ms > 0 ? r.block_one_cpu_ms / r.block_all_path_ms : 0.0,
                           r.block_all_accepted ? "" : "  (NOT all accepted!)");
  }
  return o;
}

}  // namespace pqsig::price
