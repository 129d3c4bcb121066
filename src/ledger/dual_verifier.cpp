// ledger::DualVerifier: two providers, enforce / shadow, disagreement records, refusal when a
// side cannot run. ledger::verify_single: one provider with the same checks.
#include <cmath>
#include <exception>
#include <optional>

#include "pqsig/ledger.hpp"

namespace pqsig::ledger {

std::string_view mode_name(Mode m) noexcept { return m == Mode::enforce ? "enforce" : "shadow"; }

namespace {

// A VerifyFn as a provider: the pure interface of every signature suite.
class FnKey final : public PreparedKey {
 public:
  FnKey(const SuiteInfo& s, byte_span pk, const VerifyFn* fn) : suite_(&s), pk_(pk.begin(), pk.end()), fn_(fn) {}
  const SuiteInfo& suite() const noexcept override { return *suite_; }
  byte_span public_key() const noexcept override { return pk_; }
  Status verify(byte_span msg, byte_span sig, const VerifyOptions&) const override {
    return (*fn_)(*suite_, pk_, msg, sig);
  }

 private:
  const SuiteInfo* suite_;
  bytes pk_;
  const VerifyFn* fn_;
};

class FnProvider final : public Provider {
 public:
  FnProvider(std::string name, VerifyFn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string_view name() const noexcept override { return name_; }
  provider::ProviderInfo info() const override { return {name_, static_cast<bool>(fn_), fn_ ? "" : "no function", ""}; }
  unsigned interfaces(const SuiteInfo& s) const noexcept override {
    return fn_ && s.cls != SuiteClass::kem ? provider::kPure : 0u;
  }
  Result<std::shared_ptr<const PreparedKey>> prepare(const SuiteInfo& s, byte_span pk) const override {
    return std::shared_ptr<const PreparedKey>(std::make_shared<FnKey>(s, pk, &fn_));
  }

 private:
  std::string name_;
  VerifyFn fn_;
};

Status guarded(const Provider& p, const Item& item, KeyCache* cache, const KeyCache::Digest* pk_sha256 = nullptr) noexcept {
  try {
    if (!item.suite) return Error{Errc::invalid_argument, "item without a suite"};
    if (auto st = p.supports(*item.suite, item.opt); !st) return st;
    std::shared_ptr<const PreparedKey> key;
    if (cache) {
      auto k = pk_sha256 ? cache->get(p, *item.suite, item.pk, *pk_sha256) : cache->get(p, *item.suite, item.pk);
      if (!k) return k.error();
      key = std::move(k.value());
    } else {
      auto k = p.prepare(*item.suite, item.pk);
      if (!k) return k.error();
      key = std::move(k.value());
    }
    if (!key) return Error{Errc::internal, std::string(p.name()) + " returned no key"};
    return key->verify(item.msg, item.sig, item.opt);
  } catch (const std::exception& e) {
    return Error{Errc::internal, std::string(p.name()) + " threw: " + e.what()};
  } catch (...) {
    return Error{Errc::internal, std::string(p.name()) + " threw a non-standard exception"};
  }
}

std::string reason_of(const Provider& p, const Status& st) {
  if (st.ok()) return {};
  return std::string(p.name()) + ": " + st.error().what();
}

}  // namespace

std::shared_ptr<const Provider> function_provider(std::string name, VerifyFn fn) {
  return std::make_shared<FnProvider>(std::move(name), std::move(fn));
}

Status verify_single(const Provider& p, const Item& item, KeyCache* cache) noexcept { return guarded(p, item, cache); }

DualVerifier::DualVerifier(std::shared_ptr<const Provider> first, std::shared_ptr<const Provider> second, Mode mode,
                           std::shared_ptr<KeyCache> cache, std::size_t max_records)
    : first_(std::move(first)), second_(std::move(second)), mode_(mode), cache_(std::move(cache)),
      max_records_(max_records) {
  if (!first_) first_ = function_provider("first", nullptr);
  if (!second_) second_ = function_provider("second", nullptr);
}

DualVerifier::DualVerifier(VerifyFn first, VerifyFn second, Mode mode, std::string first_name,
                           std::string second_name)
    : DualVerifier(function_provider(std::move(first_name), std::move(first)),
                   function_provider(std::move(second_name), std::move(second)), mode) {}

Status DualVerifier::check(const Provider& p, const Item& item, const KeyCache::Digest* pk_sha256) const {
  return guarded(p, item, cache_.get(), pk_sha256);
}

Verdict DualVerifier::verify(const SuiteInfo& suite, byte_span pub, byte_span msg, byte_span sig) {
  return verify(Item{&suite, pub, msg, sig, {}});
}

Verdict DualVerifier::verify(const Item& item) {
  Verdict v;
  ++total_;
  // Both sides must be able to run before either does: never downgrade to one verifier.
  Status can1, can2;
  try {
    if (!item.suite) {
      can1 = Error{Errc::invalid_argument, "item without a suite"};
    } else {
      can1 = first_->supports(*item.suite, item.opt);
      can2 = second_->supports(*item.suite, item.opt);
    }
  } catch (const std::exception& e) {
    can1 = Error{Errc::internal, std::string("provider threw: ") + e.what()};
  } catch (...) {
    can1 = Error{Errc::internal, "provider threw"};
  }
  if (!can1.ok() || !can2.ok()) {
    v.refused = true;
    v.reason = "refused: " + (!can1.ok() ? reason_of(*first_, can1) : reason_of(*second_, can2));
    ++refused_;
    ++rejected_;
    return v;
  }
  // The key cache's digest of pk, computed once for both sides.
  std::optional<KeyCache::Digest> pk_sha256;
  if (cache_) pk_sha256 = KeyCache::digest(item.pk);
  const KeyCache::Digest* d = pk_sha256 ? &*pk_sha256 : nullptr;
  const Status a = check(*first_, item, d);
  v.first_ok = a.ok();
  const std::string r1 = reason_of(*first_, a);
  if (mode_ == Mode::enforce && !v.first_ok) {
    ++skipped_;
    ++rejected_;
    v.reason = r1;
    return v;
  }
  const Status b = check(*second_, item, d);
  v.second_ran = true;
  v.second_ok = b.ok();
  const std::string r2 = reason_of(*second_, b);
  v.disagreement = v.first_ok != v.second_ok;
  if (mode_ == Mode::enforce) {
    v.accepted = v.first_ok && v.second_ok;
  } else {
    v.accepted = v.first_ok;  // shadow: the second verifier observes, the first decides
  }
  if (!v.accepted) v.reason = !v.first_ok ? r1 : r2;
  if (v.disagreement) {
    ++disagreements_;
    record(item, v, r1, r2);
  }
  if (v.accepted) {
    ++accepted_;
  } else {
    ++rejected_;
  }
  return v;
}

void DualVerifier::record(const Item& item, const Verdict& v, const std::string& r1, const std::string& r2) {
  std::lock_guard<std::mutex> lock(records_mu_);
  if (records_.size() >= max_records_) return;
  Disagreement d;
  d.suite = std::string(item.suite->id);
  d.pk.assign(item.pk.begin(), item.pk.end());
  d.msg.assign(item.msg.begin(), item.msg.end());
  d.sig.assign(item.sig.begin(), item.sig.end());
  d.ctx.assign(item.opt.ctx.begin(), item.opt.ctx.end());
  d.prehash = item.opt.prehash;
  d.input = item.opt.input;
  d.first_ok = v.first_ok;
  d.second_ok = v.second_ok;
  d.first_reason = r1;
  d.second_reason = r2;
  records_.push_back(std::move(d));
}

Stats DualVerifier::stats() const noexcept {
  return Stats{total_.load(), accepted_.load(), rejected_.load(), skipped_.load(), disagreements_.load(),
               refused_.load()};
}

std::vector<Disagreement> DualVerifier::disagreements() const {
  std::lock_guard<std::mutex> lock(records_mu_);
  return records_;
}

VerifyFn pqsig_verifier() {
  return [](const SuiteInfo& suite, byte_span pub, byte_span msg, byte_span sig) -> Status {
    auto vk = VerifyingKey::from_public(suite, pub);
    if (!vk) return vk.error();
    return vk->verify(msg, sig);
  };
}

std::uint64_t verify_units(double median_verify_ns, double mldsa44_median_verify_ns) noexcept {
  if (!(mldsa44_median_verify_ns > 0) || !(median_verify_ns >= 0)) return 0;
  return static_cast<std::uint64_t>(std::ceil(100.0 * median_verify_ns / mldsa44_median_verify_ns - 1e-9));
}

}  // namespace pqsig::ledger
