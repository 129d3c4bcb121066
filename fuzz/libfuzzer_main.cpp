// libFuzzer entry point of one fuzz_<name> binary: the single target linked in.
#include <cstdio>
#include <cstdlib>

#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pqsig::fuzz::TargetFn fn = [] {
    if (pqsig::fuzz::targets().size() != 1) {
      std::fprintf(stderr, "fuzz binary must link exactly one target\n");
      std::abort();
    }
    return pqsig::fuzz::targets().front().fn;
  }();
  return fn(data, size);
}
