// Internal: raw key material shared by the JWK, PKIX and CLI code paths.
#pragma once

#include <optional>
#include <string>

#include "jose/json_strict.hpp"
#include "pqsig/jose.hpp"

namespace pqsig::jose::detail {

/// A key as bytes: the suite, the encoded public key (registry form) and, for private keys,
/// the canonical private key (seed form where the suite has one).
struct KeyMaterial {
  const SuiteInfo* suite = nullptr;
  bytes pub;
  std::optional<SecretBytes> priv;
};

Result<KeyMaterial> material_from_json(const json& j, std::string_view suite_hint);
/// Build the key objects; a private key's derived public key must equal `pub` when given.
Result<LoadedKey> load_material(KeyMaterial m);
/// JWK text (kid = thumbprint) from raw material.
Result<std::string> jwk_from_material(const SuiteInfo& s, byte_span pub, const SecretBytes* priv);

/// RSA (RFC 7518 §6.3) <-> the registry's RSA key encodings (PKCS#1 / SPKI / PKCS#8 DER).
Status rsa_from_json(const json& j, KeyMaterial& m);
Status rsa_to_json(const SuiteInfo& s, byte_span pub, const SecretBytes* priv, ojson& j);

}  // namespace pqsig::jose::detail
