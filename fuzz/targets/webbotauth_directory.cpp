// A signed key directory response (draft-meunier-http-message-signatures-directory) and its
// JWKS body: verify_directory, add_jwks and build_directory on untrusted input.
#include "harness.hpp"
#include "pqsig/webbotauth.hpp"

using namespace pqsig;

PQSIG_FUZZ_TARGET(webbotauth_directory) {
  if (size == 0) return 0;
  const auto text = fuzz::as_text(data + 1, size - 1);
  if (data[0] & 1) {
    // The body alone (a JWKS).
    httpsig::KeyStore ks;
    (void)webbotauth::add_jwks(ks, text);
    httpsig::KeyStore fetched;  // a stranger's key set: thumbprint filing, kid checked
    (void)webbotauth::add_fetched_jwks(fetched, text, data[0] & 2);
    (void)webbotauth::build_directory({std::string(text)});
    return 0;
  }
  auto m = httpsig::parse_message(text);
  if (!m) return 0;
  auto rep = webbotauth::verify_directory(m.value(), "signature-agent.test", 1735689600, 60,
                                          (data[0] & 2) ? std::optional<std::int64_t>{} : webbotauth::kMaxExpiresIn);
  (void)rep.to_json();
  return 0;
}
