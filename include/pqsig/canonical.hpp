// pqsig — the canonical signing input: one length-prefixed, fixed-width, domain-separated byte
// string per signed statement, so that a signature made for one purpose, suite, network,
// contract or transaction can never be replayed as another. Layout: docs/canonical.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::canonical {

/// Domain string that opens every encoding (and names the layout version).
inline constexpr std::string_view kDomain = "PQSIG:CANONICAL:v1";

/// What a key (and a signature) is for. Codes are part of the encoding: never renumber.
enum class Purpose : std::uint8_t {
  quote = 1,
  settlement_instruction = 2,
  key_rotation = 3,
  governance = 4,
  transport = 5,
  attestation = 6,
};
std::string_view purpose_name(Purpose p) noexcept;   ///< "quote", "settlement-instruction", ...
Result<Purpose> parse_purpose(std::string_view name);  ///< exact names above; else invalid_argument

/// Hash of the signed body. Codes are part of the encoding.
enum class BodyHash : std::uint8_t { sha2_256 = 1, sha2_512 = 2, sha3_256 = 3 };
std::size_t body_hash_size(BodyHash h) noexcept;

/// Limits enforced by encode and decode (a longer field is an error, never truncated).
inline constexpr std::size_t kMaxText = 255;       ///< protocol, network, deployment, contract, kind
inline constexpr std::size_t kMaxObjectId = 1024;  ///< one object identifier
inline constexpr std::size_t kMaxObjects = 256;    ///< number of object identifiers

struct SigningInput {
  std::string protocol;               ///< e.g. "settlement"
  std::uint32_t version = 1;          ///< protocol version
  std::string network;                ///< e.g. "mainnet"
  std::string deployment;             ///< e.g. "eu-1"
  std::string contract;               ///< contract / ledger / account namespace
  std::string kind;                   ///< transaction kind, e.g. "transfer"
  Purpose purpose = Purpose::settlement_instruction;
  std::vector<bytes> object_ids;      ///< identifiers of the objects the statement is about
  std::uint64_t nonce = 0;            ///< sequence number or nonce
  std::uint64_t expiry = 0;           ///< Unix seconds; 0 = none
  const SuiteInfo* suite = nullptr;   ///< signing suite (id and version are encoded)
  BodyHash body_hash_alg = BodyHash::sha2_256;
  bytes body_hash;                    ///< body_hash_size(body_hash_alg) bytes

  /// Fill body_hash from the body bytes.
  void set_body(byte_span body);
};

/// Machine-readable reasons a decode fails (the Error message starts with the name).
enum class DecodeError {
  truncated,        ///< input ends inside a field
  trailing_bytes,   ///< bytes left after the last field
  bad_domain,       ///< does not start with kDomain
  overlong_length,  ///< a length prefix exceeds the field's limit
  bad_text,         ///< text field is not printable UTF-8 / contains NUL
  bad_purpose,      ///< unknown purpose code
  unknown_suite,    ///< suite id/version not in the registry
  bad_hash,         ///< unknown body-hash code or wrong digest length
};
std::string_view decode_error_name(DecodeError e) noexcept;

/// Encode (validates every field; invalid → Errc::invalid_argument / invalid_length).
Result<bytes> encode(const SigningInput& in);
/// Strict decode: exactly one encoding, nothing before or after. On error, `why` (if given)
/// receives the reason and the Error's message starts with decode_error_name(reason).
Result<SigningInput> decode(byte_span in, DecodeError* why = nullptr);

/// The application context string that binds purpose and suite into a signature (ML-DSA,
/// SLH-DSA and composite ctx): "pqsig/v1/<purpose>/<suite-id>" — the same format as
/// composite::application_context.
std::string purpose_context(Purpose p, const SuiteInfo& suite);

}  // namespace pqsig::canonical
