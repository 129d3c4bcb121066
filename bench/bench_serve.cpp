// The verifier service's decision against the cryptography it performs (issue 20, "keep it
// true"): Verifier::decide for a Web Bot Auth request signed with sig1 (Ed25519) alone and with
// sig1 + sig2 (ML-DSA-44), interleaved in the same iterations with the bare, prepared
// VerifyingKey::verify calls of the same signature bases. Reported as medians and their ratio
// ("ratio" = decision / crypto; the target is <= 1.25). Static keys, no directory, no nonce store:
// what is measured is parsing, policy, key lookup and the profile check around the crypto.
//   pqsig_bench --benchmark_filter=ServeDecision
// The iteration time is the decision's; on a loaded machine rely on the ratio, not the times.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "pqsig/client.hpp"
#include "pqsig/jose.hpp"
#include "pqsig/serve.hpp"
#include "pqsig/webbotauth.hpp"

namespace {

namespace hs = pqsig::httpsig;
namespace sv = pqsig::serve;
namespace cl = pqsig::client;

constexpr std::int64_t kNow = 1'790'000'000;

struct KeyPair {
  std::string priv, pub;
};

KeyPair make_key(const char* suite) {
  auto s = pqsig::find_suite(suite);
  auto key = pqsig::SigningKey::generate(*s.value());
  return {pqsig::jose::to_jwk(key.value(), true).value(), pqsig::jose::to_jwk(key.value(), false).value()};
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

void BM_ServeDecision(benchmark::State& st) {
  static const KeyPair ed = make_key("ed25519");
  static const KeyPair ml = make_key("ml-dsa-44");
  const bool two = st.range(0) == 2;

  const std::string jwks = pqsig::jose::make_jwks(std::vector<std::string>{ed.pub, ml.pub}).value();
  sv::VerifyOptions o;
  o.policy.authorities = {"origin.example"};
  sv::Metrics metrics;  // counted as in the service (pqsig_decision_seconds is taken around decide)
  auto v = sv::Verifier::create(o, {jwks}, nullptr, nullptr, &metrics);
  if (!v) {
    st.SkipWithError(v.error().message.c_str());
    return;
  }

  cl::ClientOptions co;
  co.keys = {{"sig1", ed.priv}};
  if (two) co.keys.emplace_back("sig2", ml.priv);
  co.agent = "https://agent.example";
  co.clock = [] { return kNow; };
  co.log = [](std::string_view) {};
  cl::Client c(co);
  cl::Url u;
  u.scheme = "https";
  u.host = "origin.example";
  u.port = 443;
  u.path_query = "/page?x=1";
  auto req = c.build_signed("GET", u, {}, {});
  if (!req) {
    st.SkipWithError(req.error().message.c_str());
    return;
  }
  if (auto d = v.value()->decide(req.value(), kNow); d.status != 200 || d.labels.size() != (two ? 2u : 1u)) {
    st.SkipWithError(("decision is not 200 with every label: " + d.reason + " " + d.detail).c_str());
    return;
  }

  // The bare verifications the decision performs: the same bases, signatures and prepared keys.
  hs::KeyStore store;
  if (!pqsig::webbotauth::add_jwks(store, jwks)) {
    st.SkipWithError("jwks");
    return;
  }
  hs::VerifyPolicy pol;
  pol.now = kNow;
  auto rep = hs::verify_message(req.value(), store, pol);
  auto fields = hs::parse_signature_fields(req.value());
  struct Bare {
    const pqsig::VerifyingKey* key;
    std::string base;
    pqsig::bytes sig;
  };
  std::vector<Bare> bare;
  for (const auto& vd : rep.verdicts) {
    auto k = store.resolve(vd.keyid);
    const auto* m = fields ? pqsig::sf::find_member(fields->signature, vd.label) : nullptr;
    if (vd.outcome != hs::Outcome::valid || !k || !k->verifying || !m) {
      st.SkipWithError("bare verification setup");
      return;
    }
    bare.push_back({k->verifying, vd.signature_base, m->item.bare.b});
  }

  std::vector<double> dec, cry;
  using clock = std::chrono::steady_clock;
  for (auto _ : st) {
    auto t0 = clock::now();
    auto d = v.value()->decide(req.value(), kNow);
    auto t1 = clock::now();
    bool ok = true;
    for (const auto& b : bare) ok = b.key->verify(pqsig::as_bytes(b.base), b.sig).ok() && ok;
    auto t2 = clock::now();
    benchmark::DoNotOptimize(d);
    if (d.status != 200 || !ok) {
      st.SkipWithError("verification failed in the loop");
      return;
    }
    double td = std::chrono::duration<double>(t1 - t0).count();
    dec.push_back(td);
    cry.push_back(std::chrono::duration<double>(t2 - t1).count());
    st.SetIterationTime(td);
  }
  double md = median(dec), mc = median(cry);
  st.counters["decision_us"] = md * 1e6;
  st.counters["crypto_us"] = mc * 1e6;
  st.counters["ratio"] = mc > 0 ? md / mc : 0;
}

}  // namespace

// Arg 1: sig1 (Ed25519); arg 2: sig1 + sig2 (ML-DSA-44).
BENCHMARK(BM_ServeDecision)->Arg(1)->Arg(2)->UseManualTime()->MinTime(1.0)->Unit(benchmark::kMicrosecond);
