// pqsig — stateful hash-based suites through the one seam: the suite of a key whose parameter set
// travels in the key (a family-level algorithm), and signing through the state (StatefulKey).
#pragma once

#include <memory>

#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

namespace pqsig {

namespace lms {
class StatefulSigner;
}
namespace xmss {
class StatefulSigner;
}

/// The suite of one public key of a family whose parameter set travels in the key, not in the
/// algorithm's name (a family-level algorithm, e.g. HTTP's "hss-lms": any HSS parameter set).
/// The family's backend reads the set from the key, typed and bounded, before the key is used:
///   lms (RFC 8554 §6.1: u32str(L) || u32str(lms_type) || u32str(lmots_type) || I || T[1]):
///   shorter than that header or not its exact length → Errc::invalid_length; L not 1..8, an LMS
///   and LM-OTS pair of two hashes or lengths, more than 2^63 signatures (lms::check_levels) →
///   Errc::invalid_encoding; an unknown LMS or LM-OTS typecode → Errc::unknown_suite. Every level
///   is taken to repeat the top one (pqsig's keys do), so the signature size is fixed.
///   xmss (RFC 8391 Appendix B.3 / C.3: u32str(oid) || root || SEED): XMSS and XMSS^MT have
///   separate OID registries that both start at 1 (RFC 8391 §5.3), so the key alone does not say
///   which it is: `multi_tree` names the registry (the JWK's alg "XMSS" / "XMSSMT" does, and an
///   xmss::StatefulSigner knows its set). Shorter than its OID or not the set's exact length →
///   Errc::invalid_length; an OID unknown in that registry → Errc::unknown_suite. lms ignores
///   `multi_tree` (L in the key says how many levels).
/// Returns the registry row with the key's parameter set when there is one (every provider of
/// that row applies), else a row made once for that set and kept for the process's life (a
/// finite table: at most one row per parameter set, never one per key; not in all_suites()).
/// A family without key-carried parameter sets: Errc::unsupported.
Result<const SuiteInfo*> suite_for_public_key(Family family, byte_span pub, bool multi_tree = false);

/// A stateful signing key used through its state: every signature takes the next one-time index,
/// reserved and synced to disk before it is used. The one way to sign with a stateful suite
/// (SigningKey refuses them: Errc::stateful_key). Not thread-safe; sign() changes the state.
class StatefulKey {
 public:
  virtual ~StatefulKey() = default;
  /// The key's suite (suite_for_public_key of its public key).
  virtual const SuiteInfo& suite() const noexcept = 0;
  virtual byte_span public_key() const noexcept = 0;
  /// A signature at the next index (Errc::key_exhausted when none is left).
  virtual Result<bytes> sign(byte_span msg) = 0;
};
/// The StatefulKey of an LMS/HSS signer (RFC 8554 §6.2 through lms::StatefulSigner, which must
/// outlive the result). Errors as suite_for_public_key for its public key.
Result<std::unique_ptr<StatefulKey>> stateful_key(lms::StatefulSigner& signer);
/// The StatefulKey of an XMSS / XMSS^MT signer (RFC 8391 Algorithm 12 / 15 through
/// xmss::StatefulSigner, which must outlive the result). Errors as suite_for_public_key.
Result<std::unique_ptr<StatefulKey>> stateful_key(xmss::StatefulSigner& signer);

}  // namespace pqsig
