// `pqsig ledger verify` / batch "provider" items (tools/batch_ledger_item.cpp): any JSON line is
// either a typed refusal (std::invalid_argument) or an item whose verification through the pqsig
// provider returns a verdict; nothing else escapes.
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "ledger_cli.hpp"
#include "pqsig/provider.hpp"

PQSIG_FUZZ_TARGET(ledger_item) {
  if (size > (std::size_t{1} << 20)) return 0;  // the CLI caps a line at 8 MiB; keep runs fast
  auto j = nlohmann::json::parse(pqsig::fuzz::as_text(data, size), nullptr, false);
  if (j.is_discarded()) return 0;
  pqsig::cli::ledger::OwnedItem item;
  try {
    item = pqsig::cli::ledger::parse_item(j);
  } catch (const std::invalid_argument&) {
    return 0;  // refused with a reason
  }
  static const auto pq = pqsig::provider::find("pqsig");
  pqsig::fuzz::check(pq.ok(), "the pqsig provider is missing");
  const pqsig::ledger::Item it = item.view();
  (void)pq.value()->verify(*it.suite, it.pk, it.msg, it.sig, it.opt);  // a Status, whatever the bytes
  return 0;
}
