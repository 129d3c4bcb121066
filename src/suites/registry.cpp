// The closed, versioned suite registry. Adding a suite means adding a row here (and a test
// asserting its sizes); nothing else in pqsig accepts a suite that is not in this table, except a
// family whose keys carry their parameter set (lms, xmss): suite_for_public_key reads a key's set
// through the family's backend, which makes one row per set outside this table.
#include <string>

#include "pqsig/classical.hpp"
#include "pqsig/kem.hpp"
#include "pqsig/mldsa.hpp"
#include "pqsig/mlkem.hpp"
#include "pqsig/slhdsa.hpp"
#include "pqsig/stateful_key.hpp"
#include "pqsig/suite.hpp"
#include "slhdsa/params.hpp"
#include "suites/backend.hpp"

namespace pqsig {

namespace {
using C = SuiteClass;
using F = Family;
using K = classical::Kind;
using L = mldsa::Level;
using M = mlkem::ParameterSet;
using S = slhdsa::ParamSet;

constexpr SuiteParams dsa(L lv) { return SuiteParams{lv, {}, {}, {}, {}}; }
constexpr SuiteParams slh(S p) { return SuiteParams{{}, p, {}, {}, {}}; }
constexpr SuiteParams kem(M ps) { return SuiteParams{{}, {}, ps, {}, {}}; }
constexpr SuiteParams hyb(M ps, kem::Hybrid h) { return SuiteParams{{}, {}, ps, {}, h}; }
constexpr SuiteParams trad(K k) { return SuiteParams{{}, {}, {}, k, {}}; }
constexpr SuiteParams comp(L lv, K k) { return SuiteParams{lv, {}, {}, k, {}}; }
// Stateful hash-based sets by their registered codes (RFC 8554 §4.1/§5.1; RFC 8391 §5.2/§5.3 and
// the IANA XMSS / XMSS^MT registries): levels alike, total height.
constexpr SuiteParams hss(std::uint32_t lms, std::uint32_t ots, std::uint8_t levels, std::uint8_t height) {
  return SuiteParams{{}, {}, {}, {}, {}, HbsParams{lms, ots, levels, false, height}};
}
constexpr SuiteParams xms(std::uint32_t oid, bool mt, std::uint8_t layers, std::uint8_t height) {
  return SuiteParams{{}, {}, {}, {}, {}, HbsParams{oid, 0, layers, mt, height}};
}
// RFC 8554 typecodes used below: LMS_SHA256_M32_H10/H15/H20 = 6/7/8, LMOTS_SHA256_N32_W4/W8 = 3/4.
constexpr std::uint32_t kLmsH10 = 6, kLmsH15 = 7, kLmsH20 = 8, kOtsW4 = 3, kOtsW8 = 4;
// clang-format off
constexpr SuiteInfo kSuites[] = {
  // id, ver, class, family, standard, jose, http, http_registered, pk, priv, expanded, out, ss, variable
  {"ml-dsa-44", 1, C::signature, F::ml_dsa, "FIPS 204", "ML-DSA-44", "ml-dsa-44", false, 1312, 32, 2560, 2420, 0, false, dsa(L::ml_dsa_44)},
  {"ml-dsa-65", 1, C::signature, F::ml_dsa, "FIPS 204", "ML-DSA-65", "ml-dsa-65", false, 1952, 32, 4032, 3309, 0, false, dsa(L::ml_dsa_65)},
  {"ml-dsa-87", 1, C::signature, F::ml_dsa, "FIPS 204", "ML-DSA-87", "ml-dsa-87", false, 2592, 32, 4896, 4627, 0, false, dsa(L::ml_dsa_87)},

  {"slh-dsa-sha2-128s", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHA2-128s", "", false, 32, 64, 64, 7856, 0, false, slh(S::sha2_128s)},
  {"slh-dsa-sha2-128f", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHA2-128f", "", false, 32, 64, 64, 17088, 0, false, slh(S::sha2_128f)},
  {"slh-dsa-sha2-192s", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHA2-192s", "", false, 48, 96, 96, 16224, 0, false, slh(S::sha2_192s)},
  {"slh-dsa-sha2-192f", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHA2-192f", "", false, 48, 96, 96, 35664, 0, false, slh(S::sha2_192f)},
  {"slh-dsa-sha2-256s", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHA2-256s", "", false, 64, 128, 128, 29792, 0, false, slh(S::sha2_256s)},
  {"slh-dsa-sha2-256f", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHA2-256f", "", false, 64, 128, 128, 49856, 0, false, slh(S::sha2_256f)},
  {"slh-dsa-shake-128s", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHAKE-128s", "", false, 32, 64, 64, 7856, 0, false, slh(S::shake_128s)},
  {"slh-dsa-shake-128f", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHAKE-128f", "", false, 32, 64, 64, 17088, 0, false, slh(S::shake_128f)},
  {"slh-dsa-shake-192s", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHAKE-192s", "", false, 48, 96, 96, 16224, 0, false, slh(S::shake_192s)},
  {"slh-dsa-shake-192f", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHAKE-192f", "", false, 48, 96, 96, 35664, 0, false, slh(S::shake_192f)},
  {"slh-dsa-shake-256s", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHAKE-256s", "", false, 64, 128, 128, 29792, 0, false, slh(S::shake_256s)},
  {"slh-dsa-shake-256f", 1, C::signature, F::slh_dsa, "FIPS 205", "SLH-DSA-SHAKE-256f", "", false, 64, 128, 128, 49856, 0, false, slh(S::shake_256f)},

  {"ed25519", 1, C::signature, F::classical, "RFC 8032", "EdDSA", "ed25519", true, 32, 32, 32, 64, 0, false, trad(K::ed25519)},
  {"ed448", 1, C::signature, F::classical, "RFC 8032", "Ed448", "", false, 57, 57, 57, 114, 0, false, trad(K::ed448)},
  {"ecdsa-p256-sha256", 1, C::signature, F::classical, "FIPS 186-5", "ES256", "ecdsa-p256-sha256", true, 65, 32, 32, 64, 0, false, trad(K::ecdsa_p256)},
  {"ecdsa-p384-sha384", 1, C::signature, F::classical, "FIPS 186-5", "ES384", "ecdsa-p384-sha384", true, 97, 48, 48, 96, 0, false, trad(K::ecdsa_p384)},
  {"rsa-pss-sha512", 1, C::signature, F::classical, "RFC 8017", "PS512", "rsa-pss-sha512", true, 0, 0, 0, 512, 0, true, trad(K::rsa_pss_sha512)},
  {"rsa-v1_5-sha256", 1, C::signature, F::classical, "RFC 8017", "RS256", "rsa-v1_5-sha256", true, 0, 0, 0, 512, 0, true, trad(K::rsa_v15_sha256)},
  {"hmac-sha256", 1, C::mac, F::classical, "RFC 2104", "HS256", "hmac-sha256", true, 0, 32, 32, 32, 0, false, trad(K::hmac_sha256)},

  // Composite ML-DSA (draft-ietf-lamps-pq-composite-sigs-19): pk = ML-DSA pk || trad pk,
  // sk = ML-DSA seed || trad sk (ECDSA: 51-byte RFC 5915 ECPrivateKey), sig = ML-DSA sig || trad sig
  // (ECDSA: DER, at most 72 bytes).
  {"ml-dsa-44+ed25519", 1, C::signature, F::composite, "draft-ietf-lamps-pq-composite-sigs-19", "ML-DSA-44-Ed25519", "", false, 1344, 64, 64, 2484, 0, false, comp(L::ml_dsa_44, K::ed25519)},
  {"ml-dsa-65+ed25519", 1, C::signature, F::composite, "draft-ietf-lamps-pq-composite-sigs-19", "ML-DSA-65-Ed25519", "", false, 1984, 64, 64, 3373, 0, false, comp(L::ml_dsa_65, K::ed25519)},
  {"ml-dsa-44+ecdsa-p256", 1, C::signature, F::composite, "draft-ietf-lamps-pq-composite-sigs-19", "ML-DSA-44-ES256", "", false, 1377, 83, 83, 2492, 0, true, comp(L::ml_dsa_44, K::ecdsa_p256)},
  {"ml-dsa-65+ecdsa-p256", 1, C::signature, F::composite, "draft-ietf-lamps-pq-composite-sigs-19", "ML-DSA-65-ES256", "", false, 2017, 83, 83, 3381, 0, true, comp(L::ml_dsa_65, K::ecdsa_p256)},
  {"ml-dsa-87+ed448", 1, C::signature, F::composite, "draft-ietf-lamps-pq-composite-sigs-19", "ML-DSA-87-Ed448", "", false, 2649, 89, 89, 4741, 0, false, comp(L::ml_dsa_87, K::ed448)},

  // Stateful hash-based signatures (stateful = true: verify through the suite API; keys and
  // signatures only through lms::StatefulSigner / xmss::StatefulSigner). LMS rows are HSS keys of
  // one level (RFC 8554 §6: pk u32str(L) || LMS pk, sig u32str(Nspk) || ...), as X.509 (RFC 9802)
  // and COSE (RFC 8778) carry them; private keys are ours (pqsig/lms.hpp, pqsig/xmss.hpp). An
  // XMSS^MT id writes RFC 8391's "20/2" as "20-2" (liboqs' spelling; no '/' in an id).
  {"lms-sha256-m32-h10-w4", 1, C::signature, F::lms, "RFC 8554 / SP 800-208", "", "", false, 60, 66, 66, 2512, 0, false, hss(kLmsH10, kOtsW4, 1, 10), true},
  {"lms-sha256-m32-h10-w8", 1, C::signature, F::lms, "RFC 8554 / SP 800-208", "", "", false, 60, 66, 66, 1456, 0, false, hss(kLmsH10, kOtsW8, 1, 10), true},
  {"lms-sha256-m32-h15-w4", 1, C::signature, F::lms, "RFC 8554 / SP 800-208", "", "", false, 60, 66, 66, 2672, 0, false, hss(kLmsH15, kOtsW4, 1, 15), true},
  {"lms-sha256-m32-h15-w8", 1, C::signature, F::lms, "RFC 8554 / SP 800-208", "", "", false, 60, 66, 66, 1616, 0, false, hss(kLmsH15, kOtsW8, 1, 15), true},
  {"lms-sha256-m32-h20-w4", 1, C::signature, F::lms, "RFC 8554 / SP 800-208", "", "", false, 60, 66, 66, 2832, 0, false, hss(kLmsH20, kOtsW4, 1, 20), true},
  {"lms-sha256-m32-h20-w8", 1, C::signature, F::lms, "RFC 8554 / SP 800-208", "", "", false, 60, 66, 66, 1776, 0, false, hss(kLmsH20, kOtsW8, 1, 20), true},
  {"hss-sha256-m32-h10-w8-h10-w8", 1, C::signature, F::lms, "RFC 8554 / SP 800-208", "", "", false, 60, 74, 74, 2964, 0, false, hss(kLmsH10, kOtsW8, 2, 20), true},
  {"xmss-sha2_10_256", 1, C::signature, F::xmss, "RFC 8391 / SP 800-208", "", "", false, 68, 140, 140, 2500, 0, false, xms(0x01, false, 1, 10), true},
  {"xmss-sha2_16_256", 1, C::signature, F::xmss, "RFC 8391 / SP 800-208", "", "", false, 68, 140, 140, 2692, 0, false, xms(0x02, false, 1, 16), true},
  {"xmss-sha2_20_256", 1, C::signature, F::xmss, "RFC 8391 / SP 800-208", "", "", false, 68, 140, 140, 2820, 0, false, xms(0x03, false, 1, 20), true},
  {"xmssmt-sha2_20-2_256", 1, C::signature, F::xmss, "RFC 8391 / SP 800-208", "", "", false, 68, 140, 140, 4963, 0, false, xms(0x01, true, 2, 20), true},
  {"xmssmt-sha2_40-4_256", 1, C::signature, F::xmss, "RFC 8391 / SP 800-208", "", "", false, 68, 140, 140, 9893, 0, false, xms(0x04, true, 4, 40), true},

  {"ml-kem-512", 1, C::kem, F::ml_kem, "FIPS 203", "ML-KEM-512", "", false, 800, 64, 1632, 768, 32, false, kem(M::ml_kem_512)},
  {"ml-kem-768", 1, C::kem, F::ml_kem, "FIPS 203", "ML-KEM-768", "", false, 1184, 64, 2400, 1088, 32, false, kem(M::ml_kem_768)},
  {"ml-kem-1024", 1, C::kem, F::ml_kem, "FIPS 203", "ML-KEM-1024", "", false, 1568, 64, 3168, 1568, 32, false, kem(M::ml_kem_1024)},
  {"x-wing", 1, C::kem, F::hybrid_kem, "draft-connolly-cfrg-xwing-kem", "X-Wing", "", false, 1216, 32, 32, 1120, 32, false, hyb(M::ml_kem_768, kem::Hybrid::x_wing)},
  {"x25519-ml-kem-768", 1, C::kem, F::hybrid_kem, "draft-ietf-tls-ecdhe-mlkem", "", "", false, 1216, 96, 96, 1120, 64, false, hyb(M::ml_kem_768, kem::Hybrid::x25519_mlkem768)},
  {"ml-kem-768+x25519-hkdf", 1, C::kem, F::hybrid_kem, "pqsig settlement combiner v1", "", "", false, 1216, 96, 96, 1120, 32, false, hyb(M::ml_kem_768, kem::Hybrid::mlkem768_x25519_hkdf)},
};
// clang-format on

// ---- the sizes of every row against the family constants (FIPS 203/204/205 tables)
template <class P>
constexpr bool registry_slh_sizes_are(const SuiteInfo& s) {
  return s.public_key_size == P::pk_bytes && s.private_key_size == P::sk_bytes &&
         s.expanded_key_size == P::sk_bytes && s.output_size == P::sig_bytes;
}
constexpr bool registry_slh_row_ok(const SuiteInfo& s) {
  namespace sd = slhdsa::detail;
  switch (s.params.slhdsa) {
    case S::sha2_128s: return registry_slh_sizes_are<sd::P_sha2_128s>(s);
    case S::sha2_128f: return registry_slh_sizes_are<sd::P_sha2_128f>(s);
    case S::sha2_192s: return registry_slh_sizes_are<sd::P_sha2_192s>(s);
    case S::sha2_192f: return registry_slh_sizes_are<sd::P_sha2_192f>(s);
    case S::sha2_256s: return registry_slh_sizes_are<sd::P_sha2_256s>(s);
    case S::sha2_256f: return registry_slh_sizes_are<sd::P_sha2_256f>(s);
    case S::shake_128s: return registry_slh_sizes_are<sd::P_shake_128s>(s);
    case S::shake_128f: return registry_slh_sizes_are<sd::P_shake_128f>(s);
    case S::shake_192s: return registry_slh_sizes_are<sd::P_shake_192s>(s);
    case S::shake_192f: return registry_slh_sizes_are<sd::P_shake_192f>(s);
    case S::shake_256s: return registry_slh_sizes_are<sd::P_shake_256s>(s);
    case S::shake_256f: return registry_slh_sizes_are<sd::P_shake_256f>(s);
  }
  return false;
}
constexpr const mlkem::Params& registry_mlkem_params(M ps) {
  return ps == M::ml_kem_512 ? mlkem::kMlKem512 : ps == M::ml_kem_768 ? mlkem::kMlKem768 : mlkem::kMlKem1024;
}
// LMS / HSS with SHA-256 and n = m = 32 (the rows above): RFC 8554 §4.5, §5.4, §6.2; our private
// key "PQHSS1" || u32 L || L x (u32 lms, u32 ots) || I || SEED (pqsig/lms.hpp).
constexpr unsigned registry_lms_height(std::uint32_t lms) { return lms >= 5 && lms <= 9 ? 5 * (lms - 4) : 0; }
constexpr unsigned registry_lmots_p(std::uint32_t ots) {  // RFC 8554 Table 1, n = 32
  return ots == 1 ? 265 : ots == 2 ? 133 : ots == 3 ? 67 : ots == 4 ? 34 : 0;
}
constexpr bool registry_lms_row_ok(const SuiteInfo& s) {
  const HbsParams& h = s.params.hbs;
  const std::size_t n = 32, height = registry_lms_height(h.code), p = registry_lmots_p(h.ots);
  if (height == 0 || p == 0 || h.levels < 1 || h.levels > 8 || h.mt || std::size_t{h.height} != height * h.levels)
    return false;
  const std::size_t lms_sig = 4 + (4 + n * (p + 1)) + 4 + height * n, lms_pk = 24 + n;
  return s.stateful && s.public_key_size == 4 + lms_pk && s.output_size == 4 + (h.levels - 1) * (lms_sig + lms_pk) + lms_sig &&
         s.private_key_size == 6 + 4 + 8u * h.levels + 16 + n && s.expanded_key_size == s.private_key_size;
}
// XMSS / XMSS^MT with SHA-256 and n = 32 (w = 16, len = 2n + 3): RFC 8391 §4.1.8, §4.2.3 and
// Appendix B/C; our private key "PQXMSS1" || u8 mt || u32 oid || 4 x n (pqsig/xmss.hpp).
constexpr bool registry_xmss_row_ok(const SuiteInfo& s) {
  const HbsParams& h = s.params.hbs;
  const std::size_t n = 32, len = 2 * n + 3, d = h.levels;
  if (d < 1 || h.height == 0 || h.height % d != 0 || (!h.mt && d != 1)) return false;
  const std::size_t idx = h.mt ? (h.height + 7u) / 8u : 4;
  return s.stateful && s.public_key_size == 4 + 2 * n &&
         s.output_size == idx + n + d * (len * n + (h.height / d) * n) && s.private_key_size == 7 + 1 + 4 + 4 * n &&
         s.expanded_key_size == s.private_key_size;
}
constexpr bool registry_row_ok(const SuiteInfo& s) {
  if (s.stateful != (s.family == F::lms || s.family == F::xmss)) return false;
  switch (s.family) {
    case F::lms: return registry_lms_row_ok(s);
    case F::xmss: return registry_xmss_row_ok(s);
    case F::ml_dsa: {
      const mldsa::Params& p = mldsa::params(s.params.mldsa);
      return p.level == static_cast<int>(s.params.mldsa) && s.public_key_size == p.pk_bytes &&
             s.private_key_size == 32 && s.expanded_key_size == p.sk_bytes && s.output_size == p.sig_bytes;
    }
    case F::slh_dsa: return registry_slh_row_ok(s);
    case F::ml_kem: {
      const mlkem::Params& p = registry_mlkem_params(s.params.mlkem);
      return s.public_key_size == p.ek_size && s.private_key_size == mlkem::kSeedSize &&
             s.expanded_key_size == p.dk_size && s.output_size == p.ct_size &&
             s.shared_secret_size == mlkem::kSharedSecretSize;
    }
    case F::composite: {
      // draft-ietf-lamps-pq-composite-sigs: the ML-DSA part first, then the traditional part.
      const mldsa::Params& p = mldsa::params(s.params.mldsa);
      return s.public_key_size > p.pk_bytes && s.private_key_size > 32 && s.output_size > p.sig_bytes;
    }
    case F::hybrid_kem: {
      const mlkem::Params& p = registry_mlkem_params(s.params.mlkem);
      return s.public_key_size == p.ek_size + 32 && s.output_size == p.ct_size + 32;  // + X25519
    }
    case F::classical: return s.cls != SuiteClass::kem;
    case F::none: return false;
  }
  return false;
}
constexpr bool registry_rows_ok() {
  for (const SuiteInfo& s : kSuites)
    if (!registry_row_ok(s)) return false;
  return true;
}
static_assert(registry_rows_ok(), "a registry row's sizes disagree with its family's parameter set");
}  // namespace

std::string_view family_name(Family f) noexcept {
  switch (f) {
    case Family::ml_dsa: return "ml-dsa";
    case Family::slh_dsa: return "slh-dsa";
    case Family::ml_kem: return "ml-kem";
    case Family::classical: return "classical";
    case Family::composite: return "composite";
    case Family::hybrid_kem: return "hybrid-kem";
    case Family::lms: return "lms";
    case Family::xmss: return "xmss";
    case Family::none: return "none";
  }
  return "none";
}

std::string_view suite_class_name(SuiteClass c) noexcept {
  switch (c) {
    case SuiteClass::signature: return "signature";
    case SuiteClass::kem: return "kem";
    case SuiteClass::mac: return "mac";
  }
  return "?";
}

std::span<const SuiteInfo> all_suites() noexcept { return kSuites; }

Result<const SuiteInfo*> find_suite(std::string_view id, int version) {
  for (const auto& s : kSuites) {
    if (s.id == id) {
      if (s.version == version) return &s;
      return Error{Errc::unknown_suite, "suite '" + std::string(id) + "' has no version " + std::to_string(version)};
    }
  }
  return Error{Errc::unknown_suite, "unknown suite '" + std::string(id) + "' (see `pqsig suites`)"};
}

Result<const SuiteInfo*> parse_suite_ref(std::string_view ref) {
  auto at = ref.find('@');
  if (at == std::string_view::npos) return find_suite(ref, 1);
  std::string_view v = ref.substr(at + 1);
  if (v.size() < 2 || v[0] != 'v') return Error{Errc::unknown_suite, "bad suite version in '" + std::string(ref) + "'"};
  int ver = 0;
  for (char c : v.substr(1)) {
    if (c < '0' || c > '9' || ver > 100000) return Error{Errc::unknown_suite, "bad suite version in '" + std::string(ref) + "'"};
    ver = ver * 10 + (c - '0');
  }
  return find_suite(ref.substr(0, at), ver);
}

Result<const SuiteInfo*> suite_for_public_key(Family family, byte_span pub, bool multi_tree) {
  const detail::Backend* b = detail::backend_for_family(family);
  if (!b || !b->suite_for_key)
    return Error{Errc::unsupported, "family " + std::string(family_name(family)) +
                                        ": its parameter set is named by a suite, not read from a key"};
  return b->suite_for_key(family, pub, multi_tree);
}

namespace detail {

const Backend* backend_for_family(Family f) noexcept {
  switch (f) {
    case Family::ml_dsa: return mldsa_backend();
    case Family::slh_dsa: return slhdsa_backend();
    case Family::ml_kem:
    case Family::hybrid_kem: return mlkem_backend();
    case Family::classical: return classical_backend();
    case Family::composite: return composite_backend();
    case Family::lms:
    case Family::xmss: return hbs_backend();
    case Family::none: break;
  }
  return nullptr;
}

unsigned backend_interfaces(const Backend* b, const SuiteInfo& s) noexcept {
  if (!b || !b->verifier_from_public || s.cls == SuiteClass::kem) return 0;
  if (b->interfaces) return b->interfaces(s);
  return provider::kPure;
}
}  // namespace detail

}  // namespace pqsig
