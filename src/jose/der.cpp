// Minimal strict DER (X.690) and PEM (RFC 7468) for SPKI / PKCS#8 key containers.
#include "jose/der.hpp"

#include <string>

namespace pqsig::der {

// X.690 §8.1.3: definite length, short form below 128, else minimal long form.
void append_length(bytes& out, std::size_t len) {
  if (len < 0x80) {
    out.push_back(static_cast<u8>(len));
    return;
  }
  u8 tmp[sizeof(std::size_t)];
  int n = 0;
  for (std::size_t v = len; v; v >>= 8) tmp[n++] = static_cast<u8>(v & 0xFF);
  out.push_back(static_cast<u8>(0x80 | n));
  while (n) out.push_back(tmp[--n]);
}

bytes tlv(u8 t, byte_span contents) {
  bytes out;
  out.reserve(contents.size() + 6);
  out.push_back(t);
  append_length(out, contents.size());
  out.insert(out.end(), contents.begin(), contents.end());
  return out;
}

// X.690 §8.3: two's complement, minimal.
bytes integer(std::uint64_t v) {
  bytes c;
  do {
    c.insert(c.begin(), static_cast<u8>(v & 0xFF));
    v >>= 8;
  } while (v);
  if (c[0] & 0x80) c.insert(c.begin(), 0x00);
  return tlv(tag::integer, c);
}

bytes unsigned_big(byte_span mag) {
  std::size_t i = 0;
  while (i + 1 < mag.size() && mag[i] == 0) ++i;
  bytes c;
  c.reserve(mag.size() + 1);
  if (i >= mag.size()) {
    c.push_back(0);
  } else {
    if (mag[i] & 0x80) c.push_back(0);
    for (std::size_t k = i; k < mag.size(); ++k) c.push_back(mag[k]);
  }
  return tlv(tag::integer, c);
}

// X.690 §8.6.2: initial octet = number of unused bits (0 here).
bytes bit_string(byte_span contents) {
  bytes c;
  c.reserve(contents.size() + 1);
  c.push_back(0);
  c.insert(c.end(), contents.begin(), contents.end());
  return tlv(tag::bit_string, c);
}

bytes sequence(std::initializer_list<byte_span> elems) {
  bytes c;
  for (auto e : elems) c.insert(c.end(), e.begin(), e.end());
  return tlv(tag::sequence, c);
}

// X.690 §8.19: first two arcs combined as 40*X+Y, base-128 big-endian arcs.
bytes oid(std::string_view dotted) {
  std::vector<std::uint64_t> arcs;
  std::uint64_t cur = 0;
  for (char ch : dotted) {
    if (ch == '.') {
      arcs.push_back(cur);
      cur = 0;
    } else {
      cur = cur * 10 + static_cast<std::uint64_t>(ch - '0');
    }
  }
  arcs.push_back(cur);
  bytes c;
  auto put = [&c](std::uint64_t v) {
    u8 tmp[10];
    int n = 0;
    do {
      tmp[n++] = static_cast<u8>(v & 0x7F);
      v >>= 7;
    } while (v);
    while (n > 1) c.push_back(static_cast<u8>(tmp[--n] | 0x80));
    c.push_back(tmp[0]);
  };
  put(arcs[0] * 40 + (arcs.size() > 1 ? arcs[1] : 0));
  for (std::size_t i = 2; i < arcs.size(); ++i) put(arcs[i]);
  return tlv(tag::oid, c);
}

Result<std::string> oid_to_string(byte_span c) {
  if (c.empty()) return Error{Errc::invalid_encoding, "DER: empty OBJECT IDENTIFIER"};
  std::string out;
  std::uint64_t v = 0;
  bool first = true, start = true;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (start && c[i] == 0x80) return Error{Errc::invalid_encoding, "DER: non-minimal OID arc"};
    if (v > (UINT64_MAX >> 7)) return Error{Errc::invalid_encoding, "DER: OID arc too large"};
    v = (v << 7) | (c[i] & 0x7F);
    start = false;
    if (!(c[i] & 0x80)) {
      if (first) {
        std::uint64_t a = v < 40 ? 0 : (v < 80 ? 1 : 2);
        out = std::to_string(a) + "." + std::to_string(v - 40 * a);
        first = false;
      } else {
        out += '.';
        out += std::to_string(v);
      }
      v = 0;
      start = true;
    }
  }
  if (!start) return Error{Errc::invalid_encoding, "DER: truncated OID"};
  return out;
}

Result<Element> Reader::next() {
  std::size_t left = in_.size() - pos_;
  if (left < 2) return Error{Errc::invalid_encoding, "DER: truncated element"};
  const std::size_t begin = pos_;
  u8 t = in_[pos_];
  if ((t & 0x1F) == 0x1F) return Error{Errc::invalid_encoding, "DER: high tag numbers are not used here"};
  u8 l0 = in_[pos_ + 1];
  std::size_t hdr = 2, len = 0;
  if (l0 < 0x80) {
    len = l0;
  } else {
    std::size_t n = l0 & 0x7F;
    if (n == 0) return Error{Errc::invalid_encoding, "DER: indefinite length"};
    if (n > 4) return Error{Errc::invalid_encoding, "DER: length too large"};
    if (left < 2 + n) return Error{Errc::invalid_encoding, "DER: truncated length"};
    if (in_[pos_ + 2] == 0) return Error{Errc::invalid_encoding, "DER: non-minimal length"};
    for (std::size_t i = 0; i < n; ++i) len = (len << 8) | in_[pos_ + 2 + i];
    if (len < 0x80) return Error{Errc::invalid_encoding, "DER: non-minimal length"};
    hdr += n;
  }
  if (len > left - hdr) return Error{Errc::invalid_encoding, "DER: length exceeds input"};
  pos_ += hdr + len;
  Element e;
  e.tag = t;
  e.contents = in_.subspan(begin + hdr, len);
  e.whole = in_.subspan(begin, hdr + len);
  return e;
}

Result<Element> Reader::expect(u8 t, std::string_view what) {
  if (empty()) return Error{Errc::invalid_encoding, "DER: missing " + std::string(what)};
  if (in_[pos_] != t) return Error{Errc::invalid_encoding, "DER: unexpected tag for " + std::string(what)};
  return next();
}

Status Reader::finish(std::string_view what) const {
  if (!empty()) return Error{Errc::invalid_encoding, "DER: trailing bytes after " + std::string(what)};
  return {};
}

Result<Element> parse_single(byte_span in, u8 t, std::string_view what) {
  Reader r(in);
  auto e = r.expect(t, what);
  if (!e) return e.error();
  if (auto s = r.finish(what); !s) return s.error();
  return e;
}

Result<std::uint64_t> parse_small_uint(byte_span c) {
  if (c.empty()) return Error{Errc::invalid_encoding, "DER: empty INTEGER"};
  if (c[0] & 0x80) return Error{Errc::invalid_encoding, "DER: negative INTEGER"};
  if (c.size() > 1 && c[0] == 0 && !(c[1] & 0x80)) return Error{Errc::invalid_encoding, "DER: non-minimal INTEGER"};
  if (c.size() > 9 || (c.size() == 9 && c[0] != 0)) return Error{Errc::invalid_encoding, "DER: INTEGER too large"};
  std::uint64_t v = 0;
  for (u8 b : c) v = (v << 8) | b;
  return v;
}

Result<bytes> parse_unsigned_big(byte_span c) {
  if (c.empty()) return Error{Errc::invalid_encoding, "DER: empty INTEGER"};
  if (c[0] & 0x80) return Error{Errc::invalid_encoding, "DER: negative INTEGER"};
  if (c.size() > 1 && c[0] == 0 && !(c[1] & 0x80)) return Error{Errc::invalid_encoding, "DER: non-minimal INTEGER"};
  if (c.size() > 1 && c[0] == 0) c = c.subspan(1);
  return bytes(c.begin(), c.end());
}

// RFC 7468 §2: 64-character base64 lines between BEGIN/END lines.
std::string pem_encode(std::string_view label, byte_span d) {
  std::string b64 = base64_encode(d);
  std::string out = "-----BEGIN " + std::string(label) + "-----\n";
  for (std::size_t i = 0; i < b64.size(); i += 64) out += b64.substr(i, 64) + "\n";
  out += "-----END " + std::string(label) + "-----\n";
  return out;
}

Result<bytes> pem_decode(std::string_view text, std::string_view label, std::string* found_label) {
  constexpr std::string_view kBegin = "-----BEGIN ", kEnd = "-----END ", kDash = "-----";
  auto b = text.find(kBegin);
  if (b == std::string_view::npos) return Error{Errc::invalid_encoding, "PEM: no BEGIN line"};
  // RFC 7468 §5.2 permits explanatory text before the BEGIN line; after END only whitespace.
  auto lab_start = b + kBegin.size();
  auto lab_end = text.find(kDash, lab_start);
  if (lab_end == std::string_view::npos) return Error{Errc::invalid_encoding, "PEM: malformed BEGIN line"};
  std::string_view lab = text.substr(lab_start, lab_end - lab_start);
  if (!label.empty() && lab != label)
    return Error{Errc::invalid_encoding, "PEM: expected '" + std::string(label) + "', found '" + std::string(lab) + "'"};
  std::string end_line = std::string(kEnd) + std::string(lab) + std::string(kDash);
  auto body_start = lab_end + kDash.size();
  auto e = text.find(end_line, body_start);
  if (e == std::string_view::npos) return Error{Errc::invalid_encoding, "PEM: no matching END line"};
  for (char c : text.substr(e + end_line.size()))
    if (c != '\n' && c != '\r' && c != ' ' && c != '\t') return Error{Errc::invalid_encoding, "PEM: trailing data after END line"};
  // The body of a PRIVATE KEY is secret: it is collected into wiped memory and decoded in
  // constant time. (Skipping line breaks branches on whitespace only, which base64 never holds:
  // the line layout is all it depends on.)
  std::string b64;
  b64.reserve(e - body_start);
  for (char c : text.substr(body_start, e - body_start)) {
    if (c == '\n' || c == '\r' || c == ' ' || c == '\t') continue;
    b64.push_back(c);
  }
  if (found_label) *found_label = std::string(lab);
  auto dec = secret_base64_decode(b64);
  secure_zero(b64.data(), b64.size());
  if (!dec) return Error{Errc::invalid_encoding, "PEM: body is not base64"};
  return bytes(dec->span().begin(), dec->span().end());  // the caller wipes it (load_pem)
}

}  // namespace pqsig::der
