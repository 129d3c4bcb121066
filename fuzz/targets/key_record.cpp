// Key records (pqsig/keys.hpp): strict JSON parse; what parses prints back to JSON that parses to
// a record printing the same; checking it never crashes.
#include "harness.hpp"
#include "pqsig/keys.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(key_record) {
  auto r = keys::from_json(fuzz::as_text(data, size));
  if (!r) return 0;
  const std::string j = keys::to_json(r.value());
  auto again = keys::from_json(j);
  fuzz::check(again.ok(), "a printed key record does not parse: " + (again ? std::string() : again.error().message));
  fuzz::check(keys::to_json(again.value()) == j, "key record JSON is not stable");
  (void)keys::encode_record(r.value());
  keys::CheckOptions o;
  o.at = 1767225600;
  (void)keys::check_record(r.value(), o);
  return 0;
}
