// JWK / JWKS (jose): load_jwk with and without a suite hint, load_jwks, thumbprints, public_jwk,
// and JWS compact verification with a loaded key. Nothing may throw (issue 10 item 3).
#include "harness.hpp"
#include "pqsig/jose.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(jwk) {
  if (size == 0) return 0;
  const auto text = fuzz::as_text(data + 1, size - 1);
  static const char* hints[] = {"", "rsa-pss-sha512", "hmac-sha256", "ed25519", "ml-dsa-44", "ml-kem-768"};
  auto k = jose::load_jwk(text, hints[data[0] % 6]);
  (void)jose::load_jwks(text);
  (void)jose::thumbprint(text);
  (void)jose::thumbprint_input(text);
  (void)jose::public_jwk(text);
  if (k) {
    (void)jose::to_jwk(k.value(), false);
    if (k->verifying) (void)jose::jws_verify_compact(*k->verifying, "eyJhbGciOiJFZERTQSJ9.cGF5bG9hZA.AAAA");
  }
  return 0;
}
