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
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "pqsig/hash.hpp"
#include "pqsig/price.hpp"
#include "pqsig/suite.hpp"

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

[[noreturn]] void die(const std::string& m) {
  std::fprintf(stderr, "pqsig_vs_sphincsplus: %s\n", m.c_str());
  std::exit(1);
}

std::vector<bytes> make_messages(std::size_t size, std::size_t n) {
  std::vector<bytes> m;
  for (std::size_t i = 0; i < n; ++i) {
    bytes b(size);
    std::string seed = "pqsig price message " + std::to_string(i);
    hash::shake256(b, as_bytes(seed));
    m.push_back(std::move(b));
  }
  return m;
}

// Length of the Web Bot Auth signature base `pqsig price` signs for this suite (as oqs_compare.cpp).
std::size_t signature_base_size(const SuiteInfo& s) {
  price::SampleRequest r;
  price::SignatureParams p;
  p.alg = price::http_alg_token(s);
  p.keyid = std::string(43, 'A');
  p.created = r.created;
  p.expires = r.created + r.validity_s;
  p.nonce = std::string(88, 'A');
  return price::signature_base(r, p).size();
}

// SPHINCS+ key sizes: pk = 2n, sk = 4n with n from the set name (16 / 24 / 32).
std::size_t spx_n(const std::string& set) {
  if (set.find("128") != std::string::npos) return 16;
  if (set.find("192") != std::string::npos) return 24;
  return 32;
}

struct Pair {
  const SuiteInfo* suite = nullptr;
  std::optional<SigningKey> sk;
  std::optional<VerifyingKey> vk;
  std::vector<bytes> msgs, psigs;
  SpxApi spx{};
  bytes opk, osk, kpk, ksk, ksig;
  std::vector<bytes> osigs;
  std::size_t i_sign = 0, i_ver = 0, o_sign = 0, o_ver = 0;
  std::vector<price::Operation> p_ops, o_ops;
};

void prepare(Pair& P, const SuiteInfo& s, const SpxApi& api, std::size_t n, std::size_t msg_size) {
  P.suite = &s;
  P.spx = api;
  auto k = SigningKey::generate(s);
  if (!k) die(std::string(s.id) + ": " + k.error().what());
  P.sk.emplace(std::move(k.value()));
  auto v = VerifyingKey::from_public(s, P.sk->public_key());
  if (!v) die(v.error().what());
  P.vk.emplace(std::move(v.value()));
  P.msgs = make_messages(msg_size, 16);
  for (const auto& m : P.msgs) {
    auto sg = P.sk->sign(m);
    if (!sg) die(sg.error().what());
    P.psigs.push_back(std::move(sg.value()));
  }
  P.opk.resize(2 * n);
  P.osk.resize(4 * n);
  P.kpk.resize(2 * n);
  P.ksk.resize(4 * n);
  P.ksig.resize(api.bytes());
  if (api.keypair(P.opk.data(), P.osk.data()) != 0) die("crypto_sign_keypair");
  for (const auto& m : P.msgs) {
    bytes sg(api.bytes());
    std::size_t len = 0;
    if (api.sign(sg.data(), &len, m.data(), m.size(), P.osk.data()) != 0 || len != sg.size())
      die("crypto_sign_signature");
    if (api.verify(sg.data(), sg.size(), m.data(), m.size(), P.opk.data()) != 0) die("SPHINCS+ self-check failed");
    P.osigs.push_back(std::move(sg));
  }
  Pair* S = &P;
  P.p_ops.push_back({"keygen", [S]() -> Status {
                       auto x = SigningKey::generate(*S->suite);
                       if (!x) return x.error();
                       return {};
                     }});
  P.p_ops.push_back({"sign", [S]() -> Status {
                       auto x = S->sk->sign(S->msgs[S->i_sign++ % S->msgs.size()]);
                       if (!x) return x.error();
                       return {};
                     }});
  P.p_ops.push_back({"verify (cold)", [S]() -> Status {
                       const std::size_t i = S->i_ver++ % S->msgs.size();
                       auto v2 = VerifyingKey::from_public(*S->suite, S->sk->public_key());
                       if (!v2) return v2.error();
                       return v2->verify(S->msgs[i], S->psigs[i]);
                     }});
  P.p_ops.push_back({"verify (prepared)", [S]() -> Status {
                       const std::size_t i = S->i_ver++ % S->msgs.size();
                       return S->vk->verify(S->msgs[i], S->psigs[i]);
                     }});
  P.o_ops.push_back({"keygen", [S]() -> Status {
                       if (S->spx.keypair(S->kpk.data(), S->ksk.data()) != 0)
                         return Error{Errc::internal, "crypto_sign_keypair"};
                       return {};
                     }});
  P.o_ops.push_back({"sign", [S]() -> Status {
                       const auto& m = S->msgs[S->o_sign++ % S->msgs.size()];
                       std::size_t len = 0;
                       if (S->spx.sign(S->ksig.data(), &len, m.data(), m.size(), S->osk.data()) != 0)
                         return Error{Errc::internal, "crypto_sign_signature"};
                       return {};
                     }});
  auto verify = [S]() -> Status {
    const std::size_t i = S->o_ver++ % S->msgs.size();
    if (S->spx.verify(S->osigs[i].data(), S->osigs[i].size(), S->msgs[i].data(), S->msgs[i].size(),
                      S->opk.data()) != 0)
      return Error{Errc::verify_failed, "crypto_sign_verify"};
    return {};
  };
  // SPHINCS+ has no prepared key: both verify rows time the same call.
  P.o_ops.push_back({"verify (cold)", verify});
  P.o_ops.push_back({"verify (prepared)", verify});
}

std::string us(double ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", ns / 1e3);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 3;
  double budget_ms = 300;
  std::size_t msg_size = 0;
  std::string sets;
  std::string markdown;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) die("missing value for " + a);
      return argv[++i];
    };
    if (a == "--rounds") rounds = std::max(1, std::atoi(next().c_str()));
    else if (a == "--budget-ms") budget_ms = std::atof(next().c_str());
    else if (a == "--message-size") msg_size = static_cast<std::size_t>(std::atoll(next().c_str()));
    else if (a == "--sets") sets = next();
    else if (a == "--markdown") markdown = next();
    else die("unknown argument " + a + " (see the comment at the top of bench/compare/spx_compare.cpp)");
  }
  if (sets.empty())
    for (const auto& [name, api] : spx_sets()) sets += (sets.empty() ? "" : ",") + name;

  price::MeasureOptions mo;
  mo.thread_cpu_time = true;  // `pqsig price --cpu-time`
  mo.budget_ms_per_op = budget_ms;
  mo.keep_samples = true;

  std::vector<std::unique_ptr<Pair>> pairs;
  std::vector<std::string> names;
  std::map<std::string, std::size_t> msg_sizes;
  std::stringstream ss(sets);
  for (std::string set; std::getline(ss, set, ',');) {
    auto it = spx_sets().find(set);
    if (it == spx_sets().end()) die("SPHINCS+ set " + set + " was not built (bench/compare/sphincsplus.sh)");
    const std::string id = "slh-dsa-" + set;
    auto s = find_suite(id);
    if (!s) die(s.error().what());
    const std::size_t m = msg_size ? msg_size : signature_base_size(**s);
    msg_sizes[id] = m;
    pairs.push_back(std::make_unique<Pair>());
    prepare(*pairs.back(), **s, it->second, spx_n(set), m);
    names.push_back(id);
  }

  struct Row {
    std::string suite, op;
    std::vector<double> pqsig, spx;
  };
  std::vector<Row> rows;
  for (std::size_t si = 0; si < pairs.size(); ++si)
    for (const auto& op : pairs[si]->p_ops) rows.push_back({names[si], op.name, {}, {}});
  for (int r = 0; r < rounds; ++r) {
    std::size_t ri = 0;
    for (std::size_t si = 0; si < pairs.size(); ++si) {
      for (std::size_t oi = 0; oi < pairs[si]->p_ops.size(); ++oi, ++ri) {
        const bool pqsig_first = (r + static_cast<int>(ri)) % 2 == 0;
        for (int turn = 0; turn < 2; ++turn) {
          const bool do_pqsig = (turn == 0) == pqsig_first;
          const auto& op = do_pqsig ? pairs[si]->p_ops[oi] : pairs[si]->o_ops[oi];
          auto res = price::measure_operation(op, mo);
          if (!res.error.empty()) die(names[si] + " " + op.name + ": " + res.error);
          auto& dst = do_pqsig ? rows[ri].pqsig : rows[ri].spx;
          dst.insert(dst.end(), res.samples.begin(), res.samples.end());
        }
      }
    }
    std::fprintf(stderr, "round %d/%d done\n", r + 1, rounds);
  }

  std::ostringstream out;
  out << "| suite | op | SPHINCS+ AVX2 µs | pqsig µs | pqsig / SPHINCS+ |\n| --- | --- | ---: | ---: | ---: |\n";
  for (const auto& row : rows) {
    const double p = price::compute_stats(row.pqsig).median_ns, o = price::compute_stats(row.spx).median_ns;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", p / o);
    out << "| " << row.suite << " | " << row.op << " | " << us(o) << " | " << us(p) << " | " << ratio << " |\n";
  }
  out << "\nthread CPU time, median of the pooled samples of " << rounds
      << " interleaved rounds (price::measure_operation, budget " << budget_ms
      << " ms per operation and round); SPHINCS+ round 3.1 shake-avx2 / sha2-avx2, simple thash; messages:";
  for (const auto& [id, n] : msg_sizes) out << " " << id << " " << n << " B";
  out << ".\n";
  std::fputs(out.str().c_str(), stdout);
  if (!markdown.empty()) {
    std::ofstream f(markdown);
    f << out.str();
    if (!f) die("cannot write " + markdown);
  }
  return 0;
}
