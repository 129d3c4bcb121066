// pqsig — the crawler side of Web Bot Auth: a bounded HTTP client (libcurl) and a signing client
// that signs every request (sig1 Ed25519 + sig2 ML-DSA-44 by default), re-signs each redirect hop
// for its new authority and can answer an Accept-Signature challenge (RFC 9421 §5.1).
// Network code: lives in the pqsig_client library, never in the core library.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/httpsig.hpp"
#include "pqsig/webbotauth.hpp"

namespace pqsig::client {

/// Limits of one HTTP exchange. TLS verification is on unless a test turns it off explicitly.
struct HttpLimits {
  long connect_timeout_ms = 2000;
  long total_timeout_ms = 5000;
  std::size_t max_body = 1 << 20;          ///< response body bytes (larger: error, transfer aborted)
  std::size_t max_header_bytes = 64 * 1024;///< response header section bytes
  bool verify_tls = true;                  ///< peer + host verification (never off by default)
  std::string ca_file;                     ///< CA bundle trusted instead of the system store (e.g. a test CA); empty = system store
  bool allow_http = false;                 ///< plain http:// URLs (tests / loopback only)
  /// Connect to addresses that are not globally reachable (address_is_private). Off by default:
  /// the verifier fetches URLs named by strangers and the client follows redirects chosen by
  /// servers — neither may reach loopback or the internal network unless asked (tests, internal
  /// services). Every connection of an exchange is checked, so a redirect target passes the
  /// same guard as the first URL.
  bool allow_private_addresses = false;
  /// Private addresses allowed one by one (numeric, e.g. "127.0.0.1", "10.0.0.5") while the
  /// guard stays on for every other.
  std::vector<std::string> allowed_private;
  /// HTTP(S) proxy ("http://proxy.internal:3128"); empty = none. The environment (https_proxy,
  /// http_proxy, all_proxy, no_proxy) is never consulted. Through a proxy, every request is
  /// tunnelled (CONNECT) to the target address pqsig resolved and checked itself.
  std::string proxy;
};

/// The private-address guard: true for an address that is not globally reachable — every entry
/// of the IANA IPv4 and IPv6 Special-Purpose Address Registries marked so, plus multicast and
/// the deprecated ranges (site-local fec0::/10, IPv4-compatible ::/96, the 6to4 relay anycast) —
/// or that embeds such an IPv4 address (IPv4-mapped ::ffff:0:0/96, IPv4-translated
/// ::ffff:0:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16). `ip` is a numeric IPv4 / IPv6 address;
/// anything else counts as private.
bool address_is_private(std::string_view ip);

struct HttpResponse {
  long status = 0;
  std::vector<httpsig::FieldLine> headers;
  std::string body;
  std::string url;  ///< the URL that answered
  std::optional<std::string> header(std::string_view name) const;
  /// The response as an httpsig::Message (for verifying a signed response).
  httpsig::Message as_message() const;
};

/// Parsed absolute URL (scheme, host, port, path+query) via libcurl's URL API.
struct Url {
  std::string scheme, host, path_query;
  int port = 0;              ///< explicit or default port
  bool default_port = true;  ///< port is the scheme's default (authority then omits it)
  std::string authority() const;  ///< host[:port] as in Host / @authority
  std::string origin() const;     ///< scheme://authority
};
Result<Url> parse_url(std::string_view url);
/// Resolves `ref` (absolute or relative, e.g. a Location value) against `base`.
Result<std::string> resolve_url(std::string_view base, std::string_view ref);

/// One HTTP exchange (no redirect following). The request's own fields are sent as given:
/// libcurl adds no User-Agent / Accept of its own, so what was signed is what is sent.
Result<HttpResponse> http_exchange(std::string_view method, std::string_view url,
                                   const std::vector<httpsig::FieldLine>& headers, std::string_view body,
                                   const HttpLimits& limits);

/// Asynchronous GETs over one libcurl multi handle run by one thread: a fetch holds no caller's
/// thread, only a socket, so many may wait on slow servers at once. Each exchange has exactly the
/// limits and guards of http_exchange (timeouts, size caps, TLS, no redirect, the private-address
/// guard on every connection, proxies only when configured). On top, at most
/// Options::max_per_address sockets are open to one address (an IPv4 address, or an IPv6 /64) at
/// once; a fetch over that cap fails at once with `busy` set.
class AsyncFetcher {
 public:
  struct Options {
    std::size_t max_per_address = 8;
  };
  /// Called exactly once per start(), on the fetcher thread (or on the caller's thread when the
  /// exchange cannot even be set up); `busy`: refused by the per-address cap, not by the server.
  using Done = std::function<void(Result<HttpResponse>, bool busy)>;
  explicit AsyncFetcher(Options opt);
  ~AsyncFetcher();  ///< fetches under way are aborted and answered with an error
  AsyncFetcher(const AsyncFetcher&) = delete;
  AsyncFetcher& operator=(const AsyncFetcher&) = delete;
  /// A GET with the given request fields. Through a configured proxy the target is resolved (and
  /// checked) on the caller's thread first.
  void start(std::string_view url, const std::vector<httpsig::FieldLine>& headers, const HttpLimits& limits, Done done);
  std::size_t active() const;  ///< exchanges started and not yet answered

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Signing keys cached by their secret: the expanded key (ML-DSA: 2560 bytes from a 32-byte
/// seed) is derived once per distinct secret; a rotated secret is re-derived, never reused.
class KeyCache {
 public:
  struct Entry {
    std::shared_ptr<const SigningKey> key;
    std::string keyid;  ///< RFC 7638 thumbprint
  };
  /// The signing key of a private JWK (loaded and expanded only when its secret is new).
  Result<Entry> get(std::string_view private_jwk);
  std::size_t derivations() const;  ///< how many keys were expanded (tests)
  std::size_t size() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, Entry> by_secret_;  ///< key: SHA-256 of (suite, secret member) in hex
  std::size_t derivations_ = 0;
};

struct ClientOptions {
  std::vector<std::pair<std::string, std::string>> keys;  ///< label -> private JWK text (first = mandatory)
  std::string agent;                    ///< Signature-Agent URL (every label), empty = none
  bool challenge_mode = false;          ///< send unsigned; sign only after a 401/403/429 with Accept-Signature
  int max_redirects = 5;                ///< each hop re-signed for its own authority
  std::int64_t expires_in = 300;
  std::size_t header_budget = webbotauth::kDefaultHeaderBudget;
  std::size_t header_cap = webbotauth::kDefaultHeaderCap;
  std::string user_agent = "pqsig-fetch";
  HttpLimits http;                      ///< per hop: every redirect target passes the same guard
  std::function<std::int64_t()> clock;  ///< UNIX time (default: system clock)
  std::function<void(std::string_view)> log;  ///< warnings (default: stderr)
};

struct FetchResult {
  HttpResponse response;
  int hops = 0;                           ///< requests sent (redirects and challenge retry included)
  std::vector<std::string> signed_labels; ///< labels signed on the last request
  std::vector<std::string> warnings;
  bool challenged = false;                ///< a challenge was answered
};

/// The crawler's client: every request signed per Web Bot Auth, per hop.
class Client {
 public:
  explicit Client(ClientOptions opt);
  /// Replace a label's key (rotation): the new secret is expanded, the old one no longer used.
  Status set_key(const std::string& label, std::string private_jwk);
  Result<FetchResult> fetch(std::string_view method, std::string_view url,
                            const std::vector<httpsig::FieldLine>& headers = {}, std::string_view body = {});
  /// Builds and signs the request for one hop without sending it (tests, dry runs).
  Result<httpsig::Message> build_signed(std::string_view method, const Url& url,
                                        const std::vector<httpsig::FieldLine>& headers, std::string_view body,
                                        std::vector<std::string>* labels = nullptr,
                                        std::vector<std::string>* warnings = nullptr);
  const KeyCache& key_cache() const { return cache_; }

 private:
  Result<httpsig::Message> answer_challenge(const httpsig::Message& unsigned_req,
                                            const std::vector<httpsig::SignatureRequest>& reqs,
                                            std::vector<std::string>* labels);
  ClientOptions opt_;
  KeyCache cache_;
  std::mutex log_mu_;
};

}  // namespace pqsig::client
