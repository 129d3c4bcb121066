// Canonical signing input (pqsig/canonical.hpp): strict decode; what decodes re-encodes to the
// exact same bytes (one encoding per value).
#include "harness.hpp"
#include "pqsig/canonical.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(canonical) {
  canonical::DecodeError why{};
  auto d = canonical::decode(byte_span(data, size), &why);
  if (!d) return 0;
  auto e = canonical::encode(d.value());
  fuzz::check(e.ok(), "a decoded input does not encode: " + (e ? std::string() : e.error().message));
  fuzz::check(e.value() == bytes(data, data + size), "decode/encode is not the identity");
  return 0;
}
