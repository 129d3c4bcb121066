// pqsig price: statistics on known data.
#include <gtest/gtest.h>

#include <vector>

#include "pqsig/price.hpp"

using namespace pqsig::price;

TEST(PriceStats, PercentileLinearInterpolation) {
  std::vector<double> v{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_DOUBLE_EQ(percentile(v, 0.5), 5.5);
  EXPECT_DOUBLE_EQ(percentile(v, 0.9), 9.1);
  EXPECT_DOUBLE_EQ(percentile(v, 0.99), 9.91);
  EXPECT_DOUBLE_EQ(percentile(v, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(percentile(v, 1.0), 10.0);
  std::vector<double> odd{10, 20, 30};
  EXPECT_DOUBLE_EQ(percentile(odd, 0.5), 20.0);
  EXPECT_DOUBLE_EQ(percentile(std::vector<double>{}, 0.5), 0.0);
  EXPECT_DOUBLE_EQ(percentile(std::vector<double>{7}, 0.9), 7.0);
}

TEST(PriceStats, SummaryOfUnsortedSamples) {
  // 1..100 shuffled: median 50.5, p90 90.1, p99 99.01, mean 50.5
  std::vector<double> v;
  for (int i = 0; i < 100; ++i) v.push_back(static_cast<double>((i * 37) % 100 + 1));
  Stats s = compute_stats(v);
  EXPECT_EQ(s.n, 100u);
  EXPECT_DOUBLE_EQ(s.min_ns, 1);
  EXPECT_DOUBLE_EQ(s.max_ns, 100);
  EXPECT_DOUBLE_EQ(s.median_ns, 50.5);
  EXPECT_NEAR(s.p90_ns, 90.1, 1e-9);
  EXPECT_NEAR(s.p99_ns, 99.01, 1e-9);
  EXPECT_DOUBLE_EQ(s.mean_ns, 50.5);
  EXPECT_NEAR(s.stddev_ns, 29.011491975882016, 1e-9);  // sample standard deviation of 1..100
  EXPECT_NEAR(s.spread(), 90.1 / 50.5, 1e-12);
  EXPECT_NEAR(s.per_second(), 1e9 / 50.5, 1e-3);
}

TEST(PriceStats, LongTailShowsInP90) {
  // 70 fast samples and 30 slow ones (a rejection loop's retries): median stays fast, p90 is 3x.
  std::vector<double> v(70, 100.0);
  v.insert(v.end(), 30, 300.0);
  Stats s = compute_stats(v);
  EXPECT_DOUBLE_EQ(s.median_ns, 100);
  EXPECT_DOUBLE_EQ(s.p90_ns, 300);
  EXPECT_DOUBLE_EQ(s.spread(), 3.0);
}

TEST(PriceStats, EmptyIsZero) {
  Stats s = compute_stats({});
  EXPECT_EQ(s.n, 0u);
  EXPECT_EQ(s.median_ns, 0);
  EXPECT_EQ(s.spread(), 0);
  EXPECT_EQ(s.per_second(), 0);
}

TEST(PriceFormat, Units) {
  EXPECT_EQ(format_ns(850), "850 ns");
  EXPECT_EQ(format_ns(8580), "8.58 us");
  EXPECT_EQ(format_ns(85800), "85.8 us");
  EXPECT_EQ(format_ns(8.58e6), "8.58 ms");
  EXPECT_EQ(format_ns(2.65e9), "2.65 s");
  EXPECT_EQ(format_ns(0), "-");
  EXPECT_EQ(format_bytes(0), "0");
  EXPECT_EQ(format_bytes(999), "999");
  EXPECT_EQ(format_bytes(3228), "3,228");
  EXPECT_EQ(format_bytes(1234567), "1,234,567");
}
