// Keccak microbenchmark driver of this run (not built by CMake): g++ -std=c++20 -O3 -Iinclude -Isrc -I<liboqs>/include kbench.cpp <keccak objects> build-dev/libpqsig.a <liboqs>/lib/liboqs.a -lcrypto -lsodium
// microbench: single-state Keccak-f[1600] ns/permutation, thread CPU time, interleaved, median
#include <time.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "pqsig/hash.hpp"
#include "hash/keccak_backend.hpp"
extern "C" void KeccakP1600_Permute_24rounds_avx2(void* state);
extern "C" void KeccakP1600_Permute_24rounds_plain64(void* state);
static double now() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 31; const int N = 20000;
  alignas(64) std::uint64_t s1[25] = {1}, s2[32] = {2}, s3[25] = {3}, s4[25] = {4};
  std::vector<double> a, b, c, d;
  for (int r = 0; r < reps; ++r) {
    double t0 = now(); for (int i = 0; i < N; ++i) pqsig::hash::keccak_f1600(s1);
    double t1 = now(); for (int i = 0; i < N; ++i) KeccakP1600_Permute_24rounds_avx2(s2);
    double t2 = now(); for (int i = 0; i < N; ++i) KeccakP1600_Permute_24rounds_plain64(s3);
    double t3 = now(); for (int i = 0; i < N; ++i) pqsig::hash::detail::keccak_f1600_planes_generic(s4);
    double t4 = now();
    a.push_back((t1 - t0) / N); b.push_back((t2 - t1) / N); c.push_back((t3 - t2) / N); d.push_back((t4 - t3) / N);
  }
  auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  std::printf("pqsig dispatched %.1f ns | liboqs avx2 %.1f ns | liboqs plain64 %.1f ns | pqsig generic %.1f ns | ratio pqsig/oqs-avx2 %.3f (%llx)\n",
              med(a), med(b), med(c), med(d), med(a) / med(b), (unsigned long long)(s1[0] ^ s2[0] ^ s3[0] ^ s4[0]));
}
