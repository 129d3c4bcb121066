// The delegated HSS signer key (lms::DelegatedKey, docs/lms.md "HSS subtrees"): strict parsing
// of an input that is a secret file a signer machine receives (it may be truncated, corrupt or
// altered). Properties: a key that parses re-serializes to the same bytes, its range and index
// range agree, and every subtree of the range has material with the advertised public key.
#include <algorithm>

#include "harness.hpp"
#include "pqsig/lms.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(hbs_delegate) {
  auto k = lms::DelegatedKey::parse(byte_span(data, size));
  if (!k) return 0;
  const SecretBytes again = k->serialize();
  fuzz::check(again.size() == size && std::equal(again.span().begin(), again.span().end(), data),
              "a parsed delegated key does not re-serialize byte for byte");
  fuzz::check(k->first_subtree() < k->end_subtree() && k->first_index() < k->end_index(),
              "a parsed delegated key has an empty range");
  for (std::uint64_t q = k->first_subtree(); q < k->end_subtree(); ++q) {
    const auto* s = k->subtree(q);
    fuzz::check(s != nullptr && !s->public_key.empty() && !s->top_signature.empty(), "a subtree of the range has no material");
  }
  fuzz::check(k->subtree(k->end_subtree()) == nullptr, "material past the range");
  fuzz::check(lms::hss_public_key_bytes(k->levels()) == k->public_key().size(), "public key length");
  return 0;
}
