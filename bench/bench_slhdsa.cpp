// SLH-DSA (FIPS 205) keygen / sign / verify for all twelve parameter sets. The `s` sets sign
// slowly (hundreds of ms to seconds): their iteration counts are fixed small; medians are
// reported over repetitions. Filter with --benchmark_filter=SLH-DSA-SHA2-128f etc.
#include <benchmark/benchmark.h>

#include <string>

#include "common/cpu.hpp"
#include "pqsig/slhdsa.hpp"

using namespace pqsig;
using namespace pqsig::slhdsa;

namespace {
bytes fill(std::size_t n, std::uint8_t v) { return bytes(n, v); }

KeyPair fixed_keypair(ParamSet p) {
  const std::size_t n = param_info(p).n;
  auto kp = slh_keygen_internal(p, fill(n, 1), fill(n, 2), fill(n, 3));
  return std::move(kp.value());
}

void bm_keygen(benchmark::State& st, ParamSet p) {
  const std::size_t n = param_info(p).n;
  const bytes a = fill(n, 1), b = fill(n, 2), c = fill(n, 3);
  for (auto _ : st) {
    auto kp = slh_keygen_internal(p, a, b, c);
    benchmark::DoNotOptimize(kp);
  }
}

void bm_sign(benchmark::State& st, ParamSet p) {
  KeyPair kp = fixed_keypair(p);
  const bytes msg = fill(32, 0x5a);
  for (auto _ : st) {
    auto sig = slh_sign(p, msg, {}, kp.sk.span());
    benchmark::DoNotOptimize(sig);
  }
}

void bm_verify(benchmark::State& st, ParamSet p) {
  KeyPair kp = fixed_keypair(p);
  const bytes msg = fill(32, 0x5a);
  auto sig = slh_sign(p, msg, {}, kp.sk.span(), OptRand::deterministic());
  for (auto _ : st) {
    Status s = slh_verify(p, msg, *sig, {}, kp.pk);
    benchmark::DoNotOptimize(s);
  }
}

// Portable (scalar SHA-256 / scalar Keccak) signing of the 128f sets, to show the backend gain.
void bm_sign_portable(benchmark::State& st, ParamSet p) {
  KeyPair kp = fixed_keypair(p);
  const bytes msg = fill(32, 0x5a);
  cpu::force_portable(true);
  for (auto _ : st) {
    auto sig = slh_sign(p, msg, {}, kp.sk.span());
    benchmark::DoNotOptimize(sig);
  }
  cpu::force_portable(false);
}

[[maybe_unused]] const int kRegistered = [] {
  for (const ParamInfo& pi : all_param_sets()) {
    const bool s_set = pi.d <= 8;  // the s sets: d = 7 or 8
    const std::string name(pi.name);
    auto* kg = benchmark::RegisterBenchmark((name + "/keygen").c_str(), bm_keygen, pi.id);
    auto* sg = benchmark::RegisterBenchmark((name + "/sign").c_str(), bm_sign, pi.id);
    auto* vf = benchmark::RegisterBenchmark((name + "/verify").c_str(), bm_verify, pi.id);
    for (auto* b : {kg, sg, vf}) b->Unit(benchmark::kMillisecond);
    if (s_set) {
      kg->Iterations(3);
      sg->Iterations(2);
    } else {
      kg->MinTime(0.2);
      sg->MinTime(0.2);
    }
    vf->MinTime(0.2);
    if (pi.id == ParamSet::sha2_128f || pi.id == ParamSet::shake_128f)
      benchmark::RegisterBenchmark((name + "/sign_portable").c_str(), bm_sign_portable, pi.id)
          ->Unit(benchmark::kMillisecond)
          ->MinTime(0.2);
  }
  return 0;
}();
}  // namespace
