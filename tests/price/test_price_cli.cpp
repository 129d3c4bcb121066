// pqsig price through the binary: --print-workload, --workload errors (exit 2), --suites filter,
// the --quick smoke run, --predict / --print-predict-template, --multi, streaming and Ctrl-C.
// No timed assertions.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "pqsig/price.hpp"

using json = nlohmann::json;

namespace {

struct CmdRun {
  int code = -1;
  std::string out;
};

CmdRun run(const std::string& args) {
  CmdRun r;
  std::string cmd = std::string(PQSIG_BINARY_DIR "/pqsig ") + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string temp_path(const std::string& name) {
  return (::testing::TempDir().empty() ? std::string("/tmp/") : ::testing::TempDir()) + "pqsig_price_" +
         std::to_string(::getpid()) + "_" + name;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST(PriceCli, PrintWorkloadIsTheDefaultAndLoadsBack) {
  CmdRun r = run("price --print-workload");
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(r.out, pqsig::price::workload_to_json(pqsig::price::default_workload()));
  std::string path = temp_path("w.json");
  write(path, r.out);
  CmdRun again = run("price --workload " + path + " --print-workload");
  EXPECT_EQ(again.code, 0);
  EXPECT_EQ(again.out, r.out);
  std::remove(path.c_str());
}

TEST(PriceCli, BadWorkloadExits2) {
  std::string path = temp_path("bad.json");
  write(path, R"({"surfaces": [{"name": "x", "signatures": 3}]})");
  EXPECT_EQ(run("price --workload " + path + " --print-workload").code, 2);
  write(path, R"({"cpu_budget_ms": "ten"})");
  EXPECT_EQ(run("price --workload " + path).code, 2);
  write(path, "not json");
  EXPECT_EQ(run("price --workload " + path).code, 2);
  EXPECT_EQ(run("price --workload /nonexistent/w.json").code, 2);
  std::remove(path.c_str());
}

TEST(PriceCli, UnknownSuiteExits2) { EXPECT_EQ(run("price --quick --suites ml-dsa-44,nope --no-progress").code, 2); }

TEST(PriceCli, QuickSmokeMlDsa44) {
  std::string jsonl = temp_path("q.jsonl");
  CmdRun r = run("price --quick --suites ml-dsa-44 --json --no-progress --jsonl " + jsonl);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = json::parse(r.out);
  ASSERT_EQ(j["suites"].size(), 1u);
  const json& s = j["suites"][0];
  EXPECT_EQ(s["suite"], "ml-dsa-44");
  if (s["available"] == true) {
    for (const char* op : {"keygen", "sign", "verify"}) {
      ASSERT_TRUE(s["ops"].contains(op)) << op;
      EXPECT_GE(s["ops"][op]["n"].get<int>(), 3) << op;
      EXPECT_GT(s["ops"][op]["median_ns"].get<double>(), 0) << op;
    }
    EXPECT_EQ(s["sizes"]["output"], 2420);
    EXPECT_EQ(s["sizes"]["sf_bytes"], 3230);
    EXPECT_EQ(s["surfaces"].size(), 3u);
    EXPECT_EQ(s["ledger"]["vu"], 100);
  } else {
    EXPECT_NE(s["note"].get<std::string>().find("not available"), std::string::npos);
  }
  std::ifstream f(jsonl);
  std::string first;
  ASSERT_TRUE(static_cast<bool>(std::getline(f, first)));
  EXPECT_EQ(json::parse(first)["type"], "environment");
  std::remove(jsonl.c_str());
  // the table
  CmdRun t = run("price --quick --suites ml-dsa-44 --no-progress");
  EXPECT_EQ(t.code, 0);
  EXPECT_NE(t.out.find("ml-dsa-44"), std::string::npos);
  EXPECT_NE(t.out.find("Surfaces"), std::string::npos);
}

TEST(PriceCli, PredictionTemplateFilledAndReviewed) {
  CmdRun t = run("price --suites hmac-sha256,ml-kem-768 --print-predict-template");
  ASSERT_EQ(t.code, 0);
  json tj = json::parse(t.out);
  ASSERT_TRUE(tj["suites"].contains("hmac-sha256"));
  tj["suites"]["hmac-sha256"]["median_us"]["sign"] = 1.5;
  tj["suites"]["hmac-sha256"]["verdicts"]["crawl"] = "over";  // it will fit: a flipped verdict
  const std::string text = tj.dump(1) + "\n";
  std::string path = temp_path("predict.json");
  write(path, text);
  CmdRun r = run("price --quick --suites hmac-sha256 --json --no-progress --predict " + path);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = json::parse(r.out);
  EXPECT_EQ(j["prediction"]["text"], text);  // recorded unchanged
  ASSERT_EQ(j["prediction"]["review"].size(), 2u);
  bool flipped = false;
  for (const auto& row : j["prediction"]["review"]) {
    if (row["kind"] == "median") {
      EXPECT_GT(row["miss_ratio"].get<double>(), 0);
    }
    if (row["kind"] == "verdict") flipped = row["flipped"].get<bool>();
  }
  EXPECT_TRUE(flipped);
  CmdRun txt = run("price --quick --suites hmac-sha256 --no-progress --predict " + path);
  EXPECT_EQ(txt.code, 0);
  EXPECT_NE(txt.out.find("Prediction review"), std::string::npos);
  EXPECT_NE(txt.out.find("FLIPPED"), std::string::npos);
  // A bad prediction file is a usage error, named.
  write(path, R"({"suites": {"hmac-sha256": {"median_us": {"encaps": 1}}}})");
  EXPECT_EQ(run("price --quick --suites hmac-sha256 --predict " + path).code, 2);
  EXPECT_EQ(run("price --quick --predict /nonexistent/p.json").code, 2);
  std::remove(path.c_str());
}

TEST(PriceCli, MultiReportsThroughputAndScaling) {
  CmdRun r = run("price --quick --budget-ms 5 --suites hmac-sha256 --json --no-progress --multi 2");
  ASSERT_EQ(r.code, 0) << r.out;
  json j = json::parse(r.out);
  EXPECT_EQ(j["multi_threads"], 2);
  const json& t = j["suites"][0]["throughput"];
  for (const char* op : {"keygen", "sign", "verify"}) {
    ASSERT_TRUE(t.contains(op)) << t.dump();
    EXPECT_GT(t[op]["ops_per_s_1"].get<double>(), 0);
    EXPECT_GT(t[op]["ops_per_s_n"].get<double>(), 0);
    EXPECT_GT(t[op]["scaling"].get<double>(), 0);
  }
  EXPECT_NE(j["environment"]["load_before"].size(), 0u);
  EXPECT_TRUE(j["environment"].contains("busy"));
  EXPECT_EQ(run("price --quick --multi 0").code, 2);
}

// Rows stream as measured; Ctrl-C prints the tables of what was measured and exits 130.
TEST(PriceCli, CtrlCPrintsWhatWasMeasured) {
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    int dn = open("/dev/null", O_WRONLY);
    dup2(dn, 2);
    execl(PQSIG_BINARY_DIR "/pqsig", "pqsig", "price", "--stream", "--no-progress", "--budget-ms", "400", "--suites",
          "hmac-sha256,ml-kem-512,ml-kem-768,ml-kem-1024,hmac-sha256", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  std::string got;
  char buf[4096];
  bool sent = false;
  for (;;) {
    ssize_t n = read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    got.append(buf, static_cast<std::size_t>(n));
    // The first measured row ("keygen" of the first suite) has arrived: interrupt.
    if (!sent && got.find("\nhmac-sha256") != std::string::npos && got.find("keygen", got.find("\nhmac-sha256")) !=
                                                                          std::string::npos) {
      kill(pid, SIGINT);
      sent = true;
    }
  }
  close(out[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  ASSERT_TRUE(sent) << got;
  ASSERT_TRUE(WIFEXITED(st)) << got;
  EXPECT_EQ(WEXITSTATUS(st), 130) << got;
  EXPECT_NE(got.find("INTERRUPTED"), std::string::npos) << got;
  EXPECT_NE(got.find("Verdict ("), std::string::npos) << got;
  EXPECT_NE(got.find("Sizes in bytes"), std::string::npos) << got;
  // The streamed time table is not printed twice.
  EXPECT_EQ(got.find("Time per operation"), got.rfind("Time per operation")) << got;
}
