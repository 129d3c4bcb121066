// tests/price_engines: a report with pqsig measured on small budgets (the anchor and checker the
// engines need) and helpers to run the CLI.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pqsig/price.hpp"
#include "pqsig/price_engines.hpp"

namespace pqsig::price::engines_fixture {

inline MeasureOptions tiny_options() {
  MeasureOptions o;
  o.budget_ms_per_op = 4;
  o.warmup_ms = 1;
  o.min_samples = 3;
  o.min_samples_slow = 1;
  o.distinct_messages = 8;
  return o;
}

// pqsig measured on the given suites with tiny budgets, analysed (the ledger reference too when
// ml-dsa-44 is among them).
inline Report measured_report(const std::vector<const SuiteInfo*>& suites) {
  Report rep;
  rep.workload = default_workload();
  rep.options = tiny_options();
  rep.env.cores = 2;
  for (const auto* s : suites) rep.suites.push_back(measure_suite(*s, rep.workload.request, rep.options));
  analyze(rep);
  return rep;
}

inline std::vector<const SuiteInfo*> suites_of(std::initializer_list<const char*> ids) {
  std::vector<const SuiteInfo*> v;
  for (const char* id : ids) v.push_back(find_suite(id).value());
  return v;
}

inline const EngineRun* run_of(const EngineReport& er, const std::string& name) {
  for (const auto& r : er.runs)
    if (r.name == name) return &r;
  return nullptr;
}

struct CmdRun {
  int code = -1;
  std::string out, err;
};

inline CmdRun run_cli(const std::string& args) {
  CmdRun r;
  const std::string errf = "/tmp/pqsig_engines_err_" + std::to_string(::getpid());
  // Under the OpenSSL 3.5 test driver (tests/providers/openssl35-run.sh sets PQSIG_OPENSSL35_RUN)
  // pqsig starts through the same loader as the test, so both see the same libcrypto.
  const char* run35 = std::getenv("PQSIG_OPENSSL35_RUN");
  const std::string wrap = run35 && *run35 ? "'" + std::string(run35) + "' " : std::string();
  std::string cmd = wrap + std::string(PQSIG_BINARY_DIR "/pqsig ") + args + " 2>" + errf;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  if (FILE* e = std::fopen(errf.c_str(), "r")) {
    while ((n = std::fread(buf, 1, sizeof buf, e)) > 0) r.err.append(buf, n);
    std::fclose(e);
  }
  std::remove(errf.c_str());
  return r;
}

}  // namespace pqsig::price::engines_fixture
