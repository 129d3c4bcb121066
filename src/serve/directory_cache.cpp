// pqsig_serve: Signature-Agent parsing and the key directory cache (fetch over HTTPS with limits,
// signed-response verification, max-age, LRU bound, negative caching, stale-while-error, one fetch
// per directory), plus Signature Agent Card validation (draft-meunier-webbotauth-registry-04).
#include <algorithm>
#include <chrono>
#include <charconv>

#include <nlohmann/json.hpp>

#include "pqsig/serve.hpp"

namespace pqsig::serve {
namespace {

constexpr std::size_t kMaxAgentField = 4096;

std::string lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

std::string_view type_name(AgentType t) {
  switch (t) {
    case AgentType::directory: return "directory";
    case AgentType::jwks_uri: return "jwks_uri";
    case AgentType::cimd: return "cimd";
  }
  return "?";
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

Result<std::vector<std::pair<std::string, AgentRef>>> parse_signature_agent(std::string_view field) {
  if (field.size() > kMaxAgentField) return Error{Errc::invalid_length, "Signature-Agent longer than 4096 bytes"};
  std::vector<std::pair<std::string, AgentRef>> out;
  auto d = sf::parse_dictionary(field);
  if (!d || d->empty() || (d->size() == 1 && !d->front().second.is_inner_list &&
                           d->front().second.item.bare.type == sf::Type::boolean)) {
    // Older drafts: one sf-string.
    auto it = sf::parse_item(field);
    if (!it || it->bare.type != sf::Type::string)
      return Error{Errc::invalid_encoding, "Signature-Agent is neither a dictionary of strings nor a string"};
    out.push_back({"", AgentRef{it->bare.s, AgentType::directory}});
    return out;
  }
  for (const auto& [label, m] : d.value()) {
    if (m.is_inner_list || m.item.bare.type != sf::Type::string)
      return Error{Errc::invalid_encoding, "Signature-Agent member " + label + " is not a string"};
    AgentRef ref{m.item.bare.s, AgentType::directory};
    if (const auto* t = sf::find_param(m.item.params, "type")) {
      if (t->type != sf::Type::token && t->type != sf::Type::string)
        return Error{Errc::invalid_encoding, "Signature-Agent member " + label + ": type must be a token"};
      ref.typed = true;
      if (t->s == "directory") ref.type = AgentType::directory;
      else if (t->s == "jwks_uri") ref.type = AgentType::jwks_uri;
      else if (t->s == "cimd") ref.type = AgentType::cimd;
      else return Error{Errc::unsupported, "Signature-Agent member " + label + ": unknown type " + t->s};
    }
    out.push_back({label, std::move(ref)});
  }
  return out;
}

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

Result<client::HttpResponse> DirectoryCache::fetch_following(const std::string& start) {
  fetches_.fetch_add(1);
  if (fetch_) return fetch_(start);
  std::string url = start;
  for (int hop = 0; hop <= opt_.max_redirects; ++hop) {
    std::vector<httpsig::FieldLine> h{{"Accept", std::string(webbotauth::kDirectoryMediaType) + ", application/json"}};
    auto r = client::http_exchange("GET", url, h, {}, opt_.http);
    if (!r) return r.error();
    long st = r->status;
    auto loc = r->header("location");
    if ((st == 301 || st == 302 || st == 303 || st == 307 || st == 308) && loc) {
      auto next = client::resolve_url(url, *loc);
      if (!next) return next.error();
      url = next.value();
      continue;
    }
    r->url = url;
    return r;
  }
  return Error{Errc::policy, "more than " + std::to_string(opt_.max_redirects) + " redirects fetching " + start};
}

Result<std::shared_ptr<const AgentKeys>> DirectoryCache::load(const AgentRef& agent, std::int64_t now, std::int64_t* ttl) {
  auto u = client::parse_url(agent.url);
  if (!u) return u.error();
  std::string url = agent.url;
  if (agent.type == AgentType::directory && (u->path_query == "/" || u->path_query.empty()))
    url = u->origin() + std::string(webbotauth::kDirectoryPath);
  auto resp = fetch_following(url);
  if (!resp) return resp.error();
  if (resp->status != 200) return Error{Errc::io, url + " answered HTTP " + std::to_string(resp->status)};
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
      auto fu = client::parse_url(resp->url.empty() ? url : resp->url);
      if (!fu) return fu.error();
      auto rep = webbotauth::verify_directory(resp->as_message(), fu->authority(), now, 60);
      if (!rep.policy_satisfied) return Error{Errc::verify_failed, url + ": directory signature: " + rep.policy_detail};
    }
  } else if (agent.type == AgentType::cimd) {
    auto card = validate_agent_card(resp->body, agent.url);
    if (!card) return card.error();
    if (!card->jwks.empty()) {
      jwks = card->jwks;
    } else {
      auto jr = fetch_following(card->jwks_uri);
      if (!jr) return jr.error();
      if (jr->status != 200) return Error{Errc::io, card->jwks_uri + " answered HTTP " + std::to_string(jr->status)};
      jwks = jr->body;
    }
  }
  auto n = webbotauth::add_jwks(keys->store, jwks);
  if (!n) return Error{n.error().code, url + ": " + n.error().message};
  if (keys->store.size() == 0) return Error{Errc::invalid_encoding, url + ": no usable key"};
  return std::shared_ptr<const AgentKeys>(std::move(keys));
}

Result<std::shared_ptr<const AgentKeys>> DirectoryCache::get(const AgentRef& agent, std::int64_t now) {
  const std::string key = std::string(type_name(agent.type)) + " " + agent.url;
  std::unique_lock<std::mutex> lk(mu_);
  if (slots_.find(key) == slots_.end() && slots_.size() >= opt_.max_entries) {
    auto victim = slots_.end();
    for (auto it = slots_.begin(); it != slots_.end(); ++it)
      if (!it->second.inflight && (victim == slots_.end() || it->second.last_used < victim->second.last_used)) victim = it;
    if (victim == slots_.end()) return Error{Errc::policy, "directory cache full of pending fetches"};
    slots_.erase(victim);
  }
  const std::int64_t wait_deadline = steady_now_ms() + opt_.http.total_timeout_ms * (opt_.max_redirects + 2) + 1000;
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
