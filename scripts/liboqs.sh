#!/usr/bin/env bash
# Build liboqs 0.16.0 (the optional "liboqs" provider, cmake/liboqs.cmake) from the source release
# in ../shared/thirdparty/ into a cache OUTSIDE the clone, and reuse it when it is already there:
#   ${PQSIG_CACHE:-$HOME/.cache/pqsig}/liboqs-0.16.0   (include/, lib/liboqs.a, lib/cmake/liboqs)
# Prints the install prefix on stdout (everything else goes to stderr), so CI can do
#   export CMAKE_PREFIX_PATH="$(bash scripts/liboqs.sh)${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
# A user's machine would use a distribution package or their own liboqs build instead
# (-Dliboqs_DIR=...); the pqsig build itself never names the thirdparty folder.
# Recipe: ../shared/thirdparty/README.md (about 5 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
VERSION=0.16.0
CACHE="${PQSIG_CACHE:-$HOME/.cache/pqsig}"
PREFIX="$CACHE/liboqs-$VERSION"
TARBALL="${PQSIG_LIBOQS_TARBALL:-../shared/thirdparty/liboqs-$VERSION.tar.xz}"
# The algorithms pqsig compares (ML-DSA, ML-KEM, the SLH-DSA sets of `pqsig ledger bench`).
ALGS="SIG_ml_dsa_44;SIG_ml_dsa_65;SIG_ml_dsa_87;KEM_ml_kem_512;KEM_ml_kem_768;KEM_ml_kem_1024;SIG_slh_dsa_pure_sha2_128f;SIG_slh_dsa_pure_sha2_128s;SIG_slh_dsa_pure_sha2_256s;SIG_slh_dsa_pure_shake_128f"

cfg="$PREFIX/lib/cmake/liboqs/liboqsConfigVersion.cmake"
if [ -f "$cfg" ] && [ -f "$PREFIX/lib/liboqs.a" ] && grep -q "PACKAGE_VERSION \"$VERSION\"" "$cfg"; then
  echo "liboqs.sh: reusing $PREFIX" >&2
  echo "$PREFIX"
  exit 0
fi
check_thirdparty_tarball liboqs.sh "$TARBALL" PQSIG_LIBOQS_TARBALL "; building without liboqs"
WORK="$CACHE/src"
mkdir -p "$WORK"
rm -rf "$WORK/liboqs-$VERSION" "$WORK/oqs-build"
echo "liboqs.sh: building liboqs $VERSION into $PREFIX (a few minutes)" >&2
tar -xJf "$TARBALL" -C "$WORK"
cmake -S "$WORK/liboqs-$VERSION" -B "$WORK/oqs-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DOQS_DIST_BUILD=ON -DOQS_BUILD_ONLY_LIB=ON -DOQS_USE_OPENSSL=OFF \
  -DOQS_MINIMAL_BUILD="$ALGS" -DCMAKE_INSTALL_PREFIX="$PREFIX" >&2
cmake --build "$WORK/oqs-build" -j"${PQSIG_JOBS:-2}" >&2
cmake --install "$WORK/oqs-build" >&2
rm -rf "$WORK/liboqs-$VERSION" "$WORK/oqs-build"
echo "$PREFIX"
