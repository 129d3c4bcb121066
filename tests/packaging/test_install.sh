#!/usr/bin/env bash
# Packaging test: install this build tree into a temporary prefix and build a consumer program
# against it four ways (shared via pkg-config and CMake; static via `pkg-config --static` and the
# CMake package's static mode); check the shared library's SONAME and exported symbols, the man
# page, the completions, and the .deb that cpack makes.
# usage: test_install.sh BUILD_DIR SOURCE_DIR CXX "EXTRA_FLAGS"
set -euo pipefail
BUILD=$1 SRC=$2 CXX=$3 FLAGS=${4:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/pqsig_pkg_XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "-- $* ($SECONDS s)"; }

step "cmake --install into a temporary prefix"
cmake --install "$BUILD" --prefix "$T/prefix" >/dev/null
P=$T/prefix
pc=$(find "$P" -name pqsig.pc -path '*/pkgconfig/*' | head -1)
[[ -n $pc ]] || fail "pqsig.pc not installed"
LIBDIR=$(dirname "$(dirname "$pc")")
for f in bin/pqsig include/pqsig/suite.hpp include/pqsig/build_info.hpp share/man/man1/pqsig.1 \
         share/bash-completion/completions/pqsig share/zsh/vendor-completions/_pqsig; do
  [[ -e $P/$f ]] || fail "$f not installed"
done
for f in libpqsig.a libpqsig.so pkgconfig/pqsig-static.pc cmake/pqsig/pqsigConfig.cmake \
         cmake/pqsig/pqsigSharedTargets.cmake cmake/pqsig/pqsigStaticTargets.cmake; do
  [[ -e $LIBDIR/$f ]] || fail "lib/$f not installed"
done
soname=$(readelf -d "$LIBDIR/libpqsig.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[[ $soname == libpqsig.so.* ]] || fail "SONAME is '$soname'"
[[ -e $LIBDIR/$soname ]] || fail "$soname not installed"
echo "SONAME $soname"

step "exported symbols: the public API only"
exported=$(nm -DC --defined-only "$LIBDIR/libpqsig.so")
n_api=$(grep -c ' pqsig::' <<<"$exported" || true)
(( n_api > 100 )) || fail "only $n_api pqsig:: symbols exported"
# Internal namespaces must not be exported (members of public classes that merely mention an
# internal type in their signature are public, hence the leading-name match).
leaked=$(grep -E '^[0-9a-f]+ [A-Za-z] (typeinfo for |typeinfo name for |vtable for )?pqsig::(detail|cpu|ct|der|[a-z0-9_]+::(detail|internal))::' <<<"$exported" || true)
[[ -z $leaked ]] || fail "internal symbols exported: $(head -5 <<<"$leaked")"
others=$(grep -vE ' (pqsig::|typeinfo for pqsig::|typeinfo name for pqsig::|vtable for pqsig::|VTT for pqsig::)| A PQSIG_' <<<"$exported" || true)
[[ -z $others ]] || fail "non-pqsig symbols exported: $(head -5 <<<"$others")"
echo "$n_api pqsig:: symbols exported, no internals"

export PKG_CONFIG_PATH=$LIBDIR/pkgconfig
export LD_LIBRARY_PATH=$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cp "$SRC/tests/packaging/consumer/main.cpp" "$SRC/tests/packaging/consumer/CMakeLists.txt" "$T/"
check_run() {  # check_run EXE shared|static
  local needed
  needed=$(readelf -d "$1" | grep NEEDED || true)
  if [[ $2 == shared ]]; then
    grep -q "\[$soname\]" <<<"$needed" || fail "$1 does not link $soname"
  else
    ! grep -q libpqsig <<<"$needed" || fail "$1 links libpqsig dynamically"
  fi
  "$1" | grep -q "consumer ok: pqsig" || fail "$1 did not run"
}

step "shared, pkg-config"
# shellcheck disable=SC2046,SC2086
$CXX $FLAGS "$T/main.cpp" -o "$T/pc_shared" $(pkg-config --cflags --libs pqsig)
check_run "$T/pc_shared" shared

step "static, pkg-config --static"
# shellcheck disable=SC2046,SC2086
$CXX $FLAGS "$T/main.cpp" -o "$T/pc_static" $(pkg-config --cflags pqsig-static) $(pkg-config --static --libs pqsig-static)
check_run "$T/pc_static" static

for mode in shared static; do
  step "$mode, CMake package"
  static=OFF
  [[ $mode == static ]] && static=ON
  cmake -S "$T" -B "$T/cm_$mode" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$CXX" \
    -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_PREFIX_PATH="$P" -DUSE_STATIC=$static >"$T/cm_$mode.log" 2>&1 \
    || { cat "$T/cm_$mode.log"; fail "CMake consumer ($mode) configure"; }
  cmake --build "$T/cm_$mode" >>"$T/cm_$mode.log" 2>&1 || { cat "$T/cm_$mode.log"; fail "CMake consumer ($mode) build"; }
  check_run "$T/cm_$mode/consumer" $mode
done

step "serve + client, CMake package (COMPONENTS serve)"
cp "$SRC/tests/packaging/consumer/serve_main.cpp" "$T/"
cmake -S "$T" -B "$T/cm_serve" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_PREFIX_PATH="$P" -DUSE_SERVE=ON >"$T/cm_serve.log" 2>&1 \
  || { cat "$T/cm_serve.log"; fail "CMake serve consumer configure"; }
cmake --build "$T/cm_serve" >>"$T/cm_serve.log" 2>&1 || { cat "$T/cm_serve.log"; fail "CMake serve consumer build"; }
"$T/cm_serve/consumer" | grep -q "consumer ok: pqsig serve + client" || fail "serve consumer did not run"

step "man page and completions"
if command -v groff >/dev/null; then
  warn=$(groff -man -Tutf8 -ww -z "$P/share/man/man1/pqsig.1" 2>&1 | grep -v "cannot adjust line\|can't break line" || true)
  [[ -z $warn ]] || fail "groff: $warn"
fi
# Every command the binary knows is documented (the COMMANDS section is generated from it).
for c in $("$P/bin/pqsig" --help | sed -n '/^Subcommands:/,$p' | awk 'NR>1 && /^  [a-z]/ {print $1}'); do
  grep -q "^\.SS \"pqsig $c" "$P/share/man/man1/pqsig.1" || fail "command $c missing from pqsig(1)"
done
bash -n "$P/share/bash-completion/completions/pqsig" || fail "bash completion syntax"
got=$(bash -c 'source "$1"; COMP_WORDS=(pqsig ke); COMP_CWORD=1; _pqsig; echo "${COMPREPLY[*]}"' _ "$P/share/bash-completion/completions/pqsig")
[[ " $got " == *" keygen "* && " $got " == *" key "* ]] || fail "bash completion of 'pqsig ke': '$got'"
got=$(bash -c 'source "$1"; COMP_WORDS=(pqsig kem keygen --a); COMP_CWORD=3; _pqsig; echo "${COMPREPLY[*]}"' _ "$P/share/bash-completion/completions/pqsig")
[[ $got == *--alg* ]] || fail "bash completion of 'pqsig kem keygen --a': '$got'"
got=$(bash -c 'source "$1"; COMP_WORDS=(pqsig keygen --alg ml-dsa-4); COMP_CWORD=3; _pqsig; echo "${COMPREPLY[*]}"' _ "$P/share/bash-completion/completions/pqsig")
[[ $got == *ml-dsa-44* ]] || fail "bash completion of suite ids: '$got'"
if command -v zsh >/dev/null; then zsh -n "$P/share/zsh/vendor-completions/_pqsig" || fail "zsh completion syntax"; fi

if [[ -f $BUILD/CPackConfig.cmake ]] && command -v dpkg-deb >/dev/null; then
  step "cpack -G DEB"
  (cd "$T" && cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$T/deb" >"$T/cpack.log" 2>&1) || { cat "$T/cpack.log"; fail cpack; }
  deb=$(ls "$T"/deb/*.deb)
  dpkg-deb -f "$deb" Depends | grep -q "libssl3" || fail ".deb Depends: $(dpkg-deb -f "$deb" Depends)"
  contents=$(dpkg-deb -c "$deb")
  for f in ./usr/bin/pqsig "/$soname" ./usr/share/man/man1/pqsig.1 /pkgconfig/pqsig.pc /cmake/pqsig/pqsigConfig.cmake; do
    grep -q -- "$f" <<<"$contents" || fail ".deb lacks $f"
  done
  echo "$(basename "$deb"): Depends: $(dpkg-deb -f "$deb" Depends)"
fi
step "packaging ok"
