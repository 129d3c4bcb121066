// `pqsig price` for the stateful hash-based suites (LMS/HSS, XMSS): the rows exist and are
// marked, signing is measured through the state (reservation included), taller trees are
// extrapolated and say so, the key lifetime arithmetic, and the JSON / text / HTML fields.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "pqsig/price.hpp"

using namespace pqsig;
using namespace pqsig::price;

namespace {
const SuiteInfo& PS(std::string_view id) { return *find_suite(id).value(); }

MeasureOptions stateful_small() {
  MeasureOptions o;
  o.budget_ms_per_op = 20;
  o.warmup_ms = 0;
  o.min_samples = 3;
  o.min_samples_slow = 1;
  o.distinct_messages = 4;
  return o;
}

// One measured H10 suite and its H20 sibling (extrapolated from it), shared by the tests below.
const std::vector<SuiteResult>& measured_pair() {
  static const std::vector<SuiteResult> rs = [] {
    std::vector<SuiteResult> v;
    SampleRequest req;
    v.push_back(measure_suite(PS("lms-sha256-m32-h10-w4"), req, stateful_small()));
    v.push_back(measure_suite(PS("lms-sha256-m32-h20-w4"), req, stateful_small()));
    return v;
  }();
  return rs;
}
}  // namespace

TEST(PriceStateful, KeyLifetimeArithmetic) {
  // H20 at 21 signatures per request and 1,000 requests a day: 2^20 / 21,000 = 49.93 days.
  EXPECT_NEAR(key_lifetime_days(std::uint64_t{1} << 20, 21, 1000), 1048576.0 / 21000.0, 1e-9);
  EXPECT_NEAR(key_lifetime_days(1024, 1, 10000), 0.1024, 1e-12);
  EXPECT_TRUE(std::isinf(key_lifetime_days(1024, 21, 0)));
  EXPECT_TRUE(std::isinf(key_lifetime_days(1024, 0, 1000)));

  Workload w;
  w.surfaces = {{"crawl", 1, 0, false, 10000}, {"playlist", 21, 0, false, 1000}, {"discovery", 28, 0, false, 0}};
  const auto rows = key_lifetimes(std::uint64_t{1} << 20, w);
  ASSERT_EQ(rows.size(), 3u);  // discovery has no rate: left out; then all surfaces
  EXPECT_EQ(rows[0].surface, "crawl");
  EXPECT_DOUBLE_EQ(rows[0].signatures_per_day, 10000);
  EXPECT_NEAR(rows[0].days, 104.8576, 1e-9);
  EXPECT_EQ(rows[1].surface, "playlist");
  EXPECT_DOUBLE_EQ(rows[1].signatures_per_day, 21000);
  EXPECT_EQ(rows[2].surface, kAllSurfaces);
  EXPECT_DOUBLE_EQ(rows[2].signatures_per_day, 31000);
  EXPECT_NEAR(rows[2].days, 1048576.0 / 31000.0, 1e-9);
  EXPECT_TRUE(key_lifetimes(0, w).empty());  // a stateless suite has no lifetime
}

TEST(PriceStateful, WorkloadRequestsPerDayRoundTripsAndIsChecked) {
  const Workload d = default_workload();
  for (const auto& s : d.surfaces) EXPECT_GT(s.requests_per_day, 0) << s.name;
  auto back = workload_from_json(workload_to_json(d));
  ASSERT_TRUE(back.ok()) << back.error().what();
  for (std::size_t i = 0; i < d.surfaces.size(); ++i)
    EXPECT_EQ(back->surfaces[i].requests_per_day, d.surfaces[i].requests_per_day);
  auto w = workload_from_json(R"({"surfaces": [{"name": "x", "signatures_per_request": 21, "requests_per_day": 5000}]})");
  ASSERT_TRUE(w.ok()) << w.error().what();
  EXPECT_EQ(w->surfaces[0].requests_per_day, 5000);
  auto bad = workload_from_json(R"({"surfaces": [{"name": "x", "requests_per_day": -1}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("surfaces[0].requests_per_day"), std::string::npos) << bad.error().message;
  auto bad2 = workload_from_json(R"({"surfaces": [{"name": "x", "requests_per_day": "many"}]})");
  ASSERT_FALSE(bad2.ok());
}

TEST(PriceStateful, DefaultSelectionHasTheStatefulRows) {
  auto sel = select_suites(default_workload(), "");
  ASSERT_TRUE(sel.ok());
  int stateful = 0;
  for (const auto* s : *sel) stateful += s->stateful;
  EXPECT_EQ(stateful, 12);
}

TEST(PriceStateful, MeasuredRowSignsThroughTheState) {
  const SuiteResult& r = measured_pair()[0];
  ASSERT_TRUE(r.available) << r.note;
  ASSERT_TRUE(r.stateful.has_value());
  for (const char* op : {"keygen", "sign", "verify"}) {
    const OpResult* o = r.op(op);
    ASSERT_NE(o, nullptr) << op;
    EXPECT_TRUE(o->extrapolated.empty()) << op << ": measured on this suite";
    EXPECT_GT(o->stats.median_ns, 0) << op;
  }
  EXPECT_EQ(r.op("sign_prepared"), nullptr);  // no stateless signing row
  EXPECT_EQ(r.stateful->max_signatures, 1024u);
  EXPECT_EQ(r.stateful->block, 64u);
  EXPECT_GT(r.stateful->reserve_1_ns, 0);
  EXPECT_GT(r.stateful->reserve_block_ns, 0);
  EXPECT_DOUBLE_EQ(r.stateful->reserve_per_signature_ns(64), r.stateful->reserve_block_ns / 64);
  EXPECT_FALSE(r.stateful->state_dir.empty());
  // Sizes are the measured signature's: the registry's, and the header verdict's input.
  EXPECT_EQ(r.sizes.output, PS("lms-sha256-m32-h10-w4").output_size);
  EXPECT_EQ(r.sizes.public_key, 60u);
  EXPECT_GT(r.sizes.request_headers, r.sizes.signature_headers);
  // A bounded row: never more sign calls than the cap (the key keeps most of its 1024 indices).
  EXPECT_LE(r.op("sign")->stats.n, 200u);
}

TEST(PriceStateful, TallTreeIsExtrapolatedAndSaysSo) {
  const SuiteResult& base = measured_pair()[0];
  const SuiteResult& r = measured_pair()[1];
  ASSERT_TRUE(r.available) << r.note;
  ASSERT_TRUE(base.available) << base.note;
  const OpResult* k = r.op("keygen");
  const OpResult* g = r.op("sign");
  const OpResult* v = r.op("verify");
  ASSERT_TRUE(k && g && v);
  for (const OpResult* o : {k, g, v}) EXPECT_NE(o->extrapolated.find("lms-sha256-m32-h10-w4"), std::string::npos) << o->name;
  // keygen: 2^20 leaves = the H10 basis (this run's own measurement or an earlier one) x 2^10;
  // sign: + one leaf; verify: + 10 nodes.
  EXPECT_GT(k->stats.median_ns, 500 * base.op("keygen")->stats.min_ns);
  EXPECT_GT(v->stats.median_ns, 0);
  EXPECT_EQ(r.sizes.output, PS("lms-sha256-m32-h20-w4").output_size);
  ASSERT_TRUE(r.stateful.has_value());
  EXPECT_EQ(r.stateful->max_signatures, std::uint64_t{1} << 20);
  EXPECT_NE(r.stateful->basis.find("extrapolated"), std::string::npos);
}

TEST(PriceStateful, NoThroughputRunForStatefulSuites) {
  auto t = measure_throughput(PS("lms-sha256-m32-h10-w4"), SampleRequest{}, stateful_small(), 2, 5);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, Errc::unsupported);
}

TEST(PriceStateful, ReportsMarkStatefulRowsAndKeyLifetime) {
  Report rep;
  rep.workload = default_workload();
  rep.options = stateful_small();
  rep.mode = "test";
  rep.env.cores = 2;
  rep.suites = measured_pair();
  analyze(rep);
  ASSERT_EQ(rep.verdicts.size(), 2u);
  ASSERT_EQ(rep.verdicts[1].lifetimes.size(), rep.workload.surfaces.size() + 1);
  // Default workload: 10,000 crawl + 21 x 1,000 playlist + 28 x 1,000 discovery signatures a day.
  EXPECT_NEAR(rep.verdicts[1].lifetimes.back().days, 1048576.0 / 59000.0, 1e-9);
  EXPECT_FALSE(rep.verdicts[1].surfaces.empty());  // the surfaces use the extrapolated sign row

  const auto j = nlohmann::json::parse(render_json(rep));
  ASSERT_EQ(j["suites"].size(), 2u);
  for (const auto& s : j["suites"]) {
    EXPECT_EQ(s["stateful"], true);
    EXPECT_EQ(s["family"], "lms");
    for (const char* k : {"max_signatures", "block", "reserve_ns_block_1", "reserve_ns_block",
                          "reserve_per_signature_ns_block_1", "reserve_per_signature_ns_block", "state_dir", "basis",
                          "sign_block_1_mean_ns"})
      EXPECT_TRUE(s["stateful_pricing"].contains(k)) << k;
    ASSERT_TRUE(s["key_lifetime"].is_array());
    EXPECT_EQ(s["key_lifetime"].back()["surface"], "all surfaces");
    EXPECT_TRUE(s["key_lifetime"].back()["days"].is_number());
    EXPECT_TRUE(s.contains("header_fits_cap"));
  }
  EXPECT_EQ(j["suites"][0]["ops"]["sign"]["measured"], true);
  EXPECT_EQ(j["suites"][1]["ops"]["keygen"]["measured"], false);
  EXPECT_TRUE(j["suites"][1]["ops"]["keygen"].contains("extrapolated"));
  EXPECT_EQ(j["suites"][1]["stateful_pricing"]["max_signatures"], 1048576u);
  EXPECT_NEAR(j["suites"][1]["key_lifetime"].back()["days"].get<double>(), 1048576.0 / 59000.0, 1e-9);
  EXPECT_EQ(j["workload"]["surfaces"][1]["requests_per_day"], 1000);

  const std::string t = render_text(rep);
  for (const char* want : {"[STATEFUL]", "Stateful hash-based suites", "Key lifetime", "EXTRAPOLATED",
                           "lms-sha256-m32-h20-w4", "all surfaces", "reservation"})
    EXPECT_NE(t.find(want), std::string::npos) << want;
  const std::string h = render_html(rep);
  for (const char* want : {"id=\"stateful\"", "STATEFUL", "EXTRAPOLATED", "Key lifetime"})
    EXPECT_NE(h.find(want), std::string::npos) << want;
}
