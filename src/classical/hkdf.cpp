// HKDF-SHA256 (RFC 5869) through the OpenSSL 3.0 EVP_KDF interface.
#include "classical/hkdf.hpp"

#include <openssl/core_names.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include <memory>

namespace pqsig::classical::hkdf {

namespace {
struct KdfFree {
  void operator()(EVP_KDF* k) const noexcept { EVP_KDF_free(k); }
};
struct KdfCtxFree {
  void operator()(EVP_KDF_CTX* c) const noexcept { EVP_KDF_CTX_free(c); }
};

Status run(int mode, byte_span key, byte_span salt_or_info, bool is_salt, mut_byte_span out) {
  std::unique_ptr<EVP_KDF, KdfFree> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
  if (!kdf) return Error{Errc::crypto_backend, "HKDF: OpenSSL has no HKDF"};
  std::unique_ptr<EVP_KDF_CTX, KdfCtxFree> ctx(EVP_KDF_CTX_new(kdf.get()));
  if (!ctx) return Error{Errc::crypto_backend, "HKDF: context allocation failed"};
  static const std::uint8_t kEmpty[1] = {0};
  char digest[] = "SHA256";
  OSSL_PARAM params[5];
  int n = 0;
  params[n++] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
  params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0);
  params[n++] = OSSL_PARAM_construct_octet_string(
      OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(key.empty() ? kEmpty : key.data()), key.size());
  if (!salt_or_info.empty())
    params[n++] = OSSL_PARAM_construct_octet_string(is_salt ? OSSL_KDF_PARAM_SALT : OSSL_KDF_PARAM_INFO,
                                                    const_cast<std::uint8_t*>(salt_or_info.data()),
                                                    salt_or_info.size());
  params[n] = OSSL_PARAM_construct_end();
  if (EVP_KDF_derive(ctx.get(), out.data(), out.size(), params) != 1) {
    secure_zero(out.data(), out.size());
    return Error{Errc::crypto_backend, "HKDF: OpenSSL derive failed"};
  }
  return {};
}
}  // namespace

Status extract_sha256(byte_span salt, byte_span ikm, std::uint8_t prk[32]) {
  return run(EVP_KDF_HKDF_MODE_EXTRACT_ONLY, ikm, salt, true, mut_byte_span(prk, 32));
}

Status expand_sha256(const std::uint8_t prk[32], byte_span info, mut_byte_span out) {
  if (out.size() > 255 * 32) return Error{Errc::invalid_length, "HKDF-Expand: output longer than 255·HashLen"};
  return run(EVP_KDF_HKDF_MODE_EXPAND_ONLY, byte_span(prk, 32), info, false, out);
}

}  // namespace pqsig::classical::hkdf
