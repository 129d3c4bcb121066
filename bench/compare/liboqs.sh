#!/usr/bin/env bash
# bench/compare/liboqs.sh — one command: build bench/compare/pqsig_vs_liboqs against a liboqs
# install and run it (pqsig and liboqs in one process, thread CPU time, interleaved rounds; see
# oqs_compare.cpp), writing docs/benchmarks/<date>_<machine>-liboqs/ (README.md with the ratio
# table, environment.txt).
#
#   LIBOQS_DIR=/path/to/liboqs/lib/cmake/liboqs bash bench/compare/liboqs.sh
#   ROUNDS=3 BUDGET=150 SUITES=ml-kem-768 OUT=/tmp/x bash bench/compare/liboqs.sh
#   BUILD=build NO_BUILD=1 bash bench/compare/liboqs.sh   # an already built harness
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
LIBOQS_DIR="${LIBOQS_DIR:-${HOME}/.cache/pqsig/liboqs-0.16.0/lib/cmake/liboqs}"
BUILD="${BUILD:-build-compare}"
ROUNDS="${ROUNDS:-3}"
BUDGET="${BUDGET:-150}"
SUITES="${SUITES:-ml-dsa-44,ml-dsa-65,ml-dsa-87,ml-kem-512,ml-kem-768,ml-kem-1024}"
if [ ! -f "$LIBOQS_DIR/liboqsConfig.cmake" ]; then
  echo "liboqs not found at $LIBOQS_DIR (set LIBOQS_DIR to <prefix>/lib/cmake/liboqs)" >&2
  exit 2
fi
if [ -z "${NO_BUILD:-}" ]; then  # NO_BUILD=1: use $BUILD/bench/compare/pqsig_vs_liboqs as it is
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPQSIG_BUILD_TESTS=OFF -DPQSIG_BUILD_BENCH=ON \
    -DPQSIG_BUILD_TOOLS=OFF -Dliboqs_DIR="$LIBOQS_DIR" >/dev/null
  cmake --build "$BUILD" -j2 --target pqsig_vs_liboqs >/dev/null
fi

machine="$(uname -m)-$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //; s/([^)]*)//g; s/[Pp]rocessor//; s/CPU//; s/@.*//' |
  tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '-' | sed 's/^-//; s/-$//')-$(nproc)c"
OUT="${OUT:-docs/benchmarks/$(date -u +%Y-%m-%d)_${machine}-liboqs}"
mkdir -p "$OUT"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "command: bash bench/compare/liboqs.sh (ROUNDS=$ROUNDS BUDGET=$BUDGET SUITES=$SUITES)"
  echo "git: $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  echo "liboqs: $(sed -n 's/.*PACKAGE_VERSION "\(.*\)".*/\1/p' "$LIBOQS_DIR/liboqsConfigVersion.cmake" | head -1) ($LIBOQS_DIR)"
  echo "uname: $(uname -a)"
  echo "nproc: $(nproc)"
  grep -m1 'model name' /proc/cpuinfo || true
  grep -m1 '^flags' /proc/cpuinfo || true
  echo "governor: $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo 'not readable')"
  echo "loadavg before: $(cat /proc/loadavg)"
  echo "compiler: $(${CXX:-c++} --version | head -1)"
} > "$OUT/environment.txt"
"$BUILD/bench/compare/pqsig_vs_liboqs" --rounds "$ROUNDS" --budget-ms "$BUDGET" --suites "$SUITES" \
  --markdown "$OUT/table.md"
echo "loadavg after: $(cat /proc/loadavg)" >> "$OUT/environment.txt"
echo "wrote $OUT" >&2
