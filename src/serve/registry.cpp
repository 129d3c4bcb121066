// pqsig_serve: the registry text format of draft-meunier-webbotauth-registry (§4 Discovery,
// §4.2 Formal Syntax): one https URL (a Signature Agent Card's client_id or a key directory) or
// one data: URL (RFC 2397) inlining a card per line; empty lines and '#' comments. Parsed strictly
// under explicit limits; data: cards are decoded and validated here.
#include <algorithm>
#include <cctype>
#include <set>

#include "pqsig/serve.hpp"

namespace pqsig::serve {
namespace {

Error at(std::size_t line, Errc code, const std::string& what) {
  return Error{code, "registry line " + std::to_string(line) + ": " + what};
}

bool is_ws(char c) { return c == ' ' || c == '\t'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// §4.2 UTF8-char-noctl (RFC 3629 well-formed UTF-8, no control characters): the comment text.
bool valid_comment(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t') || c == 0x7f) return false;
      ++i;
      continue;
    }
    std::size_t n = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 0;
    if (n == 0 || i + n >= s.size()) return false;
    auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (c == 0xE0 && b1 < 0xA0) return false;   // overlong
    if (c == 0xED && b1 > 0x9F) return false;   // surrogates
    if (c == 0xF0 && b1 < 0x90) return false;   // overlong
    if (c == 0xF4 && b1 > 0x8F) return false;   // above U+10FFFF
    for (std::size_t k = 1; k <= n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n + 1;
  }
  return true;
}

// RFC 2397 §3: data:[<mediatype>][;base64],<data>. The card must be application/json.
Result<std::string> decode_data_url(std::string_view url, std::size_t line) {
  std::string_view rest = url.substr(5);  // after "data:"
  auto comma = rest.find(',');
  if (comma == std::string_view::npos) return at(line, Errc::invalid_encoding, "data: URL without ','");
  std::string_view meta = rest.substr(0, comma), data = rest.substr(comma + 1);
  bool b64 = false;
  std::string type;
  std::size_t pos = 0;
  bool first = true;
  while (pos <= meta.size()) {
    auto semi = meta.find(';', pos);
    std::string_view part = meta.substr(pos, semi == std::string_view::npos ? std::string_view::npos : semi - pos);
    if (first) {
      type = ascii_lower(part);
      first = false;
    } else if (ascii_lower(part) == "base64" && semi == std::string_view::npos) {
      b64 = true;
    } else if (!part.empty() && part.find('=') == std::string_view::npos) {
      return at(line, Errc::invalid_encoding, "data: URL parameter without '='");
    }
    if (semi == std::string_view::npos) break;
    pos = semi + 1;
  }
  if (type != "application/json")
    return at(line, Errc::unsupported, "data: card media type must be application/json (got '" +
                                         (type.empty() ? std::string("text/plain") : type) + "')");
  // Percent-decoding applies to both forms (RFC 2397 §2: the data is URL-encoded).
  std::string raw;
  raw.reserve(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (data[i] != '%') {
      raw.push_back(data[i]);
      continue;
    }
    int hi = i + 2 < data.size() ? hex_value(data[i + 1]) : -1;
    int lo = i + 2 < data.size() ? hex_value(data[i + 2]) : -1;
    if (hi < 0 || lo < 0) return at(line, Errc::invalid_encoding, "data: URL with a bad %-escape");
    raw.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  if (!b64) return raw;
  auto d = base64_decode(raw);
  if (!d) return at(line, Errc::invalid_encoding, "data: URL base64: " + d.error().message);
  return std::string(d->begin(), d->end());
}

}  // namespace

std::string agent_fetch_url(const AgentRef& agent) {
  if (agent.type != AgentType::directory) return agent.url;
  auto u = client::parse_url(agent.url);
  if (!u) return agent.url;
  if (u->path_query == "/" || u->path_query.empty()) return u->origin() + std::string(webbotauth::kDirectoryPath);
  return agent.url;
}

// draft-meunier-webbotauth-registry §4.2: registry = *(cardendpointline / emptyline).
Result<std::vector<RegistryEntry>> parse_registry(std::string_view text, const RegistryLimits& lim) {
  if (text.size() > lim.max_bytes)
    return Error{Errc::invalid_length, "registry larger than " + std::to_string(lim.max_bytes) + " bytes"};
  std::vector<RegistryEntry> out;
  std::set<std::string> seen;
  std::size_t pos = 0, lineno = 0;
  while (pos < text.size()) {
    // NL = CR / LF / CRLF
    std::size_t end = pos;
    while (end < text.size() && text[end] != '\r' && text[end] != '\n') ++end;
    std::string_view line = text.substr(pos, end - pos);
    pos = end;
    if (pos < text.size() && text[pos] == '\r') {
      ++pos;
      if (pos < text.size() && text[pos] == '\n') ++pos;
    } else if (pos < text.size()) {
      ++pos;  // '\n'
    }
    ++lineno;
    if (line.size() > lim.max_line) return at(lineno, Errc::invalid_length, "line longer than " + std::to_string(lim.max_line) + " bytes");

    // EOL = *WS [comment] NL: a comment starts at a '#' at the line start or after whitespace.
    std::size_t cut = line.size();
    for (std::size_t i = 0; i < line.size(); ++i)
      if (line[i] == '#' && (i == 0 || is_ws(line[i - 1]))) {
        cut = i;
        break;
      }
    if (cut < line.size() && !valid_comment(line.substr(cut + 1)))
      return at(lineno, Errc::invalid_encoding, "comment with control characters or invalid UTF-8");
    std::string_view body = line.substr(0, cut);
    while (!body.empty() && is_ws(body.back())) body.remove_suffix(1);
    if (body.empty()) continue;  // emptyline
    if (is_ws(body.front())) return at(lineno, Errc::invalid_encoding, "a URL must start the line");
    for (char c : body) {
      auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7f) return at(lineno, Errc::invalid_encoding, "control character in the URL");
    }
    if (out.size() >= lim.max_entries)
      return at(lineno, Errc::invalid_length, "more than " + std::to_string(lim.max_entries) + " entries");

    RegistryEntry e;
    e.line = lineno;
    std::string scheme = ascii_lower(body.substr(0, std::min<std::size_t>(body.size(), 6)));
    if (scheme.rfind("data:", 0) == 0) {
      if (body.size() > lim.max_data_url)
        return at(lineno, Errc::invalid_length, "data: URL longer than " + std::to_string(lim.max_data_url) + " bytes");
      e.kind = RegistryEntry::Kind::data;
      e.url = std::string(body);
      auto card = decode_data_url(body, lineno);
      if (!card) return card.error();
      auto keys = validate_inline_agent_card(card.value());
      if (!keys) return at(lineno, keys.error().code, keys.error().message);
      e.card = std::move(card.value());
      e.keys = std::move(keys.value());
    } else if (scheme == "https:") {
      if (body.size() > lim.max_url) return at(lineno, Errc::invalid_length, "URL longer than " + std::to_string(lim.max_url) + " bytes");
      // https-URI (RFC 9110 §4.2.2): "https://" authority path-abempty [ "?" query ]; no whitespace, no fragment.
      if (body.size() < 9 || body.substr(6, 2) != "//")
        return at(lineno, Errc::invalid_encoding, "https URL without '//' authority");
      for (char c : body)
        if (is_ws(c) || c == '#') return at(lineno, Errc::invalid_encoding, "whitespace or fragment inside the URL");
      auto u = client::parse_url(body);
      if (!u || u->host.empty()) return at(lineno, Errc::invalid_encoding, "not a valid https URL");
      std::string_view authority = body.substr(8, body.find_first_of("/?", 8) - 8);  // npos - 8: to the end
      if (authority.find('@') != std::string_view::npos) return at(lineno, Errc::invalid_encoding, "https URL with userinfo");
      e.kind = RegistryEntry::Kind::https;
      e.url = std::string(body);
      std::string_view path = u->path_query;
      path = path.substr(0, path.find('?'));
      e.type = path == webbotauth::kDirectoryPath ? AgentType::directory : AgentType::cimd;
    } else {
      auto colon = body.find(':');
      return at(lineno, Errc::unsupported,
                "scheme '" + std::string(body.substr(0, std::min<std::size_t>(colon, 16))) + "' (only https and data)");
    }
    if (!seen.insert(e.url).second) return at(lineno, Errc::policy, "duplicate entry " + e.url.substr(0, 200));
    out.push_back(std::move(e));
  }
  return out;
}

void apply_registry(const std::vector<RegistryEntry>& entries, VerifyOptions& opt, std::vector<std::string>& static_keys) {
  opt.registry_only = true;
  for (const auto& e : entries) {
    if (e.kind == RegistryEntry::Kind::https) {
      opt.registry_agents.push_back(AgentRef{e.url, e.type, true});
    } else if (!e.keys.jwks.empty()) {
      static_keys.push_back(e.keys.jwks);
    } else if (!e.keys.jwks_uri.empty()) {
      opt.registry_agents.push_back(AgentRef{e.keys.jwks_uri, AgentType::jwks_uri, true});
    }
  }
}

}  // namespace pqsig::serve
