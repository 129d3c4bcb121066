// JWS compact serialization (RFC 7515 §3.1, §5.1, §5.2, §7.1) for the suites with a JOSE "alg":
// ML-DSA-44/65/87 (RFC 9964 / draft-ietf-cose-dilithium: pure ML-DSA, empty context), EdDSA
// (RFC 8037), ES256/ES384 (raw r||s, RFC 7518 §3.4), PS512, RS256, HS256.
#include <string>

#include "jose/json_strict.hpp"
#include "pqsig/jose.hpp"

namespace pqsig::jose {

namespace {
using detail::json;
using detail::ojson;

Error bad(std::string m) { return Error{Errc::invalid_encoding, "JWS: " + std::move(m)}; }

bool alg_matches(const SuiteInfo& s, std::string_view alg) {
  if (s.jose_alg.empty()) return false;
  if (alg == s.jose_alg) return true;
  // RFC 8037 "EdDSA" and the fully-specified RFC 9864 names both name the Edwards suites.
  if (s.id == "ed25519") return alg == "EdDSA" || alg == "Ed25519";
  if (s.id == "ed448") return alg == "EdDSA" || alg == "Ed448";
  return false;
}

struct Parsed {
  std::string_view signing_input;
  bytes payload;
  bytes signature;
};

Result<Parsed> parse_compact(const SuiteInfo& s, std::string_view jws) {
  auto d1 = jws.find('.');
  if (d1 == std::string_view::npos) return bad("expected three base64url parts");
  auto d2 = jws.find('.', d1 + 1);
  if (d2 == std::string_view::npos || jws.find('.', d2 + 1) != std::string_view::npos)
    return bad("expected three base64url parts");
  auto hdr_b = base64url_decode(jws.substr(0, d1));
  if (!hdr_b) return bad("protected header is not base64url");
  std::string hdr_text(hdr_b->begin(), hdr_b->end());
  auto hdr = detail::parse_strict(hdr_text, "JWS header");
  if (!hdr) return hdr.error();
  if (!hdr->is_object()) return bad("protected header is not a JSON object");
  auto alg = detail::get_string(*hdr, "alg", "JWS header");
  if (!alg) return alg.error();
  if (!alg_matches(s, *alg))
    return Error{Errc::verify_failed, "JWS: alg '" + *alg + "' does not match the key (" + std::string(s.jose_alg) + ")"};
  // RFC 7515 §4.1.11: extensions we do not understand must be refused; RFC 7797 b64 likewise.
  if (hdr->contains("crit")) return Error{Errc::unsupported, "JWS: \"crit\" header parameters are not supported"};
  if (hdr->contains("b64")) return Error{Errc::unsupported, "JWS: unencoded payloads (b64) are not supported"};
  Parsed p;
  p.signing_input = jws.substr(0, d2);
  auto pl = base64url_decode(jws.substr(d1 + 1, d2 - d1 - 1));
  if (!pl) return bad("payload is not base64url");
  p.payload = std::move(*pl);
  auto sig = base64url_decode(jws.substr(d2 + 1));
  if (!sig) return bad("signature is not base64url");
  p.signature = std::move(*sig);
  return p;
}
}  // namespace

Result<std::string> jws_sign_compact(const SigningKey& key, byte_span payload, std::string_view kid,
                                     bool deterministic) {
  const SuiteInfo& s = key.suite();
  if (s.jose_alg.empty()) return Error{Errc::unsupported, "JWS: " + std::string(s.id) + " has no JOSE alg"};
  ojson h;
  h["alg"] = std::string(s.jose_alg);
  if (!kid.empty()) h["kid"] = std::string(kid);
  // RFC 7515 §5.1 steps 1-6: ASCII(BASE64URL(UTF8(header)) || '.' || BASE64URL(payload)).
  std::string header;
  try {
    header = h.dump();
  } catch (const std::exception&) {  // nlohmann type_error 316: "kid" is not valid UTF-8
    return Error{Errc::invalid_argument, "JWS: kid is not valid UTF-8"};
  }
  std::string input = base64url_encode(as_bytes(header)) + "." + base64url_encode(payload);
  SignOptions opt;
  opt.deterministic = deterministic;
  auto sig = key.sign(as_bytes(input), opt);
  if (!sig) return sig.error();
  return input + "." + base64url_encode(*sig);
}

Result<bytes> jws_verify_compact(const VerifyingKey& key, std::string_view jws) {
  auto p = parse_compact(key.suite(), jws);
  if (!p) return p.error();
  auto st = key.verify(as_bytes(p->signing_input), p->signature, {});
  if (!st) return st.error();
  return std::move(p->payload);
}

Result<bytes> jws_verify_compact(const SigningKey& key, std::string_view jws) {
  if (key.suite().cls != SuiteClass::mac) return Error{Errc::invalid_argument, "JWS: verify with a private key is for MAC suites"};
  auto p = parse_compact(key.suite(), jws);
  if (!p) return p.error();
  auto st = key.verify(as_bytes(p->signing_input), p->signature, {});
  if (!st) return st.error();
  return std::move(p->payload);
}

Result<std::string> jws_protected_header(std::string_view jws) {
  auto d1 = jws.find('.');
  if (d1 == std::string_view::npos) return bad("expected three base64url parts");
  auto h = base64url_decode(jws.substr(0, d1));
  if (!h) return bad("protected header is not base64url");
  return std::string(h->begin(), h->end());
}

}  // namespace pqsig::jose
