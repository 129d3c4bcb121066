// `pqsig fetch URL --key sig1=ed.jwk --key sig2=ml.jwk --agent URL`: the crawler's signing client
// (every request and every redirect hop signed; challenge mode answers Accept-Signature once).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "keyfile.hpp"
#include "pqsig/client.hpp"
#include "pqsig/sf.hpp"

namespace pqsig::cli {
namespace {

struct FetchCmd {
  std::string url, method, data, agent, ca_file, proxy;
  std::vector<std::string> keys, headers, allowed_private;
  bool challenge = false, include = false, allow_http = false, verbose = false, allow_private = false;
  int max_redirects = 5;
  long timeout_ms = 10000;
  std::int64_t expires = 300;
  std::size_t cap = webbotauth::kDefaultHeaderCap;
};

void run_fetch(const FetchCmd& c) {
  client::ClientOptions o;
  for (std::size_t i = 0; i < c.keys.size(); ++i) {
    std::string label = "sig" + std::to_string(i + 1), path = c.keys[i];
    auto eq = path.find('=');
    if (eq != std::string::npos && eq > 0 && sf::is_valid_key(path.substr(0, eq))) {
      label = path.substr(0, eq);
      path = path.substr(eq + 1);
    }
    o.keys.emplace_back(label, read_text(path));
  }
  if (o.keys.empty()) throw Exit{kExitUsage, "at least one --key is required"};
  o.agent = c.agent;
  o.challenge_mode = c.challenge;
  o.max_redirects = c.max_redirects;
  o.expires_in = c.expires;
  o.header_cap = c.cap;
  o.http.total_timeout_ms = c.timeout_ms;
  o.http.connect_timeout_ms = std::min<long>(c.timeout_ms, 5000);
  o.http.max_body = 64 << 20;
  o.http.ca_file = c.ca_file;
  o.http.allow_http = c.allow_http;
  o.http.allow_private_addresses = c.allow_private;  // off by default: every hop, redirects included
  o.http.allowed_private = c.allowed_private;
  o.http.proxy = c.proxy;  // none unless given: https_proxy in the environment is not used
  o.log = [](std::string_view m) { std::cerr << "pqsig fetch: " << m << "\n"; };
  std::vector<httpsig::FieldLine> hdrs;
  for (const auto& h : c.headers) {
    auto colon = h.find(':');
    if (colon == std::string::npos || colon == 0) throw Exit{kExitUsage, "-H wants 'Name: value'"};
    std::string v = h.substr(colon + 1);
    while (!v.empty() && v.front() == ' ') v.erase(0, 1);
    hdrs.push_back({h.substr(0, colon), v});
  }
  std::string method = c.method.empty() ? (c.data.empty() ? "GET" : "POST") : c.method;
  client::Client cl(std::move(o));
  auto r = cl.fetch(method, c.url, hdrs, c.data);
  if (!r) throw Exit{r.error().code == Errc::policy ? kExitInvalid : kExitUsage, r.error().message};
  for (const auto& w : r->warnings) std::cerr << "pqsig fetch: warning: " << w << "\n";
  if (c.verbose) {
    std::cerr << "pqsig fetch: " << r->hops << " request(s); signed:";
    for (const auto& l : r->signed_labels) std::cerr << " " << l;
    std::cerr << (r->challenged ? " (after a challenge)" : "") << "\n";
  }
  if (c.include) {
    std::cout << "HTTP/1.1 " << r->response.status << "\r\n";
    for (const auto& h : r->response.headers) std::cout << h.name << ": " << h.value << "\r\n";
    std::cout << "\r\n";
  }
  std::cout << r->response.body;
  std::cout.flush();
  if (r->response.status >= 400) throw Exit{kExitInvalid, "HTTP " + std::to_string(r->response.status)};
}

}  // namespace

void register_fetch(CLI::App& app) {
  auto c = std::make_shared<FetchCmd>();
  auto* f = app.add_subcommand("fetch", "fetch a URL with Web Bot Auth signatures (sig1 Ed25519 + sig2 ML-DSA-44)");
  f->add_option("url", c->url, "https URL")->required();
  f->add_option("--key", c->keys, "LABEL=private JWK file (first mandatory; later labels degrade)")->required();
  f->add_option("--agent", c->agent, "Signature-Agent URL (where verifiers find the key directory)");
  f->add_option("-X,--request", c->method, "method (default GET, POST with -d)");
  f->add_option("-H,--header", c->headers, "extra header 'Name: value'");
  f->add_option("-d,--data", c->data, "request body");
  f->add_flag("--challenge", c->challenge, "send unsigned; sign only after 401/403/429 with Accept-Signature (once)");
  f->add_option("--max-redirects", c->max_redirects, "redirects followed, each re-signed (default 5)");
  f->add_option("--timeout-ms", c->timeout_ms, "per-request timeout (default 10000)");
  f->add_option("--expires", c->expires, "signature validity seconds (default 300)");
  f->add_option("--header-cap", c->cap, "refuse to send above this header size (default 8192)");
  f->add_option("--ca-file", c->ca_file, "CA bundle trusted instead of the system store");
  f->add_flag("--insecure-allow-http", c->allow_http, "TESTS ONLY: allow http:// URLs");
  f->add_flag("--allow-private-addresses", c->allow_private,
              "connect to loopback / private / non-global addresses (default: refused, for the URL and every redirect)");
  f->add_option("--allow-private-address", c->allowed_private,
                "one numeric private address allowed (repeatable), e.g. 10.0.0.5; the guard stays on for the rest");
  f->add_option("--proxy", c->proxy,
                "HTTP(S) proxy URL (default: none; https_proxy / http_proxy in the environment are ignored); the "
                "private-address guard checks the target itself");
  f->add_flag("-i,--include", c->include, "print the response status and headers");
  f->add_flag("-v,--verbose", c->verbose, "report hops and signed labels on stderr");
  f->callback([c] { run_fetch(*c); });
}

}  // namespace pqsig::cli
