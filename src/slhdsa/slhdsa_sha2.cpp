// SLH-DSA-SHA2-* instantiations (FIPS 205 §11.2).
#include "slhdsa/hash_sha2.hpp"
#include "slhdsa/slhdsa_impl.hpp"

namespace pqsig::slhdsa::detail {
namespace {
template <class P>
constexpr Ops sha2() noexcept {
  return Slh<P, Sha2Hash<P>>::ops();
}
constexpr Ops kSha2Ops[6] = {sha2<P_sha2_128s>(), sha2<P_sha2_128f>(), sha2<P_sha2_192s>(),
                             sha2<P_sha2_192f>(), sha2<P_sha2_256s>(), sha2<P_sha2_256f>()};
}  // namespace

const Ops& sha2_ops(ParamSet p) noexcept {
  switch (p) {
    case ParamSet::sha2_128s: return kSha2Ops[0];
    case ParamSet::sha2_128f: return kSha2Ops[1];
    case ParamSet::sha2_192s: return kSha2Ops[2];
    case ParamSet::sha2_192f: return kSha2Ops[3];
    case ParamSet::sha2_256s: return kSha2Ops[4];
    default: return kSha2Ops[5];
  }
}
}  // namespace pqsig::slhdsa::detail
