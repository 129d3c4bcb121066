// SLH-DSA (FIPS 205) suite backend. The canonical private key is the 4n-byte FIPS 205 secret key
// SK.seed || SK.prf || PK.seed || PK.root (there is no shorter seed form that carries PK.seed
// and SK.prf separately); signer_from_expanded accepts the same bytes. SignOptions: ctx
// (0..255 bytes), prehash (HashSLH-DSA), deterministic (opt_rand = PK.seed; randomized otherwise).
#include "pqsig/slhdsa.hpp"
#include "suites/backend.hpp"

namespace pqsig::detail {
namespace {
using slhdsa::ParamSet;

Result<ParamSet> param_of(const SuiteInfo& s) {
  if (s.family != Family::slh_dsa) return Error{Errc::unknown_suite, "not an SLH-DSA suite: " + std::string(s.id)};
  return s.params.slhdsa;
}

struct SlhSigner final : SignerImpl {
  ParamSet p{};
  SecretBytes sk;
  byte_span public_key() const noexcept override {
    const std::size_t n = slhdsa::param_info(p).n;
    return sk.span().subspan(2 * n, 2 * n);
  }
  byte_span private_key() const noexcept override { return sk.span(); }
  Result<bytes> expanded_private_key() const override { return bytes(sk.span().begin(), sk.span().end()); }
  Result<bytes> sign(byte_span msg, const SignOptions& opt) const override {
    const slhdsa::OptRand r = opt.deterministic ? slhdsa::OptRand::deterministic() : slhdsa::OptRand::randomized();
    if (opt.prehash) return slhdsa::hash_slh_sign(p, msg, opt.ctx, *opt.prehash, sk.span(), r);
    return slhdsa::slh_sign(p, msg, opt.ctx, sk.span(), r);
  }
};

struct SlhVerifier final : VerifierImpl {
  ParamSet p{};
  bytes pk;
  byte_span public_key() const noexcept override { return pk; }
  Status verify(byte_span msg, byte_span sig, const SignOptions& opt) const override {
    if (opt.prehash) return slhdsa::hash_slh_verify(p, msg, sig, opt.ctx, *opt.prehash, pk);
    return slhdsa::slh_verify(p, msg, sig, opt.ctx, pk);
  }
  Status verify_internal(byte_span mprime, byte_span sig) const override {
    return slhdsa::slh_verify_internal(p, mprime, sig, pk);
  }
};

unsigned slhdsa_interfaces(const SuiteInfo&) noexcept {
  return provider::kPure | provider::kContext | provider::kPreHash | provider::kInternal;
}

Result<SecretBytes> slhdsa_generate_private(const SuiteInfo& s) {
  auto p = param_of(s);
  if (!p) return p.error();
  auto kp = slhdsa::slh_keygen(*p);
  if (!kp) return kp.error();
  return std::move(kp->sk);
}

Result<std::unique_ptr<SignerImpl>> slhdsa_signer_from_private(const SuiteInfo& s, byte_span priv) {
  auto p = param_of(s);
  if (!p) return p.error();
  const slhdsa::ParamInfo& pi = slhdsa::param_info(*p);
  if (priv.size() != pi.sk_bytes)
    return Error{Errc::invalid_length, std::string(s.id) + ": private key must be " + std::to_string(pi.sk_bytes) +
                                           " bytes (SK.seed || SK.prf || PK.seed || PK.root), got " +
                                           std::to_string(priv.size())};
  auto impl = std::make_unique<SlhSigner>();
  impl->info = &s;
  impl->p = *p;
  impl->sk = SecretBytes(priv);
  return std::unique_ptr<SignerImpl>(std::move(impl));
}

Result<std::unique_ptr<VerifierImpl>> slhdsa_verifier_from_public(const SuiteInfo& s, byte_span pub) {
  auto p = param_of(s);
  if (!p) return p.error();
  const slhdsa::ParamInfo& pi = slhdsa::param_info(*p);
  if (pub.size() != pi.pk_bytes)
    return Error{Errc::invalid_length, std::string(s.id) + ": public key must be " + std::to_string(pi.pk_bytes) +
                                           " bytes, got " + std::to_string(pub.size())};
  auto impl = std::make_unique<SlhVerifier>();
  impl->info = &s;
  impl->p = *p;
  impl->pk.assign(pub.begin(), pub.end());
  return std::unique_ptr<VerifierImpl>(std::move(impl));
}

unsigned slhdsa_operations(const SuiteInfo&) noexcept { return provider::kKeygen | provider::kSign; }

const Backend kSlhdsaBackend{&slhdsa_generate_private, &slhdsa_signer_from_private, &slhdsa_signer_from_private,
                             &slhdsa_verifier_from_public, nullptr, nullptr, &slhdsa_interfaces,
                             nullptr, nullptr, nullptr, nullptr, &slhdsa_operations, &keypair_from_signing_key};
}  // namespace

const Backend* slhdsa_backend() noexcept { return &kSlhdsaBackend; }
}  // namespace pqsig::detail
