// SLH-DSA (FIPS 205) public interface: parameter-set table, length / context checks,
// opt_rand selection, M' construction (§10.2), dispatch to the instantiated parameter sets.
#include "pqsig/slhdsa.hpp"

#include <array>

#include "slhdsa/params.hpp"

namespace pqsig::slhdsa {

namespace {
using namespace detail;

template <class P>
constexpr ParamInfo info_of(std::string_view name, std::string_view id, int cat) {
  return ParamInfo{P::id, name, id, P::family == Family::shake, P::n, P::h, P::d, P::hp, P::a, P::k,
                   P::lg_w, P::m, cat, P::pk_bytes, P::sk_bytes, P::sig_bytes};
}

constexpr std::array<ParamInfo, 12> kParams = {
    info_of<P_sha2_128s>("SLH-DSA-SHA2-128s", "slh-dsa-sha2-128s", 1),
    info_of<P_shake_128s>("SLH-DSA-SHAKE-128s", "slh-dsa-shake-128s", 1),
    info_of<P_sha2_128f>("SLH-DSA-SHA2-128f", "slh-dsa-sha2-128f", 1),
    info_of<P_shake_128f>("SLH-DSA-SHAKE-128f", "slh-dsa-shake-128f", 1),
    info_of<P_sha2_192s>("SLH-DSA-SHA2-192s", "slh-dsa-sha2-192s", 3),
    info_of<P_shake_192s>("SLH-DSA-SHAKE-192s", "slh-dsa-shake-192s", 3),
    info_of<P_sha2_192f>("SLH-DSA-SHA2-192f", "slh-dsa-sha2-192f", 3),
    info_of<P_shake_192f>("SLH-DSA-SHAKE-192f", "slh-dsa-shake-192f", 3),
    info_of<P_sha2_256s>("SLH-DSA-SHA2-256s", "slh-dsa-sha2-256s", 5),
    info_of<P_shake_256s>("SLH-DSA-SHAKE-256s", "slh-dsa-shake-256s", 5),
    info_of<P_sha2_256f>("SLH-DSA-SHA2-256f", "slh-dsa-sha2-256f", 5),
    info_of<P_shake_256f>("SLH-DSA-SHAKE-256f", "slh-dsa-shake-256f", 5),
};
static_assert([] {
  for (std::size_t i = 0; i < kParams.size(); ++i)
    if (static_cast<std::size_t>(kParams[i].id) != i) return false;
  return true;
}(), "kParams is indexed by ParamSet");

const Ops& ops(ParamSet p) noexcept { return param_info(p).shake ? shake_ops(p) : sha2_ops(p); }

// Dispatch guard: an out-of-range enum value is a typed error, never a fall-through to a default set.
Status check_param_set(ParamSet p) {
  if (static_cast<std::size_t>(p) >= kParams.size())
    return Error{Errc::unknown_suite, "unknown SLH-DSA parameter set " + std::to_string(static_cast<int>(p))};
  return {};
}

bool iequal(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

Error len_error(const ParamInfo& pi, const char* what, std::size_t want, std::size_t got) {
  return Error{Errc::invalid_length, std::string(pi.name) + ": " + what + " must be " + std::to_string(want) +
                                         " bytes, got " + std::to_string(got)};
}

// opt_rand (FIPS 205 Algorithm 22 lines 4–5 / Algorithm 19's addrnd) into `out` (n bytes).
Status resolve_opt_rand(const ParamInfo& pi, const OptRand& r, byte_span sk, std::uint8_t* out) {
  switch (r.kind) {
    case OptRand::Kind::deterministic:
      std::memcpy(out, sk.data() + 2 * pi.n, pi.n);  // opt_rand = PK.seed
      return {};
    case OptRand::Kind::given:
      if (r.value.size() != pi.n) return len_error(pi, "addrnd (opt_rand)", pi.n, r.value.size());
      std::memcpy(out, r.value.data(), pi.n);
      return {};
    case OptRand::Kind::randomized:
    default:
      if (!random_bytes({out, pi.n})) return Error{Errc::rng_failure, "SLH-DSA: OS random source failed"};
      return {};
  }
}

Result<bytes> sign_msg(ParamSet p, const Msg& m, byte_span sk, const OptRand& r) {
  if (Status s = check_param_set(p); !s) return s.error();
  const ParamInfo& pi = param_info(p);
  if (sk.size() != pi.sk_bytes) return len_error(pi, "secret key", pi.sk_bytes, sk.size());
  std::uint8_t addrnd[32];
  if (Status s = resolve_opt_rand(pi, r, sk, addrnd); !s) return s.error();
  bytes sig(pi.sig_bytes);
  ops(p).sign_internal(m, sk.data(), addrnd, sig.data());
  secure_zero(addrnd, sizeof addrnd);
  return sig;
}

Status verify_msg(ParamSet p, const Msg& m, byte_span sig, byte_span pk) {
  if (Status s = check_param_set(p); !s) return s;
  const ParamInfo& pi = param_info(p);
  if (pk.size() != pi.pk_bytes) return len_error(pi, "public key", pi.pk_bytes, pk.size());
  // FIPS 205 Algorithm 20 line 1: a signature of the wrong length is rejected (never read past).
  if (sig.size() != pi.sig_bytes) return len_error(pi, "signature", pi.sig_bytes, sig.size());
  if (!ops(p).verify_internal(m, sig.data(), pk.data()))
    return Error{Errc::verify_failed, std::string(pi.name) + ": signature does not verify"};
  return {};
}

Status check_ctx(byte_span ctx) {
  if (ctx.size() > 255)
    return Error{Errc::invalid_context,
                 "SLH-DSA: context string is " + std::to_string(ctx.size()) + " bytes (at most 255)"};
  return {};
}

// FIPS 205 Algorithm 23 lines 4–22 / Algorithm 25: PH(M) and its OID.
struct PreHashed {
  std::uint8_t oid[11];
  std::uint8_t digest[64];
  std::size_t len;
};
PreHashed prehash(hash::PreHash ph, byte_span m) {
  const hash::PreHashInfo& info = hash::prehash_info(ph);
  PreHashed out{};
  std::memcpy(out.oid, info.oid_der.data(), 11);
  out.len = info.out_len;
  hash::prehash_compute(ph, m, {out.digest, info.out_len});
  return out;
}

// FIPS 205, Algorithms 23 and 25: M' = toByte(1, 1) || toByte(|ctx|, 1) || ctx || OID || PH(M), as
// the parts of a Msg (which points into this object: neither copied nor moved). |ctx| ≤ 255 checked.
struct HashSlhMessage {
  std::uint8_t hdr[2];
  PreHashed h;
  Msg msg;
  HashSlhMessage(hash::PreHash ph, byte_span m, byte_span ctx)
      : hdr{1, static_cast<std::uint8_t>(ctx.size())}, h(prehash(ph, m)) {
    msg.part[msg.count++] = hdr;
    msg.part[msg.count++] = ctx;
    msg.part[msg.count++] = byte_span(h.oid, 11);
    msg.part[msg.count++] = byte_span(h.digest, h.len);
  }
  HashSlhMessage(const HashSlhMessage&) = delete;
  HashSlhMessage& operator=(const HashSlhMessage&) = delete;
};
}  // namespace

std::span<const ParamInfo> all_param_sets() noexcept { return kParams; }

const ParamInfo& param_info(ParamSet p) noexcept {
  auto i = static_cast<std::size_t>(p);
  return kParams[i < kParams.size() ? i : 0];
}

Result<ParamSet> find_param_set(std::string_view name) {
  for (const ParamInfo& pi : kParams)
    if (iequal(name, pi.name)) return pi.id;
  return Error{Errc::unknown_suite, "unknown SLH-DSA parameter set \"" + std::string(name) + "\""};
}

// FIPS 205, Algorithm 18.
Result<KeyPair> slh_keygen_internal(ParamSet p, byte_span sk_seed, byte_span sk_prf, byte_span pk_seed) {
  if (Status s = check_param_set(p); !s) return s.error();
  const ParamInfo& pi = param_info(p);
  if (sk_seed.size() != pi.n) return len_error(pi, "SK.seed", pi.n, sk_seed.size());
  if (sk_prf.size() != pi.n) return len_error(pi, "SK.prf", pi.n, sk_prf.size());
  if (pk_seed.size() != pi.n) return len_error(pi, "PK.seed", pi.n, pk_seed.size());
  KeyPair kp{bytes(pi.pk_bytes), SecretBytes(pi.sk_bytes)};
  ops(p).keygen_internal(sk_seed.data(), sk_prf.data(), pk_seed.data(), kp.sk.data(), kp.pk.data());
  return kp;
}

// FIPS 205, Algorithm 21.
Result<KeyPair> slh_keygen(ParamSet p) {
  if (Status s = check_param_set(p); !s) return s.error();
  const ParamInfo& pi = param_info(p);
  SecretBytes seeds(3 * pi.n);
  if (!random_bytes(seeds.mut_span())) return Error{Errc::rng_failure, "SLH-DSA: OS random source failed"};
  byte_span s = seeds.span();
  return slh_keygen_internal(p, s.subspan(0, pi.n), s.subspan(pi.n, pi.n), s.subspan(2 * pi.n, pi.n));
}

// FIPS 205, Algorithm 19.
Result<bytes> slh_sign_internal(ParamSet p, byte_span m, byte_span sk, OptRand r) {
  Msg msg;
  msg.part[msg.count++] = m;
  return sign_msg(p, msg, sk, r);
}

// FIPS 205, Algorithm 20.
Status slh_verify_internal(ParamSet p, byte_span m, byte_span sig, byte_span pk) {
  Msg msg;
  msg.part[msg.count++] = m;
  return verify_msg(p, msg, sig, pk);
}

// FIPS 205, Algorithm 22: M' = toByte(0, 1) || toByte(|ctx|, 1) || ctx || M.
Result<bytes> slh_sign(ParamSet p, byte_span m, byte_span ctx, byte_span sk, OptRand r) {
  if (Status s = check_ctx(ctx); !s) return s.error();
  const std::uint8_t hdr[2] = {0, static_cast<std::uint8_t>(ctx.size())};
  Msg msg;
  msg.part[msg.count++] = hdr;
  msg.part[msg.count++] = ctx;
  msg.part[msg.count++] = m;
  return sign_msg(p, msg, sk, r);
}

// FIPS 205, Algorithm 24.
Status slh_verify(ParamSet p, byte_span m, byte_span sig, byte_span ctx, byte_span pk) {
  if (Status s = check_ctx(ctx); !s) return s;
  const std::uint8_t hdr[2] = {0, static_cast<std::uint8_t>(ctx.size())};
  Msg msg;
  msg.part[msg.count++] = hdr;
  msg.part[msg.count++] = ctx;
  msg.part[msg.count++] = m;
  return verify_msg(p, msg, sig, pk);
}

// FIPS 205, Algorithm 23: M' = toByte(1, 1) || toByte(|ctx|, 1) || ctx || OID || PH(M).
Result<bytes> hash_slh_sign(ParamSet p, byte_span m, byte_span ctx, hash::PreHash ph, byte_span sk, OptRand r) {
  if (Status s = check_ctx(ctx); !s) return s.error();
  const HashSlhMessage mp(ph, m, ctx);
  return sign_msg(p, mp.msg, sk, r);
}

// FIPS 205, Algorithm 25.
Status hash_slh_verify(ParamSet p, byte_span m, byte_span sig, byte_span ctx, hash::PreHash ph, byte_span pk) {
  if (Status s = check_ctx(ctx); !s) return s;
  const HashSlhMessage mp(ph, m, ctx);
  return verify_msg(p, mp.msg, sig, pk);
}

}  // namespace pqsig::slhdsa
