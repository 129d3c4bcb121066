// `pqsig serve verify` (the verifier service for nginx auth_request / Caddy forward_auth / Envoy
// ext_authz) and `pqsig serve directory` (the signed key directory).
#include <algorithm>
#include <charconv>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "keyfile.hpp"
#include "pqsig/serve.hpp"

namespace pqsig::cli {
namespace {

namespace sv = pqsig::serve;

void parse_listen(const std::string& s, sv::ServerOptions& o) {
  auto colon = s.rfind(':');
  if (colon == std::string::npos) throw Exit{kExitUsage, "--listen wants HOST:PORT"};
  o.host = s.substr(0, colon);
  if (o.host.size() > 2 && o.host.front() == '[' && o.host.back() == ']') o.host = o.host.substr(1, o.host.size() - 2);
  unsigned port = 0;
  auto ps = s.substr(colon + 1);
  auto r = std::from_chars(ps.data(), ps.data() + ps.size(), port);
  if (r.ec != std::errc() || r.ptr != ps.data() + ps.size() || port > 65535) throw Exit{kExitUsage, "--listen: bad port"};
  o.port = static_cast<std::uint16_t>(port);
}

/// The options both servers share (--listen, --threads, --ready-file, --drain-timeout-ms).
struct ServerFlags {
  std::string listen, ready_file;
  int threads = 2;
  long drain_ms = 10000;
  ServerFlags(std::string l, int t) : listen(std::move(l)), threads(t) {}
  sv::ServerOptions options() const {
    sv::ServerOptions so;
    parse_listen(listen, so);
    so.threads = threads;
    so.drain_timeout_ms = drain_ms;
    so.ready_file = ready_file;
    return so;
  }
  void add_to(CLI::App* app) {
    app->add_option("--listen", listen, "HOST:PORT (default " + listen + "; port 0 = any)");
    app->add_option("--threads", threads, "I/O threads (default " + std::to_string(threads) + ")");
    app->add_option("--ready-file", ready_file, "write HOST:PORT here once listening");
    app->add_option("--drain-timeout-ms", drain_ms,
                    "SIGTERM/SIGINT: stop accepting, let requests under way finish within this (default 10000), exit 0");
  }
};

struct VerifyCmd {
  ServerFlags server{"127.0.0.1:8089", 4};
  std::string policy, redis, scheme = "https", ca_file, proxy = "nginx", envoy_prefix;
  std::vector<std::string> keys, registries, authorities;
  std::string directory_proxy;
  bool fail_open = false, no_dir = false, allow_http = false, no_replay = false, allow_private = false, any_authority = false;
  long dir_timeout_ms = 2000;
  std::size_t dir_max_bytes = 256 * 1024, dir_max_entries = 1024, max_header = 16 * 1024;
  std::size_t dir_cache_bytes = 64u << 20, decision_threads = 0, max_queued = 256;
  std::size_t dir_fetches = 128, dir_fetches_per_origin = 2, dir_fetches_per_address = 8, dir_parked = 4096;
  std::int64_t negative_ttl = 30, stale_cap = 3600;
  std::size_t nonce_entries = 200000, nonces_per_owner = sv::kDefaultNoncesPerOwner;
  std::int64_t nonce_retention = sv::kDefaultNonceRetention;
};

void run_verify(const VerifyCmd& c) {
  sv::ServerOptions so = c.server.options();
  so.max_header_bytes = c.max_header;
  so.max_body_bytes = 64 * 1024;
  sv::VerifyOptions vo;
  if (!c.policy.empty()) {
    auto p = sv::parse_policy(read_text(c.policy));
    if (!p) throw Exit{kExitUsage, c.policy + ": " + p.error().message};
    vo.policy = p.value();
  }
  vo.scheme = c.scheme;
  for (const auto& list : c.authorities) {  // --authority a,b --authority c
    std::size_t pos = 0;
    while (pos <= list.size()) {
      auto comma = list.find(',', pos);
      std::string a = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (!a.empty()) {
        auto n = sv::normalize_authority(a, vo.scheme);
        if (!n) throw Exit{kExitUsage, "--authority: " + n.error().message};
        vo.policy.authorities.push_back(a);
      }
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  vo.any_authority = c.any_authority;
  if (vo.any_authority && !vo.policy.authorities.empty())
    throw Exit{kExitUsage, "--any-authority with --authority (or the policy's authorities): choose one"};
  if (!vo.any_authority && vo.policy.authorities.empty())
    throw Exit{kExitUsage,
               "name the authorities this verifier protects: --authority example.org[,www.example.org] (a signature made "
               "for another site must not pass); --any-authority only when the proxy in front refuses every other name"};
  auto pm = sv::parse_proxy_mode(c.proxy);
  if (!pm) throw Exit{kExitUsage, "--proxy: " + pm.error().message};
  vo.proxy.mode = pm.value();
  vo.proxy.envoy_prefix = c.envoy_prefix;
  if (!c.envoy_prefix.empty() && vo.proxy.mode != sv::ProxyMode::envoy) throw Exit{kExitUsage, "--envoy-path-prefix needs --proxy envoy"};
  vo.replay_fail_open = c.fail_open;
  vo.max_header_bytes = c.max_header;
  std::vector<std::string> texts;
  for (const auto& k : c.keys) texts.push_back(read_text(k));
  for (const auto& r : c.registries) {
    auto entries = sv::parse_registry(read_text(r));
    if (!entries) throw Exit{kExitUsage, r + ": " + entries.error().message};
    sv::apply_registry(entries.value(), vo, texts);
  }
  static sv::Metrics metrics;
  sv::DirectoryCacheOptions dco;
  dco.http.connect_timeout_ms = c.dir_timeout_ms;
  dco.http.total_timeout_ms = c.dir_timeout_ms;
  dco.http.max_body = c.dir_max_bytes;
  dco.http.ca_file = c.ca_file;
  dco.http.allow_http = c.allow_http;
  dco.http.allow_private_addresses = c.allow_private;
  dco.http.proxy = c.directory_proxy;  // empty: no proxy, whatever https_proxy says
  // Fetches are asynchronous (one libcurl multi thread): a slot is a socket, not a thread.
  dco.max_concurrent_fetches = std::max<std::size_t>(1, c.dir_fetches);
  dco.max_fetches_per_origin = std::max<std::size_t>(1, c.dir_fetches_per_origin);
  dco.max_fetches_per_address = std::max<std::size_t>(1, c.dir_fetches_per_address);
  dco.max_parked = c.dir_parked;
  dco.max_entries = c.dir_max_entries;
  dco.max_bytes = c.dir_cache_bytes;
  dco.max_agent_bytes = std::min(dco.max_agent_bytes, dco.max_bytes);
  dco.negative_ttl = c.negative_ttl;
  dco.stale_cap = c.stale_cap;
  if (c.allow_http) std::cerr << "pqsig serve verify: WARNING: --insecure-allow-http: directories over plain HTTP (tests only)\n";
  if (c.any_authority)
    std::cerr << "pqsig serve verify: WARNING: --any-authority: signatures for any site are accepted; the proxy in front "
                 "must refuse every name but yours\n";
  std::unique_ptr<sv::DirectoryCache> dirs;
  if (!c.no_dir) dirs = std::make_unique<sv::DirectoryCache>(dco, &metrics);
  std::unique_ptr<sv::ReplayStore> replay;
  if (!c.redis.empty()) {
    auto ro = sv::RedisReplayStore::parse_url(c.redis);
    if (!ro) throw Exit{kExitUsage, "--redis: " + ro.error().message};
    ro->max_retention = c.nonce_retention;
    ro->max_per_owner = c.nonces_per_owner;
    replay = std::make_unique<sv::RedisReplayStore>(ro.value());
  } else if (!c.no_replay) {
    sv::MemoryReplayStore::Options mo;
    mo.max_entries = c.nonce_entries;
    mo.max_per_owner = std::min(c.nonces_per_owner, c.nonce_entries);
    mo.max_retention = c.nonce_retention;
    replay = std::make_unique<sv::MemoryReplayStore>(mo);
  }
  vo.nonce_retention = c.nonce_retention;
  // Decision workers: enough for cached agents (one per I/O thread, at least 2) plus the few
  // threads a request can hold waiting on a fetch (only after it was suspended kMaxParkRounds
  // times); a request waiting on a fetch is otherwise suspended and holds no thread.
  so.decision_threads = c.decision_threads ? static_cast<int>(c.decision_threads)
                                           : std::max(2, c.server.threads) + static_cast<int>(dco.max_blocking());
  so.max_queued_decisions = c.max_queued;
  auto v = sv::Verifier::create(vo, texts, dirs.get(), replay.get(), &metrics);
  if (!v) throw Exit{kExitUsage, v.error().message};
  int rc = sv::run_verify_server(*v.value(), metrics, so);
  if (rc != 0) throw Exit{rc, ""};
}

struct DirCmd {
  ServerFlags server{"127.0.0.1:8090", 2};
  std::vector<std::string> keys, authorities;
  std::int64_t max_age = 300, expires = 3600;
};

void run_directory(const DirCmd& c) {
  sv::ServerOptions so = c.server.options();
  sv::DirectoryPublisher::Options po;
  po.key_files = c.keys;
  po.max_age = c.max_age;
  po.expires_in = c.expires;
  po.authorities = c.authorities;
  auto p = sv::DirectoryPublisher::create(po);
  if (!p) throw Exit{kExitUsage, p.error().message};
  int rc = sv::run_directory_server(*p.value(), so);
  if (rc != 0) throw Exit{rc, ""};
}

}  // namespace

void register_serve(CLI::App& app) {
  auto* serve = app.add_subcommand("serve", "Web Bot Auth in the path: verifier service, key directory server");
  serve->require_subcommand(1);

  auto vc = std::make_shared<VerifyCmd>();
  auto* v = serve->add_subcommand("verify", "HTTP verifier for nginx auth_request / Caddy forward_auth / Envoy ext_authz");
  vc->server.add_to(v);
  v->add_option("--keys", vc->keys, "static JWKS / JWK file(s)");
  v->add_option("--registry", vc->registries,
                "registry file(s) (draft-meunier-webbotauth-registry text format: https card/directory URLs, data: cards); "
                "only listed agents are fetched");
  v->add_option("--policy", vc->policy, "policy JSON file (strict; default: safe web-bot-auth policy)");
  v->add_option("--authority", vc->authorities,
                "authorities this verifier protects, host[:port][,…] (repeatable; required unless --any-authority or the "
                "policy's \"authorities\"): a request for any other @authority is refused (authority_not_protected)");
  v->add_flag("--any-authority", vc->any_authority,
              "accept any @authority (only when the proxy in front already refuses every name but yours)");
  v->add_option("--directory-proxy", vc->directory_proxy,
                "HTTP(S) proxy for directory fetches (default: none, and https_proxy / http_proxy in the environment are "
                "ignored); the private-address guard still checks the directory's own address");
  v->add_option("--redis", vc->redis, "redis://host:port[/db] nonce replay store shared by a fleet");
  v->add_flag("--replay-fail-open", vc->fail_open, "accept (counted) when the replay store is unreachable (default: refuse)");
  v->add_option("--nonce-store-entries", vc->nonce_entries,
                "in-process nonce store bound (default 200000, about 150 MB of RSS at 0.8 kB each, measured; when full, the agent holding most nonces gives way, else 401 nonce_quota)");
  v->add_option("--nonce-retention", vc->nonce_retention,
                "seconds a nonce is kept, whatever the signer's expires says (default 900); labels created longer ago "
                "than this minus twice the clock skew are refused");
  v->add_option("--nonces-per-agent", vc->nonces_per_owner,
                "live nonces one agent (or static key) may hold (default 100000; more: 401 nonce_quota)");
  v->add_flag("--no-replay-store", vc->no_replay, "no in-process nonce store (only with --redis absent and no require_nonce)");
  v->add_flag("--no-directory-fetch", vc->no_dir, "never fetch Signature-Agent directories (static keys only)");
  v->add_flag("--insecure-allow-http", vc->allow_http, "TESTS ONLY: allow http:// directories");
  v->add_flag("--allow-private-directories", vc->allow_private,
              "fetch directories on loopback / private addresses (default: refused, no SSRF into the internal network)");
  v->add_option("--ca-file", vc->ca_file, "CA bundle trusted for directory TLS (replaces the system store; TLS verification stays on)");
  v->add_option("--directory-timeout-ms", vc->dir_timeout_ms, "directory connect / total timeout (default 2000)");
  v->add_option("--directory-max-bytes", vc->dir_max_bytes, "directory response size cap (default 256 KiB)");
  v->add_option("--directory-cache-entries", vc->dir_max_entries, "cached directories (default 1024)");
  v->add_option("--directory-fetches", vc->dir_fetches,
                "directory fetches in flight at once (default 128; asynchronous, a fetch holds a socket, not a thread; "
                "more: refused at once, stale keys still served)");
  v->add_option("--directory-fetches-per-origin", vc->dir_fetches_per_origin,
                "of those, fetches from one origin at once (default 2)");
  v->add_option("--directory-fetches-per-address", vc->dir_fetches_per_address,
                "of those, connections to one resolved address (IPv4 address or IPv6 /64) at once (default 8)");
  v->add_option("--directory-parked", vc->dir_parked,
                "requests suspended waiting for directory fetches (default 4096; more: 401 directory_unavailable)");
  v->add_option("--directory-cache-bytes", vc->dir_cache_bytes,
                "key material the directory cache holds, as verification holds it (default 64 MiB)");
  v->add_option("--decision-threads", vc->decision_threads,
                "decision workers (default: I/O threads + 4; a request waiting for a directory fetch holds none)");
  v->add_option("--max-queued-decisions", vc->max_queued, "requests waiting for a decision worker (default 256; more: 401 overloaded)");
  v->add_option("--negative-ttl", vc->negative_ttl, "seconds a failed directory fetch is remembered (default 30)");
  v->add_option("--stale-cap", vc->stale_cap, "seconds expired keys may be served while fetches fail (default 3600)");
  v->add_option("--max-header-bytes", vc->max_header, "auth request header section limit (default 16384)");
  v->add_option("--proxy", vc->proxy,
                "proxy sending the auth requests: nginx (auth_request, X-Original-*; default), caddy (forward_auth, "
                "X-Forwarded-Method/-Uri) or envoy (HTTP ext_authz); only that proxy's fields are trusted");
  v->add_option("--envoy-path-prefix", vc->envoy_prefix, "with --proxy envoy: the ext_authz http_service path_prefix, e.g. /auth");
  v->add_option("--scheme", vc->scheme, "scheme of the original requests (default https)");
  v->callback([vc] { run_verify(*vc); });

  auto dc = std::make_shared<DirCmd>();
  auto* d = serve->add_subcommand("directory", "serve /.well-known/http-message-signatures-directory, signed; SIGHUP reloads keys");
  dc->server.add_to(d);
  d->add_option("--key", dc->keys, "private JWK file(s) (published and used to sign the response)")->required();
  d->add_option("--authority", dc->authorities,
                "Host name(s) this directory answers for (host = any port, host:port = that port); others get 421, "
                "nothing signed")
      ->required();
  d->add_option("--max-age", dc->max_age, "Cache-Control max-age seconds (default 300)");
  d->add_option("--expires", dc->expires, "response signature validity seconds (default 3600)");
  d->callback([dc] { run_directory(*dc); });
}

}  // namespace pqsig::cli
