// pqsig — ML-KEM (FIPS 203): ML-KEM-512 / ML-KEM-768 / ML-KEM-1024.
// Written from the standard; one implementation templated over the parameter set.
// This header is part of the PQ core: it must not depend on OpenSSL.
//
// Key formats:
//  * the canonical private key is the 64-byte seed d ‖ z (FIPS 203 §7.1, ACVP "seed" format);
//  * the expanded decapsulation key dk = dk_PKE ‖ ek ‖ H(ek) ‖ z (FIPS 203 Algorithm 16) also imports.
// Every malformed input gives a typed error:
//  * wrong length anywhere                          → Errc::invalid_length
//  * §7.2 modulus check on ek / §7.3 hash check on dk → Errc::key_check_failed
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "pqsig/common.hpp"

namespace pqsig::mlkem {

enum class ParameterSet { ml_kem_512, ml_kem_768, ml_kem_1024 };

/// FIPS 203 Table 2 / Table 3 parameters and derived sizes (bytes).
struct Params {
  int k, eta1, eta2, du, dv;
  std::size_t ek_size;  ///< 384k + 32
  std::size_t dk_size;  ///< 768k + 96
  std::size_t ct_size;  ///< 32(du·k + dv)
};
constexpr Params kMlKem512{2, 3, 2, 10, 4, 800, 1632, 768};
constexpr Params kMlKem768{3, 2, 2, 10, 4, 1184, 2400, 1088};
constexpr Params kMlKem1024{4, 2, 2, 11, 5, 1568, 3168, 1568};

constexpr std::size_t kSeedSize = 64;          ///< d ‖ z
constexpr std::size_t kSharedSecretSize = 32;  ///< K
constexpr std::size_t kMessageSize = 32;       ///< m (Encaps randomness)

const Params& params(ParameterSet ps) noexcept;
std::string_view name(ParameterSet ps) noexcept;  ///< "ML-KEM-768" ...

struct KeyPair {
  bytes ek;         ///< encapsulation key
  SecretBytes dk;   ///< expanded decapsulation key (dk_PKE ‖ ek ‖ H(ek) ‖ z)
};

struct Encapsulated {
  bytes c;          ///< ciphertext
  SecretBytes k;    ///< shared secret K (32 bytes)
};

/// FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal(d, z). d and z are 32 bytes each.
Result<KeyPair> keygen_internal(ParameterSet ps, byte_span d, byte_span z);
/// Key generation from the 64-byte seed d ‖ z.
Result<KeyPair> keygen_from_seed(ParameterSet ps, byte_span seed);
/// FIPS 203, Algorithm 19: ML-KEM.KeyGen with d, z from the OS random source.
/// `seed_out` (optional, 64 bytes) receives d ‖ z.
Result<KeyPair> keygen(ParameterSet ps, SecretBytes* seed_out = nullptr);

/// FIPS 203 §7.2: encapsulation-key length and modulus check.
Status check_encaps_key(ParameterSet ps, byte_span ek);
/// FIPS 203 §7.3: decapsulation-key length and hash check (H(ek) stored in dk).
Status check_decaps_key(ParameterSet ps, byte_span dk);

/// FIPS 203, Algorithm 17: ML-KEM.Encaps_internal(ek, m), preceded by the §7.2 checks.
Result<Encapsulated> encaps_internal(ParameterSet ps, byte_span ek, byte_span m);
/// FIPS 203, Algorithm 20: ML-KEM.Encaps(ek) with m from the OS random source.
Result<Encapsulated> encaps(ParameterSet ps, byte_span ek);

/// FIPS 203, Algorithm 21: ML-KEM.Decaps(dk, c), preceded by the §7.3 checks (dk lengths and
/// hash, ciphertext length). Implicit rejection is constant time.
Result<SecretBytes> decaps(ParameterSet ps, byte_span dk, byte_span c);

/// Decapsulation without repeating the §7.3 hash check (the caller has checked dk once, e.g.
/// when it was imported or derived from a seed). Lengths are still checked.
Result<SecretBytes> decaps_checked_key(ParameterSet ps, byte_span dk, byte_span c);

/// An encapsulation key checked once (FIPS 203 §7.2) and expanded once: ByteDecode_12 of t̂,
/// the matrix Â (SampleNTT, Algorithm 13 lines 3–7) and H(ek) are kept, so each Encaps only
/// samples, multiplies and encodes. Move-only.
class EncapsKey {
 public:
  /// Length and modulus check, then the expansion.
  [[nodiscard]] static Result<EncapsKey> from_bytes(ParameterSet ps, byte_span ek);
  EncapsKey(EncapsKey&&) noexcept;
  EncapsKey& operator=(EncapsKey&&) noexcept;
  ~EncapsKey();
  ParameterSet parameter_set() const noexcept;
  byte_span bytes() const noexcept;  ///< the encoded ek
  /// FIPS 203, Algorithm 20: ML-KEM.Encaps(ek), m from the OS random source.
  [[nodiscard]] Result<Encapsulated> encaps() const;
  /// FIPS 203, Algorithm 17: ML-KEM.Encaps_internal(ek, m), m of 32 bytes.
  [[nodiscard]] Result<Encapsulated> encaps_internal(byte_span m) const;
  struct State;

 private:
  explicit EncapsKey(std::unique_ptr<State> s) noexcept;
  std::unique_ptr<State> st_;
  friend class DecapsKey;
};

/// A decapsulation key with ŝ decoded and its public half expanded as in EncapsKey; secret
/// state is wiped on destruction. Move-only.
class DecapsKey {
 public:
  /// FIPS 203, Algorithm 16 from the 64-byte seed d ‖ z: the key pair is generated once and
  /// the matrix Â computed for it is kept.
  [[nodiscard]] static Result<DecapsKey> from_seed(ParameterSet ps, byte_span seed);
  /// From the expanded dk (length and §7.3 hash check).
  [[nodiscard]] static Result<DecapsKey> from_expanded(ParameterSet ps, byte_span dk);
  DecapsKey(DecapsKey&&) noexcept;
  DecapsKey& operator=(DecapsKey&&) noexcept;
  ~DecapsKey();
  ParameterSet parameter_set() const noexcept;
  byte_span encaps_key() const noexcept;  ///< ek
  byte_span expanded() const noexcept;    ///< dk (secret)
  /// FIPS 203, Algorithm 21: ML-KEM.Decaps(dk, c) (ciphertext length checked).
  [[nodiscard]] Result<SecretBytes> decaps(byte_span c) const;
  struct State;

 private:
  explicit DecapsKey(std::unique_ptr<State> s) noexcept;
  std::unique_ptr<State> st_;
};

}  // namespace pqsig::mlkem
