// Google Benchmark entry point; each area adds bench_<area>.cpp beside this file.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
