// The ledger item wire format (JSON, hex byte fields) and the `pqsig ledger verify` session: one
// item per line in, one verdict per line out. Shared by the CLI (`pqsig ledger verify`), batch's
// "provider" member (batch_provider.cpp), `pqsig ledger bench`'s disagreement records
// (src/price/ledger_bench.cpp), the tests and the fuzzers.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "pqsig/ledger.hpp"

namespace pqsig::ledger {

/// An item of `ledger verify` owning its bytes: batch's verify members ("alg", "pk", "msg" | "mu",
/// "sig", optional "ctx", "prehash", "interface"), hex.
struct OwnedItem {
  const SuiteInfo* suite = nullptr;
  bytes pk, msg, sig, ctx;
  VerifyOptions opt;
  Item view() const;
};
/// Parse one item (throws std::invalid_argument with the reason on a malformed item).
OwnedItem parse_item(const nlohmann::json& j);
/// The item as JSON (the same members), e.g. to replay a disagreement.
nlohmann::json item_json(const Disagreement& d);
/// Longest line of `ledger verify` (enforced while reading).
inline constexpr std::size_t kMaxItemLineBytes = 8u << 20;
/// One line of `ledger verify`: the item, or why it was refused; the "id" when safe to echo
/// (batch::echo_id: a number or a short string).
struct ItemLine {
  std::optional<OwnedItem> item;
  std::optional<nlohmann::json> id;
  std::string error;
};
/// Parse one line (never throws): strict JSON (batch::parse_request), then parse_item.
ItemLine parse_item_line(std::string_view line);
/// A verdict as the JSON of `ledger verify`.
nlohmann::json verdict_json(const Verdict& v);
struct VerifySessionStats {
  std::uint64_t lines = 0;     ///< verdict lines written (one per input line)
  std::uint64_t errors = 0;    ///< lines that were not an item (malformed, empty, too long)
  std::uint64_t too_long = 0;  ///< lines refused by the cap
};
/// `ledger verify`'s loop: reads lines (bounded: batch::LineReader), verifies items in chunks of
/// 512 through `dv` on `pool`, writes exactly one verdict line per input line, in order. Never
/// throws on input; the caller writes the summary.
VerifySessionStats run_verify_session(std::istream& in, std::ostream& out, DualVerifier& dv, ThreadPool* pool,
                                      std::size_t max_line_bytes = kMaxItemLineBytes);
/// A provider by name that is available here; else Errc::invalid_argument with the reason
/// ("provider 'x' is not available: ...").
Result<std::shared_ptr<const Provider>> usable_provider(const std::string& name);

}  // namespace pqsig::ledger
