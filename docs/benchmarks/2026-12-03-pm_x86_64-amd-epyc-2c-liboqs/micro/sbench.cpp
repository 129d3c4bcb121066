// Keccak microbenchmark driver of this run (not built by CMake): g++ -std=c++20 -O3 -Iinclude -Isrc -I<liboqs>/include sbench.cpp <keccak objects> build-dev/libpqsig.a <liboqs>/lib/liboqs.a -lcrypto -lsodium
#include <time.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "pqsig/hash.hpp"
extern "C" void OQS_SHA3_shake256(uint8_t* out, size_t outlen, const uint8_t* in, size_t inlen);
static double now() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 21; const int N = 2000;
  static uint8_t in[2592], out[136 * 16];
  for (int i = 0; i < 2592; ++i) in[i] = uint8_t(i * 7);
  struct Case { size_t inlen, outlen; const char* name; } cases[] = {{1952, 64, "H(pk) 65: 1952->64"}, {32, 136 * 16, "squeeze 16 blocks"}};
  for (auto& c : cases) {
    std::vector<double> a, b;
    for (int r = 0; r < reps; ++r) {
      double t0 = now();
      for (int i = 0; i < N; ++i) { pqsig::hash::Shake256 h; h.absorb(in, c.inlen); h.squeeze(out, c.outlen); in[0] ^= out[0]; }
      double t1 = now();
      for (int i = 0; i < N; ++i) { OQS_SHA3_shake256(out, c.outlen, in, c.inlen); in[0] ^= out[0]; }
      double t2 = now();
      a.push_back((t1 - t0) / N); b.push_back((t2 - t1) / N);
    }
    auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    std::printf("%-20s pqsig %.0f ns  liboqs %.0f ns  ratio %.3f\n", c.name, med(a), med(b), med(a) / med(b));
  }
}
