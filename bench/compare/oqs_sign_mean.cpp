// bench/compare/oqs_sign_mean.cpp — mean cost of one cold ML-DSA signature, pqsig against liboqs,
// one process. Signing is a rejection loop (geometric number of attempts): a signing budget pays
// the mean, and the median of pooled samples jumps between attempt counts (issue 22). Here each
// operation runs in blocks of --calls calls, --blocks blocks, the operations interleaved block by
// block with a rotating order; thread CPU time; mean = total time / total calls.
//   liboqs:               OQS_SIG_sign(sk bytes) into a buffer allocated once (no key check)
//   pqsig, no key check:  mldsa::sign(level, sk bytes, msg, sig) — skDecode + ExpandA + sign (hedged)
//   pqsig, with check:    mldsa::PreparedSigningKey::create_checked(sk bytes) + sign (hedged): the
//                         import check (t, t1, tr = H(pk) recomputed) of SigningKey::from_expanded
// Usage: pqsig_sign_mean [--blocks 100] [--calls 50] [--message-size 376] [--levels 44,65,87]
#include <oqs/oqs.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "pqsig/mldsa.hpp"

namespace {
double sign_mean_thread_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}
[[noreturn]] void sign_mean_die(const char* what) {
  std::fprintf(stderr, "pqsig_sign_mean: %s failed\n", what);
  std::exit(1);
}
}  // namespace

int main(int argc, char** argv) {
  int blocks = 100, calls = 50;
  std::size_t msg_size = 376;
  std::string levels = "44,65,87";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--blocks") blocks = std::atoi(argv[i + 1]);
    else if (a == "--calls") calls = std::atoi(argv[i + 1]);
    else if (a == "--message-size") msg_size = static_cast<std::size_t>(std::atol(argv[i + 1]));
    else if (a == "--levels") levels = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: pqsig_sign_mean [--blocks N] [--calls N] [--message-size N] [--levels 44,65,87]\n");
      return 2;
    }
  }
  if (blocks < 1 || calls < 1) return 2;
  std::printf("| suite | liboqs sign µs (mean) | pqsig no key check µs (mean) | pqsig with key check µs (mean) | no check / liboqs | with check / liboqs |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: |\n");
  for (const int lvn : {44, 65, 87}) {
    if (levels.find(std::to_string(lvn)) == std::string::npos) continue;
    const auto lv = static_cast<pqsig::mldsa::Level>(lvn);
    const char* oqs_name = lvn == 44 ? OQS_SIG_alg_ml_dsa_44 : lvn == 65 ? OQS_SIG_alg_ml_dsa_65 : OQS_SIG_alg_ml_dsa_87;
    OQS_SIG* oqs = OQS_SIG_new(oqs_name);
    if (!oqs) sign_mean_die("OQS_SIG_new");
    std::vector<std::uint8_t> pk(oqs->length_public_key), sk(oqs->length_secret_key), sig(oqs->length_signature),
        pk2(oqs->length_public_key), msg(msg_size);
    for (std::size_t i = 0; i < msg.size(); ++i) msg[i] = static_cast<std::uint8_t>(i * 31 + 7);
    // One key for both sides: liboqs' keypair, FIPS 204 encodings (pqsig signs from the same sk bytes).
    if (OQS_SIG_keypair(oqs, pk.data(), sk.data()) != OQS_SUCCESS) sign_mean_die("OQS_SIG_keypair");
    double total[3] = {0, 0, 0};
    auto run = [&](int op) {
      const double t0 = sign_mean_thread_ns();
      for (int c = 0; c < calls; ++c) {
        if (op == 0) {
          std::size_t n = sig.size();
          if (OQS_SIG_sign(oqs, sig.data(), &n, msg.data(), msg.size(), sk.data()) != OQS_SUCCESS) sign_mean_die("OQS_SIG_sign");
        } else if (op == 1) {
          if (!pqsig::mldsa::sign(lv, sk, msg, sig)) sign_mean_die("mldsa::sign");
        } else {
          auto k = pqsig::mldsa::PreparedSigningKey::create_checked(lv, sk, pk2);
          if (!k || !k->sign(msg, sig)) sign_mean_die("create_checked + sign");
        }
      }
      total[op] += sign_mean_thread_ns() - t0;
    };
    for (int op = 0; op < 3; ++op) run(op);  // warm-up, not counted
    total[0] = total[1] = total[2] = 0;
    for (int b = 0; b < blocks; ++b)
      for (int k = 0; k < 3; ++k) run((b + k) % 3);
    if (std::memcmp(pk.data(), pk2.data(), pk.size()) != 0) sign_mean_die("recomputed pk");
    const double n = static_cast<double>(blocks) * calls * 1000.0;
    const double o = total[0] / n, p1 = total[1] / n, p2 = total[2] / n;
    std::printf("| ml-dsa-%d | %.2f | %.2f | %.2f | %.3f | %.3f |\n", lvn, o, p1, p2, p1 / o, p2 / o);
    std::fflush(stdout);
    OQS_SIG_free(oqs);
  }
  std::printf("\nthread CPU time, mean over %d blocks of %d calls per operation, operations interleaved block by block "
              "(rotating order); message %zu B; hedged signing on both sides.\n", blocks, calls, msg_size);
  return 0;
}
