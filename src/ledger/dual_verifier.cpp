#include <cmath>

#include "pqsig/ledger.hpp"

namespace pqsig::ledger {

DualVerifier::DualVerifier(VerifyFn first, VerifyFn second, Mode mode, std::string first_name,
                           std::string second_name)
    : first_(std::move(first)),
      second_(std::move(second)),
      mode_(mode),
      first_name_(std::move(first_name)),
      second_name_(std::move(second_name)) {}

Verdict DualVerifier::verify(const SuiteInfo& suite, byte_span pub, byte_span msg, byte_span sig) {
  Verdict v;
  ++total_;
  Status a = first_ ? first_(suite, pub, msg, sig) : Status(Errc::internal, "no first verifier");
  v.first_ok = a.ok();
  if (!a.ok()) v.reason = first_name_ + ": " + a.error().what();
  if (mode_ == Mode::enforce && !v.first_ok) {
    ++skipped_;
    ++rejected_;
    v.accepted = false;
    return v;
  }
  Status b = second_ ? second_(suite, pub, msg, sig) : Status(Errc::internal, "no second verifier");
  v.second_ran = true;
  v.second_ok = b.ok();
  v.disagreement = v.first_ok != v.second_ok;
  if (v.disagreement) ++disagreements_;
  if (mode_ == Mode::enforce) {
    v.accepted = v.first_ok && v.second_ok;
    if (!v.second_ok) v.reason = second_name_ + ": " + b.error().what();
  } else {
    v.accepted = v.first_ok;  // shadow: the second verifier observes, the first decides
  }
  if (v.accepted) {
    ++accepted_;
  } else {
    ++rejected_;
  }
  return v;
}

Stats DualVerifier::stats() const noexcept {
  return Stats{total_.load(), accepted_.load(), rejected_.load(), skipped_.load(), disagreements_.load()};
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
