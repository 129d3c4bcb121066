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
source bench/compare/common.sh
# Default: the build scripts/liboqs.sh makes (or reuses) for this checkout's configuration.
LIBOQS_DIR="${LIBOQS_DIR:-$(bash scripts/liboqs.sh)/lib/cmake/liboqs}"
BUILD="${BUILD:-build-compare}"
ROUNDS="${ROUNDS:-3}"
BUDGET="${BUDGET:-150}"
SUITES="${SUITES:-ml-dsa-44,ml-dsa-65,ml-dsa-87,ml-kem-512,ml-kem-768,ml-kem-1024}"
if [ ! -f "$LIBOQS_DIR/liboqsConfig.cmake" ]; then
  echo "liboqs not found at $LIBOQS_DIR (set LIBOQS_DIR to <prefix>/lib/cmake/liboqs)" >&2
  exit 2
fi
# NO_BUILD=1: use $BUILD/bench/compare/pqsig_vs_liboqs as it is
build_compare_harness "$BUILD" pqsig_vs_liboqs -Dliboqs_DIR="$LIBOQS_DIR"

OUT="${OUT:-docs/benchmarks/$(date -u +%Y-%m-%d)_$(bench_machine)-liboqs}"
mkdir -p "$OUT"
{
  bench_environment "bash bench/compare/liboqs.sh (ROUNDS=$ROUNDS BUDGET=$BUDGET SUITES=$SUITES)" \
    "liboqs: $(sed -n 's/.*PACKAGE_VERSION "\(.*\)".*/\1/p' "$LIBOQS_DIR/liboqsConfigVersion.cmake" | head -1) ($LIBOQS_DIR)"
  echo "loadavg before: $(cat /proc/loadavg)"
  echo "compiler: $(${CXX:-c++} --version | head -1)"
} > "$OUT/environment.txt"
"$BUILD/bench/compare/pqsig_vs_liboqs" --rounds "$ROUNDS" --budget-ms "$BUDGET" --suites "$SUITES" \
  --markdown "$OUT/table.md"
echo "loadavg after: $(cat /proc/loadavg)" >> "$OUT/environment.txt"
echo "wrote $OUT" >&2
