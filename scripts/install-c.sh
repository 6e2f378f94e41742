#!/usr/bin/env bash
# Builds libpte (crates/pte-c) in release and installs it under PREFIX:
#   PREFIX/include/pte.h
#   PREFIX/lib/libpte.so.N (its soname, N = PTE_ABI_VERSION), PREFIX/lib/libpte.so -> libpte.so.N
#   PREFIX/lib/libpte.a
#   PREFIX/lib/pkgconfig/pte.pc                      (pkg-config --cflags --libs pte; with a run path)
#   PREFIX/lib/cmake/pte/pteConfig.cmake (+ Version) (find_package(pte), target pte::pte)
# and, when crates/pte-fuzz exists, the fuzzing kit beside it:
#   PREFIX/include/pte_fuzz.h, PREFIX/lib/libpte_fuzz.a, PREFIX/lib/pkgconfig/pte-fuzz.pc
#   PREFIX/share/pte/pte.dict                        (libFuzzer's -dict=)
#
# A program linked through pte.pc finds libpte.so.N at run time by the run
# path pte.pc gives (-Wl,-rpath,PREFIX/lib): no LD_LIBRARY_PATH needed.
#
# Usage: scripts/install-c.sh PREFIX
# CARGO_TARGET_DIR is honoured. The build is `cargo build --release`;
# PTE_PROFILE=dev installs the debug build instead (what the CI's C test
# does, reusing the artifacts `cargo test` made).
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$1"
prefix="$(cd "$1" && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)"

packages=(-p pte-c)
fuzz=false
if [ -f "$root/crates/pte-fuzz/Cargo.toml" ]; then
  fuzz=true
  packages+=(-p pte-fuzz)
fi
profile="${PTE_PROFILE:-release}"
(cd "$root" && cargo build --profile "$profile" --locked "${packages[@]}")

case "$profile" in dev) release="$target/debug" ;; *) release="$target/$profile" ;; esac
install -d "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/pte"
install -m 644 "$root/crates/pte-c/include/pte.h" "$prefix/include/pte.h"
# The crate's library is named pte_c (the door crate owns `pte`); its build
# script records the soname, read back here so the file installed is the one
# programs ask for at run time. libpte.so is the name they link with.
if ! command -v readelf >/dev/null 2>&1; then
  echo "error: readelf (binutils) is needed to read libpte's soname" >&2
  exit 1
fi
soname="$(readelf -d "$release/libpte_c.so" | sed -n 's/.*(SONAME).*\[\(libpte\.so\.[0-9]*\)\]$/\1/p')"
if [ -z "$soname" ]; then
  echo "error: $release/libpte_c.so records no libpte.so.N soname (crates/pte-c/build.rs)" >&2
  exit 1
fi
install -m 755 "$release/libpte_c.so" "$prefix/lib/$soname"
ln -sfn "$soname" "$prefix/lib/libpte.so"
install -m 644 "$release/libpte_c.a" "$prefix/lib/libpte.a"

# What a static link needs beside libpte.a (the Rust standard library's).
static_libs="-lpthread -ldl -lm -lgcc_s -lc"

cat > "$prefix/lib/pkgconfig/pte.pc" <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: pte
Description: ExecuTorch .pte, .ptd, .ptn and .bpte files: open, verify, zero-copy reads, samples, rewrites
Version: $version
# the run path lets the program find libpte.so.N with no environment set
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lpte
Libs.private: $static_libs
Cflags: -I\${includedir}
EOF

cat > "$prefix/lib/cmake/pte/pteConfig.cmake" <<EOF
# find_package(pte) config: the imported target pte::pte (shared $soname;
# set PTE_STATIC to link libpte.a instead). Linked by full path, the shared
# library's directory goes into the build tree's run path (CMake's default).
set(_pte_soname "$soname")
get_filename_component(_pte_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET pte::pte)
  if(PTE_STATIC)
    add_library(pte::pte STATIC IMPORTED)
    set_target_properties(pte::pte PROPERTIES
      IMPORTED_LOCATION "\${_pte_prefix}/lib/libpte.a"
      INTERFACE_LINK_LIBRARIES "pthread;dl;m")
  else()
    add_library(pte::pte SHARED IMPORTED)
    set_target_properties(pte::pte PROPERTIES
      IMPORTED_LOCATION "\${_pte_prefix}/lib/\${_pte_soname}"
      IMPORTED_SONAME "\${_pte_soname}")
  endif()
  set_target_properties(pte::pte PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "\${_pte_prefix}/include")
endif()
set(pte_FOUND TRUE)
unset(_pte_prefix)
unset(_pte_soname)
EOF

cat > "$prefix/lib/cmake/pte/pteConfigVersion.cmake" <<EOF
# Compatible within one minor series while the version is 0.x (SameMinorVersion).
set(PACKAGE_VERSION "$version")
string(REGEX MATCH "^[0-9]+\\\\.[0-9]+" _pte_series "\${PACKAGE_VERSION}")
string(REGEX MATCH "^[0-9]+\\\\.[0-9]+" _pte_asked "\${PACKAGE_FIND_VERSION}")
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(PACKAGE_FIND_VERSION AND NOT _pte_series STREQUAL _pte_asked)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
unset(_pte_series)
unset(_pte_asked)
EOF

if $fuzz; then
  install -m 644 "$root/crates/pte-fuzz/include/pte_fuzz.h" "$prefix/include/pte_fuzz.h"
  install -m 644 "$release/libpte_fuzz.a" "$prefix/lib/libpte_fuzz.a"
  install -d "$prefix/share/pte"
  install -m 644 "$root/crates/pte-fuzz/pte.dict" "$prefix/share/pte/pte.dict"
  # the template forces the two entry points in: libFuzzer only references
  # them weakly, so a plain -lpte_fuzz would leave them in the archive
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" \
    "$root/crates/pte-fuzz/pte-fuzz.pc.in" > "$prefix/lib/pkgconfig/pte-fuzz.pc"
fi

echo "installed libpte $version under $prefix$($fuzz && echo ' (with pte-fuzz)')"
