// pqsig — Web Bot Auth in the path: the verifier service for reverse proxies (nginx auth_request,
// Caddy forward_auth, Envoy ext_authz), its policy, key sources (static JWKS, Signature-Agent
// directories fetched and cached), nonce replay stores (in-process, Redis) and metrics; and the
// key-directory server. Network code: lives in the pqsig_serve library, never in the core library.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/client.hpp"
#include "pqsig/common.hpp"
#include "pqsig/httpsig.hpp"
#include "pqsig/webbotauth.hpp"

namespace pqsig::serve {

// ------------------------------------------------------------------ policy

/// What a request must satisfy for a 200. Defaults are the safe ones: the web-bot-auth tag,
/// "@authority" covered (always, whatever the file says), created and expires required and
/// checked (fresh), at most 24 h of validity.
struct Policy {
  std::string required_tag = "web-bot-auth";
  std::vector<std::string> required_components = {"\"@authority\""};  ///< serialized component ids
  std::int64_t clock_skew = 60;
  std::int64_t max_validity = webbotauth::kMaxExpiresIn;  ///< expires - created, seconds
  std::optional<std::int64_t> max_age;                  ///< created at most this old (seconds)
  std::vector<std::string> required_labels;             ///< these labels must verify
  std::vector<std::string> algorithms = {"ed25519", "ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "ecdsa-p256-sha256",
                                         "rsa-pss-sha512"};  ///< allowed algs; others are skipped
  std::size_t min_valid = 1;
  bool require_nonce = false;
  std::vector<std::string> agents;  ///< allowed Signature-Agent URLs (empty = any agent whose directory verifies)
  /// The authorities this verifier protects ("example.org", "example.org:8443"): a request whose
  /// @authority is not one of them is refused (authority_not_protected) before any key lookup —
  /// a signature made for another site is never accepted here. Required unless
  /// VerifyOptions::any_authority says otherwise explicitly.
  std::vector<std::string> authorities;
};
inline constexpr std::size_t kMaxPolicyBytes = 64 * 1024;
/// An authority as the verifier compares it with a request's @authority: host[:port], lower
/// case, the scheme's default port dropped (RFC 9421 §2.2.3). The host is a DNS name (letters,
/// digits, '-', '.') or a bracketed IPv6 literal; no scheme, path, userinfo or wildcard.
Result<std::string> normalize_authority(std::string_view authority, std::string_view scheme);
/// Strict: an object with only the known members, each of the right type and range.
/// Members: required_tag, required_components, clock_skew, max_validity, max_age, required_labels,
/// algorithms, min_valid, require_nonce, agents, authorities. "@authority" is added to required_components.
Result<Policy> parse_policy(std::string_view json);

// ------------------------------------------------------------------ metrics

class Metrics {
 public:
  void verified();
  void rejected(std::string_view reason);
  void latency(double seconds);
  std::atomic<std::uint64_t> dir_hits{0}, dir_misses{0}, dir_fetch_errors{0}, dir_stale{0}, dir_negative{0};
  std::atomic<std::uint64_t> dir_kid_mismatch{0};  ///< fetched directory entries refused: kid is not the key's thumbprint
  std::atomic<std::uint64_t> nonce_store_errors{0}, nonce_fail_open{0}, internal_errors{0};
  /// Prometheus text exposition format 0.0.4.
  std::string render() const;
  std::uint64_t rejected_count(std::string_view reason) const;
  std::uint64_t verified_count() const { return verified_.load(); }
  /// A limit refused or trimmed something (pqsig_limit_hits_total{limit="..."}): every limit a
  /// stranger can run into is counted here under a fixed name (never a stranger's string).
  void limit_hit(std::string_view limit);
  std::uint64_t limit_count(std::string_view limit) const;
  /// Directory fetch failures by class (pqsig_directory_fetch_failures_total{class="..."}): the
  /// detail (addresses, names, errors) goes to the log, never to the client.
  void fetch_failure(std::string_view cls);
  std::uint64_t fetch_failure_count(std::string_view cls) const;
  std::atomic<std::uint64_t> dir_cache_bytes{0}, dir_cache_entries{0};  ///< gauges
  std::atomic<std::uint64_t> dir_fetches_running{0}, dir_parked{0};      ///< gauges: fetches in flight, requests parked on them
  std::atomic<std::uint64_t> nonce_entries{0};                          ///< gauge (in-process store)
  std::atomic<std::uint64_t> nonce_evicted{0};  ///< the in-process store's drops from its heaviest owner (counter)

 private:
  static constexpr double kBuckets[] = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1, 5};
  static constexpr std::size_t kNB = sizeof(kBuckets) / sizeof(kBuckets[0]);
  std::atomic<std::uint64_t> verified_{0};
  mutable std::mutex mu_;
  std::map<std::string, std::uint64_t, std::less<>> rejected_;
  std::map<std::string, std::uint64_t, std::less<>> limits_, fetch_failures_;
  std::uint64_t hist_[kNB + 1] = {};
  double hist_sum_ = 0;
  std::uint64_t hist_count_ = 0;
};

// ------------------------------------------------------------------ nonce replay stores

/// The library's nonce store interface (httpsig::NonceStore): verify_message records the nonces
/// of the labels that verified, once the whole policy is satisfied; a store error fails closed
/// unless VerifyOptions::replay_fail_open.
using NonceOutcome = httpsig::NonceOutcome;
using ReplayStore = httpsig::NonceStore;

/// The in-process store is the library's one (httpsig::InMemoryNonceStore): bounded in entries,
/// per owner (the agent a key came from) and in time.
using MemoryReplayStore = httpsig::InMemoryNonceStore;

/// How long a nonce is kept by default, whatever the signer's `expires` says. The verifier then
/// refuses labels created longer ago than this minus twice the clock skew (a nonce it has
/// forgotten can never be replayed).
inline constexpr std::int64_t kDefaultNonceRetention = 900;
/// Live nonces one owner (agent, or the static keys) may hold by default.
inline constexpr std::size_t kDefaultNoncesPerOwner = 100'000;

/// Redis (SET key 1 NX EX ttl) for a fleet of verifiers sharing one replay view. Any Redis
/// failure is NonceOutcome::error (the caller decides fail closed / open); reconnects lazily.
class RedisReplayStore : public ReplayStore {
 public:
  struct Options {
    std::string host = "127.0.0.1";
    int port = 6379;
    int db = 0;
    long timeout_ms = 200;   ///< connect and command timeout
    std::string prefix = "pqsig:nonce:";
    std::int64_t max_retention = kDefaultNonceRetention;  ///< EX never above this
    /// Nonces one owner may record per max_retention window (a counter key per owner with that
    /// TTL): Redis holds at most about twice this per owner, whatever the owner signs.
    std::size_t max_per_owner = kDefaultNoncesPerOwner;
  };
  /// "redis://host:port[/db]".
  static Result<Options> parse_url(std::string_view url);
  explicit RedisReplayStore(Options o);
  ~RedisReplayStore() override;
  NonceOutcome record(std::string_view keyid, std::string_view nonce, std::int64_t forget_after,
                      std::int64_t now) override {
    return record_for(keyid, keyid, nonce, forget_after, now);
  }
  NonceOutcome record_for(std::string_view owner, std::string_view keyid, std::string_view nonce,
                          std::int64_t forget_after, std::int64_t now) override;

 private:
  struct Conn;
  Options opt_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Conn>> idle_;  ///< pooled connections (bounded)
};

// ------------------------------------------------------------------ key directories

/// Signature-Agent members and their parser live in the library (webbotauth.hpp: one parser,
/// one key binding); these names are kept for the service's callers.
using AgentType = webbotauth::AgentType;
using AgentRef = webbotauth::AgentRef;
using webbotauth::parse_signature_agent;

struct DirectoryCacheOptions {
  DirectoryCacheOptions() { http.allow_private_addresses = false; http.max_body = 256 * 1024; }
  client::HttpLimits http;             ///< timeouts, size cap (directory size), TLS; no private addresses
  // No redirect is ever followed (draft-ietf-webbotauth-httpsig-protocol: discovery "MUST NOT
  // automatically follow HTTP redirects"): a 3xx is a failed fetch.
    std::size_t max_entries = 1024;      ///< agents with keys cached (LRU among them)
  /// Key material held, in bytes, as verification holds it (an ML-DSA key expanded, an RSA key
  /// as OpenSSL holds it; estimated per key, plus its keyid): past it, least recently used agents
  /// with keys are dropped (counted). One agent above max_agent_bytes or max_keys_per_agent is
  /// refused outright (counted), so one directory cannot take the cache.
  std::size_t max_bytes = 64u << 20;
  std::size_t max_agent_bytes = 4u << 20;
  std::size_t max_keys_per_agent = 64;
  /// Failed agents are remembered apart from agents with keys, in their own bounded table: junk
  /// agent URLs never take a slot from (or evict) an agent whose keys verified.
  std::size_t max_negative = 4096;
  std::int64_t default_ttl = 300;      ///< no / unusable Cache-Control max-age
  std::int64_t min_ttl = 10, max_ttl = 86400;
  std::int64_t negative_ttl = 30;      ///< a failed fetch is remembered this long
  std::int64_t stale_cap = 3600;       ///< stale keys served at most this long after expiry while fetches fail
  bool require_signed_directory = true;///< directory responses must carry a valid directory signature
  /// Fetches of uncached directories running at once. Fetches are asynchronous (one libcurl multi
  /// thread, see client::AsyncFetcher): a fetch costs a socket, never a request thread, so the
  /// slots are many. Past the cap a new fetch is refused at once (an agent with stale keys is then
  /// answered with those, stale-while-error, never refused).
  std::size_t max_concurrent_fetches = 128;
  /// Of those, at most this many for one origin (scheme://host:port) at once: one stranger's many
  /// agent URLs on one origin take a small share of the slots. Refused at once past it (counted),
  /// and not remembered as a failure.
  std::size_t max_fetches_per_origin = 2;
  /// And at most this many sockets to one resolved address (an IPv4 address or an IPv6 /64): one
  /// stranger's many host names on one address take a small share too. Enforced by the fetcher
  /// when it connects; such a refusal is not remembered as a failure either.
  std::size_t max_fetches_per_address = 8;
  /// Requests parked (their decision suspended, no thread held) until a fetch they need ends;
  /// past it a request waits as a blocking caller does (max_waiters, then refused; counted). A parked request resumes when its fetch ends, which
  /// the fetch's own time bound (http.total_timeout_ms per exchange) bounds.
  std::size_t max_parked = 4096;
  /// Blocking callers of get() (no park) waiting for a fetch in flight; more are answered at once
  /// with an error. Each waits at most max_wait_ms (0: the fetch's own time bound).
  std::size_t max_waiters = 4;
  long max_wait_ms = 0;
  /// Threads a blocking cache caller can hold at once (waiters only: fetches hold no thread).
  std::size_t max_blocking() const { return max_waiters; }
};

/// Keys of one agent, shared read-only by concurrent requests.
struct AgentKeys {
  httpsig::KeyStore store;
  std::string url;
};

/// Bytes a verifying key takes in memory as verification holds it (estimate: prepared ML-DSA
/// matrices, an OpenSSL RSA key, a fixed overhead for the objects around it).
std::size_t key_memory_bytes(const SuiteInfo& suite);

/// Directory fetcher + cache: Cache-Control max-age, bounded in bytes and entries (LRU among
/// agents with keys), negative caching in a separate bounded table, stale-while-error with a
/// cap, one fetch per directory however many requests wait on it, bounded waiters.
class DirectoryCache {
 public:
  /// Fetch function for tests: one exchange, run on the thread that starts the fetch (default:
  /// the cache's own client::AsyncFetcher; no redirect is followed).
  using Fetch = std::function<Result<client::HttpResponse>(const std::string& url)>;
  DirectoryCache(DirectoryCacheOptions opt, Metrics* metrics, Fetch fetch = {});
  ~DirectoryCache();
  DirectoryCache(const DirectoryCache&) = delete;
  DirectoryCache& operator=(const DirectoryCache&) = delete;
  /// A request that can be suspended instead of waiting: when the agent's keys need a fetch in
  /// flight, get() files `resume` with that fetch, sets `parked` and returns an error at once;
  /// `resume` is then called exactly once (on the fetcher thread) when the fetch ends, or when the
  /// cache is destroyed. A request parks for one fetch at a time.
  struct Park {
    std::function<void()> resume;
    bool parked = false;
  };
  /// The agent's keys: cached, or fetched now. Without `park` the caller waits (bounded, see
  /// max_waiters / max_wait_ms) for a fetch in flight; with one it parks instead.
  Result<std::shared_ptr<const AgentKeys>> get(const AgentRef& agent, std::int64_t now, Park* park = nullptr);
  std::size_t size() const;        ///< agents with keys
  std::size_t bytes() const;       ///< key material bytes held (estimate, see max_bytes)
  std::size_t negative_size() const;
  std::size_t running() const;     ///< fetches in flight
  std::size_t parked() const;      ///< requests parked on fetches
  std::uint64_t fetches() const { return fetches_.load(); }
  const DirectoryCacheOptions& options() const { return opt_; }

 private:
  struct Good {
    std::shared_ptr<const AgentKeys> keys;
    std::int64_t fresh_until = 0, stale_until = 0, retry_after = 0;
    std::uint64_t used = 0;  ///< LRU sequence
    std::size_t bytes = 0;
  };
  struct Negative {
    std::int64_t until = 0;
    std::uint64_t seq = 0;
    std::string error;
    Errc code = Errc::io;
  };
  struct Inflight {
    std::string origin;
    std::vector<std::function<void()>> parked;
  };
  using Got = std::function<void(Result<client::HttpResponse>, bool busy)>;
  void fetch_async(const std::string& url, Got got);
  void begin_load(const std::string& key, const AgentRef& agent, std::int64_t now);
  void begin_load_impl(const std::string& key, const AgentRef& agent, std::int64_t now);
  void on_response(const std::string& key, const AgentRef& agent, std::int64_t now, const std::string& url,
                   Result<client::HttpResponse> r, bool busy);
  void complete(const std::string& key, const AgentRef& agent, std::int64_t now, std::int64_t ttl,
                Result<std::shared_ptr<const AgentKeys>> r, bool busy) noexcept;
  Result<std::shared_ptr<const AgentKeys>> file_keys(const AgentRef& agent, const std::string& url, const std::string& jwks);
  void limit(std::string_view what);
  void remember_failure(const std::string& key, std::int64_t now, const Error& error);
  void evict_for(const std::string& keep);
  DirectoryCacheOptions opt_;
  Metrics* metrics_;
  Fetch fetch_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Good> good_;
  std::map<std::string, Negative> negative_;
  std::map<std::string, Inflight> inflight_;          ///< keys being fetched
  std::map<std::string, std::size_t> origin_running_; ///< fetches in flight per origin
  std::uint64_t seq_ = 0;
  std::size_t bytes_ = 0, running_ = 0, waiters_ = 0, parked_ = 0;  ///< guarded by mu_
  std::atomic<std::uint64_t> fetches_{0};
  std::unique_ptr<client::AsyncFetcher> fetcher_;     ///< last member: stopped (and its callbacks run) first
};

/// Validates a Signature Agent Card (draft-meunier-webbotauth-registry-04, the OAuth client
/// metadata namespace): a JSON object whose client_id is the card's own URL, with keys in "jwks"
/// (inline) or "jwks_uri". Returns the inline JWKS text, or the jwks_uri to fetch.
struct CardKeys {
  std::string jwks;      ///< inline JWKS (JSON text), or empty
  std::string jwks_uri;  ///< to fetch, or empty
};
Result<CardKeys> validate_agent_card(std::string_view json, std::string_view card_url);
/// A card inlined in a registry as a data: URL (not resolved through a client_id, so client_id is
/// optional; if present it must be an https URL). Same key rules as validate_agent_card.
Result<CardKeys> validate_inline_agent_card(std::string_view json);

// ------------------------------------------------------------------ registry (text format)

/// One line of a registry (draft-meunier-webbotauth-registry §4, §4.2 "Formal Syntax"): an
/// https URL of a Signature Agent Card or key directory, or a data: URL inlining a card.
struct RegistryEntry {
  enum class Kind { https, data };
  Kind kind = Kind::https;
  std::string url;        ///< the URL as written (https entries; data entries: the whole data: URL)
  AgentType type = AgentType::cimd;  ///< https: directory when the path is the directory well-known path, else cimd
  std::string card;       ///< data entries: the decoded card (JSON text)
  CardKeys keys;          ///< data entries: the validated card's keys
  std::size_t line = 0;   ///< 1-based line number
};
struct RegistryLimits {
  std::size_t max_bytes = 1024 * 1024;  ///< whole registry
  std::size_t max_entries = 4096;
  std::size_t max_url = 2048;           ///< https entries
  std::size_t max_data_url = 64 * 1024; ///< data: entries (encoded)
  std::size_t max_line = 64 * 1024 + 1024;
};
/// Parses a registry: lines ended by CR, LF or CRLF; empty lines and `#` comments (a comment may
/// end a line after whitespace); one URL per line. Strict (§4.4: "validate the registry format
/// and reject malformed entries"): any malformed line fails the whole registry with a typed error
/// naming the line (invalid_encoding; unsupported for a scheme other than https/data;
/// invalid_length past a limit; policy for a duplicate entry).
Result<std::vector<RegistryEntry>> parse_registry(std::string_view text, const RegistryLimits& limits = {});
/// The URL a directory-type agent is fetched from (origin + well-known path when the URL has no
/// path), else the URL itself. Registry entries and Signature-Agent members are compared on it.
std::string agent_fetch_url(const AgentRef& agent);

// ------------------------------------------------------------------ the proxy in front

/// How the proxy tells the verifier what the original request was. Each mode trusts only the
/// fields its proxy always sets (and so overwrites whatever the client sent):
///  - nginx (auth_request; default): X-Original-Method and X-Original-URI (the shipped config sets them);
///  - caddy (forward_auth): X-Forwarded-Method and X-Forwarded-Uri (Caddy sets them, Host passes unchanged);
///  - envoy (HTTP ext_authz service): the check request's own method, and its path is the
///    configured path_prefix followed by the original path; Host is the original :authority.
/// A mode never falls back to another mode's fields (a client could send those itself).
enum class ProxyMode { nginx, caddy, envoy };
struct ProxyOptions {
  ProxyMode mode = ProxyMode::nginx;
  std::string envoy_prefix;  ///< envoy: the ext_authz http_service path_prefix, required, e.g. "/auth"
};
/// "nginx" / "caddy" / "envoy".
Result<ProxyMode> parse_proxy_mode(std::string_view name);
/// Rebuilds the original request from the auth request: method, target, and every header except
/// the proxy's own original-request fields. Errc::invalid_encoding when the fields the mode needs
/// are missing, repeated or not an origin-form target (the caller answers 401, never 200).
Result<httpsig::Message> original_request(const ProxyOptions& proxy, std::string_view method, std::string_view target,
                                          const std::vector<httpsig::FieldLine>& headers, std::string_view scheme);

// ------------------------------------------------------------------ the verifier

struct VerifyOptions {
  Policy policy;
  /// Explicit opt-out of the authority check (policy.authorities empty): any @authority is
  /// accepted — only when the proxy in front already refuses every other name. Verifier::create
  /// refuses a configuration with neither.
  bool any_authority = false;
  std::string scheme = "https";    ///< scheme of the original requests (for @scheme / @target-uri)
  bool replay_fail_open = false;   ///< Redis unreachable: accept (counted) instead of refusing
  /// How long the replay store keeps a nonce (the store's own cap, e.g. kDefaultNonceRetention):
  /// with a replay store, labels created more than nonce_retention - 2 * clock_skew ago are
  /// refused (policy max_age lowered to that), so a nonce forgotten is never replayable.
  std::int64_t nonce_retention = kDefaultNonceRetention;
  std::size_t max_header_bytes = 16 * 1024;  ///< header section of the auth request
  std::size_t max_labels = 8;      ///< Signature-Input members considered
  std::size_t max_agents = 4;      ///< Signature-Agent members fetched per request
  /// Verification work one request may cause, in units of one Ed25519 verification (see
  /// verify_cost_units), summed over the labels whose key resolves under an allowed algorithm;
  /// above it the request is refused ("too_costly") before any signature is checked.
  std::size_t max_cost_units = 32;
  ProxyOptions proxy;              ///< which proxy sends the auth requests (how to read the original request)
  /// Agents from a registry (`--registry`): when non-empty, only these agents (and policy.agents)
  /// are fetched, compared on agent_fetch_url; a Signature-Agent member without an explicit type
  /// takes the registry entry's type (directory or card).
  std::vector<AgentRef> registry_agents;
  bool registry_only = false;  ///< a registry was given: agents outside it (and policy.agents) are never fetched
};

/// What a verifier takes from a registry: https entries become registry agents; data: cards add
/// their inline JWKS to `static_keys`, or their jwks_uri as a registry agent of type jwks_uri.
void apply_registry(const std::vector<RegistryEntry>& entries, VerifyOptions& opt, std::vector<std::string>& static_keys);

/// Relative cost of one verification with a key of this suite (Ed25519 = 1; RSA keys are bounded
/// in modulus and exponent when loaded, so their cost is bounded too).
std::size_t verify_cost_units(const SuiteInfo& suite) noexcept;

/// The decision for one request.
struct Decision {
  int status = 401;
  std::string reason;        ///< httpsig reason name or a service reason (e.g. nonce_store_unavailable)
  std::string detail;
  std::string label, keyid, alg, agent;  ///< of the first valid label (200 only)
  std::vector<std::string> labels;       ///< every valid label
};

class Verifier {
 public:
  /// `static_keys`: JWKS texts. `dirs` and `replay` may be null (no directory fetching / no
  /// replay store — the latter only if the policy does not require nonces).
  static Result<std::unique_ptr<Verifier>> create(VerifyOptions opt, const std::vector<std::string>& static_keys,
                                                  DirectoryCache* dirs, ReplayStore* replay, Metrics* metrics);
  /// Verifies the original request (method, target, headers as the proxy forwarded them).
  /// Never throws; any internal failure is a 401 with reason "internal_error".
  /// With `park`, a decision that needs a directory fetch in flight is suspended instead of
  /// waiting for it: the Decision returned then has park->parked set (and is not an answer), and
  /// park->resume is called once the fetch ends; decide() is then called again for the request.
  Decision decide(const httpsig::Message& request, std::int64_t now, DirectoryCache::Park* park = nullptr) noexcept;
  /// Accept-Signature value for challenges (RFC 9421 §5.1).
  const std::string& accept_signature() const { return accept_signature_; }
  const VerifyOptions& options() const { return opt_; }

 private:
  Verifier() = default;
  Decision decide_impl(const httpsig::Message& request, std::int64_t now, DirectoryCache::Park* park);
  VerifyOptions opt_;
  httpsig::KeyStore static_;
  std::vector<std::string> authorities_;  ///< policy.authorities, normalized for opt_.scheme
  httpsig::VerifyPolicy verify_policy_;  ///< opt_.policy as the library's policy, built once (now / nonces set per request)
  DirectoryCache* dirs_ = nullptr;
  ReplayStore* replay_ = nullptr;
  Metrics* metrics_ = nullptr;
  std::string accept_signature_;
};

// ------------------------------------------------------------------ the key directory

/// The signed directory served by `pqsig serve directory`, reloadable (SIGHUP) without
/// dropping connections: requests hold a shared_ptr to the state they started with.
class DirectoryPublisher {
 public:
  struct Options {
    std::vector<std::string> key_files;  ///< private JWK files (directory signed with each)
    std::int64_t max_age = 300;          ///< Cache-Control max-age
    std::int64_t expires_in = 3600;      ///< signature validity
    /// The authorities (Host values) this directory answers for, e.g. "agent.example" (any port)
    /// or "agent.example:8443" (that port only); required. Any other Host: refused, never signed.
    std::vector<std::string> authorities;
  };
  static Result<std::unique_ptr<DirectoryPublisher>> create(Options opt);
  /// Re-reads the key files; on any error the old keys stay in service.
  Status reload();
  /// The signed response for a request whose Host is `authority` (one of Options::authorities,
  /// else Errc::policy). Signed once per validity period and authority, then served from memory
  /// (re-signed when less than max_age + 60 s of the signature's validity is left).
  Result<httpsig::Message> respond(std::string_view authority, std::int64_t now) const;
  std::uint64_t signatures_made() const { return signed_.load(); }
  std::size_t key_count() const;
  std::uint64_t generation() const { return generation_.load(); }

 private:
  struct State;
  DirectoryPublisher() = default;
  Options opt_;
  mutable std::mutex mu_;
  std::shared_ptr<const State> state_;
  std::atomic<std::uint64_t> generation_{0};
  mutable std::atomic<std::uint64_t> signed_{0};
};

// ------------------------------------------------------------------ HTTP servers (Boost.Beast)

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;                 ///< 0 = any free port (see ready_file)
  int threads = 4;
  std::size_t max_connections = 1024;
  std::size_t max_header_bytes = 16 * 1024;
  std::size_t max_body_bytes = 64 * 1024;
  long idle_timeout_ms = 30000;           ///< per read (keep-alive connections)
  std::string ready_file;                 ///< written with "host:port\n" once listening
  long drain_timeout_ms = 10000;          ///< SIGTERM / SIGINT: requests under way get this long to finish
  /// Decisions run on this many worker threads, never on the I/O threads (which only parse,
  /// answer /healthz and /metrics, and write): a request waiting on a directory never holds an
  /// I/O thread. 0 = on the I/O thread (the directory server: its answers are cached).
  int decision_threads = 0;
  std::size_t max_queued_decisions = 256;  ///< more waiting: 401 "overloaded" at once (counted)
  long queue_timeout_ms = 2000;            ///< a decision not started within this: 401 "overloaded"
  long accept_backoff_max_ms = 1000;       ///< accept() failing (EMFILE...): retry after 10 ms, doubling to this
};

/// `pqsig serve verify`: GET|POST|... any path → decision (200 / 401); /healthz; /metrics.
/// Blocks until SIGINT / SIGTERM, then drains: stops accepting, closes idle keep-alive
/// connections, lets requests under way finish (at most drain_timeout_ms) and returns 0.
/// Returns the process exit code.
int run_verify_server(Verifier& verifier, Metrics& metrics, const ServerOptions& opt);
/// `pqsig serve directory`: serves webbotauth::kDirectoryPath; SIGHUP reloads the keys.
int run_directory_server(DirectoryPublisher& pub, const ServerOptions& opt);

}  // namespace pqsig::serve
