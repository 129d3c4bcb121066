// Internal: the signing step of the stateful signers (lms::StatefulSigner, xmss::StatefulSigner),
// one implementation for both families over the one lms::StateStore.
#pragma once

#include <cstdint>
#include <string>

#include "pqsig/lms.hpp"

namespace pqsig::lms::detail {

/// Signs `message` at the next index: refills `cur` when it is used up (a local reservation, or
/// a lease from `lease_source` when set; persisted before it returns), consumes the index before
/// anything else, signs with sign_at(index), checks the signature with verify(sig) before it
/// leaves (a fault would otherwise publish a wrong one-time signature at a burnt index), and
/// logs it. The step hooks (sign:before, sign:signed, sign:logged) are the kill -9 tests'.
/// `family` prefixes the self-check error ("hbs", "xmss").
template <class Signed, class SignAt, class Verify>
Result<Signed> sign_next_index(StateStore& store, Reservation& cur, LeaseSource* lease_source,
                               const std::string& lease_signer, std::uint64_t block, std::uint64_t lease_align,
                               const char* family, byte_span message, SignAt&& sign_at, Verify&& verify) {
  if (cur.first >= cur.end) {
    auto r = lease_source ? store.reserve_lease(*lease_source, lease_signer, block, lease_align) : store.reserve(block);
    if (!r) return r.error();
    cur = *r;
  }
  const std::uint64_t index = cur.first++;  // consumed now, whatever happens next
  StateStore::run_step_hook("sign:before");
  Result<bytes> sig = sign_at(index);
  if (!sig) return sig.error();
  StateStore::run_step_hook("sign:signed");
  if (Status v = verify(*sig); !v)
    return Error{Errc::internal, std::string(family) + ": our own signature at index " + std::to_string(index) +
                                     " does not verify (" + v.error().message + "); index burnt"};
  if (auto l = store.log_signature(index, message); !l) return l.error();
  StateStore::run_step_hook("sign:logged");
  return Signed{index, std::move(*sig)};
}

}  // namespace pqsig::lms::detail
