// pqsig — SLH-DSA (FIPS 205, the stateless hash-based signature standard): all twelve
// parameter sets, every interface (internal, pure with context, HashSLH-DSA).
//
// Keys: public key PK = PK.seed || PK.root (2n bytes); secret key
// SK = SK.seed || SK.prf || PK.seed || PK.root (4n bytes), FIPS 205 §9.1.
// Errors are typed values: a wrong-length key, signature or randomness is Errc::invalid_length,
// a context over 255 bytes Errc::invalid_context, a bad signature Errc::verify_failed.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "pqsig/common.hpp"
#include "pqsig/hash.hpp"

namespace pqsig::slhdsa {

/// FIPS 205 Table 2, in that order.
enum class ParamSet : int {
  sha2_128s, shake_128s, sha2_128f, shake_128f,
  sha2_192s, shake_192s, sha2_192f, shake_192f,
  sha2_256s, shake_256s, sha2_256f, shake_256f,
};

struct ParamInfo {
  ParamSet id;
  std::string_view name;       ///< "SLH-DSA-SHA2-128s" (FIPS 205 / ACVP / JOSE spelling)
  std::string_view suite_id;   ///< "slh-dsa-sha2-128s" (pqsig registry id)
  bool shake;                  ///< SHAKE family (§11.1) or SHA2 family (§11.2)
  std::size_t n, h, d, hp, a, k, lg_w, m;
  int security_category;
  std::size_t pk_bytes, sk_bytes, sig_bytes;
};

/// All twelve sets, FIPS 205 Table 2 order.
std::span<const ParamInfo> all_param_sets() noexcept;
const ParamInfo& param_info(ParamSet p) noexcept;
/// By name: "SLH-DSA-SHA2-128s" or "slh-dsa-sha2-128s" (case-insensitive). Unknown → unknown_suite.
Result<ParamSet> find_param_set(std::string_view name);

struct KeyPair {
  bytes pk;         ///< PK.seed || PK.root
  SecretBytes sk;   ///< SK.seed || SK.prf || PK.seed || PK.root
};

/// The choice of opt_rand (FIPS 205 §9.2 / Algorithm 19's addrnd): fresh OS randomness
/// (the default, "hedged"), deterministic (opt_rand = PK.seed), or caller-supplied n bytes
/// (tests / KATs).
struct OptRand {
  enum class Kind { randomized, deterministic, given };
  Kind kind = Kind::randomized;
  byte_span value{};
  static OptRand randomized() noexcept { return {}; }
  static OptRand deterministic() noexcept { return {Kind::deterministic, {}}; }
  static OptRand given(byte_span v) noexcept { return {Kind::given, v}; }
};

// ---- key generation
/// FIPS 205, Algorithm 18: slh_keygen_internal(SK.seed, SK.prf, PK.seed), each n bytes.
Result<KeyPair> slh_keygen_internal(ParamSet p, byte_span sk_seed, byte_span sk_prf, byte_span pk_seed);
/// FIPS 205, Algorithm 21: slh_keygen with OS randomness.
Result<KeyPair> slh_keygen(ParamSet p);

// ---- internal interface (M is M' itself)
/// FIPS 205, Algorithm 19: slh_sign_internal(M, SK, addrnd).
Result<bytes> slh_sign_internal(ParamSet p, byte_span m, byte_span sk, OptRand r = {});
/// FIPS 205, Algorithm 20: slh_verify_internal(M, SIG, PK).
Status slh_verify_internal(ParamSet p, byte_span m, byte_span sig, byte_span pk);

// ---- external interface
/// FIPS 205, Algorithm 22: slh_sign(M, ctx, SK) — pure, context 0..255 bytes.
Result<bytes> slh_sign(ParamSet p, byte_span m, byte_span ctx, byte_span sk, OptRand r = {});
/// FIPS 205, Algorithm 24: slh_verify(M, SIG, ctx, PK).
Status slh_verify(ParamSet p, byte_span m, byte_span sig, byte_span ctx, byte_span pk);
/// FIPS 205, Algorithm 23: hash_slh_sign(M, ctx, PH, SK) — HashSLH-DSA (§10.2).
Result<bytes> hash_slh_sign(ParamSet p, byte_span m, byte_span ctx, hash::PreHash ph, byte_span sk,
                            OptRand r = {});
/// FIPS 205, Algorithm 25: hash_slh_verify(M, SIG, ctx, PH, PK).
Status hash_slh_verify(ParamSet p, byte_span m, byte_span sig, byte_span ctx, hash::PreHash ph,
                       byte_span pk);

}  // namespace pqsig::slhdsa
