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
  st.SetLabel(hash::detail::keccak_x4_backend().name);
}
BENCHMARK(BM_KeccakF1600x4_Dispatched);

// Each 4-way backend on interleaved states: one permutation, and SHAKE128 squeezing 5 blocks
// (ExpandA's first call). Skipped when the CPU lacks the backend.
static void BM_KeccakX4_Backend(benchmark::State& st, const hash::detail::KeccakX4Backend* (*get)()) {
  const hash::detail::KeccakX4Backend* be = get();
  if (!be) {
    st.SkipWithError("backend not available on this CPU / build");
    return;
  }
  alignas(32) std::uint64_t s[25][4] = {{1}};
  for (auto _ : st) {
    be->permute(s);
    benchmark::DoNotOptimize(s);
  }
  st.SetLabel(be->name);
}
static const hash::detail::KeccakX4Backend* x4_scalar() { return &hash::detail::kKeccakX4Scalar; }
BENCHMARK_CAPTURE(BM_KeccakX4_Backend, scalar, &x4_scalar);
BENCHMARK_CAPTURE(BM_KeccakX4_Backend, avx2, &hash::detail::keccak_x4_backend_avx2);
BENCHMARK_CAPTURE(BM_KeccakX4_Backend, avx512vl, &hash::detail::keccak_x4_backend_avx512);

static void BM_Shake128x4_5Blocks(benchmark::State& st) {
  std::uint8_t in[4][34] = {{1}, {2}, {3}, {4}};
  alignas(32) std::uint8_t out[4][5 * hash::kShake128Rate];
  const std::uint8_t* ip[4] = {in[0], in[1], in[2], in[3]};
  std::uint8_t* op[4] = {out[0], out[1], out[2], out[3]};
  for (auto _ : st) {
    hash::Shake128x4 x(false);
    x.absorb_once(ip, 34);
    x.squeeze_blocks(op, 5);
    benchmark::DoNotOptimize(out);
  }
  st.SetLabel(hash::detail::keccak_x4_backend().name);
}
BENCHMARK(BM_Shake128x4_5Blocks);

static void BM_KeccakF1600_Dispatched(benchmark::State& st) {
  std::uint64_t s[25] = {1};
  for (auto _ : st) {
    hash::keccak_f1600(s);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_KeccakF1600_Dispatched);

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
