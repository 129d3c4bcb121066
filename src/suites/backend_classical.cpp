// The classical family's suite backend: Ed25519 (libsodium), Ed448, ECDSA P-256/P-384, RSA-PSS,
// RSA PKCS#1 v1.5 and HMAC-SHA256 (OpenSSL 3.0 libcrypto / pqsig SHA-256). The primitives are
// in src/classical/, their signer / verifier objects in classical_sign.cpp.
#include "classical/internal.hpp"
#include "pqsig/classical_suites.hpp"
#include "suites/backend.hpp"
#include "suites/classical_adapter.hpp"

namespace pqsig::detail {
namespace {
namespace ci = pqsig::classical::internal;

Result<SecretBytes> gen(const SuiteInfo& s) {
  auto k = pqsig::classical::kind_of(s);
  if (!k) return k.error();
  return ci::generate_private(*k);
}
Result<std::unique_ptr<SignerImpl>> signer(const SuiteInfo& s, byte_span priv) {
  auto k = pqsig::classical::kind_of(s);
  if (!k) return k.error();
  return ci::make_signer(*k, priv, pqsig::classical::Ed25519Engine::libsodium);
}
Result<std::unique_ptr<VerifierImpl>> verifier(const SuiteInfo& s, byte_span pub) {
  auto k = pqsig::classical::kind_of(s);
  if (!k) return k.error();
  return ci::make_verifier(*k, pub, pqsig::classical::Ed25519Engine::libsodium);
}
}  // namespace

const Backend* classical_backend() noexcept {
  static const Backend b{&gen, &signer, nullptr, &verifier, nullptr, nullptr};
  return &b;
}
}  // namespace pqsig::detail
