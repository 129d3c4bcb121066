// pqsig::provider: the Provider interface over the one (family, provider) table of
// src/suites/registry.cpp. Every built-in provider is a TableProvider; the interface check
// (supports) is done here, once, before any provider code runs.
#include <string>

#include "pqsig/provider.hpp"
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
    switch (opt.input) {
      case VerifyOptions::Input::internal: return impl_->verify_internal(msg, sig);
      case VerifyOptions::Input::mu: return impl_->verify_mu(msg, sig);
      case VerifyOptions::Input::message: break;
    }
    SignOptions so;
    so.ctx = opt.ctx;
    so.prehash = opt.prehash;
    return impl_->verify(msg, sig, so);
  }

 private:
  std::unique_ptr<detail::VerifierImpl> impl_;
};

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
    return detail::backend_interfaces(detail::backend_for(suite, name_), suite);
  }
  Result<std::shared_ptr<const PreparedKey>> prepare(const SuiteInfo& suite, byte_span pk) const override {
    const detail::Backend* b = detail::backend_for(suite, name_);
    if (!b || !b->verifier_from_public || detail::backend_interfaces(b, suite) == 0)
      return Error{Errc::unsupported, std::string(name_) + " does not implement " + std::string(suite.id)};
    auto r = b->verifier_from_public(suite, pk);
    if (!r) return r.error();
    (*r)->info = &suite;
    return std::shared_ptr<const PreparedKey>(std::make_shared<TableKey>(std::move(r.value())));
  }
  Result<bytes> sign(const SuiteInfo& suite, byte_span expanded_sk, byte_span msg, byte_span ctx) const override {
    const detail::Backend* b = detail::backend_for(suite, name_);
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
