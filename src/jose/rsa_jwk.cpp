// RSA JWK members (RFC 7518 §6.3) <-> DER RSA keys (RFC 8017 Appendix A.1): the registry's RSA
// public key is an RSAPublicKey or a SubjectPublicKeyInfo, its private key an RSAPrivateKey or a
// PKCS#8 PrivateKeyInfo (both accepted on input; PKCS#1 produced).
#include "jose/der.hpp"
#include "jose/internal.hpp"

namespace pqsig::jose::detail {

namespace {
constexpr std::string_view kRsaOid = "1.2.840.113549.1.1.1";

// Unwrap SPKI → RSAPublicKey contents, or accept RSAPublicKey directly.
Result<std::vector<bytes>> rsa_ints(byte_span in, std::size_t count, bool is_private) {
  auto top = der::parse_single(in, der::tag::sequence, "RSA key");
  if (!top) return top.error();
  der::Reader r(top->contents);
  byte_span body = top->contents;
  if (r.peek_tag() == der::tag::sequence && !is_private) {  // SubjectPublicKeyInfo
    auto alg = r.next();
    auto bits = r.expect(der::tag::bit_string, "subjectPublicKey");
    if (!bits) return bits.error();
    if (bits->contents.empty() || bits->contents[0] != 0) return Error{Errc::invalid_encoding, "DER: bad BIT STRING"};
    auto inner = der::parse_single(bits->contents.subspan(1), der::tag::sequence, "RSAPublicKey");
    if (!inner) return inner.error();
    body = inner->contents;
  } else if (is_private) {
    der::Reader p(top->contents);
    auto v = p.expect(der::tag::integer, "version");
    if (!v) return v.error();
    if (p.peek_tag() == der::tag::sequence) {  // PKCS#8 PrivateKeyInfo
      auto alg = p.next();
      auto os = p.expect(der::tag::octet_string, "privateKey");
      if (!os) return os.error();
      auto inner = der::parse_single(os->contents, der::tag::sequence, "RSAPrivateKey");
      if (!inner) return inner.error();
      body = inner->contents;
    }
  }
  der::Reader b(body);
  std::vector<bytes> out;
  if (is_private) {
    auto v = b.expect(der::tag::integer, "version");
    if (!v) return v.error();
  }
  for (std::size_t i = 0; i < count; ++i) {
    auto e = b.expect(der::tag::integer, "RSA integer");
    if (!e) return e.error();
    auto m = der::parse_unsigned_big(e->contents);
    if (!m) return m.error();
    out.push_back(std::move(*m));
  }
  if (!is_private) {
    if (auto s = b.finish("RSAPublicKey"); !s) return s.error();
  }
  return out;
}

bytes der_concat(const std::vector<bytes>& parts) {
  bytes c;
  for (const auto& p : parts) c.insert(c.end(), p.begin(), p.end());
  return der::tlv(der::tag::sequence, c);
}
}  // namespace

Status rsa_from_json(const json& j, KeyMaterial& m) {
  static const char* kPub[] = {"n", "e"};
  static const char* kPriv[] = {"d", "p", "q", "dp", "dq", "qi"};
  std::vector<bytes> ints;
  for (const char* name : kPub) {
    auto v = get_b64u(j, name, "JWK");
    if (!v) return v.error();
    if (v->empty() || (*v)[0] == 0) return Error{Errc::invalid_encoding, std::string("JWK: \"") + name + "\" is not minimal"};
    ints.push_back(der::unsigned_big(*v));
  }
  m.pub = der_concat(ints);
  if (j.contains("d")) {
    if (j.contains("oth")) return Error{Errc::unsupported, "JWK: multi-prime RSA keys are not supported"};
    std::vector<bytes> all{der::integer(0), ints[0], ints[1]};
    for (const char* name : kPriv) {
      auto v = get_b64u(j, name, "JWK");
      if (!v) return Error{Errc::invalid_encoding, std::string("JWK: RSA private key needs \"") + name + "\" (CRT form)"};
      all.push_back(der::unsigned_big(*v));
      secure_zero(v->data(), v->size());
    }
    bytes sk = der_concat(all);
    m.priv = SecretBytes(sk);
    secure_zero(sk.data(), sk.size());
    for (auto& a : all) secure_zero(a.data(), a.size());
  }
  return {};
}

Status rsa_to_json(byte_span pub, const SecretBytes* priv, ojson& j) {
  auto p = rsa_ints(pub, 2, false);
  if (!p) return p.error();
  j["n"] = base64url_encode((*p)[0]);
  j["e"] = base64url_encode((*p)[1]);
  if (priv) {
    auto s = rsa_ints(priv->span(), 8, true);
    if (!s) return s.error();
    static const char* kNames[] = {"d", "p", "q", "dp", "dq", "qi"};
    for (int i = 0; i < 6; ++i) {
      j[kNames[i]] = base64url_encode((*s)[static_cast<std::size_t>(i) + 2]);
      secure_zero((*s)[static_cast<std::size_t>(i) + 2].data(), (*s)[static_cast<std::size_t>(i) + 2].size());
    }
  }
  (void)kRsaOid;
  return {};
}

}  // namespace pqsig::jose::detail
