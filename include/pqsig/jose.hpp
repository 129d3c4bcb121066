// pqsig — JOSE: JWK / JWKS for every key type (OKP, EC, RSA, oct, AKP), RFC 7638 thumbprints,
// JWS compact serialization. Key files of the CLI are JWKs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::jose {

/// A key loaded from a JWK: its suite, its RFC 7638 thumbprint, and the key objects it yields
/// (a private JWK yields both the private object and the public one).
struct LoadedKey {
  const SuiteInfo* suite = nullptr;
  std::string kid;         ///< the JWK's "kid" member if present, else empty
  std::string thumbprint;  ///< RFC 7638 SHA-256 thumbprint, base64url
  std::optional<SigningKey> signing;      ///< signature / MAC suites, private JWK
  std::optional<VerifyingKey> verifying;  ///< signature suites (public part)
  std::optional<KemPrivateKey> kem_private;
  std::optional<KemPublicKey> kem_public;
};

/// JWK JSON for a key. `include_private` adds the private members (AKP "priv" = seed).
/// "kid" is set to the RFC 7638 thumbprint.
Result<std::string> to_jwk(const SigningKey& key, bool include_private);
Result<std::string> to_jwk(const VerifyingKey& key);
Result<std::string> to_jwk(const KemPrivateKey& key, bool include_private);
Result<std::string> to_jwk(const KemPublicKey& key);

/// Parse a JWK. The suite comes from "alg" (and "kty"/"crv"); `suite_hint` (a registry id)
/// resolves keys whose JWK does not name a single suite (e.g. RSA without "alg", oct).
Result<LoadedKey> load_jwk(std::string_view json, std::string_view suite_hint = {});
/// Parse a JWKS ({"keys":[...]}). Keys of unknown types are reported as errors by index.
Result<std::vector<LoadedKey>> load_jwks(std::string_view json);

/// RFC 7638 thumbprint (SHA-256, base64url) of a JWK given as JSON text.
Result<std::string> thumbprint(std::string_view jwk_json);

/// JWS compact serialization (RFC 7515) with the suite's JOSE "alg".
Result<std::string> jws_sign_compact(const SigningKey& key, byte_span payload, std::string_view kid = {});
/// Verifies and returns the payload.
Result<bytes> jws_verify_compact(const VerifyingKey& key, std::string_view jws);

}  // namespace pqsig::jose
