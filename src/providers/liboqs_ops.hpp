// Internal: the liboqs provider's operations besides verification (src/providers/liboqs.cpp):
// keygen and sign (ML-DSA, SLH-DSA), keygen / encaps / decaps (ML-KEM). Errc::unsupported when
// liboqs is not compiled in or lacks the suite.
#pragma once

#include "pqsig/provider.hpp"

namespace pqsig::detail {

unsigned liboqs_operations(const SuiteInfo& s) noexcept;
Result<provider::KeyPair> liboqs_keygen(const SuiteInfo& s);
Result<Encapsulation> liboqs_encaps(const SuiteInfo& s, byte_span ek);
Result<SecretBytes> liboqs_decaps(const SuiteInfo& s, byte_span dk, byte_span ct);

}  // namespace pqsig::detail
