// The `ledger bench` engine as a library call (include/pqsig/price_ledger.hpp) and the price
// helpers it shares (src/price/internal.hpp): counts, reports and refusals, no timing asserted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "pqsig/price_ledger.hpp"
#include "price/internal.hpp"

namespace {

std::size_t ledger_bench_lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace

TEST(LedgerBenchEngine, SharesPriceMedianAndLoadFormatting) {
  EXPECT_EQ(pqsig::price::detail::median_of({}), 0.0);
  EXPECT_EQ(pqsig::price::detail::median_of({5, 1, 3}), 3.0);
  EXPECT_EQ(pqsig::price::detail::median_of({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(pqsig::price::detail::format_loadavg({0.5, 1.25, 2}), "0.50 1.25 2.00");
  EXPECT_EQ(pqsig::price::detail::format_loadavg({-1, -1, -1}), "unknown");
  const double t0 = pqsig::price::detail::sample_clock_ns(false);
  EXPECT_GE(pqsig::price::detail::sample_clock_ns(false), t0);
}

TEST(LedgerBenchEngine, CountsEveryCheckAndRendersEveryReport) {
  pqsig::price::LedgerBenchOptions o;
  o.second = "pqsig";
  o.suites = {"ml-dsa-44"};
  o.quick = true;
  o.rounds = 1;
  o.samples = 2;
  o.seed = 11;
  std::size_t progress_lines = 0;
  o.progress = [&](const std::string&) { ++progress_lines; };
  auto r = pqsig::price::run_ledger_bench(o);
  ASSERT_TRUE(r.ok()) << r.error().what();
  EXPECT_TRUE(r->passed());
  EXPECT_EQ(r->checks, 2u * 5u);  // per sample: valid 3 checks, invalid 2
  EXPECT_EQ(r->seed, 11u);
  EXPECT_GT(progress_lines, 0u);
  ASSERT_EQ(r->suites.size(), 1u);
  EXPECT_EQ(r->suites[0].samples.size(), 2u * 2u * 5u);
  EXPECT_EQ(r->suites[0].vu_estimate, 100u);
  EXPECT_EQ(r->suites[0].block_sigs, 200u);
  const auto j = nlohmann::json::parse(pqsig::price::render_ledger_bench_json(*r));
  EXPECT_EQ(j["summary"]["checks"], 10);
  EXPECT_EQ(j["environment"]["seed"], 11);
  EXPECT_EQ(ledger_bench_lines(pqsig::price::render_ledger_bench_jsonl(*r)), 1u + 20u + 1u + 1u);
  const std::string text = pqsig::price::render_ledger_bench_text(*r);
  EXPECT_NE(text.find("ml-dsa-44"), std::string::npos);
  EXPECT_NE(text.find("Worst-case block"), std::string::npos);
}

TEST(LedgerBenchEngine, RefusesWhatItCannotRun) {
  pqsig::price::LedgerBenchOptions o;
  o.second = "no-such-provider";
  o.suites = {"ml-dsa-44"};
  auto r = pqsig::price::run_ledger_bench(o);
  ASSERT_FALSE(r.ok());
  o.second = "pqsig";
  o.suites = {"ml-kem-768"};
  r = pqsig::price::run_ledger_bench(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not a signature suite"), std::string::npos) << r.error().message;
  auto w = pqsig::price::load_ledger_bench_workload("/nonexistent/pqsig-workload.json");
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message.find("cannot read workload file"), std::string::npos);
}
