// pqsig::provider: the Provider interface over the one (provider, family) → Backend table below,
// the only place that names the providers. Every built-in provider is a BackendProvider over that
// table; the checks all providers share (interface, operation offered, key lengths) are done
// here, once, before any provider code runs.
#include <optional>
#include <string>

#include "pqsig/provider.hpp"
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

// A verifying key of a backend: dispatches on the input form.
class BackendKey final : public PreparedKey {
 public:
  explicit BackendKey(std::unique_ptr<detail::VerifierImpl> impl) : impl_(std::move(impl)) {}
  const SuiteInfo& suite() const noexcept override { return *impl_->info; }
  byte_span public_key() const noexcept override { return impl_->public_key(); }
  Status verify(byte_span msg, byte_span sig, const VerifyOptions& opt) const override {
    return detail::verify_with(*impl_, msg, sig, opt);
  }

 private:
  std::unique_ptr<detail::VerifierImpl> impl_;
};

ProviderInfo pqsig_info() { return ProviderInfo{"pqsig", true, "", "pqsig " + std::string(pqsig::version())}; }

// The one table of the providers. pqsig's own backends are found by family (detail::backend_for);
// an optional provider's backend function returns nullptr when it is not compiled in or not
// available at run time. Adding a provider: a row in kProviderList and its (family, backend)
// rows in kFamilyTable; adding a family: its backend (src/suites/) and, where a provider has
// it, a row in kFamilyTable.
struct FamilyRow {
  std::string_view provider;
  Family family;
  const detail::Backend* (*backend)() noexcept;
};
constexpr FamilyRow kFamilyTable[] = {
    {"liboqs", Family::ml_dsa, &detail::liboqs_backend},   {"liboqs", Family::slh_dsa, &detail::liboqs_backend},
    {"liboqs", Family::ml_kem, &detail::liboqs_backend},   {"liboqs", Family::lms, &detail::liboqs_backend},
    {"liboqs", Family::xmss, &detail::liboqs_backend},     {"openssl", Family::ml_dsa, &detail::openssl_backend},
    {"openssl", Family::slh_dsa, &detail::openssl_backend},
};

struct ProviderRow {
  std::string_view name;
  ProviderInfo (*info)();
  bool own;  ///< pqsig itself: every family, through detail::backend_for
};
constexpr ProviderRow kProviderList[] = {
    {"pqsig", &pqsig_info, true},
    {"liboqs", &detail::liboqs_info, false},
    {"openssl", &detail::openssl_info, false},
};

// Provider is the table seen from outside: every operation is the backend's entry point for the
// suite's family, after the checks every provider shares (interface, operation, lengths).
class BackendProvider final : public Provider {
 public:
  explicit BackendProvider(const ProviderRow& row) : row_(row) {}
  std::string_view name() const noexcept override { return row_.name; }
  ProviderInfo info() const override { return row_.info(); }
  unsigned interfaces(const SuiteInfo& suite) const noexcept override {
    return detail::backend_interfaces(backend(suite), suite);
  }
  Result<std::shared_ptr<const PreparedKey>> prepare(const SuiteInfo& suite, byte_span pk) const override {
    const detail::Backend* b = backend(suite);
    if (!b || !b->verifier_from_public || detail::backend_interfaces(b, suite) == 0)
      return Error{Errc::unsupported, std::string(name()) + " does not implement " + std::string(suite.id)};
    auto r = b->verifier_from_public(suite, pk);
    if (!r) return r.error();
    (*r)->info = &suite;
    return std::shared_ptr<const PreparedKey>(std::make_shared<BackendKey>(std::move(r.value())));
  }
  unsigned operations(const SuiteInfo& suite) const noexcept override {
    const detail::Backend* b = backend(suite);
    if (!b || !b->operations) return 0;
    unsigned ops = b->operations(suite);
    // An operation is only offered where its entry point exists.
    if (!b->keypair) ops &= ~kKeygen;
    if (!b->signer_from_expanded || suite.cls != SuiteClass::signature) ops &= ~kSign;
    if (!b->kem_encaps_once || suite.cls != SuiteClass::kem) ops &= ~kEncaps;
    if (!b->kem_decaps_once || suite.cls != SuiteClass::kem) ops &= ~kDecaps;
    return ops;
  }
  Result<KeyPair> keygen(const SuiteInfo& suite) const override {
    if (!(operations(suite) & kKeygen)) return Provider::keygen(suite);
    return backend(suite)->keypair(suite);
  }
  Result<Encapsulation> encaps(const SuiteInfo& suite, byte_span ek) const override {
    if (!(operations(suite) & kEncaps)) return Provider::encaps(suite, ek);
    if (ek.size() != suite.public_key_size)
      return Error{Errc::invalid_length, std::string(suite.id) + ": encapsulation key must be " +
                                             std::to_string(suite.public_key_size) + " bytes"};
    return backend(suite)->kem_encaps_once(suite, ek);
  }
  Result<SecretBytes> decaps(const SuiteInfo& suite, byte_span dk, byte_span ct) const override {
    if (!(operations(suite) & kDecaps)) return Provider::decaps(suite, dk, ct);
    if (dk.size() != suite.expanded_key_size)
      return Error{Errc::invalid_length, std::string(suite.id) + ": decapsulation key must be the " +
                                             std::to_string(suite.expanded_key_size) + "-byte FIPS 203 dk"};
    return backend(suite)->kem_decaps_once(suite, dk, ct);
  }
  Result<bytes> sign(const SuiteInfo& suite, byte_span expanded_sk, byte_span msg, byte_span ctx) const override {
    if (!(operations(suite) & kSign)) return Provider::sign(suite, expanded_sk, msg, ctx);
    auto signer = backend(suite)->signer_from_expanded(suite, expanded_sk);
    if (!signer) return signer.error();
    (*signer)->info = &suite;
    SignOptions so;
    so.ctx = ctx;
    return (*signer)->sign(msg, so);
  }

 private:
  const detail::Backend* backend(const SuiteInfo& s) const noexcept {
    if (row_.own) return detail::backend_for(s);
    for (const auto& r : kFamilyTable)
      if (r.provider == row_.name && r.family == s.family) return r.backend();
    return nullptr;
  }
  const ProviderRow& row_;
};

}  // namespace

Result<std::shared_ptr<const Provider>> find(std::string_view name) {
  static const auto kProviders = [] {
    std::vector<std::shared_ptr<const Provider>> v;
    for (const auto& row : kProviderList) v.push_back(std::make_shared<BackendProvider>(row));
    return v;
  }();
  for (std::size_t i = 0; i < std::size(kProviderList); ++i)
    if (kProviderList[i].name == name) return kProviders[i];
  std::string known;
  for (const auto& row : kProviderList) known += (known.empty() ? "" : ", ") + std::string(row.name);
  return Error{Errc::invalid_argument, "unknown provider '" + std::string(name) + "' (" + known + ")"};
}

std::vector<std::shared_ptr<const Provider>> all() {
  std::vector<std::shared_ptr<const Provider>> out;
  for (const auto& row : kProviderList) out.push_back(find(row.name).value());
  return out;
}

std::vector<std::string> names() {
  std::vector<std::string> out;
  for (const auto& row : kProviderList) out.emplace_back(row.name);
  return out;
}

}  // namespace pqsig::provider
