// pqsig — purpose-bound key records and two-way signed rotation.
//
// A key record names the participant, the purpose the key may be used for, its suite, its
// generation, its validity window [not_before, not_after) in Unix seconds, an optional
// revocation, and (for every generation after the first) a rotation proof signed both ways:
// the previous key signs the new record, the new key signs the previous key's id. Records
// serialize to JSON and to a canonical byte encoding; the rotation signatures are made over
// canonical signing inputs (pqsig/canonical.hpp) with a purpose-bound context.
//
// Refusals are Errc::policy errors whose message starts with a machine-readable reason code
// (`keys::Refusal`); malformed records are Errc::invalid_encoding.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/canonical.hpp"
#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::keys {

using canonical::Purpose;

/// Why a record (or chain) is refused. Each has a stable code string (refusal_code).
enum class Refusal {
  malformed,               ///< "malformed": record not well-formed (Errc::invalid_encoding)
  key_mismatch,            ///< "key_mismatch": kid is not the thumbprint of the public key
  wrong_purpose,           ///< "wrong_purpose": key used for another purpose
  not_yet_valid,           ///< "not_yet_valid": before not_before
  expired,                 ///< "expired": at or after not_after
  revoked,                 ///< "revoked": at or after the revocation time
  bad_rotation_signature,  ///< "bad_rotation_signature": a rotation signature does not verify
  broken_chain,            ///< "broken_chain": rotation does not link to the previous record
  bad_revocation,          ///< "bad_revocation": a revocation is unsigned, or not signed by a key with
                           ///< that authority (the record's own key or the key it was rotated from)
  unanchored,              ///< "unanchored": no record of the chain is a trusted anchor (CheckOptions)
};
std::string_view refusal_code(Refusal r) noexcept;

/// A signed revocation. Authority to revoke a record belongs to the record's own key (the holder
/// declares it compromised or retired) and to the key it was rotated from (the key that vouched
/// for it). The signature covers the record's canonical content, `at` and `reason`
/// (revocation_input); an unsigned or badly signed revocation makes the record refused
/// (Refusal::bad_revocation): never silently ignored, never accepted as unsigned.
struct Revocation {
  std::uint64_t at = 0;  ///< Unix seconds from which the key is refused
  std::string reason;
  std::string signer_kid;  ///< kid of the signing key: the record's kid or rotation->previous_kid
  bytes signature;         ///< signer over revocation_input(record), context as rotation_options
};

struct RotationProof {
  std::string previous_kid;
  const SuiteInfo* previous_suite = nullptr;
  bytes previous_public_key;
  std::uint32_t previous_generation = 0;
  bytes old_signature;  ///< previous key over old_signs_new_input(record)
  bytes new_signature;  ///< new key over new_signs_old_input(record)
};

struct KeyRecord {
  std::string participant;  ///< printable ASCII, 1..255 bytes
  Purpose purpose = Purpose::settlement_instruction;
  const SuiteInfo* suite = nullptr;
  std::uint32_t generation = 0;
  std::uint64_t not_before = 0;
  std::uint64_t not_after = 0;
  std::string kid;          ///< RFC 7638 thumbprint of the public JWK
  bytes public_key;         ///< registry encoding of the public key
  std::optional<Revocation> revocation;
  std::optional<RotationProof> rotation;
};

/// A first-generation record (no rotation proof) for a public key.
Result<KeyRecord> make_record(const SuiteInfo& suite, byte_span public_key, std::string participant, Purpose purpose,
                              std::uint32_t generation, std::uint64_t not_before, std::uint64_t not_after);

/// The RFC 7638 thumbprint of a public key of a suite (the record's kid).
Result<std::string> key_id(const SuiteInfo& suite, byte_span public_key);

/// JSON form ({"type":"pqsig-key-record","version":1,...}); strict parse (unknown members refused).
std::string to_json(const KeyRecord& r);
Result<KeyRecord> from_json(std::string_view json);

/// Canonical encoding of the record's signed content (domain "PQSIG:KEYRECORD:v1"; excludes the
/// revocation and the two rotation signatures, includes the previous kid when rotated).
Result<bytes> encode_record(const KeyRecord& r);

/// The canonical signing inputs of the two rotation signatures (pqsig/canonical.hpp), and the
/// context string used with them (canonical::purpose_context(key_rotation, signer suite)).
Result<bytes> old_signs_new_input(const KeyRecord& new_record);
Result<bytes> new_signs_old_input(const KeyRecord& new_record);
/// Sign / verify options for a rotation signature by a key of `suite` (`ctx_store` owns the bytes).
SignOptions rotation_options(const SuiteInfo& suite, std::string& ctx_store);

/// Rotate: a record for `new_key` (generation = previous + 1, same participant and purpose),
/// with the rotation proof signed by `old_key` (which must match `previous`) and `new_key`.
Result<KeyRecord> rotate(const KeyRecord& previous, const SigningKey& old_key, const SigningKey& new_key,
                         std::uint64_t not_before, std::uint64_t not_after);

/// Add a signed revocation to a record (the record is refused from `at` on). `authority` must be
/// the record's own key or the key it was rotated from (else Errc::invalid_argument).
Status revoke(KeyRecord& r, const SigningKey& authority, std::uint64_t at, std::string reason);
/// The canonical signing input of a record's revocation (domain "pqsig-key-revocation").
Result<bytes> revocation_input(const KeyRecord& r);

struct CheckOptions {
  std::optional<Purpose> purpose;  ///< required purpose (none: any)
  std::optional<std::uint64_t> at; ///< time of use (none: the current time)
  /// Key ids trusted out of band. A check succeeds only when a record of the chain (for
  /// check_record: the record itself or the key it was rotated from) has one of these kids.
  std::vector<std::string> anchors;
  /// Without anchors a check refuses with Refusal::unanchored, unless this is set: the records
  /// are then only shown to be self-consistent (anyone can make such a chain).
  bool allow_unanchored = false;
};

/// One record on its own: well-formed, kid = thumbprint(public key), not revoked at `at`,
/// inside its window at `at`, purpose as required, and — when it carries a rotation proof —
/// both rotation signatures verify (against the previous public key embedded in the proof).
Status check_record(const KeyRecord& r, const CheckOptions& opt = {}, Refusal* why = nullptr);

/// A rotation chain, oldest first: chain[0] is the trusted anchor; each later record must carry a
/// valid rotation proof from the one before it (same participant and purpose, generation + 1,
/// previous key id and public key equal, rotated inside the previous record's window and before
/// its revocation); the last record is then checked with check_record at `opt`.
Status check_chain(std::span<const KeyRecord> chain, const CheckOptions& opt = {}, Refusal* why = nullptr);

}  // namespace pqsig::keys
