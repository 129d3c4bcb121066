// pqsig — `pqsig price`: what every suite costs on this machine, per operation, per request,
// per block and per header. The measurement engine (generic over the suite registry), the
// workload model (surfaces, budgets, caps) and the report writers (text, JSON, JSONL, HTML).
#pragma once

#include <array>
#include <atomic>
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
  /// Below this many timed samples a p90 / p99 is mostly the maximum: it is shown with a caveat.
  static constexpr std::size_t kMinTailSamples = 20;
  bool tail_reliable() const noexcept { return n >= kMinTailSamples; }
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
  /// The keys are reused across requests (a signer and a verifier that keep their keys prepared):
  /// the verdict then uses the prepared figures (sign_prepared, verify_prepared). false (the
  /// default): the cold figures (sign from the encoded private key, verify from the encoded public key).
  bool key_reuse = false;
  /// Requests a day on this surface. Prices the "key lifetime" of a stateful suite (LMS/HSS, XMSS):
  /// a key of 2^h one-time signatures lasts 2^h / (signatures_per_request x requests_per_day)
  /// days on this surface alone, and 2^h / (the sum over surfaces) days signing on all of them.
  /// 0 = this surface is left out of the key lifetime.
  double requests_per_day = 0;
};

struct HybridPair {
  std::string classical;  ///< e.g. "ed25519"
  std::string pq;         ///< e.g. "ml-dsa-65"
};

/// The TLS surface of a workload (`pqsig price --tls`, include/pqsig/price_tls.hpp): the settlement
/// write-up's 7 parties x 12 mutually authenticated connections = 42 handshakes per round. The
/// CLI's --tls-* options override these values.
struct TlsWorkload {
  std::size_t handshakes_per_round = 42;  ///< handshakes per round (7 parties x 12 connections / 2)
  std::size_t parties = 7;                ///< each takes part in 2 x handshakes_per_round / parties
  double latency_budget_ms = 5;           ///< budget for the party latency a row adds vs the anchor
  /// Intermediate CAs between the trusted root and each leaf (0 = leaf issued by the root).
  std::size_t chain_depth = 1;
  /// Certificate algorithms and key-exchange groups to measure, in display order
  /// (default_workload(): all of tls_cert_names() / tls_group_names()).
  std::vector<std::string> certs;
  std::vector<std::string> groups;
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
  TlsWorkload tls;                      ///< `price --tls`
};

/// The built-in default: the crawler's surfaces (crawl 1, playlist 21, discovery 28), 10 ms,
/// factor 1, 8 KiB, 200,000 VU; TLS: 42 handshakes per round, 7 parties, 5 ms, chain depth 1,
/// every certificate algorithm and group.
Workload default_workload();
/// Pretty JSON (what `--print-workload` prints; round-trips through workload_from_json).
std::string workload_to_json(const Workload& w);
/// Strict: unknown keys, wrong types, bad values → Errc::invalid_encoding / invalid_argument with
/// the offending key in the message. Missing keys keep their defaults.
Result<Workload> workload_from_json(std::string_view text);

// ============================================================== verdicts (pure arithmetic)
/// One operation's figures a verdict uses.
struct OpFigures {
  double median_ns = 0, mean_ns = 0, p90_ns = 0;
};
/// Signing is a rejection loop (ML-DSA): its cost per signature is the mean, which lies above the
/// median, and a CPU budget is spent on the mean. So a surface's budget verdict (throughput) uses
/// the mean, its latency verdict the p90 (the tail); the median is reported beside them.
struct SurfaceVerdict {
  std::string surface;
  /// Which figures the verdict used: "cold" (from the encoded keys) or "prepared" (key_reuse).
  std::string figure = "cold";
  double cpu_ms_mean = 0;     ///< per request, production factor applied: the throughput verdict
  double cpu_ms_median = 0;   ///< shown beside it
  double cpu_ms_p90 = 0;      ///< the latency (tail) verdict
  double pct_budget_mean = 0;
  double pct_budget_median = 0;
  double pct_budget_p90 = 0;
  bool fits_mean = false;
  bool fits_median = false;
  bool fits_p90 = false;
  double over_ms_mean = 0;    ///< > 0: by how much the mean request exceeds the budget
  double over_ms_median = 0;
  double over_ms_p90 = 0;
  std::size_t header_bytes = 0;  ///< total request header bytes of one signed request
  bool header_fits = false;      ///< false → the server answers 431
};
/// CPU per request = factor × (signatures × sign + verifications × verify), at the mean, the median
/// and the p90; `figure` names the figures used ("cold" | "prepared").
SurfaceVerdict evaluate_surface(const Surface& s, const Workload& w, const OpFigures& sign, const OpFigures& verify,
                                std::size_t header_bytes, std::string figure = "cold");
/// The same with mean = median (operations without a rejection loop; tests on known figures).
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
  /// Set (e.g. from a SIGINT handler) → the current operation stops after its current sample and
  /// the remaining ones are skipped; what was measured is kept and marked interrupted.
  const std::atomic<bool>* cancel = nullptr;
  bool cancelled() const noexcept { return cancel && cancel->load(std::memory_order_relaxed); }
};

/// One timed operation. run() performs one operation (cycling its own inputs).
struct Operation {
  /// keygen | sign | sign_prepared | verify | verify_prepared | encaps | encaps_prepared | decaps |
  /// decaps_prepared. The plain names are cold: from the encoded key on every call (sign:
  /// SigningKey::from_private + sign; verify: VerifyingKey::from_public + verify; encaps /
  /// decaps: kem_encaps_once / kem_decaps_once), as liboqs measures them; `_prepared` uses a key
  /// decoded once (a crawler signing with one key, an origin checking one crawler's requests).
  std::string name;
  std::function<Status()> run;
  /// Time of one call already made while preparing (0 = none). When it is a slow call it serves
  /// as the warm-up and first sample, so a multi-second signature is not paid twice.
  double presample_ns = 0;
  /// > 0: at most this many calls in all (warm-up included, no batching; a presample counts as
  /// the first sample). Stateful signing spends a one-time index per call and key generation
  /// builds a tree: their rows stay cheap and within the key.
  std::size_t max_calls = 0;
  /// Time with the steady clock even under --cpu-time: the operation waits on fsync, and that
  /// wait is its cost (stateful signing and reservations).
  bool wall_clock = false;
  /// > 0: this operation's own time budget in ms (below MeasureOptions::budget_ms_per_op).
  double budget_ms = 0;
};

struct OpResult {
  std::string name;
  Stats stats;
  std::size_t batch = 1;         ///< operations per timed sample
  std::vector<double> samples;   ///< ns per operation, in order (only with keep_samples)
  std::string error;             ///< non-empty: the operation failed while measured
  bool interrupted = false;      ///< cut short by MeasureOptions::cancel
  /// Non-empty: NOT measured on this suite but extrapolated from measured figures, and how
  /// (e.g. a tall stateful tree: "lms-sha256-m32-h10-w4 keygen x 2^10"). stats then hold the
  /// extrapolated figures (n = the basis's sample count).
  std::string extrapolated;
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

/// How a stateful suite's (SuiteInfo::stateful) signing was priced: every signature goes through
/// its state (lms::StatefulSigner / xmss::StatefulSigner), which reserves blocks of one-time
/// indices in a state file synced to disk (write, fsync, rename, fsync of the directory) before
/// any signature from a block leaves, and appends (index, SHA-256(message)) to an fsynced audit log.
struct StatefulPricing {
  std::uint64_t max_signatures = 0;  ///< 2^h: what one key can sign
  std::size_t block = 64;            ///< the default reservation block of the "sign" row
  /// One reservation (state file write + fsync + rename + directory fsync), wall-clock median, of
  /// 1 index and of `block` indices; per signature that is reserve_1_ns and reserve_block_ns / block.
  double reserve_1_ns = 0, reserve_block_ns = 0;
  std::string state_dir;             ///< where the state was written (the machine's temp dir)
  std::string basis;                 ///< what was measured on this suite, what was extrapolated from what
  double reserve_per_signature_ns(std::size_t blk) const noexcept {
    return blk <= 1 ? reserve_1_ns : reserve_block_ns / static_cast<double>(blk);
  }
};

/// Operations prepared for one suite (keys generated, inputs ready).
struct PreparedSuite {
  std::vector<Operation> ops;
  /// Figures that are not measured here but derived (OpResult::extrapolated), appended after ops.
  std::vector<OpResult> derived;
  std::optional<StatefulPricing> stateful;
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
  bool interrupted = false;      ///< some operations were cut short or skipped (Ctrl-C)
  Sizes sizes;                   ///< registry sizes when not available
  std::size_t message_bytes = 0;
  std::optional<StatefulPricing> stateful;  ///< stateful suites only
  const OpResult* op(std::string_view name) const noexcept;
};

struct Progress {
  std::size_t index = 0, total = 0;
  std::string suite, op;  ///< op "prepare" before keys are made, else the operation about to run
  /// Non-null: this call reports an operation just measured (op_index-th of the suite).
  const OpResult* finished = nullptr;
  std::size_t op_index = 0;
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
  /// /proc/loadavg (1, 5, 15 minutes) before and after the run; -1 = not readable.
  std::array<double, 3> load_before{-1, -1, -1}, load_after{-1, -1, -1};
  /// CPU time other processes used during the run, in % of all cores (from /proc/stat minus this
  /// process's own CPU time); -1 = not measured.
  double others_cpu_pct = -1;
  /// The machine was busy (others' load during the run): tails and medians are inflated.
  bool busy = false;
  std::string busy_reason;
};
Environment capture_environment();

/// A snapshot of the machine's load: load averages, all CPUs' busy time, this process's CPU time.
struct LoadSnapshot {
  std::array<double, 3> loadavg{-1, -1, -1};
  double all_busy_s = -1;   ///< busy (non-idle, non-iowait) CPU seconds of every core since boot
  double self_cpu_s = 0;    ///< this process's user + system CPU seconds
  double wall_s = 0;        ///< steady clock seconds
};
LoadSnapshot sample_load();
/// Records load_before / load_after, others_cpu_pct and the busy verdict: busy when the 1-minute
/// load before the run exceeds half the cores, or other processes used more than 25% of the
/// machine during it.
void record_load(Environment& e, const LoadSnapshot& before, const LoadSnapshot& after);
/// Pure part of record_load (tested on made-up figures).
void judge_load(Environment& e, double others_busy_s, double wall_s);

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

// ============================================================== multi-core throughput (--multi N)
/// Runs each function in its own thread, all started together, each calling its function
/// repeatedly until duration_ms has passed (an operation in flight is finished). Returns the
/// summed rate in operations per second; an error from any call stops the run with that error.
Result<double> run_throughput(const std::vector<std::function<Status()>>& per_thread, double duration_ms,
                              const std::atomic<bool>* cancel = nullptr);

struct ThroughputRow {
  std::string op;
  unsigned threads = 0;
  double ops_per_s_1 = 0;      ///< one thread, same method and duration
  double ops_per_s_n = 0;      ///< `threads` threads, each with its own keys
  std::string error;
  /// ops/s on N cores ÷ ops/s on one core (ideal: N).
  double scaling() const noexcept { return ops_per_s_1 > 0 ? ops_per_s_n / ops_per_s_1 : 0.0; }
};
/// Throughput of every operation of a suite on 1 and on `threads` threads (each thread prepares
/// its own keys and inputs). Unavailable suite → its error.
Result<std::vector<ThroughputRow>> measure_throughput(const SuiteInfo& s, const SampleRequest& r,
                                                      const MeasureOptions& o, unsigned threads,
                                                      double duration_ms);

// ============================================================== the prediction (--predict FILE)
/// A prediction written before the run (the settlement write-up's practice): expected medians per
/// suite and operation, expected verdicts per suite and surface ("fits" | "tail" | "over") and
/// per header cap ("fits" | "431"). Kept byte-for-byte as written.
struct Prediction {
  std::string text;    ///< the file, unchanged
  std::string source;  ///< its path
  std::string note;    ///< the author's own words (optional "note")
  std::string file_mtime_utc;  ///< when the file was last written (set by the CLI)
  struct Median {
    std::string suite, op;
    double median_ns = 0;
  };
  struct Verdict {
    std::string suite, surface;  ///< surface "headers" = the header cap
    std::string verdict;
  };
  std::vector<Median> medians;
  std::vector<Verdict> verdicts;
};
/// Limits of a prediction file.
inline constexpr std::size_t kPredictionMaxBytes = 1 << 20;
inline constexpr std::size_t kPredictionMaxNote = 4096;
/// Strict: unknown keys, duplicate keys, unknown suites / operations / surfaces, wrong types and
/// out-of-range numbers are typed errors naming the offending key. `null` = no prediction.
Result<Prediction> prediction_from_json(std::string_view text, const Workload& w);
/// A starting file: every operation and surface of the given suites, values null.
std::string prediction_template(const Workload& w, const std::vector<const SuiteInfo*>& suites);

struct ReviewRow {
  std::string suite;
  std::string item;              ///< an operation ("sign") or a surface ("discovery", "headers")
  bool is_verdict = false;
  bool measured = false;         ///< false: the suite / operation was not measured in this run
  double predicted_ns = 0, measured_ns = 0;
  double ratio = 0;              ///< measured ÷ predicted (medians)
  std::string predicted_verdict, measured_verdict;
  bool flipped = false;          ///< verdicts: measured differs from predicted
};
struct Report;
/// The review of a prediction against a report's measurements (called by analyze).
std::vector<ReviewRow> review_prediction(const Prediction& p, const Report& rep);
/// The measured verdict word of a surface: fits (median and p90) | tail (median only) | over.
std::string verdict_word(const SurfaceVerdict& v);

/// The "key lifetime" surface of a stateful suite: how long 2^h one-time signatures last.
struct KeyLifetime {
  std::string surface;            ///< a surface's name, or kAllSurfaces (one key on every surface)
  double signatures_per_day = 0;  ///< signatures_per_request x requests_per_day (summed for all)
  double days = 0;                ///< max_signatures / signatures_per_day (+inf when none a day)
};
inline constexpr std::string_view kAllSurfaces = "all surfaces";
/// Days a key of max_signatures lasts at signatures_per_request x requests_per_day (+inf when
/// either is 0). Pure arithmetic.
double key_lifetime_days(std::uint64_t max_signatures, double signatures_per_request,
                         double requests_per_day) noexcept;
/// One row per surface with requests_per_day > 0, then kAllSurfaces (their sum) when there are
/// any. Empty for max_signatures == 0 (a stateless suite).
std::vector<KeyLifetime> key_lifetimes(std::uint64_t max_signatures, const Workload& w);

struct SuiteVerdicts {
  const SuiteResult* result = nullptr;
  std::vector<SurfaceVerdict> surfaces;
  std::optional<LedgerRow> ledger;
  std::vector<KeyLifetime> lifetimes;  ///< stateful suites: the key lifetime surface
};

struct EngineReport;  // include/pqsig/price_engines.hpp

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
  bool interrupted = false;        ///< Ctrl-C: the report holds what was measured so far
  std::size_t suites_planned = 0;  ///< suites selected (interrupted runs measured fewer)
  unsigned multi_threads = 0;      ///< --multi N (0 = not run)
  std::vector<std::pair<const SuiteInfo*, std::vector<ThroughputRow>>> throughput;
  std::optional<Prediction> prediction;
  std::vector<ReviewRow> review;   ///< derived (by analyze) when a prediction was given
  std::shared_ptr<EngineReport> engines;  ///< --engine: every engine side by side (price_engines.hpp)
};

/// Computes verdicts, ledger rows and hybrid rows from the measured suites.
void analyze(Report& rep);

/// Selects suites: the workload list, overridden by a comma-separated filter. Unknown → unknown_suite.
Result<std::vector<const SuiteInfo*>> select_suites(const Workload& w, std::string_view filter);

std::string render_text(const Report& rep);
/// One paragraph: what fits each surface and the header cap, what does not and by how much.
std::string verdict_paragraph(const Report& rep);
/// Streaming pieces of the text report: the lines printed before measuring, the time table's
/// header and one suite's rows (id_width: the suite column's width), and everything after the
/// time table (verdict first).
std::string render_text_intro(const Report& rep);
std::string render_time_header(std::size_t id_width);
std::string render_time_rows(const SuiteResult& r, std::size_t id_width);
/// One operation's row (the suite id shown on the first operation only).
std::string render_time_row(std::string_view suite_id, const OpResult& op, bool first, std::size_t id_width);
/// A suite that could not be measured, as a time-table row.
std::string render_time_unavailable(const SuiteResult& r, std::size_t id_width);
std::string render_text_summary(const Report& rep);
std::size_t time_id_width(const std::vector<const SuiteInfo*>& suites);
std::string render_json(const Report& rep);
/// Environment record, one summary record per operation, then every raw sample.
std::string render_jsonl(const Report& rep);
std::string render_html(const Report& rep);

/// Formatting helpers (shared by the renderers; exposed for tests).
std::string format_ns(double ns);
std::string format_bytes(std::size_t n);
/// Operations per second, readable at every magnitude: 1.23M, 65k, 6,503, 36.0, 3.60, 0.272.
std::string format_rate(double per_s);

}  // namespace pqsig::price
