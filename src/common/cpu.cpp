#include "common/cpu.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

#if !defined(PQSIG_PORTABLE) && (defined(__x86_64__) || defined(_M_X64))
#include <cpuid.h>
#define PQSIG_X86 1
#endif

namespace pqsig::cpu {
namespace {
std::atomic<bool> g_forced{false};

struct Features {
  bool avx2 = false, sha = false, bmi2 = false;
  Features() noexcept {
    // PQSIG_FORCE_PORTABLE=1: behave as a CPU without any extension (CI runs every unit test so,
    // to keep the scalar reference tested in the same build as the vector paths).
    if (const char* v = std::getenv("PQSIG_FORCE_PORTABLE"); v && std::strcmp(v, "1") == 0) return;
#if defined(PQSIG_X86)
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, nullptr) < 7) return;
    __cpuid(1, a, b, c, d);
    bool osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, popcnt = (c >> 23) & 1;
    bool ymm_enabled = false;
    if (osxsave) {
      unsigned lo, hi;
      __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
      ymm_enabled = (lo & 0x6) == 0x6;
    }
    __cpuid_count(7, 0, a, b, c, d);
    // "AVX2" for the backends includes POPCNT (every AVX2 CPU has it; the AVX2 code may use it).
    avx2 = avx && ymm_enabled && ((b >> 5) & 1) && popcnt;
    bmi2 = (b >> 8) & 1;
    sha = (b >> 29) & 1;
#endif
  }
};
const Features& features() noexcept {
  static const Features f;
  return f;
}
}  // namespace

bool has_avx2() noexcept { return !g_forced.load(std::memory_order_relaxed) && features().avx2; }
bool has_sha_ni() noexcept { return !g_forced.load(std::memory_order_relaxed) && features().sha; }
bool has_bmi2() noexcept { return !g_forced.load(std::memory_order_relaxed) && features().bmi2; }
// __builtin_cpu_supports also checks that the OS saves the AVX-512 register state (XCR0).
// PQSIG_FORCE_AVX2=1: behave as an AVX2-only CPU (no AVX-512 kernel is selected), to measure and
// test the AVX2 paths on an AVX-512 machine.
static bool avx512_allowed() noexcept {
  static const bool allowed = [] {
    const char* v = std::getenv("PQSIG_FORCE_AVX2");
    return !(v && std::strcmp(v, "1") == 0);
  }();
  return allowed;
}
bool has_avx512f() noexcept {
#if defined(PQSIG_X86)
  static const bool f = __builtin_cpu_supports("avx512f") && avx512_allowed();
  return f && has_avx2();
#else
  return false;
#endif
}
bool has_avx512vl() noexcept {
#if defined(PQSIG_X86)
  static const bool vl = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && avx512_allowed();
  return vl && has_avx2();
#else
  return false;
#endif
}
bool has_avx512_vbmi2() noexcept {
#if defined(PQSIG_X86)
  static const bool v = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi") &&
                        __builtin_cpu_supports("avx512vbmi2") && avx512_allowed();
  return v && has_avx2();
#else
  return false;
#endif
}
void force_portable(bool on) noexcept { g_forced.store(on, std::memory_order_relaxed); }
bool portable_forced() noexcept { return g_forced.load(std::memory_order_relaxed); }
}  // namespace pqsig::cpu
