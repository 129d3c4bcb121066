// A scratch directory for a test: /tmp/pqsig_<name>_XXXXXX, made fresh (mkdtemp) and removed with
// everything in it at the end of its scope. The LMS, fleet and HSS-label tests give each their
// own name (a per-file type derived from this one, for unity builds).
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace pqsig::test {

struct ScratchDir {
  std::filesystem::path p;
  explicit ScratchDir(const std::string& name) {
    std::string tmpl = "/tmp/pqsig_" + name + "_XXXXXX";
    const char* d = ::mkdtemp(tmpl.data());
    p = d ? std::string(d) : "/tmp/pqsig_" + name + "_mkdtemp_failed";
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(p, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const std::string& n) const { return (p / n).string(); }
};

}  // namespace pqsig::test
