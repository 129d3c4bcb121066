#!/usr/bin/env bash
# bench/compare/run.sh — one command: time the same operations in pqsig (`pqsig price --jsonl`)
# and in @noble/post-quantum (Node) in the same run, print medians and pqsig / noble ratios, and
# write docs/benchmarks/<date>_<machine>/ (raw JSONL of both, the environment, a README table).
#
#   bash bench/compare/run.sh            # full: ML-DSA 44/65/87, SLH-DSA (12 sets), ML-KEM 512/768/1024
#   QUICK=1 bash bench/compare/run.sh    # small budgets (a smoke run; still writes the directory)
#   CLOCK=cpu bash bench/compare/run.sh  # per-thread CPU time instead of wall time (shared machines)
#   OUT=/tmp/x SUITES=ml-dsa-44,ml-kem-768 BUDGET=100 SLOW=1 bash bench/compare/run.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source bench/compare/common.sh
BUILD="${BUILD:-build}"
SUITES="${SUITES:-ml-dsa-44,ml-dsa-65,ml-dsa-87,slh-dsa-sha2-128s,slh-dsa-sha2-128f,slh-dsa-sha2-192s,slh-dsa-sha2-192f,slh-dsa-sha2-256s,slh-dsa-sha2-256f,slh-dsa-shake-128s,slh-dsa-shake-128f,slh-dsa-shake-192s,slh-dsa-shake-192f,slh-dsa-shake-256s,slh-dsa-shake-256f,ml-kem-512,ml-kem-768,ml-kem-1024}"
CLOCK="${CLOCK:-wall}"
if [ -n "${QUICK:-}" ]; then BUDGET="${BUDGET:-40}"; MIN=3; SLOW="${SLOW:-1}"; else BUDGET="${BUDGET:-250}"; MIN=5; SLOW="${SLOW:-2}"; fi

bash scripts/interop-deps.sh
if [ ! -x "$BUILD/pqsig" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$BUILD" --target pqsig_cli >/dev/null

OUT="${OUT:-docs/benchmarks/$(date -u +%Y-%m-%d)_$(bench_machine)}"
mkdir -p "$OUT"

clockflag=""
[ "$CLOCK" = cpu ] && clockflag="--cpu-time"
echo "== pqsig price (budget ${BUDGET} ms/op, clock $CLOCK)" >&2
"$BUILD/pqsig" price --suites "$SUITES" --budget-ms "$BUDGET" --min-samples "$MIN" --min-samples-slow "$SLOW" \
  $clockflag --no-progress --json \
  --jsonl "$OUT/pqsig.jsonl" > "$OUT/pqsig-summary.json"
msg=$(node -e 'const j=require(process.argv[1]);const s=j.suites.find(x=>x.message_bytes>0);console.log(s?s.message_bytes:376)' \
  "$(cd "$OUT" && pwd)/pqsig-summary.json")
echo "== @noble/post-quantum (budget ${BUDGET} ms/op, message ${msg} B, clock $CLOCK)" >&2
node bench/compare/noble.mjs --suites "$SUITES" --budget-ms "$BUDGET" --min-samples "$MIN" --min-samples-slow "$SLOW" \
  --message-size "$msg" --clock "$CLOCK" --out "$OUT/noble.jsonl"

{
  bench_environment "bash bench/compare/run.sh (QUICK=${QUICK:-} CLOCK=$CLOCK BUDGET=$BUDGET SLOW=$SLOW)"
  echo "loadavg: $(cat /proc/loadavg)"
  echo "node: $(node --version)"
  echo "compiler: $(${CXX:-c++} --version | head -1)"
} > "$OUT/environment.txt"

node bench/compare/compare.mjs --pqsig "$OUT/pqsig.jsonl" --noble "$OUT/noble.jsonl" --out "$OUT" \
  --command "bash bench/compare/run.sh (QUICK=${QUICK:-} CLOCK=$CLOCK BUDGET=$BUDGET SLOW=$SLOW)"
echo "wrote $OUT" >&2
