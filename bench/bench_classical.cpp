// Classical and composite signatures through the suite API. Ed25519 is measured with both
// engines in the same run (libsodium, used by the ed25519 suite, vs OpenSSL 3.0 EVP).
// Message: 128 bytes (a typical RFC 9421 signature base is 100-300 bytes).
#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include "pqsig/classical_suites.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;

namespace {
const bytes kMsg(128, 0x5a);

SigningKey make_key(const SuiteInfo& s) {
  if (s.id.starts_with("rsa-")) return std::move(SigningKey::from_private(s, classical::generate_rsa_private(2048)->span()).value());
  return std::move(SigningKey::generate(s).value());
}

void sign_suite(benchmark::State& st, const char* id) {
  const SuiteInfo& s = *find_suite(id).value();
  auto probe = SigningKey::generate(s);
  if (!probe && probe.error().code == Errc::unsupported) {
    st.SkipWithError("not available in this build");
    return;
  }
  SigningKey k = make_key(s);
  for (auto _ : st) benchmark::DoNotOptimize(k.sign(kMsg));
}

void verify_suite(benchmark::State& st, const char* id) {
  const SuiteInfo& s = *find_suite(id).value();
  auto probe = SigningKey::generate(s);
  if (!probe && probe.error().code == Errc::unsupported) {
    st.SkipWithError("not available in this build");
    return;
  }
  SigningKey k = make_key(s);
  bytes sig = *k.sign(kMsg);
  if (s.cls == SuiteClass::mac) {
    for (auto _ : st) benchmark::DoNotOptimize(k.verify(kMsg, sig));
    return;
  }
  VerifyingKey v = std::move(VerifyingKey::from_public(s, k.public_key()).value());
  for (auto _ : st) benchmark::DoNotOptimize(v.verify(kMsg, sig));
}

void ed25519_sign(benchmark::State& st, classical::Ed25519Engine eng) {
  bytes seed(32, 7);
  auto k = classical::ed25519_signing_key(seed, eng);
  for (auto _ : st) benchmark::DoNotOptimize(k->sign(kMsg));
}

void ed25519_verify(benchmark::State& st, classical::Ed25519Engine eng) {
  bytes seed(32, 7);
  auto k = classical::ed25519_signing_key(seed, eng);
  auto v = classical::ed25519_verifying_key(k->public_key(), eng);
  bytes sig = *k->sign(kMsg);
  for (auto _ : st) benchmark::DoNotOptimize(v->verify(kMsg, sig));
}

void keygen_suite(benchmark::State& st, const char* id) {
  const SuiteInfo& s = *find_suite(id).value();
  auto probe = SigningKey::generate(s);
  if (!probe) {
    st.SkipWithError("not available in this build");
    return;
  }
  for (auto _ : st) benchmark::DoNotOptimize(SigningKey::generate(s));
}
}  // namespace

BENCHMARK_CAPTURE(ed25519_sign, libsodium, classical::Ed25519Engine::libsodium);
BENCHMARK_CAPTURE(ed25519_sign, openssl, classical::Ed25519Engine::openssl);
BENCHMARK_CAPTURE(ed25519_verify, libsodium, classical::Ed25519Engine::libsodium);
BENCHMARK_CAPTURE(ed25519_verify, openssl, classical::Ed25519Engine::openssl);

#define PQSIG_SUITE_BENCH(name, id)                  \
  BENCHMARK_CAPTURE(sign_suite, name, id);           \
  BENCHMARK_CAPTURE(verify_suite, name, id)

PQSIG_SUITE_BENCH(ed448, "ed448");
PQSIG_SUITE_BENCH(ecdsa_p256_sha256, "ecdsa-p256-sha256");
PQSIG_SUITE_BENCH(ecdsa_p384_sha384, "ecdsa-p384-sha384");
PQSIG_SUITE_BENCH(rsa_pss_sha512_2048, "rsa-pss-sha512");
PQSIG_SUITE_BENCH(rsa_v1_5_sha256_2048, "rsa-v1_5-sha256");
PQSIG_SUITE_BENCH(hmac_sha256, "hmac-sha256");
PQSIG_SUITE_BENCH(ml_dsa_44_ed25519, "ml-dsa-44+ed25519");
PQSIG_SUITE_BENCH(ml_dsa_65_ed25519, "ml-dsa-65+ed25519");
PQSIG_SUITE_BENCH(ml_dsa_44_ecdsa_p256, "ml-dsa-44+ecdsa-p256");
PQSIG_SUITE_BENCH(ml_dsa_65_ecdsa_p256, "ml-dsa-65+ecdsa-p256");
PQSIG_SUITE_BENCH(ml_dsa_87_ed448, "ml-dsa-87+ed448");
BENCHMARK_CAPTURE(keygen_suite, ecdsa_p256_sha256, "ecdsa-p256-sha256");
BENCHMARK_CAPTURE(keygen_suite, ml_dsa_65_ed25519, "ml-dsa-65+ed25519");
