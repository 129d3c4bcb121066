// A Web Bot Auth request from a stranger: profile + policy verification with the drafts' key.
#include "harness.hpp"
#include "keys_fixture.hpp"
#include "pqsig/webbotauth.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(webbotauth_request) {
  if (size == 0) return 0;
  auto m = httpsig::parse_message(fuzz::as_text(data + 1, size - 1));
  if (!m) return 0;
  webbotauth::VerifierOptions o;
  o.now = 1735689600 + (data[0] & 0x0F) * 600;
  if (data[0] & 0x10) o.max_window = std::nullopt;
  httpsig::InMemoryNonceStore nonces;
  if (data[0] & 0x20) o.nonces = &nonces;
  o.require_nonce = data[0] & 0x40;
  auto rep = webbotauth::verify_request(m.value(), fuzz::test_keys(), o);
  (void)rep.to_json();
  // The one Signature-Agent parser and the key binding (issue 20).
  std::optional<webbotauth::SignatureAgents> agents;
  if (auto sa = m->get("signature-agent"))
    if (auto a = webbotauth::parse_signature_agent(*sa)) agents = std::move(a.value());
  if (auto f = httpsig::parse_signature_fields(m.value())) {
    for (const auto& [label, member] : f->input) {
      if (!member.is_inner_list) continue;
      std::string detail;
      httpsig::SignatureParams p{member.inner};
      (void)webbotauth::check_profile(m.value(), label, p, detail, nullptr);
      (void)webbotauth::bind_label_agent(agents ? &*agents : nullptr, label, p);
    }
  }
  return 0;
}
