// RSA JWK members (RFC 7518 §6.3) <-> the registry's RSA key forms (SPKI / PKCS#8 DER), through
// the classical layer's JWK-member accessors (include/pqsig/classical.hpp).
#include "jose/internal.hpp"
#include "pqsig/classical_suites.hpp"

namespace pqsig::jose::detail {

Status rsa_from_json(const json& j, KeyMaterial& m) {
  classical::JwkMembers mem;
  mem.kty = "RSA";
  for (auto [name, dst] : {std::pair{"n", &mem.n}, {"e", &mem.e}}) {
    auto v = get_b64u(j, name, "JWK");
    if (!v) return v.error();
    if (v->empty() || (*v)[0] == 0) return Error{Errc::invalid_encoding, std::string("JWK: \"") + name + "\" is not minimal"};
    *dst = std::move(*v);
  }
  if (j.contains("d")) {
    if (j.contains("oth")) return Error{Errc::unsupported, "JWK: multi-prime RSA keys are not supported"};
    for (auto [name, dst] : {std::pair{"d", &mem.d}, {"p", &mem.p}, {"q", &mem.q}, {"dp", &mem.dp}, {"dq", &mem.dq},
                             {"qi", &mem.qi}}) {
      if (!j.contains(name)) continue;  // the classical layer refuses a partial CRT set
      auto v = get_secret_b64u(j, name, "JWK");
      if (!v) return v.error();
      *dst = std::move(*v);
    }
    auto priv = classical::private_from_jwk_members(*m.suite, mem);
    if (!priv) return priv.error();
    m.priv = std::move(*priv);
  }
  auto pub = classical::public_from_jwk_members(*m.suite, mem);
  if (!pub) return pub.error();
  m.pub = std::move(*pub);
  return {};
}

Status rsa_to_json(const SuiteInfo& s, byte_span pub, const SecretBytes* priv, ojson& j) {
  auto mem = priv ? classical::jwk_members_private(s, priv->span()) : classical::jwk_members_public(s, pub);
  if (!mem) return mem.error();
  j["n"] = base64url_encode(mem->n);
  j["e"] = base64url_encode(mem->e);
  if (priv) {
    for (auto [name, src] : {std::pair{"d", &mem->d}, {"p", &mem->p}, {"q", &mem->q}, {"dp", &mem->dp},
                             {"dq", &mem->dq}, {"qi", &mem->qi}})
      j[name] = secret_base64url_encode(src->span());  // no table lookups indexed by the secret
  }
  return {};
}

}  // namespace pqsig::jose::detail
