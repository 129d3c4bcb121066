// The `pqsig sf` / `pqsig http` / `pqsig directory` commands end to end (the CLI binary of this
// build; skipped when it has not been built).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {
const std::string kBin = std::string(PQSIG_BINARY_DIR) + "/pqsig";

struct Run {
  int rc;
  std::string out;
};
Run run(const std::string& args, const std::string& stdin_text = "") {
  auto in = std::filesystem::temp_directory_path() / ("pqsig_cli_in_" + std::to_string(::getpid()));
  {
    std::ofstream f(in, std::ios::binary);
    f << stdin_text;
  }
  std::string cmd = "'" + kBin + "' " + args + " < '" + in.string() + "' 2>/dev/null";
  Run r{-1, {}};
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    int st = ::pclose(p);
    r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  }
  std::filesystem::remove(in);
  return r;
}
}  // namespace

TEST(HttpCli, SfParseAndSerialize) {
  if (!std::filesystem::exists(kBin)) GTEST_SKIP() << "pqsig CLI not built";
  auto a = run("sf parse --type dictionary -- 'a=1,  b=(x y);q' 'c=?0'");
  EXPECT_EQ(a.rc, 0);
  EXPECT_EQ(a.out, "a=1, b=(x y);q, c=?0\n");
  EXPECT_EQ(run("sf parse --type list -- ''").out, "\n");
  EXPECT_EQ(run("sf parse --type item -- '1,'").rc, 1);
  auto j = run("sf parse --type item --json -- 'tok;p=:aGk=:'");
  EXPECT_EQ(j.out, "[{\"__type\":\"token\",\"value\":\"tok\"},[[\"p\",{\"__type\":\"binary\",\"value\":\"NBUQ====\"}]]]\n");
  EXPECT_EQ(run("sf serialize --type item", "[{\"__type\":\"token\",\"value\":\"tok\"},[]]").out, "tok\n");
  EXPECT_NE(run("sf serialize --type item", "[1000000000000000,[]]").rc, 0);
}

TEST(HttpCli, SignVerifyDirectoryRoundTrip) {
  if (!std::filesystem::exists(kBin)) GTEST_SKIP() << "pqsig CLI not built";
  auto dir = std::filesystem::temp_directory_path() / ("pqsig_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string d = dir.string();
  if (run("keygen --alg ed25519 -o '" + d + "/ed.jwk'").rc != 0 || run("keygen --alg ml-dsa-44 -o '" + d + "/ml.jwk'").rc != 0) {
    std::filesystem::remove_all(dir);
    GTEST_SKIP() << "keygen not available in this build";
  }
  auto jwks = run("directory build --key '" + d + "/ed.jwk' --key '" + d + "/ml.jwk'");
  ASSERT_EQ(jwks.rc, 0);
  std::ofstream(d + "/dir.json") << jwks.out;
  auto resp = run("directory sign --key '" + d + "/ed.jwk' --key '" + d + "/ml.jwk' --authority bot.example", jwks.out);
  ASSERT_EQ(resp.rc, 0);
  EXPECT_EQ(run("directory verify --authority bot.example", resp.out).rc, 0);
  EXPECT_EQ(run("directory verify --authority other.example", resp.out).rc, 1);

  std::string req = "GET /page HTTP/1.1\r\nHost: example.com\r\n\r\n";
  auto signed_req = run("http sign --key sig1='" + d + "/ed.jwk' --key sig2='" + d + "/ml.jwk' --agent https://bot.example/d", req);
  ASSERT_EQ(signed_req.rc, 0);
  EXPECT_NE(signed_req.out.find("Signature-Agent: sig1=\"https://bot.example/d\", sig2=\"https://bot.example/d\""), std::string::npos);
  auto v = run("http verify --keys '" + d + "/dir.json'", signed_req.out);
  EXPECT_EQ(v.rc, 0) << v.out;
  EXPECT_NE(v.out.find("\"alg_registered\": false"), std::string::npos);
  EXPECT_EQ(run("http verify --keys '" + d + "/dir.json' --alg ed25519", signed_req.out).rc, 0);
  // tampered authority → exit 1
  std::string bad = signed_req.out;
  bad.replace(bad.find("example.com"), 11, "example.org");
  EXPECT_EQ(run("http verify --keys '" + d + "/dir.json'", bad).rc, 1);
  // expired as of a later --now → exit 1
  EXPECT_EQ(run("http verify --keys '" + d + "/dir.json' --now 99999999999", signed_req.out).rc, 1);
  // SLH-DSA-128f: refused by the header cap
  if (run("keygen --alg slh-dsa-sha2-128f -o '" + d + "/slh.jwk'").rc == 0) {
    EXPECT_EQ(run("http sign --key sig1='" + d + "/ed.jwk' --key sig2='" + d + "/slh.jwk' --agent https://b/d", req).rc, 1);
  }
  std::filesystem::remove_all(dir);
}
