// The `pqsig sf` / `pqsig http` / `pqsig directory` commands end to end (the CLI binary of this
// build; skipped when it has not been built).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
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
  ASSERT_TRUE(std::filesystem::exists(kBin)) << kBin << " (test_httpsig depends on pqsig_cli)";
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
  ASSERT_TRUE(std::filesystem::exists(kBin)) << kBin << " (test_httpsig depends on pqsig_cli)";
  auto dir = std::filesystem::temp_directory_path() / ("pqsig_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string d = dir.string();
  ASSERT_EQ(run("keygen --alg ed25519 -o '" + d + "/ed.jwk'").rc, 0);
  ASSERT_EQ(run("keygen --alg ml-dsa-44 -o '" + d + "/ml.jwk'").rc, 0);
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
  ASSERT_EQ(run("keygen --alg slh-dsa-sha2-128f -o '" + d + "/slh.jwk'").rc, 0);
  EXPECT_EQ(run("http sign --key sig1='" + d + "/ed.jwk' --key sig2='" + d + "/slh.jwk' --agent https://b/d", req).rc, 1);
  std::filesystem::remove_all(dir);
}

// Issue 10 item 1: `http verify --keys directory.json` without --profile accepted a signature
// covering only "@method", with no tag, after the request's Host was changed.
TEST(HttpCli, DefaultVerifyRefusesUnboundOrStaleSignatures) {
  auto dir = std::filesystem::temp_directory_path() / ("pqsig_cli_safe_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string d = dir.string();
  ASSERT_EQ(run("keygen --alg ed25519 -o '" + d + "/ed.jwk'").rc, 0);
  auto jwks = run("directory build --key '" + d + "/ed.jwk'");
  ASSERT_EQ(jwks.rc, 0);
  std::ofstream(d + "/dir.json") << jwks.out;
  std::string req = "GET /page HTTP/1.1\r\nHost: example.com\r\n\r\n";
  auto method_only = run("http sign --profile rfc9421 --component @method --expires 0 --no-nonce --created 1700000000 --key '" + d +
                             "/ed.jwk'",
                         req);
  ASSERT_EQ(method_only.rc, 0);
  ASSERT_EQ(method_only.out.find("tag="), std::string::npos);
  std::string moved = method_only.out;
  moved.replace(moved.find("example.com"), 11, "evil.example");
  auto v = run("http verify --now 1700000010 --keys '" + d + "/dir.json'", moved);
  EXPECT_EQ(v.rc, 1) << v.out;
  EXPECT_NE(v.out.find("required_component_not_covered"), std::string::npos) << v.out;
  // Relaxing is explicit.
  EXPECT_EQ(run("http verify --no-authority-binding --now 1700000010 --keys '" + d + "/dir.json'", moved).rc, 0);
  // Covering @authority: valid now, stale after the default lifetime of a label without expires.
  auto bound = run("http sign --profile rfc9421 --component @method --component @authority --expires 0 --no-nonce "
                   "--created 1700000000 --key '" + d + "/ed.jwk'",
                   req);
  ASSERT_EQ(bound.rc, 0);
  EXPECT_EQ(run("http verify --now 1700000010 --keys '" + d + "/dir.json'", bound.out).rc, 0);
  auto stale = run("http verify --now 1700009999 --keys '" + d + "/dir.json'", bound.out);
  EXPECT_EQ(stale.rc, 1);
  EXPECT_NE(stale.out.find("too_old"), std::string::npos) << stale.out;
  // A validity window longer than 24 h is refused unless --max-validity allows it.
  auto longwin = run("http sign --profile rfc9421 --component @authority --expires 200000 --no-nonce --created 1700000000 --key '" +
                         d + "/ed.jwk'",
                     req);
  ASSERT_EQ(longwin.rc, 0);
  auto lw = run("http verify --now 1700000010 --keys '" + d + "/dir.json'", longwin.out);
  EXPECT_EQ(lw.rc, 1);
  EXPECT_NE(lw.out.find("invalid_window"), std::string::npos) << lw.out;
  EXPECT_EQ(run("http verify --max-validity 0 --now 1700000010 --keys '" + d + "/dir.json'", longwin.out).rc, 0);
  std::filesystem::remove_all(dir);
}

// `pqsig hbs export`: the HSS key as our AKP JWK goes into `directory build` (Web Bot Auth), as
// RFC 9802 SPKI PEM / DER and as RFC 8778 COSE_Key; XMSS has no COSE_Key.
TEST(HttpCli, HbsExportForms) {
  ASSERT_TRUE(std::filesystem::exists(kBin)) << kBin << " (test_httpsig depends on pqsig_cli)";
  auto dir = std::filesystem::temp_directory_path() / ("pqsig_cli_hbs_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string d = dir.string();
  ASSERT_EQ(run("hbs keygen --alg lms-sha256-m32-h5-w8 -o '" + d + "/k.hbs' --pub '" + d + "/k.pub'").rc, 0);
  auto jwk = run("hbs export --pub '" + d + "/k.pub' --form jwk -o '" + d + "/k.jwk'");
  ASSERT_EQ(jwk.rc, 0);
  std::ifstream jf(d + "/k.jwk");
  std::string jtext((std::istreambuf_iterator<char>(jf)), std::istreambuf_iterator<char>());
  EXPECT_NE(jtext.find("\"alg\":\"HSS-LMS\""), std::string::npos) << jtext;
  auto ed = run("keygen --alg ed25519 -o '" + d + "/ed.jwk'");
  ASSERT_EQ(ed.rc, 0);
  auto dirj = run("directory build --key '" + d + "/ed.jwk' --key '" + d + "/k.jwk'");
  ASSERT_EQ(dirj.rc, 0);
  EXPECT_NE(dirj.out.find("\"alg\":\"HSS-LMS\""), std::string::npos) << dirj.out;
  auto pem = run("hbs export --pub '" + d + "/k.pub' --form spki");
  ASSERT_EQ(pem.rc, 0);
  EXPECT_EQ(pem.out.rfind("-----BEGIN PUBLIC KEY-----", 0), 0u) << pem.out;
  auto der = run("hbs export --pub '" + d + "/k.pub' --form spki-der");
  ASSERT_EQ(der.rc, 0);
  ASSERT_GT(der.out.size(), 20u);
  EXPECT_EQ(static_cast<unsigned char>(der.out[0]), 0x30);
  EXPECT_NE(der.out.find(std::string("\x06\x0b\x2a\x86\x48\x86\xf7\x0d\x01\x09\x10\x03\x11", 13)), std::string::npos);
  auto cose = run("hbs export --pub '" + d + "/k.pub' --form cose");
  ASSERT_EQ(cose.rc, 0);
  EXPECT_EQ(cose.out.substr(0, 3), std::string("\xa3\x01\x05", 3));
  EXPECT_EQ(run("hbs export --pub '" + d + "/k.pub' --family xmss --form cose").rc, 2);  // xmss key shape check first or cose refusal
  std::ofstream(d + "/bad.pub") << "00000009";
  EXPECT_EQ(run("hbs export --pub '" + d + "/bad.pub' --form jwk").rc, 2);
  std::filesystem::remove_all(dir);
}
