// tests/price: what the price tests share: a deterministic busy loop standing in for an
// operation, and small measurement budgets (no timed assertions hang on either).
#pragma once

#include <cstddef>
#include <cstdint>

#include "pqsig/price.hpp"

namespace pqsig::price::price_fixture {

inline volatile std::uint64_t g_spin_sink = 0;

// A little deterministic work (xorshift64, n rounds) so operations take non-zero time.
inline Status spin(int n) {
  std::uint64_t x = 88172645463325252ull;
  for (int i = 0; i < n; ++i) x ^= x << 13, x ^= x >> 7, x ^= x << 17;
  g_spin_sink = g_spin_sink + x;
  return {};
}

// Measurement options with a budget small enough for a unit test.
inline MeasureOptions small_budget(double budget_ms_per_op, double warmup_ms, std::size_t min_samples,
                                   bool keep_samples = false) {
  MeasureOptions o;
  o.budget_ms_per_op = budget_ms_per_op;
  o.warmup_ms = warmup_ms;
  o.min_samples = min_samples;
  o.keep_samples = keep_samples;
  return o;
}

}  // namespace pqsig::price::price_fixture
