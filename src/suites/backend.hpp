// Internal: the one interface every implementation of an algorithm family plugs in through, ours
// and every provider's. pqsig's own backends (src/suites/backend_<family>.cpp) are found by family
// (backend_for, the suite API); src/providers/ alone knows which other providers exist (its one
// table of (provider, family) → Backend, src/providers/provider.cpp), and provider::Provider is
// that table seen from outside: it adds no operation of its own.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "pqsig/suite.hpp"

namespace pqsig::detail {

struct SignerImpl {
  const SuiteInfo* info = nullptr;
  virtual ~SignerImpl() = default;
  virtual byte_span public_key() const noexcept = 0;
  virtual byte_span private_key() const noexcept = 0;
  virtual Result<bytes> expanded_private_key() const {
    return Error{Errc::unsupported, std::string(info->id) + ": no expanded private key form"};
  }
  virtual Result<bytes> sign(byte_span msg, const SignOptions& opt) const = 0;
  /// MAC suites only.
  virtual Status verify(byte_span, byte_span, const SignOptions&) const {
    return Error{Errc::unsupported, "verify with a private key is only for MAC suites"};
  }
};

struct VerifierImpl {
  const SuiteInfo* info = nullptr;
  virtual ~VerifierImpl() = default;
  virtual byte_span public_key() const noexcept = 0;
  virtual Status verify(byte_span msg, byte_span sig, const SignOptions& opt) const = 0;
  /// Internal interface: msg is M′ itself (FIPS 204 Algorithm 8 / FIPS 205 Algorithm 20).
  virtual Status verify_internal(byte_span, byte_span) const {
    return Error{Errc::unsupported, std::string(info->id) + ": no internal-interface verification here"};
  }
  /// ML-DSA external μ (FIPS 204 Algorithm 8 with μ given).
  virtual Status verify_mu(byte_span, byte_span) const {
    return Error{Errc::unsupported, std::string(info->id) + ": no external-mu verification here"};
  }
};

struct KemDecapsImpl {
  const SuiteInfo* info = nullptr;
  virtual ~KemDecapsImpl() = default;
  virtual byte_span public_key() const noexcept = 0;
  virtual byte_span private_key() const noexcept = 0;
  virtual Result<SecretBytes> decaps(byte_span ct) const = 0;
  /// The expanded private key when the suite has one (ML-KEM: dk), else empty.
  virtual byte_span expanded_key() const noexcept { return {}; }
};

struct KemEncapsImpl {
  const SuiteInfo* info = nullptr;
  virtual ~KemEncapsImpl() = default;
  virtual byte_span public_key() const noexcept = 0;
  virtual Result<Encapsulation> encaps() const = 0;
  virtual Result<Encapsulation> encaps_derand(byte_span eseed) const = 0;
};

/// A family's entry points. Any pointer may be null (operation not offered by that family).
struct Backend {
  Result<SecretBytes> (*generate_private)(const SuiteInfo&) = nullptr;
  Result<std::unique_ptr<SignerImpl>> (*signer_from_private)(const SuiteInfo&, byte_span) = nullptr;
  Result<std::unique_ptr<SignerImpl>> (*signer_from_expanded)(const SuiteInfo&, byte_span) = nullptr;
  Result<std::unique_ptr<VerifierImpl>> (*verifier_from_public)(const SuiteInfo&, byte_span) = nullptr;
  Result<std::unique_ptr<KemDecapsImpl>> (*kem_from_private)(const SuiteInfo&, byte_span) = nullptr;
  Result<std::unique_ptr<KemEncapsImpl>> (*kem_from_public)(const SuiteInfo&, byte_span) = nullptr;
  /// Verification interfaces (provider::Interface mask) for a suite; 0 = suite not implemented.
  /// Null: kPure when verifier_from_public is set.
  unsigned (*interfaces)(const SuiteInfo&) noexcept = nullptr;
  /// Key generation straight into a new key (the fresh seed drawn into the key's own buffer,
  /// not copied from a temporary). Null: generate_private, then *_from_private.
  Result<std::unique_ptr<SignerImpl>> (*signer_generate)(const SuiteInfo&) = nullptr;
  Result<std::unique_ptr<KemDecapsImpl>> (*kem_generate)(const SuiteInfo&) = nullptr;
  // (new members go last: some backends are aggregate-initialised positionally)
  /// One-shot KEM operations from the encoded keys, nothing prepared (the cold path). Null:
  /// kem_from_public + encaps / kem_from_private + decaps.
  Result<Encapsulation> (*kem_encaps_once)(const SuiteInfo&, byte_span pub) = nullptr;
  Result<SecretBytes> (*kem_decaps_once)(const SuiteInfo&, byte_span priv, byte_span ct) = nullptr;
  /// The provider operations offered for a suite (provider::Operation mask). Null: none.
  /// kSign means signer_from_expanded is set; kEncaps / kDecaps mean kem_encaps_once /
  /// kem_decaps_once take the encoded ek / the expanded dk.
  unsigned (*operations)(const SuiteInfo&) noexcept = nullptr;
  /// A fresh key pair in the FIPS encodings (pk + expanded sk, or ek + dk) — kKeygen.
  Result<EncodedKeyPair> (*keypair)(const SuiteInfo&) = nullptr;
  /// A family whose public keys carry their parameter set (lms, xmss): the suite of one key, its
  /// set read from the key, typed and bounded (pqsig::suite_for_public_key; multi_tree: the
  /// XMSS^MT OID registry). Null: the family's parameter set is named by its suite only.
  Result<const SuiteInfo*> (*suite_for_key)(Family, byte_span pub, bool multi_tree) = nullptr;
};

/// Backend::keypair for a family whose signing keys have an expanded form: a fresh SigningKey's
/// public key and expanded private key (src/suites/keys.cpp).
Result<EncodedKeyPair> keypair_from_signing_key(const SuiteInfo& s);

// One per family; a family not yet implemented returns nullptr and its suites report
// Errc::unsupported ("not available in this build").
const Backend* mldsa_backend() noexcept;      // src/suites/backend_mldsa.cpp
const Backend* slhdsa_backend() noexcept;     // src/suites/backend_slhdsa.cpp
const Backend* mlkem_backend() noexcept;      // src/suites/backend_mlkem.cpp (ml-kem + hybrid KEMs)
const Backend* classical_backend() noexcept;  // src/suites/backend_classical.cpp
const Backend* composite_backend() noexcept;  // src/suites/backend_composite.cpp
const Backend* hbs_backend() noexcept;        // src/suites/backend_hbs.cpp (lms + xmss: verification only)

/// pqsig's own backend for a family, or nullptr (src/suites/registry.cpp).
const Backend* backend_for_family(Family f) noexcept;
/// pqsig's own backend for the suite's family, or nullptr.
inline const Backend* backend_for(const SuiteInfo& s) noexcept { return backend_for_family(s.family); }
/// Verification interfaces of that backend for the suite (0 when none).
unsigned backend_interfaces(const Backend* b, const SuiteInfo& s) noexcept;

/// A verification by the options' input form (M, M′ or μ): the one dispatch of SignOptions::input.
inline Status verify_with(const VerifierImpl& v, byte_span msg, byte_span sig, const SignOptions& opt) {
  switch (opt.input) {
    case SignOptions::Input::internal:
    case SignOptions::Input::mu:
      if (!opt.ctx.empty() || opt.prehash)
        return Error{Errc::invalid_argument, "context and pre-hash apply to the external interface only"};
      return opt.input == SignOptions::Input::internal ? v.verify_internal(msg, sig) : v.verify_mu(msg, sig);
    case SignOptions::Input::message: break;
  }
  return v.verify(msg, sig, opt);
}

}  // namespace pqsig::detail
