#!/usr/bin/env bash
# bench/compare/sphincsplus.sh — the SPHINCS+ AVX2 side of bench/compare (speed anchor for SLH-DSA).
#
# 1. Builds the SPHINCS+ round-3.1 reference (shake-avx2: 4-way Keccak; sha2-avx2: 8-way SHA-256),
#    "simple" thash, once per parameter set, into a cache OUTSIDE the clone, reused when present:
#      ${PQSIG_CACHE:-$HOME/.cache/pqsig}/sphincsplus-7ec789ace687/<family>-<set>.o
#    Every set is one relocatable object (ld -r) whose only global symbols are its four entry points,
#    renamed spx_<family>_<set>_crypto_sign_{keypair,signature,verify,bytes}; everything else is made
#    local, so the sets (whose internal symbols clash) link into one harness.
#    Flags: the reference Makefile's (-O3 -march=native -fomit-frame-pointer -flto); the link-time
#    optimisation runs when the set's objects are combined into one relocatable object
#    (gcc -r -flinker-output=nolto-rel), so each set is optimised as a whole as its Makefile does.
# 2. Builds bench/compare/pqsig_vs_sphincsplus with -DPQSIG_SPHINCSPLUS_DIR=<that cache folder> and
#    runs it (same engine, clock, messages and interleaving as pqsig_vs_liboqs), writing
#    docs/benchmarks/<date>_<machine>-sphincsplus/ (table.md, environment.txt).
#
#   bash bench/compare/sphincsplus.sh
#   SETS="shake-128f sha2-128f" ROUNDS=3 BUDGET=300 OUT=/tmp/x bash bench/compare/sphincsplus.sh
#   ONLY_BUILD=1 bash bench/compare/sphincsplus.sh   # print the cache folder and stop
# The source tarball: ../shared/thirdparty/ (override with PQSIG_SPHINCSPLUS_TARBALL); the pqsig build
# never names it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source scripts/lib.sh
source bench/compare/common.sh
REV=7ec789ace687
CACHE="${PQSIG_CACHE:-$HOME/.cache/pqsig}"
PREFIX="$CACHE/sphincsplus-$REV"
TARBALL="${PQSIG_SPHINCSPLUS_TARBALL:-../shared/thirdparty/sphincsplus-$REV.tar.xz}"
SETS="${SETS:-shake-128f shake-128s shake-192f shake-192s shake-256f shake-256s sha2-128f sha2-128s sha2-192f sha2-192s sha2-256f sha2-256s}"
CC="${SPX_CC:-gcc}"
CFLAGS="-O3 -std=c99 -march=native -fomit-frame-pointer -flto -w"

need=0
for s in $SETS; do [ -f "$PREFIX/$s.o" ] || need=1; done
if [ "$need" = 1 ]; then
  check_thirdparty_tarball sphincsplus.sh "$TARBALL" PQSIG_SPHINCSPLUS_TARBALL
  WORK="$CACHE/src/sphincsplus-$REV"
  rm -rf "$WORK"
  mkdir -p "$WORK" "$PREFIX"
  tar -xJf "$TARBALL" -C "$WORK"
  SRC="$WORK/sphincsplus"
  for s in $SETS; do
    [ -f "$PREFIX/$s.o" ] && continue
    fam="${s%%-*}"
    dir="$SRC/$fam-avx2"
    sym="spx_${fam}_${s#*-}"
    if [ "$fam" = shake ]; then
      srcs="hash_shake.c hash_shakex4.c thash_shake_simple.c thash_shake_simplex4.c address.c randombytes.c merkle.c wots.c utils.c utilsx4.c fors.c sign.c fips202.c fips202x4.c keccak4x/KeccakP-1600-times4-SIMD256.c"
    else
      srcs="hash_sha2.c hash_sha2x8.c thash_sha2_simple.c thash_sha2_simplex8.c sha2.c sha256x8.c sha512x4.c sha256avx.c address.c randombytes.c merkle.c wots.c utils.c utilsx8.c fors.c sign.c"
    fi
    echo "sphincsplus.sh: building $fam-avx2 PARAMS=sphincs-$s (simple)" >&2
    obj="$WORK/obj-$s"
    mkdir -p "$obj/keccak4x"
    for f in $srcs; do
      (cd "$dir" && $CC $CFLAGS -DPARAMS="sphincs-$s" -c "$f" -o "$obj/${f%.c}.o")
    done
    $CC $CFLAGS -r -nostdlib -flinker-output=nolto-rel -o "$obj/all.o" $(for f in $srcs; do echo "$obj/${f%.c}.o"; done)
    # (objcopy applies --keep-global-symbol to the renamed symbols)
    objcopy --keep-global-symbol="${sym}_crypto_sign_keypair" --keep-global-symbol="${sym}_crypto_sign_signature" \
      --keep-global-symbol="${sym}_crypto_sign_verify" --keep-global-symbol="${sym}_crypto_sign_bytes" \
      --redefine-sym crypto_sign_keypair="${sym}_crypto_sign_keypair" \
      --redefine-sym crypto_sign_signature="${sym}_crypto_sign_signature" \
      --redefine-sym crypto_sign_verify="${sym}_crypto_sign_verify" \
      --redefine-sym crypto_sign_bytes="${sym}_crypto_sign_bytes" \
      "$obj/all.o" "$PREFIX/$s.o"
  done
  echo "$REV $CC $CFLAGS (simple thash)" > "$PREFIX/BUILD_INFO"
  rm -rf "$WORK"
fi
if [ -n "${ONLY_BUILD:-}" ]; then echo "$PREFIX"; exit 0; fi

BUILD="${BUILD:-build-compare}"
ROUNDS="${ROUNDS:-3}"
BUDGET="${BUDGET:-300}"
build_compare_harness "$BUILD" pqsig_vs_sphincsplus -DPQSIG_SPHINCSPLUS_DIR="$PREFIX"
OUT="${OUT:-docs/benchmarks/$(date -u +%Y-%m-%d)_$(bench_machine)-sphincsplus}"
mkdir -p "$OUT"
{
  bench_environment "bash bench/compare/sphincsplus.sh (ROUNDS=$ROUNDS BUDGET=$BUDGET SETS=\"$SETS\")" \
    "sphincsplus: $REV ($(cat "$PREFIX/BUILD_INFO" 2>/dev/null))"
  echo "loadavg before: $(cat /proc/loadavg)"
  echo "compiler: $(${CXX:-c++} --version | head -1); SPHINCS+: $($CC --version | head -1)"
} > "$OUT/environment.txt"
"$BUILD/bench/compare/pqsig_vs_sphincsplus" --rounds "$ROUNDS" --budget-ms "$BUDGET" \
  --sets "$(echo $SETS | tr ' ' ',')" --markdown "$OUT/table.md"
echo "loadavg after: $(cat /proc/loadavg)" >> "$OUT/environment.txt"
echo "wrote $OUT" >&2
