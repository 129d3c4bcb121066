// pqsig — COSE_Sign1 (RFC 9052 §4.2) with HSS/LMS (RFC 8778): the one COSE signature container a
// published RFC defines for the stateful hash-based signatures pqsig implements.
//
//  - RFC 8778 §3: COSE algorithm HSS-LMS = -46, the "signature with appendix" scheme; the COSE
//    signature value is the RFC 8554 §6.2 HSS signature byte string, computed over the RFC 9052
//    §4.4 ToBeSigned bytes themselves (HSS hashes messages of any length; no pre-hash).
//  - RFC 9052 §4.2 COSE_Sign1 = [protected: bstr .cbor header_map / zero-length bstr,
//    unprotected: header_map, payload: bstr / nil, signature: bstr], optionally tagged 18 (§2).
//  - RFC 9052 §4.4 Sig_structure for COSE_Sign1 = ["Signature1", body_protected, external_aad,
//    payload]; its CBOR encoding is the ToBeSigned bytes.
//  - No COSE algorithm is registered for XMSS / XMSS^MT, and no JOSE (JWS) algorithm exists for
//    HSS/LMS or XMSS (RFC 8778 is COSE only; no JOSE draft defines one): pqsig writes neither.
//
// Signing goes only through lms::StatefulSigner (reserve and sync the index first, then sign, then
// log): a COSE_Sign1 is never produced through a stateless path.
//
// Parsing a COSE_Sign1 is parsing network input. The reader accepts RFC 8949 CBOR with definite
// lengths and the shortest argument encodings (§4.2.1 preferred serialization) only, bounded by
// Limits (bytes, nesting depth, array/map counts); every failure is a typed pqsig::Error:
//   invalid_length   — truncated, or over a limit (message, header, signature, counts, depth)
//   invalid_encoding — not CBOR / not a COSE_Sign1 / duplicate labels / a header of the wrong type
//   unknown_suite    — alg missing from the protected header, or not HSS-LMS (-46)
//   unsupported      — a critical (crit, label 2) header parameter pqsig does not understand
//   invalid_argument — detached payload missing / supplied for an attached one; kid mismatch
//   verify_failed    — the HSS signature does not verify over the ToBeSigned bytes
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pqsig/common.hpp"
#include "pqsig/lms.hpp"

namespace pqsig::cose {

inline constexpr std::int64_t kAlgHssLms = -46;     ///< RFC 8778 §3 / §6.1 (COSE Algorithms registry)
inline constexpr std::uint64_t kTagCoseSign1 = 18;  ///< RFC 9052 §2, Table 1
// Header parameter labels (RFC 9052 §3.1, Table 3).
inline constexpr std::int64_t kHeaderAlg = 1;
inline constexpr std::int64_t kHeaderCrit = 2;
inline constexpr std::int64_t kHeaderContentType = 3;
inline constexpr std::int64_t kHeaderKid = 4;

/// Bounds applied to a COSE_Sign1 from a peer.
struct Limits {
  std::size_t max_message_bytes = std::size_t{1} << 20;     ///< the whole COSE_Sign1
  std::size_t max_protected_bytes = 1024;                   ///< the protected header bstr
  std::size_t max_signature_bytes = std::size_t{1} << 17;   ///< 128 KiB: above any 8-level HSS
  unsigned max_depth = 8;                                   ///< nesting (message array = 1)
  std::size_t max_items = 64;                               ///< entries of one array / map
};

struct Sign1Options {
  bytes kid;                ///< unprotected kid (4) when not empty (RFC 8778 §3: MAY name the top tree)
  bool tagged = true;       ///< prefix tag 18 (RFC 9052 §2; optional, the RFC examples carry it)
  bool detached = false;    ///< payload nil in the message (RFC 9052 §4.1); the verifier supplies it
  byte_span external_aad;   ///< RFC 9052 §4.3 externally supplied data (empty by default)
};

struct Signed1 {
  bytes message;            ///< the COSE_Sign1 bytes
  std::uint64_t index = 0;  ///< the HSS index the signature used
};

/// Signs `payload` into a COSE_Sign1 with alg HSS-LMS: protected {1: -46} (deterministic CBOR
/// A1 01 38 2D), unprotected {} or {4: kid}. The HSS signature comes from `signer.sign` over the
/// ToBeSigned bytes, so the index is reserved and synced before the signature exists.
Result<Signed1> sign1_hss(lms::StatefulSigner& signer, byte_span payload, const Sign1Options& opt = {});

/// RFC 9052 §4.4: the ToBeSigned bytes of a COSE_Sign1 (CBOR of ["Signature1", protected,
/// external_aad, payload]); `protected_bstr` is the protected header's bstr contents as sent.
bytes sig_structure1(byte_span protected_bstr, byte_span external_aad, byte_span payload);

/// A COSE_Sign1 taken apart and its headers checked (no signature verification).
struct Sign1 {
  bool tagged = false;
  bytes protected_bstr;            ///< the protected header bytes as received (signed over)
  std::int64_t alg = 0;            ///< always kAlgHssLms once parsed
  bytes kid;                       ///< kid (4) from either bucket, empty when absent
  std::optional<std::string> content_type_text;
  std::optional<std::uint64_t> content_type_uint;
  std::optional<bytes> payload;    ///< nullopt: detached (nil)
  bytes signature;
};

/// Strict parse (see the header comment). alg must be in the protected bucket and be -46.
Result<Sign1> parse_sign1(byte_span message, const Limits& limits = {});

struct VerifyOptions {
  Limits limits{};
  byte_span external_aad;                 ///< must equal the signer's
  std::optional<byte_span> detached_payload;  ///< required iff the message's payload is nil
};

struct Verified1 {
  bytes payload;
  bytes kid;
};

/// Parses and verifies a COSE_Sign1 (alg HSS-LMS) against a raw RFC 8554 HSS public key.
Result<Verified1> verify1_hss(byte_span message, byte_span hss_public_key, const VerifyOptions& opt = {});
/// The same against an RFC 8778 COSE_Key (jose::hss_from_cose_key: kty HSS-LMS, alg -46 if
/// present, key_ops including verify if present). When both the key and the message carry a kid
/// they must be equal.
Result<Verified1> verify1_hss_cose_key(byte_span message, byte_span cose_key, const VerifyOptions& opt = {});

}  // namespace pqsig::cose
