#!/usr/bin/env bash
# Install the npm packages used as independent test oracles and benchmark anchors into
# tests/interop/node_modules (git-ignored). Never linked into the product.
set -euo pipefail
cd "$(dirname "$0")/../tests/interop"
if [ -f node_modules/.pqsig-installed ] && [ node_modules/.pqsig-installed -nt package.json ]; then
  exit 0
fi
npm install --no-audit --no-fund --loglevel=error >/dev/null
touch node_modules/.pqsig-installed
