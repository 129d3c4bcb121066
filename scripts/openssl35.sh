#!/usr/bin/env bash
# OpenSSL 3.5 on Debian 12, for the "openssl" provider's tests and the cross-CLI interop tests.
# Debian 12 ships OpenSSL 3.0 (no ML-DSA / SLH-DSA / ML-KEM); Debian 13 (trixie) ships 3.5, whose
# libcrypto needs glibc >= 2.38. This script fetches Debian 13's libssl3t64, openssl, libc6,
# libzstd1 and zlib1g with `apt-get download` through a PRIVATE apt configuration (its own sources
# list, lists and cache under the cache folder: the machine's apt sources and state are never
# touched), unpacks them with `dpkg -x` into a cache OUTSIDE the clone and reuses it when present:
#   ${PQSIG_CACHE:-$HOME/.cache/pqsig}/openssl-3.5/
#     root/            the unpacked packages (usr/lib64/ld-linux-x86-64.so.2, usr/lib/x86_64-linux-gnu, usr/bin/openssl)
#     bin/run          run PROGRAM [ARGS...] through Debian 13's loader with
#                      --library-path root/usr/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu, so its
#                      libcrypto.so.3 / libssl.so.3 are OpenSSL 3.5's and the rest (libstdc++,
#                      libsodium, ...) comes from the machine. Programs built here against OpenSSL
#                      3.0's headers run unchanged: libcrypto.so.3 keeps its ABI.
#     bin/openssl      OpenSSL 3.5's CLI (= bin/run root/usr/bin/openssl)
# Prints the path of bin/run on stdout (everything else goes to stderr), so callers do
#   run35="$(bash scripts/openssl35.sh)"; "$run35" build/test_providers; "$(dirname "$run35")/openssl" version
# The loader's --library-path is not inherited: programs that a program run this way starts use
# the machine's own libcrypto again (wrap them with bin/run too when that matters).
# Exits 1 with one line on stderr when the packages cannot be fetched.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${PQSIG_CACHE:-$HOME/.cache/pqsig}"
DIR="$CACHE/openssl-3.5"
ROOT="$DIR/root"
RUN="$DIR/bin/run"
PACKAGES="libssl3t64 openssl libc6 libzstd1 zlib1g"
MIRROR="${PQSIG_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SECURITY="${PQSIG_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# Reuse: the wrapper exists and the CLI it runs reports 3.5 or later.
if [ -x "$RUN" ] && [ -x "$DIR/bin/openssl" ] && [ -f "$DIR/.complete" ]; then
  if v="$("$DIR/bin/openssl" version 2>/dev/null)" && [[ "$v" =~ ^OpenSSL\ 3\.([5-9]|[1-9][0-9]) ]]; then
    echo "openssl35.sh: reusing $DIR ($v)" >&2
    echo "$RUN"
    exit 0
  fi
fi

for tool in apt-get dpkg-deb; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "openssl35.sh: $tool not found (a Debian/Ubuntu machine is needed); no OpenSSL 3.5" >&2
    exit 1
  fi
done
if [ ! -f "$KEYRING" ]; then
  echo "openssl35.sh: $KEYRING not found (apt-get install debian-archive-keyring); no OpenSSL 3.5" >&2
  exit 1
fi

echo "openssl35.sh: fetching Debian 13 (trixie) $PACKAGES into $DIR" >&2
rm -rf "$DIR"
APT="$DIR/apt"
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/sources.list.d" "$APT/preferences.d" "$APT/debs" "$ROOT" "$DIR/bin"
cat >"$APT/sources.list" <<EOF
deb [signed-by=$KEYRING] $MIRROR trixie main
deb [signed-by=$KEYRING] $MIRROR trixie-updates main
deb [signed-by=$KEYRING] $SECURITY trixie-security main
EOF
apt_private=(
  -o "Dir::Etc::sourcelist=$APT/sources.list"
  -o "Dir::Etc::sourceparts=$APT/sources.list.d"
  -o "Dir::State::Lists=$APT/lists"
  -o "Dir::Cache=$APT/cache"
  -o "Dir::Etc::preferences=/dev/null"
  -o "Dir::Etc::preferencesparts=$APT/preferences.d"
  -o "APT::Architecture=amd64"
  -o "APT::Architectures=amd64"
  -o "Acquire::Languages=none"
  -o "APT::Sandbox::User=$(id -un)"
)
if ! apt-get "${apt_private[@]}" -q update >&2; then
  echo "openssl35.sh: apt-get update of the private trixie sources list failed; no OpenSSL 3.5" >&2
  exit 1
fi
if ! (cd "$APT/debs" && apt-get "${apt_private[@]}" -q download $PACKAGES >&2); then
  echo "openssl35.sh: apt-get download $PACKAGES (trixie) failed; no OpenSSL 3.5" >&2
  exit 1
fi
for deb in "$APT/debs"/*.deb; do
  dpkg-deb -x "$deb" "$ROOT"
done
LOADER="$ROOT/usr/lib64/ld-linux-x86-64.so.2"
[ -e "$LOADER" ] || LOADER="$ROOT/lib64/ld-linux-x86-64.so.2"
if [ ! -e "$LOADER" ]; then
  echo "openssl35.sh: no ld-linux-x86-64.so.2 in the unpacked libc6; no OpenSSL 3.5" >&2
  exit 1
fi
LIBS="$ROOT/usr/lib/x86_64-linux-gnu"
# OPENSSL_MODULES: Debian 13's provider modules (legacy, fips if present) rather than the machine's
# 3.0 ones. The configuration file stays the machine's (/usr/lib/ssl/openssl.cnf): a plain one.
cat >"$RUN" <<EOF
#!/bin/sh
# Run a program with Debian 13's glibc and OpenSSL 3.5 (written by scripts/openssl35.sh).
if [ \$# -lt 1 ]; then echo "usage: \$0 PROGRAM [ARGS...]" >&2; exit 2; fi
prog="\$1"; shift
case "\$prog" in */*) ;; *) prog="\$(command -v "\$prog")" || { echo "\$0: \$1: not found" >&2; exit 127; } ;; esac
OPENSSL_MODULES="$LIBS/ossl-modules" exec "$LOADER" --library-path "$LIBS:/usr/lib/x86_64-linux-gnu" "\$prog" "\$@"
EOF
cat >"$DIR/bin/openssl" <<EOF
#!/bin/sh
# OpenSSL 3.5's CLI from Debian 13 (written by scripts/openssl35.sh).
exec "$RUN" "$ROOT/usr/bin/openssl" "\$@"
EOF
chmod 755 "$RUN" "$DIR/bin/openssl"
rm -rf "$APT/cache" "$APT/lists"
if ! v="$("$DIR/bin/openssl" version 2>&1)" || ! [[ "$v" =~ ^OpenSSL\ 3\.([5-9]|[1-9][0-9]) ]]; then
  echo "openssl35.sh: the unpacked openssl does not run as OpenSSL >= 3.5: $v" >&2
  exit 1
fi
touch "$DIR/.complete"
echo "openssl35.sh: $v in $DIR" >&2
echo "$RUN"
