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
    : opt_(std::move(opt)), metrics_(metrics), fetch_(std::move(fetch)) {
  if (!fetch_) {
    client::AsyncFetcher::Options fo;
    fo.max_per_address = std::max<std::size_t>(1, opt_.max_fetches_per_address);
    fetcher_ = std::make_unique<client::AsyncFetcher>(fo);
  }
}

DirectoryCache::~DirectoryCache() {
  fetcher_.reset();  // aborts the fetches under way; their requests are resumed through complete()
  std::vector<std::function<void()>> left;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [k, f] : inflight_)
      for (auto& r : f.parked) left.push_back(std::move(r));
    inflight_.clear();
    parked_ = 0;
  }
  for (auto& r : left) {
    try {
      r();
    } catch (...) {
    }
  }
}

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
std::size_t DirectoryCache::running() const {
  std::lock_guard<std::mutex> lock(mu_);
  return running_;
}
std::size_t DirectoryCache::parked() const {
  std::lock_guard<std::mutex> lock(mu_);
  return parked_;
}

void DirectoryCache::limit(std::string_view what) {
  if (metrics_) metrics_->limit_hit(what);
}

// One exchange: on the fetcher (no thread held while it waits), or the test's function inline.
void DirectoryCache::fetch_async(const std::string& url, Got got) {
  fetches_.fetch_add(1);
  if (fetch_) {
    Result<client::HttpResponse> r = Error{Errc::internal, "unset"};
    try {
      r = fetch_(url);
    } catch (const std::exception& e) {
      r = Error{Errc::internal, std::string("directory fetch: ") + e.what()};
    }
    got(std::move(r), false);
    return;
  }
  std::vector<httpsig::FieldLine> h{{"Accept", std::string(webbotauth::kDirectoryMediaType) + ", application/json"}};
  fetcher_->start(url, h, opt_.http, std::move(got));
}

namespace {
// draft-ietf-webbotauth-httpsig-protocol, "Key Distribution and Discovery": each resource MUST
// be served with 200; a verifier "MUST NOT automatically follow HTTP redirects" — a redirect is a
// failed fetch (following one would file another origin's keys under the URL the request named).
Result<client::HttpResponse> dir_checked_response(Result<client::HttpResponse> r, const std::string& url) {
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
}  // namespace

Result<std::shared_ptr<const AgentKeys>> DirectoryCache::file_keys(const AgentRef& agent, const std::string& url,
                                                                   const std::string& jwks) {
  auto keys = std::make_shared<AgentKeys>();
  keys->url = agent.url;
  // Each key under its own thumbprint only; at a directory a kid naming another key is refused.
  auto n = webbotauth::add_fetched_jwks(keys->store, jwks, agent.type == AgentType::directory);
  if (!n) return Error{n.error().code, url + ": " + n.error().message};
  if (metrics_ && n->kid_mismatch) metrics_->dir_kid_mismatch += n->kid_mismatch;
  if (n->filed == 0) return Error{Errc::unsupported, url + ": no usable key: " + n->errors};
  if (keys->store.size() == 0) return Error{Errc::invalid_encoding, url + ": no usable key"};
  return std::shared_ptr<const AgentKeys>(std::move(keys));
}

// Starts the first exchange of an agent's load; every path ends in exactly one complete().
void DirectoryCache::begin_load(const std::string& key, const AgentRef& agent, std::int64_t now) {
  try {
    begin_load_impl(key, agent, now);
  } catch (const std::exception& e) {  // the fetch never started: it still ends, once
    complete(key, agent, now, opt_.default_ttl, Error{Errc::internal, std::string("directory load: ") + e.what()}, false);
  }
}

void DirectoryCache::begin_load_impl(const std::string& key, const AgentRef& agent, std::int64_t now) {
  auto u = client::parse_url(agent.url);
  if (!u) return complete(key, agent, now, opt_.default_ttl, u.error(), false);
  std::string url = agent.url;
  if (agent.type == AgentType::directory) {
    // The draft: a directory member "MUST be the ASCII serialization of an origin" (an empty path
    // "/" may be accepted); its keys are at the well-known URI of that origin, and nowhere else.
    if (u->path_query != "/" && u->path_query != webbotauth::kDirectoryPath)
      return complete(key, agent, now, opt_.default_ttl,
                      Error{Errc::policy, agent.url + ": a directory agent must name an origin (keys are served at " +
                                              std::string(webbotauth::kDirectoryPath) + ")"},
                      false);
    url = u->origin() + std::string(webbotauth::kDirectoryPath);
  }
  fetch_async(url, [this, key, agent, now, url](Result<client::HttpResponse> r, bool busy) {
    on_response(key, agent, now, url, std::move(r), busy);
  });
}

void DirectoryCache::on_response(const std::string& key, const AgentRef& agent, std::int64_t now, const std::string& url,
                                 Result<client::HttpResponse> r0, bool busy) {
  std::int64_t ttl = opt_.default_ttl;
  try {
    auto resp = dir_checked_response(std::move(r0), url);
    if (!resp) return complete(key, agent, now, ttl, resp.error(), busy);
    auto ma = max_age_of(resp->header("cache-control"));
    ttl = std::clamp(ma.value_or(opt_.default_ttl), opt_.min_ttl, opt_.max_ttl);
    if (agent.type == AgentType::directory) {
      auto ct = resp->header("content-type");
      std::string mt = ct ? ascii_lower(ct->substr(0, ct->find(';'))) : "";
      while (!mt.empty() && mt.back() == ' ') mt.pop_back();
      if (mt != webbotauth::kDirectoryMediaType && mt != "application/json")
        return complete(key, agent, now, ttl,
                        Error{Errc::invalid_encoding, url + ": media type '" + mt + "' is not " +
                                                          std::string(webbotauth::kDirectoryMediaType)},
                        false);
      if (opt_.require_signed_directory) {
        // Signed for the authority this verifier asked (no redirect was followed).
        auto u = client::parse_url(url);
        if (!u) return complete(key, agent, now, ttl, u.error(), false);
        auto rep = webbotauth::verify_directory(resp->as_message(), u->authority(), now, 60);
        if (!rep.policy_satisfied)
          return complete(key, agent, now, ttl, Error{Errc::verify_failed, url + ": directory signature: " + rep.policy_detail}, false);
      }
      return complete(key, agent, now, ttl, file_keys(agent, url, resp->body), false);
    }
    if (agent.type == AgentType::cimd) {
      auto card = validate_agent_card(resp->body, agent.url);
      if (!card) return complete(key, agent, now, ttl, card.error(), false);
      if (!card->jwks.empty()) return complete(key, agent, now, ttl, file_keys(agent, url, card->jwks), false);
      // The card names a jwks_uri: a second exchange, still within this fetch's slot.
      std::string ju = card->jwks_uri;
      fetch_async(ju, [this, key, agent, now, ttl, ju](Result<client::HttpResponse> r, bool b) {
        try {
          auto jr = dir_checked_response(std::move(r), ju);
          if (!jr) return complete(key, agent, now, ttl, jr.error(), b);
          complete(key, agent, now, ttl, file_keys(agent, ju, jr->body), false);
        } catch (const std::exception& e) {  // bad_alloc and friends: never escape, never a key
          complete(key, agent, now, ttl, Error{Errc::internal, std::string("directory load: ") + e.what()}, false);
        }
      });
      return;
    }
    complete(key, agent, now, ttl, file_keys(agent, url, resp->body), false);
  } catch (const std::exception& e) {  // bad_alloc and friends: never escape, never a key
    complete(key, agent, now, ttl, Error{Errc::internal, std::string("directory load: ") + e.what()}, false);
  } catch (...) {
    complete(key, agent, now, ttl, Error{Errc::internal, "directory load: unknown exception"}, false);
  }
}

// A fetch ended: its outcome is filed, its slot freed, its waiters woken and its parked requests
// resumed (outside the lock).
void DirectoryCache::complete(const std::string& key, const AgentRef& agent, std::int64_t now, std::int64_t ttl,
                              Result<std::shared_ptr<const AgentKeys>> r, bool busy) noexcept {
  std::vector<std::function<void()>> resume;
  // The fetch is no longer in flight: its slot, its origin's share and its parked requests are
  // released (mu_ held by the caller).
  auto end_inflight = [&] {
    if (auto f = inflight_.find(key); f != inflight_.end()) {
      --running_;
      if (auto o = origin_running_.find(f->second.origin); o != origin_running_.end() && --o->second == 0)
        origin_running_.erase(o);
      parked_ -= std::min(parked_, f->second.parked.size());
      resume = std::move(f->second.parked);
      inflight_.erase(f);
    }
  };
  try {
    std::size_t nbytes = 0;
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
    std::lock_guard<std::mutex> lk(mu_);
    end_inflight();
    cv_.notify_all();
    auto g = good_.find(key);
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
    } else if (busy) {
      // Refused by the per-address cap: the directory was never asked, so nothing is remembered
      // against it (a stranger sharing its address cannot get it negatively cached).
      limit("directory_fetches_per_address");
    } else {
      if (metrics_) {
        ++metrics_->dir_fetch_errors;
        metrics_->fetch_failure(failure_class(r.error().code));
      }
      if (g != good_.end() && now < g->second.stale_until) {
        g->second.retry_after = now + opt_.negative_ttl;  // the known-good keys stay; retried later
      } else {
        remember_failure(key, now, r.error());
      }
    }
    if (metrics_) {
      metrics_->dir_fetches_running = running_;
      metrics_->dir_parked = parked_;
    }
  } catch (...) {  // filing failed (allocation): the waiters still wake, the parked still resume
    std::lock_guard<std::mutex> lk(mu_);
    end_inflight();
    cv_.notify_all();
  }
  for (auto& f : resume) {
    try {
      f();
    } catch (...) {
    }
  }
}

// Called with mu_ held. A failure is remembered in the negative table (its own bound; the oldest
// failure makes room), never in place of an agent whose keys verified.
void DirectoryCache::remember_failure(const std::string& key, std::int64_t now, const Error& error) {
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
  n.error = error.message.substr(0, 512);
  n.code = error.code;
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

Result<std::shared_ptr<const AgentKeys>> DirectoryCache::get(const AgentRef& agent, std::int64_t now, Park* park) {
  const std::string key = std::string(webbotauth::agent_type_name(agent.type)) + " " + agent.url;
  std::unique_lock<std::mutex> lk(mu_);
  const long wait_ms = opt_.max_wait_ms > 0 ? opt_.max_wait_ms
                                            : opt_.http.total_timeout_ms * 2 + 500;
  const std::int64_t wait_deadline = steady_now_ms() + wait_ms;
  bool started = false;  // this caller started the fetch (it waits without taking a waiter place)
  for (int round = 0; round < 6; ++round) {
    auto g = good_.find(key);
    if (g != good_.end() && now < g->second.fresh_until) {
      g->second.used = ++seq_;
      if (metrics_ && !started) ++metrics_->dir_hits;  // the starter's own fetch is a miss, counted once
      return g->second.keys;
    }
    // Keys past max-age but within the stale cap: served whenever a fresh copy cannot be had at
    // once (a fetch in flight, fetch slots busy, a recent failure) — a flood of strangers never
    // turns a known agent away.
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
    if (auto f = inflight_.find(key); f != inflight_.end()) {
      if (stale_ok) return serve_stale();
      if (park && park->resume && parked_ >= opt_.max_parked) limit("directory_parked");  // waits below, bounded
      if (park && park->resume && parked_ < opt_.max_parked) {
        // Suspended, not waiting: the request's thread goes back to the pool at once.
        f->second.parked.push_back(park->resume);
        ++parked_;
        if (metrics_) metrics_->dir_parked = parked_;
        park->parked = true;
        return Error{Errc::io, "directory fetch of " + agent.url + " in progress"};
      }
      if (!started && waiters_ >= opt_.max_waiters) {
        limit("directory_waiters");
        if (metrics_) ++metrics_->dir_fetch_errors;
        return Error{Errc::io, "directory fetch of " + agent.url + " in progress; too many requests waiting"};
      }
      std::int64_t left = wait_deadline - steady_now_ms();
      if (left <= 0) break;
      if (!started) ++waiters_;
      cv_.wait_for(lk, std::chrono::milliseconds(left), [&] { return !inflight_.count(key); });
      if (!started) --waiters_;
      continue;
    }
    if (started) {  // the fetch this caller started has ended: its outcome is filed
      if (g != good_.end() && now < g->second.stale_until) return serve_stale();
      auto n = negative_.find(key);
      if (n != negative_.end()) return Error{n->second.code, n->second.error};  // the fetch's own error
      return Error{Errc::io, "directory fetch of " + agent.url + " refused: too many fetches to its address in progress"};
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
    std::string origin;
    if (auto u = client::parse_url(agent.url)) origin = u->origin();
    else origin = agent.url;
    if (origin_running_[origin] >= std::max<std::size_t>(1, opt_.max_fetches_per_origin)) {
      limit("directory_fetches_per_origin");
      if (stale_ok) return serve_stale();
      if (metrics_) ++metrics_->dir_fetch_errors;
      return Error{Errc::io, "too many directory fetches from " + origin + " in progress; try again"};
    }
    ++origin_running_[origin];
    ++running_;
    inflight_[key].origin = origin;
    if (metrics_) {
      ++metrics_->dir_misses;
      metrics_->dir_fetches_running = running_;
    }
    started = true;
    lk.unlock();
    begin_load(key, agent, now);  // never throws past complete(); a test's fetch completes inline
    lk.lock();
  }
  limit("directory_wait_timeout");
  return Error{Errc::io, "timed out waiting for the directory fetch of " + agent.url};
}

}  // namespace pqsig::serve
