// `pqsig ledger`: providers (what is available and why not; per suite its verification interfaces
// and other operations: keygen, sign, encaps, decaps), verify (dual verification of JSON
// Lines items, parallel, verdicts in input order, then a summary line), bench (ledger_bench.cpp).
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
// items are verified in chunks of 512 (memory stays bounded). The loop: run_verify_session.
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "batch.hpp"
#include "commands.hpp"
#include "ledger_cli.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/mldsa.hpp"

namespace pqsig::cli::ledger {
namespace pl = pqsig::ledger;
namespace pp = pqsig::provider;

namespace {

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
  const VerifySessionStats vs = run_verify_session(std::cin, std::cout, dv, &pool);
  const std::uint64_t errors = vs.errors;
  const pl::Stats st = dv.stats();
  json records = json::array();
  for (const auto& d : dv.disagreements()) {
    json r = item_json(d);
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
