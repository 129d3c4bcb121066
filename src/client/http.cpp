// pqsig_client: one bounded HTTP exchange over libcurl (timeouts, body and header caps, TLS
// verification on, https only unless allowed) and URL parsing / resolution via libcurl's URL API.
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <mutex>

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

std::string lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

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

// Loopback, RFC 1918, CGNAT, link-local, unspecified, multicast/reserved; IPv6 loopback, ULA,
// link-local, v4-mapped forms of the above.
bool is_private(const sockaddr* sa) {
  auto v4_private = [](std::uint32_t a) {
    std::uint8_t b0 = a >> 24, b1 = (a >> 16) & 0xff;
    return b0 == 0 || b0 == 10 || b0 == 127 || (b0 == 100 && (b1 & 0xc0) == 64) || (b0 == 169 && b1 == 254) ||
           (b0 == 172 && (b1 & 0xf0) == 16) || (b0 == 192 && b1 == 168) || b0 >= 224;
  };
  if (sa->sa_family == AF_INET) {
    auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    return v4_private(ntohl(in->sin_addr.s_addr));
  }
  if (sa->sa_family == AF_INET6) {
    auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    const std::uint8_t* b = in6->sin6_addr.s6_addr;
    static const std::uint8_t v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(b, v4mapped, 12) == 0)
      return v4_private((std::uint32_t(b[12]) << 24) | (std::uint32_t(b[13]) << 16) | (std::uint32_t(b[14]) << 8) | b[15]);
    bool zero15 = true;
    for (int i = 0; i < 15; ++i) zero15 = zero15 && b[i] == 0;
    if (zero15 && (b[15] == 0 || b[15] == 1)) return true;  // :: and ::1
    if ((b[0] & 0xfe) == 0xfc) return true;                 // fc00::/7
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return true; // fe80::/10
    if (b[0] == 0xff) return true;                          // multicast
    return false;
  }
  return true;  // other families: refuse
}

struct SocketGuard {
  bool allow_private;
  bool refused = false;
};

curl_socket_t open_socket(void* ud, curlsocktype, curl_sockaddr* addr) {
  auto* g = static_cast<SocketGuard*>(ud);
  if (!g->allow_private && is_private(&addr->addr)) {
    g->refused = true;
    return CURL_SOCKET_BAD;
  }
  return socket(addr->family, addr->socktype, addr->protocol);
}

}  // namespace

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  std::string want = lower(name);
  std::optional<std::string> out;
  for (const auto& h : headers)
    if (lower(h.name) == want) out = out ? *out + ", " + h.value : h.value;
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
  out.scheme = lower(get_part(u.get(), CURLUPART_SCHEME));
  out.host = lower(get_part(u.get(), CURLUPART_HOST));
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

Result<HttpResponse> http_exchange(std::string_view method, std::string_view url,
                                   const std::vector<httpsig::FieldLine>& headers, std::string_view body,
                                   const HttpLimits& limits) {
  curl_init_once();
  auto pu = parse_url(url);
  if (!pu) return pu.error();
  if (pu->scheme == "http" && !limits.allow_http)
    return Error{Errc::policy, "plain http:// refused (https only; tests may allow http explicitly)"};
  std::unique_ptr<CURL, CurlDeleter> c(curl_easy_init());
  if (!c) return Error{Errc::internal, "curl_easy_init failed"};
  HttpResponse resp;
  Sink sink{&resp, limits.max_body, limits.max_header_bytes};
  std::string u(url), m(method);
  Slist list;
  for (const auto& h : headers) {
    if (h.name.find_first_of("\r\n:") != std::string::npos || h.value.find_first_of("\r\n") != std::string::npos)
      return Error{Errc::invalid_argument, "header with CR/LF or colon in its name: " + h.name};
    std::string line = h.name + (h.value.empty() ? ";" : ": " + h.value);
    if (!list.append(line)) return Error{Errc::internal, "curl_slist_append failed"};
  }
  // What was signed is what is sent: no implicit Accept / User-Agent / Expect.
  for (const char* drop : {"Accept:", "Expect:", "User-Agent:"}) {
    bool given = false;
    for (const auto& h : headers)
      if (lower(h.name) + ":" == lower(drop)) given = true;
    if (!given) {
      if (!list.append(drop)) return Error{Errc::internal, "curl_slist_append failed"};
    }
  }
  CURL* h = c.get();
  curl_easy_setopt(h, CURLOPT_URL, u.c_str());
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
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &sink);
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, nullptr);
  if (list.head) curl_easy_setopt(h, CURLOPT_HTTPHEADER, list.head);
  if (m == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (m != "GET" || !body.empty()) {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, m.c_str());
    if (!body.empty() || m == "POST" || m == "PUT" || m == "PATCH") {
      curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.data());
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    }
  }
  SocketGuard guard{limits.allow_private_addresses};
  curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, open_socket);
  curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, &guard);
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
  CURLcode rc = curl_easy_perform(h);
  if (sink.body_overflow || rc == CURLE_FILESIZE_EXCEEDED)
    return Error{Errc::policy, "response body larger than " + std::to_string(limits.max_body) + " bytes"};
  if (sink.header_overflow)
    return Error{Errc::policy, "response headers larger than " + std::to_string(limits.max_header_bytes) + " bytes"};
  if (guard.refused && rc != CURLE_OK)
    return Error{Errc::policy, u + ": refusing to connect to a loopback / private address"};
  if (rc != CURLE_OK) {
    std::string why = errbuf[0] ? errbuf : curl_easy_strerror(rc);
    Errc code = rc == CURLE_OPERATION_TIMEDOUT ? Errc::io : Errc::io;
    return Error{code, u + ": " + why};
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &resp.status);
  resp.url = u;
  return resp;
}

}  // namespace pqsig::client
