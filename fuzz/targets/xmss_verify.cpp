// XMSS / XMSS^MT verification (pqsig/xmss.hpp) and XMSS private-key parsing on hostile bytes:
// input = u16 public-key length || public key || signature (message fixed). Both OID registries
// are tried. Never crashes; a signature that verifies must stop verifying for another message.
#include "harness.hpp"
#include "pqsig/xmss.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(xmss_verify) {
  if (size < 2) return 0;
  const std::size_t pl = (std::size_t{data[0]} << 8) | data[1];
  if (size - 2 < pl) return 0;
  const byte_span pk(data + 2, pl), sig(data + 2 + pl, size - 2 - pl);
  if (xmss::xmss_verify(pk, as_bytes("fuzz"), sig))
    fuzz::check(!xmss::xmss_verify(pk, as_bytes("fuzz!"), sig), "one XMSS signature verifies two messages");
  if (xmss::xmssmt_verify(pk, as_bytes("fuzz"), sig))
    fuzz::check(!xmss::xmssmt_verify(pk, as_bytes("fuzz!"), sig), "one XMSS^MT signature verifies two messages");
  (void)xmss::parse_public_key(false, pk);
  (void)xmss::parse_public_key(true, pk);
  (void)xmss::PrivateKey::parse(byte_span(data, size));
  return 0;
}
