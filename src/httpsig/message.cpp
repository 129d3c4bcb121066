// A small HTTP/1.1 message model (RFC 9112 §2-§5): start line, ordered field lines, body.
#include <algorithm>

#include "pqsig/httpsig.hpp"

namespace pqsig::httpsig {
namespace {

bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    char x = a[k], y = b[k];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool is_tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

std::string_view trim_ows(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

Error merr(std::string m) { return Error{Errc::invalid_encoding, "HTTP message: " + std::move(m)}; }

const std::vector<FieldLine>& section(const Message& m, bool trailer) { return trailer ? m.trailers : m.headers; }

}  // namespace

std::vector<std::string> Message::lines(std::string_view name, bool trailer) const {
  std::vector<std::string> out;
  for (const auto& f : section(*this, trailer))
    if (ieq(f.name, name)) out.emplace_back(trim_ows(f.value));
  return out;
}

bool Message::has(std::string_view name, bool trailer) const {
  for (const auto& f : section(*this, trailer))
    if (ieq(f.name, name)) return true;
  return false;
}

std::optional<std::string> Message::get(std::string_view name, bool trailer) const {
  std::string buf;
  auto v = value(name, buf, trailer);
  if (!v) return std::nullopt;
  if (v->data() == buf.data()) return buf;
  return std::string(*v);
}
std::optional<std::string_view> Message::value(std::string_view name, std::string& buf, bool trailer) const {
  const FieldLine* first = nullptr;
  std::size_t n = 0;
  for (const auto& f : section(*this, trailer))
    if (ieq(f.name, name) && n++ == 0) first = &f;
  if (n == 0) return std::nullopt;
  if (n == 1) return trim_ows(first->value);
  buf = sf::combine_field_lines(lines(name, trailer));
  return std::string_view(buf);
}

void Message::set(std::string_view name, std::string value) {
  auto it = std::find_if(headers.begin(), headers.end(), [&](const FieldLine& f) { return ieq(f.name, name); });
  if (it == headers.end()) {
    headers.push_back({std::string(name), std::move(value)});
    return;
  }
  it->value = std::move(value);
  ++it;
  headers.erase(std::remove_if(it, headers.end(), [&](const FieldLine& f) { return ieq(f.name, name); }),
                headers.end());
}

void Message::add(std::string_view name, std::string value) { headers.push_back({std::string(name), std::move(value)}); }

void Message::remove(std::string_view name) {
  headers.erase(std::remove_if(headers.begin(), headers.end(), [&](const FieldLine& f) { return ieq(f.name, name); }),
                headers.end());
}

Result<Message> parse_message(std::string_view text, const MessageLimits& limits) {
  Message m;
  std::size_t pos = 0;
  bool first = true;
  bool saw_blank = false;
  auto next_line = [&](std::string_view& line) -> bool {
    if (pos >= text.size()) return false;
    auto nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      line = text.substr(pos);
      pos = text.size();
    } else {
      line = text.substr(pos, nl - pos);
      pos = nl + 1;
    }
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
      if (first) m.crlf = true;
    } else if (first) {
      m.crlf = false;
    }
    return true;
  };
  std::string_view line;
  // RFC 9112 §2.2: ignore at least one empty line before the start line.
  while (next_line(line) && line.empty()) {
  }
  if (line.empty()) return merr("empty message");
  first = false;
  if (line.substr(0, 5) == "HTTP/") {
    m.is_request = false;
    auto sp1 = line.find(' ');
    if (sp1 == std::string_view::npos) return merr("status line without a status code");
    m.version = std::string(line.substr(0, sp1));
    auto rest = line.substr(sp1 + 1);
    auto sp2 = rest.find(' ');
    auto code = rest.substr(0, sp2);
    if (code.size() != 3 || !std::all_of(code.begin(), code.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return merr("status code must be three digits");
    if (code[0] == '0') return merr("status code must be 100..999 (RFC 9110 §15)");
    m.status = (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
    if (sp2 != std::string_view::npos) m.reason = std::string(rest.substr(sp2 + 1));
  } else {
    auto sp1 = line.find(' ');
    auto sp2 = line.rfind(' ');
    if (sp1 == std::string_view::npos || sp2 == sp1) return merr("request line must be 'METHOD target HTTP/x.y'");
    m.method = std::string(line.substr(0, sp1));
    m.target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
    m.version = std::string(line.substr(sp2 + 1));
    if (m.method.empty() || !std::all_of(m.method.begin(), m.method.end(), is_tchar)) return merr("invalid method");
    if (m.target.empty() || m.target.find(' ') != std::string::npos) return merr("invalid request target");
    if (m.version.substr(0, 5) != "HTTP/") return merr("invalid HTTP version");
    if (m.target.rfind("http://", 0) == 0) m.scheme = "http";
  }
  while (next_line(line)) {
    if (line.empty()) {
      saw_blank = true;
      break;
    }
    if (pos > limits.max_header_bytes)
      return Error{Errc::policy, "HTTP message: header section longer than " + std::to_string(limits.max_header_bytes) + " bytes"};
    if (m.headers.size() >= limits.max_field_lines)
      return Error{Errc::policy, "HTTP message: more than " + std::to_string(limits.max_field_lines) + " field lines"};
    if (line.front() == ' ' || line.front() == '\t') return merr("obsolete line folding is not accepted");
    auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return merr("field line without a name");
    auto name = line.substr(0, colon);
    if (!std::all_of(name.begin(), name.end(), is_tchar)) return merr("invalid field name '" + std::string(name) + "'");
    auto value = trim_ows(line.substr(colon + 1));
    for (char c : value)
      if (c == '\0' || c == '\r' || c == '\n') return merr("invalid character in field value");
    m.headers.push_back({std::string(name), std::string(value)});
  }
  const std::size_t header_bytes = saw_blank ? pos : text.size();  // (the final empty line is not counted)
  if (header_bytes > limits.max_header_bytes && header_bytes - limits.max_header_bytes > 2)
    return Error{Errc::policy, "HTTP message: header section longer than " + std::to_string(limits.max_header_bytes) + " bytes"};
  if (saw_blank) m.body = std::string(text.substr(pos));
  return m;
}

std::string serialize_message(const Message& m) {
  const char* eol = m.crlf ? "\r\n" : "\n";
  std::string out;
  if (m.is_request) {
    out = m.method + " " + m.target + " " + m.version + eol;
  } else {
    out = m.version + " " + std::to_string(m.status);
    if (!m.reason.empty()) out += " " + m.reason;
    out += eol;
  }
  for (const auto& f : m.headers) out += f.name + ": " + f.value + eol;
  out += eol;
  out += m.body;
  return out;
}

std::size_t header_section_size(const Message& m) {
  std::size_t n = 0;
  if (m.is_request) n += m.method.size() + 1 + m.target.size() + 1 + m.version.size() + 2;
  else n += m.version.size() + 4 + (m.reason.empty() ? 0 : 1 + m.reason.size()) + 2;
  for (const auto& f : m.headers) n += f.name.size() + 2 + f.value.size() + 2;
  return n + 2;
}

}  // namespace pqsig::httpsig
