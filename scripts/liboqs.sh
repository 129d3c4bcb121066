#!/usr/bin/env bash
# Build liboqs 0.16.0 (the optional "liboqs" provider, cmake/liboqs.cmake) from the source release
# in ../shared/thirdparty/ into a cache OUTSIDE the clone, and reuse it when it is already there:
#   ${PQSIG_CACHE:-$HOME/.cache/pqsig}/liboqs-0.16.0-<key>   (include/, lib/liboqs.a, lib/cmake/liboqs;
#   <key> is a hash of the configuration below, so a changed configuration never reuses an old build)
# Prints the install prefix on stdout (everything else goes to stderr), so CI can do
#   export CMAKE_PREFIX_PATH="$(bash scripts/liboqs.sh)${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
# A user's machine would use a distribution package or their own liboqs build instead
# (-Dliboqs_DIR=...); the pqsig build itself never names the thirdparty folder.
# Recipe: ../shared/thirdparty/README.md. Measured with LMS and the six XMSS sets below (2026-12-03,
# 2-core AMD EPYC shared with other builds, load average 7-15): 7 min 20 s wall, 1 min 26 s CPU
# (user + sys), 534 build steps; the time is also written to <prefix>/pqsig-build.done.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
VERSION=0.16.0
CACHE="${PQSIG_CACHE:-$HOME/.cache/pqsig}"
TARBALL="${PQSIG_LIBOQS_TARBALL:-../shared/thirdparty/liboqs-$VERSION.tar.xz}"
# The algorithms pqsig compares (ML-DSA, ML-KEM, the SLH-DSA sets of `pqsig ledger bench`) and the
# stateful hash-based families (LMS/HSS, XMSS/XMSS^MT: cross-verification in tests/lms, tests/xmss,
# the race in bench/compare). liboqs' minimal-build filter switches every family off that is not
# named here, so the two STFL families are named as well as switched on below.
ALGS="SIG_ml_dsa_44;SIG_ml_dsa_65;SIG_ml_dsa_87;KEM_ml_kem_512;KEM_ml_kem_768;KEM_ml_kem_1024;SIG_slh_dsa_pure_sha2_128f;SIG_slh_dsa_pure_sha2_128s;SIG_slh_dsa_pure_sha2_256s;SIG_slh_dsa_pure_shake_128f;SIG_STFL_LMS;SIG_STFL_XMSS"
# LMS is one object library (all sets); XMSS compiles its 11 core files once per parameter set, so
# only these sets are built (the others are switched off one by one below; about 1 minute less).
XMSS_SETS="xmss_sha256_h10 xmss_sha256_h16 xmss_sha256_h20 xmss_shake128_h10 xmssmt_sha256_h20_2 xmssmt_shake128_h20_2"
# Stateful key generation and signing (liboqs: "for research and experimentation"): the option is
# OQS_HAZARDOUS_EXPERIMENTAL_ENABLE_SIG_STFL_KEY_SIG_GEN; it derives OQS_ALLOW_STFL_KEY_AND_SIG_GEN
# and OQS_ALLOW_{LMS,XMSS}_KEY_AND_SIG_GEN (.CMake/alg_support.cmake). Verification needs none of it.
STFL_OPTS="-DOQS_ENABLE_SIG_STFL_LMS=ON -DOQS_ENABLE_SIG_STFL_XMSS=ON -DOQS_HAZARDOUS_EXPERIMENTAL_ENABLE_SIG_STFL_KEY_SIG_GEN=ON"
# The cache key: any change to the configuration gives a new prefix, so an old build is never reused
# silently (and a build other processes still link stays untouched).
KEY="$(printf '%s\n' "$VERSION" "$ALGS" "$XMSS_SETS" "$STFL_OPTS" | sha256sum | cut -c1-12)"
PREFIX="$CACHE/liboqs-$VERSION-$KEY"

cfg="$PREFIX/lib/cmake/liboqs/liboqsConfigVersion.cmake"
if [ -f "$cfg" ] && [ -f "$PREFIX/lib/liboqs.a" ] && [ -f "$PREFIX/pqsig-build.done" ] \
   && grep -q "PACKAGE_VERSION \"$VERSION\"" "$cfg"; then
  echo "liboqs.sh: reusing $PREFIX" >&2
  echo "$PREFIX"
  exit 0
fi
check_thirdparty_tarball liboqs.sh "$TARBALL" PQSIG_LIBOQS_TARBALL "; building without liboqs"
WORK="$CACHE/src-$KEY"
mkdir -p "$WORK"
rm -rf "$WORK/liboqs-$VERSION" "$WORK/oqs-build"
echo "liboqs.sh: building liboqs $VERSION into $PREFIX (a few minutes)" >&2
start=$(date +%s)
tar -xJf "$TARBALL" -C "$WORK"
xmss_off=()
for f in "$WORK/liboqs-$VERSION"/src/sig_stfl/xmss/sig_stfl_xmss*_h*.c; do
  set_name="$(basename "$f" .c)"; set_name="${set_name#sig_stfl_}"
  case " $XMSS_SETS " in *" $set_name "*) ;; *) xmss_off+=("-DOQS_ENABLE_SIG_STFL_$set_name=OFF") ;; esac
done
# shellcheck disable=SC2086
cmake -S "$WORK/liboqs-$VERSION" -B "$WORK/oqs-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DOQS_DIST_BUILD=ON -DOQS_BUILD_ONLY_LIB=ON -DOQS_USE_OPENSSL=OFF \
  -DOQS_MINIMAL_BUILD="$ALGS" $STFL_OPTS "${xmss_off[@]}" -DCMAKE_INSTALL_PREFIX="$PREFIX" >&2
grep -q "^#define OQS_ALLOW_STFL_KEY_AND_SIG_GEN" "$WORK/oqs-build/include/oqs/oqsconfig.h" \
  || { echo "liboqs.sh: stateful key/signature generation did not get enabled" >&2; exit 1; }
cmake --build "$WORK/oqs-build" -j"${PQSIG_JOBS:-2}" >&2
cmake --install "$WORK/oqs-build" >&2
printf 'key %s\nalgs %s\nxmss %s\nopts %s\nbuild_seconds %s\n' "$KEY" "$ALGS" "$XMSS_SETS" "$STFL_OPTS" \
  "$(( $(date +%s) - start ))" > "$PREFIX/pqsig-build.done"
rm -rf "$WORK"
echo "liboqs.sh: built in $(( $(date +%s) - start )) s" >&2
echo "$PREFIX"
