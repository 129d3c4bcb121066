#!/usr/bin/env bash
# Install pqsig's build and test dependencies from Debian/Ubuntu packages. Idempotent:
# does nothing when everything is already installed. Uses sudo when not root.
set -euo pipefail
PKGS=(build-essential cmake ninja-build pkg-config g++ clang libclang-rt-14-dev
      libssl-dev libsodium-dev nlohmann-json3-dev libcli11-dev libfmt-dev
      libgtest-dev libgmock-dev libbenchmark-dev valgrind git ca-certificates)
# Web Bot Auth in the path (src/serve, src/client, tests/serve): libcurl, hiredis, Boost.Beast/Asio;
# the live test runs real nginx (auth_request), redis-server and wrk on 127.0.0.1.
PKGS+=(libcurl4-openssl-dev libhiredis-dev libboost-dev nginx-light redis-server wrk)
# Optional extras: Node.js + npm for the independent-implementation cross-checks, Chromium
# for the HTML report screenshot test. Request with PQSIG_DEPS_EXTRA=1 (CI does).
if [ "${PQSIG_DEPS_EXTRA:-0}" = 1 ]; then
  command -v node >/dev/null 2>&1 || PKGS+=(nodejs)
  command -v npm >/dev/null 2>&1 || PKGS+=(npm)
  PKGS+=(chromium)
  PKGS+=(caddy)  # tests/serve: Caddy forward_auth in front of `pqsig serve verify --proxy caddy`
  # tests/lms (fleet): libpq for the PostgreSQL lease store (optional at build time) and a real
  # PostgreSQL server the test starts itself (initdb + pg_ctl in a temp dir, 127.0.0.1).
  PKGS+=(libpq-dev postgresql)
fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
