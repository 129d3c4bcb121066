// pqsig_client: one bounded HTTP exchange over libcurl (timeouts, body and header caps, TLS
// verification on, https only unless allowed) and URL parsing / resolution via libcurl's URL API.
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "pqsig/client.hpp"

namespace pqsig::client {
namespace {

std::once_flag g_curl_once;
void curl_init_once() {
  std::call_once(g_curl_once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct CurlUrlDeleter {
  void operator()(CURLU* u) const noexcept { curl_url_cleanup(u); }
};
using UrlPtr = std::unique_ptr<CURLU, CurlUrlDeleter>;
struct CurlDeleter {
  void operator()(CURL* c) const noexcept { curl_easy_cleanup(c); }
};
struct Slist {  // owns a curl_slist; append returns the same head, so no unique_ptr::reset
  curl_slist* head = nullptr;
  ~Slist() { curl_slist_free_all(head); }
  bool append(const std::string& line) {
    curl_slist* h = curl_slist_append(head, line.c_str());
    if (!h) return false;
    head = h;
    return true;
  }
};

std::string get_part(CURLU* u, CURLUPart part, unsigned flags = 0) {
  char* p = nullptr;
  if (curl_url_get(u, part, &p, flags) != CURLUE_OK || !p) return {};
  std::string s(p);
  curl_free(p);
  return s;
}

struct Sink {
  HttpResponse* resp;
  std::size_t max_body, max_headers, header_bytes = 0;
  bool body_overflow = false, header_overflow = false;
};

size_t on_body(char* ptr, size_t size, size_t nmemb, void* ud) {
  auto* s = static_cast<Sink*>(ud);
  std::size_t n = size * nmemb;
  if (s->resp->body.size() + n > s->max_body) {
    s->body_overflow = true;
    return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
  }
  s->resp->body.append(ptr, n);
  return n;
}

size_t on_header(char* ptr, size_t size, size_t nmemb, void* ud) {
  auto* s = static_cast<Sink*>(ud);
  std::size_t n = size * nmemb;
  s->header_bytes += n;
  if (s->header_bytes > s->max_headers) {
    s->header_overflow = true;
    return 0;
  }
  std::string_view line(ptr, n);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {  // a new status line (e.g. after 100 Continue): restart
    s->resp->headers.clear();
    return n;
  }
  auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return n;
  std::string_view v = line.substr(colon + 1);
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  s->resp->headers.push_back({std::string(line.substr(0, colon)), std::string(v)});
  return n;
}

// The private-address guard, table-driven: the IANA IPv4 and IPv6 Special-Purpose Address
// Registries (entries not globally reachable), multicast, the deprecated ranges, and the IPv6
// forms that carry an IPv4 address (checked against the IPv4 table).
struct V4Block {
  const char* net;
  int len;
};
constexpr V4Block kV4Blocked[] = {
    {"0.0.0.0", 8},        // "this network" (RFC 791)
    {"10.0.0.0", 8},       // private-use (RFC 1918)
    {"100.64.0.0", 10},    // shared address space, CGNAT (RFC 6598)
    {"127.0.0.0", 8},      // loopback
    {"169.254.0.0", 16},   // link local (cloud metadata services live here)
    {"172.16.0.0", 12},    // private-use
    {"192.0.0.0", 24},     // IETF protocol assignments (RFC 6890)
    {"192.0.2.0", 24},     // documentation TEST-NET-1
    {"192.88.99.0", 24},   // deprecated 6to4 relay anycast (RFC 7526)
    {"192.168.0.0", 16},   // private-use
    {"198.18.0.0", 15},    // benchmarking (RFC 2544)
    {"198.51.100.0", 24},  // documentation TEST-NET-2
    {"203.0.113.0", 24},   // documentation TEST-NET-3
    {"224.0.0.0", 4},      // multicast
    {"240.0.0.0", 4},      // reserved, limited broadcast 255.255.255.255
};
struct V6Rule {
  const char* net;
  int len;
  int v4_at;  ///< -1: refused; else the byte offset of an embedded IPv4 address, checked instead
};
constexpr V6Rule kV6Rules[] = {
    {"::ffff:0:0", 96, 12},    // IPv4-mapped (RFC 4291)
    {"::ffff:0:0:0", 96, 12},  // IPv4-translated (RFC 6145 / SIIT)
    {"::", 96, -1},            // unspecified, loopback, deprecated IPv4-compatible ::a.b.c.d
    {"64:ff9b::", 96, 12},     // NAT64 well-known prefix (RFC 6052): the gateway reaches the IPv4 inside
    {"64:ff9b:1::", 48, -1},   // local-use IPv4/IPv6 translation (RFC 8215)
    {"100::", 64, -1},         // discard-only (RFC 6666)
    {"100:0:0:1::", 64, -1},   // dummy IPv6 prefix (RFC 9780)
    {"2001::", 23, -1},        // IETF protocol assignments, Teredo 2001::/32 included (RFC 2928)
    {"2001:db8::", 32, -1},    // documentation (RFC 3849)
    {"2002::", 16, 2},         // 6to4 (RFC 3056): the relay reaches the IPv4 inside
    {"3fff::", 20, -1},        // documentation (RFC 9637)
    {"5f00::", 16, -1},        // segment routing SIDs (RFC 9602)
    {"fc00::", 7, -1},         // unique local (RFC 4193)
    {"fe80::", 10, -1},        // link local
    {"fec0::", 10, -1},        // deprecated site local (RFC 3879)
    {"ff00::", 8, -1},         // multicast
};

bool prefix_match(const std::uint8_t* a, const std::uint8_t* net, int len) {
  int full = len / 8, rest = len % 8;
  if (std::memcmp(a, net, static_cast<std::size_t>(full)) != 0) return false;
  if (rest == 0) return true;
  auto mask = static_cast<std::uint8_t>(0xff << (8 - rest));
  return (a[full] & mask) == (net[full] & mask);
}

bool v4_private(const std::uint8_t* a) {
  for (const auto& b : kV4Blocked) {
    std::uint8_t net[4];
    inet_pton(AF_INET, b.net, net);
    if (prefix_match(a, net, b.len)) return true;
  }
  return false;
}

bool v6_private(const std::uint8_t* a) {
  for (const auto& r : kV6Rules) {
    std::uint8_t net[16];
    inet_pton(AF_INET6, r.net, net);
    if (!prefix_match(a, net, r.len)) continue;
    return r.v4_at < 0 || v4_private(a + r.v4_at);
  }
  return false;
}

bool is_private(const sockaddr* sa) {
  if (sa->sa_family == AF_INET)
    return v4_private(reinterpret_cast<const std::uint8_t*>(&reinterpret_cast<const sockaddr_in*>(sa)->sin_addr));
  if (sa->sa_family == AF_INET6)
    return v6_private(reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr.s6_addr);
  return true;  // other families: refuse
}

// Numeric address bytes (4 or 16) of a sockaddr, for comparing with HttpLimits::allowed_private.
std::string addr_bytes(const sockaddr* sa) {
  if (sa->sa_family == AF_INET)
    return std::string(reinterpret_cast<const char*>(&reinterpret_cast<const sockaddr_in*>(sa)->sin_addr), 4);
  if (sa->sa_family == AF_INET6)
    return std::string(reinterpret_cast<const char*>(reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr.s6_addr), 16);
  return {};
}

// The key the per-address fetch cap counts under: an IPv4 address, or an IPv6 /64 (one host
// usually holds a whole /64); an IPv4-mapped IPv6 address counts as its IPv4 address.
std::string addr_key_of_bytes(const std::string& b) {
  if (b.size() == 16) {
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(b.data(), mapped, 12) == 0) return b.substr(12);  // IPv4-mapped: the IPv4 address
    return b.substr(0, 8);                                              // IPv6: its /64
  }
  return b;
}

std::string literal_bytes(const std::string& ip) {
  std::uint8_t b[16];
  if (inet_pton(AF_INET, ip.c_str(), b) == 1) return std::string(reinterpret_cast<const char*>(b), 4);
  if (inet_pton(AF_INET6, ip.c_str(), b) == 1) return std::string(reinterpret_cast<const char*>(b), 16);
  return {};
}

struct SocketGuard {
  bool allow_private;
  std::vector<std::string> allowed;  ///< address bytes
  bool through_proxy = false;        ///< every socket goes to the configured proxy (the target was checked before)
  bool refused = false;
  bool busy = false;  ///< refused by the per-address cap (AsyncFetcher)
  std::map<std::string, std::size_t>* per_addr = nullptr;  ///< AsyncFetcher: sockets open per address key
  std::size_t max_per_addr = 0;
  std::vector<std::string> counted;  ///< address keys this exchange holds in per_addr
  bool permits(const sockaddr* sa) const {
    if (allow_private || !is_private(sa)) return true;
    std::string b = addr_bytes(sa);
    return !b.empty() && std::find(allowed.begin(), allowed.end(), b) != allowed.end();
  }
};

curl_socket_t open_socket(void* ud, curlsocktype, curl_sockaddr* addr) {
  auto* g = static_cast<SocketGuard*>(ud);
  if (!g->through_proxy && !g->permits(&addr->addr)) {
    g->refused = true;
    return CURL_SOCKET_BAD;
  }
  if (g->per_addr && !g->through_proxy) {
    // One address (an IPv6 /64) holds at most max_per_addr sockets of this fetcher at once: a
    // stranger's many hostnames on one address cannot take every fetch slot.
    std::string k = addr_key_of_bytes(addr_bytes(&addr->addr));
    std::size_t& n = (*g->per_addr)[k];
    if (n >= g->max_per_addr) {
      if (n == 0) g->per_addr->erase(k);
      g->busy = true;
      return CURL_SOCKET_BAD;
    }
    ++n;
    g->counted.push_back(k);
  }
  return socket(addr->family, addr->socktype, addr->protocol);
}

// Through a proxy the sockets go to the proxy: the target is resolved and checked here, and the
// CONNECT names the checked address (CURLOPT_CONNECT_TO), so the proxy cannot resolve it anew.
Result<std::string> checked_target(const Url& u, const SocketGuard& g) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  std::string host = u.host;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  addrinfo* res = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &res) != 0 || !res)
    return Error{Errc::io, "cannot resolve " + host};
  std::unique_ptr<addrinfo, void (*)(addrinfo*)> hold(res, freeaddrinfo);
  std::string first;
  for (auto* ai = res; ai; ai = ai->ai_next) {
    if (!g.permits(ai->ai_addr))
      return Error{Errc::policy, host + " resolves to a loopback / private address: refused"};
    if (first.empty()) {
      char buf[INET6_ADDRSTRLEN] = {0};
      const void* src = ai->ai_family == AF_INET ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(ai->ai_addr)->sin_addr)
                                                 : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(ai->ai_addr)->sin6_addr);
      if (inet_ntop(ai->ai_family, src, buf, sizeof buf)) first = ai->ai_family == AF_INET6 ? "[" + std::string(buf) + "]" : buf;
    }
  }
  if (first.empty()) return Error{Errc::io, "cannot resolve " + host};
  return first;
}

}  // namespace

bool address_is_private(std::string_view ip) {
  std::uint8_t b[16];
  std::string s(ip);
  if (inet_pton(AF_INET, s.c_str(), b) == 1) return v4_private(b);
  if (inet_pton(AF_INET6, s.c_str(), b) == 1) return v6_private(b);
  return true;
}

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  std::string want = ascii_lower(name);
  std::optional<std::string> out;
  for (const auto& h : headers)
    if (ascii_lower(h.name) == want) out = out ? *out + ", " + h.value : h.value;
  return out;
}

httpsig::Message HttpResponse::as_message() const {
  httpsig::Message m;
  m.is_request = false;
  m.status = static_cast<int>(status);
  m.headers = headers;
  m.body = body;
  return m;
}

std::string Url::authority() const {
  return default_port ? host : host + ":" + std::to_string(port);
}
std::string Url::origin() const { return scheme + "://" + authority(); }

Result<Url> parse_url(std::string_view text) {
  curl_init_once();
  if (text.size() > 8192) return Error{Errc::invalid_argument, "URL longer than 8192 bytes"};
  UrlPtr u(curl_url());
  if (!u) return Error{Errc::internal, "curl_url failed"};
  std::string s(text);
  if (curl_url_set(u.get(), CURLUPART_URL, s.c_str(), 0) != CURLUE_OK)
    return Error{Errc::invalid_argument, "not an absolute URL: " + s};
  Url out;
  out.scheme = ascii_lower(get_part(u.get(), CURLUPART_SCHEME));
  out.host = ascii_lower(get_part(u.get(), CURLUPART_HOST));
  if (out.scheme != "https" && out.scheme != "http") return Error{Errc::invalid_argument, "URL scheme must be https: " + s};
  if (out.host.empty()) return Error{Errc::invalid_argument, "URL without host: " + s};
  if (!get_part(u.get(), CURLUPART_USER).empty()) return Error{Errc::invalid_argument, "URL with user info refused"};
  std::string explicit_port = get_part(u.get(), CURLUPART_PORT);
  std::string port = get_part(u.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
  out.port = port.empty() ? 0 : std::atoi(port.c_str());
  int def = out.scheme == "https" ? 443 : 80;
  out.default_port = explicit_port.empty() || out.port == def;
  out.path_query = get_part(u.get(), CURLUPART_PATH);
  if (out.path_query.empty()) out.path_query = "/";
  std::string q = get_part(u.get(), CURLUPART_QUERY);
  if (!q.empty()) {
    out.path_query.push_back('?');
    out.path_query.append(q);
  }
  return out;
}

Result<std::string> resolve_url(std::string_view base, std::string_view ref) {
  curl_init_once();
  if (ref.size() > 8192) return Error{Errc::invalid_argument, "Location longer than 8192 bytes"};
  UrlPtr u(curl_url());
  if (!u) return Error{Errc::internal, "curl_url failed"};
  std::string b(base), r(ref);
  if (curl_url_set(u.get(), CURLUPART_URL, b.c_str(), 0) != CURLUE_OK)
    return Error{Errc::invalid_argument, "bad base URL " + b};
  if (curl_url_set(u.get(), CURLUPART_URL, r.c_str(), 0) != CURLUE_OK)
    return Error{Errc::invalid_argument, "bad Location " + r};
  std::string out = get_part(u.get(), CURLUPART_URL);
  if (out.empty()) return Error{Errc::invalid_argument, "cannot resolve " + r};
  return out;
}

namespace {

// One exchange's libcurl state: the easy handle and everything its options point at, set up
// once for the blocking exchange and for the asynchronous fetcher alike (same limits, same guard).
struct Exchange {
  std::unique_ptr<CURL, CurlDeleter> c;
  HttpResponse resp;
  Sink sink{&resp, 0, 0};
  std::string u, m, connect_to;
  Slist list;
  SocketGuard guard{};
  curl_slist connect_to_item{nullptr, nullptr};
  char errbuf[CURL_ERROR_SIZE] = {0};
  std::size_t max_body = 0, max_header_bytes = 0;
  std::string target_key;  ///< through a proxy: the checked target's address key (the address cap)
};

Result<std::unique_ptr<Exchange>> prepare_exchange(std::string_view method, std::string_view url,
                                                   const std::vector<httpsig::FieldLine>& headers, std::string_view body,
                                                   const HttpLimits& limits) {
  curl_init_once();
  auto pu = parse_url(url);
  if (!pu) return pu.error();
  if (pu->scheme == "http" && !limits.allow_http)
    return Error{Errc::policy, "plain http:// refused (https only; tests may allow http explicitly)"};
  auto x = std::make_unique<Exchange>();
  x->c.reset(curl_easy_init());
  if (!x->c) return Error{Errc::internal, "curl_easy_init failed"};
  x->max_body = limits.max_body;
  x->max_header_bytes = limits.max_header_bytes;
  x->sink = Sink{&x->resp, limits.max_body, limits.max_header_bytes};
  x->u = std::string(url);
  x->m = std::string(method);
  for (const auto& h : headers) {
    if (h.name.find_first_of("\r\n:") != std::string::npos || h.value.find_first_of("\r\n") != std::string::npos)
      return Error{Errc::invalid_argument, "header with CR/LF or colon in its name: " + h.name};
    std::string line = h.name + (h.value.empty() ? ";" : ": " + h.value);
    if (!x->list.append(line)) return Error{Errc::internal, "curl_slist_append failed"};
  }
  // What was signed is what is sent: no implicit Accept / User-Agent / Expect.
  for (const char* drop : {"Accept:", "Expect:", "User-Agent:"}) {
    bool given = false;
    for (const auto& h : headers)
      if (ascii_lower(h.name) + ":" == ascii_lower(drop)) given = true;
    if (!given) {
      if (!x->list.append(drop)) return Error{Errc::internal, "curl_slist_append failed"};
    }
  }
  CURL* h = x->c.get();
  curl_easy_setopt(h, CURLOPT_URL, x->u.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, limits.allow_http ? "http,https" : "https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, limits.connect_timeout_ms);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, limits.total_timeout_ms);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, limits.verify_tls ? 1L : 0L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, limits.verify_tls ? 2L : 0L);
  if (!limits.ca_file.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, limits.ca_file.c_str());
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(limits.max_body));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &x->sink);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &x->sink);
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, nullptr);
  // Every exchange on a connection of its own (as a lone easy handle always had): a stranger's
  // connection is never kept for, or shared with, another fetch.
  curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, 1L);
  curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L);
  if (x->list.head) curl_easy_setopt(h, CURLOPT_HTTPHEADER, x->list.head);
  if (x->m == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (x->m != "GET" || !body.empty()) {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, x->m.c_str());
    if (!body.empty() || x->m == "POST" || x->m == "PUT" || x->m == "PATCH") {
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
      curl_easy_setopt(h, CURLOPT_COPYPOSTFIELDS, std::string(body).c_str());
    }
  }
  x->guard.allow_private = limits.allow_private_addresses;
  for (const auto& a : limits.allowed_private) {
    std::string b = literal_bytes(a);
    if (b.empty()) return Error{Errc::invalid_argument, "allowed private address '" + a + "' is not a numeric address"};
    x->guard.allowed.push_back(std::move(b));
  }
  // Proxies only when configured: libcurl would otherwise take https_proxy / http_proxy /
  // all_proxy from the environment and the guard below would only ever see the proxy.
  if (limits.proxy.empty()) {
    curl_easy_setopt(h, CURLOPT_PROXY, "");
    curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
  } else {
    auto target = checked_target(pu.value(), x->guard);
    if (!target) return target.error();
    curl_easy_setopt(h, CURLOPT_PROXY, limits.proxy.c_str());
    curl_easy_setopt(h, CURLOPT_NOPROXY, "");  // no_proxy in the environment is not consulted either
    curl_easy_setopt(h, CURLOPT_HTTPPROXYTUNNEL, 1L);
    std::string host = pu->host;
    std::string t = target.value();
    x->connect_to = host + ":" + std::to_string(pu->port) + ":" + t + ":" + std::to_string(pu->port);
    if (t.size() > 2 && t.front() == '[') t = t.substr(1, t.size() - 2);
    x->target_key = addr_key_of_bytes(literal_bytes(t));
    x->guard.through_proxy = true;
  }
  if (!x->connect_to.empty()) {
    x->connect_to_item.data = x->connect_to.data();
    curl_easy_setopt(h, CURLOPT_CONNECT_TO, &x->connect_to_item);
  }
  curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, open_socket);
  curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, &x->guard);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, x->errbuf);
  return x;
}

Result<HttpResponse> finish_exchange(Exchange& x, CURLcode rc) {
  if (x.sink.body_overflow || rc == CURLE_FILESIZE_EXCEEDED)
    return Error{Errc::policy, "response body larger than " + std::to_string(x.max_body) + " bytes"};
  if (x.sink.header_overflow)
    return Error{Errc::policy, "response headers larger than " + std::to_string(x.max_header_bytes) + " bytes"};
  if (x.guard.busy && rc != CURLE_OK)
    return Error{Errc::io, x.u + ": too many fetches to one address in progress"};
  if (x.guard.refused && rc != CURLE_OK)
    return Error{Errc::policy, x.u + ": refusing to connect to a loopback / private address"};
  if (rc != CURLE_OK) {
    std::string why = x.errbuf[0] ? x.errbuf : curl_easy_strerror(rc);
    return Error{Errc::io, x.u + ": " + why};
  }
  curl_easy_getinfo(x.c.get(), CURLINFO_RESPONSE_CODE, &x.resp.status);
  x.resp.url = x.u;
  return std::move(x.resp);
}

}  // namespace

Result<HttpResponse> http_exchange(std::string_view method, std::string_view url,
                                   const std::vector<httpsig::FieldLine>& headers, std::string_view body,
                                   const HttpLimits& limits) {
  auto x = prepare_exchange(method, url, headers, body, limits);
  if (!x) return x.error();
  CURLcode rc = curl_easy_perform(x.value()->c.get());
  return finish_exchange(*x.value(), rc);
}

// ------------------------------------------------------------------ AsyncFetcher

struct CurlMultiDeleter {
  void operator()(CURLM* m) const noexcept { curl_multi_cleanup(m); }
};

struct AsyncFetcher::Impl {
  struct Job {
    std::unique_ptr<Exchange> x;
    Done done;
  };
  Options opt;
  std::unique_ptr<CURLM, CurlMultiDeleter> multi;
  std::mutex mu;
  std::vector<Job> queued;                     ///< guarded by mu
  bool stop = false;                           ///< guarded by mu
  std::map<CURL*, Job> running;                ///< fetcher thread only
  std::map<std::string, std::size_t> per_addr; ///< fetcher thread only: sockets open per address key
  std::atomic<std::size_t> active{0};
  std::thread thread;

  void release(Exchange& x) {
    for (const auto& k : x.guard.counted) {
      auto it = per_addr.find(k);
      if (it != per_addr.end() && --it->second == 0) per_addr.erase(it);
    }
    x.guard.counted.clear();
  }
  void complete(CURL* h, CURLcode rc) {
    auto it = running.find(h);
    if (it == running.end()) return;
    Job j = std::move(it->second);
    running.erase(it);
    curl_multi_remove_handle(multi.get(), h);
    release(*j.x);
    bool busy = j.x->guard.busy && rc != CURLE_OK;
    auto r = finish_exchange(*j.x, rc);
    j.x.reset();
    active.fetch_sub(1);
    try {
      j.done(std::move(r), busy);
    } catch (...) {
    }
  }
  void loop() {
    for (;;) {
      std::vector<Job> take;
      bool stopping;
      {
        std::lock_guard<std::mutex> lock(mu);
        take.swap(queued);
        stopping = stop;
      }
      for (auto& j : take) {
        CURL* h = j.x->c.get();
        j.x->guard.per_addr = &per_addr;
        j.x->guard.max_per_addr = opt.max_per_address;
        if (!j.x->target_key.empty()) {  // through a proxy: the checked target counts
          std::size_t& n = per_addr[j.x->target_key];
          if (n >= opt.max_per_address) {
            if (n == 0) per_addr.erase(j.x->target_key);
            active.fetch_sub(1);
            try {
              j.done(Error{Errc::io, j.x->u + ": too many fetches to one address in progress"}, true);
            } catch (...) {
            }
            continue;
          }
          ++n;
          j.x->guard.counted.push_back(j.x->target_key);
        }
        running.emplace(h, std::move(j));
        curl_multi_add_handle(multi.get(), h);
      }
      if (stopping) {
        while (!running.empty()) complete(running.begin()->first, CURLE_ABORTED_BY_CALLBACK);
        return;
      }
      int still = 0;
      curl_multi_perform(multi.get(), &still);
      int left = 0;
      while (CURLMsg* msg = curl_multi_info_read(multi.get(), &left))
        if (msg->msg == CURLMSG_DONE) complete(msg->easy_handle, msg->data.result);
      int fds = 0;
      curl_multi_poll(multi.get(), nullptr, 0, 1000, &fds);
    }
  }
};

AsyncFetcher::AsyncFetcher(Options opt) : impl_(std::make_unique<Impl>()) {
  curl_init_once();
  impl_->opt = opt;
  if (impl_->opt.max_per_address == 0) impl_->opt.max_per_address = 1;
  impl_->multi.reset(curl_multi_init());
  if (impl_->multi) {
    curl_multi_setopt(impl_->multi.get(), CURLMOPT_MAXCONNECTS, 0L);
    impl_->thread = std::thread([p = impl_.get()] { p->loop(); });
  }
}

AsyncFetcher::~AsyncFetcher() {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->stop = true;
  }
  if (impl_->multi) curl_multi_wakeup(impl_->multi.get());
  if (impl_->thread.joinable()) impl_->thread.join();
  for (auto& j : impl_->queued) {  // never started (no thread): still answered, once
    try {
      j.done(Error{Errc::io, "fetcher stopped"}, false);
    } catch (...) {
    }
  }
}

std::size_t AsyncFetcher::active() const { return impl_->active.load(); }

void AsyncFetcher::start(std::string_view url, const std::vector<httpsig::FieldLine>& headers, const HttpLimits& limits, Done done) {
  auto x = prepare_exchange("GET", url, headers, {}, limits);
  if (!x) {
    done(x.error(), false);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (impl_->stop || !impl_->multi) {
      done(Error{Errc::io, "fetcher stopped"}, false);
      return;
    }
    impl_->active.fetch_add(1);
    impl_->queued.push_back(Impl::Job{std::move(x.value()), std::move(done)});
  }
  curl_multi_wakeup(impl_->multi.get());
}

}  // namespace pqsig::client
