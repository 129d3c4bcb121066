// `pqsig hbs keygen | sign | verify | status | reserve` end to end: signatures verify, indices
// advance and never repeat across separate processes, tampering is invalid, exhaustion exits 1,
// a rolled-back state file makes sign refuse.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cli/cli_util.hpp"
#include "pqsig/lms.hpp"

using namespace pqsig;

namespace {
std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}
}  // namespace

TEST(LmsCli, KeygenSignVerifyStatusReserve) {
  TempDir d;
  auto r = run_pqsig(d, "hbs keygen --alg lms-sha256-m24-h5-w4 -o k.hss --pub k.pub");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.find("32 signatures") != std::string::npos) << r.err;
  // The private key file is 0600; the state and its log exist.
  struct stat sb {};
  ASSERT_EQ(::stat(d.file("k.hss").c_str(), &sb), 0);
  EXPECT_EQ(sb.st_mode & 0777, 0600u);
  EXPECT_EQ(::stat(d.file("k.hss.state").c_str(), &sb), 0);
  EXPECT_EQ(::stat(d.file("k.hss.state.log").c_str(), &sb), 0);
  // Refuses to replace the state of an existing key.
  EXPECT_EQ(run_pqsig(d, "hbs keygen --alg lms-sha256-m24-h5-w4 -o k.hss --force").code, 2);

  std::set<std::string> indices;
  for (int i = 0; i < 3; ++i) {
    const std::string m = "m" + std::to_string(i);
    write_text(d.file(m), "message " + std::to_string(i));
    r = run_pqsig(d, "hbs sign --key k.hss --block 2 -i " + m + " -o " + m + ".sig");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(indices.insert(trim(r.err)).second) << "index repeated: " << r.err;
    r = run_pqsig(d, "hbs verify --pub k.pub --sig " + m + ".sig -i " + m);
    EXPECT_EQ(r.code, 0) << r.err;
  }
  // Each process reserved its own block of 2: three processes used indices 0, 2, 4.
  EXPECT_EQ(indices, (std::set<std::string>{"index 0", "index 2", "index 4"}));
  // Tampered message / signature: exit 1.
  write_text(d.file("other"), "message 9");
  EXPECT_EQ(run_pqsig(d, "hbs verify --pub k.pub --sig m0.sig -i other").code, 1);
  std::string sig = slurp_file(d.file("m1.sig"));
  sig[20] = sig[20] == '0' ? '1' : '0';
  write_text(d.file("bad.sig"), sig);
  EXPECT_EQ(run_pqsig(d, "hbs verify --pub k.pub --sig bad.sig -i m1").code, 1);

  r = run_pqsig(d, "hbs audit --pub k.pub --state k.hss.state");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.find("signatures 3\nreservations 3\nreused 0\n") != std::string::npos) << r.out;
  r = run_pqsig(d, "hbs status --pub k.pub --state k.hss.state");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.find("reserved 6\n") != std::string::npos) << r.out;
  EXPECT_TRUE(r.out.find("remaining 26\n") != std::string::npos) << r.out;

  // Back up the state, reserve the rest, then the key is exhausted (exit 1).
  write_text(d.file("backup"), slurp_file(d.file("k.hss.state")));
  r = run_pqsig(d, "hbs reserve --pub k.pub --state k.hss.state --count 100");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "6 32\n");
  r = run_pqsig(d, "hbs sign --key k.hss -i m0 -o again.sig");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(r.err.find("key_exhausted") != std::string::npos) << r.err;
  // Restoring the backup is a rollback: refused (exit 2), no signature.
  write_text(d.file("k.hss.state"), slurp_file(d.file("backup")));
  r = run_pqsig(d, "hbs sign --key k.hss -i m0 -o again2.sig");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(r.err.find("state_rejected") != std::string::npos) << r.err;
  EXPECT_NE(::stat(d.file("again2.sig").c_str(), &sb), 0);
  EXPECT_EQ(run_pqsig(d, "hbs status --pub k.pub --state k.hss.state").code, 2);
}

TEST(LmsCli, HssTwoLevelsAndBadArguments) {
  TempDir d;
  auto r = run_pqsig(d, "hbs keygen --alg hss-shake-m32-h5-w8-h5-w8 -o k.hss --pub k.pub");
  ASSERT_EQ(r.code, 0) << r.err;
  write_text(d.file("m"), "hello");
  r = run_pqsig(d, "hbs sign --key k.hss -i m -o m.sig --format base64");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(run_pqsig(d, "hbs verify --pub k.pub --sig m.sig -i m --format base64").code, 0);
  EXPECT_EQ(run_pqsig(d, "hbs verify --pub k.pub --sig m.sig -i m").code, 2);  // not hex
  EXPECT_EQ(run_pqsig(d, "hbs keygen --alg lms-sha256-m32-h7-w4 -o x.hss").code, 2);
  EXPECT_EQ(run_pqsig(d, "hbs sign --key nothere -i m").code, 2);
  EXPECT_EQ(run_pqsig(d, "hbs reserve --pub k.pub --state k.hss.state --count 0").code, 2);
}
