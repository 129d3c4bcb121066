// Internal to src/suites: the suite adapters of the classical primitives (src/classical/), in
// src/suites/classical_sign.cpp; used by the classical and composite backends.
#pragma once

#include <memory>

#include "classical/internal.hpp"
#include "pqsig/classical.hpp"
#include "suites/backend.hpp"

namespace pqsig::classical::internal {

/// Signer / verifier objects for the suite API (also used by the composite backend).
Result<std::unique_ptr<pqsig::detail::SignerImpl>> make_signer(Kind k, byte_span priv, Ed25519Engine eng);
Result<std::unique_ptr<pqsig::detail::VerifierImpl>> make_verifier(Kind k, byte_span pub, Ed25519Engine eng);

}  // namespace pqsig::classical::internal
