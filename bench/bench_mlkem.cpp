// ML-KEM-512/768/1024 (FIPS 203) and the hybrid KEMs: keygen / encaps / decaps.
// Keygen is from a fixed seed (derandomized: measures the algorithm, not getrandom);
// encaps uses OS randomness as in production; decaps uses a prepared private key (the suite API).
#include <benchmark/benchmark.h>

#include "common/cpu.hpp"
#include "mlkem/poly.hpp"
#include "pqsig/kem.hpp"
#include "pqsig/mlkem.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;

namespace {
const SuiteInfo& suite(const char* id) { return *find_suite(id).value(); }

void BM_KemKeygen(benchmark::State& st, const char* id) {
  const auto& s = suite(id);
  bytes seed(s.private_key_size, 0x42);
  for (auto _ : st) {
    auto k = KemPrivateKey::from_private(s, seed);
    benchmark::DoNotOptimize(k);
  }
}
void BM_KemEncaps(benchmark::State& st, const char* id) {
  const auto& s = suite(id);
  auto sk = KemPrivateKey::from_private(s, bytes(s.private_key_size, 0x42));
  auto pk = KemPublicKey::from_public(s, sk->public_key());
  for (auto _ : st) {
    auto e = pk->encaps();
    benchmark::DoNotOptimize(e);
  }
}
void BM_KemDecaps(benchmark::State& st, const char* id) {
  const auto& s = suite(id);
  auto sk = KemPrivateKey::from_private(s, bytes(s.private_key_size, 0x42));
  auto pk = KemPublicKey::from_public(s, sk->public_key());
  auto e = pk->encaps();
  for (auto _ : st) {
    auto k = sk->decaps(e->ciphertext);
    benchmark::DoNotOptimize(k);
  }
}
// The raw FIPS 203 functions on byte strings (decaps includes the §7.3 hash check).
void BM_MlKemDecapsBytes(benchmark::State& st, mlkem::ParameterSet ps) {
  auto kp = mlkem::keygen_from_seed(ps, bytes(64, 1));
  auto e = mlkem::encaps(ps, kp->ek);
  for (auto _ : st) {
    auto k = mlkem::decaps(ps, kp->dk.span(), e->c);
    benchmark::DoNotOptimize(k);
  }
}
// Encaps from the encoded ek on every call (§7.2 check, H(ek), Â expanded each time), as a
// one-shot caller without a prepared key pays it.
void BM_MlKemEncapsBytes(benchmark::State& st, mlkem::ParameterSet ps) {
  auto kp = mlkem::keygen_from_seed(ps, bytes(64, 1));
  for (auto _ : st) {
    auto e = mlkem::encaps(ps, kp->ek);
    benchmark::DoNotOptimize(e);
  }
}
// The arithmetic kernels of each backend (src/mlkem/poly.hpp PolyOps): portable = scalar reference.
void BM_MlKemKernels(benchmark::State& st, bool portable) {
  cpu::force_portable(portable);
  const auto& ops = mlkem::detail::poly_ops();
  mlkem::detail::NttPoly a[4], b[4], r;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < mlkem::detail::kN; ++i) {
      a[j].c[i] = static_cast<std::uint16_t>((i * 17 + j) % 3329);
      b[j].c[i] = static_cast<std::uint16_t>((i * 29 + j * 7) % 3329);
    }
  for (auto _ : st) {  // one NTT, one NTT^-1 and a 3-term MultiplyNTTs sum (ML-KEM-768 row)
    ops.ntt(a[0].c);
    ops.ntt_inverse(a[0].c);
    ops.multiply_ntts_sum(r, a, 1, b, 3);
    benchmark::DoNotOptimize(r);
  }
  st.SetLabel(ops.name);
  cpu::force_portable(false);
}
}  // namespace

BENCHMARK_CAPTURE(BM_MlKemKernels, scalar, true);
BENCHMARK_CAPTURE(BM_MlKemKernels, dispatched, false);
BENCHMARK_CAPTURE(BM_MlKemEncapsBytes, ml_kem_768, mlkem::ParameterSet::ml_kem_768);

#define PQSIG_KEM_BENCH(id)                                  \
  BENCHMARK_CAPTURE(BM_KemKeygen, id, id);                   \
  BENCHMARK_CAPTURE(BM_KemEncaps, id, id);                   \
  BENCHMARK_CAPTURE(BM_KemDecaps, id, id)

PQSIG_KEM_BENCH("ml-kem-512");
PQSIG_KEM_BENCH("ml-kem-768");
PQSIG_KEM_BENCH("ml-kem-1024");
PQSIG_KEM_BENCH("x-wing");
PQSIG_KEM_BENCH("x25519-ml-kem-768");
PQSIG_KEM_BENCH("ml-kem-768+x25519-hkdf");
BENCHMARK_CAPTURE(BM_MlKemDecapsBytes, ml_kem_768, mlkem::ParameterSet::ml_kem_768);
