// pqsig — the ledger node's double verification: every signature is checked by two independent
// verifiers, in enforce mode (reject if either rejects; the second verifier is skipped when the
// first rejects) or shadow mode (both always run; the first decides; disagreements are counted),
// and blocks are priced in Verify Units.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::ledger {

/// One verifier: returns Ok for a valid signature, Errc::verify_failed (or another error) otherwise.
/// Must be thread-safe if the DualVerifier is shared across threads.
using VerifyFn = std::function<Status(const SuiteInfo& suite, byte_span pub, byte_span msg, byte_span sig)>;

enum class Mode { enforce, shadow };

struct Verdict {
  bool accepted = false;     ///< the decision the node acts on
  bool first_ok = false;
  bool second_ran = false;
  bool second_ok = false;
  bool disagreement = false; ///< both ran and disagreed
  std::string reason;        ///< why rejected (first failing verifier's message)
};

struct Stats {
  std::uint64_t total = 0, accepted = 0, rejected = 0, second_skipped = 0, disagreements = 0;
};

class DualVerifier {
 public:
  DualVerifier(VerifyFn first, VerifyFn second, Mode mode, std::string first_name = "first",
               std::string second_name = "second");
  Verdict verify(const SuiteInfo& suite, byte_span pub, byte_span msg, byte_span sig);
  Stats stats() const noexcept;
  Mode mode() const noexcept { return mode_; }

 private:
  VerifyFn first_, second_;
  Mode mode_;
  std::string first_name_, second_name_;
  std::atomic<std::uint64_t> total_{0}, accepted_{0}, rejected_{0}, skipped_{0}, disagreements_{0};
};

/// The pqsig suite API as a VerifyFn (decodes the public key on every call; a node that verifies
/// many signatures from one key should cache VerifyingKey objects instead).
VerifyFn pqsig_verifier();

/// Verify Units (issue: VU = ceil(100 × median verify / median verify of ML-DSA-44)).
std::uint64_t verify_units(double median_verify_ns, double mldsa44_median_verify_ns) noexcept;

}  // namespace pqsig::ledger
