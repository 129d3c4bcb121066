// `pqsig batch`: a verify request with a "provider" member ("pqsig", "liboqs", "openssl") is
// verified through that provider (include/pqsig/provider.hpp), so any vector file can be run
// through any provider. Same members as the family handlers' verify ("alg", "pk", "msg" | "mu",
// "sig", optional "ctx", "prehash", "interface"). A provider that lacks the suite or interface
// answers {"error": "unsupported: ..."}, never {"ok": false}.
#include <stdexcept>

#include "ledger/batch.hpp"
#include "ledger/item_wire.hpp"

namespace pqsig::batch {

json provider_verify(const json& req, const std::string& name) {
  auto p = ledger::usable_provider(name);
  if (!p) throw BadRequest(p.error().message);
  ledger::OwnedItem it;
  try {
    it = ledger::parse_item(req);
  } catch (const std::invalid_argument& e) {
    throw BadRequest(e.what());
  }
  const pqsig::ledger::Item v = it.view();
  const Status st = (*p)->verify(*v.suite, v.pk, v.msg, v.sig, v.opt);
  if (st) return json{{"ok", true}, {"provider", name}};
  if (st.error().code == Errc::unsupported) throw BadRequest(st.error().what());
  return json{{"ok", false}, {"reason", st.error().what()}, {"provider", name}};
}

}  // namespace pqsig::batch
