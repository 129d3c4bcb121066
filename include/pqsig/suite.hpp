// pqsig — one API for every suite: the closed, versioned suite registry, signing keys,
// verifying keys and KEM keys. Errors are typed values; a bad signature is never an exception.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "pqsig/common.hpp"
#include "pqsig/hash.hpp"

// The parameter-set types of the families (defined in pqsig/mldsa.hpp, slhdsa.hpp, mlkem.hpp,
// classical.hpp); include the family's header to use them.
namespace pqsig::mldsa {
enum class Level;
}
namespace pqsig::slhdsa {
enum class ParamSet : int;
}
namespace pqsig::mlkem {
enum class ParameterSet;
}
namespace pqsig::classical {
enum class Kind : std::uint8_t;
}
namespace pqsig::kem {
enum class Hybrid : int;
}

namespace pqsig {

enum class SuiteClass { signature, kem, mac };
std::string_view suite_class_name(SuiteClass c) noexcept;

/// The algorithm family of a suite: which implementation (src/<family>) and which parameter-set
/// handle (SuiteParams) it has. `none` only for placeholder rows, never in the registry.
/// lms (LMS/HSS, RFC 8554) and xmss (XMSS/XMSS^MT, RFC 8391) are stateful: SuiteInfo::stateful.
enum class Family : std::uint8_t { ml_dsa, slh_dsa, ml_kem, classical, composite, hybrid_kem, lms, xmss, none };
/// "ml-dsa" | "slh-dsa" | "ml-kem" | "classical" | "composite" | "hybrid-kem" | "lms" | "xmss" | "none".
std::string_view family_name(Family f) noexcept;
/// A family compares equal to its name (family_name), for filters by name. A template so that
/// only a Family itself takes part (never a type that converts to one, e.g. a JSON value).
template <class F>
  requires std::same_as<F, Family>
bool operator==(F f, std::string_view name) noexcept {
  return family_name(f) == name;
}

/// The parameter set of a stateful hash-based suite by its registered codes (pqsig/lms.hpp,
/// pqsig/xmss.hpp look them up: lms::find_lms / find_lmots, xmss::find_xmss / find_xmssmt).
struct HbsParams {
  std::uint32_t code = 0;   ///< lms: the LMS typecode of every level (RFC 8554 §5.1); xmss: the OID
  std::uint32_t ots = 0;    ///< lms: the LM-OTS typecode of every level (RFC 8554 §4.1); xmss: 0
  std::uint8_t levels = 1;  ///< lms: HSS levels L (1 = one LMS tree); xmss: layers d (1 = XMSS)
  bool mt = false;          ///< xmss: the OID is in the XMSS^MT registry (RFC 8391 §5.3)
  std::uint8_t height = 0;  ///< total tree height: the key makes 2^height signatures
};

/// The parameter set of a suite within its family. Only the members of its family are set:
///   ml-dsa: mldsa · slh-dsa: slhdsa · ml-kem: mlkem · classical: classical ·
///   composite: mldsa + classical (its two parts) · hybrid-kem: mlkem (its ML-KEM part) + hybrid ·
///   lms, xmss: hbs.
struct SuiteParams {
  mldsa::Level mldsa{};
  slhdsa::ParamSet slhdsa{};
  mlkem::ParameterSet mlkem{};
  classical::Kind classical{};
  kem::Hybrid hybrid{};  ///< hybrid-kem only (pqsig/kem.hpp)
  HbsParams hbs{};       ///< lms / xmss only
};

/// One entry of the closed registry. Sizes are bytes; 0 means "variable" (RSA, DER forms),
/// in which case the `max_` figure is an upper bound used for budgeting.
struct SuiteInfo {
  std::string_view id;            ///< "ml-dsa-65", "ml-dsa-65+ed25519", "ml-kem-768+x25519-hkdf" ...
  int version;                    ///< registry version of this suite definition
  SuiteClass cls;
  Family family;
  std::string_view standard;      ///< "FIPS 204", "RFC 8032", "draft-ietf-lamps-pq-composite-sigs-13" ...
  std::string_view jose_alg;      ///< JOSE "alg" (e.g. "ML-DSA-44", "EdDSA", "ES256"); empty if none
  std::string_view http_alg;      ///< RFC 9421 alg name; empty if none
  bool http_registered;           ///< in the IANA HTTP Signature Algorithms registry
  std::size_t public_key_size;    ///< encoded public key (KEM: encapsulation key)
  std::size_t private_key_size;   ///< canonical private key (seed form where one exists)
  std::size_t expanded_key_size;  ///< expanded secret key (FIPS encodings); == private if none
  std::size_t output_size;        ///< signature / ciphertext / MAC tag; max if variable
  std::size_t shared_secret_size; ///< KEM only
  bool variable_output;           ///< output_size is an upper bound (ECDSA DER, RSA)
  SuiteParams params{};           ///< the family's parameter set (sizes above static_asserted against it)
  /// A stateful hash-based suite (lms, xmss): every signature uses a one-time index that must never
  /// be used twice. The suite API verifies (VerifyingKey) but refuses to make or sign with a
  /// SigningKey (Errc::stateful_key): keys are made and used through their state,
  /// lms::StatefulSigner / xmss::StatefulSigner (`pqsig hbs keygen` / `pqsig hbs sign`).
  bool stateful = false;

  /// Signatures one key can make: 2^height for a stateful suite, 0 (unlimited) otherwise.
  constexpr std::uint64_t max_signatures() const noexcept {
    return stateful ? std::uint64_t{1} << params.hbs.height : 0;
  }
};

/// All suites of the registry, in display order.
std::span<const SuiteInfo> all_suites() noexcept;
/// Lookup by identifier (exact, lower-case) and version. Unknown → Errc::unknown_suite, never a default.
Result<const SuiteInfo*> find_suite(std::string_view id, int version = 1);
/// Lookup by "id" or "id@vN" (e.g. "ml-dsa-65@v1").
Result<const SuiteInfo*> parse_suite_ref(std::string_view ref);

/// The one options type of signing and verification (the suite API and every provider;
/// provider::VerifyOptions is this type).
struct SignOptions {
  /// What the message argument is: M (external interface), M′ itself (internal interface, FIPS 204
  /// Algorithm 8 / FIPS 205 Algorithm 20) or ML-DSA's μ. Signing takes M only.
  enum class Input { message, internal, mu };
  byte_span ctx{};                          ///< context string (ML-DSA/SLH-DSA/composite: 0..255 bytes)
  std::optional<hash::PreHash> prehash{};   ///< HashML-DSA / HashSLH-DSA when set
  bool deterministic = false;               ///< ML-DSA rnd = 0^32, SLH-DSA opt_rand = PK.seed
  Input input = Input::message;             ///< verification only: M, M′ or μ (ctx/prehash: M only)
};

namespace provider {
/// Verification interfaces an implementation may offer for a suite (bit mask; the provider seam,
/// pqsig/provider.hpp).
enum Interface : unsigned {
  kPure = 1u << 0,        ///< external interface, empty context
  kContext = 1u << 1,     ///< external interface, non-empty context
  kPreHash = 1u << 2,     ///< HashML-DSA / HashSLH-DSA
  kInternal = 1u << 3,    ///< internal interface (M′ given as is)
  kExternalMu = 1u << 4,  ///< ML-DSA external μ
};
/// Operations besides verification an implementation may offer for a suite (bit mask).
enum Operation : unsigned {
  kKeygen = 1u << 0,  ///< key pair in the FIPS encodings (ML-DSA / SLH-DSA: pk, expanded sk; ML-KEM: ek, dk)
  kSign = 1u << 1,    ///< external interface, pure or with context, from the expanded secret key
  kEncaps = 1u << 2,  ///< FIPS 203, Algorithm 20: ML-KEM.Encaps(ek)
  kDecaps = 1u << 3,  ///< FIPS 203, Algorithm 21: ML-KEM.Decaps(dk, c), dk the expanded FIPS 203 key
};
}  // namespace provider

namespace detail {
struct SignerImpl;
struct VerifierImpl;
struct KemDecapsImpl;
struct KemEncapsImpl;
}  // namespace detail

/// A private signing key, prepared once (expanded form cached). Move-only; wiped on destruction.
class SigningKey {
 public:
  /// Fresh key from the OS random source.
  static Result<SigningKey> generate(const SuiteInfo& suite);
  /// From the canonical private key (seed form where the suite has one; see SuiteInfo).
  static Result<SigningKey> from_private(const SuiteInfo& suite, byte_span priv);
  /// From an expanded secret key (ML-DSA / SLH-DSA FIPS encodings).
  static Result<SigningKey> from_expanded(const SuiteInfo& suite, byte_span sk);

  SigningKey(SigningKey&&) noexcept;
  SigningKey& operator=(SigningKey&&) noexcept;
  SigningKey(const SigningKey&) = delete;
  SigningKey& operator=(const SigningKey&) = delete;
  ~SigningKey();

  /// False for a moved-from object: its operations then return Errc::invalid_argument,
  /// public_key() is empty and suite() is a placeholder (never a null dereference).
  bool valid() const noexcept;
  const SuiteInfo& suite() const noexcept;
  byte_span public_key() const noexcept;
  /// Canonical private key bytes (the seed form when one exists).
  byte_span private_key() const noexcept;
  /// Expanded secret key (FIPS 204/205 sk encoding) where the suite has one, else error.
  Result<bytes> expanded_private_key() const;
  Result<bytes> sign(byte_span msg, const SignOptions& opt = {}) const;
  /// MAC suites: verify with the same key.
  Status verify(byte_span msg, byte_span sig, const SignOptions& opt = {}) const;

  explicit SigningKey(std::unique_ptr<detail::SignerImpl> impl) noexcept;

 private:
  std::unique_ptr<detail::SignerImpl> impl_;
};

/// A public verifying key, decoded and prepared once.
class VerifyingKey {
 public:
  static Result<VerifyingKey> from_public(const SuiteInfo& suite, byte_span pub);

  VerifyingKey(VerifyingKey&&) noexcept;
  VerifyingKey& operator=(VerifyingKey&&) noexcept;
  VerifyingKey(const VerifyingKey&) = delete;
  VerifyingKey& operator=(const VerifyingKey&) = delete;
  ~VerifyingKey();

  /// False for a moved-from object: its operations then return Errc::invalid_argument,
  /// public_key() is empty and suite() is a placeholder (never a null dereference).
  bool valid() const noexcept;
  const SuiteInfo& suite() const noexcept;
  byte_span public_key() const noexcept;
  /// Ok() when valid; Errc::verify_failed for a bad signature; other codes for malformed input.
  Status verify(byte_span msg, byte_span sig, const SignOptions& opt = {}) const;

  explicit VerifyingKey(std::unique_ptr<detail::VerifierImpl> impl) noexcept;

 private:
  std::unique_ptr<detail::VerifierImpl> impl_;
};

struct Encapsulation {
  bytes ciphertext;
  SecretBytes shared_secret;
};

/// A key pair in the FIPS encodings every provider reads: ML-DSA / SLH-DSA (pk, expanded sk),
/// ML-KEM (ek, dk).
struct EncodedKeyPair {
  bytes public_key;
  SecretBytes secret_key;
};

/// KEM decapsulation key. Move-only; wiped on destruction.
class KemPrivateKey {
 public:
  static Result<KemPrivateKey> generate(const SuiteInfo& suite);
  static Result<KemPrivateKey> from_private(const SuiteInfo& suite, byte_span seed);

  KemPrivateKey(KemPrivateKey&&) noexcept;
  KemPrivateKey& operator=(KemPrivateKey&&) noexcept;
  KemPrivateKey(const KemPrivateKey&) = delete;
  KemPrivateKey& operator=(const KemPrivateKey&) = delete;
  ~KemPrivateKey();

  /// False for a moved-from object: its operations then return Errc::invalid_argument,
  /// public_key() is empty and suite() is a placeholder (never a null dereference).
  bool valid() const noexcept;
  const SuiteInfo& suite() const noexcept;
  byte_span public_key() const noexcept;
  byte_span private_key() const noexcept;
  Result<SecretBytes> decaps(byte_span ciphertext) const;
  /// The expanded private key when the suite has one (ML-KEM: the FIPS 203 dk), else empty.
  /// Secret, like private_key().
  byte_span expanded_key() const noexcept;

  explicit KemPrivateKey(std::unique_ptr<detail::KemDecapsImpl> impl) noexcept;

 private:
  std::unique_ptr<detail::KemDecapsImpl> impl_;
};

class KemPublicKey {
 public:
  static Result<KemPublicKey> from_public(const SuiteInfo& suite, byte_span pub);

  KemPublicKey(KemPublicKey&&) noexcept;
  KemPublicKey& operator=(KemPublicKey&&) noexcept;
  KemPublicKey(const KemPublicKey&) = delete;
  KemPublicKey& operator=(const KemPublicKey&) = delete;
  ~KemPublicKey();

  /// False for a moved-from object: its operations then return Errc::invalid_argument,
  /// public_key() is empty and suite() is a placeholder (never a null dereference).
  bool valid() const noexcept;
  const SuiteInfo& suite() const noexcept;
  byte_span public_key() const noexcept;
  /// Randomised encapsulation (OS randomness).
  Result<Encapsulation> encaps() const;
  /// Deterministic encapsulation from caller-supplied randomness (tests / KATs only).
  Result<Encapsulation> encaps_derand(byte_span eseed) const;

  explicit KemPublicKey(std::unique_ptr<detail::KemEncapsImpl> impl) noexcept;

 private:
  std::unique_ptr<detail::KemEncapsImpl> impl_;
};

/// One encapsulation from the encoded public key with nothing prepared or kept: the cold path
/// (an ephemeral key, as in a TLS 1.3 handshake; liboqs' OQS_KEM_encaps). The key checks of
/// from_public are included. KemPublicKey keeps a prepared key for repeated use.
Result<Encapsulation> kem_encaps_once(const SuiteInfo& suite, byte_span pub);
/// One decapsulation from the encoded private key (any form from_private takes, or ML-KEM's
/// expanded dk, hash-checked) with nothing prepared or kept: the cold path.
Result<SecretBytes> kem_decaps_once(const SuiteInfo& suite, byte_span priv, byte_span ciphertext);

}  // namespace pqsig
