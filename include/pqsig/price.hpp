// pqsig — `pqsig price`: what every suite costs on this machine, per operation, per request,
// per block and per header. The measurement engine (generic over the suite registry), the
// workload model (surfaces, budgets, caps) and the report writers (text, JSON, JSONL, HTML).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pqsig/common.hpp"
#include "pqsig/suite.hpp"

namespace pqsig::price {

// ============================================================== statistics
/// Summary of one operation's samples (nanoseconds per operation).
struct Stats {
  std::size_t n = 0;
  double min_ns = 0, median_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0, mean_ns = 0, stddev_ns = 0;
  /// Tail spread: p90 / median (1.0 = no tail). 0 when there are no samples.
  double spread() const noexcept { return median_ns > 0 ? p90_ns / median_ns : 0.0; }
  /// Operations per second on one core at the median.
  double per_second() const noexcept { return median_ns > 0 ? 1e9 / median_ns : 0.0; }
};

/// Percentile of ascending-sorted data, linear interpolation between closest ranks
/// (R type 7 / NumPy default): position q*(n-1). q in [0,1]. Empty → 0.
double percentile(std::span<const double> sorted, double q) noexcept;
/// Stats of unsorted samples.
Stats compute_stats(std::vector<double> samples);

// ============================================================== the sample request
/// The request whose Web Bot Auth signature base is signed (draft-meunier-webbotauth-httpsig-protocol:
/// covered components "@authority" and "signature-agent";key=<label>, tag="web-bot-auth").
struct SampleRequest {
  std::string method = "GET";
  std::string authority = "example.com";
  std::string path = "/";
  std::string signature_agent = "https://signature-agent.example";  ///< Signature-Agent URL
  std::string label = "sig1";      ///< the signature's label in Signature / Signature-Input
  std::string agent_key = "sig1";  ///< its key in the Signature-Agent dictionary
  std::string tag = "web-bot-auth";
  std::int64_t created = 1767225600;  ///< 2026-01-01T00:00:00Z; varied per message
  std::int64_t validity_s = 3600;     ///< expires = created + validity
  /// The other request headers (name, value), counted towards the header cap.
  std::vector<std::pair<std::string, std::string>> headers = {
      {"User-Agent", "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://signature-agent.example/bot)"},
      {"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"},
      {"Accept-Encoding", "gzip, deflate, br"},
      {"Accept-Language", "en-US,en;q=0.5"},
  };
};

/// Per-signature parameters of one Web Bot Auth signature.
struct SignatureParams {
  std::string alg;     ///< RFC 9421 alg token (the suite's http_alg, else its id)
  std::string keyid;   ///< JWK thumbprint (43 base64url characters)
  std::int64_t created = 0;
  std::int64_t expires = 0;
  std::string nonce;   ///< base64 of 64 random bytes
};

/// The alg token written into Signature-Input for a suite.
std::string http_alg_token(const SuiteInfo& s);
/// `("@authority" "signature-agent";key="sig1");created=…;keyid="…";alg="…";expires=…;nonce="…";tag="…"`
std::string signature_params_value(const SampleRequest& r, const SignatureParams& p);
/// The RFC 9421 signature base (lines joined by LF, no trailing LF).
std::string signature_base(const SampleRequest& r, const SignatureParams& p);
/// Header field values: `sig1=(…)…` and `sig1=:base64:`.
std::string signature_input_value(const SampleRequest& r, const SignatureParams& p);
std::string signature_value(const SampleRequest& r, byte_span sig);
/// Length of a Structured-Field byte sequence holding n bytes: `:` base64 `:`.
std::size_t sf_byte_sequence_length(std::size_t n) noexcept;
/// Bytes of the request line and header section without any signature (incl. Host and the
/// Signature-Agent header, CRLFs and the final empty line).
std::size_t request_header_bytes(const SampleRequest& r);
/// Bytes the `Signature-Input: …\r\n` + `Signature: …\r\n` lines add for one signature of sig_len bytes.
std::size_t signature_header_bytes(const SampleRequest& r, const SignatureParams& p, std::size_t sig_len);
/// Typical parameters for a suite (fixed nonce/keyid lengths; index varies nonce and created).
SignatureParams sample_params(const SampleRequest& r, const SuiteInfo& s, std::size_t index);

// ============================================================== the workload
struct Surface {
  std::string name;
  double signatures_per_request = 1;
  double verifications_per_request = 0;
};

struct HybridPair {
  std::string classical;  ///< e.g. "ed25519"
  std::string pq;         ///< e.g. "ml-dsa-65"
};

struct Workload {
  std::vector<Surface> surfaces;
  double cpu_budget_ms = 10.0;          ///< per request
  double production_cpu_factor = 1.0;   ///< production CPU cost / this machine's
  std::size_t header_cap_bytes = 8192;  ///< request-header cap (above: 431)
  std::uint64_t block_budget_vu = 200000;
  std::string vu_reference = "ml-dsa-44";
  std::vector<std::string> suites;      ///< empty = every suite of the registry
  std::vector<HybridPair> hybrids;      ///< computed pairs (classical + PQ, two signatures)
  SampleRequest request;
};

/// The built-in default: the crawler's surfaces (crawl 1, playlist 21, discovery 28), 10 ms,
/// factor 1, 8 KiB, 200,000 VU.
Workload default_workload();
/// Pretty JSON (what `--print-workload` prints; round-trips through workload_from_json).
std::string workload_to_json(const Workload& w);
/// Strict: unknown keys, wrong types, bad values → Errc::invalid_encoding / invalid_argument with
/// the offending key in the message. Missing keys keep their defaults.
Result<Workload> workload_from_json(std::string_view text);

// ============================================================== verdicts (pure arithmetic)
struct SurfaceVerdict {
  std::string surface;
  double cpu_ms_median = 0;   ///< per request, production factor applied
  double cpu_ms_p90 = 0;
  double pct_budget_median = 0;
  double pct_budget_p90 = 0;
  bool fits_median = false;
  bool fits_p90 = false;
  double over_ms_median = 0;  ///< > 0: by how much the median request exceeds the budget
  double over_ms_p90 = 0;
  std::size_t header_bytes = 0;  ///< total request header bytes of one signed request
  bool header_fits = false;      ///< false → the server answers 431
};
/// CPU per request = factor × (signatures × sign + verifications × verify).
SurfaceVerdict evaluate_surface(const Surface& s, const Workload& w, double sign_med_ns, double sign_p90_ns,
                                double verify_med_ns, double verify_p90_ns, std::size_t header_bytes);

/// VU = ceil(100 × verify / reference verify). 0 if either is not positive.
std::uint64_t verify_units(double verify_ns, double reference_ns) noexcept;

struct LedgerRow {
  std::uint64_t vu = 0;
  std::uint64_t vu_dual = 0;          ///< dual verification, relative to the dual reference
  std::uint64_t sigs_per_block = 0;   ///< floor(block budget / VU)
  double block_ms_one_core = 0;
  double block_ms_all_cores = 0;
  double block_ms_dual_one_core = 0;
  double block_ms_dual_all_cores = 0;
  bool dual_estimated = true;         ///< dual = 2 × verify until a second verifier exists
};
LedgerRow ledger_row(double verify_ns, double reference_ns, double dual_verify_ns, double dual_reference_ns,
                     std::uint64_t block_budget_vu, unsigned cores);

// ============================================================== measurement
struct MeasureOptions {
  double budget_ms_per_op = 300;   ///< stop once this much time is spent (after min_samples)
  double warmup_ms = 20;
  std::size_t min_samples = 5;
  /// Operations slower than slow_op_ns per call (SLH-DSA "s" signing, RSA keygen): the warm-up
  /// call counts as the first sample (cold effects are negligible at that length) and
  /// min_samples_slow applies instead of min_samples.
  std::size_t min_samples_slow = 5;
  double slow_op_ns = 50e6;
  std::size_t max_samples = 50000;
  double min_sample_ns = 20000;    ///< faster ops are timed in batches of this length
  std::size_t distinct_messages = 256;
  std::size_t message_size = 0;    ///< 0 = the Web Bot Auth signature base
  bool keep_samples = false;       ///< keep every raw sample (for --jsonl)
  /// Time samples with the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) instead of
  /// std::chrono::steady_clock: robust on a shared, loaded machine. The budget stays wall time.
  bool thread_cpu_time = false;
};

/// One timed operation. run() performs one operation (cycling its own inputs).
struct Operation {
  std::string name;  ///< keygen | sign | verify | encaps | decaps
  std::function<Status()> run;
};

struct OpResult {
  std::string name;
  Stats stats;
  std::size_t batch = 1;         ///< operations per timed sample
  std::vector<double> samples;   ///< ns per operation, in order (only with keep_samples)
  std::string error;             ///< non-empty: the operation failed while measured
};

struct Sizes {
  std::size_t public_key = 0;
  std::size_t private_key = 0;       ///< canonical (seed where one exists)
  std::size_t expanded_key = 0;      ///< 0 = no expanded form
  std::size_t output = 0;            ///< signature / ciphertext (measured)
  std::size_t shared_secret = 0;
  std::size_t sf_bytes = 0;          ///< signature as SF byte sequence `:…:`
  std::size_t signature_headers = 0; ///< Signature + Signature-Input lines it adds
  std::size_t request_headers = 0;   ///< the whole signed request's header section
};

/// Operations prepared for one suite (keys generated, inputs ready).
struct PreparedSuite {
  std::vector<Operation> ops;
  Sizes sizes;
  std::size_t message_bytes = 0;
  std::shared_ptr<void> state;  ///< keeps the operations' inputs alive
};

/// Prepares keygen/sign/verify (KEMs: keygen/encaps/decaps) through the suite API.
/// A suite whose backend has not landed → Errc::unsupported.
Result<PreparedSuite> prepare_suite(const SuiteInfo& s, const SampleRequest& r, const MeasureOptions& o);
/// Warm-up, batch sizing, then samples until min_samples and the time budget are both met.
OpResult measure_operation(const Operation& op, const MeasureOptions& o);

struct SuiteResult {
  const SuiteInfo* suite = nullptr;
  bool available = false;
  std::string note;              ///< why not available / what failed
  std::vector<OpResult> ops;
  Sizes sizes;                   ///< registry sizes when not available
  std::size_t message_bytes = 0;
  const OpResult* op(std::string_view name) const noexcept;
};

struct Progress {
  std::size_t index = 0, total = 0;
  std::string suite, op;
};
using ProgressFn = std::function<void(const Progress&)>;

/// Measures one suite; never throws for an unavailable or failing suite.
SuiteResult measure_suite(const SuiteInfo& s, const SampleRequest& r, const MeasureOptions& o,
                          const ProgressFn& progress = {}, std::size_t index = 0, std::size_t total = 0);
/// Same, from already prepared operations (tests inject operations here).
SuiteResult measure_prepared(const SuiteInfo& s, Result<PreparedSuite> prepared, const MeasureOptions& o,
                             const ProgressFn& progress = {}, std::size_t index = 0, std::size_t total = 0);

// ============================================================== the environment
struct Environment {
  std::string cpu_model, cpu_flags, os, governor, compiler, cxx_flags, build_type, version, commit, date_utc,
      hostname;
  unsigned cores = 1;
};
Environment capture_environment();

// ============================================================== the report
struct HybridRow {
  std::string name;               ///< "ed25519 + ml-dsa-65" or a composite suite id
  bool composite = false;         ///< measured as a registry composite suite
  bool available = false;
  std::string note;
  std::size_t classical_sig = 0, hybrid_sig = 0;       ///< bytes per signature before / after
  std::size_t classical_pk = 0, hybrid_pk = 0;         ///< bytes per embedded public key
  std::size_t classical_header = 0, hybrid_header = 0; ///< signature header bytes (two labels for pairs)
  double classical_verify_ns = 0, hybrid_verify_ns = 0;
  double classical_sign_ns = 0, hybrid_sign_ns = 0;
  double verifies_per_s_before = 0, verifies_per_s_after = 0;
};

struct SuiteVerdicts {
  const SuiteResult* result = nullptr;
  std::vector<SurfaceVerdict> surfaces;
  std::optional<LedgerRow> ledger;
};

struct Report {
  Environment env;
  Workload workload;
  MeasureOptions options;
  std::string mode;  ///< "quick" | "default" | "custom"
  std::vector<SuiteResult> suites;
  double wall_seconds = 0;
  // derived (by analyze)
  std::vector<SuiteVerdicts> verdicts;
  std::vector<HybridRow> hybrids;
  double reference_verify_ns = 0;  ///< 0: the VU reference suite was not measured
};

/// Computes verdicts, ledger rows and hybrid rows from the measured suites.
void analyze(Report& rep);

/// Selects suites: the workload list, overridden by a comma-separated filter. Unknown → unknown_suite.
Result<std::vector<const SuiteInfo*>> select_suites(const Workload& w, std::string_view filter);

std::string render_text(const Report& rep);
std::string render_json(const Report& rep);
/// Environment record, one summary record per operation, then every raw sample.
std::string render_jsonl(const Report& rep);
std::string render_html(const Report& rep);

/// Formatting helpers (shared by the renderers; exposed for tests).
std::string format_ns(double ns);
std::string format_bytes(std::size_t n);

}  // namespace pqsig::price
