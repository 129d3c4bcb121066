// Web Bot Auth (draft-meunier-webbotauth-httpsig-protocol): multi-label signer with graceful
// degradation and a header budget, and the profile verifier.
#include "pqsig/webbotauth.hpp"

#include <algorithm>
#include <mutex>
#include <set>

namespace pqsig::webbotauth {
namespace {

using httpsig::Message;
using httpsig::Reason;

std::mutex g_log_mu;
std::set<std::string> g_logged;
std::function<void(std::string_view)> g_sink;

// Logs `msg` once per process for a given `kind` (e.g. "sig2:unsupported").
void log_once(const std::string& kind, const std::string& msg) {
  std::lock_guard<std::mutex> lock(g_log_mu);
  if (!g_logged.insert(kind).second) return;
  if (g_sink) g_sink(msg);
  else log_message(LogLevel::warning, "pqsig web-bot-auth: " + msg);  // caller's sink (pqsig::set_log_sink)
}

std::string random_nonce() {
  std::uint8_t b[64];
  if (!random_bytes(b)) return {};
  return base64_encode(b);
}

std::size_t b64_len(std::size_t n) { return (n + 2) / 3 * 4; }

}  // namespace

void set_log_sink(std::function<void(std::string_view)> sink) {
  std::lock_guard<std::mutex> lock(g_log_mu);
  g_sink = std::move(sink);
}
void reset_log_once() {
  std::lock_guard<std::mutex> lock(g_log_mu);
  g_logged.clear();
}

Signer::Signer(std::vector<LabelKey> labels, SignerOptions opt) : labels_(std::move(labels)), opt_(std::move(opt)) {}

namespace {
httpsig::SignSpec spec_for(const LabelKey& lk, const SignerOptions& opt, const std::string& nonce) {
  httpsig::SignSpec s;
  s.label = lk.label;
  s.key = lk.key;
  s.stateful = lk.stateful;
  s.components = opt.components;
  if (opt.cover_signature_agent && !lk.agent.empty()) {
    httpsig::Component c = httpsig::component("signature-agent");
    if (!opt.legacy_signature_agent) c.params.emplace_back("key", sf::BareItem::string(lk.label));
    s.components.push_back(std::move(c));
  }
  s.created = opt.created;
  s.keyid = lk.keyid;
  s.include_alg = true;
  s.expires = opt.created + opt.expires_in;
  if (opt.nonce) s.nonce = nonce;
  s.tag = std::string(kTag);
  return s;
}

// The Signature-Agent rule (webbotauth.hpp, "Signature-Agent"): checked before anything is signed.
Status check_agent_rule(const std::vector<const LabelKey*>& labels, const SignerOptions& opt) {
  const LabelKey* first = nullptr;
  for (const auto* lk : labels) {
    if (lk->agent.empty()) continue;
    if (!opt.cover_signature_agent)
      return Error{Errc::invalid_argument, "label " + lk->label +
                                               " has a Signature-Agent but cover_signature_agent is off: a label's agent "
                                               "must be covered by that label"};
    if (opt.legacy_signature_agent && first && first->agent != lk->agent)
      return Error{Errc::invalid_argument, "the legacy Signature-Agent form holds one agent, but labels " + first->label +
                                               " and " + lk->label + " name different ones (use the dictionary form)"};
    if (!first) first = lk;
  }
  return {};
}

Status set_signature_agent(Message& m, const std::vector<const LabelKey*>& labels, bool legacy) {
  if (legacy) {
    // One sf-string: the agent every agent-carrying label shares (check_agent_rule).
    for (const auto* lk : labels) {
      if (lk->agent.empty()) continue;
      auto s = sf::serialize_item(sf::Item{sf::BareItem::string(lk->agent), {}});
      if (!s) return s.error();
      m.set("Signature-Agent", s.value());
      return {};
    }
    return {};
  }
  sf::Dictionary d;
  if (auto cur = m.get("signature-agent")) {
    auto p = sf::parse_dictionary(*cur);
    if (!p) return Error{Errc::invalid_argument, "existing Signature-Agent is not a dictionary: " + p.error().message};
    d = std::move(p.value());
  }
  bool any = false;
  for (const auto* lk : labels) {
    if (lk->agent.empty()) continue;
    sf::set_member(d, lk->label, sf::Member::of(sf::Item{sf::BareItem::string(lk->agent), {}}));
    any = true;
  }
  if (!any) return {};
  auto s = sf::serialize_dictionary(d);
  if (!s) return s.error();
  m.set("Signature-Agent", s.value());
  return {};
}
}  // namespace

Result<std::size_t> check_header_budget(const Message& request, const std::vector<BudgetLabel>& labels,
                                        const SignerOptions& opt, std::vector<std::string>* warnings) {
  Message m = request;
  std::vector<LabelKey> lks;
  for (const auto& b : labels) lks.push_back(LabelKey{b.label, nullptr, b.keyid, b.agent});
  std::vector<const LabelKey*> ptrs;
  for (const auto& l : lks) ptrs.push_back(&l);
  if (auto st = check_agent_rule(ptrs, opt); !st) return st.error();
  if (auto st = set_signature_agent(m, ptrs, opt.legacy_signature_agent); !st) return st.error();
  auto f = httpsig::parse_signature_fields(m);
  sf::Dictionary in = f ? f->input : sf::Dictionary{};
  sf::Dictionary sig = f ? f->signature : sf::Dictionary{};
  std::string nonce(88, 'A');  // 64 random bytes, base64
  for (std::size_t i = 0; i < labels.size(); ++i) {
    auto spec = spec_for(lks[i], opt, nonce);
    auto params = httpsig::make_params(spec);
    if (labels[i].suite) sf::set_param(params.list.params, "alg", sf::BareItem::string(httpsig::alg_name(*labels[i].suite)));
    sf::set_member(in, labels[i].label, sf::Member::of(params.list));
    std::size_t n = labels[i].suite ? labels[i].suite->output_size : 0;
    sf::set_member(sig, labels[i].label, sf::Member::of(sf::Item{sf::BareItem::byte_sequence(bytes(n, 0)), {}}));
  }
  auto si = sf::serialize_dictionary(in);
  auto ss = sf::serialize_dictionary(sig);
  if (!si) return si.error();
  if (!ss) return ss.error();
  m.set("Signature-Input", si.value());
  m.set("Signature", ss.value());
  std::size_t est = httpsig::header_section_size(m);
  if (est > opt.header_cap) {
    std::string why = "refusing to sign: the request headers would be about " + std::to_string(est) +
                      " bytes, above the hard cap of " + std::to_string(opt.header_cap) + " bytes";
    for (const auto& b : labels) {
      if (!b.suite) continue;
      const std::size_t n = b.suite->output_size;
      why += "; " + b.label + " (" + std::string(b.suite->id) + ") adds a " +
             std::to_string(n) + "-byte signature = " + std::to_string(b64_len(n)) +
             " bytes of base64 in the Signature field";
    }
    why += ". Servers commonly cap request headers around 8 KiB and answer 431 (Request Header Fields Too Large); "
           "use ml-dsa-44 (2420-byte signature) for the post-quantum label, or raise the cap knowingly.";
    return Error{Errc::policy, why};
  }
  if (est > opt.header_budget && warnings)
    warnings->push_back("request headers about " + std::to_string(est) + " bytes exceed the budget of " +
                        std::to_string(opt.header_budget) + " bytes");
  return est;
}

Result<SignResult> Signer::sign(Message& request) const {
  if (!request.is_request) return Error{Errc::invalid_argument, "Web Bot Auth signs requests"};
  if (labels_.empty()) return Error{Errc::invalid_argument, "no signing labels configured"};
  if (opt_.expires_in <= 0 || opt_.expires_in > kMaxExpiresIn)
    return Error{Errc::policy, "expires must be 1.." + std::to_string(kMaxExpiresIn) + " seconds after created (got " +
                                   std::to_string(opt_.expires_in) + ")"};
  if (opt_.created <= 0) return Error{Errc::invalid_argument, "created time not set"};
  if (!request.has("host") && request.target.rfind("http", 0) != 0)
    return Error{Errc::invalid_argument, "request has no Host field (needed for @authority)"};
  SignResult res;
  std::vector<const LabelKey*> active;
  for (std::size_t i = 0; i < labels_.size(); ++i) {
    const auto& lk = labels_[i];
    if (!lk.key && !lk.stateful) {
      if (i == 0) return Error{Errc::invalid_argument, "label " + lk.label + ": no key (the first label is mandatory)"};
      std::string w = "label " + lk.label + " dropped: no key configured; sending " + labels_[0].label + " alone";
      log_once(lk.label + ":nokey", w);
      res.warnings.push_back(w);
      res.dropped_labels.push_back(lk.label);
      continue;
    }
    if (lk.key && lk.stateful) return Error{Errc::invalid_argument, "label " + lk.label + ": two keys (key and stateful)"};
    if (lk.key && lk.key->suite().cls == SuiteClass::kem)
      return Error{Errc::invalid_argument, "label " + lk.label + ": a KEM key cannot sign"};
    active.push_back(&lk);
  }

  if (auto st = check_agent_rule(active, opt_); !st) return st.error();
  // Header budget, before any signing work (an SLH-DSA signature takes long and never fits).
  {
    std::vector<BudgetLabel> bl;
    for (const auto* lk : active)
      bl.push_back(BudgetLabel{lk->label, lk->stateful ? &lk->stateful->suite() : &lk->key->suite(), lk->keyid, lk->agent});
    auto est = check_header_budget(request, bl, opt_, &res.warnings);
    if (!est) return est.error();
  }

  // Sign; a failing non-first label is dropped and the whole set re-signed without it.
  for (;;) {
    Message work = request;
    auto st = set_signature_agent(work, active, opt_.legacy_signature_agent);
    if (!st) return st.error();
    std::vector<httpsig::SignSpec> specs;
    for (const auto* lk : active) {
      std::string nonce;
      if (opt_.nonce) {
        nonce = random_nonce();
        if (nonce.empty()) return Error{Errc::rng_failure, "no randomness for the nonce"};
      }
      specs.push_back(spec_for(*lk, opt_, nonce));
    }
    std::vector<std::string> bases;
    std::size_t failed = active.size();
    Error ferr;
    for (std::size_t i = 0; i < specs.size(); ++i) {
      auto b = httpsig::sign_message(work, {specs[i]});
      if (!b) {
        failed = i;
        ferr = b.error();
        break;
      }
      bases.push_back(b.value()[0]);
    }
    if (failed == active.size()) {
      request = std::move(work);
      for (const auto* lk : active) res.signed_labels.push_back(lk->label);
      res.bases = std::move(bases);
      res.header_bytes = httpsig::header_section_size(request);
      if (res.header_bytes > opt_.header_cap)
        return Error{Errc::policy, "signed request headers are " + std::to_string(res.header_bytes) +
                                       " bytes, above the hard cap of " + std::to_string(opt_.header_cap)};
      return res;
    }
    if (failed == 0) return ferr;  // the first label is mandatory
    const auto* lk = active[failed];
    std::string w = "label " + lk->label + " (" + std::string(lk->stateful ? lk->stateful->suite().id : lk->key->suite().id) +
                    ") dropped: " + ferr.what() +
                    "; sending the remaining label(s)";
    log_once(lk->label + ":" + std::string(errc_name(ferr.code)), w);
    res.warnings.push_back(w);
    res.dropped_labels.push_back(lk->label);
    active.erase(active.begin() + static_cast<std::ptrdiff_t>(failed));
  }
}

// ------------------------------------------------------------------ Accept-Signature challenges

Result<httpsig::SignSpec> challenge_spec(const httpsig::SignatureRequest& req, const SigningKey& key, const std::string& keyid,
                                         bool has_agent, std::int64_t now, std::int64_t expires_in) {
  if (!sf::is_valid_key(req.label)) return Error{Errc::policy, "Accept-Signature: invalid label"};
  if (expires_in <= 0 || expires_in > kMaxExpiresIn) return Error{Errc::invalid_argument, "expires_in out of range"};
  const auto& ps = req.params.list.params;
  if (auto a = req.params.alg(); a && *a != httpsig::alg_name(key.suite()))
    return Error{Errc::invalid_argument, "Accept-Signature asks for alg " + a->substr(0, 64)};
  if (auto k = req.params.keyid(); k && *k != keyid) return Error{Errc::invalid_argument, "Accept-Signature asks for another keyid"};
  if (auto t = req.params.tag(); t && *t != kTag)
    return Error{Errc::policy, "Accept-Signature asks for tag \"" + t->substr(0, 64) +
                                   "\": a challenge may add to the web-bot-auth profile, never replace it"};
  if (req.params.components().size() > kMaxChallengeComponents)
    return Error{Errc::policy, "Accept-Signature asks for more than " + std::to_string(kMaxChallengeComponents) + " components"};
  httpsig::SignSpec s;
  s.label = req.label;
  s.key = &key;
  s.keyid = keyid;
  s.include_alg = true;
  s.created = now;
  s.expires = now + expires_in;
  s.tag = std::string(kTag);
  // The profile's components first, then the ones the challenge adds (each once).
  s.components.push_back(httpsig::component("@authority"));
  if (has_agent) {
    httpsig::Component c = httpsig::component("signature-agent");
    c.params.emplace_back("key", sf::BareItem::string(req.label));
    s.components.push_back(std::move(c));
  }
  std::vector<std::string> ids;
  for (const auto& c : s.components) {
    auto id = sf::serialize_item(c);
    ids.push_back(id ? id.value() : std::string());
  }
  for (const auto& c : req.params.components()) {
    if (c.bare.type != sf::Type::string) return Error{Errc::policy, "Accept-Signature: a component is not a string"};
    auto id = sf::serialize_item(c);
    if (!id) return Error{Errc::policy, "Accept-Signature: " + id.error().message};
    if (std::find(ids.begin(), ids.end(), id.value()) != ids.end()) continue;
    ids.push_back(id.value());
    s.components.push_back(c);
  }
  if (auto n = req.params.nonce()) {
    if (n->empty() || n->size() > kMaxChallengeNonceBytes)
      return Error{Errc::policy, "Accept-Signature asks for a nonce of " + std::to_string(n->size()) + " bytes (at most " +
                                     std::to_string(kMaxChallengeNonceBytes) + ")"};
    s.nonce = *n;
  } else {
    s.nonce = random_nonce();
    if (s.nonce->empty()) return Error{Errc::rng_failure, "no randomness for the nonce"};
  }
  for (const auto& [k, v] : ps) {
    if (k == "created" || k == "expires" || k == "nonce" || k == "alg" || k == "keyid" || k == "tag") continue;
    if (s.extra.size() >= kMaxChallengeExtraParams)
      return Error{Errc::policy, "Accept-Signature asks for more than " + std::to_string(kMaxChallengeExtraParams) + " extra parameters"};
    s.extra.emplace_back(k, v);
  }
  return s;
}

// ------------------------------------------------------------------ Signature-Agent and key binding

std::string_view agent_type_name(AgentType t) noexcept {
  switch (t) {
    case AgentType::directory: return "directory";
    case AgentType::jwks_uri: return "jwks_uri";
    case AgentType::cimd: return "cimd";
  }
  return "?";
}

// draft-ietf-webbotauth-httpsig-protocol, "Signature-Agent": a Dictionary of Strings with a `type`
// parameter; the older bare String form is one member (key "").
Result<SignatureAgents> parse_signature_agent(std::string_view field) {
  if (field.size() > kMaxSignatureAgentBytes)
    return Error{Errc::invalid_length, "Signature-Agent longer than " + std::to_string(kMaxSignatureAgentBytes) + " bytes"};
  SignatureAgents out;
  auto d = sf::parse_dictionary(field);
  if (!d || d->empty() || (d->size() == 1 && !d->front().second.is_inner_list &&
                           d->front().second.item.bare.type == sf::Type::boolean)) {
    // Older drafts: one sf-string (a String Item begins with '"', a dictionary key never does).
    auto it = sf::parse_item(field);
    if (!it || it->bare.type != sf::Type::string)
      return Error{Errc::invalid_encoding, "Signature-Agent is neither a dictionary of strings nor a string"};
    out.push_back({"", AgentRef{it->bare.s, AgentType::directory, false}});
    return out;
  }
  if (d->size() > kMaxSignatureAgentMembers)
    return Error{Errc::invalid_length, "Signature-Agent has more than " + std::to_string(kMaxSignatureAgentMembers) + " members"};
  for (const auto& [key, m] : d.value()) {
    if (m.is_inner_list || m.item.bare.type != sf::Type::string)
      return Error{Errc::invalid_encoding, "Signature-Agent member " + key + " is not a string"};
    AgentRef ref{m.item.bare.s, AgentType::directory, false};
    if (const auto* t = sf::find_param(m.item.params, "type")) {
      if (t->type != sf::Type::token && t->type != sf::Type::string)
        return Error{Errc::invalid_encoding, "Signature-Agent member " + key + ": type must be a token"};
      ref.typed = true;
      if (t->s == "directory") ref.type = AgentType::directory;
      else if (t->s == "jwks_uri") ref.type = AgentType::jwks_uri;
      else if (t->s == "cimd") ref.type = AgentType::cimd;
      else return Error{Errc::unsupported, "Signature-Agent member " + key + ": unknown type " + t->s};
    }
    out.push_back({key, std::move(ref)});
  }
  return out;
}

namespace {
const AgentRef* find_agent(const SignatureAgents& a, std::string_view key) {
  for (const auto& [k, r] : a)
    if (k == key) return &r;
  return nullptr;
}
}  // namespace

AgentBinding bind_label_agent(const SignatureAgents* agents, std::string_view label, const httpsig::SignatureParams& p) {
  AgentBinding b;
  auto refuse = [&b](Reason r, std::string d) {
    b.reason = r;
    b.detail = std::move(d);
    b.member.reset();
    return b;
  };
  bool whole = false;
  std::vector<std::string_view> keys;  // members covered with ;key=, distinct, in order (views into p)
  for (const auto& c : p.components()) {
    if (c.bare.s != "signature-agent") continue;
    if (const auto* k = sf::find_param(c.params, "key")) {
      if (std::find(keys.begin(), keys.end(), k->s) == keys.end()) keys.push_back(k->s);
    } else {
      whole = true;
    }
  }
  const std::string_view own = label;
  if (!agents) {
    if (whole || !keys.empty())
      return refuse(Reason::missing_signature_agent, "signature-agent is covered but the request has no Signature-Agent field");
    return b;  // vouches for no agent
  }
  const bool legacy = agents->size() == 1 && agents->front().first.empty();
  if (legacy) {
    // A label covering no signature-agent component vouches for no agent.
    if (!keys.empty())
      return refuse(Reason::signature_agent_not_covered,
                    "label " + std::string(own) + " covers a Signature-Agent member, but the field is the legacy string form");
    if (whole) b.member = "";
    return b;
  }
  if (whole) {  // every member is covered: the label's own, or the only one
    if (find_agent(*agents, own)) b.member = own;
    else if (agents->size() == 1) b.member = agents->front().first;
    return b;
  }
  // The member named after the label is that label's agent: it must be covered.
  if (find_agent(*agents, own) && std::find(keys.begin(), keys.end(), own) == keys.end())
    return refuse(Reason::signature_agent_not_covered, "Signature-Agent member \"" + std::string(own) + "\" is not covered by label " + std::string(own));
  for (const auto& k : keys)
    if (!find_agent(*agents, k))
      return refuse(Reason::missing_signature_agent, "label " + std::string(own) + " covers Signature-Agent member \"" + std::string(k) + "\", which is absent");
  if (keys.empty()) return b;  // vouches for no agent (no member of its own)
  if (std::find(keys.begin(), keys.end(), own) != keys.end()) b.member = own;
  else if (keys.size() == 1) b.member = keys.front();
  else
    return refuse(Reason::profile_violation, "label " + std::string(own) +
                                                 " covers several Signature-Agent members and not its own: which agent it "
                                                 "speaks for is ambiguous");
  return b;
}

void AgentKeyResolver::set_agent_keys(std::string member, const httpsig::KeyResolver* keys) {
  for (auto& [m, k] : by_member_)
    if (m == member) {
      k = keys;
      return;
    }
  by_member_.emplace_back(std::move(member), keys);
}

std::optional<httpsig::ResolvedKey> AgentKeyResolver::resolve(std::string_view keyid) const {
  return oob_ ? oob_->resolve(keyid) : std::nullopt;
}
std::optional<httpsig::ResolvedKey> AgentKeyResolver::resolve_for(std::string_view keyid, const SuiteInfo* alg) const {
  return oob_ ? oob_->resolve_for(keyid, alg) : std::nullopt;
}
std::optional<httpsig::ResolvedKey> AgentKeyResolver::resolve_label(const Message&, std::string_view label,
                                                                    const httpsig::SignatureParams& p,
                                                                    const SuiteInfo* alg) const {
  const std::string* keyid = p.string_param("keyid");
  if (!keyid) return std::nullopt;
  if (auto k = resolve_for(*keyid, alg)) return k;
  auto b = bind_label_agent(agents_, label, p);
  if (b.reason != Reason::ok || !b.member) return std::nullopt;
  for (const auto& [m, keys] : by_member_)
    if (m == *b.member && keys) return keys->resolve_for(*keyid, alg);
  return std::nullopt;
}

// ------------------------------------------------------------------ verifier

Reason check_profile(const Message& msg, const std::string& label, const httpsig::SignatureParams& p,
                     std::string& detail, const void* ctx) {
  if (const std::string* tag = p.string_param("tag"); !tag || *tag != kTag) {
    detail = "tag must be \"web-bot-auth\"";
    return Reason::wrong_tag;
  }
  if (!p.created()) {
    detail = "created is required";
    return Reason::missing_created;
  }
  if (!p.expires()) {
    detail = "expires is required by the Web Bot Auth profile";
    return Reason::profile_violation;
  }
  bool authority = false, covers_agent = false;
  for (const auto& c : p.components()) {
    if (c.bare.s == "@authority" && !sf::find_param(c.params, "req")) authority = true;
    if (c.bare.s == "signature-agent") covers_agent = true;
  }
  if (!authority) {
    detail = "\"@authority\" must be covered";
    return Reason::required_component_not_covered;
  }
  // The rule (webbotauth.hpp, bind_label_agent): a label vouches for an agent only by covering it.
  // ctx: the field already parsed by the caller (one parse per request, not one per label).
  const auto* agents = static_cast<const SignatureAgents*>(ctx);
  std::optional<SignatureAgents> own;
  if (!agents) {
    if (auto sa = msg.get("signature-agent")) {
      auto parsed = parse_signature_agent(*sa);
      if (!parsed) {
        if (!covers_agent) return Reason::ok;  // vouches for no agent; the field is not this label's concern
        detail = "Signature-Agent: " + parsed.error().message;
        return Reason::missing_signature_agent;
      }
      own = std::move(parsed.value());
      agents = &*own;
    }
  }
  auto b = bind_label_agent(agents, label, p);
  if (b.reason != Reason::ok) detail = b.detail;
  return b.reason;
}

httpsig::VerifyReport verify_request(const Message& request, const httpsig::KeyResolver& keys, const VerifierOptions& opt) {
  httpsig::VerifyPolicy pol;
  pol.now = opt.now;
  pol.clock_skew = opt.clock_skew;
  pol.require_created = true;
  pol.max_window = opt.max_window;
  pol.tag = std::string(kTag);
  pol.nonces = opt.nonces;
  pol.require_nonce = opt.require_nonce;
  pol.required_labels = opt.required_labels;
  pol.allowed_algs = opt.allowed_algs;
  pol.min_valid = opt.min_valid;
  return httpsig::verify_message(request, keys, pol, nullptr, &check_profile, nullptr);
}

}  // namespace pqsig::webbotauth
