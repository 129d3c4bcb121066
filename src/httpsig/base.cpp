// RFC 9421 §2: component values (fields §2.1, derived components §2.2), the signature base
// (§2.5), algorithm names (§3.3, §6.2) and Content-Digest (RFC 9530 §2).
#include <algorithm>

#include "pqsig/hash.hpp"
#include "pqsig/httpsig.hpp"

namespace pqsig::httpsig {
namespace {

template <class T>
Result<T> fail(BaseError* err, Reason r, std::string detail) {
  if (err) *err = BaseError{r, detail};
  Errc code = r == Reason::missing_component || r == Reason::missing_request ? Errc::invalid_argument
                                                                             : Errc::invalid_encoding;
  return Error{code, std::string(reason_name(r)) + ": " + detail};
}

// Structured field types of registered fields (RFC 9651 users), for ;sf (RFC 9421 §2.1.1).
std::optional<sf::FieldType> known_sf_type(std::string_view name) {
  using F = sf::FieldType;
  static const std::pair<std::string_view, F> table[] = {
      {"signature-input", F::dictionary}, {"signature", F::dictionary},    {"accept-signature", F::dictionary},
      {"content-digest", F::dictionary},  {"repr-digest", F::dictionary},  {"want-content-digest", F::dictionary},
      {"want-repr-digest", F::dictionary}, {"signature-agent", F::dictionary}, {"priority", F::dictionary},
      {"cdn-cache-control", F::dictionary}, {"example-dict", F::dictionary}, {"cache-status", F::list},
      {"proxy-status", F::list},          {"accept-ch", F::list},          {"client-cert", F::item},
      {"client-cert-chain", F::list},     {"example-list", F::list},       {"example-item", F::item},
  };
  for (const auto& [n, t] : table)
    if (n == name) return t;
  return std::nullopt;
}

struct UriParts {
  std::string scheme, authority, path, query;  // query without '?', has_query tells presence
  bool has_query = false;
};

std::string normalize_authority(std::string_view a, std::string_view scheme) {
  std::string h = ascii_lower(a);
  auto colon = h.rfind(':');
  if (colon != std::string::npos && h.find(']', colon) == std::string::npos) {
    auto port = h.substr(colon + 1);
    if ((scheme == "https" && port == "443") || (scheme == "http" && port == "80") || port.empty())
      h.erase(colon);
  }
  return h;
}

Result<UriParts> target_parts(const Message& m, BaseError* err) {
  UriParts u;
  std::string_view t = m.target;
  std::string_view pathq;
  if (t.empty()) return fail<UriParts>(err, Reason::missing_component, "empty request target");
  auto sep = t.find("://");
  if (t.front() != '/' && sep != std::string_view::npos) {  // absolute-form
    u.scheme = ascii_lower(t.substr(0, sep));
    auto rest = t.substr(sep + 3);
    auto slash = rest.find_first_of("/?");
    auto auth = rest.substr(0, slash);
    u.authority = normalize_authority(auth, u.scheme);
    pathq = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  } else {
    u.scheme = ascii_lower(m.scheme);
    auto host = m.get("host");
    if (t == "*") {
      u.path.assign(1, '*');
    } else if (t.front() != '/') {  // authority-form (CONNECT)
      u.authority = normalize_authority(t, u.scheme);
      return u;
    }
    if (!host) return fail<UriParts>(err, Reason::missing_component, "no Host field to derive @authority");
    u.authority = normalize_authority(*host, u.scheme);
    if (t == "*") return u;
    pathq = t;
  }
  auto q = pathq.find('?');
  u.path = std::string(pathq.substr(0, q));
  if (u.path.empty()) u.path.assign(1, '/');
  if (q != std::string_view::npos) {
    u.has_query = true;
    u.query = std::string(pathq.substr(q + 1));
  }
  auto frag = u.query.find('#');
  if (frag != std::string::npos) u.query.erase(frag);
  return u;
}

int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// WHATWG application/x-www-form-urlencoded parsing of one name or value: '+' → SP, %XX decoded.
std::string form_decode(std::string_view s) {
  std::string out;
  for (std::size_t k = 0; k < s.size(); ++k) {
    char c = s[k];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%' && k + 2 < s.size() && hexv(s[k + 1]) >= 0 && hexv(s[k + 2]) >= 0) {
      out.push_back(static_cast<char>(hexv(s[k + 1]) * 16 + hexv(s[k + 2])));
      k += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// RFC 9421 §2.2.8: re-encode with the application/x-www-form-urlencoded percent-encode set,
// spaces as %20.
std::string form_encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '*' || c == '-' ||
                c == '.' || c == '_';
    if (keep) {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(hex[u >> 4]);
      out.push_back(hex[u & 15]);
    }
  }
  return out;
}

bool param_is_true(const sf::Parameters& p, std::string_view k) {
  auto* b = sf::find_param(p, k);
  return b && b->is_true();
}

}  // namespace

std::string_view reason_name(Reason r) noexcept {
  switch (r) {
    case Reason::ok: return "ok";
    case Reason::unsupported_alg: return "unsupported_alg";
    case Reason::not_selected: return "not_selected";
    case Reason::malformed_signature_input: return "malformed_signature_input";
    case Reason::malformed_signature: return "malformed_signature";
    case Reason::missing_signature: return "missing_signature";
    case Reason::duplicate_component: return "duplicate_component";
    case Reason::invalid_component: return "invalid_component";
    case Reason::missing_component: return "missing_component";
    case Reason::missing_request: return "missing_request";
    case Reason::missing_keyid: return "missing_keyid";
    case Reason::unknown_keyid: return "unknown_keyid";
    case Reason::alg_mismatch: return "alg_mismatch";
    case Reason::signature_mismatch: return "signature_mismatch";
    case Reason::missing_created: return "missing_created";
    case Reason::created_in_future: return "created_in_future";
    case Reason::expired: return "expired";
    case Reason::too_old: return "too_old";
    case Reason::invalid_window: return "invalid_window";
    case Reason::missing_nonce: return "missing_nonce";
    case Reason::nonce_replayed: return "nonce_replayed";
    case Reason::nonce_store_unavailable: return "nonce_store_unavailable";
    case Reason::wrong_tag: return "wrong_tag";
    case Reason::required_component_not_covered: return "required_component_not_covered";
    case Reason::alg_not_allowed: return "alg_not_allowed";
    case Reason::content_digest_mismatch: return "content_digest_mismatch";
    case Reason::signature_agent_not_covered: return "signature_agent_not_covered";
    case Reason::missing_signature_agent: return "missing_signature_agent";
    case Reason::profile_violation: return "profile_violation";
    case Reason::too_many_labels: return "too_many_labels";
  }
  return "unknown";
}

// RFC 9421 §6.2.2 registry entries + pqsig's unregistered ML-DSA names
// (draft-skokan-httpbis-message-signatures-ml-dsa: pure ML-DSA, empty context).
const SuiteInfo* suite_for_alg(std::string_view alg) noexcept {
  if (alg.empty()) return nullptr;
  for (const auto& s : all_suites())
    if (s.http_alg == alg) return &s;
  return nullptr;
}

// Family-level algs: the name gives the family, each key its parameter set (suite_for_public_key).
namespace {
struct HttpFamilyAlg {
  std::string_view alg;
  Family family;
};
constexpr HttpFamilyAlg kHttpFamilyAlgs[] = {{kHssLmsAlg, Family::lms}, {kXmssAlg, Family::xmss}};
}  // namespace

std::optional<Family> family_for_alg(std::string_view alg) noexcept {
  for (const auto& f : kHttpFamilyAlgs)
    if (f.alg == alg) return f.family;
  return std::nullopt;
}

std::string alg_name(const SuiteInfo& s) {
  for (const auto& f : kHttpFamilyAlgs)
    if (f.family == s.family) return std::string(f.alg);
  return std::string(s.http_alg.empty() ? s.id : s.http_alg);
}

bool alg_registered(std::string_view alg) noexcept {
  static const std::string_view reg[] = {"rsa-pss-sha512", "rsa-v1_5-sha256", "hmac-sha256",
                                         "ecdsa-p256-sha256", "ecdsa-p384-sha384", "ed25519"};
  return std::find(std::begin(reg), std::end(reg), alg) != std::end(reg);
}

Component component(std::string_view name) { return sf::Item{sf::BareItem::string(std::string(name)), {}}; }

Result<Component> parse_component(std::string_view text) {
  std::string t(text);
  if (!t.empty() && t.front() != '"') {
    auto semi = t.find(';');
    std::string q;
    q.push_back('"');
    q.append(t, 0, semi);
    q.push_back('"');
    if (semi != std::string::npos) q.append(t, semi, std::string::npos);
    t = std::move(q);
  }
  auto it = sf::parse_item(t);
  if (!it) return it.error();
  if (it->bare.type != sf::Type::string) return Error{Errc::invalid_argument, "component identifier must be a string"};
  return it.value();
}

namespace {
std::optional<std::int64_t> int_param(const sf::Parameters& p, std::string_view k) {
  auto* b = sf::find_param(p, k);
  if (!b || b->type != sf::Type::integer) return std::nullopt;
  return b->i;
}
std::optional<std::string> str_param(const sf::Parameters& p, std::string_view k) {
  auto* b = sf::find_param(p, k);
  if (!b || b->type != sf::Type::string) return std::nullopt;
  return b->s;
}
}  // namespace

const std::string* SignatureParams::string_param(std::string_view key) const {
  auto* b = sf::find_param(list.params, key);
  return b && b->type == sf::Type::string ? &b->s : nullptr;
}
std::optional<std::int64_t> SignatureParams::created() const { return int_param(list.params, "created"); }
std::optional<std::int64_t> SignatureParams::expires() const { return int_param(list.params, "expires"); }
std::optional<std::string> SignatureParams::nonce() const { return str_param(list.params, "nonce"); }
std::optional<std::string> SignatureParams::alg() const { return str_param(list.params, "alg"); }
std::optional<std::string> SignatureParams::keyid() const { return str_param(list.params, "keyid"); }
std::optional<std::string> SignatureParams::tag() const { return str_param(list.params, "tag"); }

Result<std::string> component_value(const Message& msg, const Component& c, const Message* request, BaseError* err) {
  using R = Result<std::string>;
  if (c.bare.type != sf::Type::string) return fail<std::string>(err, Reason::invalid_component, "component identifier is not a string");
  const std::string& name = c.bare.s;
  if (name.empty()) return fail<std::string>(err, Reason::invalid_component, "empty component name");
  const bool derived = name.front() == '@';
  // Parameters: only the ones RFC 9421 §2.1 / §2.2 define, with their value types.
  for (const auto& [k, v] : c.params) {
    bool ok;
    if (k == "req") ok = v.is_true();
    else if (k == "name") ok = derived && name == "@query-param" && v.type == sf::Type::string;
    else if (k == "sf" || k == "bs" || k == "tr") ok = !derived && v.is_true();
    else if (k == "key") ok = !derived && v.type == sf::Type::string;
    else ok = false;
    if (!ok) return fail<std::string>(err, Reason::invalid_component, "parameter ;" + k + " not allowed on \"" + name + "\"");
  }
  const bool req = param_is_true(c.params, "req");
  if (req && msg.is_request) return fail<std::string>(err, Reason::invalid_component, ";req on a request message");
  if (req && !request) return fail<std::string>(err, Reason::missing_request, "\"" + name + "\";req needs the request message");
  const Message& m = req ? *request : msg;

  if (derived) {
    if (name == "@signature-params") return fail<std::string>(err, Reason::invalid_component, "@signature-params cannot be covered");
    if (name == "@status") {
      if (m.is_request) return fail<std::string>(err, Reason::invalid_component, "@status on a request");
      char b[4];
      std::snprintf(b, sizeof b, "%03d", m.status);
      return R(std::string(b));
    }
    if (!m.is_request) return fail<std::string>(err, Reason::invalid_component, name + " needs a request (use ;req on responses)");
    if (name == "@method") return R(m.method);
    if (name == "@request-target") return R(m.target);
    auto u = target_parts(m, err);
    if (!u) return u.error();
    if (name == "@authority") return R(u->authority);
    if (name == "@scheme") return R(u->scheme);
    if (name == "@path") return R(u->path);
    if (name == "@query") return R("?" + u->query);
    if (name == "@target-uri") return R(u->scheme + "://" + u->authority + u->path + (u->has_query ? "?" + u->query : ""));
    if (name == "@query-param") {
      auto* nm = sf::find_param(c.params, "name");
      if (!nm) return fail<std::string>(err, Reason::invalid_component, "@query-param without ;name");
      std::vector<std::string> found;
      std::string_view q = u->query;
      while (!q.empty()) {
        auto amp = q.find('&');
        auto pair = q.substr(0, amp);
        q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
        if (pair.empty()) continue;
        auto eq = pair.find('=');
        auto pn = form_encode(form_decode(pair.substr(0, eq)));
        auto pv = eq == std::string_view::npos ? std::string() : form_encode(form_decode(pair.substr(eq + 1)));
        if (pn == nm->s) found.push_back(pv);
      }
      if (found.empty()) return fail<std::string>(err, Reason::missing_component, "query parameter '" + nm->s + "' absent");
      if (found.size() > 1)
        return fail<std::string>(err, Reason::invalid_component, "query parameter '" + nm->s + "' occurs more than once");
      return R(found.front());
    }
    return fail<std::string>(err, Reason::invalid_component, "unknown derived component " + name);
  }

  if (std::any_of(name.begin(), name.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; })) return fail<std::string>(err, Reason::invalid_component, "field names must be lowercase: " + name);
  const bool tr = param_is_true(c.params, "tr");
  const bool sfp = param_is_true(c.params, "sf");
  const bool bs = param_is_true(c.params, "bs");
  auto* key = sf::find_param(c.params, "key");
  if (bs && (sfp || key)) return fail<std::string>(err, Reason::invalid_component, ";bs cannot be combined with ;sf or ;key");
  if (bs) {  // §2.1.3
    auto lines = m.lines(name, tr);
    if (lines.empty()) return fail<std::string>(err, Reason::missing_component, "field " + name + " absent");
    std::string out;
    for (std::size_t k = 0; k < lines.size(); ++k) {
      if (k) out += ", ";
      out.push_back(':');
      out += base64_encode(as_bytes(lines[k]));
      out.push_back(':');
    }
    return out;
  }
  std::string buf;  // the lines combined, when there are several
  auto value = m.value(name, buf, tr);
  if (!value) return fail<std::string>(err, Reason::missing_component, "field " + name + " absent");
  const std::string_view combined = *value;
  if (key) {  // §2.1.2
    auto d = sf::parse_dictionary(combined);
    if (!d) return fail<std::string>(err, Reason::invalid_component, "field " + name + " is not a dictionary: " + d.error().message);
    auto* mem = sf::find_member(d.value(), key->s);
    if (!mem) return fail<std::string>(err, Reason::missing_component, "dictionary " + name + " has no member '" + key->s + "'");
    auto s = sf::serialize_member(*mem);
    if (!s) return fail<std::string>(err, Reason::invalid_component, s.error().message);
    return s;
  }
  if (sfp) {  // §2.1.1
    auto t = known_sf_type(name);
    if (!t) return fail<std::string>(err, Reason::invalid_component, "structured type of field " + name + " is not known");
    auto f = sf::parse_field(*t, combined);
    if (!f) return fail<std::string>(err, Reason::invalid_component, "field " + name + ": " + f.error().message);
    auto s = sf::serialize_field(f.value());
    if (!s) return fail<std::string>(err, Reason::invalid_component, s.error().message);
    return s;
  }
  return std::string(combined);
}

Result<std::string> signature_base(const Message& msg, const SignatureParams& params, const Message* request,
                                   BaseError* err) {
  // One string, appended in place: each component's identifier (its canonical serialization) and
  // value, then the parameters. Two components are the same identifier exactly when they are
  // equal items (the serialization is canonical), so duplicates are found without serializing twice.
  std::string base;
  base.reserve(512);  // a Web Bot Auth base is 300-450 bytes: built without regrowing
  const auto& comps = params.components();
  for (std::size_t k = 0; k < comps.size(); ++k) {
    const auto& c = comps[k];
    if (c.bare.type != sf::Type::string) return fail<std::string>(err, Reason::invalid_component, "component identifier is not a string");
    const std::size_t id_at = base.size();
    if (auto st = sf::serialize_item_to(base, c); !st) return fail<std::string>(err, Reason::invalid_component, st.error().message);
    if (std::find(comps.begin(), comps.begin() + static_cast<std::ptrdiff_t>(k), c) != comps.begin() + static_cast<std::ptrdiff_t>(k))
      return fail<std::string>(err, Reason::duplicate_component, base.substr(id_at) + " is covered twice");
    auto v = component_value(msg, c, request, err);
    if (!v) return v.error();
    if (v->find('\n') != std::string::npos) return fail<std::string>(err, Reason::invalid_component, "newline in component value");
    base += ": ";
    base += v.value();
    base += '\n';
  }
  base += "\"@signature-params\": ";
  if (auto st = sf::serialize_inner_list_to(base, params.list); !st)
    return fail<std::string>(err, Reason::malformed_signature_input, st.error().message);
  return base;
}

// RFC 9530 §2
std::string content_digest(std::string_view body, DigestAlg alg) {
  if (alg == DigestAlg::sha512) {
    auto d = hash::sha512(as_bytes(body));
    return "sha-512=:" + base64_encode(d) + ":";
  }
  auto d = hash::sha256(as_bytes(body));
  return "sha-256=:" + base64_encode(d) + ":";
}

Status verify_content_digest(std::string_view field_value, std::string_view body) {
  auto d = sf::parse_dictionary(field_value);
  if (!d) return Error{Errc::invalid_encoding, "Content-Digest: " + d.error().message};
  int checked = 0;
  for (const auto& [k, m] : d.value()) {
    if (k != "sha-256" && k != "sha-512") continue;  // unknown algorithms are ignored (RFC 9530 §2)
    if (m.is_inner_list || m.item.bare.type != sf::Type::byte_sequence)
      return Error{Errc::invalid_encoding, "Content-Digest: " + k + " is not a byte sequence"};
    bytes want;
    if (k == "sha-256") {
      auto h = hash::sha256(as_bytes(body));
      want.assign(h.begin(), h.end());
    } else {
      auto h = hash::sha512(as_bytes(body));
      want.assign(h.begin(), h.end());
    }
    if (want != m.item.bare.b) return Error{Errc::verify_failed, "Content-Digest " + k + " does not match the body"};
    ++checked;
  }
  if (!checked) return Error{Errc::unsupported, "Content-Digest has no sha-256 or sha-512 member"};
  return {};
}

}  // namespace pqsig::httpsig
