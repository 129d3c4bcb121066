// SPKI (RFC 5280 §4.1.2.7) and PKCS#8 / OneAsymmetricKey (RFC 5958) key containers:
//   ML-DSA  RFC 9881 (draft-ietf-lamps-dilithium-certificates): id-ml-dsa-44/65/87 =
//           2.16.840.1.101.3.4.3.17/18/19, parameters absent, pk raw in the BIT STRING,
//           ML-DSA-PrivateKey ::= CHOICE { seed [0] OCTET STRING (SIZE (32)),
//           expandedKey OCTET STRING (SIZE (2560|4032|4896)), both SEQUENCE {seed, expandedKey} }
//   ML-KEM  RFC 9935 (draft-ietf-lamps-kyber-certificates): id-alg-ml-kem-512/768/1024 =
//           2.16.840.1.101.3.4.4.1/2/3, same CHOICE with a 64-byte seed (d || z) and the FIPS 203
//           dk as expandedKey.
//   SLH-DSA RFC 9909 (draft-ietf-lamps-x509-slhdsa): id-slh-dsa-sha2-128s … id-slh-dsa-shake-256f
//           = 2.16.840.1.101.3.4.3.20 … 31, parameters absent, pk = PK.seed || PK.root raw in the
//           BIT STRING, privateKey = the raw FIPS 205 SK (4n bytes) with no inner wrapping.
// We write the seed-only form (SLH-DSA: its only form) and read all three: `both` must agree
// (the seed expands to the given expanded key); an ML-KEM expandedKey passes the FIPS 203 §7.3
// hash check and its ek the §7.2 modulus check; an SPKI ML-KEM key the §7.2 check.
#include <algorithm>
#include <string>

#include <optional>

#include "jose/der.hpp"
#include "jose/internal.hpp"
#include "pqsig/classical_suites.hpp"
#include "pqsig/mlkem.hpp"

namespace pqsig::jose {

namespace {
struct OidRow {
  std::string_view suite;
  std::string_view oid;
  std::size_t seed_len;  ///< seed of the CHOICE form; 0 = the raw private key (SLH-DSA)
};
constexpr OidRow kOids[] = {
    {"ml-dsa-44", "2.16.840.1.101.3.4.3.17", 32},  {"ml-dsa-65", "2.16.840.1.101.3.4.3.18", 32},
    {"ml-dsa-87", "2.16.840.1.101.3.4.3.19", 32},  {"ml-kem-512", "2.16.840.1.101.3.4.4.1", 64},
    {"ml-kem-768", "2.16.840.1.101.3.4.4.2", 64},  {"ml-kem-1024", "2.16.840.1.101.3.4.4.3", 64},
    // RFC 9909 §3 (NIST CSOR sigAlgs 20..31).
    {"slh-dsa-sha2-128s", "2.16.840.1.101.3.4.3.20", 0},  {"slh-dsa-sha2-128f", "2.16.840.1.101.3.4.3.21", 0},
    {"slh-dsa-sha2-192s", "2.16.840.1.101.3.4.3.22", 0},  {"slh-dsa-sha2-192f", "2.16.840.1.101.3.4.3.23", 0},
    {"slh-dsa-sha2-256s", "2.16.840.1.101.3.4.3.24", 0},  {"slh-dsa-sha2-256f", "2.16.840.1.101.3.4.3.25", 0},
    {"slh-dsa-shake-128s", "2.16.840.1.101.3.4.3.26", 0}, {"slh-dsa-shake-128f", "2.16.840.1.101.3.4.3.27", 0},
    {"slh-dsa-shake-192s", "2.16.840.1.101.3.4.3.28", 0}, {"slh-dsa-shake-192f", "2.16.840.1.101.3.4.3.29", 0},
    {"slh-dsa-shake-256s", "2.16.840.1.101.3.4.3.30", 0}, {"slh-dsa-shake-256f", "2.16.840.1.101.3.4.3.31", 0},
};

// FIPS 203 parameter set of an ML-KEM row.
std::optional<mlkem::ParameterSet> mlkem_of(const SuiteInfo& s) {
  if (s.family == Family::ml_kem) return s.params.mlkem;
  return std::nullopt;
}

const OidRow* row_for(const SuiteInfo& s) {
  for (const auto& r : kOids) if (r.suite == s.id) return &r;
  return nullptr;
}

Error pkix_bad(std::string m) { return Error{Errc::invalid_encoding, std::move(m)}; }

bytes algorithm_identifier(const OidRow& r) {
  bytes o = der::oid(r.oid);
  return der::sequence({o});  // RFC 9881 §2: parameters MUST be absent
}

// AlgorithmIdentifier → suite (parameters must be absent).
Result<const OidRow*> parse_algorithm(byte_span contents) {
  der::Reader r(contents);
  auto o = r.expect(der::tag::oid, "algorithm OID");
  if (!o) return o.error();
  auto dotted = der::oid_to_string(o->contents);
  if (!dotted) return dotted.error();
  for (const auto& row : kOids) {
    if (row.oid != *dotted) continue;
    if (!r.empty()) return pkix_bad("AlgorithmIdentifier: parameters must be absent");
    return &row;
  }
  return Error{Errc::unknown_suite, "no suite for algorithm OID " + *dotted};
}

Result<LoadedKey> finish_key(detail::KeyMaterial m) {
  const SuiteInfo* s = m.suite;
  bytes pub = m.pub;
  auto k = detail::load_material(std::move(m));
  if (!k) return k.error();
  if (pub.empty()) {
    if (k->verifying) pub.assign(k->verifying->public_key().begin(), k->verifying->public_key().end());
    else if (k->kem_public) pub.assign(k->kem_public->public_key().begin(), k->kem_public->public_key().end());
  }
  auto jwk = detail::jwk_from_material(*s, pub, nullptr);
  if (!jwk) return jwk.error();
  auto tp = thumbprint(*jwk);
  if (!tp) return tp.error();
  k->thumbprint = *tp;
  return k;
}
}  // namespace

Result<const SuiteInfo*> suite_for_oid(std::string_view dotted) {
  for (const auto& r : kOids)
    if (r.oid == dotted) return find_suite(r.suite);
  return Error{Errc::unknown_suite, "no suite for algorithm OID " + std::string(dotted)};
}

Result<std::string> oid_for_suite(const SuiteInfo& s) {
  const auto* r = row_for(s);
  if (!r) return Error{Errc::unsupported, std::string(s.id) + ": no SPKI/PKCS#8 form"};
  return std::string(r->oid);
}

// RFC 5280 §4.1: SubjectPublicKeyInfo ::= SEQUENCE { algorithm, subjectPublicKey BIT STRING }.
Result<bytes> to_spki_der(const SuiteInfo& s, byte_span pub) {
  const auto* r = row_for(s);
  if (!r && s.family == Family::classical) return classical::export_spki_der(s, pub);
  if (!r) return Error{Errc::unsupported, std::string(s.id) + ": no SPKI form"};
  if (pub.size() != s.public_key_size) return Error{Errc::invalid_length, "SPKI: wrong public key length"};
  bytes alg = algorithm_identifier(*r);
  bytes bits = der::bit_string(pub);
  return der::sequence({alg, bits});
}

namespace {
// RFC 5958 §2: OneAsymmetricKey v1 (version 0): the seed-only private key CHOICE, or for
// SLH-DSA (RFC 9909 §6) the raw SK.
Result<bytes> pkcs8_of(const SuiteInfo& s, byte_span priv) {
  const auto* r = row_for(s);
  if (!r) return Error{Errc::unsupported, std::string(s.id) + ": no PKCS#8 form"};
  const std::size_t want = r->seed_len ? r->seed_len : s.private_key_size;
  if (priv.size() != want) return Error{Errc::invalid_length, std::string(s.id) + ": PKCS#8 needs the " +
                                                                  std::to_string(want) + "-byte private key"};
  bytes ver = der::integer(0);
  bytes alg = algorithm_identifier(*r);
  bytes choice = r->seed_len ? der::tlv(der::tag::ctx0_prim, priv)  // seed [0] IMPLICIT OCTET STRING
                             : bytes(priv.begin(), priv.end());     // SLH-DSA: the SK itself
  bytes os = der::tlv(der::tag::octet_string, choice);
  bytes out = der::sequence({ver, alg, os});
  secure_zero(choice.data(), choice.size());
  secure_zero(os.data(), os.size());
  return out;
}
}  // namespace

Result<bytes> to_pkcs8_der(const SigningKey& key) {
  const auto* r = row_for(key.suite());
  if (!r && key.suite().family == Family::classical) {
    auto d = classical::export_pkcs8_der(key.suite(), key.private_key());
    if (!d) return d.error();
    return bytes(d->span().begin(), d->span().end());
  }
  return pkcs8_of(key.suite(), key.private_key());
}

Result<bytes> to_pkcs8_der(const KemPrivateKey& key) {
  if (!key.valid()) return Error{Errc::invalid_argument, "PKCS#8: empty key"};
  if (key.private_key().size() != mlkem::kSeedSize && mlkem_of(key.suite()))
    return Error{Errc::unsupported, std::string(key.suite().id) +
                                        ": PKCS#8 is written from the 64-byte seed; this key was imported expanded"};
  return pkcs8_of(key.suite(), key.private_key());
}

Result<std::string> to_pkcs8_pem(const KemPrivateKey& key) {
  auto d = to_pkcs8_der(key);
  if (!d) return d.error();
  std::string pem = der::pem_encode("PRIVATE KEY", *d);
  secure_zero(d->data(), d->size());
  return pem;
}

Result<std::string> to_spki_pem(const SuiteInfo& s, byte_span pub) {
  if (!row_for(s) && s.family == Family::classical) return classical::export_spki_pem(s, pub);
  auto d = to_spki_der(s, pub);
  if (!d) return d.error();
  return der::pem_encode("PUBLIC KEY", *d);
}

Result<std::string> to_pkcs8_pem(const SigningKey& key) {
  if (!row_for(key.suite()) && key.suite().family == Family::classical)
    return classical::export_pkcs8_pem(key.suite(), key.private_key());
  auto d = to_pkcs8_der(key);
  if (!d) return d.error();
  std::string pem = der::pem_encode("PRIVATE KEY", *d);
  secure_zero(d->data(), d->size());
  return pem;
}

Result<LoadedKey> load_spki_der(byte_span in) {
  auto top = der::parse_single(in, der::tag::sequence, "SubjectPublicKeyInfo");
  if (!top) return top.error();
  der::Reader r(top->contents);
  auto alg = r.expect(der::tag::sequence, "AlgorithmIdentifier");
  if (!alg) return alg.error();
  auto row = parse_algorithm(alg->contents);
  if (!row) return row.error();
  auto bits = r.expect(der::tag::bit_string, "subjectPublicKey");
  if (!bits) return bits.error();
  if (auto s = r.finish("SubjectPublicKeyInfo"); !s) return s.error();
  if (bits->contents.empty() || bits->contents[0] != 0) return pkix_bad("SPKI: BIT STRING with unused bits");
  auto suite = find_suite((*row)->suite);
  if (!suite) return suite.error();
  auto pk = bits->contents.subspan(1);
  if (pk.size() != (*suite)->public_key_size) return Error{Errc::invalid_length, "SPKI: wrong public key length"};
  detail::KeyMaterial m;
  m.suite = *suite;
  m.pub.assign(pk.begin(), pk.end());
  return finish_key(std::move(m));
}

Result<LoadedKey> load_pkcs8_der(byte_span in) {
  auto top = der::parse_single(in, der::tag::sequence, "OneAsymmetricKey");
  if (!top) return top.error();
  der::Reader r(top->contents);
  auto ver = r.expect(der::tag::integer, "version");
  if (!ver) return ver.error();
  auto v = der::parse_small_uint(ver->contents);
  if (!v) return v.error();
  if (*v > 1) return pkix_bad("PKCS#8: unsupported version");
  auto alg = r.expect(der::tag::sequence, "privateKeyAlgorithm");
  if (!alg) return alg.error();
  auto row = parse_algorithm(alg->contents);
  if (!row) return row.error();
  auto os = r.expect(der::tag::octet_string, "privateKey");
  if (!os) return os.error();
  if (r.peek_tag() == der::tag::ctx0_cons) return Error{Errc::unsupported, "PKCS#8: attributes are not supported"};
  bytes given_pub;
  if (r.peek_tag() == der::tag::ctx1_prim) {  // publicKey [1] IMPLICIT BIT STRING, v2 only
    if (*v != 1) return pkix_bad("PKCS#8: publicKey requires version 1");
    auto pkb = r.next();
    if (!pkb) return pkb.error();
    if (pkb->contents.empty() || pkb->contents[0] != 0) return pkix_bad("PKCS#8: bad publicKey BIT STRING");
    given_pub.assign(pkb->contents.begin() + 1, pkb->contents.end());
  }
  if (auto s = r.finish("OneAsymmetricKey"); !s) return s.error();
  auto suite = find_suite((*row)->suite);
  if (!suite) return suite.error();
  const SuiteInfo& s = **suite;

  if ((*row)->seed_len == 0) {  // SLH-DSA (RFC 9909 §6): the raw SK, no CHOICE
    if (os->contents.size() != s.private_key_size)
      return Error{Errc::invalid_length, "PKCS#8: " + std::string(s.id) + " private key must be " +
                                             std::to_string(s.private_key_size) + " bytes"};
    detail::KeyMaterial m;
    m.suite = &s;
    m.pub = std::move(given_pub);  // when present it must match (load_material)
    m.priv.emplace(os->contents);
    return finish_key(std::move(m));
  }
  // The private key CHOICE inside the OCTET STRING.
  der::Reader c(os->contents);
  auto ch = c.next();
  if (!ch) return ch.error();
  if (auto st = c.finish("private key"); !st) return st.error();
  std::optional<SecretBytes> seed;
  byte_span expanded;
  if (ch->tag == der::tag::ctx0_prim) {
    seed.emplace(ch->contents);
  } else if (ch->tag == der::tag::octet_string) {
    expanded = ch->contents;
  } else if (ch->tag == der::tag::sequence) {
    der::Reader b(ch->contents);
    auto sd = b.expect(der::tag::octet_string, "seed");
    if (!sd) return sd.error();
    auto ex = b.expect(der::tag::octet_string, "expandedKey");
    if (!ex) return ex.error();
    if (auto st = b.finish("both"); !st) return st.error();
    seed.emplace(sd->contents);
    expanded = ex->contents;
  } else {
    return pkix_bad("PKCS#8: unknown private key form");
  }
  if (seed && seed->size() != (*row)->seed_len) return Error{Errc::invalid_length, "PKCS#8: wrong seed length"};
  if (!expanded.empty() && expanded.size() != s.expanded_key_size)
    return Error{Errc::invalid_length, "PKCS#8: wrong expanded key length"};

  if (!seed && s.cls == SuiteClass::kem) {  // ML-KEM expandedKey only: FIPS 203 §7.3 / §7.2 on import
    detail::KeyMaterial m;
    m.suite = &s;
    m.pub = std::move(given_pub);
    m.priv.emplace(expanded);
    return finish_key(std::move(m));
  }
  if (!seed) {  // expandedKey only
    auto sk = SigningKey::from_expanded(s, expanded);
    if (!sk) return sk.error();
    LoadedKey k;
    k.suite = &s;
    auto pk = sk->public_key();
    if (!given_pub.empty() && !std::equal(given_pub.begin(), given_pub.end(), pk.begin(), pk.end()))
      return Error{Errc::key_check_failed, "PKCS#8: publicKey does not match the private key"};
    auto vk = VerifyingKey::from_public(s, pk);
    if (!vk) return vk.error();
    auto jwk = detail::jwk_from_material(s, pk, nullptr);
    if (!jwk) return jwk.error();
    auto tp = thumbprint(*jwk);
    if (!tp) return tp.error();
    k.thumbprint = *tp;
    k.signing.emplace(std::move(*sk));
    k.verifying.emplace(std::move(*vk));
    return k;
  }
  if (!expanded.empty()) {  // both: the seed must expand to the same key
    if (s.cls == SuiteClass::signature) {
      auto sk = SigningKey::from_private(s, seed->span());
      if (!sk) return sk.error();
      auto ex = sk->expanded_private_key();
      if (!ex) return ex.error();
      bool same = ex->size() == expanded.size() && ct_equal(*ex, expanded);
      secure_zero(ex->data(), ex->size());
      if (!same) return Error{Errc::key_check_failed, "PKCS#8: seed and expandedKey disagree"};
    } else {
      const auto ps = mlkem_of(s);
      if (!ps) return Error{Errc::internal, "PKCS#8: no ML-KEM parameter set"};
      // FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal(d, z) from the seed, dk compared whole.
      auto kp = mlkem::keygen_from_seed(*ps, seed->span());
      if (!kp) return kp.error();
      if (!(kp->dk.size() == expanded.size() && ct_equal(kp->dk.span(), expanded)))
        return Error{Errc::key_check_failed, "PKCS#8: seed and expandedKey disagree"};
    }
  }
  detail::KeyMaterial m;
  m.suite = &s;
  m.pub = std::move(given_pub);
  m.priv = std::move(seed);
  return finish_key(std::move(m));
}

Result<LoadedKey> load_pem(std::string_view pem) {
  std::string label;
  auto d = der::pem_decode(pem, {}, &label);
  if (!d) return d.error();
  Result<LoadedKey> k = Error{Errc::invalid_encoding, "PEM: expected PUBLIC KEY or PRIVATE KEY, found " + label};
  if (label == "PUBLIC KEY") k = load_spki_der(*d);
  else if (label == "PRIVATE KEY") k = load_pkcs8_der(*d);
  secure_zero(d->data(), d->size());
  return k;
}

Result<LoadedKey> load_key_text(std::string_view text, std::string_view suite_hint) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t')) ++i;
  if (i < text.size() && text[i] == '{') return load_jwk(text, suite_hint);
  if (text.find("-----BEGIN ") != std::string_view::npos) {
    auto k = load_pem(text);
    if (!k && (k.error().code == Errc::unknown_suite || k.error().message.find("expected PUBLIC KEY") != std::string::npos)) {
      // Not an ML-DSA / ML-KEM container: the classical layer imports SPKI / PKCS#8 / PKCS#1 /
      // SEC1 for Ed25519, Ed448, P-256, P-384 and RSA.
      auto c = classical::import_pem(text, suite_hint);
      if (!c) return c.error();
      detail::KeyMaterial m;
      m.suite = c->suite;
      m.pub = c->public_key;
      if (c->has_private()) m.priv = std::move(c->private_key);
      return finish_key(std::move(m));
    }
    if (!k) return k.error();
    if (!suite_hint.empty()) {
      auto h = parse_suite_ref(suite_hint);
      if (!h) return h.error();
      if (*h != k->suite) return Error{Errc::invalid_argument, "key is " + std::string(k->suite->id)};
    }
    return k;
  }
  return Error{Errc::invalid_encoding, "key file is neither a JWK nor PEM"};
}

}  // namespace pqsig::jose
