// `pqsig price` statistics: percentiles and summaries of timing samples.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "pqsig/price.hpp"
#include "price/internal.hpp"

namespace pqsig::price {

double percentile(std::span<const double> sorted, double q) noexcept {
  if (sorted.empty()) return 0.0;
  if (q <= 0) return sorted.front();
  if (q >= 1) return sorted.back();
  // Linear interpolation between closest ranks (Hyndman & Fan type 7).
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

Stats compute_stats(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.n = v.size();
  s.min_ns = v.front();
  s.max_ns = v.back();
  s.median_ns = percentile(v, 0.5);
  s.p90_ns = percentile(v, 0.9);
  s.p99_ns = percentile(v, 0.99);
  const double sum = std::accumulate(v.begin(), v.end(), 0.0);
  s.mean_ns = sum / static_cast<double>(v.size());
  double acc = 0;
  for (double x : v) acc += (x - s.mean_ns) * (x - s.mean_ns);
  s.stddev_ns = v.size() > 1 ? std::sqrt(acc / static_cast<double>(v.size() - 1)) : 0.0;
  return s;
}

double detail::median_of(std::vector<double> v) { return compute_stats(std::move(v)).median_ns; }

std::string detail::format_loadavg(const std::array<double, 3>& l) {
  if (l[0] < 0) return "unknown";
  char b[64];
  std::snprintf(b, sizeof b, "%.2f %.2f %.2f", l[0], l[1], l[2]);
  return b;
}

}  // namespace pqsig::price
