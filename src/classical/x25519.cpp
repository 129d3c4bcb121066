// X25519 (RFC 7748) through the OpenSSL 3.0 EVP interface.
#include "classical/x25519.hpp"

#include <openssl/evp.h>

#include <cstring>
#include <memory>

namespace pqsig::classical::x25519 {

namespace {
struct PkeyFree {
  void operator()(EVP_PKEY* p) const noexcept { EVP_PKEY_free(p); }
};
struct CtxFree {
  void operator()(EVP_PKEY_CTX* c) const noexcept { EVP_PKEY_CTX_free(c); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using Ctx = std::unique_ptr<EVP_PKEY_CTX, CtxFree>;
}  // namespace

Status public_from_private(const std::uint8_t sk[32], std::uint8_t pk[32]) {
  Pkey key(EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, sk, kKeySize));
  if (!key) return Error{Errc::crypto_backend, "X25519: OpenSSL rejected the private key"};
  std::size_t len = kKeySize;
  if (EVP_PKEY_get_raw_public_key(key.get(), pk, &len) != 1 || len != kKeySize)
    return Error{Errc::crypto_backend, "X25519: OpenSSL could not derive the public key"};
  return {};
}

Status dh(const std::uint8_t sk[32], const std::uint8_t peer[32], std::uint8_t out[32]) {
  std::memset(out, 0, kKeySize);
  Pkey key(EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, sk, kKeySize));
  Pkey pub(EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nullptr, peer, kKeySize));
  if (!key || !pub) return Error{Errc::crypto_backend, "X25519: OpenSSL rejected a key"};
  Ctx ctx(EVP_PKEY_CTX_new(key.get(), nullptr));
  if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1)
    return Error{Errc::crypto_backend, "X25519: OpenSSL derive init failed"};
  // OpenSSL itself fails the derivation when the result is all zero; either way we report it
  // as a key check failure (small-order peer point), with our own check below as the backstop.
  if (EVP_PKEY_derive_set_peer(ctx.get(), pub.get()) != 1)
    return Error{Errc::key_check_failed, "X25519: peer public key rejected"};
  std::size_t len = kKeySize;
  if (EVP_PKEY_derive(ctx.get(), out, &len) != 1 || len != kKeySize) {
    secure_zero(out, kKeySize);
    return Error{Errc::key_check_failed, "X25519: shared secret is all zero (small-order peer point)"};
  }
  std::uint8_t acc = 0;
  for (std::size_t i = 0; i < kKeySize; ++i) acc |= out[i];
  // Whether the result is zero depends only on the (public) peer point, not on our key.
  if (acc == 0) return Error{Errc::key_check_failed, "X25519: shared secret is all zero (small-order peer point)"};
  return {};
}

}  // namespace pqsig::classical::x25519
