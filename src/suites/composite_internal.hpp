// Internal: the composite family's entry points (src/suites/composite.cpp) for its backend.
#pragma once

#include <memory>

#include "suites/backend.hpp"

namespace pqsig::composite {
Result<SecretBytes> generate(const SuiteInfo& s);
Result<std::unique_ptr<pqsig::detail::SignerImpl>> signer(const SuiteInfo& s, byte_span sk);
Result<std::unique_ptr<pqsig::detail::VerifierImpl>> verifier(const SuiteInfo& s, byte_span pk);
}  // namespace pqsig::composite
