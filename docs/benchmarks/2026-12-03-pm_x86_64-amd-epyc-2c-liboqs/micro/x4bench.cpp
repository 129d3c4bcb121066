// Keccak microbenchmark driver of this run (not built by CMake): g++ -std=c++20 -O3 -Iinclude -Isrc -I<liboqs>/include x4bench.cpp <keccak objects> build-dev/libpqsig.a <liboqs>/lib/liboqs.a -lcrypto -lsodium
#include <time.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "hash/keccak_backend.hpp"
static double now() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 21; const int N = 10000;
  alignas(32) std::uint64_t st[25][4] = {{1, 2, 3, 4}};
  const auto& be = pqsig::hash::detail::kKeccakX4Avx2;
  std::vector<double> a;
  for (int r = 0; r < reps; ++r) { double t0 = now(); for (int i = 0; i < N; ++i) be.permute(st); a.push_back((now() - t0) / N); }
  std::sort(a.begin(), a.end());
  std::printf("x4 avx2 %.1f ns (%llx)\n", a[a.size() / 2], (unsigned long long)st[0][0]);
}
