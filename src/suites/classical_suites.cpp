// The classical suites over the suite-free classical layer (pqsig/classical_suites.hpp): a suite's
// kind is its registry row's params.classical, a kind's row is found by its id.
#include "pqsig/classical_suites.hpp"

#include <string>

namespace pqsig::classical {

Result<Kind> kind_of(const SuiteInfo& suite) {
  if (suite.family != Family::classical)
    return Error{Errc::unknown_suite, "not a classical suite: " + std::string(suite.id)};
  return suite.params.classical;
}

const SuiteInfo& suite_of(Kind k) noexcept {
  for (const SuiteInfo& s : all_suites())
    if (s.family == Family::classical && s.params.classical == k) return s;
  return *find_suite("ed25519").value();  // unreachable: every kind has its row (registry static_asserts)
}

Result<JwkMembers> jwk_members_public(const SuiteInfo& suite, byte_span pub) {
  auto k = kind_of(suite);
  if (!k) return k.error();
  return jwk_members_public(*k, pub);
}
Result<JwkMembers> jwk_members_private(const SuiteInfo& suite, byte_span priv) {
  auto k = kind_of(suite);
  if (!k) return k.error();
  return jwk_members_private(*k, priv);
}
Result<bytes> public_from_jwk_members(const SuiteInfo& suite, const JwkMembers& m) {
  auto k = kind_of(suite);
  if (!k) return k.error();
  return public_from_jwk_members(*k, m);
}
Result<SecretBytes> private_from_jwk_members(const SuiteInfo& suite, const JwkMembers& m) {
  auto k = kind_of(suite);
  if (!k) return k.error();
  return private_from_jwk_members(*k, m);
}
Result<bytes> export_spki_der(const SuiteInfo& suite, byte_span pub) {
  auto k = kind_of(suite);
  if (!k) return k.error();
  return export_spki_der(*k, pub);
}
Result<std::string> export_spki_pem(const SuiteInfo& suite, byte_span pub) {
  auto k = kind_of(suite);
  if (!k) return k.error();
  return export_spki_pem(*k, pub);
}
Result<SecretBytes> export_pkcs8_der(const SuiteInfo& suite, byte_span priv) {
  auto k = kind_of(suite);
  if (!k) return k.error();
  return export_pkcs8_der(*k, priv);
}
Result<std::string> export_pkcs8_pem(const SuiteInfo& suite, byte_span priv) {
  auto k = kind_of(suite);
  if (!k) return k.error();
  return export_pkcs8_pem(*k, priv);
}
Result<bytes> public_from_private(const SuiteInfo& suite, byte_span priv) {
  if (suite.cls != SuiteClass::signature)
    return Error{Errc::invalid_argument, std::string(suite.id) + " is not a signature suite"};
  auto k = kind_of(suite);
  if (!k) return k.error();
  return public_from_private(*k, priv);
}

Result<const SuiteInfo*> suite_for_jwk(std::string_view kty, std::string_view crv, std::string_view alg) {
  auto k = kind_for_jwk(kty, crv, alg);
  if (!k) return k.error();
  return &suite_of(*k);
}

namespace {
Result<ImportedKey> classical_imported_suite_key(Result<RawKey> raw) {
  if (!raw) return raw.error();
  ImportedKey out;
  out.suite = &suite_of(raw->kind);
  out.public_key = std::move(raw->public_key);
  out.private_key = std::move(raw->private_key);
  return out;
}
}  // namespace

Result<ImportedKey> import_pem(std::string_view pem, std::string_view suite_hint) {
  return classical_imported_suite_key(import_pem_raw(pem, suite_hint));
}
Result<ImportedKey> import_der(byte_span der, std::string_view suite_hint) {
  return classical_imported_suite_key(import_der_raw(der, suite_hint));
}

}  // namespace pqsig::classical
