# shellcheck shell=bash
# bench/compare/common.sh — shell helpers sourced by bench/compare/run.sh, liboqs.sh and sphincsplus.sh
# (run from the clone's root).

# build_compare_harness BUILD TARGET CMAKE_ARG...: configure BUILD (Release, benchmarks only) with
# the extra CMake arguments and build TARGET, unless NO_BUILD is set (then BUILD is used as it is).
build_compare_harness() {
  local build="$1" target="$2"
  shift 2
  if [ -z "${NO_BUILD:-}" ]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPQSIG_BUILD_TESTS=OFF -DPQSIG_BUILD_BENCH=ON \
      -DPQSIG_BUILD_TOOLS=OFF "$@" >/dev/null
    cmake --build "$build" -j2 --target "$target" >/dev/null
  fi
}

# bench_machine: <arch>-<CPU model>-<cores>c, the machine part of a docs/benchmarks/ folder name.
bench_machine() {
  echo "$(uname -m)-$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //; s/([^)]*)//g; s/[Pp]rocessor//; s/CPU//; s/@.*//' |
    tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '-' | sed 's/^-//; s/-$//')-$(nproc)c"
}

# bench_environment COMMAND [LINE...]: the first lines of a run's environment.txt: date, COMMAND
# (how the run was invoked), git revision, each LINE as given, then the machine (kernel, cores, CPU
# model and flags, frequency governor). The caller adds its load average and compiler lines.
bench_environment() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "command: $1"
  echo "git: $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  local line
  for line in "${@:2}"; do echo "$line"; done
  echo "uname: $(uname -a)"
  echo "nproc: $(nproc)"
  grep -m1 'model name' /proc/cpuinfo || true
  grep -m1 '^flags' /proc/cpuinfo || true
  echo "governor: $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo 'not readable')"
}
