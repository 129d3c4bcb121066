// The canonical signing input (docs/canonical.md): big-endian fixed-width integers, every
// variable field length-prefixed, the domain string first; strict decoding.
#include "pqsig/canonical.hpp"

#include <string>

#include "pqsig/hash.hpp"

namespace pqsig::canonical {

namespace {
constexpr struct {
  Purpose p;
  std::string_view name;
} kPurposes[] = {
    {Purpose::quote, "quote"},
    {Purpose::settlement_instruction, "settlement-instruction"},
    {Purpose::key_rotation, "key-rotation"},
    {Purpose::governance, "governance"},
    {Purpose::transport, "transport"},
    {Purpose::attestation, "attestation"},
};

bool valid_purpose_code(std::uint8_t c) { return c >= 1 && c <= 6; }

bool printable(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) return false;
  return true;
}

void put_u8(bytes& o, std::uint8_t v) { o.push_back(v); }
void put_u16(bytes& o, std::uint16_t v) {
  o.push_back(static_cast<u8>(v >> 8));
  o.push_back(static_cast<u8>(v));
}
void put_u32(bytes& o, std::uint32_t v) {
  for (int i = 3; i >= 0; --i) o.push_back(static_cast<u8>(v >> (8 * i)));
}
void put_u64(bytes& o, std::uint64_t v) {
  for (int i = 7; i >= 0; --i) o.push_back(static_cast<u8>(v >> (8 * i)));
}
void put_bytes(bytes& o, byte_span b) {
  put_u16(o, static_cast<std::uint16_t>(b.size()));
  o.insert(o.end(), b.begin(), b.end());
}

Error derr(DecodeError e, const std::string& m, DecodeError* why) {
  if (why) *why = e;
  Errc c = e == DecodeError::unknown_suite ? Errc::unknown_suite
           : (e == DecodeError::truncated || e == DecodeError::overlong_length || e == DecodeError::trailing_bytes)
               ? Errc::invalid_length
               : Errc::invalid_encoding;
  return Error{c, std::string(decode_error_name(e)) + ": canonical input: " + m};
}

struct Cursor {
  byte_span in;
  std::size_t pos = 0;
  bool need(std::size_t n) const { return in.size() - pos >= n; }
  std::uint64_t be(std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = (v << 8) | in[pos + i];
    pos += n;
    return v;
  }
};
}  // namespace

std::string_view purpose_name(Purpose p) noexcept {
  for (const auto& e : kPurposes)
    if (e.p == p) return e.name;
  return "?";
}

Result<Purpose> parse_purpose(std::string_view name) {
  for (const auto& e : kPurposes)
    if (e.name == name) return e.p;
  return Error{Errc::invalid_argument,
               "unknown purpose '" + std::string(name) +
                   "' (quote, settlement-instruction, key-rotation, governance, transport, attestation)"};
}

std::size_t body_hash_size(BodyHash h) noexcept {
  switch (h) {
    case BodyHash::sha2_256: return 32;
    case BodyHash::sha2_512: return 64;
    case BodyHash::sha3_256: return 32;
  }
  return 0;
}

std::string_view decode_error_name(DecodeError e) noexcept {
  switch (e) {
    case DecodeError::truncated: return "truncated";
    case DecodeError::trailing_bytes: return "trailing_bytes";
    case DecodeError::bad_domain: return "bad_domain";
    case DecodeError::overlong_length: return "overlong_length";
    case DecodeError::bad_text: return "bad_text";
    case DecodeError::bad_purpose: return "bad_purpose";
    case DecodeError::unknown_suite: return "unknown_suite";
    case DecodeError::bad_hash: return "bad_hash";
  }
  return "?";
}

void SigningInput::set_body(byte_span body) {
  switch (body_hash_alg) {
    case BodyHash::sha2_256: { auto d = hash::sha256(body); body_hash.assign(d.begin(), d.end()); break; }
    case BodyHash::sha2_512: { auto d = hash::sha512(body); body_hash.assign(d.begin(), d.end()); break; }
    case BodyHash::sha3_256: { auto d = hash::sha3_256(body); body_hash.assign(d.begin(), d.end()); break; }
  }
}

Result<bytes> encode(const SigningInput& in) {
  auto text = [](const std::string& s, const char* name) -> Status {
    if (s.size() > kMaxText) return Error{Errc::invalid_length, std::string("canonical input: ") + name + " longer than 255 bytes"};
    if (!printable(s)) return Error{Errc::invalid_argument, std::string("canonical input: ") + name + " must be printable ASCII"};
    return {};
  };
  for (auto [s, n] : {std::pair{&in.protocol, "protocol"}, {&in.network, "network"}, {&in.deployment, "deployment"},
                      {&in.contract, "contract"}, {&in.kind, "kind"}})
    if (auto st = text(*s, n); !st) return st.error();
  if (!valid_purpose_code(static_cast<std::uint8_t>(in.purpose))) return Error{Errc::invalid_argument, "canonical input: bad purpose"};
  if (in.object_ids.size() > kMaxObjects) return Error{Errc::invalid_length, "canonical input: too many object identifiers"};
  for (const auto& o : in.object_ids)
    if (o.size() > kMaxObjectId) return Error{Errc::invalid_length, "canonical input: object identifier longer than 1024 bytes"};
  if (!in.suite) return Error{Errc::invalid_argument, "canonical input: no suite"};
  if (in.body_hash.size() != body_hash_size(in.body_hash_alg) || body_hash_size(in.body_hash_alg) == 0)
    return Error{Errc::invalid_length, "canonical input: body hash has the wrong length"};

  bytes o;
  o.reserve(128 + in.body_hash.size());
  put_bytes(o, as_bytes(kDomain));
  put_bytes(o, as_bytes(in.protocol));
  put_u32(o, in.version);
  put_bytes(o, as_bytes(in.network));
  put_bytes(o, as_bytes(in.deployment));
  put_bytes(o, as_bytes(in.contract));
  put_bytes(o, as_bytes(in.kind));
  put_u8(o, static_cast<std::uint8_t>(in.purpose));
  put_u16(o, static_cast<std::uint16_t>(in.object_ids.size()));
  for (const auto& id : in.object_ids) put_bytes(o, id);
  put_u64(o, in.nonce);
  put_u64(o, in.expiry);
  put_bytes(o, as_bytes(in.suite->id));
  put_u32(o, static_cast<std::uint32_t>(in.suite->version));
  put_u8(o, static_cast<std::uint8_t>(in.body_hash_alg));
  put_bytes(o, in.body_hash);
  return o;
}

Result<SigningInput> decode(byte_span bin, DecodeError* why) {
  Cursor c{bin};
  auto field = [&](std::size_t limit, const char* name, byte_span& out) -> Status {
    if (!c.need(2)) return derr(DecodeError::truncated, std::string(name) + " length", why);
    std::size_t n = c.be(2);
    if (n > limit) return derr(DecodeError::overlong_length, std::string(name) + " length " + std::to_string(n), why);
    if (!c.need(n)) return derr(DecodeError::truncated, name, why);
    out = c.in.subspan(c.pos, n);
    c.pos += n;
    return {};
  };
  auto text = [&](const char* name, std::string& out) -> Status {
    byte_span b;
    if (auto st = field(kMaxText, name, b); !st) return st;
    out.assign(b.begin(), b.end());
    if (!printable(out)) return derr(DecodeError::bad_text, name, why);
    return {};
  };
  auto fixed = [&](std::size_t n, const char* name, std::uint64_t& v) -> Status {
    if (!c.need(n)) return derr(DecodeError::truncated, name, why);
    v = c.be(n);
    return {};
  };

  SigningInput r;
  byte_span dom;
  if (!c.need(2)) return derr(DecodeError::truncated, "domain", why);
  if (c.be(2) != kDomain.size()) return derr(DecodeError::bad_domain, "domain length", why);
  c.pos -= 2;
  if (auto st = field(kDomain.size(), "domain", dom); !st) return st.error();
  if (std::string_view(reinterpret_cast<const char*>(dom.data()), dom.size()) != kDomain)
    return derr(DecodeError::bad_domain, "domain", why);
  std::uint64_t v = 0;
  if (auto st = text("protocol", r.protocol); !st) return st.error();
  if (auto st = fixed(4, "version", v); !st) return st.error();
  r.version = static_cast<std::uint32_t>(v);
  if (auto st = text("network", r.network); !st) return st.error();
  if (auto st = text("deployment", r.deployment); !st) return st.error();
  if (auto st = text("contract", r.contract); !st) return st.error();
  if (auto st = text("kind", r.kind); !st) return st.error();
  if (auto st = fixed(1, "purpose", v); !st) return st.error();
  if (!valid_purpose_code(static_cast<std::uint8_t>(v))) return derr(DecodeError::bad_purpose, "purpose code " + std::to_string(v), why);
  r.purpose = static_cast<Purpose>(v);
  if (auto st = fixed(2, "object count", v); !st) return st.error();
  if (v > kMaxObjects) return derr(DecodeError::overlong_length, "object count " + std::to_string(v), why);
  for (std::uint64_t i = 0; i < v; ++i) {
    byte_span b;
    if (auto st = field(kMaxObjectId, "object identifier", b); !st) return st.error();
    r.object_ids.emplace_back(b.begin(), b.end());
  }
  if (auto st = fixed(8, "nonce", r.nonce); !st) return st.error();
  if (auto st = fixed(8, "expiry", r.expiry); !st) return st.error();
  std::string suite_id;
  if (auto st = text("suite", suite_id); !st) return st.error();
  if (auto st = fixed(4, "suite version", v); !st) return st.error();
  if (v > 0x7FFFFFFF) return derr(DecodeError::unknown_suite, "suite version", why);
  auto s = find_suite(suite_id, static_cast<int>(v));
  if (!s) return derr(DecodeError::unknown_suite, s.error().message, why);
  r.suite = *s;
  if (auto st = fixed(1, "body hash algorithm", v); !st) return st.error();
  if (v < 1 || v > 3) return derr(DecodeError::bad_hash, "body hash algorithm " + std::to_string(v), why);
  r.body_hash_alg = static_cast<BodyHash>(v);
  byte_span h;
  if (auto st = field(64, "body hash", h); !st) return st.error();
  if (h.size() != body_hash_size(r.body_hash_alg)) return derr(DecodeError::bad_hash, "body hash length", why);
  r.body_hash.assign(h.begin(), h.end());
  if (c.pos != bin.size()) return derr(DecodeError::trailing_bytes, std::to_string(bin.size() - c.pos) + " bytes", why);
  return r;
}

std::string purpose_context(Purpose p, const SuiteInfo& suite) {
  // Same convention as composite::application_context (one context format project-wide).
  return "pqsig/v1/" + std::string(purpose_name(p)) + "/" + std::string(suite.id);
}

}  // namespace pqsig::canonical
