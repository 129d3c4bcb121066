// `pqsig hbs sign-cose | verify-cose` end to end: a COSE_Sign1 (alg HSS-LMS, RFC 8778) made through
// the key's state file verifies with the raw key and with its RFC 8778 COSE_Key; each message takes
// its own index; detached payloads, tampering and XMSS keys are handled with the documented exit codes.
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_util.hpp"

TEST(CoseCli, SignCoseVerifyCose) {
  TempDir d;
  auto r = run_pqsig(d, "hbs keygen --alg lms-sha256-m32-h5-w8 -o k.hss --pub k.pub");
  ASSERT_EQ(r.code, 0) << r.err;
  write_text(d.file("pl"), "This is the content.");
  r = run_pqsig(d, "hbs sign-cose --key k.hss -i pl -o m.cose --kid ItsBig");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "index 0\n");
  const std::string m = slurp_file(d.file("m.cose"));
  // Tag 18, array of 4, protected {1: -46}, unprotected {4: 'ItsBig'}, the payload head (bstr of 20: 0x54).
  EXPECT_EQ(m.substr(0, 17), std::string("\xd2\x84\x44\xa1\x01\x38\x2d\xa1\x04\x46ItsBigT", 17));
  r = run_pqsig(d, "hbs verify-cose --pub k.pub --msg m.cose -o out");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "valid\n");
  EXPECT_EQ(slurp_file(d.file("out")), "This is the content.");
  ASSERT_EQ(run_pqsig(d, "hbs export --pub k.pub --form cose -o k.cose").code, 0);
  r = run_pqsig(d, "hbs verify-cose --cose-key k.cose --msg m.cose");
  EXPECT_EQ(r.code, 0) << r.err;

  // Detached and untagged: needs the payload; the next index.
  r = run_pqsig(d, "hbs sign-cose --key k.hss -i pl -o d.cose --detached --untagged");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "index 1\n");
  EXPECT_EQ(run_pqsig(d, "hbs verify-cose --pub k.pub --msg d.cose").code, 1);
  EXPECT_EQ(run_pqsig(d, "hbs verify-cose --pub k.pub --msg d.cose --payload pl").code, 0);
  write_text(d.file("pl2"), "This is the content!");
  EXPECT_EQ(run_pqsig(d, "hbs verify-cose --pub k.pub --msg d.cose --payload pl2").code, 1);

  // Tampered payload byte, trailing garbage: invalid (exit 1).
  std::string t = m;
  t[20] ^= 0x01;
  write_text(d.file("t.cose"), t);
  EXPECT_EQ(run_pqsig(d, "hbs verify-cose --pub k.pub --msg t.cose").code, 1);
  write_text(d.file("g.cose"), m + "x");
  r = run_pqsig(d, "hbs verify-cose --pub k.pub --msg g.cose");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("invalid_encoding"), std::string::npos) << r.err;

  // Usage errors: both or neither key; an XMSS key has no COSE algorithm.
  EXPECT_EQ(run_pqsig(d, "hbs verify-cose --msg m.cose").code, 2);
  EXPECT_EQ(run_pqsig(d, "hbs verify-cose --pub k.pub --cose-key k.cose --msg m.cose").code, 2);
  ASSERT_EQ(run_pqsig(d, "hbs keygen --alg XMSS-SHA2_10_256 -o x.key --pub x.pub").code, 0);
  r = run_pqsig(d, "hbs sign-cose --key x.key -i pl -o x.cose");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("XMSS"), std::string::npos) << r.err;

  // Two COSE signatures, two indices, nothing reused.
  r = run_pqsig(d, "hbs audit --pub k.pub --state k.hss.state");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("signatures 2\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reused 0\n"), std::string::npos) << r.out;
}
