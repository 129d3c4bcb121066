// The safe XMSS / XMSS^MT signer: indices come from the LMS/HSS state store (lms::StateStore:
// reservation written and fsynced, file and directory, before any signature at it leaves the
// process; audit log; rollback refused). One store for every stateful family, never a copy; the
// same step hooks as lms::StatefulSigner (the kill -9 tests), and the top tree cached in
// `<state>.tree` like LMS's.
#include "pqsig/xmss.hpp"

#include "lms/stateful_sign.hpp"

namespace pqsig::xmss {

Status StatefulSigner::create_state(const PrivateKey& key, const std::string& state_path) {
  return lms::StateStore::create(state_path, key.public_key(), key.params().max_signatures());
}

Result<StatefulSigner> StatefulSigner::open(PrivateKey key, const std::string& state_path, std::uint64_t block,
                                            unsigned threads) {
  if (block == 0) return Error{Errc::invalid_argument, "hbs: reservation block must be at least 1"};
  const std::uint64_t limit = key.params().max_signatures();
  // The state is checked before the (possibly long) tree computation.
  auto st = lms::StateStore::open(state_path, key.public_key());
  if (!st) return st.error();
  auto inf = st->info();
  if (!inf) return inf.error();
  if (inf->limit != limit) return Error{Errc::state_rejected, "hbs state: limit does not match the key"};
  auto signer = Signer::create(std::move(key), threads, state_path + ".tree");
  if (!signer) return signer.error();
  return StatefulSigner(std::move(*signer), std::move(*st), block);
}

Result<StatefulSigner::Signed> StatefulSigner::sign(byte_span message) {
  // The same reservation, lease, self-check and audit-log steps as lms::StatefulSigner.
  return lms::detail::sign_next_index<Signed>(
      store_, cur_, lease_source_.get(), lease_signer_, block_, lease_align_, "xmss", message,
      [&](std::uint64_t index) { return signer_.sign_at(index, message); },
      [&](const bytes& sig) { return verify(signer_.params(), signer_.public_key(), message, sig); });
}

}  // namespace pqsig::xmss
