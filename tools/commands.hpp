// The pqsig CLI: each concern registers its subcommands. Exit codes everywhere:
// 0 = success / valid, 1 = invalid signature or policy not satisfied, 2 = usage or input error.
#pragma once
#include <CLI/CLI.hpp>

namespace pqsig::price {
struct Workload;  // include/pqsig/price.hpp
}

namespace pqsig::cli {
constexpr int kExitOk = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitUsage = 2;

/// Thrown by a command to end with an exit code and a one-line reason on stderr.
struct Exit {
  int code;
  std::string message;
};

void register_suites(CLI::App& app);     // cmd_suites.cpp
void register_keys(CLI::App& app);       // cmd_keys.cpp: keygen, pubkey, sign, verify
void register_key_records(CLI::App& app);// cmd_key.cpp: key rotate, key check
void register_batch(CLI::App& app);      // cmd_batch.cpp (dispatcher) + batch_*.cpp (families)
void register_kem(CLI::App& app);        // cmd_kem.cpp
void register_price(CLI::App& app);      // cmd_price.cpp
void add_price_tls_options(CLI::App& price);                   // cmd_price_tls.cpp: price --tls*
void apply_price_tls_overrides(price::Workload& w);            // cmd_price_tls.cpp: --tls-* over the workload's tls
bool run_price_tls_if_requested(const price::Workload& w, bool json, bool no_progress,
                                bool other_outputs);           // cmd_price_tls.cpp: true = --tls ran
void register_sf(CLI::App& app);         // cmd_sf.cpp
void register_http(CLI::App& app);       // cmd_http.cpp: http sign|verify|base, directory ...
void register_ledger(CLI::App& app);     // cmd_ledger.cpp: ledger providers|verify|bench
void register_serve(CLI::App& app);      // cmd_serve.cpp: serve verify|directory
void register_fetch(CLI::App& app);      // cmd_fetch.cpp: fetch (signing client)
}  // namespace pqsig::cli
