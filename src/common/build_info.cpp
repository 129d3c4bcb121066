// pqsig::build_info(): build facts (set on this one file by the build, so a new commit recompiles
// one file) and the CPU features the run-time dispatch (src/common/cpu.hpp) selects on this
// machine. The single source of the build facts: `pqsig --version` and the environment record of
// `pqsig price` (src/price/environment.cpp) both read them from here.
#include "pqsig/build_info.hpp"

#include "common/cpu.hpp"

#ifndef PQSIG_GIT_COMMIT
#define PQSIG_GIT_COMMIT "unknown"
#endif
#ifndef PQSIG_CXX_COMPILER
#define PQSIG_CXX_COMPILER "unknown"
#endif
#ifndef PQSIG_BUILD_TYPE
#define PQSIG_BUILD_TYPE "unknown"
#endif
#ifndef PQSIG_CXX_FLAGS
#define PQSIG_CXX_FLAGS ""
#endif
#ifndef PQSIG_VERSION_STRING
#define PQSIG_VERSION_STRING "unknown"
#endif

namespace pqsig {

BuildInfo build_info() {
  BuildInfo b;
  b.version = PQSIG_VERSION_STRING;
  b.commit = PQSIG_GIT_COMMIT;
  b.compiler = PQSIG_CXX_COMPILER;
  b.build_type = PQSIG_BUILD_TYPE;
  b.cxx_flags = PQSIG_CXX_FLAGS;
#if defined(PQSIG_PORTABLE)
  b.portable = true;
#endif
  if (cpu::has_avx2()) b.cpu_features.emplace_back("avx2");
  if (cpu::has_avx512f()) b.cpu_features.emplace_back("avx512f");
  if (cpu::has_avx512vl()) b.cpu_features.emplace_back("avx512vl");
  if (cpu::has_avx512_vbmi2()) b.cpu_features.emplace_back("avx512vbmi2");  // ML-KEM's AVX-512 kernels
  if (cpu::has_bmi2()) b.cpu_features.emplace_back("bmi2");
  if (cpu::has_sha_ni()) b.cpu_features.emplace_back("sha-ni");
  return b;
}

}  // namespace pqsig
