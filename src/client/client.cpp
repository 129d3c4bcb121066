// pqsig_client: the Web Bot Auth signing client — key cache keyed by the secret, every hop signed
// for its own authority, Accept-Signature challenge answered once (RFC 9421 §5.1).
#include <chrono>
#include <optional>
#include <iostream>

#include <nlohmann/json.hpp>

#include "pqsig/client.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/jose.hpp"

namespace pqsig::client {
namespace {

namespace hs = pqsig::httpsig;
namespace wba = pqsig::webbotauth;

constexpr std::size_t kMaxCachedKeys = 16;
constexpr std::size_t kMaxJwkBytes = 64 * 1024;

std::string hex(const std::array<std::uint8_t, 32>& d) {
  static const char* k = "0123456789abcdef";
  std::string s;
  for (auto b : d) {
    s.push_back(k[b >> 4]);
    s.push_back(k[b & 15]);
  }
  return s;
}

std::int64_t system_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

// ------------------------------------------------------------------ key cache

Result<KeyCache::Entry> KeyCache::get(std::string_view private_jwk) {
  if (private_jwk.size() > kMaxJwkBytes) return Error{Errc::invalid_length, "JWK larger than 64 KiB"};
  auto j = nlohmann::json::parse(private_jwk, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{Errc::invalid_encoding, "key is not a JSON object"};
  // The secret member per key type: AKP "priv" (the seed), OKP/EC/RSA "d", oct "k".
  std::string secret_id;
  for (const char* m : {"kty", "alg", "crv", "priv", "d", "k"}) {
    auto it = j.find(m);
    secret_id += std::string(m) + "=" + (it != j.end() && it->is_string() ? it->get<std::string>() : "") + ";";
  }
  auto digest = hash::sha256(byte_span(reinterpret_cast<const std::uint8_t*>(secret_id.data()), secret_id.size()));
  secure_zero(secret_id.data(), secret_id.size());
  std::string id = hex(digest);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_secret_.find(id);
    if (it != by_secret_.end()) return it->second;
  }
  auto k = jose::load_jwk(private_jwk);
  if (!k) return k.error();
  if (!k->signing) return Error{Errc::invalid_argument, "the JWK holds no private key"};
  Entry e{std::make_shared<const SigningKey>(std::move(*k->signing)), k->thumbprint};
  std::lock_guard<std::mutex> lock(mu_);
  if (by_secret_.size() >= kMaxCachedKeys) by_secret_.clear();  // bounded; a rotation re-derives anyway
  ++derivations_;
  by_secret_[id] = e;
  return e;
}

std::size_t KeyCache::derivations() const {
  std::lock_guard<std::mutex> lock(mu_);
  return derivations_;
}
std::size_t KeyCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return by_secret_.size();
}

// ------------------------------------------------------------------ client

Client::Client(ClientOptions opt) : opt_(std::move(opt)) {
  if (!opt_.clock) opt_.clock = system_now;
  if (opt_.log) wba::set_log_sink(opt_.log);
}

Status Client::set_key(const std::string& label, std::string private_jwk) {
  auto e = cache_.get(private_jwk);
  if (!e) return e.error();
  for (auto& [l, jwk] : opt_.keys)
    if (l == label) {
      secure_zero(jwk.data(), jwk.size());
      jwk = std::move(private_jwk);
      return {};
    }
  opt_.keys.emplace_back(label, std::move(private_jwk));
  return {};
}

namespace {
hs::Message base_request(std::string_view method, const Url& url, const std::vector<hs::FieldLine>& headers,
                         std::string_view body, const std::string& user_agent) {
  hs::Message m;
  m.is_request = true;
  m.method = std::string(method);
  m.target = url.path_query;
  m.scheme = url.scheme;
  m.add("Host", url.authority());
  bool ua = false;
  for (const auto& h : headers) {
    std::string n = ascii_lower(h.name);
    if (n == "host" || n == "signature" || n == "signature-input" || n == "signature-agent") continue;
    if (n == "user-agent") ua = true;
    m.add(h.name, h.value);
  }
  if (!ua && !user_agent.empty()) m.add("User-Agent", user_agent);
  m.body = std::string(body);
  return m;
}
}  // namespace

Result<hs::Message> Client::build_signed(std::string_view method, const Url& url, const std::vector<hs::FieldLine>& headers,
                                         std::string_view body, std::vector<std::string>* labels,
                                         std::vector<std::string>* warnings) {
  hs::Message m = base_request(method, url, headers, body, opt_.user_agent);
  if (opt_.keys.empty()) return Error{Errc::invalid_argument, "no signing key configured"};
  std::vector<KeyCache::Entry> held;  // keeps the keys alive while signing
  held.reserve(opt_.keys.size());
  std::vector<wba::LabelKey> lks;
  for (std::size_t i = 0; i < opt_.keys.size(); ++i) {
    const auto& [label, jwk] = opt_.keys[i];
    wba::LabelKey lk;
    lk.label = label;
    lk.agent = opt_.agent;
    auto e = cache_.get(jwk);
    if (!e) {
      if (i == 0) return Error{e.error().code, "label " + label + ": " + e.error().message};
      // a later label without a usable key degrades away (logged once by the signer)
    } else {
      held.push_back(e.value());
      lk.key = held.back().key.get();
      lk.keyid = held.back().keyid;
    }
    lks.push_back(std::move(lk));
  }
  wba::SignerOptions so;
  so.created = opt_.clock();
  so.expires_in = opt_.expires_in;
  so.header_budget = opt_.header_budget;
  so.header_cap = opt_.header_cap;
  wba::Signer signer(std::move(lks), so);
  auto r = signer.sign(m);  // header budget checked before any signing work
  if (!r) return r.error();
  if (labels) *labels = r->signed_labels;
  if (warnings) warnings->insert(warnings->end(), r->warnings.begin(), r->warnings.end());
  return m;
}

Result<hs::Message> Client::answer_challenge(const hs::Message& unsigned_req, const std::vector<hs::SignatureRequest>& reqs,
                                             std::vector<std::string>* labels) {
  hs::Message m = unsigned_req;
  std::vector<KeyCache::Entry> held;
  held.reserve(opt_.keys.size());
  for (const auto& [label, jwk] : opt_.keys) {
    auto e = cache_.get(jwk);
    if (e) held.push_back(e.value());
  }
  std::int64_t now = opt_.clock();
  if (reqs.size() > wba::kMaxChallengeLabels)
    return Error{Errc::policy, "the server asks for " + std::to_string(reqs.size()) + " signatures (at most " +
                                   std::to_string(wba::kMaxChallengeLabels) + " are given)"};
  std::vector<hs::SignSpec> specs;
  sf::Dictionary agents;
  for (const auto& rq : reqs) {
    // Our safe profile plus what the server adds (webbotauth::challenge_spec): never less.
    std::optional<hs::SignSpec> chosen;
    for (const auto& e : held) {
      auto spec = wba::challenge_spec(rq, *e.key, e.keyid, !opt_.agent.empty(), now, opt_.expires_in);
      if (spec) {
        chosen = std::move(spec.value());
        break;
      }
      if (spec.error().code != Errc::invalid_argument) return spec.error();  // refused whatever the key
    }
    if (!chosen) continue;
    if (!opt_.agent.empty())
      sf::set_member(agents, rq.label, sf::Member::of(sf::Item{sf::BareItem::string(opt_.agent), {}}));
    specs.push_back(std::move(*chosen));
  }
  if (specs.empty()) return Error{Errc::unsupported, "no configured key can honour the Accept-Signature request"};
  if (!agents.empty()) {
    auto s = sf::serialize_dictionary(agents);
    if (!s) return s.error();
    m.set("Signature-Agent", s.value());
  }
  // Before any signing work: the header section with every parameter and a signature of the
  // suite's size (an SLH-DSA signature takes long and never fits) ...
  std::size_t est = hs::header_section_size(m);
  for (const auto& s : specs) {
    auto p = hs::make_params(s).serialize();
    est += s.label.size() * 2 + 8 + (p ? p->size() : 0) + (s.key->suite().output_size + 2) / 3 * 4;
  }
  if (est > opt_.header_cap)
    return Error{Errc::policy, "the requested signatures would take the request headers to about " + std::to_string(est) +
                                   " bytes, above the cap of " + std::to_string(opt_.header_cap)};
  auto r = hs::sign_message(m, specs);
  if (!r) return r.error();
  // ... and the cap itself on the header section as it will be sent.
  if (std::size_t final_bytes = hs::header_section_size(m); final_bytes > opt_.header_cap)
    return Error{Errc::policy, "the signed request headers are " + std::to_string(final_bytes) + " bytes, above the cap of " +
                                   std::to_string(opt_.header_cap) + "; not sent"};
  if (labels) {
    labels->clear();
    for (const auto& s : specs) labels->push_back(s.label);
  }
  return m;
}

Result<FetchResult> Client::fetch(std::string_view method, std::string_view url, const std::vector<hs::FieldLine>& headers,
                                  std::string_view body) {
  FetchResult out;
  std::string cur(url), meth(method), bdy(body);
  std::vector<hs::FieldLine> hdrs = headers;
  std::string first_origin;
  for (int hop = 0; hop <= opt_.max_redirects; ++hop) {
    auto u = parse_url(cur);
    if (!u) return u.error();
    if (first_origin.empty()) first_origin = u->origin();
    if (u->origin() != first_origin) {  // credentials never follow a redirect to another origin
      std::vector<hs::FieldLine> kept;
      for (const auto& h : hdrs) {
        std::string n = ascii_lower(h.name);
        if (n != "authorization" && n != "cookie" && n != "proxy-authorization") kept.push_back(h);
      }
      hdrs = std::move(kept);
    }
    hs::Message req;
    if (opt_.challenge_mode) {
      req = base_request(meth, u.value(), hdrs, bdy, opt_.user_agent);
      out.signed_labels.clear();
    } else {
      auto s = build_signed(meth, u.value(), hdrs, bdy, &out.signed_labels, &out.warnings);
      if (!s) return s.error();
      req = std::move(s.value());
    }
    auto resp = http_exchange(meth, cur, req.headers, bdy, opt_.http);
    if (!resp) return resp.error();
    ++out.hops;
    long st = resp->status;
    if (opt_.challenge_mode && (st == 401 || st == 403 || st == 429)) {
      auto as = resp->header("accept-signature");
      if (as) {
        hs::Message holder;
        holder.add("Accept-Signature", *as);
        auto reqs = hs::parse_accept_signature(holder);
        if (!reqs) return Error{Errc::invalid_encoding, "server's " + reqs.error().message};
        auto signed_req = answer_challenge(req, reqs.value(), &out.signed_labels);
        if (!signed_req) return signed_req.error();
        resp = http_exchange(meth, cur, signed_req->headers, bdy, opt_.http);  // retried once, no more
        if (!resp) return resp.error();
        ++out.hops;
        out.challenged = true;
        st = resp->status;
      }
    }
    bool redirect = st == 301 || st == 302 || st == 303 || st == 307 || st == 308;
    auto loc = resp->header("location");
    if (!redirect || !loc || hop == opt_.max_redirects) {
      if (redirect && loc && hop == opt_.max_redirects)
        out.warnings.push_back("stopped after " + std::to_string(opt_.max_redirects) + " redirects");
      out.response = std::move(resp.value());
      return out;
    }
    auto next = resolve_url(cur, *loc);
    if (!next) return next.error();
    cur = next.value();
    if (st == 303 || ((st == 301 || st == 302) && meth == "POST")) {
      meth = "GET";
      bdy.clear();
    }
  }
  return Error{Errc::internal, "redirect loop bound reached"};
}

}  // namespace pqsig::client
