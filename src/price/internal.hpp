// Measurement helpers shared inside price (measure.cpp, ledger_bench.cpp): one sample clock,
// one median, one rendering of the load average.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "pqsig/price.hpp"

namespace pqsig::price::detail {

/// A stateful suite (SuiteInfo::stateful), measured through its state: src/price/stateful.cpp.
SuiteResult measure_stateful_suite(const SuiteInfo& s, const SampleRequest& r, const MeasureOptions& o,
                                   const ProgressFn& progress, std::size_t index, std::size_t total);
/// Signature and request header sizes of a suite with the given output size (measure.cpp).
Sizes signature_sizes(const SampleRequest& r, const SuiteInfo& s, Sizes z);

// o.distinct_messages messages to sign (at least one): the sample request's Web Bot Auth signature
// base, a fresh nonce and created time each, or o.message_size pseudorandom bytes when it is set.
std::vector<bytes> make_messages(const SampleRequest& r, const SuiteInfo& s, const MeasureOptions& o);

/// Now, in ns: the calling thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) when `cpu`, else the steady
/// (monotonic) clock. Differences only.
double sample_clock_ns(bool cpu);
/// Median of the samples (compute_stats' percentile 0.5; 0 when empty).
double median_of(std::vector<double> v);
/// /proc/loadavg figures as "0.52 0.40 0.33"; "unknown" when not readable (-1).
std::string format_loadavg(const std::array<double, 3>& l);

}  // namespace pqsig::price::detail
