// The suite API objects: thin, typed wrappers that dispatch to each family's backend.
#include <string>

#include "pqsig/suite.hpp"
#include "suites/backend.hpp"

namespace pqsig {

namespace {
Error unavailable(const SuiteInfo& s, const char* what) {
  return Error{Errc::unsupported, std::string(s.id) + ": " + what + " not available in this build"};
}
// A moved-from key object has no implementation: every operation is a typed error (never a null
// dereference) and suite() names this placeholder.
constexpr SuiteInfo kEmptyKeySuite{"(empty key: moved from)", 0, SuiteClass::signature, Family::none, "", "", "", false, 0, 0, 0,
                                   0, 0, false};
Error moved_from(const char* what) {
  return Error{Errc::invalid_argument, std::string(what) + ": the key object is empty (moved from)"};
}
// A stateful hash-based suite (LMS/HSS, XMSS): a stateless SigningKey would sign without the state
// that keeps a one-time index from being used twice (two messages at one index give the key
// away). Refused, naming the API that keeps the state.
Error stateful_refusal(const SuiteInfo& s, const char* what) {
  const bool is_lms = s.family == Family::lms;
  return Error{Errc::stateful_key,
               std::string(s.id) + ": " + what +
                   " refused: a stateful hash-based suite signs only through its state (a stateless key could "
                   "reuse a one-time index). Use " +
                   (is_lms ? "pqsig::lms::HssPrivateKey::generate + lms::StateStore::create, then lms::StatefulSigner"
                        : "pqsig::xmss::PrivateKey::generate + xmss::StatefulSigner::create_state, then "
                          "xmss::StatefulSigner") +
                   " (CLI: pqsig hbs keygen / pqsig hbs sign); VerifyingKey verifies as for any suite"};
}
}  // namespace

// ---------------------------------------------------------------- SigningKey
SigningKey::SigningKey(std::unique_ptr<detail::SignerImpl> impl) noexcept : impl_(std::move(impl)) {}
SigningKey::SigningKey(SigningKey&&) noexcept = default;
SigningKey& SigningKey::operator=(SigningKey&&) noexcept = default;
SigningKey::~SigningKey() = default;

Result<SigningKey> SigningKey::generate(const SuiteInfo& s) {
  if (s.cls == SuiteClass::kem) return Error{Errc::invalid_argument, std::string(s.id) + " is a KEM, not a signature suite"};
  if (s.stateful) return stateful_refusal(s, "key generation through the stateless API");
  const auto* b = detail::backend_for(s);
  if (b && b->signer_generate) {
    auto r = b->signer_generate(s);
    if (!r) return r.error();
    (*r)->info = &s;
    return SigningKey(std::move(r.value()));
  }
  if (!b || !b->generate_private) return unavailable(s, "key generation");
  auto priv = b->generate_private(s);
  if (!priv) return priv.error();
  return from_private(s, priv->span());
}

Result<SigningKey> SigningKey::from_private(const SuiteInfo& s, byte_span priv) {
  if (s.cls == SuiteClass::kem) return Error{Errc::invalid_argument, std::string(s.id) + " is a KEM, not a signature suite"};
  if (s.stateful) return stateful_refusal(s, "a stateless signing key");
  const auto* b = detail::backend_for(s);
  if (!b || !b->signer_from_private) return unavailable(s, "signing");
  auto r = b->signer_from_private(s, priv);
  if (!r) return r.error();
  (*r)->info = &s;
  return SigningKey(std::move(r.value()));
}

Result<SigningKey> SigningKey::from_expanded(const SuiteInfo& s, byte_span sk) {
  if (s.stateful) return stateful_refusal(s, "a stateless signing key");
  const auto* b = detail::backend_for(s);
  if (!b || !b->signer_from_expanded) return unavailable(s, "expanded-key import");
  auto r = b->signer_from_expanded(s, sk);
  if (!r) return r.error();
  (*r)->info = &s;
  return SigningKey(std::move(r.value()));
}

bool SigningKey::valid() const noexcept { return impl_ != nullptr; }
const SuiteInfo& SigningKey::suite() const noexcept { return impl_ ? *impl_->info : kEmptyKeySuite; }
byte_span SigningKey::public_key() const noexcept { return impl_ ? impl_->public_key() : byte_span{}; }
byte_span SigningKey::private_key() const noexcept { return impl_ ? impl_->private_key() : byte_span{}; }
Result<bytes> SigningKey::expanded_private_key() const {
  if (!impl_) return moved_from("expanded_private_key");
  return impl_->expanded_private_key();
}
Result<bytes> SigningKey::sign(byte_span msg, const SignOptions& opt) const {
  if (!impl_) return moved_from("sign");
  if (impl_->info->stateful) return stateful_refusal(*impl_->info, "stateless signing");  // never built: defence
  if (opt.input != SignOptions::Input::message)
    return Error{Errc::unsupported, std::string(impl_->info->id) + ": signing takes the message (external interface)"};
  return impl_->sign(msg, opt);
}
Status SigningKey::verify(byte_span msg, byte_span sig, const SignOptions& opt) const {
  if (!impl_) return moved_from("verify");
  if (opt.input != SignOptions::Input::message)
    return Error{Errc::unsupported, std::string(impl_->info->id) + ": a MAC takes the message only"};
  return impl_->verify(msg, sig, opt);
}

// ---------------------------------------------------------------- VerifyingKey
VerifyingKey::VerifyingKey(std::unique_ptr<detail::VerifierImpl> impl) noexcept : impl_(std::move(impl)) {}
VerifyingKey::VerifyingKey(VerifyingKey&&) noexcept = default;
VerifyingKey& VerifyingKey::operator=(VerifyingKey&&) noexcept = default;
VerifyingKey::~VerifyingKey() = default;

Result<VerifyingKey> VerifyingKey::from_public(const SuiteInfo& s, byte_span pub) {
  const auto* b = detail::backend_for(s);
  if (!b || !b->verifier_from_public) return unavailable(s, "verification");
  auto r = b->verifier_from_public(s, pub);
  if (!r) return r.error();
  (*r)->info = &s;
  return VerifyingKey(std::move(r.value()));
}
bool VerifyingKey::valid() const noexcept { return impl_ != nullptr; }
const SuiteInfo& VerifyingKey::suite() const noexcept { return impl_ ? *impl_->info : kEmptyKeySuite; }
byte_span VerifyingKey::public_key() const noexcept { return impl_ ? impl_->public_key() : byte_span{}; }
Status VerifyingKey::verify(byte_span msg, byte_span sig, const SignOptions& opt) const {
  if (!impl_) return moved_from("verify");
  return detail::verify_with(*impl_, msg, sig, opt);
}

// ---------------------------------------------------------------- KEM keys
KemPrivateKey::KemPrivateKey(std::unique_ptr<detail::KemDecapsImpl> impl) noexcept : impl_(std::move(impl)) {}
KemPrivateKey::KemPrivateKey(KemPrivateKey&&) noexcept = default;
KemPrivateKey& KemPrivateKey::operator=(KemPrivateKey&&) noexcept = default;
KemPrivateKey::~KemPrivateKey() = default;

Result<KemPrivateKey> KemPrivateKey::generate(const SuiteInfo& s) {
  if (s.cls != SuiteClass::kem) return Error{Errc::invalid_argument, std::string(s.id) + " is not a KEM suite"};
  const auto* b = detail::backend_for(s);
  if (b && b->kem_generate) {
    auto r = b->kem_generate(s);
    if (!r) return r.error();
    (*r)->info = &s;
    return KemPrivateKey(std::move(r.value()));
  }
  if (!b || !b->generate_private) return unavailable(s, "key generation");
  auto priv = b->generate_private(s);
  if (!priv) return priv.error();
  return from_private(s, priv->span());
}
Result<KemPrivateKey> KemPrivateKey::from_private(const SuiteInfo& s, byte_span seed) {
  if (s.cls != SuiteClass::kem) return Error{Errc::invalid_argument, std::string(s.id) + " is not a KEM suite"};
  const auto* b = detail::backend_for(s);
  if (!b || !b->kem_from_private) return unavailable(s, "decapsulation");
  auto r = b->kem_from_private(s, seed);
  if (!r) return r.error();
  (*r)->info = &s;
  return KemPrivateKey(std::move(r.value()));
}
bool KemPrivateKey::valid() const noexcept { return impl_ != nullptr; }
const SuiteInfo& KemPrivateKey::suite() const noexcept { return impl_ ? *impl_->info : kEmptyKeySuite; }
byte_span KemPrivateKey::public_key() const noexcept { return impl_ ? impl_->public_key() : byte_span{}; }
byte_span KemPrivateKey::private_key() const noexcept { return impl_ ? impl_->private_key() : byte_span{}; }
Result<SecretBytes> KemPrivateKey::decaps(byte_span ct) const {
  if (!impl_) return moved_from("decaps");
  return impl_->decaps(ct);
}

byte_span KemPrivateKey::expanded_key() const noexcept { return impl_ ? impl_->expanded_key() : byte_span{}; }

Result<Encapsulation> kem_encaps_once(const SuiteInfo& s, byte_span pub) {
  if (s.cls != SuiteClass::kem) return Error{Errc::invalid_argument, std::string(s.id) + " is not a KEM suite"};
  const auto* b = detail::backend_for(s);
  if (b && b->kem_encaps_once) return b->kem_encaps_once(s, pub);
  auto k = KemPublicKey::from_public(s, pub);
  if (!k) return k.error();
  return k->encaps();
}
Result<SecretBytes> kem_decaps_once(const SuiteInfo& s, byte_span priv, byte_span ct) {
  if (s.cls != SuiteClass::kem) return Error{Errc::invalid_argument, std::string(s.id) + " is not a KEM suite"};
  const auto* b = detail::backend_for(s);
  if (b && b->kem_decaps_once) return b->kem_decaps_once(s, priv, ct);
  auto k = KemPrivateKey::from_private(s, priv);
  if (!k) return k.error();
  return k->decaps(ct);
}

KemPublicKey::KemPublicKey(std::unique_ptr<detail::KemEncapsImpl> impl) noexcept : impl_(std::move(impl)) {}
KemPublicKey::KemPublicKey(KemPublicKey&&) noexcept = default;
KemPublicKey& KemPublicKey::operator=(KemPublicKey&&) noexcept = default;
KemPublicKey::~KemPublicKey() = default;

Result<KemPublicKey> KemPublicKey::from_public(const SuiteInfo& s, byte_span pub) {
  if (s.cls != SuiteClass::kem) return Error{Errc::invalid_argument, std::string(s.id) + " is not a KEM suite"};
  const auto* b = detail::backend_for(s);
  if (!b || !b->kem_from_public) return unavailable(s, "encapsulation");
  auto r = b->kem_from_public(s, pub);
  if (!r) return r.error();
  (*r)->info = &s;
  return KemPublicKey(std::move(r.value()));
}
bool KemPublicKey::valid() const noexcept { return impl_ != nullptr; }
const SuiteInfo& KemPublicKey::suite() const noexcept { return impl_ ? *impl_->info : kEmptyKeySuite; }
byte_span KemPublicKey::public_key() const noexcept { return impl_ ? impl_->public_key() : byte_span{}; }
Result<Encapsulation> KemPublicKey::encaps() const {
  if (!impl_) return moved_from("encaps");
  return impl_->encaps();
}
Result<Encapsulation> KemPublicKey::encaps_derand(byte_span e) const {
  if (!impl_) return moved_from("encaps_derand");
  return impl_->encaps_derand(e);
}

namespace detail {
Result<EncodedKeyPair> keypair_from_signing_key(const SuiteInfo& s) {
  auto sk = SigningKey::generate(s);
  if (!sk) return sk.error();
  auto expanded = sk->expanded_private_key();
  if (!expanded) return expanded.error();
  EncodedKeyPair kp;
  kp.public_key.assign(sk->public_key().begin(), sk->public_key().end());
  kp.secret_key = SecretBytes(byte_span(*expanded));
  secure_zero(expanded->data(), expanded->size());
  return kp;
}
}  // namespace detail

}  // namespace pqsig
