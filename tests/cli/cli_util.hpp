// Helpers for tests that run the built `pqsig` binary in a temporary directory.
#pragma once

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "support/sanitizer.hpp"

struct RunResult {
  int code = -1;
  std::string out, err;
};

class TempDir {
 public:
  TempDir() {
    std::string t = std::string(::testing::TempDir()) + "pqsig_cli_XXXXXX";
    char* p = ::mkdtemp(t.data());
    if (p) path_ = p;
  }
  ~TempDir() {
    if (!path_.empty()) {
      std::string cmd = "rm -rf '" + path_ + "'";
      if (std::system(cmd.c_str()) != 0) {
      }
    }
  }
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

/// The shell prefix that caps a child's data segment at 64 MiB (`ulimit -d`), proving a reader is
/// bounded in memory — empty in an AddressSanitizer build, whose runtime maps its shadow memory
/// up front and cannot start under such a limit (the Release run of `make test` keeps the proof;
/// the sanitizer run still checks every verdict).
#ifdef PQSIG_TEST_ASAN
inline const char* const kDataLimit64MiB = "";
#else
inline const char* const kDataLimit64MiB = "ulimit -d 65536; ";
#endif

inline std::string slurp_file(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
inline void write_text(const std::string& p, const std::string& s) {
  std::ofstream f(p, std::ios::binary);
  f << s;
}
/// A private key file as `pqsig` expects one: mode 0600 (group/other access is refused).
inline void write_private(const std::string& p, const std::string& s) {
  write_text(p, s);
  ::chmod(p.c_str(), 0600);
}

/// Run `pqsig <args>` inside `dir` (args are passed to /bin/sh verbatim). Under the OpenSSL 3.5
/// test driver (tests/providers/openssl35-run.sh sets PQSIG_OPENSSL35_RUN) pqsig is started through
/// the same loader as the test, so both see the same libcrypto.
inline RunResult run_pqsig(const TempDir& dir, const std::string& args, const std::string& stdin_file = "") {
  std::string o = dir.file(".stdout"), e = dir.file(".stderr");
  const char* run35 = std::getenv("PQSIG_OPENSSL35_RUN");
  const std::string wrap = run35 && *run35 ? "'" + std::string(run35) + "' " : std::string();
  std::string cmd = "cd '" + dir.path() + "' && " + wrap + "'" PQSIG_BINARY_DIR "/pqsig' " + args + " >'" + o + "' 2>'" + e + "'";
  if (!stdin_file.empty()) cmd += " <'" + stdin_file + "'";
  int st = std::system(cmd.c_str());
  RunResult r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp_file(o);
  r.err = slurp_file(e);
  return r;
}
