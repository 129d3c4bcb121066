// bench/compare/oqs_compare.cpp — pqsig against liboqs in one process, one run.
//
// Both sides are timed by the engine of `pqsig price` (price::measure_operation: warm-up,
// batches of ≥ 20 µs, budget per operation) with the thread CPU clock (`price --cpu-time`), on
// the same messages (the Web Bot Auth signature base length price signs, or --message-size),
// and interleaved: every round measures each operation on both sides, alternating which side
// goes first; the samples of all rounds are pooled and their medians compared.
//
// pqsig is driven through its suite API exactly as `pqsig price` drives it:
//   ML-DSA keygen = SigningKey::generate; sign = SigningKey::sign (hedged);
//   verify (cold) = VerifyingKey::from_public(encoded pk) + verify — what liboqs does per call;
//   verify (prepared) = verify on a VerifyingKey prepared once;
//   ML-KEM keygen = KemPrivateKey::generate; encaps = KemPublicKey::encaps (prepared key);
//   decaps = KemPrivateKey::decaps.
// liboqs: OQS_SIG_keypair / OQS_SIG_sign / OQS_SIG_verify, OQS_KEM_keypair / encaps / decaps, into
// buffers allocated once (pqsig's calls allocate their results, so the ratios lean towards liboqs).
// liboqs is linked into this harness only, never into the library (bench/compare/CMakeLists.txt).
//
// Usage: pqsig_vs_liboqs [--rounds 3] [--budget-ms 150] [--message-size N] [--suites a,b,...]
//                        [--markdown FILE]
#include <oqs/oqs.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "pqsig/hash.hpp"
#include "pqsig/price.hpp"
#include "pqsig/suite.hpp"

using namespace pqsig;

namespace {

struct Side {
  std::vector<price::Operation> ops;  // same order and names as the other side
};

struct Row {
  std::string suite, op;
  std::vector<double> pqsig, oqs;  // pooled samples (ns per operation)
};

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

// Length of the Web Bot Auth signature base `pqsig price` signs for this suite (its default
// message): the request of price::SampleRequest with a 43-character keyid and a 64-byte nonce.
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

[[noreturn]] void die(const std::string& m) {
  std::fprintf(stderr, "pqsig_vs_liboqs: %s\n", m.c_str());
  std::exit(1);
}

// ---------------------------------------------------------------- signatures
struct SigPair {
  // pqsig
  const SuiteInfo* suite = nullptr;
  std::optional<SigningKey> sk;
  std::optional<VerifyingKey> vk;
  std::vector<bytes> msgs, psigs;
  // liboqs
  OQS_SIG* oqs = nullptr;
  bytes opk, osk;
  std::vector<bytes> osigs;
  bytes kpk, ksk, ksig;  // liboqs output buffers, allocated once (liboqs timed without allocations)
  std::size_t i_sign = 0, i_ver = 0, o_sign = 0, o_ver = 0;
  ~SigPair() {
    if (oqs) OQS_SIG_free(oqs);
  }
};

void prepare_sig(SigPair& P, const SuiteInfo& s, const char* oqs_name, std::size_t msg_size, Side& ps, Side& os) {
  P.suite = &s;
  auto k = SigningKey::generate(s);
  if (!k) die(std::string(s.id) + ": " + k.error().what());
  P.sk.emplace(std::move(k.value()));
  auto v = VerifyingKey::from_public(s, P.sk->public_key());
  if (!v) die(v.error().what());
  P.vk.emplace(std::move(v.value()));
  P.msgs = make_messages(msg_size, 256);
  for (const auto& m : P.msgs) {
    auto sg = P.sk->sign(m);
    if (!sg) die(sg.error().what());
    P.psigs.push_back(std::move(sg.value()));
  }
  P.oqs = OQS_SIG_new(oqs_name);
  if (!P.oqs) die(std::string("liboqs has no ") + oqs_name);
  P.opk.resize(P.oqs->length_public_key);
  P.osk.resize(P.oqs->length_secret_key);
  P.kpk.resize(P.oqs->length_public_key);
  P.ksk.resize(P.oqs->length_secret_key);
  P.ksig.resize(P.oqs->length_signature);
  if (OQS_SIG_keypair(P.oqs, P.opk.data(), P.osk.data()) != OQS_SUCCESS) die("OQS_SIG_keypair");
  for (const auto& m : P.msgs) {
    bytes sg(P.oqs->length_signature);
    std::size_t n = sg.size();
    if (OQS_SIG_sign(P.oqs, sg.data(), &n, m.data(), m.size(), P.osk.data()) != OQS_SUCCESS) die("OQS_SIG_sign");
    sg.resize(n);
    P.osigs.push_back(std::move(sg));
  }
  SigPair* S = &P;
  ps.ops.push_back({"keygen", [S]() -> Status {
                      auto x = SigningKey::generate(*S->suite);
                      if (!x) return x.error();
                      return {};
                    }});
  ps.ops.push_back({"sign", [S]() -> Status {
                      const auto& m = S->msgs[S->i_sign++ % S->msgs.size()];
                      auto x = S->sk->sign(m);
                      if (!x) return x.error();
                      return {};
                    }});
  ps.ops.push_back({"verify (cold)", [S]() -> Status {
                      const std::size_t i = S->i_ver++ % S->msgs.size();
                      auto v2 = VerifyingKey::from_public(*S->suite, S->sk->public_key());
                      if (!v2) return v2.error();
                      return v2->verify(S->msgs[i], S->psigs[i]);
                    }});
  ps.ops.push_back({"verify (prepared)", [S]() -> Status {
                      const std::size_t i = S->i_ver++ % S->msgs.size();
                      return S->vk->verify(S->msgs[i], S->psigs[i]);
                    }});
  os.ops.push_back({"keygen", [S]() -> Status {
                      if (OQS_SIG_keypair(S->oqs, S->kpk.data(), S->ksk.data()) != OQS_SUCCESS)
                        return Error{Errc::internal, "OQS_SIG_keypair"};
                      return {};
                    }});
  os.ops.push_back({"sign", [S]() -> Status {
                      const auto& m = S->msgs[S->o_sign++ % S->msgs.size()];
                      std::size_t n = S->ksig.size();
                      if (OQS_SIG_sign(S->oqs, S->ksig.data(), &n, m.data(), m.size(), S->osk.data()) != OQS_SUCCESS)
                        return Error{Errc::internal, "OQS_SIG_sign"};
                      return {};
                    }});
  auto oqs_verify = [S]() -> Status {
    const std::size_t i = S->o_ver++ % S->msgs.size();
    if (OQS_SIG_verify(S->oqs, S->msgs[i].data(), S->msgs[i].size(), S->osigs[i].data(), S->osigs[i].size(),
                       S->opk.data()) != OQS_SUCCESS)
      return Error{Errc::verify_failed, "OQS_SIG_verify"};
    return {};
  };
  // liboqs has no prepared key: both verify rows time the same call.
  os.ops.push_back({"verify (cold)", oqs_verify});
  os.ops.push_back({"verify (prepared)", oqs_verify});
}

// ---------------------------------------------------------------- KEMs
struct KemPair {
  const SuiteInfo* suite = nullptr;
  std::optional<KemPrivateKey> dk;
  std::optional<KemPublicKey> ek;
  std::vector<bytes> pcts;
  OQS_KEM* oqs = nullptr;
  bytes opk, osk;
  std::vector<bytes> octs;
  bytes kpk, ksk, kct, kss;  // liboqs output buffers, allocated once
  std::size_t i_dec = 0, o_dec = 0;
  ~KemPair() {
    if (oqs) OQS_KEM_free(oqs);
  }
};

void prepare_kem(KemPair& P, const SuiteInfo& s, const char* oqs_name, Side& ps, Side& os) {
  P.suite = &s;
  auto d = KemPrivateKey::generate(s);
  if (!d) die(std::string(s.id) + ": " + d.error().what());
  P.dk.emplace(std::move(d.value()));
  auto e = KemPublicKey::from_public(s, P.dk->public_key());
  if (!e) die(e.error().what());
  P.ek.emplace(std::move(e.value()));
  P.oqs = OQS_KEM_new(oqs_name);
  if (!P.oqs) die(std::string("liboqs has no ") + oqs_name);
  P.opk.resize(P.oqs->length_public_key);
  P.osk.resize(P.oqs->length_secret_key);
  if (OQS_KEM_keypair(P.oqs, P.opk.data(), P.osk.data()) != OQS_SUCCESS) die("OQS_KEM_keypair");
  P.kpk.resize(P.oqs->length_public_key);
  P.ksk.resize(P.oqs->length_secret_key);
  P.kct.resize(P.oqs->length_ciphertext);
  P.kss.resize(P.oqs->length_shared_secret);
  for (int i = 0; i < 256; ++i) {
    auto x = P.ek->encaps();
    if (!x) die(x.error().what());
    auto k2 = P.dk->decaps(x->ciphertext);
    if (!k2 || !ct_equal(k2->span(), x->shared_secret.span())) die(std::string(s.id) + ": pqsig self-check failed");
    P.pcts.push_back(std::move(x->ciphertext));
    bytes ct(P.oqs->length_ciphertext), ss(P.oqs->length_shared_secret), ss2(P.oqs->length_shared_secret);
    if (OQS_KEM_encaps(P.oqs, ct.data(), ss.data(), P.opk.data()) != OQS_SUCCESS) die("OQS_KEM_encaps");
    if (OQS_KEM_decaps(P.oqs, ss2.data(), ct.data(), P.osk.data()) != OQS_SUCCESS || ss != ss2)
      die("liboqs self-check failed");
    P.octs.push_back(std::move(ct));
  }
  KemPair* S = &P;
  ps.ops.push_back({"keygen", [S]() -> Status {
                      auto x = KemPrivateKey::generate(*S->suite);
                      if (!x) return x.error();
                      return {};
                    }});
  ps.ops.push_back({"encaps", [S]() -> Status {
                      auto x = S->ek->encaps();
                      if (!x) return x.error();
                      return {};
                    }});
  ps.ops.push_back({"decaps", [S]() -> Status {
                      auto x = S->dk->decaps(S->pcts[S->i_dec++ % S->pcts.size()]);
                      if (!x) return x.error();
                      return {};
                    }});
  os.ops.push_back({"keygen", [S]() -> Status {
                      if (OQS_KEM_keypair(S->oqs, S->kpk.data(), S->ksk.data()) != OQS_SUCCESS)
                        return Error{Errc::internal, "OQS_KEM_keypair"};
                      return {};
                    }});
  os.ops.push_back({"encaps", [S]() -> Status {
                      if (OQS_KEM_encaps(S->oqs, S->kct.data(), S->kss.data(), S->opk.data()) != OQS_SUCCESS)
                        return Error{Errc::internal, "OQS_KEM_encaps"};
                      return {};
                    }});
  os.ops.push_back({"decaps", [S]() -> Status {
                      if (OQS_KEM_decaps(S->oqs, S->kss.data(), S->octs[S->o_dec++ % S->octs.size()].data(),
                                         S->osk.data()) != OQS_SUCCESS)
                        return Error{Errc::internal, "OQS_KEM_decaps"};
                      return {};
                    }});
}

double median(std::vector<double> v) { return price::compute_stats(std::move(v)).median_ns; }

std::string us(double ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", ns / 1e3);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 3;
  double budget_ms = 150;
  std::size_t msg_size = 0;
  std::string suites = "ml-dsa-44,ml-dsa-65,ml-dsa-87,ml-kem-512,ml-kem-768,ml-kem-1024";
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
    else if (a == "--suites") suites = next();
    else if (a == "--markdown") markdown = next();
    else die("unknown argument " + a + " (see the comment at the top of bench/compare/oqs_compare.cpp)");
  }
  const std::map<std::string, const char*> oqs_names = {
      {"ml-dsa-44", OQS_SIG_alg_ml_dsa_44}, {"ml-dsa-65", OQS_SIG_alg_ml_dsa_65},
      {"ml-dsa-87", OQS_SIG_alg_ml_dsa_87}, {"ml-kem-512", OQS_KEM_alg_ml_kem_512},
      {"ml-kem-768", OQS_KEM_alg_ml_kem_768}, {"ml-kem-1024", OQS_KEM_alg_ml_kem_1024}};

  OQS_init();
  price::MeasureOptions mo;
  mo.thread_cpu_time = true;  // `pqsig price --cpu-time`
  mo.budget_ms_per_op = budget_ms;
  mo.keep_samples = true;

  std::vector<std::unique_ptr<SigPair>> sigs;
  std::vector<std::unique_ptr<KemPair>> kems;
  std::vector<std::pair<Side, Side>> sides;  // (pqsig, liboqs) per suite
  std::vector<std::string> names;
  std::map<std::string, std::size_t> msg_sizes;
  std::stringstream ss(suites);
  for (std::string id; std::getline(ss, id, ',');) {
    auto it = oqs_names.find(id);
    if (it == oqs_names.end()) die("no liboqs counterpart for suite " + id);
    auto s = find_suite(id);
    if (!s) die(s.error().what());
    Side p, o;
    if (id.rfind("ml-kem", 0) == 0) {
      kems.push_back(std::make_unique<KemPair>());
      prepare_kem(*kems.back(), **s, it->second, p, o);
    } else {
      const std::size_t n = msg_size ? msg_size : signature_base_size(**s);
      msg_sizes[id] = n;
      sigs.push_back(std::make_unique<SigPair>());
      prepare_sig(*sigs.back(), **s, it->second, n, p, o);
    }
    sides.emplace_back(std::move(p), std::move(o));
    names.push_back(id);
  }

  std::vector<Row> rows;
  for (std::size_t si = 0; si < sides.size(); ++si)
    for (const auto& op : sides[si].first.ops) rows.push_back({names[si], op.name, {}, {}});
  for (int r = 0; r < rounds; ++r) {
    std::size_t ri = 0;
    for (std::size_t si = 0; si < sides.size(); ++si) {
      for (std::size_t oi = 0; oi < sides[si].first.ops.size(); ++oi, ++ri) {
        const bool pqsig_first = (r + static_cast<int>(ri)) % 2 == 0;
        for (int turn = 0; turn < 2; ++turn) {
          const bool do_pqsig = (turn == 0) == pqsig_first;
          const auto& op = do_pqsig ? sides[si].first.ops[oi] : sides[si].second.ops[oi];
          auto res = price::measure_operation(op, mo);
          if (!res.error.empty()) die(names[si] + " " + op.name + ": " + res.error);
          auto& dst = do_pqsig ? rows[ri].pqsig : rows[ri].oqs;
          dst.insert(dst.end(), res.samples.begin(), res.samples.end());
        }
      }
    }
    std::fprintf(stderr, "round %d/%d done\n", r + 1, rounds);
  }

  std::ostringstream out;
  out << "| suite | op | liboqs µs | pqsig µs | pqsig / liboqs |\n| --- | --- | ---: | ---: | ---: |\n";
  for (const auto& row : rows) {
    const double p = median(row.pqsig), o = median(row.oqs);
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", p / o);
    out << "| " << row.suite << " | " << row.op << " | " << us(o) << " | " << us(p) << " | " << ratio << " |\n";
  }
  out << "\nthread CPU time, median of the pooled samples of " << rounds
      << " interleaved rounds (price::measure_operation, budget " << budget_ms << " ms per operation and round)";
  if (!msg_sizes.empty()) {
    out << "; messages:";
    for (const auto& [id, n] : msg_sizes) out << " " << id << " " << n << " B";
  }
  out << ".\n";
  std::fputs(out.str().c_str(), stdout);
  if (!markdown.empty()) {
    std::ofstream f(markdown);
    f << out.str();
    if (!f) die("cannot write " + markdown);
  }
  OQS_destroy();
  return 0;
}
