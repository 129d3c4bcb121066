// bench/compare/stfl_compare.cpp — pqsig against liboqs for the stateful hash-based signatures
// (LMS/HSS: liboqs' copy of Cisco's hash-sigs; XMSS/XMSS^MT: its copy of xmss-reference) in one
// process, one run: the race of issue 23.
//
// Timing as in oqs_compare.cpp: price::measure_operation with the thread CPU clock, both sides on
// the same messages, interleaved rounds (alternating which side goes first), medians of the pooled
// samples. liboqs' stateful code is single-threaded, so every CPU-clock row runs pqsig on one
// thread too (the thread CPU clock sees only the calling thread). Key generation is measured a
// second time in wall-clock time with pqsig on every core ("keygen (wall, all cores)"), beside
// the same single-threaded liboqs call: that row is what a user waits, not a like-for-like cost.
//
// The rows (the same call sequence on both sides):
//   keygen (1 thread)  pqsig: HssPrivateKey::generate + HssSigner::create (the tree, for the
//                      public key) / xmss::PrivateKey::generate (root computed); liboqs:
//                      OQS_SIG_STFL_SECRET_KEY_new + OQS_SIG_STFL_keypair.
//   LMS sign (cold)    liboqs' OQS_SIG_STFL_sign loads its private key on every call
//                      (hss_load_private_key: the working key and its tree are rebuilt), then signs
//                      and hands the updated key to the store callback (here one that keeps
//                      nothing). pqsig: HssPrivateKey::parse + HssSigner::create (no tree cache) +
//                      sign_at — the same work from the same kind of input.
//   LMS sign (prepared) pqsig's HssSigner kept in memory (what `StatefulSigner` does between
//                      reservations); liboqs keeps no working key between calls: no ratio.
//   XMSS sign          liboqs' secret key object holds its BDS traversal state in memory; each
//                      OQS_SIG_STFL_sign signs, updates it and hands it to the store callback.
//                      pqsig: Signer::sign_at on a Signer kept in memory (the whole tree kept).
//   verify             hss_verify / xmss::verify from the encoded public key against
//                      OQS_SIG_STFL_verify (both from bytes on every call).
// State persistence (fsync) is not in any row: pqsig's reservation cost is `pqsig price`'s and
// liboqs leaves it to the callback.
//
// Usage: pqsig_vs_liboqs_stfl [--rounds 3] [--budget-ms 150] [--message-size 256]
//          [--sets LMS_SHA256_H10_W4,XMSS-SHA2_10_256,...]   (liboqs names)
//          [--keygen-only LMS_SHA256_H15_W4,...]   (sets timed for key generation only)
//          [--no-keygen XMSS-SHA2_16_256,...]     (sets timed for sign and verify only)
//          [--no-wall] [--markdown FILE]
#include <oqs/oqs.h>

#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "compare_common.hpp"
#include "pqsig/lms.hpp"
#include "pqsig/xmss.hpp"

using namespace pqsig;
using namespace pqsig::compare;

#if !defined(OQS_ALLOW_LMS_KEY_AND_SIG_GEN) || !defined(OQS_ALLOW_XMSS_KEY_AND_SIG_GEN)
int main() {
  std::fprintf(stderr,
               "pqsig_vs_liboqs_stfl: this liboqs was built without stateful key and signature generation "
               "(scripts/liboqs.sh enables it)\n");
  return 2;
}
#else

namespace {

OQS_STATUS stfl_store_nothing(std::uint8_t*, std::size_t, void*) { return OQS_SUCCESS; }
// liboqs' LMS ignores a store callback whose context is null: give it one.
int g_stfl_store_context = 0;

// liboqs "LMS_SHA256_H10_W4_H5_W8" → pqsig "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4,...".
std::string lms_spec_of(const std::string& oqs) {
  std::string out;
  std::size_t pos = std::string("LMS_SHA256").size();
  while (pos < oqs.size()) {
    const std::size_t h = oqs.find("_H", pos), w = oqs.find("_W", pos);
    if (h != pos || w == std::string::npos) die("cannot read the LMS name " + oqs);
    const std::size_t end = oqs.find('_', w + 2);
    const std::string hh = oqs.substr(h + 2, w - h - 2);
    const std::string ww = oqs.substr(w + 2, end == std::string::npos ? std::string::npos : end - w - 2);
    if (!out.empty()) out += ',';
    out += "LMS_SHA256_M32_H" + hh + "/LMOTS_SHA256_N32_W" + ww;
    pos = end == std::string::npos ? oqs.size() : end;
  }
  return out;
}

struct StflSet {
  std::string name;  // liboqs' name
  bool is_lms = false;
  std::vector<lms::Level> levels;
  const xmss::Params* xp = nullptr;
  std::vector<bytes> msgs;
  // pqsig
  SecretBytes lms_enc;  // the serialized HSS private key (the cold sign starts from it)
  std::unique_ptr<lms::HssSigner> lms_signer;
  std::unique_ptr<xmss::Signer> xmss_signer;
  bytes ppk;
  std::vector<bytes> psigs;
  std::uint64_t p_next = 0, p_max = 1;
  // liboqs
  OQS_SIG_STFL* oqs = nullptr;
  OQS_SIG_STFL_SECRET_KEY* osk = nullptr;
  uint8_t* osk_initial = nullptr;  // serialized fresh key: reloaded when the key runs out
  std::size_t osk_initial_len = 0;
  bytes opk, osig;
  std::vector<bytes> osigs;
  std::uint64_t o_used = 0;
  std::size_t i_ver = 0, o_ver = 0, i_msg = 0, o_msg = 0;

  ~StflSet() {
    if (osk) OQS_SIG_STFL_SECRET_KEY_free(osk);
    if (osk_initial) OQS_MEM_secure_free(osk_initial, osk_initial_len);
    if (oqs) OQS_SIG_STFL_free(oqs);
  }

  // pqsig's keygen on `threads` threads (0 = every core).
  Status pqsig_keygen(unsigned threads) const {
    if (is_lms) {
      auto k = lms::HssPrivateKey::generate(levels);
      if (!k) return k.error();
      auto s = lms::HssSigner::create(std::move(*k), threads);
      if (!s) return s.error();
      return {};
    }
    auto k = xmss::PrivateKey::generate(*xp, threads);
    if (!k) return k.error();
    return {};
  }

  Status oqs_keygen() const {
    OQS_SIG_STFL_SECRET_KEY* sk = OQS_SIG_STFL_SECRET_KEY_new(name.c_str());
    if (!sk) return Error{Errc::internal, "OQS_SIG_STFL_SECRET_KEY_new"};
    bytes pk(oqs->length_public_key);
    const OQS_STATUS rc = OQS_SIG_STFL_keypair(oqs, pk.data(), sk);
    OQS_SIG_STFL_SECRET_KEY_free(sk);
    return rc == OQS_SUCCESS ? Status{} : Status{Error{Errc::internal, "OQS_SIG_STFL_keypair"}};
  }

  // A fresh liboqs key object from the serialized initial key (its indices used up).
  void oqs_reload() {
    if (osk) OQS_SIG_STFL_SECRET_KEY_free(osk);
    osk = OQS_SIG_STFL_SECRET_KEY_new(name.c_str());
    if (!osk || OQS_SIG_STFL_SECRET_KEY_deserialize(osk, osk_initial, osk_initial_len, nullptr) != OQS_SUCCESS)
      die(name + ": cannot reload the liboqs key");
    OQS_SIG_STFL_SECRET_KEY_SET_store_cb(osk, &stfl_store_nothing, &g_stfl_store_context);
    o_used = 0;
  }

  Status oqs_sign() {
    if (o_used + 1 >= p_max) oqs_reload();  // a benchmark key: reused from the start, never published
    ++o_used;
    std::size_t len = osig.size();
    const bytes& m = msgs[o_msg++ % msgs.size()];
    if (OQS_SIG_STFL_sign(oqs, osig.data(), &len, m.data(), m.size(), osk) != OQS_SUCCESS)
      return Error{Errc::internal, "OQS_SIG_STFL_sign"};
    return {};
  }

  void prepare(const std::string& oqs_name, std::size_t msg_size, bool keygen_only) {
    name = oqs_name;
    is_lms = name.rfind("LMS_", 0) == 0;
    if (is_lms) {
      auto lv = lms::parse_levels(lms_spec_of(name));
      if (!lv) die(name + ": " + lv.error().what());
      levels = *lv;
    } else {
      xp = xmss::find_params(name);
      if (!xp) die("pqsig has no " + name);
    }
    oqs = OQS_SIG_STFL_new(name.c_str());
    if (!oqs) die("liboqs has no " + name + " (scripts/liboqs.sh builds the sets it needs)");
    if (keygen_only) return;
    msgs = make_messages(msg_size, 64);
    // pqsig key and signer (kept in memory), and signatures for the verify rows.
    if (is_lms) {
      auto k = lms::HssPrivateKey::generate(levels);
      if (!k) die(k.error().what());
      lms_enc = k->serialize();
      p_max = k->max_signatures();
      auto s = lms::HssSigner::create(std::move(*k), 1);
      if (!s) die(s.error().what());
      lms_signer = std::make_unique<lms::HssSigner>(std::move(*s));
      ppk = lms_signer->public_key();
    } else {
      auto k = xmss::PrivateKey::generate(*xp);
      if (!k) die(k.error().what());
      p_max = xp->max_signatures();
      auto s = xmss::Signer::create(std::move(*k), 1);
      if (!s) die(s.error().what());
      xmss_signer = std::make_unique<xmss::Signer>(std::move(*s));
      ppk = xmss_signer->public_key();
    }
    for (std::size_t i = 0; i < 16; ++i) {
      auto sg = pqsig_sign_prepared();
      if (!sg) die(name + ": " + sg.error().what());
      psigs.push_back(std::move(*sg));
    }
    // liboqs key, its signatures for its verify row.
    osk = OQS_SIG_STFL_SECRET_KEY_new(name.c_str());
    opk.resize(oqs->length_public_key);
    osig.resize(oqs->length_signature);
    if (!osk || OQS_SIG_STFL_keypair(oqs, opk.data(), osk) != OQS_SUCCESS) die(name + ": OQS_SIG_STFL_keypair");
    if (OQS_SIG_STFL_SECRET_KEY_serialize(&osk_initial, &osk_initial_len, osk) != OQS_SUCCESS)
      die(name + ": OQS_SIG_STFL_SECRET_KEY_serialize");
    OQS_SIG_STFL_SECRET_KEY_SET_store_cb(osk, &stfl_store_nothing, &g_stfl_store_context);
    for (std::size_t i = 0; i < 16; ++i) {
      const bytes& m = msgs[i];
      std::size_t len = osig.size();
      if (OQS_SIG_STFL_sign(oqs, osig.data(), &len, m.data(), m.size(), osk) != OQS_SUCCESS)
        die(name + ": OQS_SIG_STFL_sign");
      ++o_used;
      osigs.emplace_back(osig.begin(), osig.begin() + static_cast<std::ptrdiff_t>(len));
      // Cross-check while preparing: each side verifies the other's signature.
      if (!pqsig_verify(opk, m, osigs.back()).ok()) die(name + ": pqsig rejects liboqs' signature");
      if (OQS_SIG_STFL_verify(oqs, msgs[i].data(), msgs[i].size(), psigs[i].data(), psigs[i].size(), ppk.data()) !=
          OQS_SUCCESS)
        die(name + ": liboqs rejects pqsig's signature");
    }
  }

  // pqsig signs msgs[i] (i = the index modulo the message count) at its next index.
  Result<bytes> pqsig_sign_prepared() {
    const std::uint64_t idx = p_next++ % p_max;  // a benchmark key: indices reused, never published
    const bytes& m = msgs[i_msg++ % msgs.size()];
    return is_lms ? lms_signer->sign_at(idx, m) : xmss_signer->sign_at(idx, m);
  }

  Status pqsig_sign_cold_lms() {
    auto k = lms::HssPrivateKey::parse(lms_enc.span());
    if (!k) return k.error();
    auto s = lms::HssSigner::create(std::move(*k), 1);
    if (!s) return s.error();
    const std::uint64_t idx = p_next++ % p_max;
    auto sg = s->sign_at(idx, msgs[i_msg++ % msgs.size()]);
    if (!sg) return sg.error();
    return {};
  }

  Status pqsig_verify(byte_span pk, byte_span m, byte_span sig) const {
    return is_lms ? lms::hss_verify(pk, m, sig) : xmss::verify(*xp, pk, m, sig);
  }
};

enum class Rows { all, keygen_only, no_keygen };

void add_rows(StflSet& S, Rows which, Sides& sd) {
  StflSet* P = &S;
  if (which != Rows::no_keygen) {
    sd.pqsig.push_back({"keygen (1 thread)", [P]() { return P->pqsig_keygen(1); }});
    sd.anchor.push_back({"keygen (1 thread)", [P]() { return P->oqs_keygen(); }});
  }
  if (which == Rows::keygen_only) return;
  if (S.is_lms) {
    sd.pqsig.push_back({"sign (cold)", [P]() { return P->pqsig_sign_cold_lms(); }});
    sd.anchor.push_back({"sign (cold)", [P]() { return P->oqs_sign(); }});
    sd.pqsig.push_back({"sign (prepared)", [P]() -> Status {
                          auto s = P->pqsig_sign_prepared();
                          if (!s) return s.error();
                          return {};
                        }});
    sd.anchor.push_back({"sign (prepared)", nullptr});  // liboqs keeps no working key between calls
  } else {
    sd.pqsig.push_back({"sign (key in memory)", [P]() -> Status {
                          auto s = P->pqsig_sign_prepared();
                          if (!s) return s.error();
                          return {};
                        }});
    sd.anchor.push_back({"sign (key in memory)", [P]() { return P->oqs_sign(); }});
  }
  sd.pqsig.push_back({"verify", [P]() -> Status {
                        const std::size_t i = P->i_ver++ % P->psigs.size();
                        return P->pqsig_verify(P->ppk, P->msgs[i], P->psigs[i]);
                      }});
  sd.anchor.push_back({"verify", [P]() -> Status {
                         const std::size_t i = P->o_ver++ % P->osigs.size();
                         if (OQS_SIG_STFL_verify(P->oqs, P->msgs[i].data(), P->msgs[i].size(), P->osigs[i].data(),
                                                 P->osigs[i].size(), P->opk.data()) != OQS_SUCCESS)
                           return Error{Errc::verify_failed, "OQS_SIG_STFL_verify"};
                         return {};
                       }});
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');)
    if (!x.empty()) out.push_back(x);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  program_name() = "pqsig_vs_liboqs_stfl";
  // Our own options first (the shared parser knows only one list option).
  std::string keygen_only_list, no_keygen_list;
  bool wall = true;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string o = argv[i];
    if (o == "--keygen-only" && i + 1 < argc) keygen_only_list = argv[++i];
    else if (o == "--no-keygen" && i + 1 < argc) no_keygen_list = argv[++i];
    else if (o == "--no-wall") wall = false;
    else rest.push_back(argv[i]);
  }
  Args defaults;
  defaults.list = "LMS_SHA256_H10_W4,LMS_SHA256_H10_W8,XMSS-SHA2_10_256";
  defaults.msg_size = 256;
  const Args args = parse_args(static_cast<int>(rest.size()), rest.data(), "--sets", defaults,
                               "bench/compare/stfl_compare.cpp");
  OQS_init();
  std::vector<std::unique_ptr<StflSet>> sets;
  std::vector<Sides> cpu_sides, wall_sides;
  auto add = [&](const std::string& name, Rows which) {
    sets.push_back(std::make_unique<StflSet>());
    StflSet& S = *sets.back();
    const bool keygen_only = which == Rows::keygen_only;
    std::fprintf(stderr, "preparing %s%s\n", name.c_str(), keygen_only ? " (keygen only)" : "");
    S.prepare(name, args.msg_size, keygen_only);
    Sides sd;
    sd.suite = name;
    add_rows(S, which, sd);
    cpu_sides.push_back(std::move(sd));
    if (wall && which != Rows::no_keygen) {
      Sides w;
      w.suite = name;
      StflSet* P = &S;
      w.pqsig.push_back({"keygen (wall, all cores)", [P]() { return P->pqsig_keygen(0); }});
      w.anchor.push_back({"keygen (wall, all cores)", [P]() { return P->oqs_keygen(); }});
      wall_sides.push_back(std::move(w));
    }
  };
  for (const auto& n : split_list(args.list)) add(n, Rows::all);
  for (const auto& n : split_list(no_keygen_list)) add(n, Rows::no_keygen);
  for (const auto& n : split_list(keygen_only_list)) add(n, Rows::keygen_only);

  price::MeasureOptions mo = measure_options(args.budget_ms);
  mo.min_samples_slow = 3;  // keygen of a tall tree takes seconds
  auto rows = run_interleaved(cpu_sides, args.rounds, mo);
  std::vector<Row> wrows;
  if (wall) {
    price::MeasureOptions mw = mo;
    mw.thread_cpu_time = false;
    wrows = run_interleaved(wall_sides, args.rounds, mw);
  }
  std::ostringstream out;
  out << ratio_table(rows, "liboqs", 1);
  out << "\nthread CPU time, pqsig on one thread; median of the pooled samples of " << args.rounds
      << " interleaved rounds (price::measure_operation, budget " << args.budget_ms
      << " ms per operation and round); messages " << args.msg_size << " B.\n";
  if (wall) {
    out << "\n" << ratio_table(wrows, "liboqs", 1);
    out << "\nwall-clock time: pqsig on every core (" << std::thread::hardware_concurrency()
        << " here), liboqs single-threaded (its stateful key generation has no threads); medians of "
        << args.rounds << " interleaved rounds.\n";
  }
  emit(out.str(), args.markdown);
  sets.clear();
  OQS_destroy();
  return 0;
}
#endif
