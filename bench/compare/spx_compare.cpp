// bench/compare/spx_compare.cpp — pqsig's SLH-DSA against the SPHINCS+ round-3.1 AVX2 reference
// (shake-avx2 / sha2-avx2, "simple" thash) in one process, one run. SPHINCS+ is not SLH-DSA (its
// outputs differ), but its simple instances do the same hashing: a speed anchor only.
//
// Same method as pqsig_vs_liboqs (oqs_compare.cpp): both sides are timed by the engine of
// `pqsig price` (price::measure_operation) with the thread CPU clock (`price --cpu-time`), on the
// same messages (the Web Bot Auth signature base length price signs for the suite, or
// --message-size), interleaved: every round measures each operation on both sides, alternating
// which goes first; the samples of all rounds are pooled and their medians compared.
// pqsig: SigningKey::generate / SigningKey::sign (hedged) / VerifyingKey::from_public + verify
// (cold) and verify on a prepared key. SPHINCS+: crypto_sign_keypair / crypto_sign_signature
// (randomized) / crypto_sign_verify into buffers allocated once.
//
// The SPHINCS+ objects come from bench/compare/sphincsplus.sh (one relocatable object per set,
// entry points renamed spx_<family>_<set>_crypto_sign_*); CMake lists the sets it found in
// spx_sets.inc as SPX_SET(family, set).
//
// Usage: pqsig_vs_sphincsplus [--rounds 3] [--budget-ms 300] [--message-size N] [--sets shake-128f,...]
//                             [--markdown FILE]
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "compare_common.hpp"

#define SPX_SET(fam, set)                                                                                    \
  extern "C" int spx_##fam##_##set##_crypto_sign_keypair(unsigned char* pk, unsigned char* sk);              \
  extern "C" int spx_##fam##_##set##_crypto_sign_signature(std::uint8_t* sig, std::size_t* siglen,         \
                                                           const std::uint8_t* m, std::size_t mlen,         \
                                                           const std::uint8_t* sk);                         \
  extern "C" int spx_##fam##_##set##_crypto_sign_verify(const std::uint8_t* sig, std::size_t siglen,        \
                                                        const std::uint8_t* m, std::size_t mlen,            \
                                                        const std::uint8_t* pk);                            \
  extern "C" unsigned long long spx_##fam##_##set##_crypto_sign_bytes(void);
#include "spx_sets.inc"
#undef SPX_SET

using namespace pqsig;
using namespace pqsig::compare;

namespace {

struct SpxApi {
  int (*keypair)(unsigned char*, unsigned char*);
  int (*sign)(std::uint8_t*, std::size_t*, const std::uint8_t*, std::size_t, const std::uint8_t*);
  int (*verify)(const std::uint8_t*, std::size_t, const std::uint8_t*, std::size_t, const std::uint8_t*);
  unsigned long long (*bytes)();
};

const std::map<std::string, SpxApi>& spx_sets() {
  static const std::map<std::string, SpxApi> m = {
#define SPX_SET(fam, set)                                                                                     \
  {#fam "-" #set,                                                                                              \
   SpxApi{&spx_##fam##_##set##_crypto_sign_keypair, &spx_##fam##_##set##_crypto_sign_signature,                \
          &spx_##fam##_##set##_crypto_sign_verify, &spx_##fam##_##set##_crypto_sign_bytes}},
#include "spx_sets.inc"
#undef SPX_SET
  };
  return m;
}

// SPHINCS+ key sizes: pk = 2n, sk = 4n with n from the set name (16 / 24 / 32).
std::size_t spx_n(const std::string& set) {
  if (set.find("128") != std::string::npos) return 16;
  if (set.find("192") != std::string::npos) return 24;
  return 32;
}

struct Pair {
  PqsigSignature p;  // pqsig side (keeps the messages both sides sign)
  SpxApi spx{};
  bytes opk, osk, kpk, ksk, ksig;
  std::vector<bytes> osigs;
  std::size_t o_sign = 0, o_ver = 0;
};

void prepare(Pair& P, const SuiteInfo& s, const SpxApi& api, std::size_t n, std::size_t msg_size, Sides& sides) {
  P.p.prepare(s, msg_size, 16);
  P.spx = api;
  P.opk.resize(2 * n);
  P.osk.resize(4 * n);
  P.kpk.resize(2 * n);
  P.ksk.resize(4 * n);
  P.ksig.resize(api.bytes());
  if (api.keypair(P.opk.data(), P.osk.data()) != 0) die("crypto_sign_keypair");
  for (const auto& m : P.p.msgs) {
    bytes sg(api.bytes());
    std::size_t len = 0;
    if (api.sign(sg.data(), &len, m.data(), m.size(), P.osk.data()) != 0 || len != sg.size())
      die("crypto_sign_signature");
    if (api.verify(sg.data(), sg.size(), m.data(), m.size(), P.opk.data()) != 0) die("SPHINCS+ self-check failed");
    P.osigs.push_back(std::move(sg));
  }
  P.p.add_operations(sides.pqsig);
  Pair* S = &P;
  sides.anchor.push_back({"keygen", [S]() -> Status {
                       if (S->spx.keypair(S->kpk.data(), S->ksk.data()) != 0)
                         return Error{Errc::internal, "crypto_sign_keypair"};
                       return {};
                     }});
  sides.anchor.push_back({"sign (cold)", [S]() -> Status {
                       const auto& m = S->p.msgs[S->o_sign++ % S->p.msgs.size()];
                       std::size_t len = 0;
                       if (S->spx.sign(S->ksig.data(), &len, m.data(), m.size(), S->osk.data()) != 0)
                         return Error{Errc::internal, "crypto_sign_signature"};
                       return {};
                     }});
  sides.anchor.push_back({"sign (prepared)", nullptr});  // no prepared key there
  auto verify = [S]() -> Status {
    const std::size_t i = S->o_ver++ % S->p.msgs.size();
    if (S->spx.verify(S->osigs[i].data(), S->osigs[i].size(), S->p.msgs[i].data(), S->p.msgs[i].size(),
                      S->opk.data()) != 0)
      return Error{Errc::verify_failed, "crypto_sign_verify"};
    return {};
  };
  // SPHINCS+ has no prepared key: its call is the cold one; the prepared row has no counterpart.
  sides.anchor.push_back({"verify (cold)", verify});
  sides.anchor.push_back({"verify (prepared)", nullptr});
}

}  // namespace

int main(int argc, char** argv) {
  program_name() = "pqsig_vs_sphincsplus";
  Args defaults;
  defaults.budget_ms = 300;
  Args args = parse_args(argc, argv, "--sets", defaults, "bench/compare/spx_compare.cpp");
  if (args.list.empty())
    for (const auto& [name, api] : spx_sets()) args.list += (args.list.empty() ? "" : ",") + name;

  std::vector<std::unique_ptr<Pair>> pairs;
  std::vector<Sides> sides;  // (pqsig, SPHINCS+) per set
  std::map<std::string, std::size_t> msg_sizes;
  std::stringstream ss(args.list);
  for (std::string set; std::getline(ss, set, ',');) {
    auto it = spx_sets().find(set);
    if (it == spx_sets().end()) die("SPHINCS+ set " + set + " was not built (bench/compare/sphincsplus.sh)");
    const std::string id = "slh-dsa-" + set;
    auto s = find_suite(id);
    if (!s) die(s.error().what());
    const std::size_t m = args.msg_size ? args.msg_size : signature_base_size(**s);
    msg_sizes[id] = m;
    Sides sd;
    sd.suite = id;
    pairs.push_back(std::make_unique<Pair>());
    prepare(*pairs.back(), **s, it->second, spx_n(set), m, sd);
    sides.push_back(std::move(sd));
  }

  const auto rows = run_interleaved(sides, args.rounds, measure_options(args.budget_ms));
  std::ostringstream out;
  out << ratio_table(rows, "SPHINCS+ AVX2", 1);
  out << "\nthread CPU time, median of the pooled samples of " << args.rounds
      << " interleaved rounds (price::measure_operation, budget " << args.budget_ms
      << " ms per operation and round); SPHINCS+ round 3.1 shake-avx2 / sha2-avx2, simple thash; messages:";
  for (const auto& [id, n] : msg_sizes) out << " " << id << " " << n << " B";
  out << ".\n";
  emit(out.str(), args.markdown);
  return 0;
}
