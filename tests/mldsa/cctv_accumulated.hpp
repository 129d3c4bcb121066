// tests/mldsa: C2SP CCTV accumulated test A (../shared/vectors/cctv/README.md), run with N = 100 by
// the unit tests and N = 10,000 by the slow tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "pqsig/hash.hpp"
#include "pqsig/mldsa.hpp"

namespace pqsig::mldsa::cctv_test {

// n rounds of: seed from the SHAKE128 stream, keygen_internal, deterministic sign of the empty
// message, verify; the hex of 32 bytes of SHAKE128 over every pk and sig.
inline std::string cctv_accumulated(Level lv, int n) {
  const auto& p = params(lv);
  hash::Shake128 rng, acc;
  bytes seed(32), pk(p.pk_bytes), sk(p.sk_bytes), sig(p.sig_bytes);
  Options o;
  o.deterministic = true;
  for (int i = 0; i < n; ++i) {
    rng.squeeze(seed);
    EXPECT_TRUE(keygen_internal(lv, seed, pk, sk).ok());
    acc.absorb(pk);
    EXPECT_TRUE(sign(lv, sk, {}, sig, o).ok());
    acc.absorb(sig);
    EXPECT_TRUE(verify(lv, pk, {}, sig).ok());
  }
  std::uint8_t out[32];
  acc.squeeze(out, 32);
  return to_hex(byte_span(out, 32));
}

}  // namespace pqsig::mldsa::cctv_test
