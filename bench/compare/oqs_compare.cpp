// bench/compare/oqs_compare.cpp — pqsig against liboqs in one process, one run.
//
// Both sides are timed by the engine of `pqsig price` (price::measure_operation: warm-up,
// batches of ≥ 20 µs, budget per operation) with the thread CPU clock (`price --cpu-time`), on
// the same messages (the Web Bot Auth signature base length price signs, or --message-size),
// and interleaved: every round measures each operation on both sides, alternating which side
// goes first; the samples of all rounds are pooled and their medians compared.
//
// pqsig is driven through its suite API exactly as `pqsig price` drives it:
//   ML-DSA keygen = SigningKey::generate; sign (cold) = SigningKey::from_expanded(FIPS sk bytes) +
//   sign (hedged), what OQS_SIG_sign does plus the key check from_expanded runs; sign (cold, no
//   key check) = mldsa::sign(encoded sk) (raw API: no import check, as OQS_SIG_sign);
//   sign (prepared) = SigningKey::sign on a prepared key;
//   verify (cold) = VerifyingKey::from_public(encoded pk) + verify — what liboqs does per call;
//   verify (prepared) = verify on a VerifyingKey prepared once;
//   ML-KEM keygen = KemPrivateKey::generate; encaps (cold) = kem_encaps_once(suite, ek bytes) and
//   decaps (cold) = kem_decaps_once(suite, expanded dk bytes, ct) — from bytes with the FIPS 203
//   §7.2 / §7.3 checks, what OQS_KEM_encaps / OQS_KEM_decaps do; encaps (prepared) =
//   KemPublicKey::encaps, decaps (prepared) = KemPrivateKey::decaps (Â, t̂, H(ek) kept).
// Cold rows are compared with liboqs; prepared rows have no liboqs counterpart (liboqs keeps no
// prepared key) and get no ratio: prepared is never compared with cold.
// liboqs: OQS_SIG_keypair / OQS_SIG_sign / OQS_SIG_verify, OQS_KEM_keypair / encaps / decaps, into
// buffers allocated once (pqsig's calls allocate their results, so the ratios lean towards liboqs).
// liboqs is linked into this harness only, never into the library (bench/compare/CMakeLists.txt).
//
// Usage: pqsig_vs_liboqs [--rounds 3] [--budget-ms 150] [--message-size N] [--suites a,b,...]
//                        [--markdown FILE]
#include <oqs/oqs.h>

#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "compare_common.hpp"
#include "pqsig/mldsa.hpp"

using namespace pqsig;
using namespace pqsig::compare;

namespace {

// ---------------------------------------------------------------- signatures
struct SigPair {
  PqsigSignature p;  // pqsig side (keeps the messages both sides sign)
  // liboqs
  OQS_SIG* oqs = nullptr;
  bytes opk, osk;
  std::vector<bytes> osigs;
  bytes kpk, ksk, ksig;  // liboqs output buffers, allocated once (liboqs timed without allocations)
  std::size_t o_sign = 0, o_ver = 0;
  ~SigPair() {
    if (oqs) OQS_SIG_free(oqs);
  }
};

void prepare_sig(SigPair& P, const SuiteInfo& s, const char* oqs_name, std::size_t msg_size, Sides& sides) {
  P.p.prepare(s, msg_size, 256);
  const std::vector<bytes>& msgs = P.p.msgs;
  P.oqs = OQS_SIG_new(oqs_name);
  if (!P.oqs) die(std::string("liboqs has no ") + oqs_name);
  P.opk.resize(P.oqs->length_public_key);
  P.osk.resize(P.oqs->length_secret_key);
  P.kpk.resize(P.oqs->length_public_key);
  P.ksk.resize(P.oqs->length_secret_key);
  P.ksig.resize(P.oqs->length_signature);
  if (OQS_SIG_keypair(P.oqs, P.opk.data(), P.osk.data()) != OQS_SUCCESS) die("OQS_SIG_keypair");
  for (const auto& m : msgs) {
    bytes sg(P.oqs->length_signature);
    std::size_t n = sg.size();
    if (OQS_SIG_sign(P.oqs, sg.data(), &n, m.data(), m.size(), P.osk.data()) != OQS_SUCCESS) die("OQS_SIG_sign");
    sg.resize(n);
    P.osigs.push_back(std::move(sg));
  }
  P.p.add_operations(sides.pqsig);
  SigPair* S = &P;
  // sign (cold, no import check): FIPS 204 Algorithm 2 from the encoded sk through the raw API
  // (mldsa::sign: skDecode + ExpandA + sign, hedged) — exactly what OQS_SIG_sign does. The
  // "sign (cold)" row above also pays SigningKey::from_expanded's key check (t and tr recomputed
  // from s1, s2: the public key and H(pk)), which liboqs does not do.
  const auto lv = mldsa::level_from_name(s.id);
  if (!lv) die("not an ML-DSA suite: " + std::string(s.id));
  const mldsa::Level level = *lv;
  sides.pqsig.push_back({"sign (cold, no key check)", [S, level]() -> Status {
                           const auto& m = S->p.msgs[S->p.i_sign++ % S->p.msgs.size()];
                           bytes sig(mldsa::params(level).sig_bytes);
                           return mldsa::sign(level, S->p.expanded, m, sig);
                         }});
  sides.anchor.push_back({"keygen", [S]() -> Status {
                      if (OQS_SIG_keypair(S->oqs, S->kpk.data(), S->ksk.data()) != OQS_SUCCESS)
                        return Error{Errc::internal, "OQS_SIG_keypair"};
                      return {};
                    }});
  sides.anchor.push_back({"sign (cold)", [S]() -> Status {
                      const auto& m = S->p.msgs[S->o_sign++ % S->p.msgs.size()];
                      std::size_t n = S->ksig.size();
                      if (OQS_SIG_sign(S->oqs, S->ksig.data(), &n, m.data(), m.size(), S->osk.data()) != OQS_SUCCESS)
                        return Error{Errc::internal, "OQS_SIG_sign"};
                      return {};
                    }});
  sides.anchor.push_back({"sign (prepared)", nullptr});  // no prepared key there
  auto oqs_verify = [S]() -> Status {
    const std::size_t i = S->o_ver++ % S->p.msgs.size();
    if (OQS_SIG_verify(S->oqs, S->p.msgs[i].data(), S->p.msgs[i].size(), S->osigs[i].data(), S->osigs[i].size(),
                       S->opk.data()) != OQS_SUCCESS)
      return Error{Errc::verify_failed, "OQS_SIG_verify"};
    return {};
  };
  // liboqs has no prepared key: its call is the cold one; the prepared row has no counterpart
  // (no ratio: prepared is never compared with cold).
  sides.anchor.push_back({"verify (cold)", oqs_verify});
  sides.anchor.push_back({"verify (prepared)", nullptr});
  sides.anchor.push_back({"sign (cold, no key check)", [S]() -> Status {  // the same call as sign (cold)
                            const auto& m = S->p.msgs[S->o_sign++ % S->p.msgs.size()];
                            std::size_t n = S->ksig.size();
                            if (OQS_SIG_sign(S->oqs, S->ksig.data(), &n, m.data(), m.size(), S->osk.data()) !=
                                OQS_SUCCESS)
                              return Error{Errc::internal, "OQS_SIG_sign"};
                            return {};
                          }});
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

void prepare_kem(KemPair& P, const SuiteInfo& s, const char* oqs_name, Sides& sides) {
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
  sides.pqsig.push_back({"keygen", [S]() -> Status {
                      auto x = KemPrivateKey::generate(*S->suite);
                      if (!x) return x.error();
                      return {};
                    }});
  // Cold: from the encoded key on every call, as liboqs does (FIPS 203 §7.2 / §7.3 checks included
  // on both sides: liboqs' encaps checks the modulus, its decaps the hash).
  sides.pqsig.push_back({"encaps (cold)", [S]() -> Status {
                      auto x = kem_encaps_once(*S->suite, S->dk->public_key());
                      if (!x) return x.error();
                      return {};
                    }});
  sides.pqsig.push_back({"decaps (cold)", [S]() -> Status {
                      auto x = kem_decaps_once(*S->suite, S->dk->expanded_key(), S->pcts[S->i_dec++ % S->pcts.size()]);
                      if (!x) return x.error();
                      return {};
                    }});
  sides.pqsig.push_back({"encaps (prepared)", [S]() -> Status {
                      auto x = S->ek->encaps();
                      if (!x) return x.error();
                      return {};
                    }});
  sides.pqsig.push_back({"decaps (prepared)", [S]() -> Status {
                      auto x = S->dk->decaps(S->pcts[S->i_dec++ % S->pcts.size()]);
                      if (!x) return x.error();
                      return {};
                    }});
  sides.anchor.push_back({"keygen", [S]() -> Status {
                      if (OQS_KEM_keypair(S->oqs, S->kpk.data(), S->ksk.data()) != OQS_SUCCESS)
                        return Error{Errc::internal, "OQS_KEM_keypair"};
                      return {};
                    }});
  sides.anchor.push_back({"encaps (cold)", [S]() -> Status {
                      if (OQS_KEM_encaps(S->oqs, S->kct.data(), S->kss.data(), S->opk.data()) != OQS_SUCCESS)
                        return Error{Errc::internal, "OQS_KEM_encaps"};
                      return {};
                    }});
  sides.anchor.push_back({"decaps (cold)", [S]() -> Status {
                      if (OQS_KEM_decaps(S->oqs, S->kss.data(), S->octs[S->o_dec++ % S->octs.size()].data(),
                                         S->osk.data()) != OQS_SUCCESS)
                        return Error{Errc::internal, "OQS_KEM_decaps"};
                      return {};
                    }});
  sides.anchor.push_back({"encaps (prepared)", nullptr});  // liboqs has no prepared key
  sides.anchor.push_back({"decaps (prepared)", nullptr});
}

}  // namespace

int main(int argc, char** argv) {
  program_name() = "pqsig_vs_liboqs";
  Args defaults;
  defaults.list = "ml-dsa-44,ml-dsa-65,ml-dsa-87,ml-kem-512,ml-kem-768,ml-kem-1024";
  const Args args = parse_args(argc, argv, "--suites", defaults, "bench/compare/oqs_compare.cpp");
  const std::map<std::string, const char*> oqs_names = {
      {"ml-dsa-44", OQS_SIG_alg_ml_dsa_44}, {"ml-dsa-65", OQS_SIG_alg_ml_dsa_65},
      {"ml-dsa-87", OQS_SIG_alg_ml_dsa_87}, {"ml-kem-512", OQS_KEM_alg_ml_kem_512},
      {"ml-kem-768", OQS_KEM_alg_ml_kem_768}, {"ml-kem-1024", OQS_KEM_alg_ml_kem_1024}};

  OQS_init();
  std::vector<std::unique_ptr<SigPair>> sigs;
  std::vector<std::unique_ptr<KemPair>> kems;
  std::vector<Sides> sides;  // (pqsig, liboqs) per suite
  std::map<std::string, std::size_t> msg_sizes;
  std::stringstream ss(args.list);
  for (std::string id; std::getline(ss, id, ',');) {
    auto it = oqs_names.find(id);
    if (it == oqs_names.end()) die("no liboqs counterpart for suite " + id);
    auto s = find_suite(id);
    if (!s) die(s.error().what());
    Sides sd;
    sd.suite = id;
    if (id.rfind("ml-kem", 0) == 0) {
      kems.push_back(std::make_unique<KemPair>());
      prepare_kem(*kems.back(), **s, it->second, sd);
    } else {
      const std::size_t n = args.msg_size ? args.msg_size : signature_base_size(**s);
      msg_sizes[id] = n;
      sigs.push_back(std::make_unique<SigPair>());
      prepare_sig(*sigs.back(), **s, it->second, n, sd);
    }
    sides.push_back(std::move(sd));
  }

  const auto rows = run_interleaved(sides, args.rounds, measure_options(args.budget_ms));
  std::ostringstream out;
  out << ratio_table(rows, "liboqs", 2);
  out << "\nthread CPU time, median of the pooled samples of " << args.rounds
      << " interleaved rounds (price::measure_operation, budget " << args.budget_ms << " ms per operation and round)";
  if (!msg_sizes.empty()) {
    out << "; messages:";
    for (const auto& [id, n] : msg_sizes) out << " " << id << " " << n << " B";
  }
  out << ".\n";
  emit(out.str(), args.markdown);
  OQS_destroy();
  return 0;
}
