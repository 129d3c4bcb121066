// `pqsig hbs export-subtree` end to end: the delegated key signs inside its subtrees under the
// original public key, in its own state, until its range runs out; the full key's state has the
// range burnt; status shows the delegate's state; bad ranges and misuse are usage errors.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "cli/cli_util.hpp"
#include "pqsig/lms.hpp"

using namespace pqsig;

TEST(LmsCli, ExportSubtree) {
  TempDir d;
  auto r = run_pqsig(d, "hbs keygen --alg hss-sha256-m24-h5-w4-h5-w4 -o k.hss --pub k.pub");
  ASSERT_EQ(r.code, 0) << r.err;
  write_text(d.file("m"), "message");
  r = run_pqsig(d, "hbs sign --key k.hss -i m -o m0.sig");  // index 0: subtree 0 is used
  ASSERT_EQ(r.code, 0) << r.err;
  // Subtree 0 holds an index the full key may have used: refused.
  r = run_pqsig(d, "hbs export-subtree --key k.hss --subtrees 0:2 -o bad.hss");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(r.err.find("policy") != std::string::npos) << r.err;
  for (const char* bad : {"3", "3:3", "4:2", "x:5", "1:33", "3:99999999999"})
    EXPECT_EQ(run_pqsig(d, std::string("hbs export-subtree --key k.hss --subtrees ") + bad + " -o bad.hss").code, 2) << bad;
  struct stat sb {};
  EXPECT_NE(::stat(d.file("bad.hss").c_str(), &sb), 0);

  r = run_pqsig(d, "hbs export-subtree --key k.hss --subtrees 3:5 -o d.hss");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "subtrees 3 5\nindices 96 160\n");
  ASSERT_EQ(::stat(d.file("d.hss").c_str(), &sb), 0);
  EXPECT_EQ(sb.st_mode & 0777, 0600u);
  EXPECT_EQ(::stat(d.file("d.hss.state").c_str(), &sb), 0);
  // Never over an existing delegate.
  EXPECT_EQ(run_pqsig(d, "hbs export-subtree --key k.hss --subtrees 6:7 -o d.hss").code, 2);

  // Three signatures reserving one index each, then one reserving the rest of the range.
  for (int i = 0; i < 4; ++i) {
    r = run_pqsig(d, "hbs sign --key d.hss -i m -o d" + std::to_string(i) + ".sig" + (i == 3 ? " --block 100" : ""));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "index " + std::to_string(96 + i) + "\n");
    r = run_pqsig(d, "hbs verify --pub k.pub --sig d" + std::to_string(i) + ".sig -i m");
    EXPECT_EQ(r.code, 0) << r.err;
  }
  r = run_pqsig(d, "hbs sign --key d.hss -i m -o over.sig");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(r.err.find("key_exhausted") != std::string::npos) << r.err;
  EXPECT_EQ(run_pqsig(d, "hbs sign --key d.hss -i m --align-subtree -o x.sig").code, 2);

  r = run_pqsig(d, "hbs status --key d.hss --state d.hss.state");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.find("delegated subtrees 3 5\nindices 96 160\n") != std::string::npos) << r.out;
  EXPECT_TRUE(r.out.find("remaining 0\n") != std::string::npos) << r.out;
  r = run_pqsig(d, "hbs audit --key d.hss --state d.hss.state");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.find("signatures 4\n") != std::string::npos) << r.out;
  EXPECT_EQ(run_pqsig(d, "hbs status --key k.hss --state d.hss.state").code, 2);  // --key: delegates only
  EXPECT_EQ(run_pqsig(d, "hbs status --state d.hss.state").code, 2);
  // The delegate's state is not the full key's, nor the other way round.
  EXPECT_EQ(run_pqsig(d, "hbs status --pub k.pub --state d.hss.state").code, 2);
  EXPECT_EQ(run_pqsig(d, "hbs sign --key d.hss --state k.hss.state -i m -o y.sig").code, 2);
  // The full key signs after the range.
  r = run_pqsig(d, "hbs status --pub k.pub --state k.hss.state");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.find("reserved 160\n") != std::string::npos) << r.out;
  r = run_pqsig(d, "hbs sign --key k.hss -i m -o m1.sig");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "index 160\n");
  r = run_pqsig(d, "hbs audit --pub k.pub --state k.hss.state");
  EXPECT_EQ(r.code, 0) << r.err << r.out;
  // A delegated key cannot export further, and a truncated one is refused.
  EXPECT_EQ(run_pqsig(d, "hbs export-subtree --key d.hss --subtrees 6:7 -o e.hss").code, 2);
  std::string text = slurp_file(d.file("d.hss"));
  write_text(d.file("t.hss"), text.substr(0, text.size() / 2) + "\n");
  ::chmod(d.file("t.hss").c_str(), 0600);
  r = run_pqsig(d, "hbs sign --key t.hss --state d.hss.state -i m -o t.sig");
  EXPECT_EQ(r.code, 2) << r.err;
}
