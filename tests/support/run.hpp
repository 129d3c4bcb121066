// Runs a shell command and captures its standard output and exit status (tests that drive the
// pqsig CLI, directly or through the OpenSSL 3.5 loader).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace pqsig::test {

struct CommandRun {
  int code = -1;  ///< exit status, -1 when the command could not run or was killed
  std::string out;
};

inline CommandRun run_capture(const std::string& cmd) {
  CommandRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

}  // namespace pqsig::test
