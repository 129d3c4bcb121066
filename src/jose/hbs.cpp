// Stateful hash-based public keys in their container forms (pqsig/jose.hpp, "stateful hash-based
// keys"): X.509 SPKI per RFC 9802 (HSS also RFC 9708), COSE_Key per RFC 8778, and pqsig's own
// AKP-style JWK. One DER reader/writer (jose/der.hpp), one strict JSON reader
// (jose/json_strict.hpp); one strict CBOR reader/writer (jose/cbor.hpp, shared with COSE_Sign1).
#include <algorithm>
#include <string>

#include "jose/cbor.hpp"
#include "jose/der.hpp"
#include "jose/internal.hpp"
#include "pqsig/lms.hpp"
#include "pqsig/stateful_key.hpp"
#include "pqsig/xmss.hpp"

namespace pqsig::jose {

namespace {

Error hbs_bad(std::string m) { return Error{Errc::invalid_encoding, std::move(m)}; }

std::string_view hbs_oid_of(HbsKind k) {
  switch (k) {
    case HbsKind::hss: return kOidHssLmsHashsig;
    case HbsKind::xmss: return kOidXmssHashsig;
    case HbsKind::xmssmt: return kOidXmssMtHashsig;
  }
  return {};
}

// RFC 8554 §6.1: u32str(L) || u32str(lms_type) || u32str(lmots_type) || I || T[1]. The parameter
// set is read, checked and bounded by the LMS backend in the seam (suite_for_public_key), the one
// home of that rule; the levels below the top are not in the key and repeat it (pqsig's keys do).
Result<std::vector<lms::Level>> hss_levels_of(byte_span pk) {
  auto s = suite_for_public_key(Family::lms, pk);
  if (!s) return s.error();
  const HbsParams& h = (*s)->params.hbs;
  return std::vector<lms::Level>(h.levels, lms::Level{lms::find_lms(h.code), lms::find_lmots(h.ots)});
}

constexpr std::size_t kMaxCoseKeyBytes = 4096;
constexpr std::uint64_t kMaxCoseKeyOps = 16;

}  // namespace

std::string_view hbs_kind_name(HbsKind k) noexcept {
  switch (k) {
    case HbsKind::hss: return "HSS-LMS";
    case HbsKind::xmss: return "XMSS";
    case HbsKind::xmssmt: return "XMSSMT";
  }
  return "?";
}

Status check_hbs_public_key(const HbsPublicKey& k) {
  if (k.kind == HbsKind::hss) {
    auto lv = hss_levels_of(k.key);
    if (!lv) return lv.error();
    return {};
  }
  auto p = xmss::parse_public_key(k.kind == HbsKind::xmssmt, k.key);
  if (!p) return p.error();
  return {};
}

std::size_t hbs_signature_bytes(const HbsPublicKey& k) noexcept {
  if (k.kind == HbsKind::hss) {
    auto lv = hss_levels_of(k.key);
    return lv ? lms::hss_signature_bytes(*lv) : 0;
  }
  auto p = xmss::parse_public_key(k.kind == HbsKind::xmssmt, k.key);
  return p ? (*p)->signature_bytes() : 0;
}

Status hbs_verify(const HbsPublicKey& k, byte_span message, byte_span signature) {
  switch (k.kind) {
    case HbsKind::hss: return lms::hss_verify(k.key, message, signature);
    case HbsKind::xmss: return xmss::xmss_verify(k.key, message, signature);
    case HbsKind::xmssmt: return xmss::xmssmt_verify(k.key, message, signature);
  }
  return Error{Errc::internal, "HBS: unknown kind"};
}

// RFC 9802 §4 / RFC 5280 §4.1.2.7: SEQUENCE { SEQUENCE { OID } , BIT STRING (raw key) }.
Result<bytes> hbs_to_spki_der(const HbsPublicKey& k) {
  if (auto st = check_hbs_public_key(k); !st) return st.error();
  bytes o = der::oid(hbs_oid_of(k.kind));
  bytes alg = der::sequence({o});  // RFC 9802 §3: parameters MUST be absent
  bytes bits = der::bit_string(k.key);
  return der::sequence({alg, bits});
}

Result<std::string> hbs_to_spki_pem(const HbsPublicKey& k) {
  auto d = hbs_to_spki_der(k);
  if (!d) return d.error();
  return der::pem_encode("PUBLIC KEY", *d);
}

Result<HbsPublicKey> hbs_from_spki_der(byte_span in) {
  auto top = der::parse_single(in, der::tag::sequence, "SubjectPublicKeyInfo");
  if (!top) return top.error();
  der::Reader r(top->contents);
  auto alg = r.expect(der::tag::sequence, "AlgorithmIdentifier");
  if (!alg) return alg.error();
  auto bits = r.expect(der::tag::bit_string, "subjectPublicKey");
  if (!bits) return bits.error();
  if (auto s = r.finish("SubjectPublicKeyInfo"); !s) return s.error();
  der::Reader a(alg->contents);
  auto o = a.expect(der::tag::oid, "algorithm OID");
  if (!o) return o.error();
  auto dotted = der::oid_to_string(o->contents);
  if (!dotted) return dotted.error();
  HbsPublicKey k;
  if (*dotted == kOidHssLmsHashsig) k.kind = HbsKind::hss;
  else if (*dotted == kOidXmssHashsig) k.kind = HbsKind::xmss;
  else if (*dotted == kOidXmssMtHashsig) k.kind = HbsKind::xmssmt;
  else return Error{Errc::unknown_suite, "SPKI: " + *dotted + " is not an HSS / XMSS / XMSS^MT OID"};
  if (!a.empty()) return hbs_bad("AlgorithmIdentifier: parameters must be absent (RFC 9802 §3)");
  if (bits->contents.empty() || bits->contents[0] != 0) return hbs_bad("SPKI: BIT STRING with unused bits");
  auto raw = bits->contents.subspan(1);
  k.key.assign(raw.begin(), raw.end());
  if (auto st = check_hbs_public_key(k); !st) return st.error();
  return k;
}

Result<HbsPublicKey> hbs_from_spki_pem(std::string_view pem) {
  auto d = der::pem_decode(pem, "PUBLIC KEY");
  if (!d) return d.error();
  return hbs_from_spki_der(*d);
}

Result<std::string> hbs_to_jwk(const HbsPublicKey& k) {
  if (auto st = check_hbs_public_key(k); !st) return st.error();
  detail::ojson j;
  j["kty"] = "AKP";
  j["alg"] = std::string(hbs_kind_name(k.kind));
  j["pub"] = base64url_encode(k.key);
  auto tp = thumbprint(j.dump());
  if (!tp) return tp.error();
  j["kid"] = *tp;
  return j.dump();
}

bool is_hbs_jwk(std::string_view json) {
  auto j = detail::parse_strict(json, "JWK");
  if (!j || !j->is_object()) return false;
  auto it = j->find("alg");
  if (it == j->end() || !it->is_string()) return false;
  const auto& a = it->get_ref<const detail::json::string_t&>();
  return a == "HSS-LMS" || a == "XMSS" || a == "XMSSMT";
}

Result<HbsPublicKey> hbs_from_jwk(std::string_view text, std::string* thumbprint_out, std::string* kid_out) {
  auto j = detail::parse_strict(text, "JWK");
  if (!j) return j.error();
  if (!j->is_object()) return hbs_bad("JWK: not a JSON object");
  auto kty = detail::get_string(*j, "kty", "JWK");
  if (!kty) return kty.error();
  if (*kty != "AKP") return hbs_bad("JWK: an HSS / XMSS key has kty \"AKP\"");
  auto alg = detail::get_string(*j, "alg", "JWK");
  if (!alg) return alg.error();
  HbsPublicKey k;
  if (*alg == "HSS-LMS") k.kind = HbsKind::hss;
  else if (*alg == "XMSS") k.kind = HbsKind::xmss;
  else if (*alg == "XMSSMT") k.kind = HbsKind::xmssmt;
  else return Error{Errc::unknown_suite, "JWK: alg is not HSS-LMS, XMSS or XMSSMT"};
  for (const char* secret : {"priv", "d", "seed"})
    if (j->contains(secret))
      return Error{Errc::invalid_argument, std::string("JWK: \"") + secret +
                                               "\": a stateful private key is never a JWK (its state would be copied)"};
  bool has_use = false;
  auto use = detail::get_opt_string(*j, "use", "JWK", has_use);
  if (!use) return use.error();
  if (has_use && *use != "sig") return hbs_bad("JWK: \"use\" must be \"sig\"");
  bool has_kid = false;
  auto kid = detail::get_opt_string(*j, "kid", "JWK", has_kid);
  if (!kid) return kid.error();
  auto pub = detail::get_b64u(*j, "pub", "JWK");
  if (!pub) return pub.error();
  k.key = std::move(*pub);
  if (auto st = check_hbs_public_key(k); !st) return st.error();
  if (thumbprint_out) {
    auto tp = thumbprint(text);
    if (!tp) return tp.error();
    *thumbprint_out = *tp;
  }
  if (kid_out) *kid_out = has_kid ? *kid : std::string();
  return k;
}

// RFC 8778 §4 / RFC 9052 §7: map keys in deterministic order (RFC 8949 §4.2.1: bytewise order
// of the encoded keys): kty 1, kid 2, alg 3, pub -1.
Result<bytes> hss_to_cose_key(byte_span hss_public_key, byte_span kid) {
  HbsPublicKey k{HbsKind::hss, bytes(hss_public_key.begin(), hss_public_key.end())};
  if (auto st = check_hbs_public_key(k); !st) return st.error();
  bytes out;
  cbor::put_head(out, 5, kid.empty() ? 3 : 4);
  cbor::put_int(out, 1);
  cbor::put_int(out, kCoseKtyHssLms);
  if (!kid.empty()) {
    cbor::put_int(out, 2);
    cbor::put_bstr(out, kid);
  }
  cbor::put_int(out, 3);
  cbor::put_int(out, kCoseAlgHssLms);
  cbor::put_int(out, -1);
  cbor::put_bstr(out, hss_public_key);
  return out;
}

Result<bytes> hss_from_cose_key(byte_span in, bytes* kid_out) {
  if (in.size() > kMaxCoseKeyBytes) return Error{Errc::invalid_length, "COSE_Key: too long"};
  cbor::Reader r(in, "COSE_Key");
  auto m = r.head();
  if (!m) return m.error();
  if (m->major != 5) return hbs_bad("COSE_Key: not a map");
  if (m->arg > 8) return hbs_bad("COSE_Key: too many parameters");
  bool have_kty = false;
  std::optional<bytes> pub, kid;
  bytes prev_key;  // encoded previous label: strictly increasing (unique, deterministic order)
  for (std::uint64_t i = 0; i < m->arg; ++i) {
    const std::size_t at = r.pos();
    auto label = r.integer("a label");
    if (!label) return label.error();
    bytes enc(in.begin() + static_cast<std::ptrdiff_t>(at), in.begin() + static_cast<std::ptrdiff_t>(r.pos()));
    if (i > 0 && !std::lexicographical_compare(prev_key.begin(), prev_key.end(), enc.begin(), enc.end()))
      return hbs_bad("COSE_Key: labels repeated or not in deterministic order");
    prev_key = std::move(enc);
    switch (*label) {
      case 1: {  // kty
        auto v = r.integer("kty");
        if (!v) return v.error();
        if (*v != kCoseKtyHssLms) return Error{Errc::unknown_suite, "COSE_Key: kty is not HSS-LMS (5)"};
        have_kty = true;
        break;
      }
      case 2: {  // kid
        auto v = r.bstr("kid");
        if (!v) return v.error();
        kid.emplace(v->begin(), v->end());
        break;
      }
      case 3: {  // alg
        auto v = r.integer("alg");
        if (!v) return v.error();
        if (*v != kCoseAlgHssLms) return Error{Errc::unknown_suite, "COSE_Key: alg is not HSS-LMS (-46)"};
        break;
      }
      case 4: {  // key_ops: an array of integers
        auto h = r.head();
        if (!h) return h.error();
        if (h->major != 4) return hbs_bad("COSE_Key: key_ops is not an array");
        if (h->arg > kMaxCoseKeyOps) return hbs_bad("COSE_Key: too many key_ops");
        // RFC 8778 §3: key_ops, when present, includes verify (2) for verifying.
        if (h->arg == 0) return Error{Errc::invalid_argument, "COSE_Key: key_ops present without verify (2) (RFC 8778 §3)"};
        for (std::uint64_t o = 0; o < h->arg; ++o) {
          auto op = r.integer("a key_ops entry");
          if (!op) return op.error();
          if (*op != 2) return Error{Errc::invalid_argument, "COSE_Key: an HSS-LMS public key has only key_op verify (2)"};
        }
        break;
      }
      case -1: {  // pub
        auto v = r.bstr("pub");
        if (!v) return v.error();
        pub.emplace(v->begin(), v->end());
        break;
      }
      default:
        return hbs_bad("COSE_Key: parameter " + std::to_string(*label) + " is not defined for HSS-LMS (RFC 8778 §4)");
    }
  }
  if (!r.empty()) return hbs_bad("COSE_Key: bytes after the map");
  if (!have_kty) return hbs_bad("COSE_Key: no kty");
  if (!pub) return hbs_bad("COSE_Key: no pub (-1)");
  HbsPublicKey k{HbsKind::hss, std::move(*pub)};
  if (auto st = check_hbs_public_key(k); !st) return st.error();
  if (kid_out) *kid_out = kid ? std::move(*kid) : bytes{};
  return std::move(k.key);
}

}  // namespace pqsig::jose
