// Internal: RAII owners for OpenSSL objects, one deleter template for every type.
#pragma once

#include <openssl/bn.h>
#include <openssl/decoder.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>

#include <memory>

namespace pqsig::classical::internal {

template <class T, void (*Free)(T*)>
struct OsslFree {
  void operator()(T* p) const noexcept { Free(p); }
};

using BnFree = OsslFree<BIGNUM, BN_clear_free>;  // secrets: cleared
using Bn = std::unique_ptr<BIGNUM, BnFree>;
using BldFree = OsslFree<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>;
using ParamFree = OsslFree<OSSL_PARAM, OSSL_PARAM_free>;
using CtxFree = OsslFree<EVP_PKEY_CTX, EVP_PKEY_CTX_free>;
using DecFree = OsslFree<OSSL_DECODER_CTX, OSSL_DECODER_CTX_free>;
using GroupFree = OsslFree<EC_GROUP, EC_GROUP_free>;
using PointFree = OsslFree<EC_POINT, EC_POINT_clear_free>;
using P8Free = OsslFree<PKCS8_PRIV_KEY_INFO, PKCS8_PRIV_KEY_INFO_free>;

}  // namespace pqsig::classical::internal
