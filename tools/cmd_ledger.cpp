// `pqsig ledger`: providers (what is available and why not; per suite its verification interfaces
// and other operations: keygen, sign, encaps, decaps), verify (dual verification of JSON
// Lines items, parallel, verdicts in input order, then a summary line), bench (the engine is
// src/price/ledger_bench.cpp, include/pqsig/price_ledger.hpp; here its options and output).
//
//   pqsig ledger verify --first pqsig --second liboqs --mode enforce|shadow [--jobs N] < items.jsonl
//   item:    {"alg","pk","msg"|"mu","sig"[,"ctx"][,"prehash"][,"interface":"internal"][,"id"]}  (hex)
//   verdict: {"ok","first_ok","second_ok"(null when skipped),"disagreement"[,"refused"][,"reason"][,"id"]}
//            a malformed item: {"ok":false,"first_ok":null,"second_ok":null,"disagreement":false,"error"}
//   last:    {"summary":{"total","accepted","rejected","second_skipped","disagreements","refused","errors",
//            "first","second","mode","jobs","key_cache":{...},"disagreement_records":[item + verdicts]}}
//            a line that is not an item (malformed, empty, invalid UTF-8, too long) gets the error verdict;
//            "id" is echoed only when it is a number or a string of at most 256 bytes.
// Limits: a line is at most 8 MiB, enforced while reading (the rest of a longer line is discarded);
// items are verified in chunks of 512 (memory stays bounded). The loop: pqsig::ledger::run_verify_session
// (src/ledger/item_wire.hpp, the item wire format).
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ledger/batch.hpp"
#include "ledger/item_wire.hpp"
#include "pqsig/price_ledger.hpp"

namespace pqsig::cli::ledger {
namespace pl = pqsig::ledger;
namespace pp = pqsig::provider;
using json = nlohmann::json;

namespace {

/// A provider by name that is available here, or a usage error with the reason.
std::shared_ptr<const pp::Provider> usable_provider(const std::string& name) {
  auto p = pl::usable_provider(name);
  if (!p) throw Exit{kExitUsage, p.error().message};
  return *p;
}

void cmd_providers(bool as_json) {
  json arr = json::array();
  for (const auto& p : pp::all()) {
    const pp::ProviderInfo info = p->info();
    json suites = json::object(), ops = json::object();
    for (const auto& s : all_suites()) {
      if (const unsigned o = p->operations(s)) ops[std::string(s.id)] = pp::operation_names(o);
      if (s.cls != SuiteClass::signature) continue;
      const unsigned m = p->interfaces(s);
      if (m) suites[std::string(s.id)] = pp::interface_names(m);
    }
    arr.push_back({{"name", info.name}, {"available", info.available}, {"version", info.version},
                   {"reason", info.reason}, {"suites", suites}, {"operations", ops}});
  }
  if (as_json) {
    std::cout << json{{"providers", arr}}.dump(2) << "\n";
    return;
  }
  for (const auto& p : arr) {
    std::printf("%-8s %s  %s\n", p["name"].get<std::string>().c_str(),
                p["available"].get<bool>() ? "available  " : "unavailable",
                p["available"].get<bool>() ? p["version"].get<std::string>().c_str()
                                           : p["reason"].get<std::string>().c_str());
    for (const auto& [suite, ifaces] : p["suites"].items()) {
      std::string line = "verify: " + ifaces.get<std::string>();
      if (p["operations"].contains(suite)) line += "; " + p["operations"][suite].get<std::string>();
      std::printf("           %-22s %s\n", suite.c_str(), line.c_str());
    }
    for (const auto& [suite, o] : p["operations"].items())
      if (!p["suites"].contains(suite))
        std::printf("           %-22s %s\n", suite.c_str(), o.get<std::string>().c_str());
  }
}

struct VerifyArgs {
  std::string first = "pqsig", second = "liboqs", mode = "enforce";
  unsigned jobs = 0;
  std::size_t cache = 4096;
  std::size_t max_records = 64;
};

void cmd_verify(const VerifyArgs& a) {
  if (a.mode != "enforce" && a.mode != "shadow") throw Exit{kExitUsage, "--mode must be enforce or shadow"};
  auto first = usable_provider(a.first);
  auto second = usable_provider(a.second);
  auto cache = a.cache ? std::make_shared<pl::KeyCache>(a.cache) : nullptr;
  pl::DualVerifier dv(first, second, a.mode == "enforce" ? pl::Mode::enforce : pl::Mode::shadow, cache,
                      a.max_records);
  pl::ThreadPool pool(a.jobs);
  std::ios::sync_with_stdio(false);
  const pl::VerifySessionStats vs = pl::run_verify_session(std::cin, std::cout, dv, &pool);
  const std::uint64_t errors = vs.errors;
  const pl::Stats st = dv.stats();
  json records = json::array();
  for (const auto& d : dv.disagreements()) {
    json r = pl::item_json(d);
    r["first_ok"] = d.first_ok;
    r["second_ok"] = d.second_ok;
    r["first_reason"] = d.first_reason;
    r["second_reason"] = d.second_reason;
    records.push_back(std::move(r));
  }
  json summary{{"total", st.total + errors},
               {"accepted", st.accepted},
               {"rejected", st.rejected + errors},
               {"second_skipped", st.second_skipped},
               {"disagreements", st.disagreements},
               {"refused", st.refused},
               {"errors", errors},
               {"first", first->info().version},
               {"second", second->info().version},
               {"mode", a.mode},
               {"jobs", pool.size()},
               {"disagreement_records", records}};
  if (cache) {
    const auto c = cache->counters();
    summary["key_cache"] = {{"hits", c.hits}, {"misses", c.misses}, {"evictions", c.evictions},
                            {"capacity", c.capacity}};
  }
  std::cout << batch::reply_text(json{{"summary", summary}}) << '\n';
}

struct BenchArgs {
  price::LedgerBenchOptions opt;
  bool as_json = false, no_progress = false;
  std::string jsonl;
};

void cmd_bench(BenchArgs& a) {
  const bool tty = isatty(STDERR_FILENO) != 0;
  if (!a.no_progress)
    a.opt.progress = [tty](const std::string& s) {
      if (tty)
        std::fprintf(stderr, "\r\033[K[ledger bench] %s", s.c_str());
      else
        std::fprintf(stderr, "[ledger bench] %s\n", s.c_str());
    };
  auto rep = price::run_ledger_bench(a.opt);
  if (!a.no_progress && tty) std::fprintf(stderr, "\r\033[K");
  if (!rep) throw Exit{kExitUsage, rep.error().message};
  if (!a.jsonl.empty()) {
    std::ofstream out(a.jsonl, std::ios::binary | std::ios::trunc);
    if (!out) throw Exit{kExitUsage, "cannot write " + a.jsonl};
    out << price::render_ledger_bench_jsonl(*rep);
  }
  std::cout << (a.as_json ? price::render_ledger_bench_json(*rep) : price::render_ledger_bench_text(*rep));
  std::cout.flush();
  if (!rep->passed()) throw Exit{kExitInvalid, "disagreements or unexpected verdicts (see the summary)"};
}

void register_bench(CLI::App& ledger) {
  auto* b = ledger.add_subcommand("bench", "The second-verifier benchmark: 4 ways, valid/invalid, VU, measured blocks");
  static BenchArgs a;
  b->add_option("--first", a.opt.first, "first provider")->capture_default_str();
  b->add_option("--second", a.opt.second, "second provider")->capture_default_str();
  b->add_option("--suites", a.opt.suites, "suites (default: ml-dsa-44,ml-dsa-65,ml-dsa-87,slh-dsa-sha2-128s,slh-dsa-sha2-256s)")
      ->delimiter(',');
  b->add_flag("--quick", a.opt.quick, "a run of a minute or two (40 samples per round, blocks capped at 200 signatures)");
  b->add_option("--rounds", a.opt.rounds, "rounds")->capture_default_str();
  b->add_option("--samples", a.opt.samples, "samples per suite per round (default 400, --quick 40)");
  b->add_option("--jobs", a.opt.jobs, "threads for the all-core block (0 = all cores)")->capture_default_str();
  b->add_option("--workload", a.opt.workload, "JSON: {\"consensus_vu\":{suite:VU},\"block_budget_vu\":N}");
  b->add_option("--seed", a.opt.seed, "seed of the messages and flipped bytes (0 = random; printed)");
  b->add_flag("--json", a.as_json, "JSON report on stdout");
  b->add_option("--jsonl", a.jsonl, "write the environment, every raw sample and the results to FILE");
  b->add_flag("--no-progress", a.no_progress, "no progress line on stderr");
  b->callback([] { cmd_bench(a); });
}

}  // namespace
}  // namespace pqsig::cli::ledger

namespace pqsig::cli {
void register_ledger(CLI::App& app) {
  auto* cmd = app.add_subcommand("ledger", "Dual verification with two independent providers (ledger node)");
  cmd->require_subcommand(1);

  auto* prov = cmd->add_subcommand("providers", "List the providers: available or why not, suites, verification interfaces and operations");
  static bool prov_json = false;
  prov->add_flag("--json", prov_json, "JSON output");
  prov->callback([] { ledger::cmd_providers(prov_json); });

  auto* ver = cmd->add_subcommand("verify", "Verify JSON Lines items with two providers; a verdict per line, then a summary");
  static ledger::VerifyArgs va;
  ver->add_option("--first", va.first, "first provider (decides in shadow mode)")->capture_default_str();
  ver->add_option("--second", va.second, "second provider")->capture_default_str();
  ver->add_option("--mode", va.mode, "enforce (reject if either rejects) or shadow (first decides)")
      ->check(CLI::IsMember({"enforce", "shadow"}))
      ->capture_default_str();
  ver->add_option("--jobs", va.jobs, "threads (0 = all cores)")->capture_default_str();
  ver->add_option("--key-cache", va.cache, "verifying keys kept (LRU by public-key digest; 0 = decode every time)")
      ->capture_default_str();
  ver->add_option("--max-records", va.max_records, "disagreements reported with their inputs")->capture_default_str();
  ver->callback([] { ledger::cmd_verify(va); });

  ledger::register_bench(*cmd);
}
}  // namespace pqsig::cli
