// What this copy of the library is: version, commit, compiler, and the CPU features its run-time
// dispatch uses on this machine (`pqsig --version` prints it; programs can log it).
#pragma once

#include <string>
#include <vector>

namespace pqsig {

struct BuildInfo {
  std::string version;     ///< project version, e.g. "0.1.0"
  std::string commit;      ///< git commit the library was built from ("unknown" outside git)
  std::string compiler;    ///< compiler id and version, e.g. "GNU 12.2.0"
  std::string build_type;  ///< CMake build type
  std::string cxx_flags;   ///< compiler flags of the build type (CMAKE_CXX_FLAGS + per-type flags)
  bool portable = false;   ///< built with PQSIG_PORTABLE (scalar reference code only)
  /// CPU features selected by run-time dispatch on this machine (e.g. "avx2", "bmi2", "sha-ni");
  /// empty when only the scalar code runs.
  std::vector<std::string> cpu_features;
};

BuildInfo build_info();

}  // namespace pqsig
