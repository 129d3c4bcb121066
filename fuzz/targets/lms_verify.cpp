// LMS / HSS verification (pqsig/lms.hpp) and HSS private-key parsing on hostile bytes:
// input = u16 public-key length || public key || signature (message fixed). Never crashes;
// a signature that verifies must stop verifying for another message.
#include "harness.hpp"
#include "pqsig/lms.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(lms_verify) {
  if (size < 2) return 0;
  const std::size_t pl = (std::size_t{data[0]} << 8) | data[1];
  if (size - 2 < pl) return 0;
  const byte_span pk(data + 2, pl), sig(data + 2 + pl, size - 2 - pl);
  const auto st = lms::hss_verify(pk, as_bytes("fuzz"), sig);
  if (st) fuzz::check(!lms::hss_verify(pk, as_bytes("fuzz!"), sig), "one HSS signature verifies two messages");
  if (pl >= 4) (void)lms::lms_verify(pk.subspan(4), as_bytes("fuzz"), sig.size() >= 4 ? sig.subspan(4) : sig);
  (void)lms::HssPrivateKey::parse(byte_span(data, size));
  return 0;
}
