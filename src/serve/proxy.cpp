// pqsig_serve: the original request behind an auth request, per proxy: nginx auth_request
// (X-Original-Method / X-Original-URI), Caddy forward_auth (X-Forwarded-Method / X-Forwarded-Uri,
// Host passed unchanged) and Envoy's HTTP ext_authz service (the check request keeps the original
// method; its path is path_prefix + the original path; :authority arrives as Host).
#include <cctype>

#include "pqsig/serve.hpp"

namespace pqsig::serve {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// RFC 9110 §9.1 method = token; RFC 9112 §3.2.1 origin-form = absolute-path [ "?" query ].
bool valid_method(std::string_view m) {
  if (m.empty() || m.size() > 32) return false;
  for (char c : m)
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos)
      return false;
  return true;
}
bool valid_origin_form(std::string_view t) {
  if (t.empty() || t.front() != '/' || t.size() > 8192) return false;
  for (char c : t) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f || c == '#') return false;
  }
  return true;
}

}  // namespace

Result<ProxyMode> parse_proxy_mode(std::string_view name) {
  if (name == "nginx") return ProxyMode::nginx;
  if (name == "caddy") return ProxyMode::caddy;
  if (name == "envoy") return ProxyMode::envoy;
  return Error{Errc::invalid_argument, "proxy must be nginx, caddy or envoy"};
}

Result<httpsig::Message> original_request(const ProxyOptions& proxy, std::string_view method, std::string_view target,
                                          const std::vector<httpsig::FieldLine>& headers, std::string_view scheme) {
  std::string_view method_field, uri_field;
  switch (proxy.mode) {
    case ProxyMode::nginx: method_field = "X-Original-Method"; uri_field = "X-Original-URI"; break;
    case ProxyMode::caddy: method_field = "X-Forwarded-Method"; uri_field = "X-Forwarded-Uri"; break;
    case ProxyMode::envoy: break;
  }
  httpsig::Message m;
  m.is_request = true;
  m.scheme = std::string(scheme);
  const std::string* om = nullptr;
  const std::string* ou = nullptr;
  for (const auto& h : headers) {
    if (!method_field.empty() && iequals(h.name, method_field)) {
      if (om) return Error{Errc::invalid_encoding, std::string(method_field) + " repeated"};
      om = &h.value;
      continue;
    }
    if (!uri_field.empty() && iequals(h.name, uri_field)) {
      if (ou) return Error{Errc::invalid_encoding, std::string(uri_field) + " repeated"};
      ou = &h.value;
      continue;
    }
    m.headers.push_back(h);
  }
  if (proxy.mode == ProxyMode::envoy) {
    m.method = std::string(method);
    std::string_view prefix = proxy.envoy_prefix;  // Envoy sends path_prefix + original path, verbatim
    if (prefix.empty() || target.substr(0, prefix.size()) != prefix)
      return Error{Errc::invalid_encoding, "check request path does not start with the ext_authz path_prefix"};
    std::string_view rest = target.substr(prefix.size());
    m.target = std::string(rest);
  } else {
    if (!om || !ou)
      return Error{Errc::invalid_encoding, "auth request without " + std::string(om ? uri_field : method_field) +
                                               " (is the proxy configured as documented?)"};
    m.method = *om;
    m.target = *ou;
  }
  if (!valid_method(m.method)) return Error{Errc::invalid_encoding, "original method is not an HTTP token"};
  if (!valid_origin_form(m.target)) return Error{Errc::invalid_encoding, "original target is not an origin-form path"};
  return m;
}

}  // namespace pqsig::serve
