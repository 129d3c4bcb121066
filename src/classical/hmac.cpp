// HMAC-SHA256 over pqsig's SHA-256, with the padded key states prepared once (internal::HmacState,
// also the state of the hmac-sha256 suite's signer in src/suites/classical_sign.cpp).
#include <cstring>

#include "classical/internal.hpp"
#include "pqsig/classical.hpp"
#include "pqsig/hash.hpp"

namespace pqsig::classical {

// RFC 2104 / FIPS 198-1: HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m)).
void internal::HmacState::init(byte_span key) noexcept {
  std::uint8_t k0[64] = {0};
  if (key.size() > 64) {
    auto d = hash::sha256(key);
    std::memcpy(k0, d.data(), d.size());
    secure_zero(d.data(), d.size());
  } else if (!key.empty()) {
    std::memcpy(k0, key.data(), key.size());
  }
  std::uint8_t pad[64];
  for (int i = 0; i < 64; ++i) pad[i] = static_cast<std::uint8_t>(k0[i] ^ 0x36);
  inner.reset();
  inner.update(pad, 64);
  for (int i = 0; i < 64; ++i) pad[i] = static_cast<std::uint8_t>(k0[i] ^ 0x5c);
  outer.reset();
  outer.update(pad, 64);
  secure_zero(pad, sizeof pad);
  secure_zero(k0, sizeof k0);
}

void internal::HmacState::tag(byte_span msg, std::uint8_t out[32]) const noexcept {
  hash::Sha256 i = inner;
  i.update(msg);
  std::uint8_t h[32];
  i.final(h);
  hash::Sha256 o = outer;
  o.update(h, 32);
  o.final(out);
  secure_zero(h, sizeof h);
}

std::array<std::uint8_t, 32> hmac_sha256(byte_span key, byte_span msg) noexcept {
  internal::HmacState st;
  st.init(key);
  std::array<std::uint8_t, 32> out{};
  st.tag(msg, out.data());
  return out;
}

}  // namespace pqsig::classical
