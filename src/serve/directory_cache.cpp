// pqsig_serve: the key directory cache (fetch over HTTPS with limits and no redirects,
// signed-response verification, keys filed under their thumbprints, max-age, LRU bound, negative
// caching, stale-while-error, one fetch per directory), plus Signature Agent Card validation
// (draft-meunier-webbotauth-registry-04). Signature-Agent parsing is the library's (webbotauth.hpp).
#include <algorithm>
#include <chrono>
#include <charconv>

#include <nlohmann/json.hpp>

#include "pqsig/serve.hpp"

namespace pqsig::serve {
namespace {

std::string lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

// Cache-Control max-age (RFC 9111 §5.2.2.1); no-store / no-cache → 0; absent → nullopt.
std::optional<std::int64_t> max_age_of(const std::optional<std::string>& cc) {
  if (!cc) return std::nullopt;
  std::string v = lower(*cc);
  if (v.find("no-store") != std::string::npos || v.find("no-cache") != std::string::npos) return 0;
  auto p = v.find("max-age=");
  if (p == std::string::npos) return std::nullopt;
  p += 8;
  if (p < v.size() && v[p] == '"') ++p;
  std::int64_t n = 0;
  auto r = std::from_chars(v.data() + p, v.data() + v.size(), n);
  if (r.ec != std::errc() || n < 0) return std::nullopt;
  return n;
}

std::int64_t steady_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

namespace {
// draft-meunier-webbotauth-registry §3: card members shared by fetched and inline cards.
Result<CardKeys> card_keys(const nlohmann::json& j) {
  if (auto wba = j.find("web_bot_auth"); wba != j.end() && !wba->is_object())
    return Error{Errc::invalid_encoding, "agent card: web_bot_auth must be an object"};
  for (const char* s : {"client_name", "client_uri", "purpose"})
    if (auto it = j.find(s); it != j.end() && !it->is_string())
      return Error{Errc::invalid_encoding, std::string("agent card: ") + s + " must be a string"};
  auto jw = j.find("jwks");
  auto ju = j.find("jwks_uri");
  // The card's parameters are drawn from the OAuth DCR metadata (the draft's abstract); RFC 7591 §2:
  // jwks_uri and jwks "MUST NOT both be present".
  if (jw != j.end() && ju != j.end()) return Error{Errc::invalid_encoding, "agent card has both jwks and jwks_uri"};
  CardKeys out;
  if (jw != j.end()) {
    if (!jw->is_object() || !jw->contains("keys") || !(*jw)["keys"].is_array())
      return Error{Errc::invalid_encoding, "agent card: jwks must be a JWKS object"};
    out.jwks = jw->dump();
  } else if (ju != j.end()) {
    if (!ju->is_string()) return Error{Errc::invalid_encoding, "agent card: jwks_uri must be a string"};
    out.jwks_uri = ju->get<std::string>();
    // §3.1.2: "The URI scheme MUST be https." (an empty or relative jwks_uri names no keys)
    auto u = client::parse_url(out.jwks_uri);
    if (!u || u->scheme != "https") return Error{Errc::invalid_encoding, "agent card: jwks_uri must be an https URL"};
  } else {
    return Error{Errc::invalid_encoding, "agent card carries no keys (jwks or jwks_uri)"};
  }
  return out;
}
}  // namespace

// draft-meunier-webbotauth-registry §3.1.1: a card fetched from its client_id names that URL.
Result<CardKeys> validate_agent_card(std::string_view text, std::string_view card_url) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{Errc::invalid_encoding, "agent card is not a JSON object"};
  auto cid = j.find("client_id");
  if (cid == j.end() || !cid->is_string()) return Error{Errc::invalid_encoding, "agent card without client_id"};
  if (cid->get<std::string>() != card_url)
    return Error{Errc::policy, "agent card client_id '" + cid->get<std::string>() + "' is not the card's URL"};
  return card_keys(j);
}

// draft-meunier-webbotauth-registry §4: a card inlined in a registry (data: URL).
Result<CardKeys> validate_inline_agent_card(std::string_view text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{Errc::invalid_encoding, "agent card is not a JSON object"};
  if (j.empty()) return Error{Errc::invalid_encoding, "agent card has no parameter"};
  if (auto cid = j.find("client_id"); cid != j.end()) {
    if (!cid->is_string()) return Error{Errc::invalid_encoding, "agent card: client_id must be a string"};
    auto u = client::parse_url(cid->get<std::string>());
    if (!u || u->scheme != "https") return Error{Errc::invalid_encoding, "agent card: client_id must be an https URL"};
  }
  return card_keys(j);
}

DirectoryCache::DirectoryCache(DirectoryCacheOptions opt, Metrics* metrics, Fetch fetch)
    : opt_(std::move(opt)), metrics_(metrics), fetch_(std::move(fetch)) {}

std::size_t DirectoryCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return slots_.size();
}

// draft-ietf-webbotauth-httpsig-protocol, "Key Distribution and Discovery": each resource MUST
// be served with 200; a verifier "MUST NOT automatically follow HTTP redirects" — a redirect is a
// failed fetch (following one would file another origin's keys under the URL the request named).
Result<client::HttpResponse> DirectoryCache::fetch_once(const std::string& url) {
  fetches_.fetch_add(1);
  Result<client::HttpResponse> r = Error{Errc::internal, "unset"};
  if (fetch_) {
    r = fetch_(url);
  } else {
    std::vector<httpsig::FieldLine> h{{"Accept", std::string(webbotauth::kDirectoryMediaType) + ", application/json"}};
    r = client::http_exchange("GET", url, h, {}, opt_.http);
  }
  if (!r) return r.error();
  if (r->status != 200) {
    if (r->status >= 300 && r->status < 400)
      return Error{Errc::policy, url + " answered HTTP " + std::to_string(r->status) +
                                     ": key discovery follows no redirect (draft-ietf-webbotauth-httpsig-protocol)"};
    return Error{Errc::io, url + " answered HTTP " + std::to_string(r->status)};
  }
  r->url = url;
  return r;
}

Result<std::shared_ptr<const AgentKeys>> DirectoryCache::load(const AgentRef& agent, std::int64_t now, std::int64_t* ttl) {
  auto u = client::parse_url(agent.url);
  if (!u) return u.error();
  std::string url = agent.url;
  if (agent.type == AgentType::directory) {
    // The draft: a directory member "MUST be the ASCII serialization of an origin" (an empty path
    // "/" may be accepted); its keys are at the well-known URI of that origin, and nowhere else.
    if (u->path_query != "/" && u->path_query != webbotauth::kDirectoryPath)
      return Error{Errc::policy, agent.url + ": a directory agent must name an origin (keys are served at " +
                                     std::string(webbotauth::kDirectoryPath) + ")"};
    url = u->origin() + std::string(webbotauth::kDirectoryPath);
  }
  auto resp = fetch_once(url);
  if (!resp) return resp.error();
  auto ma = max_age_of(resp->header("cache-control"));
  *ttl = std::clamp(ma.value_or(opt_.default_ttl), opt_.min_ttl, opt_.max_ttl);
  auto keys = std::make_shared<AgentKeys>();
  keys->url = agent.url;
  std::string jwks = resp->body;
  if (agent.type == AgentType::directory) {
    auto ct = resp->header("content-type");
    std::string mt = ct ? lower(ct->substr(0, ct->find(';'))) : "";
    while (!mt.empty() && mt.back() == ' ') mt.pop_back();
    if (mt != webbotauth::kDirectoryMediaType && mt != "application/json")
      return Error{Errc::invalid_encoding, url + ": media type '" + mt + "' is not " + std::string(webbotauth::kDirectoryMediaType)};
    if (opt_.require_signed_directory) {
      // Signed for the authority this verifier asked (no redirect was followed).
      auto rep = webbotauth::verify_directory(resp->as_message(), u->authority(), now, 60);
      if (!rep.policy_satisfied) return Error{Errc::verify_failed, url + ": directory signature: " + rep.policy_detail};
    }
  } else if (agent.type == AgentType::cimd) {
    auto card = validate_agent_card(resp->body, agent.url);
    if (!card) return card.error();
    if (!card->jwks.empty()) {
      jwks = card->jwks;
    } else {
      auto jr = fetch_once(card->jwks_uri);
      if (!jr) return jr.error();
      jwks = jr->body;
    }
  }
  // Each key under its own thumbprint only; at a directory a kid naming another key is refused.
  auto n = webbotauth::add_fetched_jwks(keys->store, jwks, agent.type == AgentType::directory);
  if (!n) return Error{n.error().code, url + ": " + n.error().message};
  if (metrics_ && n->kid_mismatch) metrics_->dir_kid_mismatch += n->kid_mismatch;
  if (n->filed == 0) return Error{Errc::unsupported, url + ": no usable key: " + n->errors};
  if (keys->store.size() == 0) return Error{Errc::invalid_encoding, url + ": no usable key"};
  return std::shared_ptr<const AgentKeys>(std::move(keys));
}

Result<std::shared_ptr<const AgentKeys>> DirectoryCache::get(const AgentRef& agent, std::int64_t now) {
  const std::string key = std::string(webbotauth::agent_type_name(agent.type)) + " " + agent.url;
  std::unique_lock<std::mutex> lk(mu_);
  if (slots_.find(key) == slots_.end() && slots_.size() >= opt_.max_entries) {
    auto victim = slots_.end();
    for (auto it = slots_.begin(); it != slots_.end(); ++it)
      if (!it->second.inflight && (victim == slots_.end() || it->second.last_used < victim->second.last_used)) victim = it;
    if (victim == slots_.end()) return Error{Errc::policy, "directory cache full of pending fetches"};
    slots_.erase(victim);
  }
  const std::int64_t wait_deadline = steady_now_ms() + opt_.http.total_timeout_ms * 3 + 1000;
  for (int round = 0; round < 4; ++round) {
    Slot& s = slots_[key];
    s.last_used = now;
    if (s.keys && now < s.fresh_until) {
      if (metrics_) ++metrics_->dir_hits;
      return s.keys;
    }
    if (now < s.negative_until) {
      if (metrics_) ++metrics_->dir_negative;
      if (s.keys && now < s.stale_until) {
        if (metrics_) ++metrics_->dir_stale;
        return s.keys;
      }
      return Error{Errc::io, s.error};
    }
    if (s.inflight) {  // single flight: wait for the fetch already running
      std::int64_t left = wait_deadline - steady_now_ms();
      if (left <= 0) break;
      cv_.wait_for(lk, std::chrono::milliseconds(left), [&] {
        auto it = slots_.find(key);
        return it == slots_.end() || !it->second.inflight;
      });
      continue;
    }
    if (running_ >= opt_.max_concurrent_fetches) {
      if (metrics_) ++metrics_->dir_fetch_errors;
      return Error{Errc::io, "too many directory fetches in progress; try again"};
    }
    ++running_;
    s.inflight = true;
    if (metrics_) ++metrics_->dir_misses;
    lk.unlock();
    std::int64_t ttl = opt_.default_ttl;
    Result<std::shared_ptr<const AgentKeys>> r = Error{Errc::internal, "not loaded"};
    try {
      r = load(agent, now, &ttl);
    } catch (const std::exception& e) {  // bad_alloc and friends: never escape, never a key
      r = Error{Errc::internal, std::string("directory load: ") + e.what()};
    }
    lk.lock();
    --running_;
    Slot& t = slots_[key];
    t.inflight = false;
    Result<std::shared_ptr<const AgentKeys>> out = Error{Errc::internal, "unset"};
    if (r) {
      t.keys = r.value();
      t.fresh_until = now + ttl;
      t.stale_until = t.fresh_until + opt_.stale_cap;
      t.negative_until = 0;
      t.error.clear();
      out = t.keys;
    } else {
      if (metrics_) ++metrics_->dir_fetch_errors;
      t.error = r.error().message;
      t.negative_until = now + opt_.negative_ttl;
      if (t.keys && now < t.stale_until) {
        if (metrics_) ++metrics_->dir_stale;
        out = t.keys;
      } else {
        t.keys.reset();
        out = r.error();
      }
    }
    cv_.notify_all();
    return out;
  }
  return Error{Errc::io, "timed out waiting for the directory fetch of " + agent.url};
}

}  // namespace pqsig::serve
