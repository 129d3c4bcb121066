// The closed, versioned suite registry. Adding a suite means adding a row here (and a test
// asserting its sizes); nothing else in pqsig accepts a suite that is not in this table.
#include <string>

#include "pqsig/suite.hpp"
#include "suites/backend.hpp"

namespace pqsig {

namespace {
using C = SuiteClass;
// clang-format off
constexpr SuiteInfo kSuites[] = {
  // id, ver, class, family, standard, jose, http, http_registered, pk, priv, expanded, out, ss, variable
  {"ml-dsa-44", 1, C::signature, "ml-dsa", "FIPS 204", "ML-DSA-44", "ml-dsa-44", false, 1312, 32, 2560, 2420, 0, false},
  {"ml-dsa-65", 1, C::signature, "ml-dsa", "FIPS 204", "ML-DSA-65", "ml-dsa-65", false, 1952, 32, 4032, 3309, 0, false},
  {"ml-dsa-87", 1, C::signature, "ml-dsa", "FIPS 204", "ML-DSA-87", "ml-dsa-87", false, 2592, 32, 4896, 4627, 0, false},

  {"slh-dsa-sha2-128s", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHA2-128s", "", false, 32, 64, 64, 7856, 0, false},
  {"slh-dsa-sha2-128f", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHA2-128f", "", false, 32, 64, 64, 17088, 0, false},
  {"slh-dsa-sha2-192s", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHA2-192s", "", false, 48, 96, 96, 16224, 0, false},
  {"slh-dsa-sha2-192f", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHA2-192f", "", false, 48, 96, 96, 35664, 0, false},
  {"slh-dsa-sha2-256s", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHA2-256s", "", false, 64, 128, 128, 29792, 0, false},
  {"slh-dsa-sha2-256f", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHA2-256f", "", false, 64, 128, 128, 49856, 0, false},
  {"slh-dsa-shake-128s", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHAKE-128s", "", false, 32, 64, 64, 7856, 0, false},
  {"slh-dsa-shake-128f", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHAKE-128f", "", false, 32, 64, 64, 17088, 0, false},
  {"slh-dsa-shake-192s", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHAKE-192s", "", false, 48, 96, 96, 16224, 0, false},
  {"slh-dsa-shake-192f", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHAKE-192f", "", false, 48, 96, 96, 35664, 0, false},
  {"slh-dsa-shake-256s", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHAKE-256s", "", false, 64, 128, 128, 29792, 0, false},
  {"slh-dsa-shake-256f", 1, C::signature, "slh-dsa", "FIPS 205", "SLH-DSA-SHAKE-256f", "", false, 64, 128, 128, 49856, 0, false},

  {"ed25519", 1, C::signature, "classical", "RFC 8032", "EdDSA", "ed25519", true, 32, 32, 32, 64, 0, false},
  {"ed448", 1, C::signature, "classical", "RFC 8032", "Ed448", "", false, 57, 57, 57, 114, 0, false},
  {"ecdsa-p256-sha256", 1, C::signature, "classical", "FIPS 186-5", "ES256", "ecdsa-p256-sha256", true, 65, 32, 32, 64, 0, false},
  {"ecdsa-p384-sha384", 1, C::signature, "classical", "FIPS 186-5", "ES384", "ecdsa-p384-sha384", true, 97, 48, 48, 96, 0, false},
  {"rsa-pss-sha512", 1, C::signature, "classical", "RFC 8017", "PS512", "rsa-pss-sha512", true, 0, 0, 0, 512, 0, true},
  {"rsa-v1_5-sha256", 1, C::signature, "classical", "RFC 8017", "RS256", "rsa-v1_5-sha256", true, 0, 0, 0, 512, 0, true},
  {"hmac-sha256", 1, C::mac, "classical", "RFC 2104", "HS256", "hmac-sha256", true, 0, 32, 32, 32, 0, false},

  // Composite ML-DSA (draft-ietf-lamps-pq-composite-sigs-19): pk = ML-DSA pk || trad pk,
  // sk = ML-DSA seed || trad sk (ECDSA: 51-byte RFC 5915 ECPrivateKey), sig = ML-DSA sig || trad sig
  // (ECDSA: DER, at most 72 bytes).
  {"ml-dsa-44+ed25519", 1, C::signature, "composite", "draft-ietf-lamps-pq-composite-sigs-19", "ML-DSA-44-Ed25519", "", false, 1344, 64, 64, 2484, 0, false},
  {"ml-dsa-65+ed25519", 1, C::signature, "composite", "draft-ietf-lamps-pq-composite-sigs-19", "ML-DSA-65-Ed25519", "", false, 1984, 64, 64, 3373, 0, false},
  {"ml-dsa-44+ecdsa-p256", 1, C::signature, "composite", "draft-ietf-lamps-pq-composite-sigs-19", "ML-DSA-44-ES256", "", false, 1377, 83, 83, 2492, 0, true},
  {"ml-dsa-65+ecdsa-p256", 1, C::signature, "composite", "draft-ietf-lamps-pq-composite-sigs-19", "ML-DSA-65-ES256", "", false, 2017, 83, 83, 3381, 0, true},
  {"ml-dsa-87+ed448", 1, C::signature, "composite", "draft-ietf-lamps-pq-composite-sigs-19", "ML-DSA-87-Ed448", "", false, 2649, 89, 89, 4741, 0, false},

  {"ml-kem-512", 1, C::kem, "ml-kem", "FIPS 203", "ML-KEM-512", "", false, 800, 64, 1632, 768, 32, false},
  {"ml-kem-768", 1, C::kem, "ml-kem", "FIPS 203", "ML-KEM-768", "", false, 1184, 64, 2400, 1088, 32, false},
  {"ml-kem-1024", 1, C::kem, "ml-kem", "FIPS 203", "ML-KEM-1024", "", false, 1568, 64, 3168, 1568, 32, false},
  {"x-wing", 1, C::kem, "hybrid-kem", "draft-connolly-cfrg-xwing-kem", "X-Wing", "", false, 1216, 32, 32, 1120, 32, false},
  {"x25519-ml-kem-768", 1, C::kem, "hybrid-kem", "draft-ietf-tls-ecdhe-mlkem", "", "", false, 1216, 96, 96, 1120, 64, false},
  {"ml-kem-768+x25519-hkdf", 1, C::kem, "hybrid-kem", "pqsig settlement combiner v1", "", "", false, 1216, 96, 96, 1120, 32, false},
};
// clang-format on
}  // namespace

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

namespace detail {
namespace {
// The one table of (family, provider) → backend. The suite API (SigningKey, VerifyingKey, KEM
// keys) uses the rows of "pqsig"; pqsig::provider::find("liboqs") etc. use theirs. A backend
// function returns nullptr when its provider is not compiled in or not available at run time.
struct ProviderRow {
  std::string_view provider;
  std::string_view family;
  const Backend* (*backend)() noexcept;
};
constexpr ProviderRow kProviderTable[] = {
  {"pqsig", "ml-dsa", &mldsa_backend},
  {"pqsig", "slh-dsa", &slhdsa_backend},
  {"pqsig", "ml-kem", &mlkem_backend},
  {"pqsig", "hybrid-kem", &mlkem_backend},
  {"pqsig", "classical", &classical_backend},
  {"pqsig", "composite", &composite_backend},
  {"liboqs", "ml-dsa", &liboqs_backend},
  {"liboqs", "slh-dsa", &liboqs_backend},
  {"openssl", "ml-dsa", &openssl_backend},
  {"openssl", "slh-dsa", &openssl_backend},
};
}  // namespace

const Backend* backend_for(const SuiteInfo& s, std::string_view provider) noexcept {
  for (const auto& row : kProviderTable)
    if (row.provider == provider && row.family == s.family) return row.backend();
  return nullptr;
}

unsigned backend_interfaces(const Backend* b, const SuiteInfo& s) noexcept {
  if (!b || !b->verifier_from_public || s.cls == SuiteClass::kem) return 0;
  if (b->interfaces) return b->interfaces(s);
  return provider::kPure;
}
}  // namespace detail

}  // namespace pqsig
