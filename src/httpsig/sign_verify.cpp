// RFC 9421 §3.1 creating and §3.2 verifying signatures, any number of labels per message;
// the verification policy; key and nonce stores; Accept-Signature (§5).
#include <algorithm>
#include <nlohmann/json.hpp>

#include "pqsig/httpsig.hpp"
#include "pqsig/jose.hpp"

namespace pqsig::httpsig {

// ------------------------------------------------------------------ stores

namespace {
// One entry per suite under a keyid.
template <class E>
void put(std::vector<E>& v, E e, const SuiteInfo* suite) {
  for (auto& old : v) {
    const SuiteInfo* s = old.vk ? &old.vk->suite() : &old.mac->suite();
    if (s == suite) {
      old = std::move(e);
      return;
    }
  }
  v.push_back(std::move(e));
}
}  // namespace

void KeyStore::add(std::string keyid, VerifyingKey key) {
  Entry e;
  const SuiteInfo& s = key.suite();
  e.vk = std::make_unique<VerifyingKey>(std::move(key));
  put(keys_[std::move(keyid)], std::move(e), &s);
}
void KeyStore::add_mac(std::string keyid, SigningKey key) {
  Entry e;
  const SuiteInfo& s = key.suite();
  e.mac = std::make_unique<SigningKey>(std::move(key));
  put(keys_[std::move(keyid)], std::move(e), &s);
}
ResolvedKey KeyStore::to_resolved(const Entry& e) {
  ResolvedKey r;
  if (e.vk) {
    r.verifying = e.vk.get();
    r.suite = &e.vk->suite();
  } else {
    r.mac = e.mac.get();
    r.suite = &e.mac->suite();
  }
  return r;
}
std::optional<ResolvedKey> KeyStore::resolve(std::string_view keyid) const {
  auto it = keys_.find(keyid);
  if (it == keys_.end() || it->second.empty()) return std::nullopt;
  return to_resolved(it->second.front());
}
std::optional<ResolvedKey> KeyStore::resolve_for(std::string_view keyid, const SuiteInfo* alg) const {
  auto it = keys_.find(keyid);
  if (it == keys_.end() || it->second.empty()) return std::nullopt;
  for (const auto& e : it->second) {
    auto r = to_resolved(e);
    if (r.suite == alg) return r;
  }
  return to_resolved(it->second.front());
}
std::vector<std::string> KeyStore::keyids() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : keys_) out.push_back(k);
  return out;
}

std::string_view outcome_name(Outcome o) noexcept {
  switch (o) {
    case Outcome::valid: return "valid";
    case Outcome::invalid: return "invalid";
    case Outcome::skipped: return "skipped";
  }
  return "?";
}

// ------------------------------------------------------------------ signing

SignatureParams make_params(const SignSpec& spec) {
  SignatureParams p;
  p.list.items = spec.components;
  auto& ps = p.list.params;
  if (spec.created) sf::set_param(ps, "created", sf::BareItem::integer(*spec.created));
  if (spec.keyid) sf::set_param(ps, "keyid", sf::BareItem::string(*spec.keyid));
  if (spec.include_alg && spec.stateful) sf::set_param(ps, "alg", sf::BareItem::string(alg_name(spec.stateful->suite())));
  else if (spec.include_alg && spec.key) sf::set_param(ps, "alg", sf::BareItem::string(alg_name(spec.key->suite())));
  if (spec.expires) sf::set_param(ps, "expires", sf::BareItem::integer(*spec.expires));
  if (spec.nonce) sf::set_param(ps, "nonce", sf::BareItem::string(*spec.nonce));
  if (spec.tag) sf::set_param(ps, "tag", sf::BareItem::string(*spec.tag));
  for (const auto& [k, v] : spec.extra) sf::set_param(ps, k, v);
  return p;
}

Result<SignatureFields> parse_signature_fields(const Message& msg, const sf::Limits& limits) {
  SignatureFields f;
  std::string buf;  // only when a field has several lines; otherwise parsed where it stands
  if (auto si = msg.value("signature-input", buf)) {
    auto d = sf::parse_dictionary(*si, limits);
    if (!d) return Error{Errc::invalid_encoding, "Signature-Input: " + d.error().message};
    f.input = std::move(d.value());
  }
  if (auto s = msg.value("signature", buf)) {
    auto d = sf::parse_dictionary(*s, limits);
    if (!d) return Error{Errc::invalid_encoding, "Signature: " + d.error().message};
    f.signature = std::move(d.value());
  }
  return f;
}

Result<std::vector<std::string>> sign_message(Message& msg, const std::vector<SignSpec>& specs, const Message* request) {
  auto fields = parse_signature_fields(msg);
  if (!fields) return fields.error();
  std::vector<std::string> bases;
  for (const auto& spec : specs) {
    if (!spec.key && !spec.stateful) return Error{Errc::invalid_argument, "label " + spec.label + ": no key"};
    if (spec.key && spec.stateful)
      return Error{Errc::invalid_argument, "label " + spec.label + ": two keys (key and stateful)"};
    if (!sf::is_valid_key(spec.label)) return Error{Errc::invalid_argument, "invalid signature label '" + spec.label + "'"};
    if (sf::find_member(fields->input, spec.label) || sf::find_member(fields->signature, spec.label))
      return Error{Errc::invalid_argument, "label " + spec.label + " is already present in the message"};
    if (spec.created && spec.expires && *spec.expires < *spec.created)
      return Error{Errc::invalid_argument, "label " + spec.label + ": expires before created"};
    auto params = make_params(spec);
    BaseError be;
    auto base = signature_base(msg, params, request, &be);
    if (!base) return Error{base.error().code, "label " + spec.label + ": " + base.error().message};
    // A stateful key signs through its state: the index is reserved (synced) before signing.
    Result<bytes> sig = spec.stateful ? spec.stateful->sign(as_bytes(base.value())) : spec.key->sign(as_bytes(base.value()));
    if (!sig) return Error{sig.error().code, "label " + spec.label + ": " + sig.error().message};
    sf::set_member(fields->input, spec.label, sf::Member::of(params.list));
    sf::set_member(fields->signature, spec.label,
                   sf::Member::of(sf::Item{sf::BareItem::byte_sequence(std::move(sig.value())), {}}));
    auto si = sf::serialize_dictionary(fields->input);
    if (!si) return si.error();
    auto s = sf::serialize_dictionary(fields->signature);
    if (!s) return s.error();
    msg.set("Signature-Input", si.value());
    msg.set("Signature", s.value());
    bases.push_back(std::move(base.value()));
  }
  return bases;
}

// ------------------------------------------------------------------ verification

namespace {

// The policy's required components as serialized identifiers, worked out once per message (when
// the first label gets that far).
std::vector<std::string> required_ids(const VerifyPolicy& pol) {
  std::vector<std::string> out;
  out.reserve(pol.required_components.size());
  for (const auto& req : pol.required_components) {
    auto rc = parse_component(req);
    out.push_back(rc ? sf::serialize_item(rc.value()).value() : req);
  }
  return out;
}

Verdict verify_label(const Message& msg, const std::string& label, const sf::Member& in, const SignatureParams& p,
                     const SignatureFields& f,
                     const KeyResolver& keys, const VerifyPolicy& pol, std::optional<std::vector<std::string>>& required,
                     const Message* request, LabelCheck extra, const void* extra_ctx) {
  Verdict v;
  v.label = label;
  auto bad = [&](Reason r, std::string d) {
    v.outcome = Outcome::invalid;
    v.reason = r;
    v.detail = std::move(d);
    return v;
  };
  auto skip = [&](Reason r, std::string d) {
    v.outcome = Outcome::skipped;
    v.reason = r;
    v.detail = std::move(d);
    return v;
  };
  if (!in.is_inner_list) return bad(Reason::malformed_signature_input, "member is not an inner list");
  const std::string* keyid = p.string_param("keyid");
  if (keyid) v.keyid = *keyid;
  if (const std::string* tag = p.string_param("tag")) v.tag = *tag;
  v.created = p.created();
  v.expires = p.expires();
  auto alg_param = p.alg();
  if (alg_param) {
    v.alg = *alg_param;
    v.alg_registered = alg_registered(*alg_param);
  }

  // Selection (label / tag / keyid) — not selected is skipped, never a failure.
  if (!pol.select_labels.empty() &&
      std::find(pol.select_labels.begin(), pol.select_labels.end(), label) == pol.select_labels.end())
    return skip(Reason::not_selected, "label not selected");
  if (pol.select_tag && v.tag != *pol.select_tag) return skip(Reason::not_selected, "tag not selected");
  if (pol.select_keyid && v.keyid != *pol.select_keyid) return skip(Reason::not_selected, "keyid not selected");

  // Structure: parameter types, component identifiers.
  for (const auto& [k, b] : p.list.params) {
    bool ok = true;
    if (k == "created" || k == "expires") ok = b.type == sf::Type::integer;
    else if (k == "nonce" || k == "alg" || k == "keyid" || k == "tag") ok = b.type == sf::Type::string;
    if (!ok) return bad(Reason::malformed_signature_input, "parameter " + k + " has the wrong type");
  }
  {
    // Duplicates compared as items (equal items are equal identifiers: the serialization is
    // canonical); identifiers are serialized only when the policy requires components.
    const auto& comps = p.components();
    for (std::size_t k = 0; k < comps.size(); ++k) {
      const auto& c = comps[k];
      if (c.bare.type != sf::Type::string) return bad(Reason::malformed_signature_input, "component is not a string");
      if (std::find(comps.begin(), comps.begin() + static_cast<std::ptrdiff_t>(k), c) != comps.begin() + static_cast<std::ptrdiff_t>(k)) {
        auto id = sf::serialize_item(c);
        return bad(Reason::duplicate_component, (id ? id.value() : c.bare.s) + " is covered twice");
      }
    }
    if (pol.require_authority) {
      // The signature must bind the authority the message was sent to: "@authority" (or
      // "@target-uri", which contains it) of the request itself, or of the request a response
      // answers (;req).
      bool bound = false;
      for (const auto& c : comps) {
        if (c.bare.s != "@authority" && c.bare.s != "@target-uri") continue;
        if ((sf::find_param(c.params, "req") != nullptr) == !msg.is_request) bound = true;
      }
      if (!bound)
        return bad(Reason::required_component_not_covered,
                   std::string(msg.is_request ? "\"@authority\"" : "\"@authority\";req") +
                       " is not covered: the signature does not bind the authority (relaxing this must be explicit)");
    }
    if (!pol.required_components.empty()) {
      std::vector<std::string> ids;
      ids.reserve(comps.size());
      for (const auto& c : comps) {
        auto id = sf::serialize_item(c);
        if (!id) return bad(Reason::invalid_component, id.error().message);
        ids.push_back(std::move(id.value()));
      }
      if (!required) required = required_ids(pol);
      for (const auto& want : *required) {
        if (std::find(ids.begin(), ids.end(), want) == ids.end())
          return bad(Reason::required_component_not_covered, want + " is required but not covered");
      }
    }
  }

  auto* sigm = sf::find_member(f.signature, label);
  if (!sigm) return bad(Reason::missing_signature, "no Signature member for this label");
  if (sigm->is_inner_list || sigm->item.bare.type != sf::Type::byte_sequence)
    return bad(Reason::malformed_signature, "Signature member is not a byte sequence");

  // Algorithm: unknown alg → skipped. A family-level alg (kHssLmsAlg, kXmssAlg) names a family, not a suite:
  // the key's suite (its parameter set read from the key) must be of that family.
  const SuiteInfo* alg_suite = nullptr;
  std::optional<Family> alg_family;
  if (alg_param) {
    alg_family = family_for_alg(*alg_param);
    if (!alg_family) alg_suite = suite_for_alg(*alg_param);
    if (!alg_family && !alg_suite) return skip(Reason::unsupported_alg, "algorithm '" + *alg_param + "' is not supported");
    if (!pol.allowed_algs.empty() &&
        std::find(pol.allowed_algs.begin(), pol.allowed_algs.end(), *alg_param) == pol.allowed_algs.end())
      return skip(Reason::alg_not_allowed, "algorithm " + *alg_param + " is not accepted by this verifier");
  }
  if (!keyid) return bad(Reason::missing_keyid, "no keyid parameter");
  auto key = keys.resolve_label(msg, label, p, alg_suite);
  // A keyid this verifier has no key for is a label it does not know: skipped, never fatal to the
  // message (a message whose only label is unknown still fails the policy: nothing is valid).
  if (!key || !key->suite) return skip(Reason::unknown_keyid, "keyid '" + *keyid + "' is not known");
  if ((alg_suite && alg_suite != key->suite) || (alg_family && *alg_family != key->suite->family))
    return bad(Reason::alg_mismatch, "alg '" + *alg_param + "' but the key is " + std::string(key->suite->id));
  v.alg = alg_name(*key->suite);
  v.alg_registered = alg_registered(v.alg);
  if (!pol.allowed_algs.empty() && std::find(pol.allowed_algs.begin(), pol.allowed_algs.end(), v.alg) == pol.allowed_algs.end())
    return skip(Reason::alg_not_allowed, "algorithm " + v.alg + " is not accepted by this verifier");
  if (pol.tag && v.tag != *pol.tag) return bad(Reason::wrong_tag, "tag '" + v.tag + "', expected '" + *pol.tag + "'");

  // Time window.
  if (!v.created && pol.require_created) return bad(Reason::missing_created, "no created parameter");
  if (!v.expires && pol.require_expires) return bad(Reason::expired, "no expires parameter (required)");
  if (v.created && v.expires && *v.expires < *v.created) return bad(Reason::invalid_window, "expires before created");
  if (v.created && v.expires && pol.max_window && *v.expires - *v.created > *pol.max_window)
    return bad(Reason::invalid_window, "validity window longer than " + std::to_string(*pol.max_window) + " s");
  if (v.created && *v.created > pol.now + pol.clock_skew)
    return bad(Reason::created_in_future, "created " + std::to_string(*v.created - pol.now) + " s in the future");
  if (v.expires && pol.now > *v.expires + pol.clock_skew)
    return bad(Reason::expired, "expired " + std::to_string(pol.now - *v.expires) + " s ago");
  if (v.created && pol.max_age && pol.now - *v.created > *pol.max_age + pol.clock_skew)
    return bad(Reason::too_old, "created " + std::to_string(pol.now - *v.created) + " s ago");
  if (pol.require_nonce && !p.string_param("nonce")) return bad(Reason::missing_nonce, "no nonce parameter");

  if (extra) {
    std::string d;
    Reason r = extra(msg, label, p, d, extra_ctx);
    if (r != Reason::ok) return bad(r, d);
  }
  // Freshness of a label without expires (after the profile check, which may require expires).
  if (v.created && !v.expires && pol.now - *v.created > pol.default_lifetime + pol.clock_skew)
    return bad(Reason::too_old, "created " + std::to_string(pol.now - *v.created) + " s ago and no expires (accepted for " +
                                    std::to_string(pol.default_lifetime) + " s)");

  BaseError be;
  auto base = signature_base(msg, p, request, &be);
  if (!base) return bad(be.reason == Reason::ok ? Reason::invalid_component : be.reason, be.detail);
  v.signature_base = std::move(base.value());

  const auto& sig = sigm->item.bare.b;
  if (!key->verifying && !key->mac) return skip(Reason::unsupported_alg, v.alg + ": no key object available");
  Status st = key->verifying ? key->verifying->verify(as_bytes(v.signature_base), sig)
                             : key->mac->verify(as_bytes(v.signature_base), sig);
  if (!st) {
    if (st.error().code == Errc::unsupported)
      return skip(Reason::unsupported_alg, v.alg + " is not available in this build: " + st.error().message);
    if (st.error().code == Errc::verify_failed) return bad(Reason::signature_mismatch, "signature does not verify");
    return bad(Reason::malformed_signature, st.error().message);
  }

  // Content-Digest covered → it must match the body.
  if (pol.check_content_digest) {
    for (const auto& c : p.components()) {
      if (c.bare.s != "content-digest" || sf::find_param(c.params, "req") || sf::find_param(c.params, "tr")) continue;
      auto cd = msg.get("content-digest");
      if (!cd) break;
      auto ds = verify_content_digest(*cd, msg.body);
      if (!ds) return bad(Reason::content_digest_mismatch, ds.error().message);
      break;
    }
  }

  // Replay: recorded by verify_message once the whole policy is satisfied (record_nonces).
  if (const std::string* nonce = p.string_param("nonce")) v.nonce = *nonce;
  v.outcome = Outcome::valid;
  v.reason = Reason::ok;
  return v;
}

// RFC 9421 §7.2.2 (replay): the nonces of the labels that verified are recorded only once the
// whole policy is satisfied, so neither a forged label nor a request the policy refuses burns a
// nonce. A replayed nonce (or, failing closed, a store error) makes its label invalid and the
// message fail. Returns the policy failure, or "" when every nonce was fresh.
std::string record_nonces(VerifyReport& rep, const VerifyPolicy& pol) {
  for (auto& v : rep.verdicts) {
    if (v.outcome != Outcome::valid || !v.nonce) continue;
    std::int64_t forget = v.expires ? *v.expires + pol.clock_skew
                                    : (v.created ? *v.created + pol.max_age.value_or(pol.default_lifetime) + pol.clock_skew
                                                 : pol.now + pol.max_age.value_or(pol.default_lifetime));
    NonceOutcome o = pol.nonces->record(v.keyid, *v.nonce, forget, pol.now);
    if (o == NonceOutcome::fresh) continue;
    if (o == NonceOutcome::error) {
      ++rep.nonce_errors;
      if (pol.nonce_fail_open) continue;
      v.outcome = Outcome::invalid;
      v.reason = Reason::nonce_store_unavailable;
      v.detail = "the nonce store could not answer (fail closed)";
      return "label " + v.label + ": nonce store unavailable";
    }
    v.outcome = Outcome::invalid;
    v.reason = Reason::nonce_replayed;
    v.detail = o == NonceOutcome::refused ? "the nonce store refused the nonce (quota)" : "nonce already seen for this keyid";
    return "label " + v.label + " is invalid (nonce_replayed)";
  }
  return "";
}

}  // namespace

VerifyReport verify_message(const Message& msg, const KeyResolver& keys, const VerifyPolicy& pol, const Message* request,
                            LabelCheck extra, const void* extra_ctx) {
  auto f = parse_signature_fields(msg, pol.sf_limits);
  if (f) return verify_message(msg, f.value(), keys, pol, request, extra, extra_ctx);
  VerifyReport rep;
  Verdict v;
  v.label = "*";
  v.outcome = Outcome::invalid;
  v.reason = f.error().message.rfind("Signature-Input", 0) == 0 ? Reason::malformed_signature_input
                                                                 : Reason::malformed_signature;
  v.detail = f.error().message;
  rep.verdicts.push_back(std::move(v));
  rep.policy_detail = "signature fields are malformed";
  return rep;
}

std::vector<SignatureParams> take_label_params(SignatureFields& fields) {
  std::vector<SignatureParams> out(fields.input.size());
  for (std::size_t k = 0; k < fields.input.size(); ++k)
    if (fields.input[k].second.is_inner_list) out[k].list = std::move(fields.input[k].second.inner);
  return out;
}

VerifyReport verify_message(const Message& msg, const SignatureFields& fields, const KeyResolver& keys,
                            const VerifyPolicy& pol, const Message* request, LabelCheck extra, const void* extra_ctx) {
  std::vector<SignatureParams> params;
  if (fields.input.size() <= pol.max_labels) {  // above it nothing is looked at (too_many_labels)
    params.resize(fields.input.size());
    for (std::size_t k = 0; k < fields.input.size(); ++k)
      if (fields.input[k].second.is_inner_list) params[k].list = fields.input[k].second.inner;
  }
  return verify_message(msg, fields, params, keys, pol, request, extra, extra_ctx);
}

VerifyReport verify_message(const Message& msg, const SignatureFields& fields, std::span<const SignatureParams> params,
                            const KeyResolver& keys, const VerifyPolicy& pol, const Message* request, LabelCheck extra,
                            const void* extra_ctx) {
  VerifyReport rep;
  const SignatureFields* f = &fields;
  if (f->input.size() <= pol.max_labels && params.size() != f->input.size()) {
    Verdict v;
    v.label = "*";
    v.outcome = Outcome::invalid;
    v.reason = Reason::malformed_signature_input;
    v.detail = "internal: label parameters do not match Signature-Input";
    rep.policy_detail = v.detail;
    rep.verdicts.push_back(std::move(v));
    return rep;
  }
  if (f->input.size() > pol.max_labels) {
    Verdict v;
    v.label = "*";
    v.outcome = Outcome::invalid;
    v.reason = Reason::too_many_labels;
    v.detail = std::to_string(f->input.size()) + " labels, at most " + std::to_string(pol.max_labels) + " are verified";
    rep.verdicts.push_back(std::move(v));
    rep.policy_detail = "too many signature labels";
    return rep;
  }
  rep.verdicts.reserve(f->input.size());
  std::optional<std::vector<std::string>> required;  // filled by the first label that needs it
  for (std::size_t k = 0; k < f->input.size(); ++k)
    rep.verdicts.push_back(verify_label(msg, f->input[k].first, f->input[k].second, params[k], *f, keys, pol, required,
                                        request, extra, extra_ctx));

  std::size_t valid = 0;
  std::string why;
  for (const auto& v : rep.verdicts) {
    if (v.outcome == Outcome::valid) ++valid;
    if (v.outcome == Outcome::invalid && pol.fail_on_invalid && why.empty())
      why = "label " + v.label + " is invalid (" + std::string(reason_name(v.reason)) + ")";
  }
  for (const auto& l : pol.required_labels) {
    auto it = std::find_if(rep.verdicts.begin(), rep.verdicts.end(), [&](const Verdict& v) { return v.label == l; });
    if (it == rep.verdicts.end()) { if (why.empty()) why = "required label " + l + " is absent"; }
    else if (it->outcome != Outcome::valid && why.empty()) why = "required label " + l + " is not valid";
  }
  for (const auto& a : pol.required_algs) {
    bool ok = std::any_of(rep.verdicts.begin(), rep.verdicts.end(),
                          [&](const Verdict& v) { return v.outcome == Outcome::valid && v.alg == a; });
    if (!ok && why.empty()) why = "no valid signature with required algorithm " + a;
  }
  if (valid < pol.min_valid && why.empty())
    why = f->input.empty() ? "no signatures" : "only " + std::to_string(valid) + " valid signature(s), need " + std::to_string(pol.min_valid);
  if (why.empty() && pol.nonces) why = record_nonces(rep, pol);
  rep.policy_satisfied = why.empty();
  rep.policy_detail = why.empty() ? "satisfied" : why;
  return rep;
}

std::string VerifyReport::to_json() const {
  nlohmann::ordered_json j;
  j["policy_satisfied"] = policy_satisfied;
  j["policy"] = policy_detail;
  j["labels"] = nlohmann::ordered_json::array();
  for (const auto& v : verdicts) {
    nlohmann::ordered_json e;
    e["label"] = v.label;
    e["outcome"] = std::string(outcome_name(v.outcome));
    e["reason"] = std::string(reason_name(v.reason));
    if (!v.detail.empty()) e["detail"] = v.detail;
    if (!v.alg.empty()) {
      e["alg"] = v.alg;
      e["alg_registered"] = v.alg_registered;
      if (!v.alg_registered && (suite_for_alg(v.alg) || family_for_alg(v.alg))) e["note"] = "unregistered algorithm (not in the IANA HTTP Signature Algorithms registry)";
    }
    if (!v.keyid.empty()) e["keyid"] = v.keyid;
    if (!v.tag.empty()) e["tag"] = v.tag;
    if (v.created) e["created"] = *v.created;
    if (v.expires) e["expires"] = *v.expires;
    j["labels"].push_back(std::move(e));
  }
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);  // never throws on bad UTF-8
}

// ------------------------------------------------------------------ Accept-Signature (§5.1)

Result<std::string> accept_signature(const std::vector<SignatureRequest>& reqs) {
  sf::Dictionary d;
  for (const auto& r : reqs) {
    if (!sf::is_valid_key(r.label)) return Error{Errc::invalid_argument, "invalid label '" + r.label + "'"};
    sf::set_member(d, r.label, sf::Member::of(r.params.list));
  }
  return sf::serialize_dictionary(d);
}

Result<std::vector<SignatureRequest>> parse_accept_signature(const Message& msg) {
  std::vector<SignatureRequest> out;
  auto v = msg.get("accept-signature");
  if (!v) return out;
  auto d = sf::parse_dictionary(*v);
  if (!d) return Error{Errc::invalid_encoding, "Accept-Signature: " + d.error().message};
  for (const auto& [label, m] : d.value()) {
    if (!m.is_inner_list) return Error{Errc::invalid_encoding, "Accept-Signature: member " + label + " is not an inner list"};
    for (const auto& c : m.inner.items)
      if (c.bare.type != sf::Type::string) return Error{Errc::invalid_encoding, "Accept-Signature: component is not a string"};
    out.push_back({label, SignatureParams{m.inner}});
  }
  return out;
}

Result<SignSpec> honour_signature_request(const SignatureRequest& req, const SigningKey& key, std::string keyid,
                                          std::int64_t now, std::int64_t expires_in) {
  SignSpec s;
  s.label = req.label;
  s.key = &key;
  s.components = req.params.components();
  s.keyid = std::move(keyid);
  const auto& ps = req.params.list.params;
  if (auto a = req.params.alg(); a && *a != alg_name(key.suite()))
    return Error{Errc::invalid_argument, "Accept-Signature asks for alg " + *a + ", key is " + alg_name(key.suite())};
  if (auto k = req.params.keyid(); k && *k != *s.keyid)
    return Error{Errc::invalid_argument, "Accept-Signature asks for keyid " + *k};
  s.include_alg = sf::find_param(ps, "alg") != nullptr;
  if (sf::find_param(ps, "created")) s.created = now;
  if (sf::find_param(ps, "expires")) s.expires = now + expires_in;
  if (auto n = req.params.nonce()) s.nonce = *n;
  if (auto t = req.params.tag()) s.tag = *t;
  return s;
}

}  // namespace pqsig::httpsig
