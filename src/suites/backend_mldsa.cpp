// ML-DSA-44/65/87 suite backend: the suite API (SigningKey / VerifyingKey) over src/mldsa.
// A signer made from the 32-byte seed ξ expands it once (PreparedSigningKey::keygen_internal:
// one ExpandA) and caches the expanded secret key and the PreparedSigningKey (Â and the NTT-domain vectors); a signer imported
// from an expanded key is checked (mldsa::sk_check) and has no seed form (private_key() is
// empty; expanded_private_key() works). A verifier caches a PreparedVerifyingKey.
#include <optional>
#include <string>

#include "pqsig/mldsa.hpp"
#include "suites/backend.hpp"

namespace pqsig::detail {
namespace {

Result<mldsa::Level> level_of(const SuiteInfo& s) {
  if (s.family != Family::ml_dsa) return Error{Errc::unknown_suite, "not an ML-DSA suite: " + std::string(s.id)};
  return s.params.mldsa;
}

mldsa::Options to_options(const SignOptions& o) {
  mldsa::Options m;
  m.ctx = o.ctx;
  m.prehash = o.prehash;
  m.deterministic = o.deterministic;
  return m;
}

struct MldsaSigner final : SignerImpl {
  mldsa::Level lv{};
  SecretBytes seed;  // empty when imported from an expanded key
  SecretBytes sk;    // FIPS 204 expanded secret key
  bytes pk;
  std::optional<mldsa::PreparedSigningKey> prepared;

  byte_span public_key() const noexcept override { return pk; }
  byte_span private_key() const noexcept override { return seed.span(); }
  Result<bytes> expanded_private_key() const override { return bytes(sk.span().begin(), sk.span().end()); }
  Result<bytes> sign(byte_span msg, const SignOptions& opt) const override {
    bytes sig(mldsa::params(lv).sig_bytes);
    if (auto st = prepared->sign(msg, sig, to_options(opt)); !st) return st.error();
    return sig;
  }
};

struct MldsaVerifier final : VerifierImpl {
  mldsa::Level lv{};
  bytes pk;
  std::optional<mldsa::PreparedVerifyingKey> prepared;
  byte_span public_key() const noexcept override { return pk; }
  Status verify(byte_span msg, byte_span sig, const SignOptions& opt) const override {
    return prepared->verify(msg, sig, to_options(opt));
  }
  Status verify_internal(byte_span mprime, byte_span sig) const override {
    return mldsa::verify_internal(lv, pk, mprime, sig);
  }
  Status verify_mu(byte_span mu, byte_span sig) const override { return prepared->verify_mu(mu, sig); }
};

unsigned mldsa_interfaces(const SuiteInfo&) noexcept {
  return provider::kPure | provider::kContext | provider::kPreHash | provider::kInternal | provider::kExternalMu;
}

// One KeyGen_internal from the seed held by impl yields pk, the expanded sk and the prepared
// key (Â expanded once).
Result<std::unique_ptr<SignerImpl>> mldsa_signer_from_seed(std::unique_ptr<MldsaSigner> impl) {
  impl->sk = SecretBytes(mldsa::params(impl->lv).sk_bytes);
  impl->pk.resize(mldsa::params(impl->lv).pk_bytes);
  auto prep = mldsa::PreparedSigningKey::keygen_internal(impl->lv, impl->seed.span(), impl->pk, impl->sk.mut_span());
  if (!prep) return prep.error();
  impl->prepared.emplace(std::move(prep.value()));
  return std::unique_ptr<SignerImpl>(std::move(impl));
}

Result<std::unique_ptr<SignerImpl>> mldsa_signer_from_private(const SuiteInfo& s, byte_span priv) {
  auto lv = level_of(s);
  if (!lv) return lv.error();
  if (priv.size() != mldsa::kSeedBytes)
    return Error{Errc::invalid_length, std::string(s.id) + ": private key (seed) must be 32 bytes, got " +
                                           std::to_string(priv.size())};
  auto impl = std::make_unique<MldsaSigner>();
  impl->lv = *lv;
  impl->seed = SecretBytes(priv);
  return mldsa_signer_from_seed(std::move(impl));
}

// ML-DSA.KeyGen (FIPS 204 Algorithm 1) into a new key: ξ drawn into the key's own buffer.
Result<std::unique_ptr<SignerImpl>> mldsa_signer_generate(const SuiteInfo& s) {
  auto lv = level_of(s);
  if (!lv) return lv.error();
  auto impl = std::make_unique<MldsaSigner>();
  impl->lv = *lv;
  impl->seed = SecretBytes(mldsa::kSeedBytes);
  if (!random_bytes(impl->seed.mut_span())) return Error{Errc::rng_failure, "OS random source failed"};
  return mldsa_signer_from_seed(std::move(impl));
}

Result<std::unique_ptr<SignerImpl>> mldsa_signer_from_expanded(const SuiteInfo& s, byte_span sk) {
  auto lv = level_of(s);
  if (!lv) return lv.error();
  auto impl = std::make_unique<MldsaSigner>();
  impl->lv = *lv;
  impl->pk.resize(mldsa::params(*lv).pk_bytes);
  // sk_check's full check and the prepared key in one pass (one skDecode, one ExpandA).
  auto prep = mldsa::PreparedSigningKey::create_checked(*lv, sk, impl->pk);
  if (!prep) return prep.error();
  impl->sk = SecretBytes(sk);
  impl->prepared.emplace(std::move(prep.value()));
  return std::unique_ptr<SignerImpl>(std::move(impl));
}

Result<std::unique_ptr<VerifierImpl>> mldsa_verifier_from_public(const SuiteInfo& s, byte_span pub) {
  auto lv = level_of(s);
  if (!lv) return lv.error();
  const std::size_t want = mldsa::params(*lv).pk_bytes;
  if (pub.size() != want)
    return Error{Errc::invalid_length, std::string(s.id) + ": public key must be " + std::to_string(want) +
                                           " bytes, got " + std::to_string(pub.size())};
  auto impl = std::make_unique<MldsaVerifier>();
  impl->lv = *lv;
  impl->pk.assign(pub.begin(), pub.end());
  auto prep = mldsa::PreparedVerifyingKey::create(*lv, pub);
  if (!prep) return prep.error();
  impl->prepared.emplace(std::move(prep.value()));
  return std::unique_ptr<VerifierImpl>(std::move(impl));
}

unsigned mldsa_operations(const SuiteInfo&) noexcept { return provider::kKeygen | provider::kSign; }

constexpr Backend kMldsaBackend{nullptr,  // key generation: signer_generate
                                &mldsa_signer_from_private,
                                &mldsa_signer_from_expanded,
                                &mldsa_verifier_from_public,
                                nullptr,
                                nullptr,
                                &mldsa_interfaces,
                                &mldsa_signer_generate,
                                nullptr,
                                nullptr,
                                nullptr,
                                &mldsa_operations,
                                &keypair_from_signing_key};
}  // namespace

const Backend* mldsa_backend() noexcept { return &kMldsaBackend; }

}  // namespace pqsig::detail
