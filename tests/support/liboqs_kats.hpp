// Test support: the liboqs 0.16 KAT files of one folder (tests/KATs/<subdir>), extracted once per
// test binary from ../shared/thirdparty/liboqs-0.16.0.tar.xz into a temporary directory that is
// removed when the binary exits. "" with `why` set when the tarball is absent — shared data, a
// reason outside the project, so callers skip; a tarball that is there but does not extract is a
// test failure (recorded here), never a skip.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <system_error>

namespace pqsig::test_support {

inline std::string liboqs_kat_dir(const std::string& subdir, std::string& why) {
  struct Extracted {
    std::filesystem::path root;
    std::string dir, err;
    ~Extracted() {
      std::error_code ec;
      if (!root.empty()) std::filesystem::remove_all(root, ec);
    }
  };
  static std::map<std::string, Extracted> done;
  auto [it, fresh] = done.try_emplace(subdir);
  Extracted& e = it->second;
  if (fresh) {
    const std::string tarball = std::string(PQSIG_SHARED_DIR) + "/thirdparty/liboqs-0.16.0.tar.xz";
    if (!std::filesystem::exists(tarball)) {
      e.err = "no " + tarball + " (shared data)";
    } else {
      std::string tag = subdir;
      for (char& c : tag)
        if (c == '/') c = '_';
      e.root = std::filesystem::temp_directory_path() / ("pqsig_kat_" + tag + "_" + std::to_string(::getpid()));
      std::filesystem::create_directories(e.root);
      const std::string inner = "liboqs-0.16.0/tests/KATs/" + subdir;
      const std::string cmd =
          "tar -xJf '" + tarball + "' -C '" + e.root.string() + "' --wildcards '" + inner + "/*' 2>&1";
      if (std::system(cmd.c_str()) != 0) {
        e.err = "tar -xJf " + tarball + " (" + inner + ") failed";
        ADD_FAILURE() << e.err;
      } else {
        e.dir = (e.root / inner).string();
      }
    }
  } else if (e.dir.empty() && !e.err.starts_with("no ")) {
    ADD_FAILURE() << e.err;
  }
  why = e.err;
  return e.dir;
}

}  // namespace pqsig::test_support
