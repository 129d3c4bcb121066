// PEM / DER keys (SPKI, PKCS#8) and load_key_text's format detection.
#include "harness.hpp"
#include "pqsig/jose.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(pem_der) {
  if (size == 0) return 0;
  const pqsig::byte_span der(data + 1, size - 1);
  switch (data[0] % 4) {
    case 0: (void)jose::load_spki_der(der); break;
    case 1: (void)jose::load_pkcs8_der(der); break;
    case 2: (void)jose::load_pem(fuzz::as_text(data + 1, size - 1)); break;
    default: (void)jose::load_key_text(fuzz::as_text(data + 1, size - 1)); break;
  }
  return 0;
}
