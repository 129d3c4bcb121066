// Internal: the openssl provider's operations besides verification (src/providers/openssl.cpp):
// keygen and sign for ML-DSA and SLH-DSA where the loaded libcrypto has them (OpenSSL >= 3.5);
// 0 / Errc::unsupported elsewhere. Signing itself goes through the backend's signer_from_expanded.
#pragma once

#include "pqsig/provider.hpp"

namespace pqsig::detail {

unsigned openssl_operations(const SuiteInfo& s) noexcept;
Result<provider::KeyPair> openssl_keygen(const SuiteInfo& s);

}  // namespace pqsig::detail
