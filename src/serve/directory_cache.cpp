// pqsig_serve: the key directory cache (fetch over HTTPS with limits and no redirects,
// signed-response verification, keys filed under their thumbprints, max-age, LRU bound, negative
// caching, stale-while-error, one fetch per directory), plus Signature Agent Card validation
// (draft-meunier-webbotauth-registry-04). Signature-Agent parsing is the library's (webbotauth.hpp).
#include <algorithm>
#include <chrono>
#include <charconv>

#include "jose/json_strict.hpp"
#include "pqsig/serve.hpp"

namespace pqsig::serve {
namespace {

// Cache-Control max-age (RFC 9111 §5.2.2.1); no-store / no-cache → 0; absent → nullopt.
std::optional<std::int64_t> max_age_of(const std::optional<std::string>& cc) {
  if (!cc) return std::nullopt;
  std::string v = ascii_lower(*cc);
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
using sjson = jose::detail::json;

std::string str_of(const sjson& v) {
  const auto& s = v.get_ref<const sjson::string_t&>();
  return std::string(s.begin(), s.end());
}

// Every card goes through the library's one strict JSON reader (size, depth and duplicate-name
// limits); a card is a stranger's document, never handed to an unbounded parser.
Result<sjson> parse_card(std::string_view text) {
  auto j = jose::detail::parse_strict(text, "agent card");
  if (!j) return j.error();
  if (!j->is_object()) return Error{Errc::invalid_encoding, "agent card is not a JSON object"};
  return j;
}

// draft-meunier-webbotauth-registry §3: card members shared by fetched and inline cards.
Result<CardKeys> card_keys(const sjson& j) {
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
    // The JWKS is re-serialized for the JWKS reader: only a JWKS shape (an array of JWK objects
    // whose members are scalars or arrays of scalars) is ever serialized, so the depth is fixed.
    for (const auto& k : (*jw)["keys"]) {
      if (!k.is_object()) return Error{Errc::invalid_encoding, "agent card: jwks keys must be objects"};
      for (const auto& m : k) {
        if (m.is_object()) return Error{Errc::invalid_encoding, "agent card: a JWK member is an object"};
        if (m.is_array())
          for (const auto& e : m)
            if (e.is_structured()) return Error{Errc::invalid_encoding, "agent card: a JWK member nests arrays"};
      }
    }
    sjson only = sjson::object();
    only["keys"] = (*jw)["keys"];
    auto t = only.dump();
    out.jwks.assign(t.begin(), t.end());
  } else if (ju != j.end()) {
    if (!ju->is_string()) return Error{Errc::invalid_encoding, "agent card: jwks_uri must be a string"};
    out.jwks_uri = str_of(*ju);
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
  auto pj = parse_card(text);
  if (!pj) return pj.error();
  const sjson& j = *pj;
  auto cid = j.find("client_id");
  if (cid == j.end() || !cid->is_string()) return Error{Errc::invalid_encoding, "agent card without client_id"};
  if (str_of(*cid) != card_url)
    return Error{Errc::policy, "agent card client_id is not the card's URL"};
  return card_keys(j);
}

// draft-meunier-webbotauth-registry §4: a card inlined in a registry (data: URL).
Result<CardKeys> validate_inline_agent_card(std::string_view text) {
  auto pj = parse_card(text);
  if (!pj) return pj.error();
  const sjson& j = *pj;
  if (j.empty()) return Error{Errc::invalid_encoding, "agent card has no parameter"};
  if (auto cid = j.find("client_id"); cid != j.end()) {
    if (!cid->is_string()) return Error{Errc::invalid_encoding, "agent card: client_id must be a string"};
    auto u = client::parse_url(str_of(*cid));
    if (!u || u->scheme != "https") return Error{Errc::invalid_encoding, "agent card: client_id must be an https URL"};
  }
  return card_keys(j);
}

std::size_t key_memory_bytes(const SuiteInfo& suite) {
  std::size_t n = 512 + suite.public_key_size;  // objects, map node, keyid, the encoded key
  if (suite.family == Family::ml_dsa) {
    // Prepared: Â (k×l polynomials) and NTT(t1·2^d) (k polynomials), 256 32-bit coefficients each.
    std::size_t k = suite.public_key_size > 32 ? (suite.public_key_size - 32) / 320 : 8;
    std::size_t l = k == 4 ? 4 : k == 6 ? 5 : 7;
    n += (k * l + k) * 256 * 4;
  } else if (suite.family == Family::composite) {
    n += (8 * 7 + 8) * 256 * 4 + 4096;  // worst case: an ML-DSA-87 half and an RSA half
  } else if (suite.id.find("rsa") != std::string_view::npos) {
    n += 4096;  // OpenSSL's RSA key and Montgomery context (modulus ≤ 4096 bits)
  }
  return n;
}

namespace {
std::size_t agent_bytes(const AgentKeys& k) {
  std::size_t n = k.url.size() + 256;
  for (const auto& id : k.store.keyids()) {
    n += id.size();
    if (auto r = k.store.resolve(id); r && r->suite) n += key_memory_bytes(*r->suite);
  }
  return n;
}

// The class of a fetch failure, for the metrics (the detail goes to the log only).
std::string_view failure_class(Errc c) {
  switch (c) {
    case Errc::io: return "io";
    case Errc::policy: return "policy";
    case Errc::verify_failed: return "signature";
    case Errc::invalid_encoding: return "invalid";
    case Errc::invalid_length: return "too_large";
    case Errc::unsupported: return "unsupported";
    default: return "other";
  }
}
}  // namespace

DirectoryCache::DirectoryCache(DirectoryCacheOptions opt, Metrics* metrics, Fetch fetch)
    : opt_(std::move(opt)), metrics_(metrics), fetch_(std::move(fetch)) {}

std::size_t DirectoryCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return good_.size();
}
std::size_t DirectoryCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}
std::size_t DirectoryCache::negative_size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return negative_.size();
}

void DirectoryCache::limit(std::string_view what) {
  if (metrics_) metrics_->limit_hit(what);
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
    std::string mt = ct ? ascii_lower(ct->substr(0, ct->find(';'))) : "";
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

// Called with mu_ held. A failure is remembered in the negative table (its own bound; the oldest
// failure makes room), never in place of an agent whose keys verified.
void DirectoryCache::remember_failure(const std::string& key, std::int64_t now, const std::string& error) {
  auto it = negative_.find(key);
  if (it == negative_.end() && negative_.size() >= std::max<std::size_t>(1, opt_.max_negative)) {
    auto oldest = negative_.begin();
    for (auto n = negative_.begin(); n != negative_.end(); ++n)
      if (n->second.seq < oldest->second.seq) oldest = n;
    negative_.erase(oldest);
    limit("directory_negative_entries");
  }
  Negative& n = negative_[key];
  n.until = now + opt_.negative_ttl;
  n.seq = ++seq_;
  n.error = error.substr(0, 512);
}

// Called with mu_ held: drops least recently used agents (never `keep`) until the bounds hold.
void DirectoryCache::evict_for(const std::string& keep) {
  while ((bytes_ > opt_.max_bytes || good_.size() > std::max<std::size_t>(1, opt_.max_entries)) && good_.size() > 1) {
    auto victim = good_.end();
    for (auto it = good_.begin(); it != good_.end(); ++it)
      if (it->first != keep && (victim == good_.end() || it->second.used < victim->second.used)) victim = it;
    if (victim == good_.end()) break;
    const bool over_bytes = bytes_ > opt_.max_bytes;
    bytes_ -= victim->second.bytes;
    good_.erase(victim);
    limit(over_bytes ? "directory_cache_bytes" : "directory_cache_entries");
  }
  if (metrics_) {
    metrics_->dir_cache_bytes = bytes_;
    metrics_->dir_cache_entries = good_.size();
  }
}

Result<std::shared_ptr<const AgentKeys>> DirectoryCache::get(const AgentRef& agent, std::int64_t now) {
  const std::string key = std::string(webbotauth::agent_type_name(agent.type)) + " " + agent.url;
  std::unique_lock<std::mutex> lk(mu_);
  const long wait_ms = opt_.max_wait_ms > 0 ? opt_.max_wait_ms
                                            : opt_.http.total_timeout_ms * 2 + 500;
  const std::int64_t wait_deadline = steady_now_ms() + wait_ms;
  for (int round = 0; round < 4; ++round) {
    auto g = good_.find(key);
    if (g != good_.end() && now < g->second.fresh_until) {
      g->second.used = ++seq_;
      if (metrics_) ++metrics_->dir_hits;
      return g->second.keys;
    }
    // Keys past max-age but within the stale cap: served whenever a fresh copy cannot be had at
    // once (a fetch in flight, all fetch slots busy, a recent failure) — a flood of strangers
    // never turns a known agent away.
    const bool stale_ok = g != good_.end() && now < g->second.stale_until;
    auto serve_stale = [&]() -> Result<std::shared_ptr<const AgentKeys>> {
      g->second.used = ++seq_;
      if (metrics_) ++metrics_->dir_stale;
      return g->second.keys;
    };
    if (g != good_.end() && !stale_ok) {  // past the stale cap: forgotten
      bytes_ -= g->second.bytes;
      good_.erase(g);
      g = good_.end();
      if (metrics_) {
        metrics_->dir_cache_bytes = bytes_;
        metrics_->dir_cache_entries = good_.size();
      }
    }
    if (inflight_.count(key)) {
      if (stale_ok) return serve_stale();
      if (waiters_ >= opt_.max_waiters) {
        limit("directory_waiters");
        if (metrics_) ++metrics_->dir_fetch_errors;
        return Error{Errc::io, "directory fetch of " + agent.url + " in progress; too many requests waiting"};
      }
      std::int64_t left = wait_deadline - steady_now_ms();
      if (left <= 0) break;
      ++waiters_;
      cv_.wait_for(lk, std::chrono::milliseconds(left), [&] { return !inflight_.count(key); });
      --waiters_;
      continue;
    }
    if (stale_ok && now < g->second.retry_after) return serve_stale();  // refreshed recently and failed
    if (g == good_.end()) {
      auto n = negative_.find(key);
      if (n != negative_.end() && now < n->second.until) {
        if (metrics_) ++metrics_->dir_negative;
        return Error{Errc::io, n->second.error};
      }
    }
    if (running_ >= opt_.max_concurrent_fetches) {
      limit("directory_fetch_slots");
      if (stale_ok) return serve_stale();
      if (metrics_) ++metrics_->dir_fetch_errors;
      return Error{Errc::io, "too many directory fetches in progress; try again"};
    }
    ++running_;
    inflight_[key] = true;
    if (metrics_) ++metrics_->dir_misses;
    lk.unlock();
    std::int64_t ttl = opt_.default_ttl;
    Result<std::shared_ptr<const AgentKeys>> r = Error{Errc::internal, "not loaded"};
    std::size_t nbytes = 0;
    try {
      r = load(agent, now, &ttl);
      if (r) {
        nbytes = agent_bytes(*r.value());
        if (r.value()->store.keyids().size() > opt_.max_keys_per_agent) {
          limit("directory_keys_per_agent");
          r = Error{Errc::invalid_length, agent.url + ": more than " + std::to_string(opt_.max_keys_per_agent) + " keys"};
        } else if (nbytes > opt_.max_agent_bytes) {
          limit("directory_agent_bytes");
          r = Error{Errc::invalid_length, agent.url + ": keys take " + std::to_string(nbytes) + " bytes (limit " +
                                              std::to_string(opt_.max_agent_bytes) + ")"};
        }
      }
    } catch (const std::exception& e) {  // bad_alloc and friends: never escape, never a key
      r = Error{Errc::internal, std::string("directory load: ") + e.what()};
    } catch (...) {  // whatever it was, the slot is released below
      r = Error{Errc::internal, "directory load: unknown exception"};
    }
    lk.lock();
    --running_;
    inflight_.erase(key);
    cv_.notify_all();
    g = good_.find(key);  // the table may have changed while unlocked
    if (r) {
      if (g == good_.end()) g = good_.emplace(key, Good{}).first;
      else bytes_ -= g->second.bytes;
      g->second.keys = r.value();
      g->second.fresh_until = now + ttl;
      g->second.stale_until = g->second.fresh_until + opt_.stale_cap;
      g->second.retry_after = 0;
      g->second.used = ++seq_;
      g->second.bytes = nbytes;
      bytes_ += nbytes;
      negative_.erase(key);
      evict_for(key);
      return r.value();
    }
    if (metrics_) {
      ++metrics_->dir_fetch_errors;
      metrics_->fetch_failure(failure_class(r.error().code));
    }
    if (g != good_.end() && now < g->second.stale_until) {
      g->second.retry_after = now + opt_.negative_ttl;  // the known-good keys stay; retried later
      g->second.used = ++seq_;
      if (metrics_) ++metrics_->dir_stale;
      return g->second.keys;
    }
    remember_failure(key, now, r.error().message);
    return r.error();
  }
  limit("directory_wait_timeout");
  return Error{Errc::io, "timed out waiting for the directory fetch of " + agent.url};
}

}  // namespace pqsig::serve
