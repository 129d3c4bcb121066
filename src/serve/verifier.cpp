// pqsig_serve: the decision for one proxied request — the authority checked against the ones
// this verifier protects, keys from static JWKS and from the directory of the agent each label
// covers (webbotauth::AgentKeyResolver: never another agent's), the library's RFC 9421 / Web Bot
// Auth verification under the policy, nonce replay included (the library records nonces only
// once the policy is satisfied).
#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>

#include "pqsig/classical.hpp"
#include "pqsig/lms.hpp"
#include "pqsig/mldsa.hpp"
#include "pqsig/serve.hpp"
#include "pqsig/slhdsa.hpp"
#include "pqsig/xmss.hpp"

namespace pqsig::serve {
namespace {

namespace hs = pqsig::httpsig;

/// The replay store as verify_message sees it: each nonce is counted against its owner — the
/// agent the key came from (owner_of), or the static key itself — so one stranger's signatures
/// fill only its own quota. Remembers whether the store refused a nonce (quota), to name that reason.
class OwnedNonces : public hs::NonceStore {
 public:
  using OwnerOf = std::function<std::string(std::string_view keyid)>;
  OwnedNonces(hs::NonceStore& inner, OwnerOf owner_of) : inner_(inner), owner_of_(std::move(owner_of)) {}
  NonceOutcome record(std::string_view keyid, std::string_view nonce, std::int64_t forget_after,
                      std::int64_t now) override {
    std::string owner = owner_of_(keyid);
    if (owner.empty()) owner = "static " + std::string(keyid);
    auto o = inner_.record_for(owner, keyid, nonce, forget_after, now);
    if (o == NonceOutcome::refused) refused = true;
    return o;
  }
  bool refused = false;

 private:
  hs::NonceStore& inner_;
  OwnerOf owner_of_;
};

Decision reject(std::string reason, std::string detail) {
  Decision d;
  d.status = 401;
  d.reason = std::move(reason);
  d.detail = std::move(detail);
  return d;
}

}  // namespace

namespace {
// An HSS/LMS verification, in the units of verify_cost_units (one ML-DSA-44 verification, about
// 500 SHA-256 calls): per level, the LM-OTS chains p · (2^w - 1) / 2 hashes on average plus the
// h path hashes. From the suite's L and top-level LM-OTS type: a registry row, or the row of a
// key whose parameter set was read from the key (suite_for_public_key; its levels repeat the top).
std::size_t hss_cost_units(std::uint32_t levels, std::uint32_t lmots_type) noexcept {
  const auto* ots = lms::find_lmots(lmots_type);
  if (!ots || levels < 1 || levels > lms::kMaxLevels) return 1;
  const std::size_t per_level = (std::size_t{ots->p} * ((std::size_t{1} << ots->w) - 1) / 2 + 30) / 500 + 1;
  return levels * per_level;
}
// An XMSS / XMSS^MT verification in the same units: per layer, the WOTS+ chains len · (w - 1) / 2
// steps on average (w = 16, RFC 8391 §3.1; each step a PRF for its key, one for its bitmask and F:
// 3 hashes), the L-tree's len - 1 nodes and the h/d path nodes (each 3 PRFs and H: 4 hashes).
// SHA-512 sets (n = 64) count each hash twice. From the suite's OID, registry and layers d.
std::size_t xmss_cost_units(const HbsParams& h) noexcept {
  const xmss::Params* p = h.mt ? xmss::find_xmssmt(h.code) : xmss::find_xmss(h.code);
  if (!p || p->d < 1 || p->d > 12) return 5;
  const std::size_t len = p->wots_len(), hashes = len * 15 / 2 * 3 + (len - 1) * 4 + std::size_t{p->tree_height()} * 4;
  const std::size_t per_layer = (hashes * (p->n == 64 ? 2 : 1) + 30) / 500 + 1;
  return p->d * per_layer;
}
}  // namespace

std::size_t verify_cost_units(const SuiteInfo& suite) noexcept {
  using S = slhdsa::ParamSet;
  using K = classical::Kind;
  switch (suite.family) {
    case Family::ml_dsa:
      return suite.params.mldsa == mldsa::Level::ml_dsa_44 ? 1 : suite.params.mldsa == mldsa::Level::ml_dsa_65 ? 2 : 3;
    case Family::slh_dsa:
      switch (suite.params.slhdsa) {  // the fast ("f") sets verify more layers
        case S::sha2_128f: case S::shake_128f: case S::sha2_192f: case S::shake_192f: case S::sha2_256f:
        case S::shake_256f: return 40;
        default: return 10;
      }
    case Family::composite: return 5;
    // Stateful hash-based: one Winternitz chain walk per level.
    case Family::lms: return hss_cost_units(suite.params.hbs.levels, suite.params.hbs.ots);
    case Family::xmss: return xmss_cost_units(suite.params.hbs);
    case Family::classical:
      switch (suite.params.classical) {
        case K::rsa_pss_sha512: case K::rsa_v15_sha256: return 3;
        case K::ecdsa_p256: case K::ecdsa_p384: return 2;
        case K::ed25519: case K::hmac_sha256: return 1;
        case K::ed448: return 10;
      }
      return 10;
    case Family::ml_kem: case Family::hybrid_kem: case Family::none: break;
  }
  return 10;
}

Result<std::unique_ptr<Verifier>> Verifier::create(VerifyOptions opt, const std::vector<std::string>& static_keys,
                                                   DirectoryCache* dirs, ReplayStore* replay, Metrics* metrics) {
  std::unique_ptr<Verifier> v(new Verifier());
  v->opt_ = std::move(opt);
  for (std::size_t i = 0; i < static_keys.size(); ++i) {
    auto r = webbotauth::add_jwks(v->static_, static_keys[i]);
    if (!r) return Error{r.error().code, "keys file " + std::to_string(i + 1) + ": " + r.error().message};
  }
  if (v->opt_.proxy.mode == ProxyMode::envoy) {
    // A prefix keeps /healthz and /metrics out of the origin's path space (without one, Envoy's
    // check for an origin request to /metrics would be answered 200 by the metrics endpoint).
    const std::string& p = v->opt_.proxy.envoy_prefix;
    if (p.size() < 2 || p.front() != '/' || p.back() == '/' || p == "/healthz" || p == "/metrics")
      return Error{Errc::invalid_argument, "envoy: the ext_authz path_prefix must be a path such as /auth (not ending in '/')"};
  }
  if (v->opt_.policy.require_nonce && !replay) return Error{Errc::invalid_argument, "the policy requires nonces but no replay store is configured"};
  if (replay) {
    // The store forgets a nonce after nonce_retention: a label older than that (minus the clock
    // skew on both ends) is refused, so a forgotten nonce can never be replayed.
    const std::int64_t cap = v->opt_.nonce_retention - 2 * v->opt_.policy.clock_skew;
    if (cap < 1) return Error{Errc::invalid_argument, "nonce retention must exceed twice the clock skew"};
    if (!v->opt_.policy.max_age || *v->opt_.policy.max_age > cap) v->opt_.policy.max_age = cap;
  }
  if (v->static_.size() == 0 && !dirs) return Error{Errc::invalid_argument, "no keys: give --keys or enable directory fetching"};
  // The authorities protected here (cross-site replay: a signature a bot made for another site
  // must never be accepted because the proxy forwarded that site's name).
  if (v->opt_.any_authority && !v->opt_.policy.authorities.empty())
    return Error{Errc::invalid_argument, "authorities are listed and any_authority is set: choose one"};
  if (!v->opt_.any_authority && v->opt_.policy.authorities.empty())
    return Error{Errc::invalid_argument,
                 "the verifier must know the authorities it protects: --authority example.org[,www.example.org] "
                 "(or the policy's \"authorities\"); --any-authority turns the check off, only when the proxy in front "
                 "refuses every other name"};
  for (const auto& a : v->opt_.policy.authorities) {
    auto n = normalize_authority(a, v->opt_.scheme);
    if (!n) return n.error();
    v->authorities_.push_back(n.value());
  }
  // The library's policy, built once here; a request sets only its time and nonce store.
  hs::VerifyPolicy& vp = v->verify_policy_;
  const Policy& pol = v->opt_.policy;
  vp.clock_skew = pol.clock_skew;
  vp.max_age = pol.max_age;
  vp.require_created = true;
  vp.require_expires = true;
  vp.require_nonce = pol.require_nonce;
  vp.max_window = pol.max_validity;
  vp.required_components = pol.required_components;
  vp.required_labels = pol.required_labels;
  vp.allowed_algs = pol.algorithms;
  vp.tag = pol.required_tag;
  vp.fail_on_invalid = true;
  vp.min_valid = pol.min_valid;
  vp.nonce_fail_open = v->opt_.replay_fail_open;
  vp.check_content_digest = true;
  v->dirs_ = dirs;
  v->replay_ = replay;
  v->metrics_ = metrics;
  bool ed = false;
  for (const auto& a : v->opt_.policy.algorithms) ed = ed || a == "ed25519";
  v->accept_signature_ = "sig1=(\"@authority\" \"signature-agent\";key=\"sig1\");created;expires;tag=\"" +
                         v->opt_.policy.required_tag + "\"" + (ed ? ";alg=\"ed25519\"" : "");
  return v;
}

Decision Verifier::decide(const hs::Message& request, std::int64_t now, DirectoryCache::Park* park) noexcept {
  auto t0 = std::chrono::steady_clock::now();
  Decision d;
  try {
    d = decide_impl(request, now, park);
    if (park && park->parked) return d;  // suspended: not a decision, nothing counted
  } catch (...) {  // never 200 on an internal error
    d = reject("internal_error", "internal error while verifying");
    if (metrics_) ++metrics_->internal_errors;
  }
  if (metrics_) {
    try {
      if (d.status == 200) metrics_->verified();
      else metrics_->rejected(d.reason);
      metrics_->latency(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    } catch (...) {
    }
  }
  return d;
}

Decision Verifier::decide_impl(const hs::Message& req, std::int64_t now, DirectoryCache::Park* park) {
  const Policy& pol = opt_.policy;
  if (hs::header_section_size(req) > opt_.max_header_bytes) {
    if (metrics_) metrics_->limit_hit("header_bytes");
    return reject("header_too_large", "request header section above " + std::to_string(opt_.max_header_bytes) + " bytes");
  }
  if (!req.has("signature-input") && !req.has("signature"))
    return reject("missing_signature", "no Signature-Input / Signature fields");
  if (!req.has("signature-input")) return reject("malformed_signature_input", "Signature without Signature-Input");
  if (!req.has("signature")) return reject("missing_signature", "Signature-Input without Signature");
  auto fields = hs::parse_signature_fields(req);
  if (!fields) return reject("malformed_signature", fields.error().message);
  if (fields->input.size() > opt_.max_labels) {
    if (metrics_) metrics_->limit_hit("labels");
    return reject("too_many_labels", std::to_string(fields->input.size()) + " labels (limit " + std::to_string(opt_.max_labels) + ")");
  }

  // The authority the request was sent to must be one this verifier protects, before any key
  // lookup or directory fetch.
  if (!opt_.any_authority) {
    auto auth = hs::component_value(req, hs::component("@authority"));
    if (!auth) return reject("authority_not_protected", "the request names no authority (Host)");
    if (std::find(authorities_.begin(), authorities_.end(), auth.value()) == authorities_.end())
      return reject("authority_not_protected", "authority '" + auth->substr(0, 128) + "' is not protected by this verifier");
  }

  // The Signature-Agent field, parsed once (the library's parser), and the keys of the agent
  // each label covers (webbotauth::bind_label_agent): only those agents are fetched, and a
  // label's key is looked up in its own agent's keys only.
  std::optional<webbotauth::SignatureAgents> agents;
  std::string sa_buf;
  if (auto sa = req.value("signature-agent", sa_buf)) {
    auto refs = webbotauth::parse_signature_agent(*sa);
    if (!refs) return reject("malformed_signature_agent", refs.error().message);
    agents = std::move(refs.value());
  }
  webbotauth::AgentKeyResolver resolver(agents ? &*agents : nullptr, &static_);
  // Each label's parameters and the member it vouches for, worked out once for the request.
  // The labels' parameters are taken out of the parsed field once and shared with verify_message.
  const std::vector<hs::SignatureParams> params = hs::take_label_params(*fields);
  struct LabelInfo {
    const std::string* label;
    const hs::SignatureParams* params;
    std::optional<std::string> member;  ///< bind_label_agent's member (reason ok), else none
  };
  std::vector<LabelInfo> infos;
  infos.reserve(fields->input.size());
  for (std::size_t k = 0; k < fields->input.size(); ++k) {
    if (!fields->input[k].second.is_inner_list) continue;
    LabelInfo li{&fields->input[k].first, &params[k], std::nullopt};
    if (agents) {
      auto b = webbotauth::bind_label_agent(&*agents, *li.label, *li.params);
      if (b.reason == hs::Reason::ok) li.member = std::move(b.member);
    }
    infos.push_back(std::move(li));
  }
  std::vector<std::shared_ptr<const AgentKeys>> held;               // kept alive while verifying
  std::vector<std::pair<std::string, std::string>> agent_errors;   // member -> why its keys are missing
  if (agents && dirs_) {
    std::vector<std::string> done;
    std::size_t n = 0;
    for (const auto& li : infos) {
      const std::optional<std::string>& member = li.member;
      if (!member) continue;  // refused by the profile check / no agent
      if (std::find(done.begin(), done.end(), *member) != done.end()) continue;
      done.push_back(*member);
      if (++n > opt_.max_agents) {
        if (metrics_) metrics_->limit_hit("agents");
        break;
      }
      const AgentRef* named = nullptr;
      for (const auto& [m, r] : *agents)
        if (m == *member) named = &r;
      if (!named) continue;
      AgentRef ref = *named;
      bool in_policy = std::find(pol.agents.begin(), pol.agents.end(), ref.url) != pol.agents.end();
      const AgentRef* reg = nullptr;
      if (!opt_.registry_agents.empty()) {
        std::string want = agent_fetch_url(ref);
        for (const auto& r : opt_.registry_agents)
          if (r.url == ref.url || agent_fetch_url(r) == want) reg = &r;
        if (reg) ref.type = reg->type;  // the registry (the operator) says what the URL is
      }
      bool restricted = !pol.agents.empty() || opt_.registry_only || !opt_.registry_agents.empty();
      if (restricted && !in_policy && !reg) {
        agent_errors.emplace_back(*member, "agent " + ref.url + " is not allowed by the policy or the registry");
        continue;
      }
      // What each discovery type proves (docs/deploy.md): a directory is signed for its origin by
      // the keys it publishes; a jwks_uri or card proves only that a host served keys at a path.
      // A request cannot pick the weaker proof: those types are fetched only for agents the
      // operator listed (registry / policy agents), or when signed directories are not required.
      if (ref.type != AgentType::directory && !in_policy && !reg && dirs_->options().require_signed_directory) {
        agent_errors.emplace_back(*member, "agent " + ref.url + ": type " + std::string(webbotauth::agent_type_name(ref.type)) +
                                                 " is accepted only for agents listed in the registry or the policy "
                                                 "(a request cannot choose to skip the signed directory)");
        continue;
      }
      auto k = dirs_->get(ref, now, park);
      if (park && park->parked) return reject("directory_pending", k ? std::string() : k.error().message);
      if (!k) {
        agent_errors.emplace_back(*member, k.error().message);
        continue;
      }
      held.push_back(k.value());
      resolver.set_agent_keys(*member, &held.back()->store);
    }
  }

  // The work this request can cause, bounded before any signature is checked: each label whose
  // key resolves under an allowed algorithm costs one verification with that key.
  std::size_t cost = 0;
  for (const auto& li : infos) {
    const auto* kid = sf::find_param(li.params->list.params, "keyid");
    if (!kid || kid->type != sf::Type::string) continue;
    const SuiteInfo* want = nullptr;
    if (const auto* a = sf::find_param(li.params->list.params, "alg"); a && a->type == sf::Type::string) want = hs::suite_for_alg(a->s);
    auto k = resolver.resolve_label(req, *li.label, *li.params, want);
    if (!k || !k->suite) continue;
    if (std::find(pol.algorithms.begin(), pol.algorithms.end(), hs::alg_name(*k->suite)) == pol.algorithms.end()) continue;
    cost += verify_cost_units(*k->suite);
  }
  if (cost > opt_.max_cost_units) {
    if (metrics_) metrics_->limit_hit("request_cost");
    return reject("too_costly", "labels would cost " + std::to_string(cost) + " verification units (limit " +
                                    std::to_string(opt_.max_cost_units) + ")");
  }

  hs::VerifyPolicy vp = verify_policy_;  // built once in create()
  vp.now = now;
  std::optional<OwnedNonces> owned;
  if (replay_)
    owned.emplace(*replay_, [&](std::string_view keyid) -> std::string {
      if (static_.resolve(keyid)) return "static " + std::string(keyid);
      for (const auto& a : held)
        if (a->store.resolve(keyid)) return a->url;
      return "unattributed " + std::string(keyid);
    });
  vp.nonces = owned ? &*owned : nullptr;  // the library records nonces only once the whole policy is satisfied
  bool wba = pol.required_tag == webbotauth::kTag;
  // The fields and the Signature-Agent field parsed above are handed on, not parsed again.
  auto rep = hs::verify_message(req, *fields, params, resolver, vp, nullptr, wba ? &webbotauth::check_profile : nullptr,
                                agents ? &*agents : nullptr);
  // The member a label vouches for (attribution, and which agent's failure explains a missing key).
  auto member_of = [&](const std::string& label) -> std::optional<std::string> {
    for (const auto& li : infos)
      if (*li.label == label) return li.member;
    return std::nullopt;
  };
  if (metrics_ && owned && rep.policy_satisfied)
    if (const auto* mem = dynamic_cast<const MemoryReplayStore*>(replay_)) {
      metrics_->nonce_entries = mem->size();
      metrics_->nonce_evicted = mem->evicted();
    }
  if (metrics_ && rep.nonce_errors) {
    metrics_->nonce_store_errors += rep.nonce_errors;
    if (opt_.replay_fail_open && rep.policy_satisfied) metrics_->nonce_fail_open += rep.nonce_errors;
  }

  if (!rep.policy_satisfied) {
    const hs::Verdict* first_invalid = nullptr;
    const hs::Verdict* first_skipped = nullptr;
    for (const auto& v : rep.verdicts) {
      if (v.outcome == hs::Outcome::invalid && !first_invalid) first_invalid = &v;
      if (v.outcome == hs::Outcome::skipped && !first_skipped) first_skipped = &v;
    }
    if (first_invalid && first_invalid->reason == hs::Reason::nonce_replayed && owned && owned->refused) {
      if (metrics_) metrics_->limit_hit("nonces_per_owner");
      return reject("nonce_quota", first_invalid->label + ": " + first_invalid->detail);
    }
    if (first_invalid) return reject(std::string(hs::reason_name(first_invalid->reason)), first_invalid->label + ": " + first_invalid->detail);
    if (first_skipped) {
      if (first_skipped->reason == hs::Reason::unknown_keyid) {
        if (auto m = member_of(first_skipped->label))
          for (const auto& [member, why] : agent_errors)
            if (member == *m) return reject("directory_unavailable", first_skipped->label + ": " + why);
      }
      return reject(std::string(hs::reason_name(first_skipped->reason)), first_skipped->label + ": " + first_skipped->detail);
    }
    return reject("policy_not_satisfied", rep.policy_detail);
  }

  Decision d;
  d.status = 200;
  d.reason = "ok";
  for (const auto& v : rep.verdicts) {
    if (v.outcome != hs::Outcome::valid) continue;
    d.labels.push_back(v.label);
    if (d.label.empty()) {
      d.label = v.label;
      d.keyid = v.keyid;
      d.alg = v.alg;
      // Attribution: the agent this label covers — its key came from that agent's keys, or from
      // the operator's static keys (which then vouch for the covered claim); no covered member,
      // no agent.
      if (auto m = member_of(v.label))
        for (const auto& [k, ref] : *agents)
          if (k == *m) d.agent = ref.url;
    }
  }
  return d;
}

}  // namespace pqsig::serve
