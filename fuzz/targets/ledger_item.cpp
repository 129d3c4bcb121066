// `pqsig ledger verify` lines / batch "provider" items (src/ledger/item_wire.cpp): any bytes
// of one line are either refused with a reason (nothing echoed but a safe "id": a number or a
// string of at most 256 bytes) or an item whose verification through the pqsig provider returns
// a verdict; the verdict line is one line of JSON; nothing else escapes.
#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "ledger/batch.hpp"
#include "ledger/item_wire.hpp"
#include "pqsig/provider.hpp"

PQSIG_FUZZ_TARGET(ledger_item) {
  namespace lc = pqsig::ledger;
  if (size > (std::size_t{1} << 20)) return 0;  // the CLI caps a line at 8 MiB; keep runs fast
  const auto line = pqsig::fuzz::as_text(data, size);
  if (line.find('\n') != std::string_view::npos) return 0;  // the session splits on LF
  lc::ItemLine r = lc::parse_item_line(line);
  if (r.id) {
    pqsig::fuzz::check(r.id->is_number() || (r.id->is_string() && r.id->get<std::string>().size() <= pqsig::batch::kMaxIdBytes),
                       "an unsafe id would be echoed");
  }
  nlohmann::json reply;
  if (!r.item) {
    pqsig::fuzz::check(!r.error.empty(), "a refused line without a reason");
    reply = nlohmann::json{{"ok", false}, {"error", r.error}};
  } else {
    static const auto pq = pqsig::provider::find("pqsig");
    pqsig::fuzz::check(pq.ok(), "the pqsig provider is missing");
    const pqsig::ledger::Item it = r.item->view();
    const pqsig::Status st = pq.value()->verify(*it.suite, it.pk, it.msg, it.sig, it.opt);  // a Status, whatever the bytes
    reply = nlohmann::json{{"ok", st.ok()}};
  }
  if (r.id) reply["id"] = *r.id;
  const std::string text = pqsig::batch::reply_text(reply);
  pqsig::fuzz::check(text.find('\n') == std::string::npos, "a verdict spans several lines");
  return 0;
}
