// Secret tainting for ML-KEM under valgrind memcheck (tests/ct_mlkem/CMakeLists.txt): d, z, m and
// the decapsulation key are marked undefined (CT_SECRET); KeyGen, Encaps and Decaps (a valid and a
// rejected ciphertext, so both sides of the implicit-rejection selection run) must not branch or
// index memory on them — with the AVX2 backend (when the CPU has it) and the scalar reference, and
// through the prepared keys (EncapsKey / DecapsKey) too. Public outputs (ek, c) are declassified
// inside the library, each with a comment; this program declassifies K only to check the results.
#include <cstdio>
#include <cstring>

#include "common/cpu.hpp"
#include "common/ct.hpp"
#include "mlkem/poly.hpp"
#include "pqsig/mlkem.hpp"

using namespace pqsig;

namespace {
int run(mlkem::ParameterSet ps) {
  std::uint8_t d[32], z[32], m[32];
  for (int i = 0; i < 32; ++i) {
    d[i] = static_cast<std::uint8_t>(i * 7 + 1);
    z[i] = static_cast<std::uint8_t>(i * 11 + 3);
    m[i] = static_cast<std::uint8_t>(i * 13 + 5);
  }
  CT_SECRET(d, sizeof d);
  CT_SECRET(z, sizeof z);
  CT_SECRET(m, sizeof m);
  auto kp = mlkem::keygen_internal(ps, byte_span(d, 32), byte_span(z, 32));
  if (!kp) return 1;
  auto e = mlkem::encaps_internal(ps, kp->ek, byte_span(m, 32));
  if (!e) return 2;
  CT_SECRET(kp->dk.data(), kp->dk.size());
  auto k = mlkem::decaps(ps, kp->dk.span(), e->c);
  if (!k) return 3;
  bytes bad = e->c;
  bad[bad.size() / 2] ^= 0x04;
  auto kr = mlkem::decaps(ps, kp->dk.span(), bad);
  if (!kr) return 4;
  // Test-only declassification of the results, to check them.
  CT_DECLASSIFY(k->data(), k->size());
  CT_DECLASSIFY(kr->data(), kr->size());
  CT_DECLASSIFY(e->k.data(), e->k.size());
  if (std::memcmp(k->data(), e->k.data(), 32) != 0) return 5;
  if (std::memcmp(kr->data(), e->k.data(), 32) == 0) return 6;

  // The prepared keys the suite layer uses (Â, t̂ and ŝ kept): from the seed and from the
  // expanded dk, both secret; Encaps with a secret m.
  std::uint8_t seed[64];
  std::memcpy(seed, d, 32);
  std::memcpy(seed + 32, z, 32);
  CT_SECRET(seed, sizeof seed);
  auto pk = mlkem::DecapsKey::from_seed(ps, byte_span(seed, 64));
  if (!pk) return 7;
  auto ek = mlkem::EncapsKey::from_bytes(ps, pk->encaps_key());
  if (!ek) return 8;
  CT_SECRET(m, sizeof m);
  auto e2 = ek->encaps_internal(byte_span(m, 32));
  if (!e2) return 9;
  auto k2 = pk->decaps(e2->c);
  auto k2r = pk->decaps(bad);
  auto px = mlkem::DecapsKey::from_expanded(ps, kp->dk.span());  // dk is still marked secret
  if (!k2 || !k2r || !px) return 10;
  auto k3 = px->decaps(e2->c);
  if (!k3) return 11;
  // Test-only declassification of the results, to check them.
  CT_DECLASSIFY(k2->data(), k2->size());
  CT_DECLASSIFY(k2r->data(), k2r->size());
  CT_DECLASSIFY(k3->data(), k3->size());
  CT_DECLASSIFY(e2->k.data(), e2->k.size());
  if (std::memcmp(k2->data(), e->k.data(), 32) != 0 || std::memcmp(k3->data(), e->k.data(), 32) != 0) return 12;
  if (std::memcmp(k2r->data(), kr->data(), 32) != 0) return 13;
  std::printf("%s (%s backend): keygen/encaps/decaps (valid + rejected), prepared keys ok\n",
              std::string(mlkem::name(ps)).c_str(), mlkem::detail::poly_ops().name);
  return 0;
}
}  // namespace

int main() {
  // Both backends: the one this CPU selects (AVX2 where present) and the scalar reference.
  for (bool portable : {false, true}) {
    cpu::force_portable(portable);
    for (auto ps : {mlkem::ParameterSet::ml_kem_512, mlkem::ParameterSet::ml_kem_768, mlkem::ParameterSet::ml_kem_1024}) {
      if (int rc = run(ps); rc != 0) {
        std::printf("%s: failed (%d)\n", std::string(mlkem::name(ps)).c_str(), rc);
        return 10 + rc;
      }
    }
  }
  return 0;
}
