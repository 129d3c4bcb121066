// `pqsig ledger`: shared pieces of cmd_ledger.cpp (providers, verify) and ledger_bench.cpp (bench).
#pragma once
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <memory>
#include <string>

#include "pqsig/ledger.hpp"

namespace pqsig::cli::ledger {
using json = nlohmann::json;

/// An item of `ledger verify` owning its bytes: batch's verify members ("alg", "pk", "msg" | "mu",
/// "sig", optional "ctx", "prehash", "interface"), hex.
struct OwnedItem {
  const SuiteInfo* suite = nullptr;
  bytes pk, msg, sig, ctx;
  pqsig::ledger::VerifyOptions opt;
  pqsig::ledger::Item view() const;
};
/// Parse one item (throws std::invalid_argument with the reason on a malformed item).
OwnedItem parse_item(const json& j);
/// The item as JSON (the same members), e.g. to replay a disagreement.
json item_json(const pqsig::ledger::Disagreement& d);
/// A provider by name that is available here, or a usage error (pqsig::cli::Exit) with the reason.
std::shared_ptr<const provider::Provider> usable_provider(const std::string& name);

void register_bench(CLI::App& ledger);  // ledger_bench.cpp
}  // namespace pqsig::cli::ledger
