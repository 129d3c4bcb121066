# shellcheck shell=bash
# scripts/lib.sh — shell helpers sourced by the scripts that build third-party code from
# ../shared/thirdparty/ (scripts/liboqs.sh, bench/compare/sphincsplus.sh). Run from the clone's root.

# check_thirdparty_tarball WHO TARBALL OVERRIDE_VAR [NOTE]: stop (exit 1, one line on stderr naming
# OVERRIDE_VAR, then NOTE) when TARBALL is missing; when OVERRIDE_VAR is unset (the tarball is the
# one in ../shared/thirdparty/), check it against that folder's SHA256SUMS if there is one.
check_thirdparty_tarball() {
  local who="$1" tarball="$2" var="$3" note="${4:-}"
  if [ ! -f "$tarball" ]; then
    echo "$who: $tarball not found (set $var)$note" >&2
    exit 1
  fi
  if [ -f ../shared/thirdparty/SHA256SUMS ] && [ -z "${!var:-}" ]; then
    (cd ../shared/thirdparty && grep " $(basename "$tarball")\$" SHA256SUMS | sha256sum -c --quiet -) >&2
  fi
}
