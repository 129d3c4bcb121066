// pqsig — the classical suites of the registry over the suite-free classical layer
// (pqsig/classical.hpp): the same key-form helpers keyed by SuiteInfo, key import that names the
// registry row, and suite-API Ed25519 keys bound to one engine. Implemented in src/suites.
#pragma once

#include <string>
#include <string_view>

#include "pqsig/classical.hpp"
#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::classical {

/// The kind of a classical suite (SuiteInfo::params.classical); any other suite → Errc::unknown_suite.
Result<Kind> kind_of(const SuiteInfo& suite);
/// The registry row of a kind (version 1).
const SuiteInfo& suite_of(Kind k) noexcept;

/// pqsig/classical.hpp's key-form helpers for the kind of a classical suite (errors as there;
/// a non-classical suite → Errc::unknown_suite).
Result<JwkMembers> jwk_members_public(const SuiteInfo& suite, byte_span pub);
Result<JwkMembers> jwk_members_private(const SuiteInfo& suite, byte_span priv);
Result<bytes> public_from_jwk_members(const SuiteInfo& suite, const JwkMembers& m);
Result<SecretBytes> private_from_jwk_members(const SuiteInfo& suite, const JwkMembers& m);
Result<bytes> export_spki_der(const SuiteInfo& suite, byte_span pub);
Result<std::string> export_spki_pem(const SuiteInfo& suite, byte_span pub);
Result<SecretBytes> export_pkcs8_der(const SuiteInfo& suite, byte_span priv);
Result<std::string> export_pkcs8_pem(const SuiteInfo& suite, byte_span priv);
/// Derive the raw public key from a canonical private key (every classical signature suite).
Result<bytes> public_from_private(const SuiteInfo& suite, byte_span priv);

/// The classical suite for a JWK (kind_for_jwk's kind as its registry row).
Result<const SuiteInfo*> suite_for_jwk(std::string_view kty, std::string_view crv, std::string_view alg);

/// A key imported from PEM or DER, converted to the suite's raw forms.
struct ImportedKey {
  const SuiteInfo* suite = nullptr;
  bytes public_key;          ///< raw public form (always set for signature suites)
  SecretBytes private_key;   ///< canonical private form; empty for a public key
  bool has_private() const noexcept { return !private_key.empty(); }
};
/// import_pem_raw / import_der_raw with the kind as its registry row; `suite_hint` is a suite id
/// ("rsa-pss-sha512" or "rsa-v1_5-sha256" for plain RSA keys).
Result<ImportedKey> import_pem(std::string_view pem, std::string_view suite_hint = {});
Result<ImportedKey> import_der(byte_span der, std::string_view suite_hint = {});

/// Suite-API keys bound to one engine (suite = ed25519; same key and signature encodings).
Result<SigningKey> ed25519_signing_key(byte_span seed32, Ed25519Engine engine);
Result<VerifyingKey> ed25519_verifying_key(byte_span pub32, Ed25519Engine engine);

}  // namespace pqsig::classical
