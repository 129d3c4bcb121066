// pqsig fuzz harnesses: one file per untrusted-input parser in fuzz/targets/. Each defines its
// entry point with PQSIG_FUZZ_TARGET(name); the same function runs under libFuzzer
// (PQSIG_FUZZ=ON, fuzz/libfuzzer_main.cpp) and in the ordinary build, where test_fuzz_replay
// replays fuzz/corpus/<name>/ and fuzz/regressions/<name>/ through it.
// A property violation (e.g. parse(serialize(x)) != x) throws fuzz::Violation: libFuzzer reports
// it as a crash (uncaught exception -> abort), the replay test as a failure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pqsig::fuzz {

using TargetFn = int (*)(const std::uint8_t* data, std::size_t size);

struct Target {
  const char* name;
  TargetFn fn;
};

/// Every target linked into this binary.
std::vector<Target>& targets();
bool register_target(const char* name, TargetFn fn);

struct Violation : std::logic_error {
  using std::logic_error::logic_error;
};
/// Throws Violation(what) unless `cond`.
inline void check(bool cond, const std::string& what) {
  if (!cond) throw Violation(what);
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace pqsig::fuzz

#define PQSIG_FUZZ_TARGET(name)                                                                      \
  static int pqsig_fuzz_body_##name(const std::uint8_t* data, std::size_t size);                   \
  [[maybe_unused]] static const bool pqsig_fuzz_registered_##name =                                \
      ::pqsig::fuzz::register_target(#name, &pqsig_fuzz_body_##name);                                \
  static int pqsig_fuzz_body_##name(const std::uint8_t* data, std::size_t size)
