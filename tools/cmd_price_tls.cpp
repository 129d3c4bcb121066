// `pqsig price --tls`: the options of the TLS surface and the call into the engine
// (src/price/tls.cpp). Kept apart from cmd_price.cpp, which only registers these options and
// hands over when --tls is given.
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "pqsig/price_tls.hpp"

namespace pqsig::cli {

namespace {

// The workload-level values (per round, parties, budget, chain depth, certs, groups) come from the
// workload's `tls` object; an option given on the command line overrides it (CLI11 counts it).
struct PriceTlsArgs {
  bool tls = false;
  std::string certs, groups;
  std::size_t handshakes = 50;
  std::size_t per_round = 0;
  std::size_t parties = 0;
  double budget_ms = 0;
  std::size_t chain_depth = 0;
  CLI::Option *certs_opt = nullptr, *groups_opt = nullptr, *per_round_opt = nullptr, *parties_opt = nullptr,
              *budget_opt = nullptr, *chain_depth_opt = nullptr;
};
PriceTlsArgs g_price_tls;

bool price_tls_given(const CLI::Option* o) { return o && o->count() > 0; }

std::atomic<bool> g_price_tls_interrupt{false};
extern "C" void price_tls_on_sigint(int) {
  if (g_price_tls_interrupt.exchange(true)) {  // second Ctrl-C: quit now
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
  }
}

}  // namespace

void add_price_tls_options(CLI::App& price) {
  auto& a = g_price_tls;
  price.add_flag("--tls", a.tls,
                 "measure the TLS surface only: full mutual TLS 1.3 handshakes through the loaded libssl per "
                 "certificate algorithm x key-exchange group (CPU per side, bytes, chain bytes) and their verdicts "
                 "against the workload's handshakes per round and latency budget (its tls object; the --tls-* "
                 "options override it) (OpenSSL >= 3.5 for ML-DSA and ML-KEM)");
  a.certs_opt = price.add_option("--tls-certs", a.certs,
                                 "certificate algorithms for --tls (overrides the workload's tls.certs; default all): "
                                 "rsa-2048, ecdsa-p256, ed25519, ml-dsa-44, ml-dsa-65, ml-dsa-87");
  a.groups_opt = price.add_option("--tls-groups", a.groups,
                                  "key-exchange groups for --tls (overrides the workload's tls.groups; default all): "
                                  "X25519, X25519MLKEM768, MLKEM768");
  price.add_option("--tls-handshakes", a.handshakes, "measured handshakes per --tls row, after one warm-up (default 50)")
      ->check(CLI::Range(std::size_t{1}, price::kTlsMaxHandshakes));
  a.per_round_opt = price.add_option("--tls-per-round", a.per_round,
                                     "handshakes per round for the --tls verdicts (overrides the workload's "
                                     "tls.handshakes_per_round; default 42: 7 parties x 12 connections, 2 per pair)")
                        ->check(CLI::Range(std::size_t{1}, price::kTlsMaxPerRound));
  a.parties_opt = price.add_option("--tls-parties", a.parties,
                                   "parties sharing the round's handshakes; each is in 2 x per-round / parties of "
                                   "them (overrides the workload's tls.parties; default 7)")
                      ->check(CLI::Range(std::size_t{1}, price::kTlsMaxParties));
  a.budget_opt = price.add_option("--tls-budget-ms", a.budget_ms,
                                  "latency budget in ms for the party latency a row adds vs rsa-2048 x X25519 "
                                  "(overrides the workload's tls.latency_budget_ms; default 5)")
                     ->check(CLI::PositiveNumber);
  a.chain_depth_opt = price.add_option("--tls-chain-depth", a.chain_depth,
                                       "intermediate CAs between the trusted root and each leaf; each side sends its "
                                       "leaf and these (overrides the workload's tls.chain_depth; default 1; 0 = leaf "
                                       "issued by the root)")
                          ->check(CLI::Range(std::size_t{0}, price::kTlsMaxChainDepth));
}

void apply_price_tls_overrides(price::Workload& w) {
  const auto& a = g_price_tls;
  if (price_tls_given(a.certs_opt)) {
    auto c = price::parse_tls_certs(a.certs);
    if (!c) throw Exit{kExitUsage, c.error().message};
    w.tls.certs = c->empty() ? price::tls_cert_names() : std::move(c.value());
  }
  if (price_tls_given(a.groups_opt)) {
    auto g = price::parse_tls_groups(a.groups);
    if (!g) throw Exit{kExitUsage, g.error().message};
    w.tls.groups = g->empty() ? price::tls_group_names() : std::move(g.value());
  }
  if (price_tls_given(a.per_round_opt)) w.tls.handshakes_per_round = a.per_round;
  if (price_tls_given(a.parties_opt)) w.tls.parties = a.parties;
  if (price_tls_given(a.budget_opt)) w.tls.latency_budget_ms = a.budget_ms;
  if (price_tls_given(a.chain_depth_opt)) w.tls.chain_depth = a.chain_depth;
}

bool run_price_tls_if_requested(const price::Workload& w, bool json, bool no_progress, bool other_outputs) {
  const auto& a = g_price_tls;
  if (!a.tls) return false;
  if (other_outputs)
    throw Exit{kExitUsage, "--tls measures the TLS surface only: --jsonl, --html and --engine do not apply (--json does)"};
  // The workload's tls object, with the --tls-* options already applied (apply_price_tls_overrides).
  price::TlsOptions o = price::tls_options_from_workload(w.tls);
  o.handshakes = a.handshakes;
  o.cancel = &g_price_tls_interrupt;
  struct sigaction sa{}, old{};
  sa.sa_handler = price_tls_on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);
  auto rep = price::measure_tls(o, [&](const std::string& row) {
    if (!no_progress) std::fprintf(stderr, "pqsig price --tls: %s\n", row.c_str());
  });
  sigaction(SIGINT, &old, nullptr);
  if (json) std::cout << "{\"tls\": " << price::render_tls_json(rep) << "}\n";
  else std::cout << price::render_tls_text(rep);
  std::cout.flush();
  if (rep.interrupted) throw Exit{130, ""};  // 128 + SIGINT, like price
  for (const auto& r : rep.rows)
    if (r.state == price::TlsRowState::error)
      throw Exit{kExitInvalid, "tls: " + r.cert + " x " + r.group + ": " + r.reason};
  return true;
}

}  // namespace pqsig::cli
