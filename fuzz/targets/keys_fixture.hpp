// Keys the HTTP-signature harnesses verify with: the public test keys of RFC 9421 Appendix B.1
// (Ed25519 B.1.4, which is also the Web Bot Auth drafts' key, and the HMAC secret of B.1.5), so
// the seed corpus (the vectors' signed messages) reaches the cryptographic checks.
#pragma once

#include "pqsig/httpsig.hpp"

namespace pqsig::fuzz {

inline const httpsig::KeyStore& test_keys() {
  static const httpsig::KeyStore ks = [] {
    httpsig::KeyStore k;
    const auto ed = base64url_decode("JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs");
    const auto* eds = find_suite("ed25519").value();
    for (const char* id : {"test-key-ed25519", "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"}) {
      auto vk = VerifyingKey::from_public(*eds, ed.value());
      if (vk) k.add(id, std::move(vk.value()));
    }
    const auto mac = base64_decode("uzvJfB4u3N0Jy4T7NZ75MDVcr8zSTInedJtkgcu46YW4XByzNJjxBdtjUkdJPBtbmHhIDi6pcl8jsasjlTMtDQ==");
    auto mk = SigningKey::from_private(*find_suite("hmac-sha256").value(), mac.value());
    if (mk) k.add_mac("test-shared-secret", std::move(mk.value()));
    return k;
  }();
  return ks;
}

}  // namespace pqsig::fuzz
