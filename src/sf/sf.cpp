// RFC 9651 Structured Field Values: parser (§4.2) and serializer (§4.1).
#include "pqsig/sf.hpp"

#include <cmath>
#include <cstdio>
#include <unordered_set>

namespace pqsig::sf {
namespace {

constexpr std::int64_t kMaxInteger = 999'999'999'999'999LL;
constexpr std::int64_t kMaxDecimalInt = 999'999'999'999LL;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lcalpha(char c) { return c >= 'a' && c <= 'z'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// RFC 9110 §5.6.2 tchar
bool is_tchar(char c) {
  if (is_alpha(c) || is_digit(c)) return true;
  switch (c) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+': case '-':
    case '.': case '^': case '_': case '`': case '|': case '~':
      return true;
    default:
      return false;
  }
}
Error perr(std::string m) { return Error{Errc::invalid_encoding, "structured field: " + std::move(m)}; }
Error lerr(const char* what, std::size_t limit) {
  return Error{Errc::policy, std::string("structured field: more than ") + std::to_string(limit) + " " + what +
                                 " (parser limit)"};
}

// Insert-or-overwrite into an ordered map (a vector of pairs) in O(1) expected time: keys are
// views into the parsed text; up to kLinear keys are compared directly, then an open-addressing
// index (positions + 1, linear probing, load <= 1/2) is used. RFC 9651 §4.2.2 / §4.2.3.2: a
// repeated key overwrites the value, keeping its first position.
template <class V>
class OrderedInserter {
 public:
  explicit OrderedInserter(std::vector<std::pair<std::string, V>>& out) : out_(out) {}
  void put(std::string_view key, V v) {
    std::size_t at = find(key);
    if (at != kNone) {
      out_[at].second = std::move(v);
      return;
    }
    out_.emplace_back(std::string(key), std::move(v));
    if (!slots_.empty()) {
      if (2 * out_.size() > slots_.size()) rebuild(2 * slots_.size());
      else insert_slot(out_.size() - 1);
    } else if (out_.size() == kLinear) {
      rebuild(4 * kLinear);
    }
  }
  std::size_t size() const { return out_.size(); }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  static constexpr std::size_t kLinear = 8;

  std::size_t find(std::string_view key) const {
    if (slots_.empty()) {
      for (std::size_t k = 0; k < out_.size(); ++k)
        if (out_[k].first == key) return k;
      return kNone;
    }
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = std::hash<std::string_view>{}(key) & mask;; i = (i + 1) & mask) {
      const std::size_t s = slots_[i];
      if (s == 0) return kNone;
      if (out_[s - 1].first == key) return s - 1;
    }
  }
  void insert_slot(std::size_t index) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = std::hash<std::string_view>{}(out_[index].first) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = index + 1;
  }
  void rebuild(std::size_t n) {
    slots_.assign(n, 0);
    for (std::size_t k = 0; k < out_.size(); ++k) insert_slot(k);
  }

  std::vector<std::pair<std::string, V>>& out_;  // keys compared in place (no second copy of them)
  std::vector<std::size_t> slots_;  // power-of-two size; 0 = empty, else position + 1
};

// True when some key occurs twice (serialization refuses that: the output would not parse back
// to the same value). Linear for small maps, hashed above.
template <class V>
bool has_duplicate_key(const std::vector<std::pair<std::string, V>>& m) {
  if (m.size() <= 8) {
    for (std::size_t a = 0; a < m.size(); ++a)
      for (std::size_t b = a + 1; b < m.size(); ++b)
        if (m[a].first == m[b].first) return true;
    return false;
  }
  std::unordered_set<std::string_view> seen;
  seen.reserve(m.size());
  for (const auto& [k, v] : m)
    if (!seen.insert(k).second) return true;
  return false;
}
Error serr(std::string m) { return Error{Errc::invalid_argument, "structured field serialization: " + std::move(m)}; }

// Valid UTF-8 (RFC 3629): no overlongs, no surrogates, <= U+10FFFF.
bool valid_utf8(std::string_view s) {
  std::size_t i = 0, n = s.size();
  while (i < n) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) { ++i; continue; }
    std::size_t len;
    std::uint32_t cp;
    if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; }
    else return false;
    if (i + len > n) return false;
    for (std::size_t k = 1; k < len; ++k) {
      auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return false;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

class Parser {
 public:
  Parser(std::string_view s, const Limits& lim) : s_(s), lim_(lim) {}

  bool empty() const { return p_ >= s_.size(); }
  char peek() const { return s_[p_]; }
  void skip_sp() { while (!empty() && peek() == ' ') ++p_; }
  void skip_ows() { while (!empty() && (peek() == ' ' || peek() == '\t')) ++p_; }
  std::size_t pos() const { return p_; }

  // §4.2.3.3 Parsing a Key (a view into the input)
  Result<std::string_view> key() {
    if (empty() || !(is_lcalpha(peek()) || peek() == '*')) return perr(at("key must start with lcalpha or '*'"));
    std::size_t start = p_;
    while (!empty()) {
      char c = peek();
      if (!(is_lcalpha(c) || is_digit(c) || c == '_' || c == '-' || c == '.' || c == '*')) break;
      ++p_;
    }
    return s_.substr(start, p_ - start);
  }

  // §4.2.3.2 Parsing Parameters
  Result<Parameters> params() {
    Parameters ps;
    if (!empty() && peek() == ';') ps.reserve(8);  // a signature's parameters without regrowing
    OrderedInserter<BareItem> ins(ps);
    while (!empty() && peek() == ';') {
      ++p_;
      skip_sp();
      auto k = key();
      if (!k) return k.error();
      BareItem v = BareItem::boolean(true);
      if (!empty() && peek() == '=') {
        ++p_;
        auto b = bare();
        if (!b) return b.error();
        v = std::move(b.value());
      }
      ins.put(k.value(), std::move(v));
      if (ins.size() > lim_.max_params) return lerr("parameters", lim_.max_params);
    }
    return ps;
  }

  // §4.2.3 Parsing an Item
  Result<Item> item() {
    auto b = bare();
    if (!b) return b.error();
    auto ps = params();
    if (!ps) return ps.error();
    return Item{std::move(b.value()), std::move(ps.value())};
  }

  // §4.2.1.2 Parsing an Inner List
  Result<InnerList> inner_list() {
    if (empty() || peek() != '(') return perr(at("expected '('"));
    ++p_;
    InnerList il;
    il.items.reserve(4);
    while (!empty()) {
      skip_sp();
      if (empty()) break;
      if (peek() == ')') {
        ++p_;
        auto ps = params();
        if (!ps) return ps.error();
        il.params = std::move(ps.value());
        return il;
      }
      if (peek() == '(') return perr(at("inner lists cannot nest"));
      auto it = item();
      if (!it) return it.error();
      il.items.push_back(std::move(it.value()));
      if (il.items.size() > lim_.max_inner_items) return lerr("inner list items", lim_.max_inner_items);
      if (empty()) break;
      if (peek() != ' ' && peek() != ')') return perr(at("inner list items must be separated by SP"));
    }
    return perr("inner list not closed by ')'");
  }

  // §4.2.1.1 Parsing an Item or Inner List
  Result<Member> member() {
    if (!empty() && peek() == '(') {
      auto il = inner_list();
      if (!il) return il.error();
      return Member::of(std::move(il.value()));
    }
    auto it = item();
    if (!it) return it.error();
    return Member::of(std::move(it.value()));
  }

  // §4.2.1 Parsing a List
  Result<List> list() {
    List l;
    while (!empty()) {
      auto m = member();
      if (!m) return m.error();
      l.push_back(std::move(m.value()));
      if (l.size() > lim_.max_members) return lerr("list members", lim_.max_members);
      skip_ows();
      if (empty()) return l;
      if (peek() != ',') return perr(at("expected ',' between list members"));
      ++p_;
      skip_ows();
      if (empty()) return perr("trailing comma in list");
    }
    return l;
  }

  // §4.2.2 Parsing a Dictionary
  Result<Dictionary> dictionary() {
    Dictionary d;
    OrderedInserter<Member> ins(d);
    while (!empty()) {
      auto k = key();
      if (!k) return k.error();
      Member m;
      if (!empty() && peek() == '=') {
        ++p_;
        auto mm = member();
        if (!mm) return mm.error();
        m = std::move(mm.value());
      } else {
        auto ps = params();
        if (!ps) return ps.error();
        m = Member::of(Item{BareItem::boolean(true), std::move(ps.value())});
      }
      ins.put(k.value(), std::move(m));
      if (ins.size() > lim_.max_members) return lerr("dictionary members", lim_.max_members);
      skip_ows();
      if (empty()) return d;
      if (peek() != ',') return perr(at("expected ',' between dictionary members"));
      ++p_;
      skip_ows();
      if (empty()) return perr("trailing comma in dictionary");
    }
    return d;
  }

  // §4.2.3.1 Parsing a Bare Item
  Result<BareItem> bare() {
    if (empty()) return perr("expected a bare item, found end of input");
    char c = peek();
    if (c == '-' || is_digit(c)) return number();
    if (c == '"') return string();
    if (c == '*' || is_alpha(c)) return token();
    if (c == ':') return byte_seq();
    if (c == '?') return boolean();
    if (c == '@') return date();
    if (c == '%') return display_string();
    return perr(at("unexpected character for a bare item"));
  }

 private:
  std::string at(std::string m) const { return m + " at offset " + std::to_string(p_); }

  // §4.2.4 Parsing an Integer or Decimal (digits accumulated as they are read)
  Result<BareItem> number() {
    bool neg = false;
    if (peek() == '-') { neg = true; ++p_; }
    if (empty()) return perr("empty integer");
    if (!is_digit(peek())) return perr(at("expected a digit"));
    std::int64_t ip = 0;
    std::size_t digits = 0;
    while (!empty() && is_digit(peek())) {
      ip = ip * 10 + (peek() - '0');
      ++p_;
      if (++digits > 15) return perr(at("integer longer than 15 digits"));
    }
    if (empty() || peek() != '.') return BareItem::integer(neg ? -ip : ip);
    if (digits > 12) return perr(at("decimal integer part longer than 12 digits"));
    ++p_;  // '.'
    std::int64_t fp = 0;
    std::size_t frac = 0;
    while (!empty() && is_digit(peek())) {
      if (digits + 1 + frac + 1 > 16) return perr(at("decimal longer than 16 characters"));
      fp = fp * 10 + (peek() - '0');
      ++p_;
      ++frac;
    }
    if (frac == 0) return perr(at("decimal ends with '.'"));
    if (frac > 3) return perr(at("decimal with more than 3 fractional digits"));
    for (std::size_t k = frac; k < 3; ++k) fp *= 10;
    std::int64_t milli = ip * 1000 + fp;
    return BareItem::decimal_milli(neg ? -milli : milli);
  }

  // §4.2.5 Parsing a String
  Result<BareItem> string() {
    ++p_;  // '"'
    std::string out;
    while (!empty()) {
      // A run of plain characters is appended at once (keyids, nonces).
      std::size_t q = p_;
      while (q < s_.size()) {
        auto u = static_cast<unsigned char>(s_[q]);
        if (u == '"' || u == '\\' || u <= 0x1f || u >= 0x7f) break;
        ++q;
      }
      out.append(s_.data() + p_, q - p_);
      p_ = q;
      if (empty()) break;
      char c = s_[p_++];
      if (c == '\\') {
        if (empty()) return perr("string ends inside an escape");
        char n = s_[p_++];
        if (n != '"' && n != '\\') return perr(at("invalid escape in string"));
        out.push_back(n);
      } else if (c == '"') {
        return BareItem::string(std::move(out));
      } else {
        auto u = static_cast<unsigned char>(c);
        if (u <= 0x1f || u >= 0x7f) return perr(at("invalid character in string"));
        out.push_back(c);
      }
    }
    return perr("string not terminated");
  }

  // §4.2.6 Parsing a Token
  Result<BareItem> token() {
    const std::size_t start = p_++;
    while (!empty()) {
      char c = peek();
      if (!(is_tchar(c) || c == ':' || c == '/')) break;
      ++p_;
    }
    return BareItem::token(std::string(s_.substr(start, p_ - start)));
  }

  // §4.2.7 Parsing a Byte Sequence
  Result<BareItem> byte_seq() {
    ++p_;  // ':'
    auto end = s_.find(':', p_);
    if (end == std::string_view::npos) return perr("byte sequence not terminated by ':'");
    // A view into the field, decoded in one pass (a 3.2 KB ML-DSA-44 signature on every verified
    // request): the decoder checks the alphabet, the length and the trailing bits.
    std::string_view b64 = s_.substr(p_, end - p_);
    p_ = end + 1;
    // Padding may be absent (RFC 9651 §4.2.7: parsers SHOULD NOT fail); "=" only at the end.
    auto eq = b64.find('=');
    if (eq != std::string_view::npos && b64.find_first_not_of('=', eq) != std::string_view::npos)
      return perr("'=' inside a byte sequence");
    std::string_view body = b64.substr(0, eq == std::string_view::npos ? b64.size() : eq);
    if (body.size() % 4 == 1) return perr("byte sequence has an impossible base64 length");
    std::string padded;  // only when the padding was left out (or overlong)
    if (b64.size() % 4 == 0 && b64.size() - body.size() <= 2) {
      body = b64;  // canonical padding: decoded as it stands
    } else if (body.size() % 4 != 0) {
      padded.assign(body);
      padded.append(4 - body.size() % 4, '=');
      body = padded;
    }
    auto dec = base64_decode(body);
    if (!dec) return perr("byte sequence: " + dec.error().message);
    return BareItem::byte_sequence(std::move(dec.value()));
  }

  // §4.2.8 Parsing a Boolean
  Result<BareItem> boolean() {
    ++p_;  // '?'
    if (empty()) return perr("boolean without value");
    char c = s_[p_++];
    if (c == '1') return BareItem::boolean(true);
    if (c == '0') return BareItem::boolean(false);
    return perr(at("boolean must be ?0 or ?1"));
  }

  // §4.2.9 Parsing a Date
  Result<BareItem> date() {
    ++p_;  // '@'
    if (empty()) return perr("date without value");
    auto n = number();
    if (!n) return n.error();
    if (n->type != Type::integer) return perr("date must be an integer");
    return BareItem::date(n->i);
  }

  // §4.2.10 Parsing a Display String
  Result<BareItem> display_string() {
    ++p_;  // '%'
    if (empty() || peek() != '"') return perr(at("display string must start with %\""));
    ++p_;
    std::string out;
    auto hexval = [](char h) -> int {
      if (h >= '0' && h <= '9') return h - '0';
      if (h >= 'a' && h <= 'f') return h - 'a' + 10;
      return -1;
    };
    while (!empty()) {
      char c = s_[p_++];
      auto u = static_cast<unsigned char>(c);
      if (u <= 0x1f || u >= 0x7f) return perr(at("invalid character in display string"));
      if (c == '%') {
        if (s_.size() - p_ < 2) return perr("truncated percent escape in display string");
        int hi = hexval(s_[p_]), lo = hexval(s_[p_ + 1]);
        if (hi < 0 || lo < 0) return perr(at("display string escapes must be lowercase hex"));
        p_ += 2;
        out.push_back(static_cast<char>(hi * 16 + lo));
      } else if (c == '"') {
        if (!valid_utf8(out)) return perr("display string is not valid UTF-8");
        return BareItem::display_string(std::move(out));
      } else {
        out.push_back(c);
      }
    }
    return perr("display string not terminated");
  }

  std::string_view s_;
  Limits lim_;
  std::size_t p_ = 0;
};

template <class T, class F>
Result<T> parse_top(std::string_view v, const Limits& lim, F f) {
  if (v.size() > lim.max_field_bytes) return lerr("bytes of field value", lim.max_field_bytes);
  Parser p(v, lim);
  p.skip_sp();
  auto r = f(p);
  if (!r) return r.error();
  p.skip_sp();
  if (!p.empty()) return perr("unexpected trailing characters at offset " + std::to_string(p.pos()));
  return r;
}

}  // namespace

std::string_view type_name(Type t) noexcept {
  switch (t) {
    case Type::integer: return "integer";
    case Type::decimal: return "decimal";
    case Type::string: return "string";
    case Type::token: return "token";
    case Type::byte_sequence: return "byte sequence";
    case Type::boolean: return "boolean";
    case Type::date: return "date";
    case Type::display_string: return "display string";
  }
  return "?";
}

bool BareItem::operator==(const BareItem& o) const noexcept {
  if (type != o.type) return false;
  switch (type) {
    case Type::integer: case Type::decimal: case Type::boolean: case Type::date: return i == o.i;
    case Type::string: case Type::token: case Type::display_string: return s == o.s;
    case Type::byte_sequence: return b == o.b;
  }
  return false;
}

const BareItem* find_param(const Parameters& p, std::string_view key) noexcept {
  for (const auto& [k, v] : p)
    if (k == key) return &v;
  return nullptr;
}
void set_param(Parameters& p, std::string_view key, BareItem v) {
  for (auto& [k, old] : p)
    if (k == key) { old = std::move(v); return; }
  p.emplace_back(std::string(key), std::move(v));
}
const Member* find_member(const Dictionary& d, std::string_view key) noexcept {
  for (const auto& [k, v] : d)
    if (k == key) return &v;
  return nullptr;
}
void set_member(Dictionary& d, std::string_view key, Member m) {
  for (auto& [k, old] : d)
    if (k == key) { old = std::move(m); return; }
  d.emplace_back(std::string(key), std::move(m));
}

std::string combine_field_lines(std::span<const std::string> lines) {
  std::string out;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (k) out += ", ";
    out += lines[k];
  }
  return out;
}

Result<Item> parse_item(std::string_view v, const Limits& lim) {
  return parse_top<Item>(v, lim, [](Parser& p) { return p.item(); });
}
Result<List> parse_list(std::string_view v, const Limits& lim) {
  return parse_top<List>(v, lim, [](Parser& p) { return p.list(); });
}
Result<Dictionary> parse_dictionary(std::string_view v, const Limits& lim) {
  return parse_top<Dictionary>(v, lim, [](Parser& p) { return p.dictionary(); });
}
Result<InnerList> parse_inner_list(std::string_view v, const Limits& lim) {
  return parse_top<InnerList>(v, lim, [](Parser& p) { return p.inner_list(); });
}

bool is_valid_key(std::string_view k) noexcept {
  if (k.empty() || !(is_lcalpha(k[0]) || k[0] == '*')) return false;
  for (char c : k)
    if (!(is_lcalpha(c) || is_digit(c) || c == '_' || c == '-' || c == '.' || c == '*')) return false;
  return true;
}
bool is_valid_token(std::string_view t) noexcept {
  if (t.empty() || !(is_alpha(t[0]) || t[0] == '*')) return false;
  for (char c : t)
    if (!(is_tchar(c) || c == ':' || c == '/')) return false;
  return true;
}

// §4.1.3.1 .. §4.1.11, appended to `out` (the signature base and the serializers below build one
// string, not one per part). On failure `out` holds a partial result the caller discards.
Status serialize_bare_item_to(std::string& out, const BareItem& b) {
  switch (b.type) {
    case Type::integer:
      if (b.i < -kMaxInteger || b.i > kMaxInteger) return serr("integer out of range");
      out += std::to_string(b.i);
      return {};
    case Type::decimal: {
      std::int64_t a = b.i < 0 ? -b.i : b.i;
      std::int64_t ip = a / 1000, fp = a % 1000;
      if (ip > kMaxDecimalInt) return serr("decimal integer part out of range");
      if (b.i < 0) out.push_back('-');
      out += std::to_string(ip);
      out.push_back('.');
      char f[4];
      std::snprintf(f, sizeof f, "%03d", static_cast<int>(fp));
      std::size_t len = 3;
      while (len > 1 && f[len - 1] == '0') --len;
      out.append(f, len);
      return {};
    }
    case Type::string: {
      out.push_back('"');
      std::size_t run = 0;  // plain characters are appended a run at a time
      for (std::size_t k = 0; k < b.s.size(); ++k) {
        auto u = static_cast<unsigned char>(b.s[k]);
        if (u <= 0x1f || u >= 0x7f) return serr("string contains a character outside %x20-7E");
        if (u == '"' || u == '\\') {
          out.append(b.s, run, k - run);
          out.push_back('\\');
          run = k;
        }
      }
      out.append(b.s, run, std::string::npos);
      out.push_back('"');
      return {};
    }
    case Type::token:
      if (!is_valid_token(b.s)) return serr("invalid token '" + b.s + "'");
      out += b.s;
      return {};
    case Type::byte_sequence:
      out.push_back(':');
      out += base64_encode(b.b);
      out.push_back(':');
      return {};
    case Type::boolean:
      out += b.i ? "?1" : "?0";
      return {};
    case Type::date:
      if (b.i < -kMaxInteger || b.i > kMaxInteger) return serr("date out of range");
      out.push_back('@');
      out += std::to_string(b.i);
      return {};
    case Type::display_string: {
      if (!valid_utf8(b.s)) return serr("display string is not valid UTF-8");
      static const char* hex = "0123456789abcdef";
      out += "%\"";
      for (char c : b.s) {
        auto u = static_cast<unsigned char>(c);
        if (c == '%' || c == '"' || u <= 0x1f || u >= 0x7f) {
          out.push_back('%');
          out.push_back(hex[u >> 4]);
          out.push_back(hex[u & 15]);
        } else {
          out.push_back(c);
        }
      }
      out.push_back('"');
      return {};
    }
  }
  return serr("unknown bare item type");
}

Status serialize_params_to(std::string& out, const Parameters& p) {
  if (has_duplicate_key(p)) return serr("a parameter key is repeated");
  for (const auto& [k, v] : p) {
    if (!is_valid_key(k)) return serr("invalid parameter key '" + k + "'");
    out.push_back(';');
    out += k;
    if (!v.is_true()) {
      out.push_back('=');
      if (auto st = serialize_bare_item_to(out, v); !st) return st;
    }
  }
  return {};
}

Status serialize_item_to(std::string& out, const Item& it) {
  if (auto st = serialize_bare_item_to(out, it.bare); !st) return st;
  return serialize_params_to(out, it.params);
}

Status serialize_inner_list_to(std::string& out, const InnerList& il) {
  out.push_back('(');
  for (std::size_t k = 0; k < il.items.size(); ++k) {
    if (k) out.push_back(' ');
    if (auto st = serialize_item_to(out, il.items[k]); !st) return st;
  }
  out.push_back(')');
  return serialize_params_to(out, il.params);
}

Status serialize_member_to(std::string& out, const Member& m) {
  return m.is_inner_list ? serialize_inner_list_to(out, m.inner) : serialize_item_to(out, m.item);
}

namespace {
template <class T>
Result<std::string> serialized(Status (*to)(std::string&, const T&), const T& v) {
  std::string out;
  if (auto st = to(out, v); !st) return st.error();
  return out;
}
}  // namespace

Result<std::string> serialize_bare_item(const BareItem& b) { return serialized(&serialize_bare_item_to, b); }
Result<std::string> serialize_params(const Parameters& p) { return serialized(&serialize_params_to, p); }
Result<std::string> serialize_item(const Item& it) { return serialized(&serialize_item_to, it); }
Result<std::string> serialize_inner_list(const InnerList& il) { return serialized(&serialize_inner_list_to, il); }
Result<std::string> serialize_member(const Member& m) { return serialized(&serialize_member_to, m); }

Result<std::string> serialize_list(const List& l) {
  std::string out;
  for (std::size_t k = 0; k < l.size(); ++k) {
    if (k) out += ", ";
    if (auto st = serialize_member_to(out, l[k]); !st) return st.error();
  }
  return out;
}

Result<std::string> serialize_dictionary(const Dictionary& d) {
  if (has_duplicate_key(d)) return serr("a dictionary key is repeated");
  std::string out;
  for (std::size_t k = 0; k < d.size(); ++k) {
    const auto& [key, m] = d[k];
    if (!is_valid_key(key)) return serr("invalid dictionary key '" + key + "'");
    if (k) out += ", ";
    out += key;
    if (!m.is_inner_list && m.item.bare.is_true()) {
      if (auto st = serialize_params_to(out, m.item.params); !st) return st.error();
    } else {
      out.push_back('=');
      if (auto st = serialize_member_to(out, m); !st) return st.error();
    }
  }
  return out;
}

Result<FieldType> parse_field_type(std::string_view name) {
  if (name == "item") return FieldType::item;
  if (name == "list") return FieldType::list;
  if (name == "dictionary") return FieldType::dictionary;
  return Error{Errc::invalid_argument, "field type must be item, list or dictionary"};
}

Result<Field> parse_field(FieldType t, std::string_view v, const Limits& lim) {
  Field f;
  f.type = t;
  switch (t) {
    case FieldType::item: {
      auto r = parse_item(v, lim);
      if (!r) return r.error();
      f.item = std::move(r.value());
      break;
    }
    case FieldType::list: {
      auto r = parse_list(v, lim);
      if (!r) return r.error();
      f.list = std::move(r.value());
      break;
    }
    case FieldType::dictionary: {
      auto r = parse_dictionary(v, lim);
      if (!r) return r.error();
      f.dict = std::move(r.value());
      break;
    }
  }
  return f;
}

Result<std::string> serialize_field(const Field& f) {
  switch (f.type) {
    case FieldType::item: return serialize_item(f.item);
    case FieldType::list: return serialize_list(f.list);
    case FieldType::dictionary: return serialize_dictionary(f.dict);
  }
  return serr("unknown field type");
}

std::string base32_encode(byte_span b) {
  static const char* A = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  std::string out;
  std::size_t i = 0;
  while (i < b.size()) {
    std::uint8_t blk[5] = {0, 0, 0, 0, 0};
    std::size_t n = std::min<std::size_t>(5, b.size() - i);
    for (std::size_t k = 0; k < n; ++k) blk[k] = b[i + k];
    std::uint64_t v = 0;
    for (auto x : blk) v = (v << 8) | x;
    static const std::size_t chars_for[6] = {0, 2, 4, 5, 7, 8};
    for (std::size_t k = 0; k < 8; ++k) {
      if (k < chars_for[n]) out.push_back(A[(v >> (35 - 5 * k)) & 31]);
      else out.push_back('=');
    }
    i += n;
  }
  return out;
}

// RFC 4648 §6 (alphabet, padding) and §3.5 (canonical: the pad bits of the last character are 0).
Result<bytes> base32_decode(std::string_view s) {
  auto bad = [](const char* m) { return Error{Errc::invalid_encoding, std::string("base32: ") + m}; };
  std::size_t data = s.size();
  while (data > 0 && s[data - 1] == '=') --data;
  const std::size_t pads = s.size() - data;
  // Characters in the last quantum: 2, 4, 5, 7 or 8 (1, 3, 6 cannot end on a byte boundary).
  const std::size_t tail = data % 8;
  if (tail == 1 || tail == 3 || tail == 6) return bad("impossible length");
  if (pads != 0) {
    if (s.size() % 8 != 0) return bad("padded input is not a multiple of 8 characters");
    if (pads != (8 - tail) % 8) return bad("wrong amount of padding");
  }
  bytes out;
  out.reserve(data * 5 / 8);
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t k = 0; k < data; ++k) {
    char c = s[k];
    std::uint32_t v;
    if (c >= 'A' && c <= 'Z') v = static_cast<std::uint32_t>(c - 'A');
    else if (c >= 'a' && c <= 'z') v = static_cast<std::uint32_t>(c - 'a');
    else if (c >= '2' && c <= '7') v = static_cast<std::uint32_t>(c - '2' + 26);
    else if (c == '=') return bad("data after padding");
    else return bad("invalid character");
    acc = ((acc << 5) | v) & 0xFFFu;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xFF));
    }
  }
  if ((acc & ((1u << bits) - 1u)) != 0) return bad("non-zero pad bits in the last character");
  return out;
}

}  // namespace pqsig::sf
