// pqsig price through the binary: --print-workload, --workload errors (exit 2), --suites filter,
// and the --quick smoke run. No timed assertions.
#include <gtest/gtest.h>
#include <sys/wait.h>

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
