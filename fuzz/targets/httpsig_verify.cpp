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
  auto fields = parse_signature_fields(m.value());
  for (const auto& v : rep.verdicts) {
    if (v.outcome != Outcome::valid) continue;
    fuzz::check(!v.signature_base.empty(), "a valid label without a signature base");
    // Safe defaults (issue 10 item 1): a valid label binds the authority and is fresh.
    fuzz::check(fields.ok(), "a valid label in malformed signature fields");
    const auto* in = sf::find_member(fields->input, v.label);
    fuzz::check(in && in->is_inner_list, "a valid label without its Signature-Input member");
    SignatureParams p{in->inner};
    if (pol.require_authority) {
      bool bound = false;
      for (const auto& c : p.components())
        if ((c.bare.s == "@authority" || c.bare.s == "@target-uri") &&
            (sf::find_param(c.params, "req") != nullptr) == !m->is_request)
          bound = true;
      fuzz::check(bound, "a valid label does not bind the authority under the default policy");
    }
    fuzz::check(p.created().has_value(), "a valid label without created");
    const std::int64_t created = *p.created();
    fuzz::check(created <= pol.now + pol.clock_skew, "a valid label created in the future");
    if (auto e = p.expires()) {
      fuzz::check(pol.now <= *e + pol.clock_skew, "a valid label that has expired");
      if (pol.max_window) fuzz::check(*e - created <= *pol.max_window, "a valid label with an unbounded window");
    } else {
      fuzz::check(pol.now - created <= pol.default_lifetime + pol.clock_skew, "a valid label past its lifetime");
    }
  }
  if (fields) {
    for (const auto& [label, member] : fields->input) {
      if (!member.is_inner_list) continue;
      (void)signature_base(m.value(), SignatureParams{member.inner}, req ? &*req : nullptr);
    }
  }
  (void)parse_accept_signature(m.value());
  if (auto cd = m->get("content-digest")) (void)verify_content_digest(*cd, m->body);
  return 0;
}
