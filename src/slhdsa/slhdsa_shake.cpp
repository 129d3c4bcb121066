// SLH-DSA-SHAKE-* instantiations (FIPS 205 §11.1).
#include "slhdsa/hash_shake.hpp"
#include "slhdsa/slhdsa_impl.hpp"

namespace pqsig::slhdsa::detail {
namespace {
template <class P>
constexpr Ops shake() noexcept {
  return Slh<P, ShakeHash<P>>::ops();
}
constexpr Ops kShakeOps[6] = {shake<P_shake_128s>(), shake<P_shake_128f>(), shake<P_shake_192s>(),
                             shake<P_shake_192f>(), shake<P_shake_256s>(), shake<P_shake_256f>()};
}  // namespace

const Ops& shake_ops(ParamSet p) noexcept {
  switch (p) {
    case ParamSet::shake_128s: return kShakeOps[0];
    case ParamSet::shake_128f: return kShakeOps[1];
    case ParamSet::shake_192s: return kShakeOps[2];
    case ParamSet::shake_192f: return kShakeOps[3];
    case ParamSet::shake_256s: return kShakeOps[4];
    default: return kShakeOps[5];
  }
}
}  // namespace pqsig::slhdsa::detail
