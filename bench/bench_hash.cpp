// Keccak / SHA-2 microbenchmarks: scalar reference vs the dispatched backends.
#include <benchmark/benchmark.h>

#include "common/cpu.hpp"
#include "hash/keccak_backend.hpp"
#include "pqsig/hash.hpp"

using namespace pqsig;

static void BM_KeccakF1600_Scalar(benchmark::State& st) {
  std::uint64_t s[25] = {1};
  for (auto _ : st) {
    hash::keccak_f1600_scalar(s);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_KeccakF1600_Scalar);

static void BM_KeccakF1600x4_Scalar(benchmark::State& st) {
  std::uint64_t s[4][25] = {{1}};
  for (auto _ : st) {
    hash::detail::keccak_f1600_x4_scalar(s);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_KeccakF1600x4_Scalar);

static void BM_KeccakF1600x4_Dispatched(benchmark::State& st) {
  std::uint64_t s[4][25] = {{1}};
  for (auto _ : st) {
    hash::keccak_f1600_x4(s);
    benchmark::DoNotOptimize(s);
  }
  st.SetLabel(cpu::has_avx2() ? "avx2" : "scalar");
}
BENCHMARK(BM_KeccakF1600x4_Dispatched);

static void BM_Shake256_1KiB(benchmark::State& st) {
  bytes in(1024, 7), out(32);
  for (auto _ : st) {
    hash::shake256(out, in);
    benchmark::DoNotOptimize(out.data());
  }
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * 1024);
}
BENCHMARK(BM_Shake256_1KiB);

static void BM_Sha256_1KiB(benchmark::State& st) {
  bytes in(1024, 7);
  for (auto _ : st) {
    auto d = hash::sha256(in);
    benchmark::DoNotOptimize(d);
  }
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * 1024);
}
BENCHMARK(BM_Sha256_1KiB);
