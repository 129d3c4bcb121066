#!/usr/bin/env bash
# ctest driver of the OpenSSL 3.5 tests (label openssl35):
#   openssl35-run.sh loader TEST_BINARY [ARGS...]   run the binary through Debian 13's loader, so its
#                                                   libcrypto.so.3 is OpenSSL 3.5's
#   openssl35-run.sh cli TEST_BINARY [ARGS...]      run it as it is, with PQSIG_OPENSSL35_RUN naming the
#                                                   wrapper (tests start `openssl` and `pqsig` through it)
# The OpenSSL 3.5 cache is the one scripts/openssl35.sh makes
# (${PQSIG_CACHE:-$HOME/.cache/pqsig}/openssl-3.5). Without it the test is skipped (exit 77, the
# reason and the command on stdout) — or fails when PQSIG_REQUIRE_OPENSSL35=1 (CI).
set -euo pipefail
mode="$1"; shift
run="${PQSIG_CACHE:-$HOME/.cache/pqsig}/openssl-3.5/bin/run"
if [ ! -x "$run" ] || [ ! -f "$(dirname "$run")/../.complete" ]; then
  msg="OpenSSL 3.5 not installed: $run is missing (get it with: bash scripts/openssl35.sh)"
  if [ "${PQSIG_REQUIRE_OPENSSL35:-0}" != "0" ]; then
    echo "FAIL: PQSIG_REQUIRE_OPENSSL35 is set and $msg"
    exit 1
  fi
  echo "SKIPPED: $msg"
  exit 77
fi
export PQSIG_OPENSSL35_RUN="$run"
case "$mode" in
  loader) exec "$run" "$@" ;;
  cli) exec "$@" ;;
  *) echo "openssl35-run.sh: mode must be loader or cli" >&2; exit 2 ;;
esac
