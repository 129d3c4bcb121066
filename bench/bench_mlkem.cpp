// ML-KEM-512/768/1024 (FIPS 203) and the hybrid KEMs: keygen / encaps / decaps.
// Keygen is from a fixed seed (derandomized: measures the algorithm, not getrandom);
// encaps uses OS randomness as in production; decaps uses a prepared private key (the suite API).
#include <benchmark/benchmark.h>

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
}  // namespace

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
