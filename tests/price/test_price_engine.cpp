// pqsig price: the measurement engine on injected operations (no timed assertions), unsupported
// suites shown as "not available", and the renderers' sections.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pqsig/price.hpp"
#include "price_fixture.hpp"

using namespace pqsig;
using namespace pqsig::price;

namespace {

using price_fixture::spin;

MeasureOptions fast_options() { return price_fixture::small_budget(2, 0.2, 5, /*keep_samples=*/true); }

PreparedSuite fake_signature_suite(int cost, int* calls) {
  PreparedSuite p;
  p.ops.push_back({"keygen", [cost, calls]() -> Status { ++*calls; return spin(cost * 3); }});
  p.ops.push_back({"sign", [cost, calls]() -> Status { ++*calls; return spin(cost * 2); }});
  p.ops.push_back({"verify", [cost, calls]() -> Status { ++*calls; return spin(cost); }});
  p.sizes.public_key = 1312;
  p.sizes.private_key = 32;
  p.sizes.expanded_key = 2560;
  p.sizes.output = 2420;
  p.sizes.sf_bytes = sf_byte_sequence_length(2420);
  p.sizes.signature_headers = 3500;
  p.sizes.request_headers = 3900;
  p.message_bytes = 330;
  return p;
}

// A suite id no backend will ever serve: family "none" has no backend.
constexpr SuiteInfo kNoBackend{"test-no-backend", 1, SuiteClass::signature, Family::none, "test", "", "", false,
                               32, 32, 32, 64, 0, false};

}  // namespace

TEST(PriceEngine, MeasureOperationHonoursMinimumSamples) {
  MeasureOptions o = fast_options();
  o.budget_ms_per_op = 0;  // budget already spent: only the minimum count
  o.min_samples = 7;
  o.min_sample_ns = 0;     // no batching
  int calls = 0;
  Operation op{"sign", [&]() -> Status { ++calls; return spin(1000); }};
  OpResult r = measure_operation(op, o);
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.stats.n, 7u);
  EXPECT_EQ(r.batch, 1u);
  EXPECT_EQ(r.samples.size(), 7u);
  EXPECT_GE(calls, 8);  // at least one warm-up call
  EXPECT_GT(r.stats.median_ns, 0);
  EXPECT_LE(r.stats.min_ns, r.stats.median_ns);
  EXPECT_LE(r.stats.median_ns, r.stats.p90_ns);
  EXPECT_LE(r.stats.p90_ns, r.stats.p99_ns);
  EXPECT_LE(r.stats.p99_ns, r.stats.max_ns);
}

TEST(PriceEngine, FastOperationsAreBatched) {
  MeasureOptions o = fast_options();
  o.min_sample_ns = 1e6;  // 1 ms per sample: a ~100 ns operation needs a large batch
  Operation op{"verify", []() -> Status { return spin(10); }};
  OpResult r = measure_operation(op, o);
  EXPECT_TRUE(r.error.empty());
  EXPECT_GT(r.batch, 1u);
  EXPECT_GE(r.stats.n, 5u);
}

TEST(PriceEngine, MaxSamplesCapsTheLoop) {
  MeasureOptions o = fast_options();
  o.budget_ms_per_op = 1e6;
  o.max_samples = 11;
  o.min_sample_ns = 0;
  Operation op{"sign", []() -> Status { return spin(10); }};
  EXPECT_EQ(measure_operation(op, o).stats.n, 11u);
}

TEST(PriceEngine, FailingOperationIsReportedNotFatal) {
  MeasureOptions o = fast_options();
  int n = 0;
  Operation op{"verify", [&]() -> Status {
                 if (++n > 3) return Error{Errc::verify_failed, "bad signature"};
                 return {};
               }};
  OpResult r = measure_operation(op, o);
  EXPECT_NE(r.error.find("bad signature"), std::string::npos);
}

TEST(PriceEngine, UnsupportedSuiteIsShownAsNotAvailable) {
  // Through the real suite API: a suite without a backend reports Errc::unsupported.
  auto key = SigningKey::generate(kNoBackend);
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(key.error().code, Errc::unsupported);
  SampleRequest req;
  SuiteResult r = measure_suite(kNoBackend, req, fast_options());
  EXPECT_FALSE(r.available);
  EXPECT_NE(r.note.find("not available"), std::string::npos);
  EXPECT_TRUE(r.ops.empty());
  EXPECT_EQ(r.sizes.output, 64u);  // registry sizes still shown
  EXPECT_EQ(r.sizes.sf_bytes, 90u);

  Report rep;
  rep.workload = default_workload();
  rep.env.cores = 2;
  rep.suites.push_back(std::move(r));
  analyze(rep);
  std::string text = render_text(rep);
  EXPECT_NE(text.find("test-no-backend"), std::string::npos);
  EXPECT_NE(text.find("not available"), std::string::npos);
  auto j = nlohmann::json::parse(render_json(rep));
  EXPECT_EQ(j["suites"][0]["available"], false);
  EXPECT_EQ(j["suites"][0]["sizes_source"], "registry");
  std::string html = render_html(rep);
  EXPECT_NE(html.find("not available"), std::string::npos);
}

TEST(PriceEngine, PreparationErrorOtherThanUnsupportedIsAFailure) {
  SuiteResult r = measure_prepared(kNoBackend, Error{Errc::crypto_backend, "boom"}, fast_options());
  EXPECT_FALSE(r.available);
  EXPECT_NE(r.note.find("boom"), std::string::npos);
}

TEST(PriceEngine, EveryRegisteredSuiteMeasuresOrReportsNotAvailable) {
  // Whatever has landed: no suite may crash the engine. Minimal budgets; slow suites are skipped
  // when available (this is a unit test, not a benchmark).
  MeasureOptions o = fast_options();
  o.min_samples = 1;
  o.budget_ms_per_op = 0;
  o.warmup_ms = 0;
  o.distinct_messages = 2;
  SampleRequest req;
  for (const auto& s : all_suites()) {
    if (s.family == "slh-dsa" || s.id.substr(0, 3) == "rsa") continue;  // seconds per op: not here
    if (s.stateful) continue;  // signed through their state: test_price_stateful.cpp
    SuiteResult r = measure_suite(s, req, o);
    if (!r.available) {
      EXPECT_FALSE(r.note.empty()) << s.id;
      continue;
    }
    // signatures: keygen, sign (cold), sign_prepared, verify (cold), verify_prepared; KEMs: keygen,
    // encaps, encaps_prepared, decaps, decaps_prepared; MACs: three operations; + measured dual with liboqs
    EXPECT_EQ(r.ops.size(), (s.cls == SuiteClass::mac ? 3u : 5u) + (r.op("verify-dual") ? 1u : 0u)) << s.id;
    for (const auto& op : r.ops) EXPECT_TRUE(op.error.empty()) << s.id << " " << op.name << ": " << op.error;
    if (s.cls != SuiteClass::kem && !s.variable_output) {
      EXPECT_EQ(r.sizes.output, s.output_size) << s.id;
    }
    if (s.public_key_size) {
      EXPECT_EQ(r.sizes.public_key, s.public_key_size) << s.id;
    }
  }
}

TEST(PriceEngine, FullReportFromInjectedOperations) {
  auto ref = find_suite("ml-dsa-44");
  auto slow = find_suite("ml-dsa-87");
  auto ed = find_suite("ed25519");
  ASSERT_TRUE(ref.ok() && slow.ok() && ed.ok());
  int calls = 0;
  MeasureOptions o = fast_options();
  Report rep;
  rep.workload = default_workload();
  rep.env = capture_environment();
  rep.mode = "test";
  rep.options = o;
  rep.suites.push_back(measure_prepared(**ref, fake_signature_suite(2000, &calls), o));
  rep.suites.push_back(measure_prepared(**slow, fake_signature_suite(6000, &calls), o));
  rep.suites.push_back(measure_prepared(**ed, fake_signature_suite(500, &calls), o));
  rep.suites.push_back(measure_suite(kNoBackend, rep.workload.request, o));
  EXPECT_GT(calls, 0);
  analyze(rep);
  ASSERT_GT(rep.reference_verify_ns, 0);
  ASSERT_EQ(rep.verdicts.size(), 4u);
  ASSERT_TRUE(rep.verdicts[0].ledger.has_value());
  EXPECT_EQ(rep.verdicts[0].ledger->vu, 100u);  // the reference is 100 VU by definition
  EXPECT_EQ(rep.verdicts[0].ledger->sigs_per_block, 2000u);
  EXPECT_EQ(rep.verdicts[0].surfaces.size(), 3u);
  EXPECT_FALSE(rep.verdicts[3].ledger.has_value());
  // hybrid pair ed25519 + ml-dsa-44 computed from both rows
  bool pair = false;
  for (const auto& h : rep.hybrids)
    if (h.name == "ed25519 + ml-dsa-44") {
      pair = true;
      EXPECT_TRUE(h.available);
      EXPECT_EQ(h.hybrid_sig, 2 * 2420u);
      EXPECT_NEAR(h.hybrid_verify_ns, rep.suites[0].op("verify")->stats.median_ns +
                                          rep.suites[2].op("verify")->stats.median_ns, 1e-6);
      EXPECT_LT(h.verifies_per_s_after, h.verifies_per_s_before);
    }
  EXPECT_TRUE(pair);

  std::string text = render_text(rep);
  for (const char* section : {"Time per operation", "Sizes in bytes", "Surfaces", "Ledger", "ESTIMATE", "Hybrids",
                              "crawl", "playlist", "discovery", "ml-dsa-87", "not available"})
    EXPECT_NE(text.find(section), std::string::npos) << section;
  auto j = nlohmann::json::parse(render_json(rep));
  EXPECT_EQ(j["suites"].size(), 4u);
  EXPECT_EQ(j["suites"][0]["ledger"]["vu"], 100);
  EXPECT_EQ(j["suites"][0]["surfaces"].size(), 3u);
  EXPECT_TRUE(j["suites"][0]["ops"].contains("sign"));
  // JSONL: environment first, then summaries and raw samples, every line valid JSON.
  std::string jl = render_jsonl(rep);
  std::size_t lines = 0, samples = 0;
  std::size_t pos = 0;
  while (pos < jl.size()) {
    auto nl = jl.find('\n', pos);
    auto rec = nlohmann::json::parse(jl.substr(pos, nl - pos));
    if (lines == 0) {
      EXPECT_EQ(rec["type"], "environment");
      EXPECT_TRUE(rec.contains("cpu_model"));
      EXPECT_TRUE(rec.contains("compiler"));
      EXPECT_TRUE(rec.contains("commit"));
    }
    if (rec["type"] == "sample") ++samples;
    ++lines;
    pos = nl + 1;
  }
  EXPECT_GE(samples, 3u * 3u * 5u);
  std::string html = render_html(rep);
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  // self-contained: no external resources
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("url(http"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
}

TEST(PriceEngine, SlowOperationsCountTheirWarmUpAndUseTheSlowMinimum) {
  MeasureOptions o = fast_options();
  o.budget_ms_per_op = 0;
  o.slow_op_ns = 0;  // every operation counts as slow here
  o.min_sample_ns = 0;
  o.min_samples = 9;
  o.min_samples_slow = 2;
  int calls = 0;
  Operation op{"sign", [&]() -> Status { ++calls; return spin(100); }};
  OpResult r = measure_operation(op, o);
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.stats.n, 2u);
  EXPECT_EQ(calls, 2);  // the warm-up call is the first sample
}

TEST(PriceEngine, SlowPresampleFromPreparationIsTheFirstSample) {
  MeasureOptions o = fast_options();
  o.budget_ms_per_op = 0;
  o.min_samples_slow = 1;
  int calls = 0;
  Operation op{"sign", [&]() -> Status { ++calls; return spin(100); }, 2e9};  // a 2 s signature made while preparing
  OpResult r = measure_operation(op, o);
  EXPECT_EQ(r.stats.n, 1u);
  EXPECT_EQ(calls, 0);
  EXPECT_DOUBLE_EQ(r.stats.median_ns, 2e9);
  // a cold first call that was merely slowish (60 ms on a busy machine) is not trusted: the
  // operation is warmed up and measured as the fast operation it is
  Operation cold{"keygen", [&]() -> Status { ++calls; return spin(100); }, 60e6};
  o.min_sample_ns = 0;
  OpResult c = measure_operation(cold, o);
  EXPECT_EQ(c.stats.n, o.min_samples);
  EXPECT_LT(c.stats.median_ns, 50e6);
  // a fast presample is ignored: normal warm-up and minimum count
  Operation fast{"verify", [&]() -> Status { ++calls; return spin(100); }, 1000};
  o.min_sample_ns = 0;
  OpResult f = measure_operation(fast, o);
  EXPECT_EQ(f.stats.n, o.min_samples);
}
