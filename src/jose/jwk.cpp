// JWK / JWKS (RFC 7517) for every key type of the registry and RFC 7638 thumbprints.
//   AKP  (draft-ietf-cose-dilithium / RFC 9964): ML-DSA, SLH-DSA, ML-KEM, composites, hybrid KEMs
//        {"kty":"AKP","alg":…,"pub":b64url(pk),"priv":b64url(canonical private key / seed)}
//   OKP  (RFC 8037): Ed25519, Ed448           {"kty":"OKP","crv":…,"x":…,"d":…}
//   EC   (RFC 7518 §6.2): P-256, P-384          {"kty":"EC","crv":…,"x":…,"y":…,"d":…}
//   RSA  (RFC 7518 §6.3)                        {"kty":"RSA","n":…,"e":…,"d":…,"p":…,…}
//   oct  (RFC 7518 §6.4): HMAC                  {"kty":"oct","k":…}
#include <algorithm>
#include <cstring>
#include <string>

#include "jose/internal.hpp"
#include "jose/json_strict.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/jose.hpp"

namespace pqsig::jose {

using detail::json;
using detail::ojson;

namespace {

Error enc(std::string m) { return Error{Errc::invalid_encoding, "JWK: " + std::move(m)}; }

bool is_akp_family(const SuiteInfo& s) {
  return s.family == Family::ml_dsa || s.family == Family::slh_dsa || s.family == Family::ml_kem || s.family == Family::composite ||
         s.family == Family::hybrid_kem;
}

std::string_view akp_alg(const SuiteInfo& s) { return s.jose_alg.empty() ? s.id : s.jose_alg; }

Result<const SuiteInfo*> akp_suite(std::string_view alg) {
  for (const auto& s : all_suites())
    if (is_akp_family(s) && akp_alg(s) == alg) return &s;
  return Error{Errc::unknown_suite, "JWK: unknown AKP alg '" + std::string(alg) + "'"};
}

struct Curve {
  std::string_view crv;
  std::string_view suite;
  std::size_t coord;  // field element / scalar bytes
};
constexpr Curve kEcCurves[] = {{"P-256", "ecdsa-p256-sha256", 32}, {"P-384", "ecdsa-p384-sha384", 48}};
constexpr Curve kOkpCurves[] = {{"Ed25519", "ed25519", 32}, {"Ed448", "ed448", 57}};

const Curve* ec_curve_of(const SuiteInfo& s) {
  for (const auto& c : kEcCurves) if (c.suite == s.id) return &c;
  return nullptr;
}
const Curve* okp_curve_of(const SuiteInfo& s) {
  for (const auto& c : kOkpCurves) if (c.suite == s.id) return &c;
  return nullptr;
}

// The curve (and its registry suite) a JWK's "crv" names, looked up in the kty's table
// (OKP: RFC 8037 §2; EC: RFC 7518 §6.2.1.1).
struct NamedCurve {
  const Curve* curve;
  const SuiteInfo* suite;
  std::string crv;
};
template <std::size_t N>
Result<NamedCurve> named_curve(const json& j, const Curve (&table)[N], std::string_view kty) {
  auto crv = detail::get_string(j, "crv", "JWK");
  if (!crv) return crv.error();
  const Curve* c = nullptr;
  for (const auto& k : table) if (k.crv == *crv) c = &k;
  if (!c) return Error{Errc::unknown_suite, "JWK: unsupported " + std::string(kty) + " curve '" + *crv + "'"};
  auto s = find_suite(c->suite);
  if (!s) return s.error();
  return NamedCurve{c, *s, std::move(*crv)};
}

std::string kty_of(const SuiteInfo& s) {
  if (is_akp_family(s)) return "AKP";
  if (okp_curve_of(s)) return "OKP";
  if (ec_curve_of(s)) return "EC";
  if (s.id.starts_with("rsa-")) return "RSA";
  if (s.cls == SuiteClass::mac) return "oct";
  return "";
}

std::string b64u(byte_span b) { return base64url_encode(b); }
// Private members are encoded without table lookups indexed by the secret.
std::string base64url_encode_secret(const SecretBytes& b) { return secret_base64url_encode(b.span()); }

// Resolve a suite hint and check it agrees with what the JWK says.
Result<const SuiteInfo*> reconcile(const SuiteInfo* from_jwk, std::string_view hint) {
  if (hint.empty()) {
    if (!from_jwk) return Error{Errc::invalid_argument, "JWK: key does not name its suite (add \"alg\" or give the suite)"};
    return from_jwk;
  }
  auto h = parse_suite_ref(hint);
  if (!h) return h.error();
  if (from_jwk && from_jwk != *h)
    return Error{Errc::invalid_argument, "JWK: key is " + std::string(from_jwk->id) + ", not " + std::string((*h)->id)};
  return *h;
}

}  // namespace

namespace detail {

// ---------------------------------------------------------------- JSON → raw key material
Result<KeyMaterial> material_from_json(const json& j, std::string_view suite_hint) {
  if (!j.is_object()) return enc("not a JSON object");
  auto kty = get_string(j, "kty", "JWK");
  if (!kty) return kty.error();
  bool has_alg = false;
  auto alg = get_opt_string(j, "alg", "JWK", has_alg);
  if (!alg) return alg.error();
  KeyMaterial m;
  // Secret members are decoded in constant time straight into SecretBytes, so every return
  // below (wrong length, mismatched alg, ...) wipes them.
  auto opt_secret = [&](const char* name, bool& has) -> Result<SecretBytes> {
    has = j.contains(name);
    if (!has) return SecretBytes{};
    return get_secret_b64u(j, name, "JWK");
  };
  // The optional private scalar "d" of an OKP / EC key: exactly the curve's length
  // (RFC 8037 §2, RFC 7518 §6.2.2.1).
  auto opt_curve_d = [&](const Curve& c, const std::string& crv) -> Status {
    bool has_d = false;
    auto d = opt_secret("d", has_d);
    if (!d) return d.error();
    if (has_d) {
      if (d->size() != c.coord) return Error{Errc::invalid_length, "JWK: \"d\" has the wrong length for " + crv};
      m.priv = std::move(*d);
    }
    return {};
  };

  if (*kty == "AKP") {
    if (!has_alg) return enc("AKP key without \"alg\"");
    auto s = akp_suite(*alg);
    if (!s) return s.error();
    auto r = reconcile(*s, suite_hint);
    if (!r) return r.error();
    m.suite = *r;
    bool has_priv = false;
    auto priv = opt_secret("priv", has_priv);
    if (!priv) return priv.error();
    if (has_priv) m.priv = std::move(*priv);
    // A private AKP key may carry "priv" alone (the seed, as WebCrypto exports and imports it):
    // the public key is derived from it (load_material); when "pub" is present it must match.
    if (!has_priv || j.contains("pub")) {
      auto pub = get_b64u(j, "pub", "JWK");
      if (!pub) return pub.error();
      m.pub = std::move(*pub);
    }
  } else if (*kty == "OKP") {
    auto nc = named_curve(j, kOkpCurves, "OKP");
    if (!nc) return nc.error();
    const Curve* c = nc->curve;
    const std::string& crv = nc->crv;
    if (has_alg && *alg != "EdDSA" && *alg != nc->suite->jose_alg && *alg != c->crv)
      return enc("alg '" + *alg + "' does not match curve " + crv);
    auto r = reconcile(nc->suite, suite_hint);
    if (!r) return r.error();
    m.suite = *r;
    auto x = get_b64u(j, "x", "JWK");
    if (!x) return x.error();
    if (x->size() != c->coord) return Error{Errc::invalid_length, "JWK: \"x\" has the wrong length for " + crv};
    m.pub = std::move(*x);
    if (Status st = opt_curve_d(*c, crv); !st) return st.error();
  } else if (*kty == "EC") {
    auto nc = named_curve(j, kEcCurves, "EC");
    if (!nc) return nc.error();
    const Curve* c = nc->curve;
    const std::string& crv = nc->crv;
    if (has_alg && *alg != nc->suite->jose_alg) return enc("alg '" + *alg + "' does not match curve " + crv);
    auto r = reconcile(nc->suite, suite_hint);
    if (!r) return r.error();
    m.suite = *r;
    auto x = get_b64u(j, "x", "JWK");
    if (!x) return x.error();
    auto y = get_b64u(j, "y", "JWK");
    if (!y) return y.error();
    // RFC 7518 §6.2.1.2/3: x and y are the full-length field elements.
    if (x->size() != c->coord || y->size() != c->coord)
      return Error{Errc::invalid_length, "JWK: \"x\"/\"y\" have the wrong length for " + crv};
    m.pub.push_back(0x04);  // SEC 1 §2.3.3 uncompressed point
    m.pub.insert(m.pub.end(), x->begin(), x->end());
    m.pub.insert(m.pub.end(), y->begin(), y->end());
    if (Status st = opt_curve_d(*c, crv); !st) return st.error();
  } else if (*kty == "RSA") {
    const SuiteInfo* s = nullptr;
    if (has_alg) {
      for (const auto& e : all_suites())
        if (e.id.starts_with("rsa-") && e.jose_alg == *alg) s = &e;
      if (!s) return Error{Errc::unknown_suite, "JWK: unsupported RSA alg '" + *alg + "'"};
    }
    auto r = reconcile(s, suite_hint);
    if (!r) return r.error();
    if (!(*r)->id.starts_with("rsa-")) return enc("RSA key for non-RSA suite");
    m.suite = *r;
    auto st = rsa_from_json(j, m);
    if (!st) return st.error();
  } else if (*kty == "oct") {
    const SuiteInfo* s = nullptr;
    if (has_alg) {
      for (const auto& e : all_suites())
        if (e.cls == SuiteClass::mac && e.jose_alg == *alg) s = &e;
      if (!s) return Error{Errc::unknown_suite, "JWK: unsupported oct alg '" + *alg + "'"};
    }
    auto r = reconcile(s, suite_hint);
    if (!r) return r.error();
    if ((*r)->cls != SuiteClass::mac) return enc("oct key for a non-MAC suite");
    m.suite = *r;
    auto k = get_secret_b64u(j, "k", "JWK");
    if (!k) return k.error();
    m.priv = std::move(*k);
  } else {
    return Error{Errc::unknown_suite, "JWK: unsupported kty '" + *kty + "'"};
  }

  const SuiteInfo& s = *m.suite;
  const bool derive_pub = m.pub.empty() && m.priv && *kty == "AKP";
  if (!derive_pub && s.cls != SuiteClass::mac && s.public_key_size && m.pub.size() != s.public_key_size)
    return Error{Errc::invalid_length, "JWK: public key has " + std::to_string(m.pub.size()) + " bytes, " +
                                           std::string(s.id) + " needs " + std::to_string(s.public_key_size)};
  if (m.priv && s.private_key_size && s.cls != SuiteClass::mac && m.priv->size() != s.private_key_size)
    return Error{Errc::invalid_length, "JWK: private key has " + std::to_string(m.priv->size()) + " bytes, " +
                                           std::string(s.id) + " needs " + std::to_string(s.private_key_size)};
  return m;
}

// ---------------------------------------------------------------- raw key material → objects
Result<LoadedKey> load_material(KeyMaterial m) {
  LoadedKey k;
  const SuiteInfo& s = *m.suite;
  k.suite = &s;
  if (s.cls == SuiteClass::kem) {
    if (m.priv) {
      auto p = KemPrivateKey::from_private(s, m.priv->span());
      if (!p) return p.error();
      if (!m.pub.empty() && !std::equal(m.pub.begin(), m.pub.end(), p->public_key().begin(), p->public_key().end()))
        return Error{Errc::key_check_failed, "key: public key does not match the private key"};
      if (m.pub.empty()) m.pub.assign(p->public_key().begin(), p->public_key().end());
      k.kem_private.emplace(std::move(*p));
    }
    auto q = KemPublicKey::from_public(s, m.pub);
    if (!q) return q.error();
    k.kem_public.emplace(std::move(*q));
  } else if (s.cls == SuiteClass::mac) {
    if (!m.priv) return Error{Errc::invalid_encoding, "key: MAC key without key bytes"};
    auto p = SigningKey::from_private(s, m.priv->span());
    if (!p) return p.error();
    k.signing.emplace(std::move(*p));
  } else {
    if (m.priv) {
      auto p = SigningKey::from_private(s, m.priv->span());
      if (!p) return p.error();
      auto pk = p->public_key();
      if (!m.pub.empty() && !std::equal(m.pub.begin(), m.pub.end(), pk.begin(), pk.end()))
        return Error{Errc::key_check_failed, "key: public key does not match the private key"};
      if (m.pub.empty()) m.pub.assign(pk.begin(), pk.end());
      k.signing.emplace(std::move(*p));
    }
    auto v = VerifyingKey::from_public(s, m.pub);
    if (!v) return v.error();
    k.verifying.emplace(std::move(*v));
  }
  return k;
}

// ---------------------------------------------------------------- raw key material → JSON
Result<std::string> jwk_from_material(const SuiteInfo& s, byte_span pub, const SecretBytes* priv) {
  ojson j;
  detail::JsonWipe<ojson> wipe_j(j);  // the private members' base64url copies
  j["kid"] = "";  // placeholder keeps "kid" first (the order of the draft's examples)
  std::string kty = kty_of(s);
  if (kty.empty()) return Error{Errc::unsupported, "JWK: no JWK form for " + std::string(s.id)};
  j["kty"] = kty;
  if (kty == "AKP") {
    j["alg"] = std::string(akp_alg(s));
    j["pub"] = b64u(pub);
    if (priv) j["priv"] = base64url_encode_secret(*priv);
  } else if (kty == "OKP") {
    const Curve* c = okp_curve_of(s);
    j["crv"] = std::string(c->crv);
    j["alg"] = std::string(s.jose_alg);
    if (pub.size() != c->coord) return Error{Errc::internal, "JWK: unexpected OKP public key size"};
    j["x"] = b64u(pub);
    if (priv) j["d"] = base64url_encode_secret(*priv);
  } else if (kty == "EC") {
    const Curve* c = ec_curve_of(s);
    j["crv"] = std::string(c->crv);
    j["alg"] = std::string(s.jose_alg);
    if (pub.size() != 1 + 2 * c->coord || pub[0] != 0x04) return Error{Errc::internal, "JWK: unexpected EC point form"};
    j["x"] = b64u(pub.subspan(1, c->coord));
    j["y"] = b64u(pub.subspan(1 + c->coord, c->coord));
    if (priv) j["d"] = base64url_encode_secret(*priv);
  } else if (kty == "RSA") {
    j["alg"] = std::string(s.jose_alg);
    auto st = rsa_to_json(s, pub, priv, j);
    if (!st) return st.error();
  } else {  // oct
    if (!priv) return Error{Errc::unsupported, "JWK: a MAC key has no public form"};
    j["alg"] = std::string(s.jose_alg);
    j["k"] = base64url_encode_secret(*priv);
  }
  std::string text = j.dump();
  auto tp = thumbprint(text);
  if (!tp) return tp.error();
  j["kid"] = *tp;
  std::string out = j.dump();
  secure_zero(text.data(), text.size());
  return out;
}

}  // namespace detail

// ---------------------------------------------------------------- thumbprints (RFC 7638)
Result<std::string> thumbprint_input(std::string_view jwk_json) {
  auto j = detail::parse_strict(jwk_json, "JWK");
  if (!j) return j.error();
  detail::JsonWipe<json> wipe_j(*j);  // a private JWK's secret members
  if (!j->is_object()) return enc("not a JSON object");
  auto kty = detail::get_string(*j, "kty", "JWK");
  if (!kty) return kty.error();
  // RFC 7638 §3.2 (EC, RSA, oct), RFC 8037 §2 (OKP), draft-ietf-cose-dilithium "AKP Thumbprints".
  std::vector<const char*> req;
  if (*kty == "AKP") req = {"alg", "kty", "pub"};
  else if (*kty == "OKP") req = {"crv", "kty", "x"};
  else if (*kty == "EC") req = {"crv", "kty", "x", "y"};
  else if (*kty == "RSA") req = {"e", "kty", "n"};
  else if (*kty == "oct") req = {"k", "kty"};
  else return Error{Errc::unknown_suite, "JWK: no thumbprint rule for kty '" + *kty + "'"};
  // RFC 7638 §3.3: members in lexicographic order (the lists above are), no whitespace.
  // An oct key's thumbprint input holds "k" (a secret): every buffer here is wiped or sized
  // once, so no partial copy is freed unwiped.
  std::size_t cap = 2;
  for (const char* name : req) {
    auto it = j->find(name);
    if (it == j->end()) return enc(std::string("missing \"") + name + "\"");
    if (!it->is_string()) return enc(std::string("\"") + name + "\" is not a string");
    cap += std::strlen(name) + 4 + 6 * it->get_ref<const json::string_t&>().size() + 2;
  }
  std::string out;
  out.reserve(cap);
  out += "{";
  for (std::size_t i = 0; i < req.size(); ++i) {
    const auto& v = j->find(req[i])->get_ref<const json::string_t&>();
    if (i) out += ",";
    out += '"';
    out += req[i];
    out += "\":";
    const json::string_t quoted = json(v).dump(-1, ' ', false, json::error_handler_t::strict);  // wiped when freed
    out.append(quoted.data(), quoted.size());
  }
  out += "}";
  return out;
}

Result<std::string> thumbprint(std::string_view jwk_json) {
  auto in = thumbprint_input(jwk_json);
  if (!in) return in.error();
  auto d = hash::sha256(as_bytes(*in));
  secure_zero(in->data(), in->size());  // an oct key's input holds "k"
  return base64url_encode(d);
}

// ---------------------------------------------------------------- public API
Result<std::string> to_jwk(const SigningKey& key, bool include_private) {
  SecretBytes priv(key.private_key());
  return detail::jwk_from_material(key.suite(), key.public_key(), include_private ? &priv : nullptr);
}
Result<std::string> to_jwk(const VerifyingKey& key) {
  return detail::jwk_from_material(key.suite(), key.public_key(), nullptr);
}
Result<std::string> to_jwk(const KemPrivateKey& key, bool include_private) {
  // "priv" is the seed; an ML-KEM key imported from its expanded dk alone (PKCS#8) has none.
  if (include_private && key.valid() && key.suite().private_key_size &&
      key.private_key().size() != key.suite().private_key_size)
    return Error{Errc::unsupported, std::string(key.suite().id) +
                                        ": a key imported from the expanded dk has no seed to write as \"priv\""};
  SecretBytes priv(key.private_key());
  return detail::jwk_from_material(key.suite(), key.public_key(), include_private ? &priv : nullptr);
}
Result<std::string> to_jwk(const KemPublicKey& key) {
  return detail::jwk_from_material(key.suite(), key.public_key(), nullptr);
}
Result<std::string> to_jwk(const LoadedKey& key, bool include_private) {
  if (include_private && key.signing) return to_jwk(*key.signing, true);
  if (include_private && key.kem_private) return to_jwk(*key.kem_private, true);
  if (key.verifying) return to_jwk(*key.verifying);
  if (key.kem_public) return to_jwk(*key.kem_public);
  if (key.signing) return to_jwk(*key.signing, false);  // MAC: reports "no public form"
  return Error{Errc::invalid_argument, "JWK: empty key"};
}

Result<LoadedKey> load_jwk(std::string_view text, std::string_view suite_hint) {
  auto j = detail::parse_strict(text, "JWK");
  if (!j) return j.error();
  detail::JsonWipe<json> wipe_j(*j);  // the JSON copies of "d" / "priv" / "k" / RSA CRT members
  auto m = detail::material_from_json(*j, suite_hint);
  if (!m) return m.error();
  const bool derived_pub = m->pub.empty() && m->priv && j->value("kty", "") == "AKP";
  const SuiteInfo* suite = m->suite;
  auto k = detail::load_material(std::move(*m));
  if (!k) return k.error();
  // RFC 7638 over the JWK as given, or (AKP "priv" only) over the public JWK derived from it.
  Result<std::string> tp = Error{Errc::internal, "JWK: no thumbprint"};
  if (derived_pub) {
    byte_span pub = k->verifying ? k->verifying->public_key() : k->kem_public ? k->kem_public->public_key() : byte_span{};
    auto pj = detail::jwk_from_material(*suite, pub, nullptr);
    if (!pj) return pj.error();
    tp = thumbprint(*pj);
  } else {
    tp = thumbprint(text);
  }
  if (!tp) return tp.error();
  k->thumbprint = *tp;
  if (auto it = j->find("kid"); it != j->end()) {
    if (!it->is_string()) return enc("\"kid\" is not a string");
    const auto& v = it->get_ref<const json::string_t&>();
    k->kid.assign(v.begin(), v.end());
  }
  return k;
}

Result<std::string> public_jwk(std::string_view jwk_json, std::string_view suite_hint) {
  auto k = load_jwk(jwk_json, suite_hint);
  if (!k) return k.error();
  return to_jwk(*k, false);
}

Result<std::vector<LoadedKey>> load_jwks(std::string_view text) {
  auto j = detail::parse_strict(text, "JWKS");
  if (!j) return j.error();
  detail::JsonWipe<json> wipe_j(*j);
  auto keys = j->is_object() ? j->find("keys") : j->end();
  if (keys == j->end() || !keys->is_array()) return Error{Errc::invalid_encoding, "JWKS: expected {\"keys\":[...]}"};
  std::vector<LoadedKey> out;
  std::size_t i = 0;
  for (const auto& e : *keys) {
    const auto one = e.dump();  // wiped_string: wiped when freed
    auto k = load_jwk(std::string_view(one.data(), one.size()));
    if (!k) return Error{k.error().code, "JWKS: key " + std::to_string(i) + ": " + k.error().message};
    out.push_back(std::move(*k));
    ++i;
  }
  return out;
}

Result<std::string> make_jwks(const std::vector<std::string>& jwks) {
  ojson out;
  detail::JsonWipe<ojson> wipe_out(out);  // private JWKs given by the caller
  out["keys"] = ojson::array();
  for (const auto& t : jwks) {
    auto k = load_jwk(t);
    if (!k) return k.error();
    auto e = ojson::parse(t, nullptr, false);  // load_jwk accepted it: valid, bounded JSON
    if (e.is_discarded()) return Error{Errc::internal, "JWKS: key text did not re-parse"};
    out["keys"].push_back(std::move(e));
  }
  return out.dump();
}

}  // namespace pqsig::jose
