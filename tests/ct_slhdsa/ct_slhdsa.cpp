// Constant-time check for SLH-DSA keygen and signing (run under valgrind memcheck, see
// CMakeLists.txt): SK.seed, SK.prf, the secret key and opt_rand are marked undefined. What FIPS 205
// makes public (PK.seed, PK.root, the randomizer R and everything derived from the message digest:
// the tree and leaf indices, the FORS indices) may be branched on once it is part of the signature.
// One fast parameter set per hash family, plus SHA2-192f for the SHA-512 path of categories 3/5
// (the 4-way SHA-512 kernel: valgrind runs the AVX2 one), keeps the test to seconds under valgrind.
#include <cstdio>
#include <cstring>
#include <string>

#include "common/ct.hpp"
#include "pqsig/slhdsa.hpp"

using namespace pqsig;
using namespace pqsig::slhdsa;

int main() {
  int failures = 0;
  for (ParamSet p : {ParamSet::sha2_128f, ParamSet::shake_128f, ParamSet::sha2_192f}) {
    const ParamInfo& pi = param_info(p);
    std::uint8_t seeds[3 * 32], opt[32];
    for (std::size_t i = 0; i < sizeof seeds; ++i) seeds[i] = static_cast<std::uint8_t>(i * 11 + 5);
    for (std::size_t i = 0; i < sizeof opt; ++i) opt[i] = static_cast<std::uint8_t>(i * 3 + 1);
    CT_SECRET(seeds, 2 * pi.n);  // SK.seed, SK.prf (PK.seed is public)
    auto kp = slh_keygen_internal(p, byte_span(seeds, pi.n), byte_span(seeds + pi.n, pi.n), byte_span(seeds + 2 * pi.n, pi.n));
    if (!kp) {
      ++failures;
      continue;
    }
    CT_DECLASSIFY(kp->pk.data(), kp->pk.size());  // the public key is public
    CT_DECLASSIFY(kp->sk.data() + 2 * pi.n, 2 * pi.n);  // PK.seed || PK.root inside sk: public
    CT_SECRET(kp->sk.data(), 2 * pi.n);  // SK.seed || SK.prf (the rest of sk is PK.seed || PK.root)
    CT_SECRET(opt, pi.n);
    const std::uint8_t msg[5] = {'h', 'e', 'l', 'l', 'o'};
    const std::uint8_t ctx[2] = {7, 8};
    auto s1 = slh_sign(p, byte_span(msg, 5), byte_span(ctx, 2), kp->sk.span(), OptRand::given(byte_span(opt, pi.n)));
    auto s2 = slh_sign(p, byte_span(msg, 5), {}, kp->sk.span(), OptRand::deterministic());
    auto s3 = hash_slh_sign(p, byte_span(msg, 5), {}, hash::PreHash::sha2_256, kp->sk.span(), OptRand::given(byte_span(opt, pi.n)));
    for (auto* s : {&s1, &s2, &s3}) {
      if (!*s) {
        ++failures;
        continue;
      }
      CT_DECLASSIFY((*s)->data(), (*s)->size());  // signatures are public
    }
    if (s1 && !slh_verify(p, byte_span(msg, 5), *s1, byte_span(ctx, 2), kp->pk)) ++failures;
    CT_DECLASSIFY(kp->sk.data(), kp->sk.size());
    std::printf("%s: keygen + sign ran with secrets marked undefined\n", std::string(pi.name).c_str());
  }
  if (failures) std::printf("%d operations failed\n", failures);
  return failures == 0 ? 0 : 2;
}
