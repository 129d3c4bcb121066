// ECDSA signature format conversion: ECDSA-Sig-Value DER (RFC 3279 §2.2.3) <-> raw r||s
// (RFC 9421 §3.3.4 / §3.3.5, JWS RFC 7518 §3.4). Signatures are public data.
#include <string>

#include "pqsig/classical.hpp"

namespace pqsig::classical {

namespace {
// Parse one DER INTEGER (short-form length, minimal, non-negative) at der[pos].
Result<byte_span> der_uint(byte_span der, std::size_t& pos) {
  if (pos + 2 > der.size() || der[pos] != 0x02) return Error{Errc::invalid_encoding, "ECDSA DER: expected INTEGER"};
  const std::size_t len = der[pos + 1];
  if (len == 0 || len > 0x7f) return Error{Errc::invalid_encoding, "ECDSA DER: bad INTEGER length"};
  pos += 2;
  if (pos + len > der.size()) return Error{Errc::invalid_encoding, "ECDSA DER: truncated INTEGER"};
  byte_span v = der.subspan(pos, len);
  pos += len;
  if (v[0] & 0x80) return Error{Errc::invalid_encoding, "ECDSA DER: negative INTEGER"};
  if (v.size() > 1 && v[0] == 0 && !(v[1] & 0x80)) return Error{Errc::invalid_encoding, "ECDSA DER: non-minimal INTEGER"};
  while (v.size() > 1 && v[0] == 0) v = v.subspan(1);
  return v;
}

void der_put_uint(bytes& out, byte_span v) {
  while (v.size() > 1 && v[0] == 0) v = v.subspan(1);
  if (v.empty()) {
    out.insert(out.end(), {0x02, 0x01, 0x00});
    return;
  }
  const bool pad = (v[0] & 0x80) != 0;
  out.push_back(0x02);
  out.push_back(static_cast<std::uint8_t>(v.size() + (pad ? 1 : 0)));
  if (pad) out.push_back(0x00);
  out.insert(out.end(), v.begin(), v.end());
}
}  // namespace

Result<bytes> ecdsa_der_to_raw(byte_span der, std::size_t scalar_len) {
  if (scalar_len == 0 || scalar_len > 66) return Error{Errc::invalid_argument, "bad ECDSA scalar length"};
  if (der.size() < 8 || der[0] != 0x30) return Error{Errc::invalid_encoding, "ECDSA DER: expected SEQUENCE"};
  if (der[1] > 0x7f || static_cast<std::size_t>(der[1]) + 2 != der.size())
    return Error{Errc::invalid_encoding, "ECDSA DER: bad SEQUENCE length or trailing bytes"};
  std::size_t pos = 2;
  auto r = der_uint(der, pos);
  if (!r) return r.error();
  auto s = der_uint(der, pos);
  if (!s) return s.error();
  if (pos != der.size()) return Error{Errc::invalid_encoding, "ECDSA DER: trailing bytes in SEQUENCE"};
  if (r->size() > scalar_len || s->size() > scalar_len)
    return Error{Errc::invalid_encoding, "ECDSA DER: integer longer than the curve order"};
  bytes out(2 * scalar_len, 0);
  std::copy(r->begin(), r->end(), out.begin() + static_cast<std::ptrdiff_t>(scalar_len - r->size()));
  std::copy(s->begin(), s->end(), out.begin() + static_cast<std::ptrdiff_t>(2 * scalar_len - s->size()));
  return out;
}

Result<bytes> ecdsa_raw_to_der(byte_span raw) {
  if (raw.empty() || raw.size() % 2 != 0 || raw.size() > 132)
    return Error{Errc::invalid_length, "raw ECDSA signature must be r||s of equal halves"};
  const std::size_t n = raw.size() / 2;
  bytes body;
  der_put_uint(body, raw.first(n));
  der_put_uint(body, raw.subspan(n));
  if (body.size() > 0x7f) return Error{Errc::invalid_length, "ECDSA signature too long for short-form DER"};
  bytes out{0x30, static_cast<std::uint8_t>(body.size())};
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

}  // namespace pqsig::classical
