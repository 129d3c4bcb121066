// pqsig::provider: the Provider interface over the one (provider, family) table below, the only
// place that names the providers. Every built-in provider is a TableProvider; the interface check
// (supports) is done here, once, before any provider code runs.
#include <optional>
#include <string>

#include "pqsig/mlkem.hpp"
#include "pqsig/provider.hpp"
#include "providers/liboqs_ops.hpp"
#include "providers/openssl_ops.hpp"
#include "providers/table.hpp"
#include "suites/backend.hpp"

namespace pqsig::provider {

std::string interface_names(unsigned mask) {
  static constexpr struct {
    unsigned bit;
    const char* name;
  } kNames[] = {{kPure, "pure"}, {kContext, "context"}, {kPreHash, "prehash"}, {kInternal, "internal"},
                {kExternalMu, "external-mu"}};
  std::string out;
  for (const auto& n : kNames) {
    if (!(mask & n.bit)) continue;
    if (!out.empty()) out += ',';
    out += n.name;
  }
  return out;
}

std::string operation_names(unsigned mask) {
  static constexpr struct {
    unsigned bit;
    const char* name;
  } kNames[] = {{kKeygen, "keygen"}, {kSign, "sign"}, {kEncaps, "encaps"}, {kDecaps, "decaps"}};
  std::string out;
  for (const auto& n : kNames) {
    if (!(mask & n.bit)) continue;
    if (!out.empty()) out += ',';
    out += n.name;
  }
  return out;
}

unsigned required_interface(const VerifyOptions& opt) noexcept {
  switch (opt.input) {
    case VerifyOptions::Input::internal: return kInternal;
    case VerifyOptions::Input::mu: return kExternalMu;
    case VerifyOptions::Input::message: break;
  }
  if (opt.prehash) return kPreHash;
  return opt.ctx.empty() ? kPure : kContext;
}

Status Provider::supports(const SuiteInfo& suite, const VerifyOptions& opt) const {
  const unsigned have = interfaces(suite);
  if (have == 0)
    return Error{Errc::unsupported, std::string(name()) + " does not implement " + std::string(suite.id)};
  if (opt.input != VerifyOptions::Input::message && (!opt.ctx.empty() || opt.prehash))
    return Error{Errc::invalid_argument, "context and pre-hash apply to the external interface only"};
  const unsigned need = required_interface(opt);
  if (!(have & need))
    return Error{Errc::unsupported, std::string(name()) + " does not implement the " + interface_names(need) +
                                        " interface of " + std::string(suite.id) + " (it has: " +
                                        interface_names(have) + ")"};
  return {};
}

Status Provider::verify(const SuiteInfo& suite, byte_span pk, byte_span msg, byte_span sig,
                        const VerifyOptions& opt) const {
  if (auto st = supports(suite, opt); !st) return st;
  auto key = prepare(suite, pk);
  if (!key) return key.error();
  return (*key)->verify(msg, sig, opt);
}

namespace {

// A verifying key of a table backend: dispatches on the input form.
class TableKey final : public PreparedKey {
 public:
  explicit TableKey(std::unique_ptr<detail::VerifierImpl> impl) : impl_(std::move(impl)) {}
  const SuiteInfo& suite() const noexcept override { return *impl_->info; }
  byte_span public_key() const noexcept override { return impl_->public_key(); }
  Status verify(byte_span msg, byte_span sig, const VerifyOptions& opt) const override {
    return detail::verify_with(*impl_, msg, sig, opt);
  }

 private:
  std::unique_ptr<detail::VerifierImpl> impl_;
};

std::optional<mlkem::ParameterSet> mlkem_set(const SuiteInfo& s) {
  if (s.family == Family::ml_kem) return s.params.mlkem;
  return std::nullopt;
}

bool has_expanded_form(const SuiteInfo& s) { return s.family == Family::ml_dsa || s.family == Family::slh_dsa; }

// The one table of the providers: pqsig's own backends (by family, detail::backend_for) and the
// optional providers' rows. A backend function returns nullptr when its provider is not compiled
// in or not available at run time. Adding a provider: a row here and its name in kNames.
struct ProviderRow {
  std::string_view provider;
  Family family;
  const detail::Backend* (*backend)() noexcept;
};
constexpr ProviderRow kProviderTable[] = {
    {"liboqs", Family::ml_dsa, &detail::liboqs_backend},
    {"liboqs", Family::slh_dsa, &detail::liboqs_backend},
    {"openssl", Family::ml_dsa, &detail::openssl_backend},
    {"openssl", Family::slh_dsa, &detail::openssl_backend},
};

const detail::Backend* provider_backend(const SuiteInfo& s, std::string_view provider) noexcept {
  if (provider == "pqsig") return detail::backend_for(s);
  for (const auto& row : kProviderTable)
    if (row.provider == provider && row.family == s.family) return row.backend();
  return nullptr;
}

class TableProvider final : public Provider {
 public:
  explicit TableProvider(std::string_view name) : name_(name) {}
  std::string_view name() const noexcept override { return name_; }
  ProviderInfo info() const override {
    if (name_ == "liboqs") return detail::liboqs_info();
    if (name_ == "openssl") return detail::openssl_info();
    return ProviderInfo{std::string(name_), true, "", "pqsig " + std::string(pqsig::version())};
  }
  unsigned interfaces(const SuiteInfo& suite) const noexcept override {
    return detail::backend_interfaces(provider_backend(suite, name_), suite);
  }
  Result<std::shared_ptr<const PreparedKey>> prepare(const SuiteInfo& suite, byte_span pk) const override {
    const detail::Backend* b = provider_backend(suite, name_);
    if (!b || !b->verifier_from_public || detail::backend_interfaces(b, suite) == 0)
      return Error{Errc::unsupported, std::string(name_) + " does not implement " + std::string(suite.id)};
    auto r = b->verifier_from_public(suite, pk);
    if (!r) return r.error();
    (*r)->info = &suite;
    return std::shared_ptr<const PreparedKey>(std::make_shared<TableKey>(std::move(r.value())));
  }
  unsigned operations(const SuiteInfo& suite) const noexcept override {
    if (name_ == "liboqs") return detail::liboqs_operations(suite);
    if (name_ == "openssl") return detail::openssl_operations(suite);
    if (name_ != "pqsig") return 0;
    if (mlkem_set(suite)) return kKeygen | kEncaps | kDecaps;
    const detail::Backend* b = provider_backend(suite, name_);
    if (!b || suite.cls != SuiteClass::signature || !has_expanded_form(suite)) return 0;
    return kKeygen | (b->signer_from_expanded ? kSign : 0u);
  }
  Result<KeyPair> keygen(const SuiteInfo& suite) const override {
    if (name_ == "liboqs") return detail::liboqs_keygen(suite);
    if (name_ == "openssl") return detail::openssl_keygen(suite);
    if (!(operations(suite) & kKeygen)) return Provider::keygen(suite);
    KeyPair kp;
    if (auto ps = mlkem_set(suite)) {
      // FIPS 203, Algorithm 19: ML-KEM.KeyGen.
      auto k = mlkem::keygen(*ps);
      if (!k) return k.error();
      kp.public_key = std::move(k->ek);
      kp.secret_key = std::move(k->dk);
      return kp;
    }
    auto sk = SigningKey::generate(suite);
    if (!sk) return sk.error();
    auto expanded = sk->expanded_private_key();
    if (!expanded) return expanded.error();
    kp.public_key.assign(sk->public_key().begin(), sk->public_key().end());
    kp.secret_key = SecretBytes(byte_span(*expanded));
    secure_zero(expanded->data(), expanded->size());
    return kp;
  }
  Result<Encapsulation> encaps(const SuiteInfo& suite, byte_span ek) const override {
    if (name_ == "liboqs") return detail::liboqs_encaps(suite, ek);
    if (!(operations(suite) & kEncaps)) return Provider::encaps(suite, ek);
    auto pub = KemPublicKey::from_public(suite, ek);
    if (!pub) return pub.error();
    return pub->encaps();
  }
  Result<SecretBytes> decaps(const SuiteInfo& suite, byte_span dk, byte_span ct) const override {
    if (name_ == "liboqs") return detail::liboqs_decaps(suite, dk, ct);
    if (!(operations(suite) & kDecaps)) return Provider::decaps(suite, dk, ct);
    if (dk.size() != suite.expanded_key_size)
      return Error{Errc::invalid_length, std::string(suite.id) + ": decapsulation key must be the " +
                                             std::to_string(suite.expanded_key_size) + "-byte FIPS 203 dk"};
    auto priv = KemPrivateKey::from_private(suite, dk);
    if (!priv) return priv.error();
    return priv->decaps(ct);
  }
  Result<bytes> sign(const SuiteInfo& suite, byte_span expanded_sk, byte_span msg, byte_span ctx) const override {
    const detail::Backend* b = provider_backend(suite, name_);
    if (!b || !b->signer_from_expanded || suite.cls != SuiteClass::signature)
      return Provider::sign(suite, expanded_sk, msg, ctx);
    auto signer = b->signer_from_expanded(suite, expanded_sk);
    if (!signer) return signer.error();
    (*signer)->info = &suite;
    SignOptions so;
    so.ctx = ctx;
    return (*signer)->sign(msg, so);
  }

 private:
  std::string_view name_;
};

constexpr std::string_view kNames[] = {"pqsig", "liboqs", "openssl"};

}  // namespace

Result<std::shared_ptr<const Provider>> find(std::string_view name) {
  static const std::shared_ptr<const Provider> kProviders[] = {
      std::make_shared<TableProvider>(kNames[0]), std::make_shared<TableProvider>(kNames[1]),
      std::make_shared<TableProvider>(kNames[2])};
  for (std::size_t i = 0; i < std::size(kNames); ++i)
    if (kNames[i] == name) return kProviders[i];
  return Error{Errc::invalid_argument, "unknown provider '" + std::string(name) + "' (pqsig, liboqs, openssl)"};
}

std::vector<std::shared_ptr<const Provider>> all() {
  std::vector<std::shared_ptr<const Provider>> out;
  for (auto n : kNames) out.push_back(find(n).value());
  return out;
}

std::vector<std::string> names() { return std::vector<std::string>(std::begin(kNames), std::end(kNames)); }

}  // namespace pqsig::provider
