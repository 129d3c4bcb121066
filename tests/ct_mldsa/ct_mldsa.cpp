// Constant-time check for ML-DSA keygen and sign (run under valgrind memcheck, see CMakeLists.txt).
// The seed ξ, the signing randomness rnd and the expanded secret key are marked undefined; the
// implementation declassifies only what is public (ρ, t1, c̃, the rejection decisions, the
// accepted signature). Any other secret-dependent branch or index makes valgrind fail the test.
#include <cstdio>
#include <cstring>

#include "common/cpu.hpp"
#include "common/ct.hpp"
#include "pqsig/mldsa.hpp"

using namespace pqsig;
using namespace pqsig::mldsa;

int main() {
  int failures = 0;
  const Level levels[] = {Level::ml_dsa_44, Level::ml_dsa_65, Level::ml_dsa_87};
  static std::uint8_t pk[kMaxPkBytes], sk[kMaxSkBytes], sig[kMaxSigBytes];
  // Twice: with the vector backends the CPU offers (AVX2 under valgrind, which hides AVX-512),
  // then with the scalar reference forced.
  for (bool portable : {false, true}) {
  cpu::force_portable(portable);
  std::printf("%s paths\n", portable ? "scalar" : (cpu::has_avx2() ? "AVX2" : "scalar (no AVX2)"));
  for (Level lv : levels) {
    const auto& p = params(lv);
    for (int round = 0; round < 2; ++round) {
      std::uint8_t seed[32], rnd[32], msg[33];
      for (int i = 0; i < 32; ++i) {
        seed[i] = static_cast<std::uint8_t>(i * 7 + round + p.level);
        rnd[i] = static_cast<std::uint8_t>(i * 13 + round);
      }
      std::memset(msg, 0x61 + round, sizeof msg);
      // keygen with a secret seed
      CT_SECRET(seed, sizeof seed);
      if (!keygen_internal(lv, byte_span(seed, 32), mut_byte_span(pk, p.pk_bytes), mut_byte_span(sk, p.sk_bytes))) ++failures;
      // sign with a secret key and secret randomness (external, internal and external-μ paths)
      CT_SECRET(sk, p.sk_bytes);
      CT_SECRET(rnd, sizeof rnd);
      Options o;
      o.rnd = rnd;
      const std::uint8_t ctx[3] = {1, 2, 3};
      o.ctx = byte_span(ctx, 3);
      if (!sign(lv, byte_span(sk, p.sk_bytes), byte_span(msg, sizeof msg), mut_byte_span(sig, p.sig_bytes), o)) ++failures;
      Options det;
      det.deterministic = true;
      det.prehash = hash::PreHash::sha3_256;
      if (!sign(lv, byte_span(sk, p.sk_bytes), byte_span(msg, sizeof msg), mut_byte_span(sig, p.sig_bytes), det)) ++failures;
      if (!sign_internal(lv, byte_span(sk, p.sk_bytes), byte_span(msg, 5), byte_span(rnd, 32), mut_byte_span(sig, p.sig_bytes)))
        ++failures;
      // keygen keeping the prepared key (one ExpandA), then signing with it
      {
        static std::uint8_t pk3[kMaxPkBytes], sk3[kMaxSkBytes], sig3[kMaxSigBytes];
        auto prep = PreparedSigningKey::keygen_internal(lv, byte_span(seed, 32), mut_byte_span(pk3, p.pk_bytes),
                                                        mut_byte_span(sk3, p.sk_bytes));
        if (!prep || !prep.value().sign(byte_span(msg, sizeof msg), mut_byte_span(sig3, p.sig_bytes), o)) ++failures;
        CT_DECLASSIFY(sk3, p.sk_bytes);
      }
      // expanded-key import check with a secret key
      static std::uint8_t pk2[kMaxPkBytes];
      if (!sk_check(lv, byte_span(sk, p.sk_bytes), mut_byte_span(pk2, p.pk_bytes))) ++failures;
      // The signature is public: verify it (public inputs only).
      CT_DECLASSIFY(sig, p.sig_bytes);
      CT_DECLASSIFY(pk, p.pk_bytes);
      if (!verify_internal(lv, byte_span(pk, p.pk_bytes), byte_span(msg, 5), byte_span(sig, p.sig_bytes))) ++failures;
      CT_DECLASSIFY(sk, p.sk_bytes);
      CT_DECLASSIFY(seed, sizeof seed);
      CT_DECLASSIFY(rnd, sizeof rnd);
    }
    std::printf("%s: keygen + sign ran with secrets marked undefined\n", std::string(level_name(lv)).c_str());
  }
  }
  cpu::force_portable(false);
  if (failures) std::printf("%d operations failed\n", failures);
  return failures == 0 ? 0 : 2;
}
