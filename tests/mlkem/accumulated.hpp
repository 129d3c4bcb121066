// CCTV accumulated test (../shared/vectors/cctv/README.md, "ML-KEM accumulated test"): RNG and
// ACC are SHAKE-128; per iteration d, z, m, ctRandom are read and ek, dk, ct, K, K' absorbed.
#pragma once
#include <string>

#include "pqsig/hash.hpp"
#include "pqsig/mlkem.hpp"

namespace pqsig::test {
inline std::string accumulated(mlkem::ParameterSet ps, int n) {
  hash::Shake128 rng, acc;
  const auto& P = mlkem::params(ps);
  bytes d(32), z(32), m(32), ct_rand(P.ct_size);
  for (int i = 0; i < n; ++i) {
    rng.squeeze(d);
    rng.squeeze(z);
    auto kp = mlkem::keygen_internal(ps, d, z);
    if (!kp.ok()) return "keygen failed";
    acc.absorb(kp->ek);
    acc.absorb(kp->dk.span());
    rng.squeeze(m);
    auto e = mlkem::encaps_internal(ps, kp->ek, m);
    if (!e.ok()) return "encaps failed";
    acc.absorb(e->c);
    acc.absorb(e->k.span());
    auto k = mlkem::decaps(ps, kp->dk.span(), e->c);
    if (!k.ok() || !ct_equal(k->span(), e->k.span())) return "decaps mismatch at " + std::to_string(i);
    rng.squeeze(ct_rand);
    auto kr = mlkem::decaps(ps, kp->dk.span(), ct_rand);
    if (!kr.ok()) return "decaps(random) failed";
    acc.absorb(kr->span());
  }
  bytes out(32);
  acc.squeeze(out);
  return to_hex(out);
}
}  // namespace pqsig::test
