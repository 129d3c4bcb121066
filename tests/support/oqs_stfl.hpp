// tests/support/oqs_stfl.hpp — liboqs' stateful signatures (OQS_SIG_STFL: LMS/HSS from Cisco's
// hash-sigs, XMSS/XMSS^MT from xmss-reference) as the independent implementation the LMS and XMSS
// tests cross-check against, both ways. Compiled when the test links liboqs (CMakeLists.txt: only
// when pqsig was configured with it); `oqs_stfl_skip_reason()` names why a cross-check cannot run
// (liboqs not compiled in, or built without the stateful families or their key/signature
// generation: scripts/liboqs.sh enables both). Callers skip with PQSIG_LIBOQS_STFL_SKIP_OR_FAIL
// (tests/support/required.hpp): a failure under PQSIG_REQUIRE_LIBOQS_STFL=1, as in CI.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "pqsig/common.hpp"
#include "support/required.hpp"

#if __has_include(<oqs/oqs.h>)
#include <oqs/oqs.h>
#define PQSIG_TEST_HAVE_OQS 1
#endif

namespace pqsig_oqs_stfl {

#if defined(PQSIG_TEST_HAVE_OQS) && defined(OQS_ALLOW_LMS_KEY_AND_SIG_GEN) && defined(OQS_ALLOW_XMSS_KEY_AND_SIG_GEN)
#define PQSIG_TEST_HAVE_OQS_STFL 1

/// Empty when liboqs can generate keys and sign with `alg`; else why not.
inline std::string oqs_stfl_skip_reason(const char* alg) {
  OQS_init();
  if (!OQS_SIG_STFL_alg_is_enabled(alg))
    return std::string("liboqs was built without ") + alg + " (scripts/liboqs.sh enables it)";
  return {};
}

// A store callback that keeps nothing: liboqs refuses to sign without one. These keys live for
// one test only.
inline OQS_STATUS oqs_stfl_store_nothing(std::uint8_t*, std::size_t, void*) { return OQS_SUCCESS; }
// liboqs' LMS ignores a store callback whose context is null: give it one.
inline int& oqs_stfl_store_context() {
  static int ctx = 0;
  return ctx;
}

/// A liboqs key pair of one algorithm, signing with liboqs' own index.
struct OqsStflKey {
  OQS_SIG_STFL* sig = nullptr;
  OQS_SIG_STFL_SECRET_KEY* sk = nullptr;
  pqsig::bytes pk;

  explicit OqsStflKey(const char* alg) {
    sig = OQS_SIG_STFL_new(alg);
    sk = OQS_SIG_STFL_SECRET_KEY_new(alg);
    if (!sig || !sk) return;
    pk.resize(sig->length_public_key);
    if (OQS_SIG_STFL_keypair(sig, pk.data(), sk) != OQS_SUCCESS) {
      pk.clear();
      return;
    }
    OQS_SIG_STFL_SECRET_KEY_SET_store_cb(sk, &oqs_stfl_store_nothing, &oqs_stfl_store_context());
  }
  ~OqsStflKey() {
    if (sk) OQS_SIG_STFL_SECRET_KEY_free(sk);
    if (sig) OQS_SIG_STFL_free(sig);
  }
  OqsStflKey(const OqsStflKey&) = delete;
  OqsStflKey& operator=(const OqsStflKey&) = delete;
  bool ok() const { return sig && sk && !pk.empty(); }

  /// OQS_SIG_STFL_sign at liboqs' next index; empty on failure.
  pqsig::bytes sign(pqsig::byte_span msg) {
    pqsig::bytes s(sig->length_signature);
    std::size_t len = s.size();
    if (OQS_SIG_STFL_sign(sig, s.data(), &len, msg.data(), msg.size(), sk) != OQS_SUCCESS) return {};
    s.resize(len);
    return s;
  }
};

/// OQS_SIG_STFL_verify of (msg, signature) under pk for `alg`.
inline bool oqs_stfl_verify(const char* alg, pqsig::byte_span pk, pqsig::byte_span msg, pqsig::byte_span sig) {
  std::unique_ptr<OQS_SIG_STFL, void (*)(OQS_SIG_STFL*)> s(OQS_SIG_STFL_new(alg), &OQS_SIG_STFL_free);
  if (!s || pk.size() != s->length_public_key) return false;
  return OQS_SIG_STFL_verify(s.get(), msg.data(), msg.size(), sig.data(), sig.size(), pk.data()) == OQS_SUCCESS;
}

#else

inline std::string oqs_stfl_skip_reason(const char*) {
#if defined(PQSIG_TEST_HAVE_OQS)
  return "liboqs was built without stateful key and signature generation "
         "(OQS_HAZARDOUS_EXPERIMENTAL_ENABLE_SIG_STFL_KEY_SIG_GEN; scripts/liboqs.sh enables it)";
#else
  return "liboqs is not compiled in (PQSIG_WITH_LIBOQS; bash scripts/liboqs.sh builds it)";
#endif
}

#endif

}  // namespace pqsig_oqs_stfl
