// ML-DSA raw API: zero heap allocations during keygen / sign / verify (global operator new is
// replaced in this test binary and counts), and a measured, bounded stack footprint (each
// operation runs on a painted thread stack; the untouched part is measured afterwards).
#if defined(__GNUC__) && !defined(__clang__)
// The replaced operator new/delete below pair malloc/free; GCC's inliner cannot see that.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "pqsig/mldsa.hpp"

namespace {
std::atomic<long> g_allocs{0};
}

void* operator new(std::size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

using namespace pqsig;
using namespace pqsig::mldsa;

namespace {
constexpr Level kLevels[] = {Level::ml_dsa_44, Level::ml_dsa_65, Level::ml_dsa_87};

// Fixed buffers (no vectors inside the measured region).
struct Buffers {
  std::uint8_t seed[32];
  std::uint8_t pk[kMaxPkBytes], sk[kMaxSkBytes], sig[kMaxSigBytes];
  std::uint8_t msg[100];
  std::uint8_t ctx[10];
  std::uint8_t mu[64];
};

bool run_all(Level lv, Buffers& b) {
  const auto& p = params(lv);
  mut_byte_span pk(b.pk, p.pk_bytes), sk(b.sk, p.sk_bytes), sig(b.sig, p.sig_bytes);
  bool ok = keygen_internal(lv, byte_span(b.seed, 32), pk, sk).ok();
  Options o;
  o.ctx = byte_span(b.ctx, sizeof b.ctx);
  o.deterministic = true;
  ok &= sign(lv, sk, byte_span(b.msg, sizeof b.msg), sig, o).ok();                       // pure, deterministic
  ok &= verify(lv, pk, byte_span(b.msg, sizeof b.msg), sig, o).ok();
  Options hedged;
  ok &= sign(lv, sk, byte_span(b.msg, sizeof b.msg), sig, hedged).ok();                 // hedged (OS rnd)
  ok &= verify(lv, pk, byte_span(b.msg, sizeof b.msg), sig).ok();
  Options ph;
  ph.prehash = hash::PreHash::sha2_512;
  ok &= sign(lv, sk, byte_span(b.msg, sizeof b.msg), sig, ph).ok();                     // HashML-DSA
  ok &= verify(lv, pk, byte_span(b.msg, sizeof b.msg), sig, ph).ok();
  ok &= external_mu(lv, pk, byte_span(b.msg, sizeof b.msg), mut_byte_span(b.mu, 64)).ok();
  ok &= sign_mu(lv, sk, byte_span(b.mu, 64), byte_span(b.seed, 32), sig).ok();            // external μ
  ok &= verify_mu(lv, pk, byte_span(b.mu, 64), sig).ok();
  ok &= sign_internal(lv, sk, byte_span(b.msg, 5), byte_span(b.seed, 32), sig).ok();       // internal
  ok &= verify_internal(lv, pk, byte_span(b.msg, 5), sig).ok();
  ok &= sk_check(lv, sk, pk).ok();
  return ok;
}
}  // namespace

TEST(MldsaAlloc, NoHeapAllocationInKeygenSignVerify) {
  static Buffers b;
  std::memset(&b, 3, sizeof b);
  for (Level lv : kLevels) {
    const long before = g_allocs.load();
    const bool ok = run_all(lv, b);
    const long after = g_allocs.load();
    EXPECT_TRUE(ok) << level_name(lv);
    EXPECT_EQ(after - before, 0) << level_name(lv) << ": heap allocations during keygen/sign/verify";
  }
  // Prepared keys: creation may allocate, signing / verifying with them does not.
  for (Level lv : kLevels) {
    const auto& p = params(lv);
    (void)keygen_internal(lv, byte_span(b.seed, 32), mut_byte_span(b.pk, p.pk_bytes), mut_byte_span(b.sk, p.sk_bytes));
    auto ps = PreparedSigningKey::create(lv, byte_span(b.sk, p.sk_bytes));
    auto pv = PreparedVerifyingKey::create(lv, byte_span(b.pk, p.pk_bytes));
    ASSERT_TRUE(ps.ok() && pv.ok());
    const long before = g_allocs.load();
    bool ok = ps->sign(byte_span(b.msg, sizeof b.msg), mut_byte_span(b.sig, p.sig_bytes)).ok();
    ok &= pv->verify(byte_span(b.msg, sizeof b.msg), byte_span(b.sig, p.sig_bytes)).ok();
    const long after = g_allocs.load();
    EXPECT_TRUE(ok);
    EXPECT_EQ(after - before, 0) << level_name(lv) << ": heap allocations in prepared sign/verify";
  }
  // The counter works: an allocation outside the measured region is seen.
  const long before = g_allocs.load();
  auto* v = new int(5);
  __asm__ __volatile__("" : : "r"(v) : "memory");  // keep the allocation from being elided
  delete v;
  EXPECT_EQ(g_allocs.load() - before, 1);
}

// ---- stack footprint
namespace {
enum class Op { keygen, sign, verify };
struct StackJob {
  Level lv;
  Op op;
  Buffers* b;
  bool ok;
};
void* stack_job(void* arg) {
  auto* j = static_cast<StackJob*>(arg);
  const auto& p = params(j->lv);
  mut_byte_span pk(j->b->pk, p.pk_bytes), sk(j->b->sk, p.sk_bytes), sig(j->b->sig, p.sig_bytes);
  Options o;
  o.deterministic = true;
  switch (j->op) {
    case Op::keygen: j->ok = keygen_internal(j->lv, byte_span(j->b->seed, 32), pk, sk).ok(); break;
    case Op::sign: j->ok = sign(j->lv, sk, byte_span(j->b->msg, 100), sig, o).ok(); break;
    case Op::verify: j->ok = verify(j->lv, pk, byte_span(j->b->msg, 100), sig).ok(); break;
  }
  return nullptr;
}
// Runs the op on a thread whose stack is painted with a pattern; returns the bytes touched.
std::size_t measure_stack(Level lv, Op op, Buffers& b) {
  constexpr std::size_t kStack = 1 << 20;
  void* mem = nullptr;
  if (posix_memalign(&mem, 4096, kStack) != 0) return SIZE_MAX;
  std::memset(mem, 0xA5, kStack);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, mem, kStack);
  StackJob job{lv, op, &b, false};
  pthread_t t;
  std::size_t used = SIZE_MAX;
  if (pthread_create(&t, &attr, &stack_job, &job) == 0) {
    pthread_join(t, nullptr);
    const auto* m = static_cast<const std::uint8_t*>(mem);
    std::size_t i = 0;
    while (i < kStack && m[i] == 0xA5) ++i;  // stack grows down: untouched bytes at the bottom
    used = kStack - i;
  }
  pthread_attr_destroy(&attr);
  std::free(mem);
  EXPECT_TRUE(job.ok);
  return used;
}
}  // namespace

TEST(MldsaAlloc, BoundedStack) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "stack figures are not meaningful under AddressSanitizer";
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "stack figures are not meaningful under AddressSanitizer";
#endif
#endif
  static Buffers b;
  std::memset(&b, 1, sizeof b);
  // Documented bound (docs/mldsa.md, include/pqsig/mldsa.hpp): every operation < 160 KiB.
  constexpr std::size_t kBound = 160 * 1024;
  for (Level lv : kLevels) {
    const std::size_t kg = measure_stack(lv, Op::keygen, b);
    const std::size_t sg = measure_stack(lv, Op::sign, b);
    const std::size_t vf = measure_stack(lv, Op::verify, b);
    std::printf("%s stack: keygen %zu B, sign %zu B, verify %zu B\n", std::string(level_name(lv)).c_str(), kg, sg, vf);
    EXPECT_LT(kg, kBound);
    EXPECT_LT(sg, kBound);
    EXPECT_LT(vf, kBound);
  }
}
