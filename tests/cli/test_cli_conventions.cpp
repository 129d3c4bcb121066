// CLI conventions (tools/io.hpp) through the built binary, for every command family: usage and
// exit 2 for bare / unknown commands, unknown options named, '-' for stdin/stdout, no private key
// on a terminal unless asked, --force to overwrite, private key file permissions, exit codes,
// --version, write errors, completions.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_util.hpp"

namespace {

const std::string kBin = PQSIG_BINARY_DIR "/pqsig";

/// Run a shell command line in `dir`; "@pqsig" in `cmd` is the binary. stdout/stderr captured.
RunResult sh(const TempDir& dir, std::string cmd) {
  for (std::size_t p; (p = cmd.find("@pqsig")) != std::string::npos;) cmd.replace(p, 6, "'" + kBin + "'");
  std::string o = dir.file(".stdout"), e = dir.file(".stderr");
  std::string full = "cd '" + dir.path() + "' && { " + cmd + " ; } >'" + o + "' 2>'" + e + "'";
  int st = std::system(full.c_str());
  RunResult r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp_file(o);
  r.err = slurp_file(e);
  return r;
}

/// Run `pqsig <args>` with stdout on a pseudo-terminal (util-linux script(1)).
RunResult on_tty(const TempDir& dir, const std::string& args) {
  return sh(dir, "script -qec \"@pqsig " + args + "\" /dev/null </dev/null");
}

bool have_script() { return std::system("script -qec true /dev/null </dev/null >/dev/null 2>&1") == 0; }

unsigned mode_of(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? (st.st_mode & 0777) : 0xFFFF;
}

bool contains(const std::string& s, const std::string& x) { return s.find(x) != std::string::npos; }

}  // namespace

TEST(CliConventions, BareAndUnknownCommandsPrintUsageAndExit2) {
  TempDir d;
  auto bare = sh(d, "@pqsig");
  EXPECT_EQ(bare.code, 2);
  EXPECT_TRUE(contains(bare.err, "Usage:")) << bare.err;
  EXPECT_TRUE(bare.out.empty());
  auto unk = sh(d, "@pqsig frobnicate");
  EXPECT_EQ(unk.code, 2);
  EXPECT_TRUE(contains(unk.err, "unknown command 'frobnicate'")) << unk.err;
  EXPECT_TRUE(contains(unk.err, "Usage:")) << unk.err;
  auto group = sh(d, "@pqsig kem");
  EXPECT_EQ(group.code, 2);
  EXPECT_TRUE(contains(group.err, "needs a command")) << group.err;
  EXPECT_TRUE(contains(group.err, "keygen")) << group.err;
  auto sub = sh(d, "@pqsig key frobnicate");
  EXPECT_EQ(sub.code, 2);
  EXPECT_TRUE(contains(sub.err, "unknown command 'frobnicate' for 'pqsig key'")) << sub.err;
  auto help = sh(d, "@pqsig --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_TRUE(contains(help.out, "keygen"));
}

TEST(CliConventions, UnknownOptionsAndArgumentsAreNamed) {
  TempDir d;
  for (const char* cmd : {"sign --bogus", "sign --bogus --key k.jwk msg", "kem keygen --bogus",
                          "http sign --bogus", "key check --bogus r.json", "sf parse --bogus x"}) {
    auto r = sh(d, std::string("@pqsig ") + cmd);
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_TRUE(contains(r.err, "unknown option '--bogus'")) << cmd << ": " << r.err;
    EXPECT_FALSE(contains(r.err, "is required")) << cmd << ": " << r.err;
  }
  auto extra = sh(d, "@pqsig suites extra");
  EXPECT_EQ(extra.code, 2);
  EXPECT_TRUE(contains(extra.err, "unexpected argument 'extra'")) << extra.err;
  auto missing = sh(d, "@pqsig sign msg");
  EXPECT_EQ(missing.code, 2);
  EXPECT_TRUE(contains(missing.err, "--key")) << missing.err;
}

TEST(CliConventions, DashIsStdinAndStdout) {
  TempDir d;
  // sf parse: field lines from stdin
  auto sf = sh(d, "printf 'a=1,  b=(x y);q\\nc=?0\\n' | @pqsig sf parse --type dictionary -");
  EXPECT_EQ(sf.code, 0) << sf.err;
  EXPECT_EQ(sf.out, "a=1, b=(x y);q, c=?0\n");
  auto ser = sh(d, "echo '[{\"__type\":\"token\",\"value\":\"tok\"},[]]' | @pqsig sf serialize --type item -");
  EXPECT_EQ(ser.code, 0) << ser.err;
  EXPECT_EQ(ser.out, "tok\n");
  // keys: private key to stdout (a pipe), sign stdin to stdout, verify the signature from stdin
  auto g = sh(d, "@pqsig keygen --alg ed25519 -o - > k.jwk && chmod 600 k.jwk && @pqsig pubkey k.jwk -o - > p.jwk");
  ASSERT_EQ(g.code, 0) << g.err;
  auto s = sh(d, "echo hello | @pqsig sign --key k.jwk -o - - > s.sig");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_FALSE(slurp_file(d.file("s.sig")).empty());
  write_text(d.file("msg"), "hello\n");
  EXPECT_EQ(sh(d, "@pqsig verify --key p.jwk --sig - msg < s.sig").code, 0);
  EXPECT_EQ(sh(d, "echo hullo | @pqsig verify --key p.jwk --sig s.sig -").code, 1);
  // a key read from stdin
  auto t = sh(d, "@pqsig pubkey --thumbprint - < k.jwk");
  EXPECT_EQ(t.code, 0) << t.err;
  EXPECT_EQ(t.out, sh(d, "@pqsig pubkey --thumbprint p.jwk").out);
  // kem: private key to stdout, ciphertext from stdin via --in -
  auto kg = sh(d, "@pqsig kem keygen --alg ml-kem-512 -o - > kem.jwk && chmod 600 kem.jwk");
  ASSERT_EQ(kg.code, 0) << kg.err;
  auto enc = sh(d, "@pqsig kem encaps --pub kem.jwk --print-secret > enc.txt");
  ASSERT_EQ(enc.code, 0) << enc.err;
  auto dec = sh(d, "head -1 enc.txt | @pqsig kem decaps --key kem.jwk --in -");
  EXPECT_EQ(dec.code, 0) << dec.err;
  std::string enc_text = slurp_file(d.file("enc.txt"));
  EXPECT_EQ(dec.out, enc_text.substr(enc_text.find('\n') + 1));
}

TEST(CliConventions, PrivateKeysNeverToATerminalUnlessAsked) {
  TempDir d;
  if (!have_script()) GTEST_SKIP() << "script(1) from util-linux is not installed (needed for a pseudo-terminal)";
  for (const char* cmd : {"keygen --alg ed25519", "kem keygen --alg ml-kem-512"}) {
    auto r = on_tty(d, cmd);
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_TRUE(contains(r.out + r.err, "refusing to print a private key to the terminal")) << cmd << ": " << r.out;
    EXPECT_FALSE(contains(r.out, "\"d\"") || contains(r.out, "\"priv\"")) << cmd << ": " << r.out;
    auto asked = on_tty(d, std::string(cmd) + " -o -");
    EXPECT_EQ(asked.code, 0) << cmd << ": " << asked.out;
    EXPECT_TRUE(contains(asked.out, "\"d\"") || contains(asked.out, "\"priv\"")) << cmd << ": " << asked.out;
  }
  // public material to a terminal is fine
  ASSERT_EQ(sh(d, "@pqsig keygen --alg ed25519 -o k.jwk").code, 0);
  EXPECT_EQ(on_tty(d, "pubkey k.jwk").code, 0);
}

TEST(CliConventions, OverwritingNeedsForce) {
  TempDir d;
  write_text(d.file("msg"), "m");
  ASSERT_EQ(sh(d, "@pqsig keygen --alg ed25519 -o k.jwk").code, 0);
  struct Case {
    std::string cmd, file;
  };
  const Case cases[] = {
      {"@pqsig keygen --alg ed25519 -o k2.jwk", "k2.jwk"},
      {"@pqsig pubkey k.jwk -o out", "out"},
      {"@pqsig pubkey --thumbprint k.jwk -o out", "out"},
      {"@pqsig sign --key k.jwk -o out msg", "out"},
      {"@pqsig kem keygen --alg ml-kem-512 -o out", "out"},
      {"@pqsig key record --key k.jwk --participant a --purpose quote -o out", "out"},
  };
  for (const auto& c : cases) {
    write_text(d.file(c.file), "precious");
    std::string before = slurp_file(d.file(c.file));
    auto r = sh(d, c.cmd);
    EXPECT_EQ(r.code, 2) << c.cmd;
    EXPECT_TRUE(contains(r.err, "exists (use --force")) << c.cmd << ": " << r.err;
    EXPECT_EQ(slurp_file(d.file(c.file)), before) << c.cmd;
    if (c.file != "k2.jwk") {
      auto f = sh(d, c.cmd + " --force");
      EXPECT_NE(f.code, 2) << c.cmd << ": " << f.err;
      EXPECT_NE(slurp_file(d.file(c.file)), "precious") << c.cmd;
    }
  }
  // kem keygen: an existing --pub file is refused before the private key is written
  write_text(d.file("pub.jwk"), "precious");
  EXPECT_EQ(sh(d, "@pqsig kem keygen --alg ml-kem-512 -o new.jwk --pub pub.jwk").code, 2);
  EXPECT_EQ(mode_of(d.file("new.jwk")), 0xFFFFu) << "private key written although the public file was refused";
}

TEST(CliConventions, PrivateKeyFilesWithOpenPermissionsAreRefused) {
  TempDir d;
  write_text(d.file("msg"), "m");
  write_text(d.file("req"), "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n");
  ASSERT_EQ(sh(d, "@pqsig keygen --alg ed25519 -o k.jwk && @pqsig pubkey k.jwk -o p.jwk").code, 0);
  EXPECT_EQ(mode_of(d.file("k.jwk")), 0600u);
  ASSERT_EQ(sh(d, "@pqsig kem keygen --alg ml-kem-512 -o kem.jwk --pub kem.pub").code, 0);
  ::chmod(d.file("k.jwk").c_str(), 0644);
  ::chmod(d.file("kem.jwk").c_str(), 0640);
  const char* uses[] = {"sign --key k.jwk -o s1 msg", "pubkey k.jwk", "verify --key k.jwk --sig s1 msg",
                        "kem encaps --pub kem.jwk", "http sign --key sig1=k.jwk < req",
                        "key record --key k.jwk --participant a --purpose quote"};
  for (const char* u : uses) {
    auto r = sh(d, std::string("@pqsig ") + u);
    EXPECT_EQ(r.code, 2) << u;
    EXPECT_TRUE(contains(r.err, "chmod 600")) << u << ": " << r.err;
  }
  // public key files may be world-readable
  ::chmod(d.file("p.jwk").c_str(), 0644);
  EXPECT_EQ(sh(d, "@pqsig pubkey p.jwk").code, 0);
  // overrides: the flag (before or after the command) and the environment, each with a warning
  for (const char* cmd : {"@pqsig --allow-insecure-key-perms sign --key k.jwk -o s2 msg",
                          "@pqsig sign --allow-insecure-key-perms --key k.jwk -o s3 msg",
                          "PQSIG_ALLOW_INSECURE_KEY_PERMS=1 @pqsig sign --key k.jwk -o s4 msg"}) {
    auto r = sh(d, cmd);
    EXPECT_EQ(r.code, 0) << cmd << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "warning")) << cmd << ": " << r.err;
  }
  EXPECT_EQ(sh(d, "PQSIG_ALLOW_INSECURE_KEY_PERMS=0 @pqsig sign --key k.jwk -o s5 msg").code, 2);
  // the fix works
  ::chmod(d.file("k.jwk").c_str(), 0600);
  EXPECT_EQ(sh(d, "@pqsig sign --key k.jwk -o s6 msg").code, 0);
}

TEST(CliConventions, ExitCodes) {
  TempDir d;
  write_text(d.file("msg"), "m");
  write_text(d.file("req"), "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n");
  ASSERT_EQ(sh(d, "@pqsig keygen --alg ed25519 -o k.jwk && @pqsig sign --key k.jwk -o s msg").code, 0);
  EXPECT_EQ(sh(d, "@pqsig verify --key k.jwk --sig s msg").code, 0);
  write_text(d.file("msg"), "tampered");
  EXPECT_EQ(sh(d, "@pqsig verify --key k.jwk --sig s msg").code, 1);  // invalid
  EXPECT_EQ(sh(d, "@pqsig verify --key k.jwk --sig nonexistent msg").code, 2);
  EXPECT_EQ(sh(d, "@pqsig verify --key nonexistent --sig s msg").code, 2);
  auto exp = sh(d, "@pqsig http sign --key sig1=k.jwk --expires 90000 < req");
  EXPECT_EQ(exp.code, 2) << exp.err;  // usage, not "invalid"
  EXPECT_TRUE(contains(exp.err, "--expires")) << exp.err;
  EXPECT_EQ(sh(d, "@pqsig http sign --key sig1=k.jwk --expires 60 < req").code, 0);
  EXPECT_EQ(sh(d, "@pqsig sf parse --type item -- '1,'").code, 1);  // an invalid field value
  EXPECT_EQ(sh(d, "@pqsig keygen --alg nope -o x").code, 2);
  EXPECT_EQ(sh(d, "@pqsig completion fish").code, 2);
}

TEST(CliConventions, VersionNamesBuildCpuAndProviders) {
  TempDir d;
  auto v = sh(d, "@pqsig --version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("pqsig ", 0), 0u) << v.out;
  for (const char* field : {"\ncommit: ", "\ncompiler: ", "\ncpu features in use: ", "\nproviders: pqsig"})
    EXPECT_TRUE(contains(v.out, field)) << field << " missing from:\n" << v.out;
  EXPECT_TRUE(v.err.empty());
}

TEST(CliConventions, WriteErrorsAreNotSilent) {
  TempDir d;
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "/dev/full is not available on this system";
  auto r = sh(d, "@pqsig suites > /dev/full");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "error writing")) << r.err;
}

TEST(CliConventions, CompletionScripts) {
  TempDir d;
  auto b = sh(d, "@pqsig completion bash > c.bash && bash -n c.bash && bash -c '. ./c.bash; COMP_WORDS=(pqsig kem \"\"); "
                 "COMP_CWORD=2; _pqsig; echo \"${COMPREPLY[*]}\"'");
  EXPECT_EQ(b.code, 0) << b.err;
  EXPECT_TRUE(contains(b.out, "keygen") && contains(b.out, "encaps") && contains(b.out, "decaps")) << b.out;
  auto z = sh(d, "@pqsig completion zsh");
  EXPECT_EQ(z.code, 0);
  EXPECT_EQ(z.out.rfind("#compdef pqsig", 0), 0u);
}
