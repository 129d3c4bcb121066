// Registry of the fuzz targets linked into a binary (fuzz/harness.hpp).
#include "harness.hpp"

namespace pqsig::fuzz {
std::vector<Target>& targets() {
  static std::vector<Target> t;
  return t;
}
bool register_target(const char* name, TargetFn fn) {
  targets().push_back({name, fn});
  return true;
}
}  // namespace pqsig::fuzz
