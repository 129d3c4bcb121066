// pqsig price: the prediction file (strict parsing, limits, template, review), the load verdict,
// the verdict paragraph, tail caveats, rate formatting, text-table alignment, cancellation
// (Ctrl-C keeps what was measured), cold vs prepared verification and the throughput runner.
#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>

#include "pqsig/price.hpp"
#include "price_fixture.hpp"

using namespace pqsig;
using namespace pqsig::price;
using json = nlohmann::json;

namespace {

using price_fixture::spin;

MeasureOptions tiny() { return price_fixture::small_budget(1, 0.1, 3); }

PreparedSuite fake(const SuiteInfo& s, const SampleRequest& r, int cost) {
  PreparedSuite p;
  p.ops.push_back({"keygen", [cost]() -> Status { return spin(cost * 2); }});
  p.ops.push_back({"sign", [cost]() -> Status { return spin(cost * 3); }});
  p.ops.push_back({"verify", [cost]() -> Status { return spin(cost); }});
  p.ops.push_back({"verify_prepared", [cost]() -> Status { return spin(cost / 2 + 1); }});
  p.sizes.public_key = s.public_key_size;
  p.sizes.output = s.output_size ? s.output_size : 256;
  p.sizes.sf_bytes = sf_byte_sequence_length(p.sizes.output);
  p.sizes.signature_headers = signature_header_bytes(r, sample_params(r, s, 0), p.sizes.output);
  p.sizes.request_headers = request_header_bytes(r) + p.sizes.signature_headers;
  p.message_bytes = 300;
  return p;
}

// A report built from fixed statistics (no timing), so verdicts are known exactly.
SuiteResult fixed(const char* id, double sign_ns, double sign_p90_ns, double verify_ns, std::size_t n,
                  std::size_t request_headers) {
  SuiteResult r;
  r.suite = *find_suite(id);
  r.available = true;
  // sign_prepared: the same key prepared once, here 3/4 of the cold figures.
  for (auto [name, med, p90] : {std::tuple{"sign", sign_ns, sign_p90_ns},
                                std::tuple{"sign_prepared", sign_ns * 3 / 4, sign_p90_ns * 3 / 4},
                                std::tuple{"verify", verify_ns, verify_ns},
                                std::tuple{"verify_prepared", verify_ns / 2, verify_ns / 2}}) {
    OpResult o;
    o.name = name;
    o.stats.n = n;
    o.stats.median_ns = med;
    o.stats.mean_ns = med;  // no rejection loop in these made-up figures
    o.stats.p90_ns = p90;
    o.stats.p99_ns = p90;
    r.ops.push_back(o);
  }
  r.sizes.output = 100;
  r.sizes.request_headers = request_headers;
  return r;
}

Report fixed_report() {
  Report rep;
  rep.workload = default_workload();  // 10 ms budget; crawl 1, playlist 21, discovery 28 signatures
  rep.env.cores = 2;
  rep.suites.push_back(fixed("ml-dsa-44", 80e3, 100e3, 20e3, 200, 3865));       // discovery 2.24 ms: fits
  rep.suites.push_back(fixed("ml-dsa-65", 300e3, 400e3, 30e3, 200, 5049));      // discovery 8.4 / 11.2: tail
  rep.suites.push_back(fixed("slh-dsa-sha2-128s", 200e6, 210e6, 1e6, 5, 11121));  // crawl x20, 431
  analyze(rep);
  return rep;
}

const char* kPrediction = R"({
  "version": 1,
  "note": "written 2026-12-01 before the run",
  "suites": {
    "ml-dsa-44": {"median_us": {"sign": 100, "verify": 20, "keygen": null},
                  "verdicts": {"discovery": "fits", "headers": "fits"}},
    "ml-dsa-65": {"verdicts": {"discovery": "fits"}},
    "slh-dsa-sha2-128s": {"median_us": {"sign": 50000}, "verdicts": {"crawl": "over", "headers": "431"}},
    "ed25519": {"median_us": {"sign": 20}}
  }
})";

}  // namespace

TEST(PricePredict, ParsesAndReviews) {
  auto p = prediction_from_json(kPrediction, default_workload());
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->text, kPrediction);  // kept unchanged
  EXPECT_EQ(p->note, "written 2026-12-01 before the run");
  EXPECT_EQ(p->medians.size(), 4u);   // the null keygen is no prediction
  EXPECT_EQ(p->verdicts.size(), 5u);
  Report rep = fixed_report();
  rep.prediction = std::move(p.value());
  analyze(rep);
  ASSERT_EQ(rep.review.size(), 9u);
  auto row = [&](const std::string& suite, const std::string& item) -> const ReviewRow& {
    for (const auto& r : rep.review)
      if (r.suite == suite && r.item == item) return r;
    ADD_FAILURE() << suite << " " << item;
    return rep.review.front();
  };
  EXPECT_NEAR(row("ml-dsa-44", "sign").ratio, 0.8, 1e-12);          // 80 us measured / 100 predicted
  EXPECT_NEAR(row("slh-dsa-sha2-128s", "sign").ratio, 4.0, 1e-12);  // 200 ms / 50 ms
  EXPECT_FALSE(row("ed25519", "sign").measured);                    // not in this run
  EXPECT_FALSE(row("ml-dsa-44", "discovery").flipped);
  EXPECT_EQ(row("ml-dsa-65", "discovery").measured_verdict, "tail");
  EXPECT_TRUE(row("ml-dsa-65", "discovery").flipped);
  EXPECT_FALSE(row("slh-dsa-sha2-128s", "crawl").flipped);
  EXPECT_FALSE(row("slh-dsa-sha2-128s", "headers").flipped);

  std::string text = render_text(rep);
  EXPECT_NE(text.find("Prediction review"), std::string::npos);
  EXPECT_NE(text.find("FLIPPED"), std::string::npos);
  EXPECT_NE(text.find("x4.00"), std::string::npos);
  EXPECT_NE(text.find("1 of 5 verdicts flipped"), std::string::npos) << text;
  auto j = json::parse(render_json(rep));
  EXPECT_EQ(j["prediction"]["text"], kPrediction);
  EXPECT_EQ(j["prediction"]["review"].size(), 9u);
  std::string jl = render_jsonl(rep);
  auto second = json::parse(jl.substr(jl.find('\n') + 1, jl.find('\n', jl.find('\n') + 1) - jl.find('\n') - 1));
  EXPECT_EQ(second["type"], "prediction");
  EXPECT_EQ(second["text"], kPrediction);
  std::string html = render_html(rep);
  EXPECT_NE(html.find("id=\"prediction\""), std::string::npos);
  EXPECT_NE(html.find("flipped"), std::string::npos);
}

TEST(PricePredict, StrictErrors) {
  const Workload w = default_workload();
  struct Case {
    const char* text;
    Errc code;
    const char* mentions;
  } cases[] = {
      {"not json", Errc::invalid_encoding, "not valid JSON"},
      {"[]", Errc::invalid_encoding, "must be an object"},
      {R"({"suites": {}, "extra": 1})", Errc::invalid_encoding, "extra"},
      {R"({"note": "x"})", Errc::invalid_encoding, "suites"},
      {R"({"version": 2, "suites": {}})", Errc::invalid_argument, "version"},
      {R"({"suites": {"nope": {}}})", Errc::unknown_suite, "suites.nope"},
      {R"({"suites": {"ml-dsa-44": {"median_us": {"encaps": 3}}}})", Errc::invalid_argument, "encaps"},
      {R"({"suites": {"ml-dsa-44": {"median_us": {"sign": "fast"}}}})", Errc::invalid_encoding, "sign"},
      {R"({"suites": {"ml-dsa-44": {"median_us": {"sign": -1}}}})", Errc::invalid_argument, "out of range"},
      {R"({"suites": {"ml-dsa-44": {"median_us": {"sign": 0}}}})", Errc::invalid_argument, "out of range"},
      {R"({"suites": {"ml-dsa-44": {"verdicts": {"checkout": "fits"}}}})", Errc::invalid_argument, "checkout"},
      {R"({"suites": {"ml-dsa-44": {"verdicts": {"crawl": "maybe"}}}})", Errc::invalid_argument, "crawl"},
      {R"({"suites": {"ml-dsa-44": {"verdicts": {"headers": "over"}}}})", Errc::invalid_argument, "431"},
      {R"({"suites": {"ml-kem-768": {"verdicts": {"crawl": "fits"}}}})", Errc::invalid_argument, "KEM"},
      {R"({"suites": {"ml-dsa-44": {"median_us": {"sign": 1}, "median_us": {"sign": 2}}}})", Errc::invalid_encoding,
       "duplicate"},
      {R"({"suites": {"ml-dsa-44": {"colour": 1}}})", Errc::invalid_encoding, "colour"},
      {R"({"note": [[[[[[[[[[1]]]]]]]]]], "suites": {}})", Errc::invalid_encoding, "deeper"},
  };
  for (const auto& c : cases) {
    auto p = prediction_from_json(c.text, w);
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_EQ(p.error().code, c.code) << c.text << " -> " << p.error().message;
    EXPECT_NE(p.error().message.find(c.mentions), std::string::npos) << c.text << " -> " << p.error().message;
  }
  std::string big = R"({"note": ")" + std::string(kPredictionMaxNote + 1, 'x') + R"(", "suites": {}})";
  EXPECT_EQ(prediction_from_json(big, w).error().code, Errc::invalid_argument);
  std::string huge(kPredictionMaxBytes + 1, ' ');
  EXPECT_FALSE(prediction_from_json(huge, w).ok());
}

TEST(PricePredict, TemplateParsesWithNoPredictions) {
  auto sel = select_suites(default_workload(), "ml-dsa-44,ed25519,ml-kem-768,hmac-sha256");
  ASSERT_TRUE(sel.ok()) << sel.error().message;
  std::string t = prediction_template(default_workload(), *sel);
  auto p = prediction_from_json(t, default_workload());
  ASSERT_TRUE(p.ok()) << p.error().message << "\n" << t;
  EXPECT_TRUE(p->medians.empty());
  EXPECT_TRUE(p->verdicts.empty());
  auto j = json::parse(t);
  EXPECT_TRUE(j["suites"]["ml-dsa-44"]["median_us"].contains("verify_prepared"));
  EXPECT_TRUE(j["suites"]["ml-dsa-44"]["verdicts"].contains("headers"));
  EXPECT_FALSE(j["suites"]["ml-kem-768"].contains("verdicts"));
}

TEST(PriceLoad, BusyJudgement) {
  Environment e;
  e.cores = 2;
  e.load_before = {0.2, 0.2, 0.2};
  judge_load(e, 0.5, 10.0);  // others used 0.5 s of 20 core-seconds: 2.5%
  EXPECT_NEAR(e.others_cpu_pct, 2.5, 1e-9);
  EXPECT_FALSE(e.busy);
  judge_load(e, 8.0, 10.0);  // 40%
  EXPECT_TRUE(e.busy);
  EXPECT_NE(e.busy_reason.find("40%"), std::string::npos);
  e.load_before = {3.5, 2, 1};
  judge_load(e, 0.0, 10.0);
  EXPECT_TRUE(e.busy);
  EXPECT_NE(e.busy_reason.find("3.50"), std::string::npos);
  // The snapshot is read from /proc on Linux.
  LoadSnapshot s = sample_load();
  EXPECT_GE(s.loadavg[0], 0);
  EXPECT_GE(s.all_busy_s, 0);
  // A busy report says so at the top of the text and HTML and in JSON.
  Report rep = fixed_report();
  rep.env.busy = true;
  rep.env.busy_reason = "test";
  EXPECT_NE(render_text(rep).find("WARNING  the machine was busy (test)"), std::string::npos);
  EXPECT_NE(render_html(rep).find("The machine was busy"), std::string::npos);
  EXPECT_EQ(json::parse(render_json(rep))["environment"]["busy"], true);
}

TEST(PriceVerdictParagraph, SaysWhatFitsAndByHowMuch) {
  Report rep = fixed_report();
  std::string v = verdict_paragraph(rep);
  EXPECT_NE(v.find("crawl (1 sig; cold keys): 2 of 3 fit (ml-dsa-44, ml-dsa-65); over budget: slh-dsa-sha2-128s x20.0"),
            std::string::npos) << v;
  EXPECT_NE(v.find("only at the mean: ml-dsa-65 (p90 +1.20 ms)"), std::string::npos) << v;
  EXPECT_NE(v.find("Headers: 2 of 3 fit; 431 for slh-dsa-sha2-128s +2,929 B"), std::string::npos) << v;
  // At the top: before the first table in text, before the charts in HTML.
  std::string text = render_text(rep);
  EXPECT_LT(text.find("Verdict ("), text.find("Time per operation"));
  std::string html = render_html(rep);
  EXPECT_LT(html.find("id=\"verdict\""), html.find("id=\"time\""));
  EXPECT_LT(html.find("id=\"surfaces\""), html.find("id=\"time\""));
}

TEST(PriceKeyReuse, VerdictUsesColdUnlessTheSurfaceReusesKeys) {
  Report rep = fixed_report();
  // discovery: ml-dsa-65 cold 28 x 0.3 ms = 8.4 ms (p90 11.2: tail); key_reuse → prepared 28 x 0.225 = 6.3 (p90 8.4: fits)
  ASSERT_EQ(rep.verdicts[1].surfaces.size(), 3u);
  const SurfaceVerdict& cold = rep.verdicts[1].surfaces[2];
  EXPECT_EQ(cold.figure, "cold");
  EXPECT_NEAR(cold.cpu_ms_mean, 8.4, 1e-9);
  EXPECT_EQ(verdict_word(cold), "tail");
  rep.workload.surfaces[2].key_reuse = true;
  analyze(rep);
  const SurfaceVerdict& prep = rep.verdicts[1].surfaces[2];
  EXPECT_EQ(prep.figure, "prepared");
  EXPECT_NEAR(prep.cpu_ms_mean, 6.3, 1e-9);
  EXPECT_NEAR(prep.cpu_ms_p90, 8.4, 1e-9);
  EXPECT_EQ(verdict_word(prep), "fits");
  // the other surfaces stay cold
  EXPECT_EQ(rep.verdicts[1].surfaces[0].figure, "cold");
  // JSON: every surface names its figure and carries the mean; cold and prepared side by side
  auto j = nlohmann::json::parse(render_json(rep));
  const auto& sj = j["suites"][1];
  EXPECT_EQ(sj["surfaces"][2]["figure"], "prepared");
  EXPECT_EQ(sj["surfaces"][2]["verdict"], "fits");
  EXPECT_EQ(sj["surfaces"][0]["figure"], "cold");
  EXPECT_NEAR(sj["surfaces"][2]["cpu_ms_mean"].get<double>(), 6.3, 1e-9);
  EXPECT_NEAR(sj["figures"]["sign"]["cold"]["median_ns"].get<double>(), 300e3, 1e-6);
  EXPECT_NEAR(sj["figures"]["sign"]["prepared"]["median_ns"].get<double>(), 225e3, 1e-6);
  EXPECT_TRUE(sj["figures"]["sign"]["cold"].contains("mean_ns"));
  EXPECT_TRUE(sj["figures"]["verify"]["prepared"].contains("p90_ns"));
  EXPECT_EQ(j["workload"]["surfaces"][2]["key_reuse"], true);
  // text: the surfaces table and the verdict paragraph say which keys
  const std::string text = render_text(rep);
  EXPECT_NE(text.find("discovery (28 sig, prepared)"), std::string::npos);
  EXPECT_NE(text.find("crawl (1 sig, cold)"), std::string::npos);
  EXPECT_NE(verdict_paragraph(rep).find("discovery (28 sig; prepared keys)"), std::string::npos) << verdict_paragraph(rep);
}

TEST(PriceTail, CaveatBelowTwentySamples) {
  Report rep = fixed_report();  // slh-dsa has 5 samples, the others 200
  std::string text = render_text(rep);
  EXPECT_NE(text.find("p90/p99 from fewer than 20 samples"), std::string::npos);
  auto line_of = [&](const std::string& id) {
    auto p = text.find("\n" + id + " ", text.find("Time per operation"));
    return text.substr(p + 1, text.find('\n', p + 1) - p - 1);
  };
  EXPECT_NE(line_of("slh-dsa-sha2-128s").find('*'), std::string::npos);
  EXPECT_EQ(line_of("ml-dsa-44").find('*'), std::string::npos);
  EXPECT_NE(render_html(rep).find("fewer than 20 samples"), std::string::npos);
  EXPECT_EQ(json::parse(render_json(rep))["suites"][2]["ops"]["sign"]["tail_reliable"], false);
  // Enough samples everywhere: no caveat at all.
  for (auto& r : rep.suites)
    for (auto& o : r.ops) o.stats.n = 20;
  EXPECT_EQ(render_text(rep).find("fewer than 20"), std::string::npos);
}

TEST(PriceFormat, RatesAtEveryMagnitude) {
  EXPECT_EQ(format_rate(3.6), "3.60");   // RSA keygen: was 0 in HTML
  EXPECT_EQ(format_rate(0.272), "0.272");
  EXPECT_EQ(format_rate(36.04), "36.0");
  EXPECT_EQ(format_rate(6503.2), "6,503");
  EXPECT_EQ(format_rate(65432), "65k");
  EXPECT_EQ(format_rate(1.234e6), "1.23M");
  EXPECT_EQ(format_rate(0), "-");
  // The HTML operations table uses the same formatter.
  Report rep = fixed_report();
  rep.suites[2].ops[0].stats.median_ns = 1e9 / 3.6;
  EXPECT_NE(render_html(rep).find(">3.60<"), std::string::npos);
}

TEST(PriceText, HybridColumnsAlignWhateverTheNameLength) {
  const SampleRequest req;
  Report rep;
  rep.workload = default_workload();
  rep.env.cores = 2;
  for (const char* id : {"ed25519", "ecdsa-p256-sha256", "ml-dsa-44", "ml-dsa-65"})
    rep.suites.push_back(measure_prepared(**find_suite(id), fake(**find_suite(id), req, 50), tiny()));
  analyze(rep);
  std::string text = render_text(rep);
  auto p = text.find("\nHybrids:");
  ASSERT_NE(p, std::string::npos);
  p = text.find('\n', p + 1) + 1;
  std::vector<std::string> lines;
  while (p < text.size() && text[p] != '\n') {
    auto e = text.find('\n', p);
    lines.push_back(text.substr(p, e - p));
    p = e + 1;
  }
  ASSERT_GE(lines.size(), 3u);  // header + ed25519 + ml-dsa-44/65, ecdsa-p256-sha256 + ml-dsa-65
  // Every cell of the second column starts where the header's "sig bytes" starts (a digit after
  // a space), whatever the length of the hybrid's name.
  const auto col = lines[0].find("sig bytes");
  ASSERT_NE(col, std::string::npos);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    ASSERT_GT(lines[i].size(), col) << lines[i];
    EXPECT_EQ(lines[i][col - 1], ' ') << lines[i];
    EXPECT_TRUE(lines[i][col] >= '0' && lines[i][col] <= '9') << lines[i];
  }
  const auto vcol = lines[0].find("verify/s/core");
  for (std::size_t i = 1; i < lines.size(); ++i) EXPECT_EQ(lines[i][vcol - 1], ' ') << lines[i];
}

TEST(PriceEngine, CancelKeepsWhatWasMeasured) {
  const SampleRequest req;
  std::atomic<bool> stop{false};
  MeasureOptions o = tiny();
  o.cancel = &stop;
  const SuiteInfo& s = **find_suite("ml-dsa-44");
  PreparedSuite p = fake(s, req, 50);
  // Ctrl-C arrives while "sign" is measured: keygen is kept, sign is cut short, the rest skipped.
  int sign_calls = 0;
  p.ops[1].run = [&]() -> Status {
    if (++sign_calls == 40) stop = true;
    return spin(50);
  };
  p.ops[1].name = "sign";
  o.budget_ms_per_op = 10000;  // sign would run until max_samples without the cancel
  o.warmup_ms = 0;             // one warm-up call
  o.min_sample_ns = 0;         // no batching: one call per sample
  o.max_samples = 50;          // keygen stops here
  SuiteResult r = measure_prepared(s, std::move(p), o);
  EXPECT_TRUE(r.interrupted);
  ASSERT_EQ(r.ops.size(), 2u);
  EXPECT_FALSE(r.ops[0].interrupted);
  EXPECT_TRUE(r.ops[1].interrupted);
  EXPECT_GT(r.ops[1].stats.n, 0u);
  Report rep;
  rep.workload = default_workload();
  rep.env.cores = 2;
  rep.suites.push_back(std::move(r));
  rep.suites_planned = 5;
  rep.interrupted = true;
  analyze(rep);
  std::string text = render_text(rep);
  EXPECT_NE(text.find("INTERRUPTED  (Ctrl-C) after 1 of 5 suites"), std::string::npos);
  EXPECT_NE(text.find("(cut)"), std::string::npos);
  EXPECT_EQ(json::parse(render_json(rep))["interrupted"], true);
}

TEST(PriceEngine, ColdAndPreparedVerifyAreTwoOperations) {
  const SuiteInfo& s = **find_suite("ed25519");
  auto p = prepare_suite(s, SampleRequest{}, tiny());
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<std::string> names;
  for (auto& op : p->ops) {
    names.push_back(op.name);
    EXPECT_TRUE(op.run().ok()) << op.name;  // each one works (and verifies a real signature)
  }
  EXPECT_EQ(names, (std::vector<std::string>{"keygen", "sign", "sign_prepared", "verify", "verify_prepared"}));
  // MAC suites verify with the key itself: one verify operation.
  auto m = prepare_suite(**find_suite("hmac-sha256"), SampleRequest{}, tiny());
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->ops.size(), 3u);
  EXPECT_EQ(m->ops.back().name, "verify");
}

TEST(PriceEngine, KemColdAndPreparedAreSeparateOperations) {
  for (const char* id : {"ml-kem-768", "x-wing"}) {
    auto s = find_suite(id);
    ASSERT_TRUE(s.ok()) << id;
    auto p = prepare_suite(**s, SampleRequest{}, tiny());
    if (!p.ok() && p.error().code == Errc::unsupported) continue;
    ASSERT_TRUE(p.ok()) << id << ": " << p.error().message;
    std::vector<std::string> names;
    for (auto& op : p->ops) {
      names.push_back(op.name);
      EXPECT_TRUE(op.run().ok()) << id << " " << op.name;
    }
    EXPECT_EQ(names, (std::vector<std::string>{"keygen", "encaps", "encaps_prepared", "decaps", "decaps_prepared"}))
        << id;
  }
}

TEST(PriceThroughput, RunsEveryThreadAndSumsTheRates) {
  std::atomic<int> calls[3] = {0, 0, 0};
  std::vector<std::function<Status()>> fns;
  for (int i = 0; i < 3; ++i)
    fns.push_back([&calls, i]() -> Status {
      calls[i].fetch_add(1);
      return spin(200);
    });
  auto r = run_throughput(fns, 20);
  ASSERT_TRUE(r.ok());
  EXPECT_GT(*r, 0);
  for (auto& c : calls) EXPECT_GT(c.load(), 0);
  // An error in any thread is reported.
  fns.push_back([]() -> Status { return Error{Errc::verify_failed, "bad"}; });
  auto bad = run_throughput(fns, 5);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("bad"), std::string::npos);
  EXPECT_FALSE(run_throughput({}, 5).ok());
  // Through the suite API: every operation of a real suite, on 1 and 2 threads.
  auto rows = measure_throughput(**find_suite("hmac-sha256"), SampleRequest{}, tiny(), 2, 5);
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 3u);
  for (const auto& row : *rows) {
    EXPECT_TRUE(row.error.empty()) << row.op << ": " << row.error;
    EXPECT_GT(row.ops_per_s_1, 0) << row.op;
    EXPECT_GT(row.ops_per_s_n, 0) << row.op;
    EXPECT_GT(row.scaling(), 0) << row.op;
  }
  Report rep = fixed_report();
  rep.multi_threads = 2;
  rep.throughput.emplace_back(*find_suite("hmac-sha256"), std::move(rows.value()));
  EXPECT_NE(render_text(rep).find("Throughput on 2 cores"), std::string::npos);
  EXPECT_NE(render_html(rep).find("id=\"throughput\""), std::string::npos);
  auto j = json::parse(render_json(rep));
  EXPECT_EQ(j["multi_threads"], 2);
}

TEST(PriceLedger, DualIsLabelledEstimateOnlyWhereItWasNotMeasured) {
  // ml-dsa-44 (the VU reference) and ml-dsa-65 have a measured verify-dual (a second verifier
  // was present); slh-dsa-sha2-128s has none: its dual figures are 2 x verify, an estimate.
  Report rep;
  rep.workload = default_workload();
  rep.env.cores = 2;
  rep.suites.push_back(fixed("ml-dsa-44", 80e3, 100e3, 20e3, 200, 3865));
  rep.suites.push_back(fixed("ml-dsa-65", 300e3, 400e3, 30e3, 200, 5049));
  rep.suites.push_back(fixed("slh-dsa-sha2-128s", 200e6, 210e6, 1e6, 5, 11121));
  for (auto [i, ns] : {std::pair{0, 50e3}, std::pair{1, 90e3}}) {
    OpResult o;
    o.name = "verify-dual";
    o.stats.n = 200;
    o.stats.median_ns = o.stats.p90_ns = o.stats.p99_ns = ns;
    rep.suites[static_cast<std::size_t>(i)].ops.push_back(o);
  }
  analyze(rep);
  const std::string html = render_html(rep);
  const auto ledger = html.substr(html.find("id=\"ledger\""), html.find("id=\"hybrids\"") - html.find("id=\"ledger\""));
  auto row_of = [&](const std::string& id) {
    const auto p = ledger.find("<td class=\"id\">" + id + "</td>");
    EXPECT_NE(p, std::string::npos) << id;
    return ledger.substr(p, ledger.find("</tr>", p) - p);
  };
  for (const char* id : {"ml-dsa-44", "ml-dsa-65"}) {
    EXPECT_NE(row_of(id).find(">MEASURED<"), std::string::npos) << id << ": " << row_of(id);
    EXPECT_EQ(row_of(id).find(">EST<"), std::string::npos) << id << ": " << row_of(id);
  }
  EXPECT_NE(row_of("slh-dsa-sha2-128s").find(">EST<"), std::string::npos) << row_of("slh-dsa-sha2-128s");
  EXPECT_EQ(row_of("slh-dsa-sha2-128s").find(">MEASURED<"), std::string::npos);
  // Headers carry no blanket EST label; the lead says both kinds are present.
  const auto thead = ledger.substr(ledger.find("<thead>"), ledger.find("</thead>") - ledger.find("<thead>"));
  EXPECT_EQ(thead.find("EST"), std::string::npos) << thead;
  EXPECT_NE(ledger.find("MEASURED</span> with pqsig + liboqs"), std::string::npos);
  // Text: the same per row; JSON: dual_is_estimate per suite.
  const std::string text = render_text(rep);
  auto line_of = [&](const std::string& id) {
    const auto p = text.find("\n" + id + " ", text.find("Ledger:"));
    return text.substr(p + 1, text.find('\n', p + 1) - p - 1);
  };
  EXPECT_NE(line_of("ml-dsa-44").find(" meas"), std::string::npos) << line_of("ml-dsa-44");
  EXPECT_EQ(line_of("ml-dsa-44").find(" est"), std::string::npos) << line_of("ml-dsa-44");
  EXPECT_NE(line_of("slh-dsa-sha2-128s").find(" est"), std::string::npos) << line_of("slh-dsa-sha2-128s");
  const json j = json::parse(render_json(rep));
  EXPECT_EQ(j["suites"][0]["ledger"]["dual_is_estimate"], false);
  EXPECT_EQ(j["suites"][2]["ledger"]["dual_is_estimate"], true);
  // No second verifier anywhere: every dual figure is an estimate, and nothing says MEASURED.
  Report est = fixed_report();
  const std::string h2 = render_html(est);
  EXPECT_EQ(h2.find(">MEASURED<"), std::string::npos);
  EXPECT_NE(h2.find("<span class=\"est\">EST</span> = 2 × verify"), std::string::npos);
}
