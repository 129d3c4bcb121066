// ML-DSA-44/65/87 microbenchmarks: keygen, sign (deterministic, over the CCTV benchmark message
// set so the rejection-loop iterations are representative), verify.
// Run: ./build/pqsig_bench --benchmark_filter=MLDSA --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "pqsig/mldsa.hpp"

#ifndef PQSIG_SHARED_DIR
#define PQSIG_SHARED_DIR "../shared"
#endif

namespace {
using namespace pqsig;

// The CCTV benchmark messages (JSON array of 26-character ASCII strings), parsed without a JSON
// library: every string literal in the file is one message.
std::vector<std::string> load_messages(int level) {
  std::vector<std::string> out;
  const char* env = std::getenv("PQSIG_SHARED_DIR");
  std::ifstream f(std::string(env ? env : PQSIG_SHARED_DIR) + "/vectors/cctv/ML-DSA/benchmark/ML-DSA-" +
                  std::to_string(level) + ".json");
  std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  for (std::size_t i = all.find('"'); i != std::string::npos; i = all.find('"', i + 1)) {
    const std::size_t j = all.find('"', i + 1);
    if (j == std::string::npos) break;
    out.push_back(all.substr(i + 1, j - i - 1));
    i = j;
  }
  if (out.empty())
    for (int i = 0; i < 128; ++i) out.push_back("message " + std::to_string(i));
  return out;
}

void BM_MLDSA_KeyGen(benchmark::State& st, mldsa::Level lv) {
  const auto& p = mldsa::params(lv);
  bytes seed(32, 0), pk(p.pk_bytes), sk(p.sk_bytes);
  std::uint8_t i = 0;
  for (auto _ : st) {
    seed[0] = i++;
    if (!mldsa::keygen_internal(lv, seed, pk, sk)) st.SkipWithError("keygen failed");
    benchmark::DoNotOptimize(pk.data());
  }
}

void BM_MLDSA_Sign(benchmark::State& st, mldsa::Level lv) {
  const auto& p = mldsa::params(lv);
  bytes seed(32, 0), pk(p.pk_bytes), sk(p.sk_bytes), sig(p.sig_bytes);
  (void)mldsa::keygen_internal(lv, seed, pk, sk);
  const auto msgs = load_messages(p.level);
  mldsa::Options o;
  o.deterministic = true;
  std::size_t i = 0;
  for (auto _ : st) {
    const auto& m = msgs[i++ % msgs.size()];
    if (!mldsa::sign(lv, sk, as_bytes(m), sig, o)) st.SkipWithError("sign failed");
    benchmark::DoNotOptimize(sig.data());
  }
}

void BM_MLDSA_Verify(benchmark::State& st, mldsa::Level lv) {
  const auto& p = mldsa::params(lv);
  bytes seed(32, 0), pk(p.pk_bytes), sk(p.sk_bytes), sig(p.sig_bytes);
  (void)mldsa::keygen_internal(lv, seed, pk, sk);
  const std::string m = "verify benchmark message";
  (void)mldsa::sign(lv, sk, as_bytes(m), sig);
  for (auto _ : st) {
    if (!mldsa::verify(lv, pk, as_bytes(m), sig)) st.SkipWithError("verify failed");
  }
}

// KeyGen keeping the prepared signing key (what a suite signer does: one ExpandA).
void BM_MLDSA_KeyGenPrepared(benchmark::State& st, mldsa::Level lv) {
  const auto& p = mldsa::params(lv);
  bytes seed(32, 0), pk(p.pk_bytes), sk(p.sk_bytes);
  std::uint8_t i = 0;
  for (auto _ : st) {
    seed[0] = i++;
    auto k = mldsa::PreparedSigningKey::keygen_internal(lv, seed, pk, sk);
    if (!k) st.SkipWithError("keygen failed");
    benchmark::DoNotOptimize(pk.data());
  }
}

// Verify with a prepared key (Â, NTT(t1·2^d), tr cached); BM_MLDSA_Verify is the cold path.
void BM_MLDSA_VerifyPrepared(benchmark::State& st, mldsa::Level lv) {
  const auto& p = mldsa::params(lv);
  bytes seed(32, 0), pk(p.pk_bytes), sk(p.sk_bytes), sig(p.sig_bytes);
  (void)mldsa::keygen_internal(lv, seed, pk, sk);
  const std::string m = "verify benchmark message";
  (void)mldsa::sign(lv, sk, as_bytes(m), sig);
  auto vk = mldsa::PreparedVerifyingKey::create(lv, pk);
  if (!vk) {
    st.SkipWithError("prepare failed");
    return;
  }
  for (auto _ : st) {
    if (!vk.value().verify(as_bytes(m), sig)) st.SkipWithError("verify failed");
  }
}

BENCHMARK_CAPTURE(BM_MLDSA_KeyGen, 44, mldsa::Level::ml_dsa_44)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_Sign, 44, mldsa::Level::ml_dsa_44)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_Verify, 44, mldsa::Level::ml_dsa_44)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_KeyGen, 65, mldsa::Level::ml_dsa_65)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_Sign, 65, mldsa::Level::ml_dsa_65)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_Verify, 65, mldsa::Level::ml_dsa_65)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_KeyGen, 87, mldsa::Level::ml_dsa_87)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_Sign, 87, mldsa::Level::ml_dsa_87)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_Verify, 87, mldsa::Level::ml_dsa_87)->Unit(benchmark::kMicrosecond);
}  // namespace
BENCHMARK_CAPTURE(BM_MLDSA_KeyGenPrepared, 44, mldsa::Level::ml_dsa_44)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_VerifyPrepared, 44, mldsa::Level::ml_dsa_44)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_KeyGenPrepared, 65, mldsa::Level::ml_dsa_65)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_VerifyPrepared, 65, mldsa::Level::ml_dsa_65)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_KeyGenPrepared, 87, mldsa::Level::ml_dsa_87)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MLDSA_VerifyPrepared, 87, mldsa::Level::ml_dsa_87)->Unit(benchmark::kMicrosecond);
