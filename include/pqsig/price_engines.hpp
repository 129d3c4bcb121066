// pqsig — `pqsig price --engine E[,E…]`: the same operations measured in the engine that will
// do the signing (pqsig, liboqs and OpenSSL through the providers; Node's WebCrypto and
// node:crypto, Cloudflare's workerd and @noble/post-quantum as subprocesses), every engine's
// output cross-checked against pqsig, and the same per-request / per-header / per-block verdicts
// side by side. docs/price.md, "Engines".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/price.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::price {

/// Every engine name, in display order: pqsig, liboqs, openssl, node-webcrypto, node-crypto,
/// workerd, noble.
const std::vector<std::string>& engine_names();
/// "pqsig,node,workerd" → the engines in display order, pqsig always first (it is the anchor of
/// the ratios and the checker of every other engine). `node` = node-webcrypto,node-crypto;
/// `all` = every engine. Unknown name → Errc::invalid_argument naming it and the known ones.
Result<std::vector<std::string>> parse_engines(std::string_view list);

/// What was cross-checked between an engine and pqsig for one suite.
struct EngineCheck {
  std::size_t engine_signed = 0;    ///< engine signatures (its own key) pqsig was given
  std::size_t pqsig_accepted = 0;   ///< … of which pqsig's verifier accepted
  std::size_t pqsig_signed = 0;     ///< pqsig signatures the engine was given
  std::size_t engine_accepted = 0;  ///< … of which the engine accepted
  bool tampered_rejected = false;   ///< the engine rejected a pqsig signature with one byte flipped
  bool ok = false;
  std::string error;                ///< the first mismatch (empty when ok)
};

struct EngineSuite {
  const SuiteInfo* suite = nullptr;
  bool available = false;
  std::string reason;               ///< why not available (engine lacks the suite, not installed…)
  bool error = false;               ///< a cross-check mismatch or a failed operation: no verdicts
  std::vector<OpResult> ops;        ///< keygen, sign, verify (cold), verify_prepared — what the engine has
  EngineCheck check;
  double resolution_ns = 0;         ///< workerd: resolution of one estimate (0 = in-process timing)
  std::size_t signature_bytes = 0;  ///< measured from the engine's own signatures
  std::size_t header_bytes = 0;     ///< the signed request's header section with that signature
  // derived (analyze_engines)
  std::vector<SurfaceVerdict> surfaces;
  std::optional<LedgerRow> ledger;  ///< the block pqsig's VU admit, verified by this engine
  const OpResult* op(std::string_view name) const noexcept;
};

struct EngineRun {
  std::string name;
  std::string version;
  std::string method;               ///< how it was timed
  bool available = false;
  std::string reason;               ///< not installed (and what to install), OpenSSL < 3.5, …
  std::vector<EngineSuite> suites;  ///< one per selected suite, in the run's order
};

struct EngineReport {
  std::vector<EngineRun> runs;
  std::string engines_dir;          ///< where the JavaScript engines were looked for
};

struct EngineOptions {
  std::string engines_dir;          ///< empty: locate_engines_dir("")
  std::size_t check_signatures = 4; ///< signatures cross-checked each way per suite
  std::size_t max_messages = 32;    ///< distinct messages sent to a subprocess engine
  std::size_t workerd_runs = 9;     ///< runs of (N operations − empty request)
  /// Warm-up of the in-process JavaScript engines: at least this long and 10 calls (V8 compiles
  /// hot code in tiers; the first calls of pure-JavaScript ML-DSA run several times slower).
  double js_warmup_ms = 250;
  double timeout_s = 0;             ///< per subprocess engine; 0 = derived from the budget
};

/// Where the JavaScript engines are: the explicit directory, else $PQSIG_ENGINES_DIR, else
/// bench/engines beside the build directory of this executable (<exe>/../bench/engines), else
/// ./bench/engines.
std::string locate_engines_dir(std::string_view explicit_dir);

/// The line to print when a subprocess engine is not installed.
std::string engines_install_hint(const std::string& engines_dir);

/// Measures every selected engine on the selected suites with the report's options (the JavaScript
/// engines with the same warm-up / batching / budget method; workerd timed from outside).
/// pqsig's figures are taken from rep.suites, which must already be measured. Never throws for an
/// engine that is missing, lacks a suite, fails or disagrees with pqsig: that is in the result.
EngineReport measure_engines(const std::vector<std::string>& engines, const std::vector<const SuiteInfo*>& suites,
                             const Report& rep, const EngineOptions& eo,
                             const std::function<void(const std::string&)>& progress = {});

/// The verdicts of every engine: the same evaluate_surface as pqsig's, headers from the engine's
/// own signature size, the ledger block pqsig's VU admit verified at the engine's cold verify.
void analyze_engines(EngineReport& er, const Report& rep);

/// The side-by-side tables (time, surfaces, headers, ledger) and the engines' notes.
std::string render_engines_text(const Report& rep);
/// The HTML section (grouped bars per engine, tables).
std::string render_engines_html(const Report& rep);
/// The JSON array of `--json`'s "engines".
std::string render_engines_json(const Report& rep);
/// `--jsonl`'s engine records (appended by render_jsonl): per engine an "engine" line, per (engine,
/// suite) an "engine_suite" line (check, sizes, surfaces, ledger), per (engine, suite, op) an
/// "engine_summary" line, then the in-process engines' raw "engine_sample" lines. docs/price.md.
std::string render_engines_jsonl(const Report& rep);

namespace detail {
/// A local subprocess: argv[0] is a path (no PATH lookup); stdin_data is written to it; stdout and
/// stderr are collected up to max_output bytes each; killed (its process group) after timeout_s
/// or when cancel is set.
struct ProcessResult {
  int exit_code = -1;      ///< -1: killed / did not exit normally
  bool timed_out = false;
  bool cancelled = false;
  bool truncated = false;  ///< output beyond max_output was dropped
  std::string out, err;
};
Result<ProcessResult> run_process(const std::vector<std::string>& argv, std::string_view stdin_data, double timeout_s,
                                  std::size_t max_output, const std::atomic<bool>* cancel = nullptr);
}  // namespace detail

}  // namespace pqsig::price

namespace pqsig::price {

// ============================================================== production calibration
/// A fixed reference workload measured on one host (`pqsig price --calibrate` on the production
/// host), so another host (`--calibration FILE`) can turn the production CPU factor from a guess
/// into a measured ratio.
struct Calibration {
  std::string host, cpu_model, date_utc, version;
  unsigned cores = 0;
  /// The reference items: "ml-dsa-44 sign", "ml-dsa-44 verify", "ed25519 sign", "ed25519 verify"
  /// → median ns (pqsig, the thread's CPU clock).
  std::vector<std::pair<std::string, double>> items;
};
inline constexpr std::size_t kCalibrationMaxBytes = 64 * 1024;
/// Measures the reference workload through pqsig (thread CPU time, budget_ms per operation).
Result<Calibration> measure_calibration(double budget_ms, const std::atomic<bool>* cancel = nullptr);
std::string calibration_to_json(const Calibration& c);
/// Strict: unknown / duplicate keys, wrong types, non-positive or non-finite times, unknown items,
/// more than 64 KiB → typed errors naming the key.
Result<Calibration> calibration_from_json(std::string_view text);
/// The production factor: the geometric mean over the items both hold of (production ÷ here).
/// No shared item → Errc::invalid_argument.
Result<double> calibration_factor(const Calibration& production, const Calibration& here);

}  // namespace pqsig::price
