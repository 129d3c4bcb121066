// pqsig — providers: independent implementations of the signature suites behind one interface.
//
// Built in: "pqsig" (this library's own code, what the suite API uses). Optional: "liboqs"
// (compiled in when CMake finds liboqs, PQSIG_WITH_LIBOQS) and "openssl" (detected at run time:
// available when the loaded libcrypto implements ML-DSA / SLH-DSA, i.e. OpenSSL >= 3.5).
//
// A provider never verifies less than it is asked: a suite, context, pre-hash or input form it
// does not implement is Errc::unsupported, checked before any verification runs.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/hash.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::provider {

// The verification interfaces (enum Interface: kPure, kContext, kPreHash, kInternal,
// kExternalMu) are declared with the suites (pqsig/suite.hpp).
/// "pure,context,prehash,internal,external-mu" (the set bits, in that order).
std::string interface_names(unsigned mask);

// The operations besides verification (enum Operation: kKeygen, kSign, kEncaps, kDecaps) are
// declared with the suites too.
/// "keygen,sign,encaps,decaps" (the set bits, in that order).
std::string operation_names(unsigned mask);

/// A key pair made by a provider, in the FIPS encodings every provider reads.
using KeyPair = EncodedKeyPair;

/// What a verification covers: the one options type (input M, M′ or μ; ctx and prehash for M).
using VerifyOptions = SignOptions;
/// The interfaces a request needs (exactly one bit).
unsigned required_interface(const VerifyOptions& opt) noexcept;

/// A verifying key decoded once by one provider (cacheable, thread-safe to verify with).
class PreparedKey {
 public:
  virtual ~PreparedKey() = default;
  virtual const SuiteInfo& suite() const noexcept = 0;
  virtual byte_span public_key() const noexcept = 0;
  /// Ok, Errc::verify_failed, or another error. The caller has already checked the interface.
  virtual Status verify(byte_span msg, byte_span sig, const VerifyOptions& opt) const = 0;
};

struct ProviderInfo {
  std::string name;
  bool available = false;
  std::string reason;   ///< why unavailable (empty when available)
  std::string version;  ///< implementation version ("pqsig 0.1.0", "liboqs 0.16.0", ...)
};

class Provider {
 public:
  virtual ~Provider() = default;
  virtual std::string_view name() const noexcept = 0;
  virtual ProviderInfo info() const = 0;
  /// Bit mask of Interface for this suite; 0 = suite not implemented.
  virtual unsigned interfaces(const SuiteInfo& suite) const noexcept = 0;
  /// Decode a public key (once; cache the result).
  virtual Result<std::shared_ptr<const PreparedKey>> prepare(const SuiteInfo& suite, byte_span pk) const = 0;

  /// Ok when the provider implements the suite and the interface the options need, else
  /// Errc::unsupported naming what is missing.
  Status supports(const SuiteInfo& suite, const VerifyOptions& opt) const;
  /// Cold verification from bytes: supports → prepare → verify.
  Status verify(const SuiteInfo& suite, byte_span pk, byte_span msg, byte_span sig,
                const VerifyOptions& opt = {}) const;
  /// Bit mask of Operation for this suite (0 = none besides verification).
  virtual unsigned operations(const SuiteInfo& suite) const noexcept {
    (void)suite;
    return 0;
  }
  /// Key generation where the provider can (kKeygen), else Errc::unsupported.
  virtual Result<KeyPair> keygen(const SuiteInfo& suite) const {
    return Error{Errc::unsupported, std::string(name()) + " cannot generate keys for " + std::string(suite.id)};
  }
  /// KEM encapsulation to an encapsulation key (kEncaps), else Errc::unsupported.
  virtual Result<Encapsulation> encaps(const SuiteInfo& suite, byte_span ek) const {
    (void)ek;
    return Error{Errc::unsupported, std::string(name()) + " cannot encapsulate with " + std::string(suite.id)};
  }
  /// KEM decapsulation with the expanded decapsulation key (kDecaps), else Errc::unsupported.
  virtual Result<SecretBytes> decaps(const SuiteInfo& suite, byte_span dk, byte_span ct) const {
    (void)dk;
    (void)ct;
    return Error{Errc::unsupported, std::string(name()) + " cannot decapsulate with " + std::string(suite.id)};
  }
  /// Signing where the provider can (external interface, pure or with context), from the FIPS
  /// 204 / 205 expanded secret key. Errc::unsupported where it cannot.
  virtual Result<bytes> sign(const SuiteInfo& suite, byte_span expanded_sk, byte_span msg, byte_span ctx) const {
    (void)expanded_sk;
    (void)msg;
    (void)ctx;
    return Error{Errc::unsupported, std::string(name()) + " cannot sign " + std::string(suite.id)};
  }
};

/// A built-in provider by name ("pqsig", "liboqs", "openssl"); unknown name → Errc::invalid_argument.
/// A known provider that is not compiled in or not available here is returned anyway (its info()
/// says why; its interfaces() are 0, so every verification is Errc::unsupported).
Result<std::shared_ptr<const Provider>> find(std::string_view name);
/// Every built-in provider, available or not, in the order pqsig, liboqs, openssl.
std::vector<std::shared_ptr<const Provider>> all();
/// Names of the built-in providers.
std::vector<std::string> names();

}  // namespace pqsig::provider
