#!/usr/bin/env bash
# Install the npm packages used as independent test oracles and benchmark anchors into
# tests/interop/node_modules (git-ignored), exactly as pinned by the committed
# tests/interop/package-lock.json (`npm ci`). Never linked into the product. This is the install
# step (`make interop-deps`, run by `make test`): the tests never install anything themselves.
set -euo pipefail
cd "$(dirname "$0")/../tests/interop"
if [ -f node_modules/.pqsig-installed ] && [ node_modules/.pqsig-installed -nt package.json ] \
   && [ node_modules/.pqsig-installed -nt package-lock.json ]; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error >/dev/null
touch node_modules/.pqsig-installed
