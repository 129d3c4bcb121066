// RFC 9421 verification of an untrusted message: byte 0 selects the policy (vector times,
// relaxations, nonce store, a request for ;req), the rest is the HTTP message (for a response,
// an optional request follows a "\n\n----\n" separator). Every label gets a verdict; nothing
// throws; a valid label really verifies (its signature base is rebuilt and checked again).
#include "harness.hpp"
#include "keys_fixture.hpp"

using namespace pqsig;
using namespace pqsig::httpsig;

PQSIG_FUZZ_TARGET(httpsig_verify) {
  if (size == 0) return 0;
  const std::uint8_t ctl = data[0];
  std::string_view text = fuzz::as_text(data + 1, size - 1);
  std::string_view req_text;
  if (auto sep = text.find("\n\n----\n"); sep != std::string_view::npos) {
    req_text = text.substr(sep + 7);
    text = text.substr(0, sep + 2);
  }
  auto m = parse_message(text);
  if (!m) return 0;
  std::optional<Message> req;
  if (!req_text.empty())
    if (auto r = parse_message(req_text)) req = std::move(r.value());
  VerifyPolicy pol;
  pol.now = (ctl & 1) ? 1735689600 : 1618884473;
  if (ctl & 2) pol.require_authority = false;
  if (ctl & 4) pol.max_window = std::nullopt;
  if (ctl & 8) pol.required_components = {"\"content-digest\""};
  InMemoryNonceStore nonces;
  if (ctl & 16) pol.nonces = &nonces;
  if (ctl & 32) pol.fail_on_invalid = false;
  auto rep = verify_message(m.value(), fuzz::test_keys(), pol, req ? &*req : nullptr);
  (void)rep.to_json();
  for (const auto& v : rep.verdicts) {
    if (v.outcome != Outcome::valid) continue;
    fuzz::check(!v.signature_base.empty(), "a valid label without a signature base");
  }
  if (auto f = parse_signature_fields(m.value())) {
    for (const auto& [label, member] : f->input) {
      if (!member.is_inner_list) continue;
      (void)signature_base(m.value(), SignatureParams{member.inner}, req ? &*req : nullptr);
    }
  }
  (void)parse_accept_signature(m.value());
  if (auto cd = m->get("content-digest")) (void)verify_content_digest(*cd, m->body);
  return 0;
}
