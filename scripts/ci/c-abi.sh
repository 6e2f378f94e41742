#!/usr/bin/env bash
# The C ABI as a C or C++ user meets it: install libpte into a temporary
# PREFIX (scripts/install-c.sh), build the examples of crates/pte-c/examples
# with the system gcc/g++ through pkg-config and through a CMake project
# using find_package(pte) (Debian's cmake is installed when absent, with
# root and apt; else that part is skipped with a message), run them on
# every corpus file comparing their JSON with the pte command's, and run
# them under valgrind on a few files: no leak, no invalid access.
# A newcomer's first build too: the README's own compile line (read out of
# README.md) and pte.h's usage example, run with an empty environment
# (env -i), the soname readelf shows, and pte.dict where the README says.
# Nothing sets LD_LIBRARY_PATH: programs find libpte by their run path.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

for tool in gcc g++ pkg-config readelf; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "c-abi: skipped, $tool not available"
    exit 0
  fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
# the debug build `cargo test --workspace` made before: no second build
PTE_PROFILE=dev scripts/install-c.sh "$prefix"
cargo build --locked -p pte-cli --bin pte
pte="$CARGO_TARGET_DIR/debug/pte"
examples="$root/crates/pte-c/examples"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"

passed=0
failed=0
check() { # NAME COMMAND...: one counted check
  local name="$1"
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAILED: $name"
  fi
}

# pkg-config: shared, and the static archive with its private libraries
bin="$work/bin"
mkdir -p "$bin"
cflags="$(pkg-config --cflags pte)"
for c in inspect samples; do
  gcc -std=c11 -Wall -Wextra -Werror $cflags "$examples/$c.c" -o "$bin/$c" $(pkg-config --libs pte)
done
g++ -std=c++17 -Wall -Wextra -Werror $cflags "$examples/segments.cpp" -o "$bin/segments" $(pkg-config --libs pte)
gcc -std=c11 -Wall $cflags "$examples/inspect.c" -o "$bin/inspect-static" \
  "$prefix/lib/libpte.a" $(pkg-config --libs-only-other --static pte) -lpthread -ldl -lm

# The fuzzing kit links through its own pkg-config name: the two libFuzzer
# entry points must come out of the archive (they are only weakly referenced
# by libFuzzer), and the mutator must stay within MaxSize.
if pkg-config --exists pte-fuzz; then
  cat > "$work/mutate.c" <<'C'
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "pte_fuzz.h"
int main(int argc, char **argv) {
  uint8_t buf[1 << 16];
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 2;
  size_t n = fread(buf, 1, sizeof buf / 2, f);
  fclose(f);
  for (unsigned seed = 0; seed < 200; seed++) {
    size_t m = LLVMFuzzerCustomMutator(buf, n, sizeof buf, seed);
    if (m > sizeof buf) return 1;
    n = m ? m : n;
  }
  uint8_t out[1 << 16];
  return LLVMFuzzerCustomCrossOver(buf, n, buf, n, out, sizeof out, 1) <= sizeof out ? 0 : 1;
}
C
  gcc -std=c11 -Wall -Werror $(pkg-config --cflags pte-fuzz) "$work/mutate.c" -o "$bin/mutate" $(pkg-config --libs pte-fuzz)
  check "pte-fuzz mutator through pkg-config" "$bin/mutate" "$root/tests/corpus/linear/model.pte"
  check "pte-fuzz entry points linked" sh -c "nm '$bin/mutate' | grep -q ' T LLVMFuzzerCustomCrossOver'"
  # the dictionary where the README says it is
  check "README names PREFIX/share/pte/pte.dict" grep -q 'PREFIX/share/pte/pte\.dict' README.md
  check "pte.dict installed" cmp -s crates/pte-fuzz/pte.dict "$prefix/share/pte/pte.dict"
fi

# What the pte command prints, text for text (the library leaves off the final newline).
same_json() { # LABEL EXPECTED-COMMAND... -- ACTUAL-COMMAND...
  local label="$1"
  shift
  local want=() got=()
  while [ "$1" != "--" ]; do want+=("$1"); shift; done
  shift
  got=("$@")
  "${want[@]}" >"$work/want" 2>/dev/null || true
  "${got[@]}" >"$work/got" 2>/dev/null || true
  if ! cmp -s "$work/want" "$work/got"; then
    echo "$label differs:"
    diff "$work/want" "$work/got" | head -n 20
    return 1
  fi
}

# `pte ops --json`'s entry for one file, less its `file` key, written as
# serde_json writes it (keys sorted, no spaces): what pte_ops_json gives.
ops_entry() { # FILE (exit 2 where the command refuses)
  local out rc
  out="$("$pte" ops --json "$1" 2>/dev/null)" && rc=0 || rc=$?
  [ "$rc" -eq 2 ] && return 2
  printf '%s' "$out" | python3 -c 'import json, sys
e = json.load(sys.stdin)["files"][0]
e.pop("file")
print(json.dumps(e, sort_keys=True, separators=(",", ":"), ensure_ascii=False))'
}

# The README's compile line, taken from README.md so the two cannot part,
# run as written in a folder holding inspect.c, against the installed
# PREFIX; the program must then start with no environment at all.
one_line() { # PATTERN: the one README line matching it
  local lines
  lines="$(grep -E "$1" README.md || true)"
  if [ -z "$lines" ] || [ "$(printf '%s\n' "$lines" | wc -l)" -ne 1 ]; then
    echo "c-abi: README.md has not exactly one line matching $1" >&2
    return 1
  fi
  printf '%s\n' "$lines"
}
readme_env="$(one_line '^export PKG_CONFIG_PATH=PREFIX/lib/pkgconfig$')" || readme_env=false
readme_cc="$(one_line '^cc inspect\.c .*\$\(pkg-config --cflags --libs pte\)')" || readme_cc=false
newcomer="$work/newcomer"
mkdir -p "$newcomer"
cp "$examples/inspect.c" "$newcomer/"
linear=tests/corpus/linear/model.pte
damaged=tests/regressions/out-of-bounds/pte-segment-data-past-end.pte
check "README's compile line builds" bash -c 'cd "$1" && unset PKG_CONFIG_PATH && eval "${2//PREFIX/$3}" && eval "$4"' _ \
  "$newcomer" "$readme_env" "$prefix" "$readme_cc"
check "README's program runs under env -i" bash -c 'env -i "$1" "$2" >/dev/null' _ "$newcomer/inspect" "$root/$linear"
check "README's program under env -i: verdict" same_json "verdict $linear" "$pte" verify --json "$linear" \
  -- env -i "$newcomer/inspect" "$root/$linear" verdict
# the soname: recorded in the library, asked for by the program, named by the README
soname="$(readelf -d "$prefix/lib/libpte.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')"
check "readelf -d shows the soname libpte.so.N" bash -c '[[ "$1" =~ ^libpte\.so\.[0-9]+$ ]]' _ "$soname"
check "libpte.so links to the soname's file" bash -c '[ "$(readlink "$1/libpte.so")" = "$2" ] && [ -f "$1/$2" ]' _ \
  "$prefix/lib" "$soname"
check "the program needs the soname" sh -c "readelf -d '$newcomer/inspect' | grep -q 'NEEDED.*\\[$soname\\]'"
check "README names the soname" bash -c '[ "$(grep -o "libpte\.so\.[0-9][0-9]*" README.md | sort -u)" = "$1" ]' _ "$soname"

# pte.h's usage example, cut out of the installed header: it builds, and a
# damaged file opens and verifies into its violation count (exit 1).
sed -n '/^ \*   #include <stdio.h>$/,/^ \*   }$/s/^ \*//p' "$prefix/include/pte.h" >"$work/check.c"
check "pte.h's example builds" gcc -std=c11 -Wall -Wextra -Werror $cflags "$work/check.c" -o "$bin/check" \
  $(pkg-config --libs pte)
check "pte.h's example: a sound file" bash -c 'out="$(env -i "$1" "$2")" && [ "$out" = "$2: 0 violation(s)" ]' _ \
  "$bin/check" "$root/$linear"
check "pte.h's example: a damaged file opens and counts" bash -c \
  'out="$(env -i "$1" "$2")"; [ $? -eq 1 ] && [[ "$out" =~ ": "[1-9][0-9]*" violation(s)"$ ]]' _ "$bin/check" "$root/$damaged"

files=(tests/corpus/*/*.pte tests/corpus/*/*.ptd tests/corpus/*/*.ptn tests/corpus/*/*.bpte)
for f in "${files[@]}"; do
  check "verdict $f" same_json "verdict $f" "$pte" verify --json "$f" -- "$bin/inspect" "$f" verdict
  check "verdict (static) $f" same_json "verdict $f" "$pte" verify --json "$f" -- "$bin/inspect-static" "$f" verdict
  check "dump $f" same_json "dump $f" "$pte" dump "$f" -- "$bin/inspect" "$f" dump
  check "summary $f" same_json "summary $f" "$pte" info --json "$f" -- "$bin/inspect" "$f" summary
  check "size $f" same_json "size $f" "$pte" size --json "$f" -- "$bin/inspect" "$f" size
  # a .ptd or .ptn has no plan, a .ptd no operators: both sides print nothing then
  check "memory $f" same_json "memory $f" "$pte" memory --json "$f" -- "$bin/inspect" "$f" memory
  check "ops $f" same_json "ops $f" ops_entry "$f" -- "$bin/inspect" "$f" ops
  check "segments $f" "$bin/segments" "$f" >/dev/null
  check "inspect $f" bash -c '"$1" "$2" >/dev/null 2>&1; [ $? -le 1 ]' _ "$bin/inspect" "$f"
done
# the program/data link: findings and warnings as `pte verify --ptd` gives them
ext=tests/corpus/external
check "verdict with --ptd" same_json "verdict --ptd" "$pte" verify --json "$ext/model.pte" --ptd "$ext/_default_external_constant.ptd" \
  -- "$bin/inspect" "$ext/model.pte" verdict "$ext/_default_external_constant.ptd"
# a data file that is no .ptd: the verification itself fails (exit 2), as the CLI's does
check "a program as --ptd is refused" bash -c '"$1" "$2" verdict "$3" >/dev/null 2>&1; [ $? -eq 2 ]' _ \
  "$bin/inspect" "$ext/model.pte" tests/corpus/add/model.pte
# One mutant per catalogue class (`pte mutate --list`), of the first corpus
# file of its kind: the C answers are the command's, and each side refuses
# (exit 2) exactly where the other does.
same_answer() { # LABEL EXPECTED-COMMAND... -- ACTUAL-COMMAND...
  local label="$1" wrc grc
  shift
  local want=() got=()
  while [ "$1" != "--" ]; do want+=("$1"); shift; done
  shift
  got=("$@")
  "${want[@]}" >"$work/want" 2>/dev/null && wrc=0 || wrc=$?
  "${got[@]}" >"$work/got" 2>/dev/null && grc=0 || grc=$?
  if [ "$wrc" -eq 2 ] || [ "$grc" -eq 2 ]; then
    [ "$wrc" -eq "$grc" ] && return 0
    echo "$label: the command exits $wrc, the C answer $grc"
    return 1
  fi
  if ! cmp -s "$work/want" "$work/got"; then
    echo "$label differs:"
    diff "$work/want" "$work/got" | head -n 20
    return 1
  fi
}
mutants="$work/mutants"
mkdir -p "$mutants"
compared=0
while read -r rule kind _; do
  src="$(ls tests/corpus/*/*."$kind" 2>/dev/null | head -n 1 || true)"
  [ -n "$src" ] || continue
  m="$mutants/$rule.$kind"
  "$pte" mutate --rule "$rule" "$src" "$m" >/dev/null 2>&1 || continue
  # a mutant that is no ExecuTorch file any more does not open in C either
  if ! "$bin/inspect" "$m" summary >/dev/null 2>&1 && ! "$pte" info --json "$m" >/dev/null 2>&1; then
    compared=$((compared + 1)) # both refuse it: they agree
    continue
  fi
  check "summary of mutant $rule" same_answer "summary $rule" "$pte" info --json "$m" -- "$bin/inspect" "$m" summary
  check "size of mutant $rule" same_answer "size $rule" "$pte" size --json "$m" -- "$bin/inspect" "$m" size
  check "memory of mutant $rule" same_answer "memory $rule" "$pte" memory --json "$m" -- "$bin/inspect" "$m" memory
  check "ops of mutant $rule" same_answer "ops $rule" ops_entry "$m" -- "$bin/inspect" "$m" ops
  compared=$((compared + 1))
done < <("$pte" mutate --list)
check "mutants compared (>= 90)" test "$compared" -ge 90
for f in tests/regressions/*/*; do
  # damaged files: a verdict (invalid, exit 1) or a clean refusal (exit 2), never a crash
  check "damaged $f" bash -c '"$1" "$2" >/dev/null 2>&1; rc=$?; [ $rc -eq 1 ] || [ $rc -eq 2 ]' _ "$bin/inspect" "$f"
done

# A package with samples: the add model's recorded I/O goes into a copy of
# the native package when python3 can write the safetensors file.
package=""
if command -v python3 >/dev/null 2>&1; then
  python3 - "$work/io.safetensors" <<'EOF'
import json, struct, sys
x = struct.pack("<32f", *[i / 8 for i in range(32)])
y = struct.pack("<16f", *[i / 4 for i in range(16)])
header = {"input.0": {"dtype": "F32", "shape": [2, 16], "data_offsets": [0, 128]},
          "output.0": {"dtype": "F32", "shape": [2, 8], "data_offsets": [128, 192]}}
h = json.dumps(header).encode()
h += b" " * (-len(h) % 8)
open(sys.argv[1], "wb").write(struct.pack("<Q", len(h)) + h + x + y)
EOF
  cp tests/corpus/native_ptn/model.ptn "$work/samples.ptn"
  "$pte" samples import-io "$work/io.safetensors" forward smoke "$work/set" >/dev/null
  "$pte" samples add "$work/samples.ptn" "$work/set" >/dev/null
  package="$work/samples.ptn"
  check "samples $package" bash -c '"$1" "$2" | grep -q "^forward/smoke: 1 sample"' _ "$bin/samples" "$package"
fi
check "samples bundled" bash -c '"$1" "$2" | grep -q "^forward/bundled: 3 sample"' _ "$bin/samples" tests/corpus/bundled/model.bpte

# CMake: find_package(pte) and the pte::pte target
cmake_ok=false
if ! command -v cmake >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake >/dev/null) || true
fi
if command -v cmake >/dev/null 2>&1; then
  mkdir -p "$work/cmake"
  cat >"$work/cmake/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(pte_examples C CXX)
find_package(pte 0.1 REQUIRED CONFIG)
add_executable(inspect "$examples/inspect.c")
target_link_libraries(inspect PRIVATE pte::pte)
add_executable(segments "$examples/segments.cpp")
target_compile_features(segments PRIVATE cxx_std_17)
target_link_libraries(segments PRIVATE pte::pte)
add_executable(samples "$examples/samples.c")
target_link_libraries(samples PRIVATE pte::pte)
EOF
  cmake -S "$work/cmake" -B "$work/cmake/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work/cmake/build" >/dev/null
  for f in tests/corpus/linear/model.pte tests/corpus/native_ptn/model.ptn; do
    check "cmake verdict $f" same_json "verdict $f" "$pte" verify --json "$f" -- env -i "$work/cmake/build/inspect" "$f" verdict
    check "cmake segments $f" "$work/cmake/build/segments" "$f" >/dev/null
  done
  cmake_ok=true
else
  echo "c-abi: the CMake part skipped: cmake not available (and not installable here)"
fi

# valgrind: every example on a few files, leaks and invalid accesses fail
if command -v valgrind >/dev/null 2>&1; then
  vg=(valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99)
  vg_run() { # expected exit codes 0-2 are the program's; 99 is valgrind's
    "${vg[@]}" "$@" >/dev/null 2>"$work/vg.log"
    local rc=$?
    if [ $rc -eq 99 ]; then
      cat "$work/vg.log"
      return 1
    fi
  }
  for f in tests/corpus/xnnpack_mlp/model.pte tests/corpus/external/_default_external_constant.ptd \
    tests/corpus/legacy_inline_constants/model.pte tests/regressions/out-of-bounds/pte-segment-data-past-end.pte; do
    check "valgrind inspect $f" vg_run "$bin/inspect" "$f"
    check "valgrind segments $f" vg_run "$bin/segments" "$f"
  done
  check "valgrind inspect --ptd" vg_run "$bin/inspect" "$ext/model.pte" verdict "$ext/_default_external_constant.ptd"
  check "valgrind samples bundled" vg_run "$bin/samples" tests/corpus/bundled/model.bpte
  if [ -n "$package" ]; then
    check "valgrind samples $package" vg_run "$bin/samples" "$package"
  fi
else
  echo "c-abi: the valgrind part skipped: valgrind not available"
fi

echo "c-abi: $passed passed, $failed failed$($cmake_ok || echo ' (CMake part skipped)')"
[ "$failed" -eq 0 ]
